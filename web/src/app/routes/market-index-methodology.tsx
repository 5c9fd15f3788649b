import { useParams } from 'react-router';
import { MethodologyPage } from '#web/features/market/components/methodology.tsx';

export default function MarketIndexMethodologyPage() {
  const { slug = '' } = useParams();
  return <MethodologyPage slug={slug} />;
}
