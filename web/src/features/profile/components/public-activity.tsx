import { type LucideIcon, MessageSquare, ThumbsUp } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Card, CardContent, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import type { MemberProfile } from '../api/get-member-profile.ts';
import { formatDate, productPath } from '../profile-data.ts';
import { VoteBadge } from './activity-parts.tsx';

export type VisibleProfile = Extract<MemberProfile, { status: 'visible' }>;

/** What a member shows of their activity (decision 146): recent votes and comments, or that they keep them private. */
export function PublicActivity({ profile }: { profile: VisibleProfile }) {
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
      <RecentCard
        icon={ThumbsUp}
        title="Recent votes"
        count={profile.vote_count ?? votes.length}
        emptyText={votes.length === 0 ? 'No Pass or Gas votes yet.' : null}
      >
        <ul className="grid gap-2" aria-label="Recent votes">
          {votes.map((vote) => (
            <li
              key={vote.product_id}
              className="flex flex-wrap items-center justify-between gap-2 rounded-lg border p-3"
            >
              <div className="grid min-w-0 gap-0.5">
                <Link to={productPath(vote.product_id)} className="font-medium hover:underline">
                  {vote.product_name}
                </Link>
                <span className="text-muted-foreground text-xs">{formatDate(vote.created_at)}</span>
              </div>
              <VoteBadge type={vote.vote_type} />
            </li>
          ))}
        </ul>
      </RecentCard>
      <RecentCard
        icon={MessageSquare}
        title="Recent comments"
        count={profile.comment_count ?? comments.length}
        emptyText={comments.length === 0 ? 'No comments yet.' : null}
      >
        <ul className="grid gap-2" aria-label="Recent comments">
          {comments.map((comment) => (
            <li key={comment.id} className="grid gap-1 rounded-lg border p-3">
              <div className="flex flex-wrap items-center gap-2 text-xs">
                <Link to={productPath(comment.product_id)} className="font-medium text-sm hover:underline">
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
      </RecentCard>
    </div>
  );
}

/** A card of recent activity: its title with how many there are in all, the list or what an empty one says. */
function RecentCard({
  icon: Icon,
  title,
  count,
  emptyText,
  children,
}: {
  icon: LucideIcon;
  title: string;
  count: number;
  /** What the card says instead of the list, when there is nothing to list. */
  emptyText: string | null;
  children: ReactNode;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-lg">
          <Icon aria-hidden="true" className="size-5" />
          {title}
          <span className="font-normal text-muted-foreground text-sm">({count} in all)</span>
        </CardTitle>
      </CardHeader>
      <CardContent>{emptyText ? <p className="text-muted-foreground">{emptyText}</p> : children}</CardContent>
    </Card>
  );
}
