import { useQuery } from '@tanstack/react-query';
import { Info } from 'lucide-react';
import { type SampleArea, sampleRetirementQueryOptions } from '#web/lib/samples/get-sample-retirement.ts';

const WHAT: Record<SampleArea, string> = {
  products: 'Pass or Gas shows sample content',
  brands: 'The brand directory shows sample brands',
  news: 'The news feed shows sample articles',
  market: 'The equity index is computed from a demonstration series',
};

/**
 * The admin pages' notice of an area's samples (decision 175): exactly what will be removed and when,
 * before it happens, and what is archived instead because members' rows name it. Nothing when the area
 * has no samples.
 */
export function SampleRetirementNotice({ area }: { area: SampleArea }) {
  const { data: entry } = useQuery(sampleRetirementQueryOptions(area));
  if (!entry || entry.items.length === 0) return null;
  const kept = entry.items.filter((item) => item.kept);
  const listId = `sample-retirement-${area}`;
  return (
    <section
      aria-label="Sample content"
      className="grid min-w-0 gap-2 rounded-lg border border-amber-500/60 bg-amber-50 p-4 text-sm dark:bg-amber-950/30"
      data-testid="sample-retirement"
    >
      <p className="flex items-start gap-2 font-medium">
        <Info aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        <span>
          {WHAT[area]}. These {entry.items.length} sample items are deleted {entry.retires_when}:
        </span>
      </p>
      <ul id={listId} className="ml-6 list-disc">
        {entry.items.map((item) => (
          <li key={`${item.kind}:${item.name}`}>
            {item.name}
            {item.kept
              ? ' — archived instead, because members’ votes, comments, claims or reports name it'
              : ''}
          </li>
        ))}
      </ul>
      <p className="text-muted-foreground">
        Members cannot vote on, comment on, claim, report or save samples, so nothing of theirs is deleted
        with them.
        {kept.length > 0
          ? ` ${kept.length} of them carry members’ rows from before this rule and will be archived, not deleted.`
          : ''}
      </p>
    </section>
  );
}
