import { Skeleton } from '../ui/skeleton.tsx';

/** Shown while a page's code loads: the outline of a page header and a few cards, a screen tall so the footer does not jump up into view and back (layout shift, issue 21). */
export function PageSkeleton() {
  return (
    <div role="status" aria-live="polite" className="mx-auto min-h-svh max-w-7xl px-4 py-10 sm:px-6 lg:px-8">
      <span className="sr-only">Loading page…</span>
      <Skeleton className="h-4 w-24" />
      <Skeleton className="mt-4 h-9 w-72 max-w-full" />
      <Skeleton className="mt-3 h-5 w-[36rem] max-w-full" />
      <div className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
        <Skeleton className="h-40" />
        <Skeleton className="h-40" />
        <Skeleton className="hidden h-40 lg:block" />
      </div>
    </div>
  );
}
