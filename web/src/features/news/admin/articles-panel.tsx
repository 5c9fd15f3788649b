import { useQuery } from '@tanstack/react-query';
import { Eye, EyeOff } from 'lucide-react';
import { useState } from 'react';
import { Button } from '#web/components/ui/button.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { errorText } from '#web/lib/error-text.ts';
import { useForm } from '#web/lib/use-form.ts';
import { relativeTime } from '../news-feed.ts';
import { type AdminArticle, adminArticlesQueryOptions } from './api/get-admin-articles.ts';
import { useSetArticleHidden } from './api/set-article-hidden.ts';

type SetArticleHidden = ReturnType<typeof useSetArticleHidden>;

function ArticleRow({ article, setHidden }: { article: AdminArticle; setHidden: SetArticleHidden }) {
  return (
    <li className="flex items-center justify-between gap-3 p-3 text-sm" data-testid="news-admin-article">
      <div className="min-w-0">
        <a
          href={article.url}
          target="_blank"
          rel="noopener noreferrer"
          className="font-medium hover:underline"
        >
          {article.title}
        </a>
        <p className="text-muted-foreground">
          {article.source_name} · {relativeTime(article.published_at)}
          {article.hidden ? ' · hidden' : ''}
          {article.is_sample ? ' · sample' : ''}
        </p>
      </div>
      <Button
        size="sm"
        variant="outline"
        disabled={setHidden.isPending}
        onClick={() =>
          setHidden.mutate(
            { id: article.id, hidden: !article.hidden },
            {
              onSuccess: () =>
                toast({
                  title: article.hidden ? 'Article shown' : 'Article hidden',
                  description: article.title,
                }),
              onError: (error) =>
                toast({ variant: 'destructive', title: 'Error', description: errorText(error) }),
            },
          )
        }
      >
        {article.hidden ? <Eye aria-hidden="true" /> : <EyeOff aria-hidden="true" />}
        {article.hidden ? 'Show' : 'Hide'}
        <span className="sr-only"> {article.title}</span>
      </Button>
    </li>
  );
}

/** The newest articles, found by title, each hidden from the feed or shown again. */
export function ArticlesPanel() {
  const search = useForm({ title: '' }, { maxLength: { title: 200 } });
  const box = search.field('title');
  const [q, setQ] = useState('');
  const articles = useQuery(adminArticlesQueryOptions(q));
  // One for the list: while an article changes, the others wait.
  const setHidden = useSetArticleHidden();
  return (
    <section aria-labelledby="news-admin-articles" className="space-y-4">
      <h3 id="news-admin-articles" className="font-semibold text-lg">
        Articles
      </h3>
      <form
        ref={search.ref}
        className="flex max-w-md gap-2"
        onSubmit={search.handleSubmit(async ({ title }) => setQ(title))}
      >
        <Input
          type="search"
          aria-label="Find articles by title"
          placeholder="Find articles by title"
          name={box.name}
          value={box.value}
          maxLength={box.maxLength}
          onChange={box.onChange}
        />
        <Button type="submit" variant="outline">
          Find
        </Button>
      </form>
      {articles.isPending ? (
        <p className="text-muted-foreground text-sm">Loading articles…</p>
      ) : articles.isError ? (
        <p role="alert" className="text-destructive text-sm">
          {errorText(articles.error)}
        </p>
      ) : articles.data.length === 0 ? (
        <p className="text-muted-foreground text-sm">No articles.</p>
      ) : (
        <ul className="divide-y rounded-lg border">
          {articles.data.map((article) => (
            <ArticleRow key={article.id} article={article} setHidden={setHidden} />
          ))}
        </ul>
      )}
    </section>
  );
}
