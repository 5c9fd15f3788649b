import { ShieldCheck } from 'lucide-react';
import { Card, CardContent, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { type Brand, type BrandLicence, stateName } from '../types.ts';
import { dateText, VerificationBadge } from './brand-badges.tsx';

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
export function Licences({ brand, licences }: { brand: Brand; licences: BrandLicence[] }) {
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
