import { LogIn } from 'lucide-react';
import { Button } from '#web/components/ui/button.tsx';
import { signInWithProvider } from '../api/sign-in-with-provider.ts';
import type { useAuthAction } from '../hooks/use-auth-action.ts';
import { useSocialProvider } from '../hooks/use-social-provider.ts';
import { providerLabel } from '../social-provider.ts';

interface SocialSignInProps {
  /** The surrounding form's submission state: one busy flag per form (product §auth-screen). */
  action: ReturnType<typeof useAuthAction>;
  /**
   * The browser is about to leave for the provider (product §auth-screen: social login success closes the
   * dialog).
   */
  onStarted: () => void;
}

/**
 * The social login button and the "Or continue with" divider (product §auth-screen); nothing when none is
 * configured.
 */
export function SocialSignIn({ action, onStarted }: SocialSignInProps) {
  const { loading, provider } = useSocialProvider();
  // The button's room while the settings load; hidden from the first paint when the server has no
  // provider (web/src/styles.css), so the fields below never move.
  if (loading) return <div aria-hidden="true" data-social-sign-in-slot="" className="h-[5.5rem]" />;
  if (!provider) return null;
  return (
    <div className="grid gap-4">
      <Button
        variant="outline"
        className="w-full"
        disabled={action.busy}
        onClick={async () => {
          if (await action.run('auth_oauth', () => signInWithProvider(provider))) onStarted();
        }}
      >
        <LogIn aria-hidden="true" />
        Continue with {providerLabel(provider)}
      </Button>
      <div className="flex items-center gap-3 text-muted-foreground text-xs uppercase">
        <span aria-hidden="true" className="h-px flex-1 bg-border" />
        Or continue with
        <span aria-hidden="true" className="h-px flex-1 bg-border" />
      </div>
    </div>
  );
}
