import type { UseQueryResult } from '@tanstack/react-query';
import { useState } from 'react';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { errorText } from '#web/lib/error-text.ts';
import type { CommentThread } from '../api/get-comments.ts';
import type { ProductComment } from '../types.ts';
import { CommentItem } from './comment-item.tsx';

interface CommentListProps {
  thread: UseQueryResult<CommentThread>;
  userId: string | null;
  signedIn: boolean;
  onSignIn: () => void;
  onReport: (comment: ProductComment) => void;
}

/** The thread's loading, error, empty and filled states; one comment at a time is in its edit box. */
export function CommentList({ thread, userId, signedIn, onSignIn, onReport }: CommentListProps) {
  const [editingId, setEditingId] = useState<string | null>(null);
  if (thread.isPending) {
    return (
      <div className="grid gap-3">
        <Skeleton className="h-16" />
        <Skeleton className="h-16" />
      </div>
    );
  }
  if (thread.isError) return <p className="text-destructive">{errorText(thread.error)}</p>;
  const { comments, liked, authors } = thread.data;
  if (comments.length === 0) {
    return (
      <p className="py-6 text-center text-muted-foreground">
        No comments yet. Be the first to say what you think.
      </p>
    );
  }
  return (
    <ul className="grid gap-3">
      {comments.map((comment) => (
        <CommentItem
          key={comment.id}
          comment={comment}
          author={authors[comment.user_id]}
          mine={comment.user_id === userId}
          liked={liked.includes(comment.id)}
          signedIn={signedIn}
          onSignIn={onSignIn}
          editing={editingId === comment.id}
          onEditing={(editing) => setEditingId(editing ? comment.id : null)}
          onReport={() => onReport(comment)}
        />
      ))}
    </ul>
  );
}
