import { ExternalLink, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { useRemoveSavedArticle } from '../api/remove-saved-article.ts';
import {
  type ActivityProduct,
  formatDate,
  type ProductComment,
  type ProductVote,
  type SavedArticle,
} from '../profile-data.ts';

function Empty({ children }: { children: string }) {
  return <p className="py-8 text-center text-muted-foreground">{children}</p>;
}

interface SavedArticlesTabProps {
  userId: string;
  articles: SavedArticle[];
}

/** Product §profile-activity, Saved tab; §table-calls (delete by user_id and id). */
export function SavedArticlesTab({ userId, articles }: SavedArticlesTabProps) {
  const removal = useRemoveSavedArticle(userId);
  const [removing, setRemoving] = useState<string | null>(null);

  async function remove(article: SavedArticle) {
    setRemoving(article.id);
    try {
      await removal.mutateAsync(article.id);
      toast({
        title: 'Article Removed',
        description: `"${article.article_title}" was removed from your saved articles.`,
      });
    } catch {
      toast({
        variant: 'destructive',
        title: 'Error',
        description: 'Failed to remove article. Please try again.',
      });
    } finally {
      setRemoving(null);
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Saved Articles ({articles.length})</CardTitle>
      </CardHeader>
      <CardContent>
        {articles.length === 0 ? (
          <Empty>No saved articles yet. Click the heart icon on any news article to save it!</Empty>
        ) : (
          <ul className="grid gap-4">
            {articles.map((article) => (
              <li key={article.id} className="flex flex-col gap-4 rounded-lg border p-4 sm:flex-row">
                {article.article_image ? (
                  <img
                    src={article.article_image}
                    alt=""
                    className="h-32 w-full shrink-0 rounded-md object-cover sm:h-24 sm:w-32"
                  />
                ) : null}
                <div className="grid min-w-0 flex-1 gap-1">
                  <h4 className="font-semibold leading-snug">{article.article_title}</h4>
                  {article.article_summary ? (
                    <p className="line-clamp-2 text-muted-foreground text-sm">{article.article_summary}</p>
                  ) : null}
                  <div className="mt-1 flex flex-wrap items-center gap-2 text-muted-foreground text-xs">
                    {article.article_source ? <span>{article.article_source}</span> : null}
                    {article.article_category ? (
                      <Badge variant="secondary">{article.article_category}</Badge>
                    ) : null}
                    <span>Saved {formatDate(article.saved_at)}</span>
                  </div>
                </div>
                <div className="flex shrink-0 items-start gap-1">
                  <Button asChild variant="ghost" size="icon">
                    <a href={article.article_url} target="_blank" rel="noopener noreferrer">
                      <ExternalLink aria-hidden="true" />
                      <span className="sr-only">Open {article.article_title} in a new tab</span>
                    </a>
                  </Button>
                  <Button
                    variant="ghost"
                    size="icon"
                    disabled={removing === article.id}
                    onClick={() => void remove(article)}
                  >
                    <Trash2 aria-hidden="true" />
                    <span className="sr-only">Remove {article.article_title}</span>
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

/**
 * The product a vote or comment is about, by name and linking to its page, as the public profile shows
 * it; an archived product (no page any more) by its state.
 */
function ProductName({ productId, product }: { productId: string; product: ActivityProduct | null }) {
  if (!product) return <span className="font-medium text-muted-foreground">An archived product</span>;
  return (
    <Link
      to={`/pass-or-gas/${encodeURIComponent(productId)}`}
      className="font-medium underline-offset-4 hover:underline"
    >
      {product.name}
    </Link>
  );
}

/** Product §profile-activity, Votes tab. */
export function VotesTab({ votes }: { votes: ProductVote[] }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Voting History ({votes.length})</CardTitle>
      </CardHeader>
      <CardContent>
        {votes.length === 0 ? (
          <Empty>No votes yet. Start voting on products to see your history here!</Empty>
        ) : (
          <ul className="grid gap-3">
            {votes.map((vote) => (
              <li key={vote.id} className="flex items-center justify-between gap-3 rounded-lg border p-4">
                <div className="grid min-w-0 gap-0.5">
                  <ProductName productId={vote.product_id} product={vote.product} />
                  <span className="text-muted-foreground text-sm">{formatDate(vote.created_at)}</span>
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
  );
}

/** Product §profile-activity, Comments tab. */
export function CommentsTab({ comments }: { comments: ProductComment[] }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Comments ({comments.length})</CardTitle>
      </CardHeader>
      <CardContent>
        {comments.length === 0 ? (
          <Empty>No comments yet. Start commenting on products to see them here!</Empty>
        ) : (
          <ul className="grid gap-3">
            {comments.map((comment) => (
              <li key={comment.id} className="grid gap-2 rounded-lg border p-4">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <ProductName productId={comment.product_id} product={comment.product} />
                  <span className="text-muted-foreground text-sm">{formatDate(comment.created_at)}</span>
                </div>
                <p className="whitespace-pre-wrap text-sm">{comment.content}</p>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
