import { cn } from '#web/lib/utils.ts';

/** The leaf mark (same drawing as favicon.svg). Decorative: the site name beside it carries the meaning. */
export function BrandMark({ className }: { className?: string }) {
  return (
    <svg
      viewBox="0 0 64 64"
      aria-hidden="true"
      focusable="false"
      className={cn('size-8 shrink-0', className)}
    >
      <rect width="64" height="64" rx="14" className="fill-primary" />
      <path
        d="M32 10c3 9 3 17 0 26-3-9-3-17 0-26Zm0 26c7-6 14-9 22-9-5 7-12 10-22 9Zm0 0c-7-6-14-9-22-9 5 7 12 10 22 9Zm0 0v18"
        className="stroke-primary-foreground"
        strokeWidth="3"
        fill="none"
        strokeLinejoin="round"
        strokeLinecap="round"
      />
    </svg>
  );
}
