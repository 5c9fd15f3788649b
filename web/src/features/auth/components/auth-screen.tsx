import { useEffect } from 'react';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#web/components/ui/tabs.tsx';
import { startAuthSession } from '#web/lib/auth/session.ts';
import { AUTH_TAB_LABELS, type AuthTab, parseAuthTab, visibleAuthTabs } from '../auth-tabs.ts';
import { ResetConfirmForm } from './reset-confirm-form.tsx';
import { ResetRequestForm } from './reset-request-form.tsx';
import type { AuthFormProps } from './sign-in-form.tsx';
import { SignInForm } from './sign-in-form.tsx';
import { SignUpForm } from './sign-up-form.tsx';

interface AuthScreenProps extends AuthFormProps {
  tab: AuthTab;
  onTabChange: (tab: AuthTab) => void;
}

/**
 * The tabs and forms of the authentication screen (product §auth-screen), shared by the /auth page and the
 * dialog; each wraps it with the product's name and the subtitle.
 */
export function AuthScreen({ tab, onTabChange, onSignedIn, onSocialStarted }: AuthScreenProps) {
  // Every action here needs the client: load it now rather than when the browser is idle.
  useEffect(() => {
    void startAuthSession();
  }, []);

  return (
    <Tabs value={tab} onValueChange={(value) => onTabChange(parseAuthTab(value))}>
      <TabsList aria-label="Account">
        {visibleAuthTabs(tab).map((value) => (
          <TabsTrigger key={value} value={value}>
            {AUTH_TAB_LABELS[value]}
          </TabsTrigger>
        ))}
      </TabsList>
      <TabsContent value="signin">
        <SignInForm onSignedIn={onSignedIn} onSocialStarted={onSocialStarted} />
      </TabsContent>
      <TabsContent value="signup">
        <SignUpForm onSignedIn={onSignedIn} onSocialStarted={onSocialStarted} />
      </TabsContent>
      <TabsContent value="reset">
        <ResetRequestForm />
      </TabsContent>
      <TabsContent value="reset-confirm">
        <ResetConfirmForm onSignedIn={onSignedIn} />
      </TabsContent>
    </Tabs>
  );
}
