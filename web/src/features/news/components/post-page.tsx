import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, Megaphone } from 'lucide-react';
import { Link } from 'react-router';
import { EmptyState } from '#web/components/layout/empty-state.tsx';
import { PageContainer } from '#web/components/layout/page-header.tsx';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { errorText } from '#web/lib/error-text.ts';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { publishedPostQueryOptions } from '../api/get-published-post.ts';
import { fullDate } from '../news-feed.ts';

const back = (
  <Button asChild variant="ghost" size="sm" className="-ml-2">
    <Link to="/news">
      <ArrowLeft aria-hidden="true" />
      All news
    </Link>
  </Button>
);

/**
 * `/news/posts/:id` (issue 34 item 4): a team post in full — its title, date, the server's sanitised
 * rendering of the Markdown with its images (decision 103), and the post's media not already in the text.
 */
export function PostPage({ id }: { id: string }) {
  const query = useQuery(publishedPostQueryOptions(id));
  const post = query.data;
  useDocumentTitle(post ? `${post.title} — News` : 'News');

  if (query.isPending) {
    return (
      <PageContainer className="max-w-3xl">
        {back}
        <div className="mt-6 grid gap-4" data-testid="post-loading">
          <Skeleton className="h-10 w-2/3" />
          <Skeleton className="h-64" />
        </div>
      </PageContainer>
    );
  }
  if (query.isError || !post) {
    return (
      <PageContainer className="max-w-3xl">
        {back}
        <EmptyState
          icon={Megaphone}
          title={query.isError ? 'This post could not be loaded' : 'Post not found'}
          className="mt-6"
          actions={
            query.isError ? <Button onClick={() => void query.refetch()}>Try again</Button> : undefined
          }
        >
          {query.isError ? errorText(query.error) : 'It may have been unpublished, or the link is wrong.'}
        </EmptyState>
      </PageContainer>
    );
  }

  const extraMedia = post.mediaUrls.filter((url) => !(post.bodyHtml ?? post.content).includes(url));
  return (
    <PageContainer className="max-w-3xl">
      {back}
      <article aria-labelledby="post-title" className="mt-6 grid gap-6">
        <header className="grid gap-3 border-b pb-6">
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <Badge>From the team</Badge>
            <time dateTime={post.publishedAt} className="text-muted-foreground">
              {fullDate(post.publishedAt)}
            </time>
          </div>
          <h1 id="post-title" className="font-bold text-3xl tracking-tight sm:text-4xl">
            {post.title}
          </h1>
        </header>
        {post.bodyHtml !== null ? (
          <div
            className="prose-post max-w-none"
            data-testid="post-body"
            // The server's rendering, sanitised there when the post was saved (decision 103).
            // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised on the server (decision 103).
            dangerouslySetInnerHTML={{ __html: post.bodyHtml }}
          />
        ) : (
          <div className="whitespace-pre-wrap" data-testid="post-body">
            {post.content}
          </div>
        )}
        {extraMedia.length > 0 ? (
          <ul aria-label="Images" className="grid gap-4 sm:grid-cols-2">
            {extraMedia.map((url, index) => (
              <li key={url}>
                <img
                  src={url}
                  alt={`${post.title} (${index + 1})`}
                  loading="lazy"
                  className="w-full rounded-lg border object-cover"
                />
              </li>
            ))}
          </ul>
        ) : null}
      </article>
    </PageContainer>
  );
}
