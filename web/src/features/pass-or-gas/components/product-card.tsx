import { Package } from 'lucide-react';
import { Link } from 'react-router';
import { Badge } from '#web/components/ui/badge.tsx';
import { Card } from '#web/components/ui/card.tsx';
import { STRAIN_LABELS, shareSummary } from '../ranking.ts';
import type { MyVote, RankedProduct } from '../types.ts';
import { SampleBadge } from './sample-badge.tsx';
import { VoteButtons } from './vote-buttons.tsx';

interface ProductCardProps {
  product: RankedProduct;
  rank: number;
  vote: MyVote | undefined;
  signedIn: boolean;
  onSignIn: () => void;
}

export function ProductImage({
  product,
  className,
}: {
  product: Pick<RankedProduct, 'image_url'>;
  className: string;
}) {
  return product.image_url ? (
    <img src={product.image_url} alt="" loading="lazy" className={`${className} object-cover`} />
  ) : (
    <div className={`${className} flex items-center justify-center bg-secondary text-muted-foreground`}>
      <Package aria-hidden="true" className="size-10" />
    </div>
  );
}

export function ProductCard({ product, rank, vote, signedIn, onSignIn }: ProductCardProps) {
  const share = product.counted > 0 ? product.gas / product.counted : 0;
  return (
    <Card className="flex flex-col overflow-hidden" data-testid="product-card">
      <ProductImage product={product} className="h-40 w-full" />
      <div className="flex flex-1 flex-col gap-3 p-4">
        <div className="flex items-start justify-between gap-2">
          <div className="min-w-0">
            <h2 className="font-semibold leading-snug">
              <span className="mr-1 text-muted-foreground tabular-nums">#{rank}</span>
              <Link to={`/pass-or-gas/${encodeURIComponent(product.id)}`} className="hover:underline">
                {product.name}
              </Link>
            </h2>
            {product.brand_name ? (
              <p className="text-muted-foreground text-sm">{product.brand_name}</p>
            ) : null}
          </div>
          {product.is_sample ? <SampleBadge /> : null}
        </div>
        <div className="flex flex-wrap gap-1.5">
          <Badge variant="secondary">{product.category}</Badge>
          {product.strain_type !== 'n/a' ? (
            <Badge variant="outline">{STRAIN_LABELS[product.strain_type]}</Badge>
          ) : null}
        </div>
        <div className="mt-auto grid gap-1.5">
          <div
            className="h-2 overflow-hidden rounded-full bg-secondary"
            role="img"
            aria-label={`Gas share: ${shareSummary(product.gas, product.pass)}`}
          >
            <div className="h-full bg-primary" style={{ width: `${(share * 100).toFixed(1)}%` }} />
          </div>
          <p className="text-muted-foreground text-sm" data-testid="share-summary">
            {shareSummary(product.gas, product.pass)}
          </p>
        </div>
        <VoteButtons product={product} vote={vote} signedIn={signedIn} onSignIn={onSignIn} size="sm" />
      </div>
    </Card>
  );
}
