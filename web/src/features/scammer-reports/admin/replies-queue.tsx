import { useQuery } from '@tanstack/react-query';
import { MessageSquareReply } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { EmptyState } from '#web/components/layout/empty-state.tsx';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { ConfirmButton } from '#web/components/ui/confirm-button.tsx';
import { FieldError } from '#web/components/ui/form-field.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { Textarea } from '#web/components/ui/textarea.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { errorText, UserFacingError } from '#web/lib/error-text.ts';
import { useFieldRefusal } from '#web/lib/use-form.ts';
import {
  type AdminReply,
  pendingRepliesQueryOptions,
  REPLY_KINDS,
  REPLY_RELATIONS,
  useDecideReply,
} from '../api/evidence-and-replies.ts';
import { formatDay } from '../database.ts';

/** /admin/reports?view=replies: replies, corrections and takedown requests waiting, oldest first. */
export function RepliesQueue() {
  const list = useQuery(pendingRepliesQueryOptions());
  if (list.isPending) return <Skeleton className="h-24" aria-busy="true" />;
  if (list.isError) {
    return (
      <p role="alert" className="text-destructive dark:text-red-400">
        {errorText(list.error)}
      </p>
    );
  }
  if (list.data.length === 0) {
    return (
      <EmptyState icon={MessageSquareReply} title="No replies waiting" headingLevel={3}>
        Replies, corrections and takedown requests from people named in reports appear here.
      </EmptyState>
    );
  }
  return (
    <ul className="grid gap-3" aria-label="Replies">
      {list.data.map((reply) => (
        <li key={reply.id}>
          <ReplyDecision reply={reply} />
        </li>
      ))}
    </ul>
  );
}

function ReplyDecision({ reply }: { reply: AdminReply }) {
  const decide = useDecideReply();
  const [note, setNote] = useState('');
  const kind = REPLY_KINDS.find(([key]) => key === reply.kind)?.[1] ?? reply.kind;
  const noteId = `reply-note-${reply.id}`;
  // The database's reason about the note is shown under it, the note marked and focused (decision 180).
  const refusal = useFieldRefusal({ decision_note: noteId });
  const [missingNote, setMissingNote] = useState(false);
  const noteError = missingNote
    ? 'Tell the sender why (at least 5 characters).'
    : refusal.errorFor('decision_note');
  async function run(status: 'accepted' | 'declined') {
    const text = note.trim();
    refusal.clear();
    if (status === 'declined' && text.length < 5) {
      setMissingNote(true);
      document.getElementById(noteId)?.focus();
      return;
    }
    setMissingNote(false);
    try {
      await decide.mutateAsync({ id: reply.id, status, decision_note: text || null });
      toast({ title: status === 'accepted' ? `${kind} accepted` : `${kind} declined` });
    } catch (error) {
      const shown =
        (error as { code?: string }).code === '23514' ? new UserFacingError((error as Error).message) : error;
      toast({
        variant: 'destructive',
        title: 'Could not save',
        description: refusal.show(error) ?? errorText(shown),
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
      <div className="grid gap-1.5">
        <Label htmlFor={noteId}>Note to the sender (required to decline)</Label>
        <Textarea
          id={noteId}
          rows={2}
          maxLength={1000}
          value={note}
          {...(noteError ? { 'aria-invalid': true, 'aria-describedby': `${noteId}-error` } : {})}
          onChange={(event) => {
            setNote(event.target.value);
            setMissingNote(false);
            refusal.clear();
          }}
        />
        {noteError ? <FieldError id={`${noteId}-error`} error={noteError} /> : null}
      </div>
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
    </article>
  );
}
