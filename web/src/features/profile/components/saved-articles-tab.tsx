import { ExternalLink, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { useRemoveSavedArticle } from '../api/remove-saved-article.ts';
import { formatDate, type SavedArticle } from '../profile-data.ts';
import { ActivityTabCard } from './activity-parts.tsx';

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
    <ActivityTabCard
      title={`Saved Articles (${articles.length})`}
      isEmpty={articles.length === 0}
      emptyText="No saved articles yet. Click the heart icon on any news article to save it!"
    >
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
    </ActivityTabCard>
  );
}
