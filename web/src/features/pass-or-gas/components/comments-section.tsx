import { useQuery } from '@tanstack/react-query';
import { MessageSquare } from 'lucide-react';
import { useState } from 'react';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { type CommentSort, commentsQueryOptions } from '../api/get-comments.ts';
import type { ProductComment } from '../types.ts';
import { NewCommentForm } from './comment-form.tsx';
import { CommentList } from './comment-list.tsx';
import { ReportCommentDialog } from './report-comment-dialog.tsx';

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
  const [reporting, setReporting] = useState<ProductComment | null>(null);

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
          <NewCommentForm productId={productId} />
        ) : (
          <p className="text-muted-foreground">
            <Button variant="link" className="h-auto p-0" onClick={onSignIn}>
              Sign in
            </Button>{' '}
            to join the conversation.
          </p>
        )}

        <CommentList
          thread={thread}
          userId={userId}
          signedIn={signedIn}
          onSignIn={onSignIn}
          onReport={setReporting}
        />
      </CardContent>

      <ReportCommentDialog comment={reporting} onClose={() => setReporting(null)} />
    </Card>
  );
}
