import { lazy, Suspense, useEffect, useRef } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { ErrorBoundary } from '#web/components/layout/error-boundary.tsx';
import { PageSkeleton } from '#web/components/layout/page-skeleton.tsx';
import { SiteFooter } from '#web/components/layout/site-footer.tsx';
import { SiteHeader } from '#web/components/layout/site-header.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { useAgeGate } from '#web/features/age-gate/use-age-gate.ts';
import { NotificationsBell } from '#web/features/notifications/components/notifications-bell.tsx';
import { ScammerReportDialogHost } from '#web/features/scammer-reports/components/scammer-report-dialog-host.tsx';
import { useAuth, useConfirmedUserId } from '#web/lib/auth/hooks/use-auth.ts';
import { useAuthSession } from '#web/lib/auth/hooks/use-auth-session.ts';
import { useAutoSignOut } from '#web/lib/auth/hooks/use-auto-sign-out.ts';
import { useSignOut } from '#web/lib/auth/hooks/use-sign-out.ts';
import { openSignInDialog, signInDialogStore } from '#web/lib/auth/sign-in-dialog.ts';
import { getConfig } from '#web/lib/config.ts';
import { retryFailedPages } from '#web/lib/lazy-page.tsx';
import { useBrowserSecurity } from '#web/lib/security/use-browser-security.ts';
import { useStore } from '#web/lib/store.ts';
import { useScrollRestoration } from '#web/lib/use-scroll-restoration.ts';
import { useScammerNetworkActions } from '../hooks/use-scammer-network-actions.ts';
import { preloadPage } from '../pages.ts';
import type { LayoutContext } from './layout-context.ts';

const loadAuthDialog = () => import('#web/features/auth/components/auth-dialog.tsx');
// The dialog (and the forms in it) load when a visitor reaches for the Sign In button.
const AuthDialog = lazy(loadAuthDialog);

export function RootLayout() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const auth = useAuth();
  const confirmedUserId = useConfirmedUserId();
  const signOut = useSignOut();
  const authDialog = useStore(signInDialogStore);
  const setAuthDialog = signInDialogStore.set;
  const openAuthDialog = openSignInDialog;
  const { hasAccess, openScammerNetwork, submitTip } = useScammerNetworkActions(auth.user !== null);
  const main = useRef<HTMLElement>(null);
  useBrowserSecurity();
  useScrollRestoration();
  useAgeGate(pathname);

  // Arriving from a password recovery link (PASSWORD_RECOVERY): choose the new password.
  useAuthSession({
    onPasswordRecovery: () => {
      setAuthDialog((state) => ({ ...state, open: false }));
      navigate('/auth?tab=reset-confirm', { replace: true });
    },
  });

  useAutoSignOut({
    sessionKey: auth.sessionKey,
    timeoutMs: getConfig().autoSignOutMs,
    onIdle: () => {
      void signOut().then(() =>
        toast({ title: 'Signed out', description: 'You were signed out after a period of inactivity.' }),
      );
    },
  });

  // After a client-side navigation, move focus to the new page so screen readers start there
  // (a full page load would have done the same). Not on the first render.
  const previousPath = useRef(pathname);
  useEffect(() => {
    if (previousPath.current === pathname) return;
    previousPath.current = pathname;
    main.current?.focus({ preventScroll: true });
  }, [pathname]);

  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main-content"
        className="sr-only z-50 rounded-md bg-primary px-4 py-2 font-medium text-primary-foreground focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to main content
      </a>
      <SiteHeader
        user={auth.user ? { email: auth.user.email, isAdmin: auth.isAdmin } : null}
        hasScammerAccess={hasAccess}
        notifications={
          // Loaded once supabase-js has confirmed the session, keeping it out of the first render.
          <NotificationsBell signedIn={auth.user !== null} userId={confirmedUserId} />
        }
        onOpenScammerNetwork={openScammerNetwork}
        onSubmitTip={submitTip}
        onSignIn={openAuthDialog}
        onSignOut={() => void signOut()}
        onPreload={(path) => {
          if (path === '/auth') void loadAuthDialog().catch(() => {});
          else preloadPage(path);
        }}
      />
      <main id="main-content" ref={main} tabIndex={-1} className="flex-1 outline-none">
        <ErrorBoundary resetKey={pathname} onReset={retryFailedPages}>
          <Suspense key={pathname} fallback={<PageSkeleton />}>
            <Outlet context={{ openSignIn: openAuthDialog } satisfies LayoutContext} />
          </Suspense>
        </ErrorBoundary>
      </main>
      <SiteFooter />
      <ScammerReportDialogHost />
      {authDialog.used ? (
        <Suspense fallback={null}>
          <AuthDialog
            open={authDialog.open}
            reason={authDialog.reason}
            onOpenChange={(open) => setAuthDialog((state) => ({ ...state, open }))}
          />
        </Suspense>
      ) : null}
    </div>
  );
}
