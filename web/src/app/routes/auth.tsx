import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { BrandMark } from '#web/components/layout/brand-logo.tsx';
import { Card, CardContent, CardDescription, CardHeader } from '#web/components/ui/card.tsx';
import { AUTH_TAB_DESCRIPTIONS, AUTH_TAB_LABELS, parseAuthTab } from '#web/features/auth/auth-tabs.ts';
import { AuthScreen } from '#web/features/auth/components/auth-screen.tsx';
import { useConfirmedUserId } from '#web/lib/auth/hooks/use-auth.ts';
import { getConfig } from '#web/lib/config.ts';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';

/**
 * The authentication screen as a full page (product §auth-screen); the active tab is the `tab` query
 * parameter. A member who is already signed in is sent home (product §auth-screen), except on the tab where a
 * password-reset link's session sets the new password.
 */
export default function AuthPage() {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const tab = parseAuthTab(params.get('tab'));
  const { siteName } = getConfig();
  const userId = useConfirmedUserId();
  useDocumentTitle(AUTH_TAB_LABELS[tab]);

  if (userId && tab !== 'reset-confirm') return <Navigate to="/" replace />;

  // A screen tall, as the placeholder shown while this page's code loads: a shorter page would pull the
  // footer up into view when it arrives (layout shift, issue 21).
  return (
    <div className="mx-auto flex min-h-svh max-w-lg flex-col px-4 py-12 sm:py-16">
      <Card>
        <CardHeader className="items-center text-center">
          <BrandMark className="size-12" />
          <h1 className="mt-2 font-bold text-2xl tracking-tight">{siteName}</h1>
          <CardDescription className="text-base">{AUTH_TAB_DESCRIPTIONS[tab]}</CardDescription>
        </CardHeader>
        <CardContent>
          <AuthScreen
            tab={tab}
            onTabChange={(next) => setParams({ tab: next }, { replace: true })}
            onSignedIn={() => navigate('/')}
            onSocialStarted={() => {}}
          />
        </CardContent>
      </Card>
    </div>
  );
}
