import { useQuery } from '@tanstack/react-query';
import { Flag, Heart, MessageSquare, Pencil, Trash2 } from 'lucide-react';
import { AlertDialog as AlertDialogPrimitive } from 'radix-ui';
import { useState } from 'react';
import { Link } from 'react-router';
import {
  AlertDialog,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogTitle,
} from '#web/components/ui/alert-dialog.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { FieldError } from '#web/components/ui/form-field.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { Textarea } from '#web/components/ui/textarea.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { errorText } from '#web/lib/error-text.ts';
import { useFieldRefusal } from '#web/lib/use-form.ts';
import {
  COMMENT_MAX_LENGTH,
  type CommentSort,
  commentsQueryOptions,
  useCommentAction,
} from '../api/comments.ts';
import type { CommentAuthor, ProductComment } from '../types.ts';
import { writeErrorText } from '../vote-errors.ts';

const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The no-script-markup rule of product §input-rules, checked before sending (the database checks again). */
const SCRIPT_MARKUP =
  /<\s*\/?\s*script|javascript\s*:|vbscript\s*:|\bon(load|click|error|mouseover|focus)\s*=/i;

function problemOf(content: string): string | null {
  const length = content.trim().length;
  if (length === 0) return 'Comment is required.';
  if (length > COMMENT_MAX_LENGTH) return `Comment must be between 1 and ${COMMENT_MAX_LENGTH} characters.`;
  if (SCRIPT_MARKUP.test(content)) return 'Comment must not contain script markup.';
  return null;
}

/** "You", the author's name linking to their public profile, or "A member" (decision 146). */
function CommentAuthorName({ mine, author }: { mine: boolean; author: CommentAuthor | undefined }) {
  if (author && !mine) {
    return (
      <Link
        to={`/u/${encodeURIComponent(author.username)}`}
        className="font-medium text-foreground underline-offset-2 hover:underline"
      >
        {author.display_name ? `${author.display_name} (@${author.username})` : `@${author.username}`}
      </Link>
    );
  }
  return <span className="font-medium text-foreground">{mine ? 'You' : 'A member'}</span>;
}

interface CommentsSectionProps {
  productId: string;
  userId: string | null;
  signedIn: boolean;
  onSignIn: () => void;
  /** A sample product takes no comments (decision 175): the form is replaced by the reason. */
  sample?: boolean;
}

/** Why a sample product has no vote buttons or comment form (decision 175; the database says the same). */
const SAMPLE_CLOSED_TEXT =
  'This is a sample product: it cannot be voted on or commented on, because samples are deleted when the first real product is added.';

/** product §pass-or-gas: comments, newest or top first; text is shown as text, never as markup. */
export function CommentsSection({
  productId,
  userId,
  signedIn,
  onSignIn,
  sample = false,
}: CommentsSectionProps) {
  const [sort, setSort] = useState<CommentSort>('newest');
  const thread = useQuery(commentsQueryOptions(productId, sort, userId));
  const action = useCommentAction();
  const [draft, setDraft] = useState('');
  const [draftError, setDraftError] = useState<string | null>(null);
  const [editing, setEditing] = useState<{ id: string; content: string } | null>(null);
  const [deleting, setDeleting] = useState<ProductComment | null>(null);
  const [reporting, setReporting] = useState<ProductComment | null>(null);
  const [reason, setReason] = useState('');

  // The database's refusal of a comment shows at its box (decision 180), the toast says it is final.
  const addRefusal = useFieldRefusal({ content: 'new-comment' });
  const editRefusal = useFieldRefusal(editing ? { content: `edit-${editing.id}` } : {});
  const reportRefusal = useFieldRefusal({ reason: 'report-reason' });

  const fail = (title: string, refusal?: typeof addRefusal) => (error: unknown) =>
    toast({
      variant: 'destructive',
      title,
      description: refusal?.show(error) ?? writeErrorText(error),
    });

  function submit(event: React.FormEvent) {
    event.preventDefault();
    const problem = problemOf(draft);
    setDraftError(problem);
    addRefusal.clear();
    if (problem) return;
    action.mutate(
      { kind: 'add', productId, content: draft.trim() },
      {
        onSuccess: () => {
          setDraft('');
          toast({ title: 'Comment posted' });
        },
        onError: fail('Comment not posted', addRefusal),
      },
    );
  }

  const draftProblem = draftError ?? addRefusal.errorFor('content');

  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-3">
        <CardTitle level={2} className="flex items-center gap-2">
          <MessageSquare aria-hidden="true" className="size-5" />
          Comments {thread.data ? `(${thread.data.comments.length})` : ''}
        </CardTitle>
        <fieldset className="flex gap-1">
          <legend className="sr-only">Order comments</legend>
          {(['newest', 'top'] as const).map((value) => (
            <Button
              key={value}
              size="sm"
              variant={sort === value ? 'default' : 'outline'}
              aria-pressed={sort === value}
              onClick={() => setSort(value)}
            >
              {value === 'newest' ? 'Newest' : 'Top'}
            </Button>
          ))}
        </fieldset>
      </CardHeader>
      <CardContent className="grid gap-6">
        {sample ? (
          <p className="text-muted-foreground" data-testid="sample-closed">
            {SAMPLE_CLOSED_TEXT}
          </p>
        ) : signedIn ? (
          <form onSubmit={submit} className="grid gap-2">
            <Label htmlFor="new-comment">Add a comment</Label>
            <Textarea
              id="new-comment"
              value={draft}
              maxLength={COMMENT_MAX_LENGTH}
              aria-invalid={draftProblem ? true : undefined}
              aria-describedby={draftProblem ? 'new-comment-error' : 'new-comment-hint'}
              onChange={(event) => {
                setDraft(event.target.value);
                setDraftError(null);
                addRefusal.clear();
              }}
            />
            {draftProblem ? (
              <p id="new-comment-error" className="text-destructive text-sm">
                {draftProblem}
              </p>
            ) : (
              <p id="new-comment-hint" className="text-muted-foreground text-xs">
                {draft.length}/{COMMENT_MAX_LENGTH} characters. Plain text only.
              </p>
            )}
            <div>
              <Button type="submit" disabled={action.isPending}>
                {action.isPending ? 'Posting…' : 'Post comment'}
              </Button>
            </div>
          </form>
        ) : (
          <p className="text-muted-foreground">
            <Button variant="link" className="h-auto p-0" onClick={onSignIn}>
              Sign in
            </Button>{' '}
            to join the conversation.
          </p>
        )}

        {thread.isPending ? (
          <div className="grid gap-3">
            <Skeleton className="h-16" />
            <Skeleton className="h-16" />
          </div>
        ) : thread.isError ? (
          <p className="text-destructive">{errorText(thread.error)}</p>
        ) : thread.data.comments.length === 0 ? (
          <p className="py-6 text-center text-muted-foreground">
            No comments yet. Be the first to say what you think.
          </p>
        ) : (
          <ul className="grid gap-3">
            {thread.data.comments.map((comment) => {
              const mine = comment.user_id === userId;
              const liked = thread.data.liked.includes(comment.id);
              const isEditing = editing?.id === comment.id;
              return (
                <li key={comment.id} className="grid gap-2 rounded-lg border p-4" data-testid="comment">
                  <div className="flex flex-wrap items-center gap-2 text-muted-foreground text-xs">
                    <CommentAuthorName mine={mine} author={thread.data.authors[comment.user_id]} />
                    <span>{when(comment.created_at)}</span>
                    {comment.edited_at ? (
                      <span title={`Edited ${when(comment.edited_at)}`}>(edited)</span>
                    ) : null}
                  </div>
                  {isEditing ? (
                    <form
                      className="grid gap-2"
                      onSubmit={(event) => {
                        event.preventDefault();
                        const problem = problemOf(editing.content);
                        if (problem) {
                          toast({ variant: 'destructive', title: 'Comment not saved', description: problem });
                          return;
                        }
                        action.mutate(
                          { kind: 'edit', id: comment.id, content: editing.content.trim() },
                          {
                            onSuccess: () => setEditing(null),
                            onError: fail('Comment not saved', editRefusal),
                          },
                        );
                      }}
                    >
                      <Label htmlFor={`edit-${comment.id}`} className="sr-only">
                        Edit your comment
                      </Label>
                      <Textarea
                        id={`edit-${comment.id}`}
                        value={editing.content}
                        maxLength={COMMENT_MAX_LENGTH}
                        {...editRefusal.mark('content')}
                        onChange={(event) => {
                          setEditing({ id: comment.id, content: event.target.value });
                          editRefusal.clear();
                        }}
                      />
                      {editRefusal.errorFor('content') ? (
                        <FieldError
                          id={editRefusal.errorId('content')}
                          error={editRefusal.errorFor('content')}
                        />
                      ) : null}
                      <div className="flex gap-2">
                        <Button type="submit" size="sm" disabled={action.isPending}>
                          Save
                        </Button>
                        <Button type="button" size="sm" variant="outline" onClick={() => setEditing(null)}>
                          Cancel
                        </Button>
                      </div>
                    </form>
                  ) : (
                    <p className={comment.hidden_at ? 'text-muted-foreground italic' : 'whitespace-pre-wrap'}>
                      {comment.content}
                    </p>
                  )}
                  <div className="flex flex-wrap items-center gap-1">
                    <Button
                      variant="ghost"
                      size="sm"
                      aria-pressed={liked}
                      disabled={mine || Boolean(comment.hidden_at)}
                      onClick={() =>
                        signedIn
                          ? action.mutate(
                              { kind: 'like', id: comment.id, liked },
                              { onError: fail('Like not saved') },
                            )
                          : onSignIn()
                      }
                    >
                      <Heart aria-hidden="true" className={liked ? 'fill-current' : undefined} />
                      <span className="tabular-nums">{comment.likes}</span>
                      <span className="sr-only">{liked ? 'Unlike' : 'Like'} this comment</span>
                    </Button>
                    {mine && !comment.hidden_at && !isEditing ? (
                      <Button
                        variant="ghost"
                        size="sm"
                        onClick={() => setEditing({ id: comment.id, content: comment.content })}
                      >
                        <Pencil aria-hidden="true" />
                        Edit
                      </Button>
                    ) : null}
                    {mine ? (
                      <Button variant="ghost" size="sm" onClick={() => setDeleting(comment)}>
                        <Trash2 aria-hidden="true" />
                        Delete
                      </Button>
                    ) : comment.hidden_at ? null : (
                      <Button
                        variant="ghost"
                        size="sm"
                        onClick={() => (signedIn ? setReporting(comment) : onSignIn())}
                      >
                        <Flag aria-hidden="true" />
                        Report
                      </Button>
                    )}
                  </div>
                </li>
              );
            })}
          </ul>
        )}
      </CardContent>

      <AlertDialog open={deleting !== null} onOpenChange={(open) => (open ? null : setDeleting(null))}>
        <AlertDialogContent>
          <AlertDialogTitle>Delete your comment?</AlertDialogTitle>
          <AlertDialogDescription>This cannot be undone.</AlertDialogDescription>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <AlertDialogPrimitive.Cancel asChild>
              <Button variant="outline">Cancel</Button>
            </AlertDialogPrimitive.Cancel>
            <Button
              variant="destructive"
              onClick={() => {
                if (!deleting) return;
                action.mutate(
                  { kind: 'delete', id: deleting.id },
                  {
                    onSuccess: () => toast({ title: 'Comment deleted' }),
                    onError: fail('Comment not deleted'),
                  },
                );
                setDeleting(null);
              }}
            >
              Delete
            </Button>
          </div>
        </AlertDialogContent>
      </AlertDialog>

      <AlertDialog
        open={reporting !== null}
        onOpenChange={(open) => {
          if (!open) {
            setReporting(null);
            setReason('');
          }
        }}
      >
        <AlertDialogContent>
          <AlertDialogTitle>Report this comment?</AlertDialogTitle>
          <AlertDialogDescription>
            A moderator will review it and may hide it. The author is not told who reported it.
          </AlertDialogDescription>
          <div className="grid gap-1.5">
            <Label htmlFor="report-reason">Reason (optional)</Label>
            <Textarea
              id="report-reason"
              maxLength={500}
              value={reason}
              {...reportRefusal.mark('reason')}
              onChange={(event) => {
                setReason(event.target.value);
                reportRefusal.clear();
              }}
            />
            {reportRefusal.errorFor('reason') ? (
              <FieldError id={reportRefusal.errorId('reason')} error={reportRefusal.errorFor('reason')} />
            ) : null}
          </div>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <AlertDialogPrimitive.Cancel asChild>
              <Button variant="outline">Cancel</Button>
            </AlertDialogPrimitive.Cancel>
            <Button
              onClick={() => {
                if (!reporting) return;
                reportRefusal.clear();
                // The dialog stays open until the report is sent: a refused reason is shown at its field.
                action.mutate(
                  { kind: 'report', id: reporting.id, reason: reason.trim() },
                  {
                    onSuccess: () => {
                      setReporting(null);
                      setReason('');
                      toast({
                        title: 'Report sent',
                        description: 'Thank you. A moderator will review the comment.',
                      });
                    },
                    onError: fail('Report not sent', reportRefusal),
                  },
                );
              }}
            >
              Send report
            </Button>
          </div>
        </AlertDialogContent>
      </AlertDialog>
    </Card>
  );
}
