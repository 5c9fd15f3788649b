import { useQuery } from '@tanstack/react-query';
import { cn } from '#web/lib/utils.ts';
import { newsCategoriesQueryOptions } from '../api/get-news-categories.ts';
import { TEAM_CATEGORY } from '../news-feed.ts';

/** All, each enabled source's category and the team's posts, as toggle chips. */
export function CategoryChips({
  value,
  onChange,
}: {
  value: string | null;
  onChange: (category: string | null) => void;
}) {
  const categories = useQuery(newsCategoriesQueryOptions());
  const names = [...(categories.data ?? []), TEAM_CATEGORY];
  const chip = (label: string, category: string | null) => (
    <button
      key={label}
      type="button"
      aria-pressed={value === category}
      onClick={() => onChange(category)}
      className={cn(
        'shrink-0 rounded-full border px-3 py-1.5 font-medium text-sm transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
        value === category
          ? 'border-primary bg-primary text-primary-foreground'
          : 'bg-card hover:bg-secondary',
      )}
    >
      {label}
    </button>
  );
  return (
    <fieldset className="-mx-1 flex min-w-0 gap-2 overflow-x-auto px-1 pb-1">
      <legend className="sr-only">Category</legend>
      {chip('All', null)}
      {names.map((name) => chip(name === TEAM_CATEGORY ? 'From the team' : name, name))}
    </fieldset>
  );
}
