import { Mail } from 'lucide-react';
import { useSyncExternalStore } from 'react';
import { Link } from 'react-router';
import { getConfig } from '#web/lib/config.ts';
import { BrandMark } from './brand-logo.tsx';
import { InstagramIcon } from './instagram-icon.tsx';
import { legalNavItems, mainNavItems } from './nav-items.ts';

export const INSTAGRAM_URL = 'https://instagram.com/highgrade';

const noSubscription = () => () => {};

/**
 * This year. A prerendered page was rendered with the build's year (`__BUILD_YEAR__`), which hydration
 * starts from; the browser's year follows at once if a new year began since (decision 157).
 */
function useYear(): number {
  return useSyncExternalStore(
    noSubscription,
    () => new Date().getFullYear(),
    () => __BUILD_YEAR__,
  );
}

const linkClass =
  'rounded-sm text-muted-foreground text-sm transition-colors hover:text-foreground hover:underline';

export function SiteFooter() {
  const { siteName, supportEmail } = getConfig();
  const year = useYear();
  return (
    <footer className="render-near-view mt-16 border-t bg-muted/40 [--near-view-height:42rem] lg:[--near-view-height:22rem]">
      <div className="mx-auto grid max-w-7xl grid-cols-2 gap-10 px-4 py-12 sm:px-6 lg:grid-cols-4 lg:px-8">
        <div className="col-span-2 space-y-3 lg:col-span-1">
          <Link to="/" className="inline-flex items-center gap-2 rounded-md font-bold text-lg">
            <BrandMark className="size-7" />
            {siteName}
          </Link>
          <p className="max-w-xs text-muted-foreground text-sm">
            News, market data, honest product votes and a safer marketplace for the legal cannabis industry.
          </p>
        </div>

        <nav aria-label="Explore">
          <h2 className="font-semibold text-sm">Explore</h2>
          <ul className="mt-3 space-y-2">
            {mainNavItems.map((item) => (
              <li key={item.to}>
                <Link to={item.to} className={linkClass}>
                  {item.label}
                </Link>
              </li>
            ))}
            <li>
              <Link to="/booking" className={linkClass}>
                Book a promo session
              </Link>
            </li>
          </ul>
        </nav>

        <nav aria-label="Legal">
          <h2 className="font-semibold text-sm">Legal</h2>
          <ul className="mt-3 space-y-2">
            {legalNavItems.map((item) => (
              <li key={item.to}>
                <Link to={item.to} className={linkClass}>
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>

        <div className="col-span-2 sm:col-span-1">
          <h2 className="font-semibold text-sm">Contact</h2>
          <ul className="mt-3 space-y-2">
            <li>
              <a href={`mailto:${supportEmail}`} className={`${linkClass} inline-flex items-center gap-2`}>
                <Mail aria-hidden="true" className="size-4" />
                <span>
                  <span className="sr-only">Email support: </span>
                  {supportEmail}
                </span>
              </a>
            </li>
            <li>
              <a
                href={INSTAGRAM_URL}
                target="_blank"
                rel="noopener noreferrer"
                className={`${linkClass} inline-flex items-center gap-2`}
              >
                <InstagramIcon className="size-4" />
                <span>
                  Instagram<span className="sr-only"> (opens in a new tab)</span>
                </span>
              </a>
            </li>
          </ul>
        </div>
      </div>
      <div className="border-t">
        <div className="mx-auto flex max-w-7xl flex-col gap-2 px-4 py-6 text-muted-foreground text-xs sm:px-6 md:flex-row md:items-center md:justify-between lg:px-8">
          <p>
            <strong className="font-semibold text-foreground">21+ only.</strong> For adults 21 or older, or of
            the legal age where you live if that is higher. Know and follow your local cannabis laws.
          </p>
          <p>
            © {year} {siteName}
          </p>
        </div>
      </div>
    </footer>
  );
}
