import { Flag, Heart, Pencil, Trash2 } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '#web/components/ui/button.tsx';
import { ConfirmButton } from '#web/components/ui/confirm-button.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { useDeleteComment } from '../api/delete-comment.ts';
import { useToggleCommentLike } from '../api/toggle-comment-like.ts';
import type { CommentAuthor, ProductComment } from '../types.ts';
import { EditCommentForm } from './comment-edit-form.tsx';
import { toastWriteFailed } from './write-failed.ts';

const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

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

export interface CommentItemProps {
  comment: ProductComment;
  author: CommentAuthor | undefined;
  /** The signed-in member wrote it. */
  mine: boolean;
  liked: boolean;
  signedIn: boolean;
  onSignIn: () => void;
  /** Its text is in the edit box. */
  editing: boolean;
  onEditing: (editing: boolean) => void;
  onReport: () => void;
}

/** One comment: who and when, its text (as text, never markup) or the edit box, and what one can do with it. */
export function CommentItem(props: CommentItemProps) {
  const { comment, author, mine, editing, onEditing } = props;
  return (
    <li className="grid gap-2 rounded-lg border p-4" data-testid="comment">
      <div className="flex flex-wrap items-center gap-2 text-muted-foreground text-xs">
        <CommentAuthorName mine={mine} author={author} />
        <span>{when(comment.created_at)}</span>
        {comment.edited_at ? <span title={`Edited ${when(comment.edited_at)}`}>(edited)</span> : null}
      </div>
      {editing ? (
        <EditCommentForm comment={comment} onDone={() => onEditing(false)} />
      ) : (
        <p className={comment.hidden_at ? 'text-muted-foreground italic' : 'whitespace-pre-wrap'}>
          {comment.content}
        </p>
      )}
      <CommentActions {...props} />
    </li>
  );
}

/** Like (not one's own or a hidden one), Edit and Delete for the author, Report for everyone else. */
function CommentActions({
  comment,
  mine,
  liked,
  signedIn,
  onSignIn,
  editing,
  onEditing,
  onReport,
}: CommentItemProps) {
  const like = useToggleCommentLike();
  const remove = useDeleteComment();
  const hidden = Boolean(comment.hidden_at);
  return (
    <div className="flex flex-wrap items-center gap-1">
      <Button
        variant="ghost"
        size="sm"
        aria-pressed={liked}
        disabled={mine || hidden}
        onClick={() =>
          signedIn
            ? like.mutate(
                { id: comment.id, liked },
                { onError: (error) => toastWriteFailed('Like not saved', error) },
              )
            : onSignIn()
        }
      >
        <Heart aria-hidden="true" className={liked ? 'fill-current' : undefined} />
        <span className="tabular-nums">{comment.likes}</span>
        <span className="sr-only">{liked ? 'Unlike' : 'Like'} this comment</span>
      </Button>
      {mine && !hidden && !editing ? (
        <Button variant="ghost" size="sm" onClick={() => onEditing(true)}>
          <Pencil aria-hidden="true" />
          Edit
        </Button>
      ) : null}
      {mine ? (
        <ConfirmButton
          variant="ghost"
          size="sm"
          title="Delete your comment?"
          description="This cannot be undone."
          confirmLabel="Delete"
          destructive
          onConfirm={() =>
            remove.mutateAsync(comment.id).then(
              () => toast({ title: 'Comment deleted' }),
              (error: unknown) => toastWriteFailed('Comment not deleted', error),
            )
          }
        >
          <Trash2 aria-hidden="true" />
          Delete
        </ConfirmButton>
      ) : hidden ? null : (
        <Button variant="ghost" size="sm" onClick={() => (signedIn ? onReport() : onSignIn())}>
          <Flag aria-hidden="true" />
          Report
        </Button>
      )}
    </div>
  );
}
