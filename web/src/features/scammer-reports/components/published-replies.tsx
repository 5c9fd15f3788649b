import { useQuery } from '@tanstack/react-query';
import { MessageSquareReply } from 'lucide-react';
import { Link } from 'react-router';
import { useConfirmedUserId } from '#web/lib/auth/hooks/use-auth.ts';
import { publishedRepliesQueryOptions } from '../api/get-published-replies.ts';
import { RELATION_FOR_READERS } from '../api/reply-kinds.ts';
import { formatDay } from '../database.ts';
import { ReportSection } from './report-section.tsx';

/** Accepted replies and corrections from the people named, and the way to send one (decision 126). */
export function PublishedReplies({ id }: { id: string }) {
  const userId = useConfirmedUserId();
  const query = useQuery(publishedRepliesQueryOptions(userId, id));
  return (
    <ReportSection
      name="replies"
      title="Replies from the people named"
      query={query}
      placeholder="h-12"
      empty="No reply has been published."
      footer={
        <p className="mt-4 text-sm">
          <MessageSquareReply aria-hidden="true" className="mr-1 inline size-4" />
          Named in this report?{' '}
          <Link to={`/scammer-database/${id}/reply`} className="font-medium underline">
            Send a reply, a correction or a takedown request
          </Link>
        </p>
      }
    >
      {(replies) => (
        <ul className="mt-2 grid gap-3">
          {replies.map((reply) => (
            <li key={reply.id} className="rounded-lg border bg-card p-4">
              <p className="font-medium text-sm">
                {reply.kind === 'correction' ? 'Correction' : 'Reply'} from{' '}
                {RELATION_FOR_READERS[reply.relation]}, published {formatDay(reply.published_at)}
              </p>
              <p className="mt-1 whitespace-pre-line">{reply.body}</p>
            </li>
          ))}
        </ul>
      )}
    </ReportSection>
  );
}
