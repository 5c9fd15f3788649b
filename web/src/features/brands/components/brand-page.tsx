import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, Store } from 'lucide-react';
import { Link, Navigate } from 'react-router';
import { EmptyState } from '#web/components/layout/empty-state.tsx';
import { PageContainer } from '#web/components/layout/page-header.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { useReaderId } from '#web/lib/auth/hooks/use-auth.ts';
import { errorText } from '#web/lib/error-text.ts';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { brandPageQueryOptions } from '../api/get-brand-page.ts';
import { BrandIntro } from './brand-intro.tsx';
import { Licences } from './brand-licences.tsx';
import { Products } from './brand-products.tsx';
import { Reports } from './brand-reports.tsx';
import { ClaimBrand, EditProfile } from './claim-and-edit.tsx';

/** product §brand-directory: `/brand-directory/:slug`, the brand's trust page. */
export function BrandPage({
  slug,
  signedIn,
  onSignIn,
}: {
  slug: string;
  signedIn: boolean;
  onSignIn: () => void;
}) {
  const reader = useReaderId();
  const page = useQuery(brandPageQueryOptions(slug, reader));
  const data = page.data;
  useDocumentTitle(data ? `${data.brand.name} — Brand Directory` : 'Brand Directory');

  const back = (
    <Button asChild variant="ghost" size="sm" className="-ml-2">
      <Link to="/brand-directory">
        <ArrowLeft aria-hidden="true" />
        All brands
      </Link>
    </Button>
  );

  if (page.isPending) {
    return (
      <PageContainer>
        {back}
        <div className="mt-6 grid gap-6" data-testid="brand-loading">
          <Skeleton className="h-40 rounded-xl" />
          <Skeleton className="h-56 rounded-xl" />
        </div>
      </PageContainer>
    );
  }
  if (page.isError || !data) {
    return (
      <PageContainer>
        {back}
        <EmptyState
          icon={Store}
          title={page.isError ? 'This brand could not be loaded' : 'Brand not found'}
          className="mt-6"
          actions={page.isError ? <Button onClick={() => void page.refetch()}>Try again</Button> : undefined}
        >
          {page.isError ? errorText(page.error) : 'The link may be wrong, or the brand was removed.'}
        </EmptyState>
      </PageContainer>
    );
  }
  if (data.merged_into_slug) {
    return <Navigate to={`/brand-directory/${data.merged_into_slug}`} replace />;
  }
  const { brand } = data;

  return (
    <PageContainer>
      {back}
      <article className="mt-4 grid gap-8">
        <BrandIntro brand={brand} />

        <div className="grid gap-6 lg:grid-cols-2">
          <div className="grid content-start gap-6">
            <Licences brand={brand} licences={data.licences ?? []} />
          </div>
          <Reports data={data} signedIn={signedIn} onSignIn={onSignIn} />
        </div>
        <Products data={data} />

        {data.is_representative ? (
          <EditProfile brand={brand} />
        ) : brand.is_sample ? (
          // Samples take no claims (decision 175): they are deleted when real brands arrive.
          <p className="text-muted-foreground text-sm" data-testid="sample-closed">
            This is a sample brand: it cannot be claimed or named in reports, because samples are deleted when
            real brands are added.
          </p>
        ) : brand.archived_at ? null : (
          <ClaimBrand
            brand={brand}
            claim={data.my_claim}
            signedIn={signedIn}
            userId={reader ?? null}
            onSignIn={onSignIn}
          />
        )}
      </article>
    </PageContainer>
  );
}
