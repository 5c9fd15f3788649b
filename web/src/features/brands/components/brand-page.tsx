import { useQuery } from '@tanstack/react-query';
import {
  ArrowLeft,
  ExternalLink,
  FileWarning,
  Globe,
  MapPin,
  Package,
  ShieldCheck,
  Store,
} from 'lucide-react';
import { Link, Navigate } from 'react-router';
import { EmptyState } from '#web/components/layout/empty-state.tsx';
import { PageContainer } from '#web/components/layout/page-header.tsx';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { useConfirmedUserId } from '#web/lib/auth/hooks/use-auth.ts';
import { errorText } from '#web/lib/error-text.ts';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { brandPageQueryOptions } from '../api/brands.ts';
import { type Brand, type BrandLicence, type BrandPageData, stateName } from '../types.ts';
import { BrandLogo, BrandSampleBadge, CheckedOn, gasShareText, VerificationBadge } from './brand-badges.tsx';
import { ClaimBrand, EditProfile } from './claim-and-edit.tsx';

const dateText = (value: string) =>
  new Date(value.length === 10 ? `${value}T12:00:00Z` : value).toLocaleDateString('en-US', {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  });

const linkLabel = (url: string) => {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return url;
  }
};

/** An outside address: opens in a new tab, passes no referrer rights and no ranking credit. */
function OutsideLink({ href, children }: { href: string; children: React.ReactNode }) {
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener nofollow"
      className="inline-flex items-center gap-1 font-medium text-primary hover:underline"
    >
      {children}
      <ExternalLink aria-hidden="true" className="size-3.5" />
      <span className="sr-only"> (opens in a new tab)</span>
    </a>
  );
}

/** One licence's number, issuer, type, expiry and verification, in plain words. */
function LicenceDetails({ licence, textTestId }: { licence: BrandLicence; textTestId: string }) {
  return (
    <>
      <dl className="grid gap-x-6 gap-y-1.5 sm:grid-cols-[auto_1fr]">
        <dt className="text-muted-foreground">Licence number</dt>
        <dd className="font-medium font-mono">{licence.number}</dd>
        <dt className="text-muted-foreground">Issued by</dt>
        <dd className="font-medium">{licence.state ? stateName(licence.state) : 'Not stated'}</dd>
        <dt className="text-muted-foreground">Licence type</dt>
        <dd className="font-medium">{licence.type ?? 'Not stated'}</dd>
        {licence.expires_on ? (
          <>
            <dt className="text-muted-foreground">Expires</dt>
            <dd className="font-medium">{dateText(licence.expires_on)}</dd>
          </>
        ) : null}
      </dl>
      <div className="flex flex-wrap items-center gap-2">
        <VerificationBadge verification={licence.verification} checkedAt={licence.verified_at} />
      </div>
      {licence.verification === 'verified' && licence.verified_at ? (
        <p data-testid={textTestId}>
          HighGrade checked this licence on {dateText(licence.verified_at)}.
          {licence.verification_note ? ` Evidence: ${licence.verification_note}` : ''}
        </p>
      ) : licence.verification === 'recheck_due' ? (
        <p data-testid={textTestId}>
          HighGrade checked this licence
          {licence.verified_at ? ` on ${dateText(licence.verified_at)}` : ''}, more than 12 months ago: it is
          due for re-check and no longer counts as verified. Check its current status with the issuing state
          before you trade.
        </p>
      ) : licence.verification === 'expired' ? (
        <p data-testid={textTestId}>
          This licence was verified
          {licence.verified_at ? ` on ${dateText(licence.verified_at)}` : ''}, but the licence
          {licence.expires_on ? ` expired on ${dateText(licence.expires_on)}` : ' has expired'}. Check its
          current status with the issuing state before you trade.
        </p>
      ) : (
        <p data-testid={textTestId}>
          This licence has not been verified by HighGrade. Check it with the issuing state before you trade.
        </p>
      )}
    </>
  );
}

/**
 * The brand's licences (decision 151): the primary one (the one the brand is promoted with) first, then
 * every other licence with its own verification.
 */
function Licences({ brand, licences }: { brand: Brand; licences: BrandLicence[] }) {
  const primary: BrandLicence | null = brand.licence_number
    ? {
        id: 'primary',
        number: brand.licence_number,
        state: brand.licence_state ?? '',
        type: brand.licence_type,
        expires_on: brand.licence_expires_on,
        verification: brand.verification,
        verified_at: brand.verified_at,
        verification_note: brand.verification_note,
        is_primary: true,
      }
    : null;
  const others = licences.filter((licence) => !licence.is_primary);
  return (
    <>
      <Card data-testid="brand-licence">
        <CardHeader>
          <CardTitle level={2} className="flex items-center gap-2 text-lg">
            <ShieldCheck aria-hidden="true" className="size-5" />
            {others.length ? 'Primary licence' : 'Licence'}
          </CardTitle>
        </CardHeader>
        <CardContent className="grid gap-3 text-sm">
          {primary ? (
            <LicenceDetails licence={primary} textTestId="verification-text" />
          ) : (
            <>
              <p>No licence number is on file for this brand.</p>
              <div className="flex flex-wrap items-center gap-2">
                <VerificationBadge verification={brand.verification} />
              </div>
              <p data-testid="verification-text">
                This licence has not been verified by HighGrade. Check it with the issuing state before you
                trade.
              </p>
            </>
          )}
        </CardContent>
      </Card>
      {others.length ? (
        <Card data-testid="brand-other-licences">
          <CardHeader>
            <CardTitle level={2} className="flex items-center gap-2 text-lg">
              <ShieldCheck aria-hidden="true" className="size-5" />
              Other licences ({others.length})
            </CardTitle>
          </CardHeader>
          <CardContent>
            <ul className="grid gap-4 text-sm">
              {others.map((licence) => (
                <li
                  key={licence.id}
                  className="grid gap-3 border-t pt-4 first:border-t-0 first:pt-0"
                  data-testid="other-licence"
                >
                  <LicenceDetails licence={licence} textTestId="licence-verification-text" />
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
      ) : null}
    </>
  );
}

function Reports({
  data,
  signedIn,
  onSignIn,
}: {
  data: BrandPageData;
  signedIn: boolean;
  onSignIn: () => void;
}) {
  const { count, dates, ids, has_access, is_representative } = data.reports;
  return (
    <Card data-testid="brand-reports">
      <CardHeader>
        <CardTitle level={2} className="flex items-center gap-2 text-lg">
          <FileWarning aria-hidden="true" className="size-5" />
          Scam reports by members
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3 text-sm">
        {count === 0 ? (
          <p data-testid="report-summary">No published reports by members are linked to this brand.</p>
        ) : (
          <>
            <p className="font-medium" data-testid="report-summary">
              {count} published {count === 1 ? 'report' : 'reports'} by members
            </p>
            <p className="text-muted-foreground">
              {count > dates.length ? `The latest ${dates.length} were filed on ` : 'Filed on '}
              {dates.map((date) => dateText(date)).join(', ')}. Reports are members' accounts of what happened
              to them, reviewed before publication; they are not a verdict on the brand.
            </p>
            {is_representative ? (
              <p>As an approved representative of this brand you read its reports free of charge.</p>
            ) : has_access ? (
              <Button asChild variant="outline" className="justify-self-start">
                <Link to={`/scammer-database?brand=${data.brand.id}`}>Read the reports</Link>
              </Button>
            ) : signedIn ? (
              <p>
                The reports' details are for members with Scammer Network access (a subscription or an active
                trial).{' '}
                <Link className="font-medium text-primary hover:underline" to="/profile?tab=subscription">
                  Get access
                </Link>
              </p>
            ) : (
              <p>
                The reports' details are for members with Scammer Network access.{' '}
                <button type="button" className="font-medium text-primary hover:underline" onClick={onSignIn}>
                  Sign in
                </button>{' '}
                to subscribe or start a trial.
              </p>
            )}
            <section aria-labelledby="brand-reply-heading" className="grid gap-2 border-t pt-3">
              <h3 id="brand-reply-heading" className="font-semibold">
                Named in a report? Reply
              </h3>
              <p className="text-muted-foreground">
                The people and businesses a report names can send a reply, a correction or a takedown request;
                the reviewers decide on each and tell the sender.{' '}
                <Link className="font-medium text-primary hover:underline" to="/how-reports-are-reviewed">
                  How reports are reviewed
                </Link>
              </p>
              <ul className="grid gap-1">
                {ids.map((id, index) => (
                  <li key={id} className="flex flex-wrap items-center gap-x-3">
                    {is_representative ? (
                      <Link
                        className="font-medium text-primary hover:underline"
                        to={`/scammer-database/${id}`}
                      >
                        Read the report filed on {dateText(dates[index] ?? '')}
                      </Link>
                    ) : null}
                    <Link
                      className="font-medium text-primary hover:underline"
                      to={`/scammer-database/${id}/reply`}
                    >
                      Reply to the report filed on {dateText(dates[index] ?? '')}
                    </Link>
                  </li>
                ))}
              </ul>
            </section>
          </>
        )}
      </CardContent>
    </Card>
  );
}

function Products({ data }: { data: BrandPageData }) {
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
  const userId = useConfirmedUserId();
  const page = useQuery(brandPageQueryOptions(slug, userId));
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
  const where = [brand.city, brand.states.map(stateName).join(', ')].filter(Boolean).join(' · ');

  return (
    <PageContainer>
      {back}
      <article className="mt-4 grid gap-8">
        <header className="flex flex-col gap-4 sm:flex-row sm:items-start">
          <BrandLogo name={brand.name} url={brand.logo_url} className="size-24 shrink-0" />
          <div className="grid min-w-0 gap-2">
            <div className="flex flex-wrap items-center gap-2">
              <VerificationBadge verification={brand.verification} checkedAt={brand.verified_at} />
              <CheckedOn verification={brand.verification} checkedAt={brand.verified_at} />
              {brand.is_sample ? <BrandSampleBadge /> : null}
              {brand.categories.map((category) => (
                <Badge key={category} variant="secondary">
                  {category}
                </Badge>
              ))}
            </div>
            <h1 className="font-bold text-3xl tracking-tight">{brand.name}</h1>
            {brand.licence_number ? (
              <p className="text-muted-foreground text-sm" data-testid="header-licence">
                Licence {brand.licence_state ? `${brand.licence_state} ` : ''}
                {brand.licence_number}
              </p>
            ) : null}
            {where ? (
              <p className="flex items-center gap-1 text-muted-foreground">
                <MapPin aria-hidden="true" className="size-4 shrink-0" />
                {where}
              </p>
            ) : null}
            {brand.archived_at ? (
              <p className="font-medium text-amber-700 dark:text-amber-300">
                This brand is archived: it no longer appears in the directory.
              </p>
            ) : null}
          </div>
        </header>

        {brand.description ? <p className="max-w-3xl whitespace-pre-wrap">{brand.description}</p> : null}

        {brand.website || brand.social_links.length > 0 ? (
          <ul className="flex flex-wrap gap-x-6 gap-y-2" aria-label="Links">
            {brand.website ? (
              <li className="flex items-center gap-1.5">
                <Globe aria-hidden="true" className="size-4 text-muted-foreground" />
                <OutsideLink href={brand.website}>{linkLabel(brand.website)}</OutsideLink>
              </li>
            ) : null}
            {brand.social_links.map((url) => (
              <li key={url}>
                <OutsideLink href={url}>{linkLabel(url)}</OutsideLink>
              </li>
            ))}
          </ul>
        ) : null}

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
            userId={userId}
            onSignIn={onSignIn}
          />
        )}
      </article>
    </PageContainer>
  );
}
