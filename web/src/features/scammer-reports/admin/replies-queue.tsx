import { useQuery } from '@tanstack/react-query';
import { MessageSquareReply } from 'lucide-react';
import { Link } from 'react-router';
import { EmptyState } from '#web/components/layout/empty-state.tsx';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { ConfirmButton } from '#web/components/ui/confirm-button.tsx';
import { TextareaField } from '#web/components/ui/form-field.tsx';
import { PagedList } from '#web/components/ui/paged-table.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { errorText, UserFacingError } from '#web/lib/error-text.ts';
import { useForm } from '#web/lib/use-form.ts';
import { REPLY_KINDS, REPLY_RELATIONS } from '../api/reply-kinds.ts';
import { formatDay } from '../database.ts';
import { useDecideReply } from './api/decide-reply.ts';
import { type AdminReply, pendingRepliesQueryOptions } from './api/get-pending-replies.ts';

/** /admin/reports?view=replies: replies, corrections and takedown requests waiting, oldest first. */
export function RepliesQueue() {
  const list = useQuery(pendingRepliesQueryOptions());
  return (
    <PagedList
      what="replies"
      query={list}
      empty={
        <EmptyState icon={MessageSquareReply} title="No replies waiting" headingLevel={3}>
          Replies, corrections and takedown requests from people named in reports appear here.
        </EmptyState>
      }
    >
      {(replies) => (
        <ul className="grid gap-3" aria-label="Replies">
          {replies.map((reply) => (
            <li key={reply.id}>
              <ReplyDecision reply={reply} />
            </li>
          ))}
        </ul>
      )}
    </PagedList>
  );
}

/** One reply to accept or decline, with a note to its sender (needed to decline). */
function ReplyDecision({ reply }: { reply: AdminReply }) {
  const decide = useDecideReply();
  // The key names the column a refusal concerns (decision_note): its reason goes under the note (decision 180).
  const form = useForm({ decisionNote: '' }, { maxLength: { decisionNote: 1000 } });
  const kind = REPLY_KINDS.find(([key]) => key === reply.kind)?.[1] ?? reply.kind;
  async function run(status: 'accepted' | 'declined') {
    const text = form.values.decisionNote.trim();
    const missing = status === 'declined' && text.length < 5;
    if (form.showErrors({ decisionNote: missing ? 'Tell the sender why (at least 5 characters).' : null }))
      return;
    try {
      await decide.mutateAsync({ id: reply.id, status, decision_note: text || null });
      toast({ title: status === 'accepted' ? `${kind} accepted` : `${kind} declined` });
    } catch (error) {
      const shown =
        (error as { code?: string }).code === '23514' ? new UserFacingError((error as Error).message) : error;
      toast({
        variant: 'destructive',
        title: 'Could not save',
        description: form.showRefusal(error) ?? errorText(shown),
      });
    }
  }
  return (
    <article
      aria-label={`${kind} on ${reply.scammer_reports?.scammer_name ?? 'a report'}`}
      className="grid gap-3 rounded-lg border p-4"
    >
      <div className="flex flex-wrap items-center gap-2">
        <Badge variant={reply.kind === 'takedown' ? 'destructive' : 'outline'}>{kind}</Badge>
        <span className="text-sm">
          on{' '}
          <Link to={`/admin/reports/${reply.report_id}`} className="font-medium hover:underline">
            {reply.scammer_reports?.scammer_name ?? 'a report'}
          </Link>
        </span>
        <span className="text-muted-foreground text-xs">
          {REPLY_RELATIONS.find(([key]) => key === reply.relation)?.[1]} · sent {formatDay(reply.created_at)}
        </span>
      </div>
      <p className="whitespace-pre-line">{reply.body}</p>
      <form ref={form.ref} className="grid gap-3" onSubmit={(event) => event.preventDefault()}>
        <TextareaField
          id={`reply-note-${reply.id}`}
          label="Note to the sender (required to decline)"
          rows={2}
          {...form.field('decisionNote')}
        />
        <div className="flex flex-wrap gap-2">
          {reply.kind === 'takedown' ? (
            <ConfirmButton
              title="Accept the takedown request?"
              description="The report is taken down from readers and goes back to review; the reporter and the sender are told."
              confirmLabel="Accept and take down"
              destructive
              disabled={decide.isPending}
              onConfirm={() => run('accepted')}
            >
              Accept
            </ConfirmButton>
          ) : (
            <Button disabled={decide.isPending} onClick={() => void run('accepted')}>
              Accept and show under the report
            </Button>
          )}
          <Button variant="outline" disabled={decide.isPending} onClick={() => void run('declined')}>
            Decline
          </Button>
        </div>
      </form>
    </article>
  );
}
