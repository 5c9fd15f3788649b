import { useParams } from 'react-router';
import { ProductPage } from '#web/features/pass-or-gas/components/product-page.tsx';
import { useAuth } from '#web/lib/auth/hooks/use-auth.ts';
import { useLayoutContext } from '../layout/layout-context.ts';

export default function PassOrGasProductPage() {
  const { id = '' } = useParams();
  const { openSignIn } = useLayoutContext();
  const signedIn = useAuth().user !== null;
  return <ProductPage key={id} id={id} signedIn={signedIn} onSignIn={openSignIn} />;
}
