import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { PageContainer } from '#web/components/layout/page-header.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#web/components/ui/tabs.tsx';
import { useConfirmedUserId } from '#web/lib/auth/hooks/use-auth.ts';
import type { SessionUser } from '#web/lib/auth/stored-session.ts';
import { useProfileData } from '../hooks/use-profile-data.ts';
import { type ProfileTab, profileTabOf } from '../profile-data.ts';
import { CommentsTab, VotesTab } from './activity-tabs.tsx';
import { AvatarUploadCard } from './avatar-upload-card.tsx';
import { PasskeysCard } from './passkeys-card.tsx';
import { PrivacySettingsPanel } from './privacy-settings-panel.tsx';
import { ProfileForm } from './profile-form.tsx';
import { ProfileSummaryCard } from './profile-summary-card.tsx';
import { SavedArticlesTab } from './saved-articles-tab.tsx';

const TAB_LABELS: Record<ProfileTab, string> = {
  settings: 'Settings',
  privacy: 'Privacy',
  saved: 'Saved',
  subscription: 'Subscription',
  votes: 'Votes',
  comments: 'Comments',
};

/**
 * The open tab's name as a heading for screen readers, so the cards' headings (h3) inside a tab always
 * follow an h2, whatever has loaded above them (the summary card's h2 waits for the profile).
 */
function TabHeading({ tab }: { tab: ProfileTab }) {
  return <h2 className="sr-only">{TAB_LABELS[tab]}</h2>;
}

interface ProfileViewProps {
  user: SessionUser;
  /** The trial countdown card, while the trial runs (the subscription feature's, composed by the page). */
  trialCountdown?: ReactNode;
  /** The Subscription tab's content (the subscription feature's, composed by the page). */
  subscriptionTab: ReactNode;
  /** Whether the server offers passkeys and the browser can make them (the page asks the auth settings). */
  passkeysOffered?: boolean;
}

/** Product §profile for a signed-in member: summary card, trial countdown and six tabs. */
export function ProfileView({
  user,
  trialCountdown,
  subscriptionTab,
  passkeysOffered = false,
}: ProfileViewProps) {
  const [params, setParams] = useSearchParams();
  const tab = profileTabOf(params.get('tab'));
  // Data loads once supabase-js has confirmed the session, as the header does.
  const userId = useConfirmedUserId();
  const data = useProfileData(userId);

  return (
    <PageContainer className="py-8">
      <Button asChild variant="ghost" className="-ml-3">
        <Link to="/">
          <ArrowLeft aria-hidden="true" />
          Back to Home
        </Link>
      </Button>
      <h1 className="mt-4 font-bold text-3xl tracking-tight">Profile Settings</h1>

      {trialCountdown ? <div className="mt-6">{trialCountdown}</div> : null}

      <div className="mt-6 grid items-start gap-6 lg:grid-cols-[20rem_minmax(0,1fr)]">
        <ProfileSummaryCard
          loading={data.loading}
          email={user.email}
          profile={data.profile}
          activity={data.activity}
        />
        <Tabs
          // A grid item shrinks to its track only with min-width 0: a long line (a passkey's name)
          // must not widen the page on a phone.
          className="min-w-0"
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
          {userId ? (
            <>
              <TabsContent value="settings" className="grid gap-6">
                <TabHeading tab="settings" />
                <AvatarUploadCard userId={userId} profile={data.profile} />
                <ProfileForm userId={userId} profile={data.profile} />
                {passkeysOffered ? <PasskeysCard userId={userId} /> : null}
              </TabsContent>
              <TabsContent value="privacy">
                <TabHeading tab="privacy" />
                <PrivacySettingsPanel userId={userId} />
              </TabsContent>
              <TabsContent value="saved">
                <TabHeading tab="saved" />
                <SavedArticlesTab userId={userId} articles={data.activity.saved} />
              </TabsContent>
              <TabsContent value="subscription">
                <TabHeading tab="subscription" />
                {subscriptionTab}
              </TabsContent>
              <TabsContent value="votes">
                <TabHeading tab="votes" />
                <VotesTab votes={data.activity.votes} />
              </TabsContent>
              <TabsContent value="comments">
                <TabHeading tab="comments" />
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
