import { useQuery } from '@tanstack/react-query';
import { UserX } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { EmptyState } from '#web/components/layout/empty-state.tsx';
import { Pager, QueryState } from '#web/components/layout/list-states.tsx';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { NativeSelect } from '#web/components/ui/native-select.tsx';
import { membersQueryOptions } from '../api/get-members.ts';
import {
  MEMBER_SEARCH_MAX,
  MEMBER_SORTS,
  MEMBERS_PAGE_SIZE,
  type MemberFilters,
  type MemberSort,
  memberAccess,
  memberFiltersSearch,
  memberName,
  parseMemberFilters,
} from '../members.ts';

const joined = (iso: string) =>
  new Date(iso).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' });

/** The member list: search, filters, sorting and page in the URL, so views can be shared and reloaded. */
export function MembersList() {
  const [params, setParams] = useSearchParams();
  const filters = parseMemberFilters(params);
  const [search, setSearch] = useState(filters.q);
  const list = useQuery(membersQueryOptions(filters));
  const change = (patch: Partial<MemberFilters>) => {
    setParams(new URLSearchParams(memberFiltersSearch({ ...filters, page: 1, ...patch })));
  };
  const submitSearch = (event: FormEvent) => {
    event.preventDefault();
    change({ q: search.trim() });
  };
  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / MEMBERS_PAGE_SIZE));
  const filtered = filters.q !== '' || filters.role !== null || filters.status !== null;

  return (
    <div className="grid gap-5">
      <div className="grid gap-3 rounded-xl border p-4">
        <search>
          <form onSubmit={submitSearch} className="flex flex-col gap-2 sm:flex-row sm:items-end">
            <div className="grid flex-1 gap-1.5">
              <Label htmlFor="members-search">Search members</Label>
              <Input
                id="members-search"
                type="search"
                placeholder="Email, username or name"
                value={search}
                maxLength={MEMBER_SEARCH_MAX}
                onChange={(event) => setSearch(event.target.value)}
              />
            </div>
            <Button type="submit">Search</Button>
          </form>
        </search>
        <fieldset className="grid gap-3 sm:grid-cols-3">
          <legend className="sr-only">Filter and sort</legend>
          <div className="grid gap-1.5">
            <Label htmlFor="members-role">Role</Label>
            <NativeSelect
              id="members-role"
              value={filters.role ?? ''}
              onChange={(event) => change({ role: event.target.value === 'admin' ? 'admin' : null })}
            >
              <option value="">Everyone</option>
              <option value="admin">Admins</option>
            </NativeSelect>
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="members-status">Account</Label>
            <NativeSelect
              id="members-status"
              value={filters.status ?? ''}
              onChange={(event) =>
                change({ status: (event.target.value || null) as MemberFilters['status'] })
              }
            >
              <option value="">Any</option>
              <option value="active">Active</option>
              <option value="suspended">Suspended</option>
            </NativeSelect>
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="members-sort">Sort by</Label>
            <NativeSelect
              id="members-sort"
              value={filters.sort}
              onChange={(event) => change({ sort: event.target.value as MemberSort })}
            >
              {Object.entries(MEMBER_SORTS).map(([key, sort]) => (
                <option key={key} value={key}>
                  {sort.label}
                </option>
              ))}
            </NativeSelect>
          </div>
        </fieldset>
      </div>

      {list.isPending || list.isError ? (
        <QueryState what="members" query={list} />
      ) : list.data.rows.length === 0 ? (
        <EmptyState icon={UserX} title={filtered ? 'No members match' : 'No members yet'}>
          {filtered
            ? 'Check the spelling, search for part of an email or name, or clear the filters.'
            : 'Members appear here when they create an account.'}
        </EmptyState>
      ) : (
        <>
          <div className="overflow-x-auto rounded-xl border">
            <table className="w-full min-w-[44rem] text-left text-sm">
              <caption className="sr-only">
                Members, {MEMBER_SORTS[filters.sort].label.toLowerCase()}, page {filters.page} of {pages}
              </caption>
              <thead className="bg-muted/50 text-muted-foreground">
                <tr>
                  <th scope="col" className="px-4 py-3 font-medium">
                    Member
                  </th>
                  <th scope="col" className="px-4 py-3 font-medium">
                    Role and account
                  </th>
                  <th scope="col" className="px-4 py-3 font-medium">
                    Scammer Network
                  </th>
                  <th scope="col" className="px-4 py-3 font-medium">
                    Reports / bookings
                  </th>
                  <th scope="col" className="px-4 py-3 font-medium">
                    Joined
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.data.rows.map((member) => (
                  <tr key={member.id} className="border-t">
                    <td className="px-4 py-3">
                      <Link
                        to={`${member.id}${memberFiltersSearch(filters)}`}
                        className="font-medium text-primary underline-offset-4 hover:underline"
                      >
                        {memberName(member)}
                      </Link>
                      <div className="text-muted-foreground text-xs">{member.email}</div>
                    </td>
                    <td className="px-4 py-3">
                      <div className="flex flex-wrap gap-1">
                        {member.isAdmin ? <Badge>Admin</Badge> : <Badge variant="outline">Member</Badge>}
                        {member.suspended ? <Badge variant="destructive">Suspended</Badge> : null}
                      </div>
                    </td>
                    <td className="px-4 py-3 text-muted-foreground">{memberAccess(member)}</td>
                    <td className="px-4 py-3 tabular-nums">
                      {member.reportCount} / {member.bookingCount}
                    </td>
                    <td className="whitespace-nowrap px-4 py-3 text-muted-foreground">
                      {joined(member.createdAt)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager
            label="members"
            summary={`${total.toLocaleString('en-US')} member${total === 1 ? '' : 's'} · page ${filters.page} of ${pages}`}
            page={filters.page}
            pages={pages}
            onPage={(page) => change({ page })}
          />
        </>
      )}
    </div>
  );
}
