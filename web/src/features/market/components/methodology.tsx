import { useQuery } from '@tanstack/react-query';
import { ArrowLeft } from 'lucide-react';
import { Fragment } from 'react';
import { Link } from 'react-router';
import { EmptyState } from '#web/components/layout/empty-state.tsx';
import { PageContainer, PageHeader } from '#web/components/layout/page-header.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { errorText } from '#web/lib/error-text.ts';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { indicesQueryOptions } from '../api/get-indices.ts';
import { type Block, type Inline, parseMarkdown } from '../market-data.ts';

function InlineText({ parts }: { parts: Inline[] }) {
  return (
    <>
      {parts.map((part, index) => {
        const key = `${index}-${part.kind}`;
        if (part.kind === 'strong') return <strong key={key}>{part.text}</strong>;
        if (part.kind === 'em') return <em key={key}>{part.text}</em>;
        if (part.kind === 'code') {
          return (
            <code key={key} className="rounded bg-muted px-1 py-0.5 text-[0.9em]">
              {part.text}
            </code>
          );
        }
        return <Fragment key={key}>{part.text}</Fragment>;
      })}
    </>
  );
}

/** The stored Markdown as React elements (never as HTML). */
export function MethodologyText({ markdown }: { markdown: string }) {
  const blocks: Block[] = parseMarkdown(markdown);
  return (
    <div className="space-y-4 leading-relaxed">
      {blocks.map((block, index) => {
        const key = `${index}-${block.kind}`;
        if (block.kind === 'heading') {
          const Heading = block.level === 2 ? 'h2' : 'h3';
          return (
            <Heading
              key={key}
              className={block.level === 2 ? 'mt-8 font-semibold text-xl' : 'mt-6 font-semibold'}
            >
              <InlineText parts={block.inline} />
            </Heading>
          );
        }
        if (block.kind === 'list') {
          return (
            <ul key={key} className="list-disc space-y-2 pl-6">
              {block.items.map((item, itemIndex) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the list is static text
                <li key={itemIndex}>
                  <InlineText parts={item} />
                </li>
              ))}
            </ul>
          );
        }
        return (
          <p key={key}>
            <InlineText parts={block.inline} />
          </p>
        );
      })}
    </div>
  );
}

/** /market-index/:slug/methodology: the index's published method, from the database. */
export function MethodologyPage({ slug }: { slug: string }) {
  const indices = useQuery(indicesQueryOptions());
  const index = indices.data?.find((candidate) => candidate.slug === slug);
  useDocumentTitle(index ? `${index.name}: methodology` : 'Index methodology');
  return (
    <PageContainer>
      <Link
        to="/market-index"
        className="mb-4 inline-flex items-center gap-1 text-muted-foreground text-sm hover:underline"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        Market Index
      </Link>
      {indices.isPending ? (
        <Skeleton className="h-64 w-full" />
      ) : indices.isError ? (
        <p role="alert" className="text-destructive">
          The methodology could not be loaded: {errorText(indices.error)}
        </p>
      ) : !index ? (
        <EmptyState icon={ArrowLeft} title="No such index">
          There is no index called “{slug}”. Go back to the Market Index page to see the published indices.
        </EmptyState>
      ) : (
        <>
          <PageHeader title={`${index.name}: methodology`} description={index.description} />
          <dl className="mb-6 grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
            <div>
              <dt className="text-muted-foreground">Base value</dt>
              <dd>{index.base_value}</dd>
            </div>
            <div>
              <dt className="text-muted-foreground">Base date</dt>
              <dd>{index.base_date ?? 'first trading day with closes'}</dd>
            </div>
            <div>
              <dt className="text-muted-foreground">Unit</dt>
              <dd>{index.unit}</dd>
            </div>
            <div>
              <dt className="text-muted-foreground">Currency</dt>
              <dd>{index.currency ?? 'each state’s own (see below)'}</dd>
            </div>
          </dl>
          <article className="max-w-3xl">
            <MethodologyText markdown={index.methodology} />
          </article>
        </>
      )}
    </PageContainer>
  );
}
