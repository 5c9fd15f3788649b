import { ProductListPage } from '#web/features/pass-or-gas/components/product-list-page.tsx';
import { useAuth } from '#web/lib/auth/hooks/use-auth.ts';
import { useLayoutContext } from '../layout/layout-context.ts';

export default function PassOrGasPage() {
  const { openSignIn } = useLayoutContext();
  const signedIn = useAuth().user !== null;
  return <ProductListPage signedIn={signedIn} onSignIn={openSignIn} />;
}
