import { Lock, LockOpen, TriangleAlert } from 'lucide-react';
import { cn } from '#web/lib/utils.ts';

/** A lock; with a small warning mark while the visitor has no access to the Scammer Network. */
export function ScammerNetworkIcon({ hasAccess, className }: { hasAccess: boolean; className?: string }) {
  if (hasAccess) return <LockOpen aria-hidden="true" className={cn('size-4', className)} />;
  return (
    <span aria-hidden="true" className={cn('relative mr-1 inline-flex', className)}>
      <Lock className="size-4" />
      <TriangleAlert
        className="absolute -top-1.5 -right-2 size-3 fill-background stroke-warning"
        strokeWidth={2.5}
      />
    </span>
  );
}
