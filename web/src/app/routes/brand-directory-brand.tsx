import { useParams } from 'react-router';
import { BrandPage } from '#web/features/brands/components/brand-page.tsx';
import { useAuth } from '#web/lib/auth/hooks/use-auth.ts';
import { useLayoutContext } from '../layout/layout-context.ts';

export default function BrandDirectoryBrandPage() {
  const { slug = '' } = useParams();
  const { openSignIn } = useLayoutContext();
  const signedIn = useAuth().user !== null;
  return <BrandPage key={slug} slug={slug} signedIn={signedIn} onSignIn={openSignIn} />;
}
