import { Menu } from 'lucide-react';
import { lazy, Suspense, useRef, useState } from 'react';
import { Button } from '../ui/button.tsx';
import type { SiteHeaderProps } from './site-header.tsx';

const loadDrawer = () => import('./mobile-nav-drawer.tsx');
// The drawer (a modal dialog) loads when first opened, keeping it out of every page's first load.
const MobileNavDrawer = lazy(loadDrawer);

/** The menu button shown below the md breakpoint, and the side drawer it opens. */
export function MobileNav(props: SiteHeaderProps) {
  const [open, setOpen] = useState(false);
  const [used, setUsed] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  return (
    <>
      <Button
        ref={button}
        variant="ghost"
        size="icon"
        className="-ml-2 md:hidden"
        aria-label="Open menu"
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={open ? 'mobile-nav' : undefined}
        onPointerDown={() => void loadDrawer().catch(() => {})}
        onClick={() => {
          setUsed(true);
          setOpen(true);
        }}
      >
        <Menu aria-hidden="true" className="size-6" />
      </Button>
      {used ? (
        <Suspense fallback={null}>
          <MobileNavDrawer {...props} open={open} onOpenChange={setOpen} menuButton={button} />
        </Suspense>
      ) : null}
    </>
  );
}
