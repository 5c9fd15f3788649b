import { CategoryChips } from './category-chips.tsx';
import { NewsFeedList, type NewsFeedListProps } from './news-feed-list.tsx';
import { SearchBox, SearchSummary, SortSelect } from './news-search.tsx';

/** The news feed (product §news): chips, search, cards, "Load more". */
export function NewsFeedView({ filters, onFiltersChange, userId, onSignIn }: NewsFeedListProps) {
  const searching = filters.q.trim() !== '';
  return (
    <div className="mt-8 space-y-6">
      <div className="flex flex-col gap-4 lg:flex-row lg:items-center lg:justify-between">
        <SearchBox filters={filters} onChange={onFiltersChange} />
        {searching ? <SortSelect filters={filters} onChange={onFiltersChange} /> : null}
      </div>
      <CategoryChips
        value={filters.category}
        onChange={(category) => onFiltersChange({ ...filters, category })}
      />
      {searching ? <SearchSummary filters={filters} onChange={onFiltersChange} /> : null}
      <NewsFeedList filters={filters} onFiltersChange={onFiltersChange} userId={userId} onSignIn={onSignIn} />
    </div>
  );
}
