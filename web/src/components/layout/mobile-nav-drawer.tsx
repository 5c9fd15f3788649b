import { LogOut, Megaphone, Shield, UserRound } from 'lucide-react';
import { type RefObject, useRef } from 'react';
import { Link, NavLink } from 'react-router';
import { getConfig } from '#web/lib/config.ts';
import { cn } from '#web/lib/utils.ts';
import { Button } from '../ui/button.tsx';
import { Separator } from '../ui/separator.tsx';
import { Sheet, SheetContent, SheetDescription, SheetTitle } from '../ui/sheet.tsx';
import { BrandMark } from './brand-logo.tsx';
import { mainNavItems } from './nav-items.ts';
import { ScammerNetworkIcon } from './scammer-network-icon.tsx';
import type { SiteHeaderProps } from './site-header.tsx';
import { ThemeToggle } from './theme-toggle.tsx';

const itemClass =
  'flex w-full items-center gap-3 rounded-md px-3 py-2.5 font-medium text-base transition-colors hover:bg-accent hover:text-accent-foreground';

interface MobileNavDrawerProps extends SiteHeaderProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The menu button (outside this lazily loaded module), which gets focus back on close. */
  menuButton: RefObject<HTMLButtonElement | null>;
}

/** The side drawer that carries the top navigation's items below the md breakpoint. */
export default function MobileNavDrawer({
  open,
  onOpenChange: setOpen,
  menuButton,
  user,
  hasScammerAccess,
  onOpenScammerNetwork,
  onSubmitTip,
  onSignIn,
  onSignOut,
  onPreload,
}: MobileNavDrawerProps) {
  // After following a link the page takes focus (see the root layout), not the menu button.
  const navigated = useRef(false);
  const { siteName } = getConfig();

  const follow = () => {
    navigated.current = true;
    setOpen(false);
  };
  const act = (action: () => void) => () => {
    setOpen(false);
    action();
  };

  return (
    <Sheet open={open} onOpenChange={setOpen}>
      <SheetContent
        id="mobile-nav"
        onOpenAutoFocus={() => {
          navigated.current = false;
        }}
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          if (!navigated.current) menuButton.current?.focus();
        }}
      >
        <SheetTitle className="flex items-center gap-2">
          <BrandMark className="size-7" />
          {siteName}
        </SheetTitle>
        <SheetDescription className="sr-only">Site navigation</SheetDescription>
        {user ? (
          <p className="truncate text-muted-foreground text-sm">
            Signed in as <span className="font-medium text-foreground">{user.email}</span>
          </p>
        ) : null}

        <nav aria-label="Mobile">
          <ul className="grid gap-1">
            {mainNavItems.map((item) => (
              <li key={item.to}>
                <NavLink
                  to={item.to}
                  onClick={follow}
                  onFocus={() => onPreload?.(item.to)}
                  className={({ isActive }) => cn(itemClass, isActive && 'bg-accent text-accent-foreground')}
                >
                  <item.icon aria-hidden="true" className="size-5 text-primary" />
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>

        <Separator />
        <div className="grid gap-1">
          <button type="button" className={itemClass} onClick={act(onOpenScammerNetwork)}>
            <ScammerNetworkIcon hasAccess={hasScammerAccess} className="mx-0.5" />
            Scammer Network
          </button>
          <button type="button" className={itemClass} onClick={act(onSubmitTip)}>
            <Megaphone aria-hidden="true" className="size-5" />
            Submit a Tip
          </button>
        </div>

        <Separator />
        <div className="grid gap-1">
          <ThemeToggle withLabel />
          {user ? (
            <>
              <Link to="/profile" onClick={follow} className={itemClass}>
                <UserRound aria-hidden="true" className="size-5" />
                Profile Settings
              </Link>
              {user.isAdmin ? (
                <Link to="/admin" onClick={follow} className={itemClass}>
                  <Shield aria-hidden="true" className="size-5" />
                  Admin Panel
                </Link>
              ) : null}
              <button type="button" className={itemClass} onClick={act(onSignOut)}>
                <LogOut aria-hidden="true" className="size-5" />
                Sign Out
              </button>
            </>
          ) : (
            <Button className="mt-2" aria-haspopup="dialog" onClick={act(onSignIn)}>
              Sign In
            </Button>
          )}
        </div>
      </SheetContent>
    </Sheet>
  );
}
