import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, PackageX } from 'lucide-react';
import { Link } from 'react-router';
import { EmptyState } from '#web/components/layout/empty-state.tsx';
import { PageContainer } from '#web/components/layout/page-header.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { useConfirmedUserId } from '#web/lib/auth/hooks/use-auth.ts';
import { errorText } from '#web/lib/error-text.ts';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { myVotesQueryOptions } from '../api/get-my-votes.ts';
import { productQueryOptions } from '../api/get-product.ts';
import { useLiveTallies } from '../hooks/use-live-tallies.ts';
import { CommentsSection } from './comments-section.tsx';
import { ProductRanking } from './product-ranking.tsx';
import { ProductSummary } from './product-summary.tsx';

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
      <ProductSummary
        product={product}
        vote={votes.data?.[product.id]}
        signedIn={signedIn}
        onSignIn={onSignIn}
      />
      <ProductRanking product={product} detail={detail.data} />
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
