import { Megaphone } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, NavLink } from 'react-router';
import { getConfig } from '#web/lib/config.ts';
import { cn } from '#web/lib/utils.ts';
import { Button } from '../ui/button.tsx';
import { AccountMenu } from './account-menu.tsx';
import { BrandMark } from './brand-logo.tsx';
import { MobileNav } from './mobile-nav.tsx';
import { mainNavItems, type NavUser } from './nav-items.ts';
import { ScammerNetworkIcon } from './scammer-network-icon.tsx';
import { ThemeToggle } from './theme-toggle.tsx';

export interface SiteHeaderProps {
  /** The signed-in member, or null for a visitor. */
  user: NavUser | null;
  /** Subscription, active trial or admin (product §access). */
  hasScammerAccess: boolean;
  /** The notifications bell (a feature, composed in by the app). */
  notifications?: ReactNode;
  onOpenScammerNetwork: () => void;
  onSubmitTip: () => void;
  /** Opens the authentication dialog. */
  onSignIn: () => void;
  onSignOut: () => void;
  /** Called when a link is hovered or focused, so the page's code can start loading early. */
  onPreload?: (path: string) => void;
}

export function SiteHeader(props: SiteHeaderProps) {
  const { user, hasScammerAccess, notifications, onOpenScammerNetwork, onSubmitTip, onPreload } = props;
  const { siteName } = getConfig();
  return (
    <header className="sticky top-0 z-40 border-b bg-background/90 backdrop-blur supports-[backdrop-filter]:bg-background/75">
      <div className="mx-auto flex h-16 max-w-7xl items-center gap-2 px-4 sm:px-6 lg:gap-4 lg:px-8">
        <MobileNav {...props} />
        <Link
          to="/"
          className="flex items-center gap-2 rounded-md font-bold text-lg tracking-tight"
          onMouseEnter={() => onPreload?.('/')}
          onFocus={() => onPreload?.('/')}
        >
          <BrandMark />
          <span className="md:sr-only lg:not-sr-only">{siteName}</span>
          <span className="sr-only">home</span>
        </Link>

        <nav aria-label="Main" className="hidden md:ml-2 md:block">
          <ul className="flex items-center gap-1">
            {mainNavItems.map((item) => (
              <li key={item.to}>
                <NavLink
                  to={item.to}
                  onMouseEnter={() => onPreload?.(item.to)}
                  onFocus={() => onPreload?.(item.to)}
                  className={({ isActive }) =>
                    cn(
                      'rounded-md px-2 py-2 font-medium text-muted-foreground text-sm transition-colors hover:bg-accent hover:text-accent-foreground lg:px-3',
                      isActive && 'bg-accent text-accent-foreground',
                    )
                  }
                >
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>

        <div className="ml-auto flex items-center gap-1">
          <Button
            variant="outline"
            className="hidden px-3 md:inline-flex"
            title={hasScammerAccess ? undefined : 'Sign in and subscribe (or start a trial) to open it'}
            onClick={onOpenScammerNetwork}
          >
            <ScammerNetworkIcon hasAccess={hasScammerAccess} />
            <span className="md:sr-only xl:not-sr-only">Scammer Network</span>
          </Button>
          <Button variant="ghost" className="hidden px-3 md:inline-flex" onClick={onSubmitTip}>
            <Megaphone aria-hidden="true" />
            <span className="md:sr-only xl:not-sr-only">Submit a Tip</span>
          </Button>
          {notifications}
          <ThemeToggle className="hidden md:inline-flex" />
          {user ? (
            <AccountMenu user={user} onSignOut={props.onSignOut} />
          ) : (
            <Button
              className="hidden md:inline-flex"
              aria-haspopup="dialog"
              onMouseEnter={() => onPreload?.('/auth')}
              onFocus={() => onPreload?.('/auth')}
              onClick={props.onSignIn}
            >
              Sign In
            </Button>
          )}
        </div>
      </div>
    </header>
  );
}
