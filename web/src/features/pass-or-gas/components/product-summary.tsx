import { Link } from 'react-router';
import { Badge } from '#web/components/ui/badge.tsx';
import { STRAIN_LABELS, shareSummary } from '../ranking.ts';
import type { MyVote, RankedProduct } from '../types.ts';
import { ProductImage } from './product-card.tsx';
import { SampleBadge } from './sample-badge.tsx';
import { VoteButtons } from './vote-buttons.tsx';

const range = (min: number | null, max: number | null) => {
  if (min === null && max === null) return 'Not stated';
  if (min === max || max === null) return `${min}%`;
  if (min === null) return `up to ${max}%`;
  return `${min}–${max}%`;
};

interface ProductSummaryProps {
  product: RankedProduct;
  vote: MyVote | undefined;
  signedIn: boolean;
  onSignIn: () => void;
}

/** The product's picture, name, brand, facts and its votes with the buttons to cast one. */
export function ProductSummary({ product, vote, signedIn, onSignIn }: ProductSummaryProps) {
  return (
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
          <VoteButtons product={product} vote={vote} signedIn={signedIn} onSignIn={onSignIn} />
          <p className="text-muted-foreground text-xs" data-testid="vote-counts">
            {product.counted} counted · {product.pending} pending · {product.held} held for review
          </p>
        </div>
      </div>
    </div>
  );
}
