import { Mail } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent } from '#web/components/ui/card.tsx';
import { formatDate, initialsOf } from '../profile-data.ts';
import { PublicActivity, type VisibleProfile } from './public-activity.tsx';

function Avatar({ profile }: { profile: VisibleProfile }) {
  const label = `@${profile.username}`;
  if (profile.avatar_url) {
    return (
      <img
        src={profile.avatar_url}
        alt={`Avatar of ${label}`}
        className="size-24 shrink-0 rounded-full border object-cover"
      />
    );
  }
  return (
    <div
      role="img"
      aria-label={`Initials of ${label}`}
      className="flex size-24 shrink-0 items-center justify-center rounded-full border bg-secondary font-bold text-2xl text-primary"
    >
      {initialsOf({ full_name: profile.display_name, username: profile.username })}
    </div>
  );
}

/** What the member sees about their own page: who else sees it, and where to change that. */
function OwnNotice({ profile }: { profile: VisibleProfile }) {
  const text =
    profile.visibility === 'private'
      ? 'Your profile is private: only you can see this page.'
      : profile.visibility === 'friends'
        ? 'Your profile is set to Friends. Connections do not exist yet, so for now only you can see this page.'
        : 'Your profile is public: this is what everyone sees.';
  return (
    <div className="rounded-lg border bg-secondary/40 p-4 text-sm" data-testid="own-profile-notice">
      <p>{text}</p>
      <div className="mt-3 flex flex-wrap gap-2">
        <Button asChild size="sm" variant="outline">
          <Link to="/profile?tab=privacy">Privacy settings</Link>
        </Button>
        <Button asChild size="sm" variant="outline">
          <Link to="/profile">Edit profile</Link>
        </Button>
      </div>
    </div>
  );
}

/** A profile its member lets the viewer see: who they are, and their activity as they allow. */
export function VisibleProfileCard({ profile }: { profile: VisibleProfile }) {
  return (
    <div className="grid gap-6">
      {profile.is_self ? <OwnNotice profile={profile} /> : null}
      <Card>
        <CardContent className="flex flex-col items-center gap-4 pt-6 text-center sm:flex-row sm:items-start sm:text-left">
          <Avatar profile={profile} />
          <div className="grid min-w-0 gap-1">
            <h1 className="font-bold text-2xl tracking-tight sm:text-3xl">
              {profile.display_name ?? `@${profile.username}`}
            </h1>
            {profile.display_name ? <p className="text-muted-foreground">@{profile.username}</p> : null}
            <p className="text-muted-foreground text-sm">Member since {formatDate(profile.member_since)}</p>
            {profile.email ? (
              <p className="flex items-center justify-center gap-1.5 text-sm sm:justify-start">
                <Mail aria-hidden="true" className="size-4 shrink-0" />
                <a href={`mailto:${profile.email}`} className="hover:underline">
                  {profile.email}
                </a>
              </p>
            ) : null}
            {profile.bio ? <p className="mt-2 whitespace-pre-wrap">{profile.bio}</p> : null}
          </div>
        </CardContent>
      </Card>
      <section aria-labelledby="activity-heading" className="grid gap-4">
        <h2 id="activity-heading" className="font-semibold text-xl">
          Activity
        </h2>
        <PublicActivity profile={profile} />
      </section>
    </div>
  );
}
