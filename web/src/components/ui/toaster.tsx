import { useLayoutEffect, useRef, useState } from 'react';
import { Toast, ToastClose, ToastDescription, ToastProvider, ToastTitle, ToastViewport } from './toast.tsx';
import { useToast } from './use-toast.ts';

/**
 * Where the toasts may go, in order of preference (issue 21 item 7): bottom right on wide screens (top on
 * phones), then the other corners (phones: the other edge).
 */
const PLACEMENTS = [
  { className: '', top: false, left: false, phoneTop: true },
  { className: 'top-auto bottom-0 sm:top-0 sm:bottom-auto', top: true, left: false, phoneTop: false },
  { className: 'sm:right-auto sm:left-0', top: false, left: true, phoneTop: true },
  {
    className: 'top-auto bottom-0 sm:top-0 sm:bottom-auto sm:right-auto sm:left-0',
    top: true,
    left: true,
    phoneTop: false,
  },
] as const;

/** Where the toasts would stand in a placement, given their size now. */
function placedRect(placement: (typeof PLACEMENTS)[number], size: DOMRect, wide: boolean) {
  const width = wide ? size.width : window.innerWidth;
  const left = wide && !placement.left ? window.innerWidth - width : 0;
  const top = (wide ? placement.top : placement.phoneTop) ? 0 : window.innerHeight - size.height;
  return { left, right: left + width, top, bottom: top + size.height };
}

/**
 * The placement that keeps the control clear: best one whose column does not touch the control at all
 * (the toasts cannot cover it however the page scrolls or grows), else one that does not cover it now,
 * else the first.
 */
function clearPlacement(control: DOMRect, size: DOMRect, wide: boolean): number {
  let best = 0;
  let bestScore = -1;
  PLACEMENTS.forEach((placement, index) => {
    const rect = placedRect(placement, size, wide);
    const apartSideways = rect.right <= control.left || control.right <= rect.left;
    const apart = apartSideways || rect.bottom <= control.top || control.bottom <= rect.top;
    const score = apartSideways ? 2 : apart ? 1 : 0;
    if (score > bestScore) {
      best = index;
      bestScore = score;
    }
  });
  return best;
}

/** Renders the queued toasts; mount once near the root. */
export default function Toaster() {
  const { toasts, dismiss } = useToast();
  const viewport = useRef<HTMLOListElement>(null);
  const newest = toasts.find((item) => item.open) ?? null;
  const trigger = newest?.trigger ?? null;
  const [index, setIndex] = useState(0);

  // Measured before paint, and again whenever the page scrolls or resizes while the toast is up.
  useLayoutEffect(() => {
    const own = viewport.current;
    if (!trigger || !own) return;
    const place = () => {
      if (!trigger.isConnected) return;
      const wide = window.matchMedia('(min-width: 640px)').matches;
      setIndex(clearPlacement(trigger.getBoundingClientRect(), own.getBoundingClientRect(), wide));
    };
    place();
    window.addEventListener('scroll', place, true);
    window.addEventListener('resize', place);
    return () => {
      window.removeEventListener('scroll', place, true);
      window.removeEventListener('resize', place);
    };
  }, [trigger]);

  return (
    <ToastProvider duration={5000} swipeDirection="right">
      {toasts.map(({ id, title, description, variant, duration, open }) => (
        <Toast
          key={id}
          open={open}
          variant={variant}
          duration={duration}
          type={variant === 'destructive' ? 'foreground' : 'background'}
          onOpenChange={(next) => {
            if (!next) dismiss(id);
          }}
        >
          <div className="grid gap-1">
            {title ? <ToastTitle>{title}</ToastTitle> : null}
            {description ? <ToastDescription>{description}</ToastDescription> : null}
          </div>
          <ToastClose />
        </Toast>
      ))}
      {/*
        aria-live="off" is the list's default; stated, it makes a modal dialog opened later keep the
        toasts exposed (Radix hides the rest of the page with the aria-hidden package, which leaves
        elements carrying aria-live alone).
      */}
      <ToastViewport ref={viewport} aria-live="off" className={PLACEMENTS[index]?.className} />
    </ToastProvider>
  );
}
