import { useQuery } from '@tanstack/react-query';
import { Lock, Mail, MessageSquare, ThumbsUp, UserX } from 'lucide-react';
import { Link } from 'react-router';
import { EmptyState } from '#web/components/layout/empty-state.tsx';
import { QueryState } from '#web/components/layout/list-states.tsx';
import { PageContainer } from '#web/components/layout/page-header.tsx';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { type MemberProfile, memberProfileQueryOptions } from '../api/get-member-profile.ts';
import { formatDate, initialsOf } from '../profile-data.ts';

type VisibleProfile = Extract<MemberProfile, { status: 'visible' }>;

function titleOf(username: string, profile: MemberProfile | undefined): string | undefined {
  if (!profile) return undefined;
  if (profile.status === 'not_found') return 'Member not found';
  if (profile.status === 'private') return 'Private profile';
  return profile.display_name ? `${profile.display_name} (@${profile.username})` : `@${username}`;
}

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

function Activity({ profile }: { profile: VisibleProfile }) {
  if (!profile.show_activity) {
    return (
      <p className="rounded-lg border border-dashed p-6 text-center text-muted-foreground">
        {profile.is_self
          ? 'You do not show your activity: others do not see your votes and comments here.'
          : `@${profile.username} keeps their votes and comments private.`}
      </p>
    );
  }
  const votes = profile.votes ?? [];
  const comments = profile.comments ?? [];
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <Card>
        <CardHeader>
          <CardTitle className="flex items-center gap-2 text-lg">
            <ThumbsUp aria-hidden="true" className="size-5" />
            Recent votes
            <span className="font-normal text-muted-foreground text-sm">
              ({profile.vote_count ?? votes.length} in all)
            </span>
          </CardTitle>
        </CardHeader>
        <CardContent>
          {votes.length === 0 ? (
            <p className="text-muted-foreground">No Pass or Gas votes yet.</p>
          ) : (
            <ul className="grid gap-2" aria-label="Recent votes">
              {votes.map((vote) => (
                <li
                  key={vote.product_id}
                  className="flex flex-wrap items-center justify-between gap-2 rounded-lg border p-3"
                >
                  <div className="grid min-w-0 gap-0.5">
                    <Link
                      to={`/pass-or-gas/${encodeURIComponent(vote.product_id)}`}
                      className="font-medium hover:underline"
                    >
                      {vote.product_name}
                    </Link>
                    <span className="text-muted-foreground text-xs">{formatDate(vote.created_at)}</span>
                  </div>
                  <Badge variant={vote.vote_type === 'gas' ? 'default' : 'secondary'}>
                    {vote.vote_type === 'gas' ? '👍 Gas' : '👎 Pass'}
                  </Badge>
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle className="flex items-center gap-2 text-lg">
            <MessageSquare aria-hidden="true" className="size-5" />
            Recent comments
            <span className="font-normal text-muted-foreground text-sm">
              ({profile.comment_count ?? comments.length} in all)
            </span>
          </CardTitle>
        </CardHeader>
        <CardContent>
          {comments.length === 0 ? (
            <p className="text-muted-foreground">No comments yet.</p>
          ) : (
            <ul className="grid gap-2" aria-label="Recent comments">
              {comments.map((comment) => (
                <li key={comment.id} className="grid gap-1 rounded-lg border p-3">
                  <div className="flex flex-wrap items-center gap-2 text-xs">
                    <Link
                      to={`/pass-or-gas/${encodeURIComponent(comment.product_id)}`}
                      className="font-medium text-sm hover:underline"
                    >
                      {comment.product_name}
                    </Link>
                    <span className="text-muted-foreground">
                      {formatDate(comment.created_at)}
                      {comment.edited_at ? ' (edited)' : ''}
                    </span>
                  </div>
                  <p className="whitespace-pre-wrap text-sm">{comment.content}</p>
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
    </div>
  );
}

function Visible({ profile }: { profile: VisibleProfile }) {
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
        <Activity profile={profile} />
      </section>
    </div>
  );
}

function Loading() {
  return (
    <Card aria-hidden="true">
      <CardContent className="flex flex-col items-center gap-4 pt-6 sm:flex-row sm:items-start">
        <Skeleton className="size-24 shrink-0 rounded-full" />
        <div className="grid w-full gap-2">
          <Skeleton className="h-8 w-48" />
          <Skeleton className="h-4 w-32" />
          <Skeleton className="h-4 w-40" />
          <Skeleton className="h-12 w-full" />
        </div>
      </CardContent>
    </Card>
  );
}

/**
 * Product §public-profile: a member's public page, showing only what their privacy settings allow
 * (the server decides, decision 146); a private profile says so, an unknown or suspended member is
 * "not found".
 */
export function PublicProfileView({
  username,
  viewer,
}: {
  username: string;
  /** The signed-in member's id, null for a visitor, undefined while a stored session is unconfirmed. */
  viewer: string | null | undefined;
}) {
  const query = useQuery(memberProfileQueryOptions(username, viewer));
  useDocumentTitle(titleOf(username, query.data) ?? 'Member profile');
  const profile = query.data;

  return (
    <PageContainer className="grid max-w-4xl gap-6 py-8">
      {profile === undefined ? (
        <>
          <h1 className="sr-only">Member profile</h1>
          <QueryState what="member profile" query={query} loading={<Loading />} />
        </>
      ) : profile.status === 'visible' ? (
        <Visible profile={profile} />
      ) : profile.status === 'private' ? (
        <>
          <h1 className="font-bold text-3xl tracking-tight">@{profile.username}</h1>
          <EmptyState icon={Lock} title="This profile is private">
            Only @{profile.username} can see it.
          </EmptyState>
        </>
      ) : (
        <>
          <h1 className="font-bold text-3xl tracking-tight">Member not found</h1>
          <EmptyState
            icon={UserX}
            title="No member by this name"
            actions={
              <Button asChild>
                <Link to="/">Return to Home</Link>
              </Button>
            }
          >
            <span>No member has the username @{username}.</span>
          </EmptyState>
        </>
      )}
    </PageContainer>
  );
}
