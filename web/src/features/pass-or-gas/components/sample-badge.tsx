import { Badge } from '#web/components/ui/badge.tsx';

/** PRODUCT-CONVENTIONS item 5: every sample says so, to eyes and to screen readers. */
export function SampleBadge() {
  return (
    <Badge variant="outline" className="border-amber-500 text-amber-700 dark:text-amber-300">
      Sample
      <span className="sr-only">
        {' '}
        — an example product shown until real products are added, not a real product
      </span>
    </Badge>
  );
}
