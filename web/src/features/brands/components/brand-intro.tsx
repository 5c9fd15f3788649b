import { ExternalLink, Globe, MapPin } from 'lucide-react';
import { Badge } from '#web/components/ui/badge.tsx';
import { type Brand, stateName } from '../types.ts';
import { BrandLogo, BrandSampleBadge, CheckedOn, VerificationBadge } from './brand-badges.tsx';

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

/** The top of a brand's trust page: logo, badges, name, licence, where it is, its description and links. */
export function BrandIntro({ brand }: { brand: Brand }) {
  const where = [brand.city, brand.states.map(stateName).join(', ')].filter(Boolean).join(' · ');
  return (
    <>
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
    </>
  );
}
