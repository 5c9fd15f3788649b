import { ArrowLeft } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';
import { PageContainer } from '../../../components/layout/page-header.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs.tsx';
import type { SessionUser } from '../../auth/stored-session.ts';
import { SubscriptionTab } from '../../subscription/components/subscription-tab.tsx';
import { TrialCountdownCard } from '../../subscription/components/trial-countdown-card.tsx';
import { useScammerAccess } from '../../subscription/hooks/use-scammer-access.ts';
import { useProfileData } from '../hooks/use-profile-data.ts';
import { type ProfileTab, profileTabOf } from '../profile-data.ts';
import { CommentsTab, SavedArticlesTab, VotesTab } from './activity-tabs.tsx';
import { AvatarUploadCard } from './avatar-upload-card.tsx';
import { PrivacySettingsPanel } from './privacy-settings-panel.tsx';
import { ProfileForm } from './profile-form.tsx';
import { ProfileSummaryCard } from './profile-summary-card.tsx';

const TAB_LABELS: Record<ProfileTab, string> = {
  settings: 'Settings',
  privacy: 'Privacy',
  saved: 'Saved',
  subscription: 'Subscription',
  votes: 'Votes',
  comments: 'Comments',
};

/** Spec §2 "Profile page" for a signed-in member: summary card, trial countdown and six tabs. */
export function ProfileView({ user }: { user: SessionUser }) {
  const [params, setParams] = useSearchParams();
  const tab = profileTabOf(params.get('tab'));
  const access = useScammerAccess();
  // Data loads once supabase-js has confirmed the session (access.userId), as the header does.
  const data = useProfileData(access.userId);
  const activeSubscription = access.subscriptionActive ? (access.facts?.subscription ?? null) : null;

  return (
    <PageContainer className="py-8">
      <Button asChild variant="ghost" className="-ml-3">
        <Link to="/">
          <ArrowLeft aria-hidden="true" />
          Back to Home
        </Link>
      </Button>
      <h1 className="mt-4 font-bold text-3xl tracking-tight">Profile Settings</h1>

      {access.trialActive && access.facts?.trialEndsAt ? (
        <div className="mt-6">
          <TrialCountdownCard trialEndsAt={access.facts.trialEndsAt} />
        </div>
      ) : null}

      <div className="mt-6 grid items-start gap-6 lg:grid-cols-[20rem_minmax(0,1fr)]">
        <ProfileSummaryCard
          loading={data.loading}
          email={user.email}
          profile={data.profile}
          activity={data.activity}
        />
        <Tabs
          value={tab}
          onValueChange={(value) =>
            setParams(
              (current) => {
                const next = new URLSearchParams(current);
                next.set('tab', value);
                return next;
              },
              { replace: true },
            )
          }
        >
          <TabsList className="grid h-auto grid-cols-3 gap-1 sm:grid-cols-6">
            {(Object.keys(TAB_LABELS) as ProfileTab[]).map((key) => (
              <TabsTrigger key={key} value={key}>
                {TAB_LABELS[key]}
              </TabsTrigger>
            ))}
          </TabsList>
          {access.userId ? (
            <>
              <TabsContent value="settings" className="grid gap-6">
                <AvatarUploadCard
                  userId={access.userId}
                  profile={data.profile}
                  onProfileChange={data.setProfile}
                />
                <ProfileForm
                  userId={access.userId}
                  profile={data.profile}
                  onProfileChange={data.setProfile}
                />
              </TabsContent>
              <TabsContent value="privacy">
                <PrivacySettingsPanel userId={access.userId} />
              </TabsContent>
              <TabsContent value="saved">
                <SavedArticlesTab
                  userId={access.userId}
                  articles={data.activity.saved}
                  onRemoved={data.removeSaved}
                />
              </TabsContent>
              <TabsContent value="subscription">
                <SubscriptionTab userId={access.userId} active={activeSubscription} />
              </TabsContent>
              <TabsContent value="votes">
                <VotesTab votes={data.activity.votes} />
              </TabsContent>
              <TabsContent value="comments">
                <CommentsTab comments={data.activity.comments} />
              </TabsContent>
            </>
          ) : (
            <p role="status" className="py-10 text-center text-muted-foreground">
              Loading your profile...
            </p>
          )}
        </Tabs>
      </div>
    </PageContainer>
  );
}
