import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, Info, PackageX } from 'lucide-react';
import { Link } from 'react-router';
import { EmptyState } from '#web/components/layout/empty-state.tsx';
import { PageContainer } from '#web/components/layout/page-header.tsx';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { useConfirmedUserId } from '#web/lib/auth/hooks/use-auth.ts';
import { errorText } from '#web/lib/error-text.ts';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { productQueryOptions } from '../api/get-product.ts';
import { myVotesQueryOptions } from '../api/votes.ts';
import { useLiveTallies } from '../hooks/use-live-tallies.ts';
import { percent, STRAIN_LABELS, shareSummary, wilsonInterval } from '../ranking.ts';
import type { RankedProduct } from '../types.ts';
import { CommentsSection } from './comments-section.tsx';
import { ProductImage } from './product-card.tsx';
import { SampleBadge } from './sample-badge.tsx';
import { VoteButtons } from './vote-buttons.tsx';
import { VoteChart } from './vote-chart.tsx';

const range = (min: number | null, max: number | null) => {
  if (min === null && max === null) return 'Not stated';
  if (min === max || max === null) return `${min}%`;
  if (min === null) return `up to ${max}%`;
  return `${min}–${max}%`;
};

function Numbers({
  product,
  topPosition,
  trendingPosition,
}: {
  product: RankedProduct;
  topPosition: number;
  trendingPosition: number;
}) {
  const [low, high] = wilsonInterval(product.gas, product.pass);
  const rows: [string, string][] = [
    ['Counted votes', `${product.counted} (${product.gas} Gas, ${product.pass} Pass)`],
    ['Pending votes', `${product.pending} — from accounts younger than the published age threshold`],
    ['Held votes', `${product.held} — waiting for a moderator's review`],
    ['Gas share', product.counted > 0 ? percent(product.gas / product.counted, 1) : '—'],
    [
      '95% interval of the Gas share',
      product.counted > 0 ? `${percent(low, 1)} to ${percent(high, 1)}` : '0% to 100%',
    ],
    ['Top score (Wilson lower bound)', product.wilson.toFixed(4)],
    ['Place in Top', `#${topPosition}`],
    ['Trending score (now)', product.trending_score.toFixed(4)],
    ['Place in Trending', `#${trendingPosition}`],
  ];
  return (
    <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[auto_1fr]" data-testid="ranking-numbers">
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-muted-foreground">{label}</dt>
          <dd className="font-medium tabular-nums">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** product §pass-or-gas: `/pass-or-gas/:id`. */
export function ProductPage({
  id,
  signedIn,
  onSignIn,
}: {
  id: string;
  signedIn: boolean;
  onSignIn: () => void;
}) {
  const detail = useQuery(productQueryOptions(id));
  const userId = useConfirmedUserId();
  const votes = useQuery(myVotesQueryOptions(userId, [id]));
  useLiveTallies(id);
  const product = detail.data?.product;
  useDocumentTitle(product ? `${product.name} — Pass or Gas` : 'Pass or Gas');

  const back = (
    <Button asChild variant="ghost" size="sm" className="-ml-2">
      <Link to="/pass-or-gas">
        <ArrowLeft aria-hidden="true" />
        All products
      </Link>
    </Button>
  );

  if (detail.isPending) {
    return (
      <PageContainer>
        {back}
        <div className="mt-6 grid gap-6 md:grid-cols-[320px_1fr]" data-testid="product-loading">
          <Skeleton className="h-72 rounded-xl" />
          <Skeleton className="h-72 rounded-xl" />
        </div>
      </PageContainer>
    );
  }
  if (detail.isError || !product) {
    return (
      <PageContainer>
        {back}
        <EmptyState
          icon={PackageX}
          title={detail.isError ? 'This product could not be loaded' : 'Product not found'}
          className="mt-6"
          actions={
            detail.isError ? <Button onClick={() => void detail.refetch()}>Try again</Button> : undefined
          }
        >
          {detail.isError ? errorText(detail.error) : 'It may have been archived, or the link is wrong.'}
        </EmptyState>
      </PageContainer>
    );
  }

  return (
    <PageContainer>
      {back}
      <div className="mt-4 grid gap-8 md:grid-cols-[320px_1fr]">
        <ProductImage product={product} className="h-72 w-full rounded-xl" />
        <div className="grid content-start gap-4">
          <div className="flex flex-wrap items-center gap-2">
            <Badge variant="secondary">{product.category}</Badge>
            {product.strain_type !== 'n/a' ? (
              <Badge variant="outline">{STRAIN_LABELS[product.strain_type]}</Badge>
            ) : null}
            {product.is_sample ? <SampleBadge /> : null}
          </div>
          <h1 className="font-bold text-3xl tracking-tight">{product.name}</h1>
          {product.brand_name && product.brand_slug ? (
            <p>
              by{' '}
              <Link
                className="font-medium text-primary hover:underline"
                to={`/brand-directory/${product.brand_slug}`}
              >
                {product.brand_name}
              </Link>
            </p>
          ) : null}
          {product.description ? (
            <p className="whitespace-pre-wrap text-muted-foreground">{product.description}</p>
          ) : null}
          <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-3">
            <div>
              <dt className="text-muted-foreground">THC</dt>
              <dd className="font-medium">{range(product.thc_min, product.thc_max)}</dd>
            </div>
            <div>
              <dt className="text-muted-foreground">CBD</dt>
              <dd className="font-medium">{range(product.cbd_min, product.cbd_max)}</dd>
            </div>
            <div>
              <dt className="text-muted-foreground">Strain type</dt>
              <dd className="font-medium">{STRAIN_LABELS[product.strain_type]}</dd>
            </div>
          </dl>
          <div className="grid gap-2 rounded-xl border p-4">
            <p className="font-medium" data-testid="share-summary">
              {shareSummary(product.gas, product.pass)}
            </p>
            <VoteButtons
              product={product}
              vote={votes.data?.[product.id]}
              signedIn={signedIn}
              onSignIn={onSignIn}
            />
            <p className="text-muted-foreground text-xs" data-testid="vote-counts">
              {product.counted} counted · {product.pending} pending · {product.held} held for review
            </p>
          </div>
        </div>
      </div>

      <div className="mt-8 grid gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle level={2}>Votes over time</CardTitle>
          </CardHeader>
          <CardContent>
            <VoteChart days={detail.data.days} />
          </CardContent>
        </Card>
        <Card>
          <CardHeader className="flex flex-row items-center justify-between gap-2">
            <CardTitle level={2}>Why it ranks here</CardTitle>
            <Button asChild variant="link" size="sm">
              <Link to="/pass-or-gas/how-rankings-work">
                <Info aria-hidden="true" />
                How rankings work
              </Link>
            </Button>
          </CardHeader>
          <CardContent>
            <Numbers
              product={product}
              topPosition={detail.data.topPosition}
              trendingPosition={detail.data.trendingPosition}
            />
          </CardContent>
        </Card>
      </div>

      <div className="mt-8">
        <CommentsSection
          productId={product.id}
          userId={userId}
          signedIn={signedIn}
          onSignIn={onSignIn}
          sample={product.is_sample}
        />
      </div>
    </PageContainer>
  );
}
