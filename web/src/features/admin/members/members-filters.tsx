import { Button } from '#web/components/ui/button.tsx';
import { SelectFilter } from '#web/components/ui/filter-form.tsx';
import { InputField } from '#web/components/ui/form-field.tsx';
import { sortOptions } from '#web/components/ui/paged-table.tsx';
import { useForm } from '#web/lib/use-form.ts';
import { MEMBER_SEARCH_MAX, MEMBER_SORTS, type MemberFilters, type MemberSort } from '../members.ts';

/** The member list's search (sent with Search) and its filters and sorting (applied as chosen). */
export function MembersFilters({
  filters,
  change,
}: {
  filters: MemberFilters;
  change: (patch: Partial<MemberFilters>) => void;
}) {
  const form = useForm({ q: filters.q }, { maxLength: { q: MEMBER_SEARCH_MAX } });
  return (
    <div className="grid gap-3 rounded-xl border p-4">
      <search>
        <form
          ref={form.ref}
          onSubmit={form.handleSubmit(async ({ q }) => change({ q: q.trim() }))}
          className="flex flex-col gap-2 sm:flex-row sm:items-end"
        >
          <InputField
            id="members-search"
            label="Search members"
            type="search"
            placeholder="Start of an email, username or name"
            className="flex-1"
            {...form.field('q')}
          />
          <Button type="submit">Search</Button>
        </form>
      </search>
      <fieldset className="grid gap-3 sm:grid-cols-3">
        <legend className="sr-only">Filter and sort</legend>
        <SelectFilter
          id="members-role"
          label="Role"
          value={filters.role}
          onChange={(value) => change({ role: value === 'admin' ? 'admin' : null })}
          all="Everyone"
          options={[['admin', 'Admins']]}
        />
        <SelectFilter
          id="members-status"
          label="Account"
          value={filters.status}
          onChange={(value) => change({ status: (value || null) as MemberFilters['status'] })}
          all="Any"
          options={[
            ['active', 'Active'],
            ['suspended', 'Suspended'],
          ]}
        />
        <SelectFilter
          id="members-sort"
          label="Sort by"
          value={filters.sort}
          onChange={(value) => change({ sort: value as MemberSort })}
          options={sortOptions(MEMBER_SORTS)}
        />
      </fieldset>
    </div>
  );
}
