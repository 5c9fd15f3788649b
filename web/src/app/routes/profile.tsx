import { UserRound } from 'lucide-react';
import { Link } from 'react-router';
import { PageContainer } from '#web/components/layout/page-header.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardHeader } from '#web/components/ui/card.tsx';
import { usePasskeysOffered } from '#web/features/auth/hooks/use-passkeys-offered.ts';
import { ProfileView } from '#web/features/profile/components/profile-view.tsx';
import { SubscriptionTab } from '#web/features/subscription/components/subscription-tab.tsx';
import { TrialCountdownCard } from '#web/features/subscription/components/trial-countdown-card.tsx';
import { useScammerAccess } from '#web/features/subscription/hooks/use-scammer-access.ts';
import { useAuth } from '#web/lib/auth/hooks/use-auth.ts';
import type { SessionUser } from '#web/lib/auth/stored-session.ts';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';

/** The member's profile with the subscription feature's trial card and tab, and the auth settings' passkey switch, composed in. */
function MemberProfile({ user }: { user: SessionUser }) {
  const access = useScammerAccess();
  const { isAdmin } = useAuth();
  const passkeysOffered = usePasskeysOffered();
  // Admins always have access (product §access): no trial countdown and no Subscribe prompt for them.
  const trialEndsAt = access.trialActive && !isAdmin ? access.facts?.trialEndsAt : null;
  const active = access.subscriptionActive ? (access.facts?.subscription ?? null) : null;
  return (
    <ProfileView
      user={user}
      passkeysOffered={passkeysOffered}
      trialCountdown={trialEndsAt ? <TrialCountdownCard trialEndsAt={trialEndsAt} /> : null}
      subscriptionTab={
        access.userId ? (
          <SubscriptionTab
            userId={access.userId}
            active={active}
            isAdmin={isAdmin}
            trialEndsAt={trialEndsAt ?? null}
          />
        ) : null
      }
    />
  );
}

/** Product §profile: a visitor is asked to sign in; a member gets their settings (ProfileView). */
export default function ProfilePage() {
  useDocumentTitle('Profile');
  const { user } = useAuth();
  if (user) return <MemberProfile user={user} />;
  return (
    <PageContainer className="max-w-lg py-16">
      <Card className="text-center">
        <CardHeader className="items-center">
          <div className="flex size-14 items-center justify-center rounded-full bg-secondary text-primary">
            <UserRound aria-hidden="true" className="size-7" />
          </div>
          <h1 className="mt-2 font-bold text-2xl tracking-tight">Profile</h1>
        </CardHeader>
        <CardContent>
          <p className="text-muted-foreground">Please sign in to view your profile.</p>
          <Button asChild className="mt-6">
            <Link to="/auth">Sign In</Link>
          </Button>
        </CardContent>
      </Card>
    </PageContainer>
  );
}
