import { Package } from 'lucide-react';
import { Link } from 'react-router';
import { Badge } from '#web/components/ui/badge.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import type { BrandPageData } from '../types.ts';
import { gasShareText } from './brand-badges.tsx';

/** The brand's products on Pass or Gas, with their tallies and rank. */
export function Products({ data }: { data: BrandPageData }) {
  const tallies = data.tallies;
  return (
    <Card data-testid="brand-products">
      <CardHeader>
        <CardTitle level={2} className="flex items-center gap-2 text-lg">
          <Package aria-hidden="true" className="size-5" />
          Products on Pass or Gas
        </CardTitle>
        {tallies ? (
          <p className="text-muted-foreground text-sm">
            {gasShareText(tallies.gas, tallies.pass, tallies.products)}
          </p>
        ) : null}
      </CardHeader>
      <CardContent>
        {data.products.length === 0 ? (
          <p className="text-sm">No products of this brand are listed on Pass or Gas yet.</p>
        ) : (
          <ul className="divide-y">
            {data.products.map((product) => (
              <li key={product.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <div className="min-w-0">
                  <Link
                    to={`/pass-or-gas/${encodeURIComponent(product.id)}`}
                    className="font-medium hover:underline"
                  >
                    {product.name}
                  </Link>
                  <p className="text-muted-foreground text-xs">
                    {product.category} · #{product.rank} in Top
                  </p>
                </div>
                <p className="text-sm tabular-nums" data-testid="product-tally">
                  {product.gas} Gas · {product.pass} Pass
                  {product.is_sample ? (
                    <Badge variant="outline" className="ml-2">
                      Sample
                    </Badge>
                  ) : null}
                </p>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
