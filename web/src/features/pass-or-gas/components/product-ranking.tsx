import { Info } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import type { ProductDetail } from '../api/get-product.ts';
import { percent, wilsonInterval } from '../ranking.ts';
import type { RankedProduct } from '../types.ts';
import { VoteChart } from './vote-chart.tsx';

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

/** The product's votes by day and every number behind its places in Top and Trending. */
export function ProductRanking({ product, detail }: { product: RankedProduct; detail: ProductDetail }) {
  return (
    <div className="mt-8 grid gap-6 lg:grid-cols-2">
      <Card>
        <CardHeader>
          <CardTitle level={2}>Votes over time</CardTitle>
        </CardHeader>
        <CardContent>
          <VoteChart days={detail.days} />
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
            topPosition={detail.topPosition}
            trendingPosition={detail.trendingPosition}
          />
        </CardContent>
      </Card>
    </div>
  );
}
