import { Link } from 'react-router';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent } from '#web/components/ui/card.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import type { Activity } from '../api/get-activity.ts';
import { formatDate, type Profile } from '../profile-data.ts';
import { ProfileAvatar } from './profile-avatar.tsx';

interface ProfileSummaryCardProps {
  loading: boolean;
  email: string;
  profile: Profile | null;
  activity: Activity;
}

/** Product §profile: avatar, @username, name or email, the three counts, member since and the bio. */
export function ProfileSummaryCard({ loading, email, profile, activity }: ProfileSummaryCardProps) {
  if (loading) {
    return (
      <Card aria-busy="true">
        <CardContent className="grid justify-items-center gap-3 pt-6">
          <p className="sr-only" role="status">
            Loading your profile...
          </p>
          <Skeleton className="size-24 rounded-full" />
          <Skeleton className="h-5 w-32" />
          <Skeleton className="h-4 w-40" />
        </CardContent>
      </Card>
    );
  }
  const counts = [
    { label: 'Total Votes', value: activity.votes.length },
    { label: 'Comments', value: activity.comments.length },
    { label: 'Saved Articles', value: activity.saved.length },
  ];
  return (
    <Card>
      <CardContent className="grid min-w-0 justify-items-center gap-4 pt-6 text-center">
        <ProfileAvatar profile={profile} />
        <div className="grid w-full min-w-0 gap-1">
          <h2 className="font-semibold text-lg">
            {profile?.username ? `@${profile.username}` : 'No username set'}
          </h2>
          <p className="text-muted-foreground text-sm">{profile?.full_name || email}</p>
        </div>
        <dl className="grid w-full grid-cols-3 gap-2 border-y py-4">
          {counts.map((count) => (
            <div key={count.label} className="flex flex-col-reverse justify-end gap-0.5">
              <dt className="text-muted-foreground text-xs">{count.label}</dt>
              <dd className="font-bold text-xl">{count.value}</dd>
            </div>
          ))}
        </dl>
        {profile?.created_at ? (
          <p className="text-muted-foreground text-sm">Member since {formatDate(profile.created_at)}</p>
        ) : null}
        {profile?.bio ? <p className="whitespace-pre-wrap text-sm">{profile.bio}</p> : null}
        {profile?.username ? (
          <Button asChild variant="outline" size="sm">
            <Link to={`/u/${encodeURIComponent(profile.username)}`}>View public profile</Link>
          </Button>
        ) : null}
      </CardContent>
    </Card>
  );
}
