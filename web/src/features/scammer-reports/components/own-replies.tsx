import { useQuery } from '@tanstack/react-query';
import { Badge } from '#web/components/ui/badge.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { useConfirmedUserId } from '#web/lib/auth/hooks/use-auth.ts';
import { ownRepliesQueryOptions } from '../api/get-own-replies.ts';
import { REPLY_KINDS } from '../api/reply-kinds.ts';
import { formatDay } from '../database.ts';
import { QueryError } from './query-error.tsx';

const STATUS_LABELS = { pending: 'Waiting for review', accepted: 'Accepted', declined: 'Declined' } as const;

/** What the member sent about this report, with the reviewers' decisions and notes. */
export function OwnReplies({ id }: { id: string }) {
  const userId = useConfirmedUserId();
  const query = useQuery(ownRepliesQueryOptions(userId, id));
  if (query.isPending) return <Skeleton className="h-16" />;
  if (query.isError) {
    return <QueryError error={query.error} />;
  }
  if (query.data.length === 0) return null;
  return (
    <section aria-labelledby="own-replies-heading">
      <h2 id="own-replies-heading" className="font-semibold text-lg">
        What you sent
      </h2>
      <ul className="mt-2 grid gap-2">
        {query.data.map((reply) => (
          <li key={reply.id} className="rounded-lg border p-3">
            <div className="flex flex-wrap items-center gap-2 text-sm">
              <span className="font-medium">{REPLY_KINDS.find(([key]) => key === reply.kind)?.[1]}</span>
              <span className="text-muted-foreground">sent {formatDay(reply.created_at)}</span>
              <Badge variant={reply.status === 'declined' ? 'destructive' : 'outline'}>
                {STATUS_LABELS[reply.status]}
              </Badge>
            </div>
            <p className="mt-1 line-clamp-3 whitespace-pre-line text-sm">{reply.body}</p>
            {reply.decision_note ? (
              <p className="mt-1 text-sm">
                <span className="font-medium">Note from the reviewers: </span>
                {reply.decision_note}
              </p>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
