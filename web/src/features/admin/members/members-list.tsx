import { useQuery } from '@tanstack/react-query';
import { UserX } from 'lucide-react';
import {
  CellNote,
  type Column,
  EmptyList,
  listCaption,
  PagedTable,
  RowLink,
  useListFilters,
} from '#web/components/ui/paged-table.tsx';
import { membersQueryOptions } from '../api/get-members.ts';
import {
  type AdminMember,
  MEMBER_SORTS,
  MEMBERS_PAGE_SIZE,
  type MemberFilters,
  memberAccess,
  memberFiltersSearch,
  memberName,
  parseMemberFilters,
} from '../members.ts';
import { MemberBadges } from './member-badges.tsx';
import { MembersFilters } from './members-filters.tsx';

const joined = (iso: string) =>
  new Date(iso).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' });

/** The list's columns; a member's link keeps the list's filters for the way back. */
const columns = (filters: MemberFilters): Column<AdminMember>[] => [
  {
    header: 'Member',
    cell: (member) => (
      <>
        <RowLink to={`${member.id}${memberFiltersSearch(filters)}`}>{memberName(member)}</RowLink>
        <CellNote>{member.email}</CellNote>
      </>
    ),
  },
  {
    header: 'Role and account',
    cell: (member) => (
      <div className="flex flex-wrap gap-1">
        <MemberBadges member={member} />
      </div>
    ),
  },
  { header: 'Scammer Network', className: 'text-muted-foreground', cell: (member) => memberAccess(member) },
  {
    header: 'Reports / bookings',
    className: 'tabular-nums',
    cell: (member) => `${member.reportCount} / ${member.bookingCount}`,
  },
  {
    header: 'Joined',
    className: 'whitespace-nowrap text-muted-foreground',
    cell: (member) => joined(member.createdAt),
  },
];

/** The member list: search, filters, sorting and page in the URL, so views can be shared and reloaded. */
export function MembersList() {
  const { filters, change, paging } = useListFilters(parseMemberFilters, memberFiltersSearch);
  const list = useQuery(membersQueryOptions(filters));
  const filtered = filters.q !== '' || filters.role !== null || filters.status !== null;

  return (
    <div className="grid gap-5">
      <MembersFilters filters={filters} change={change} />
      <PagedTable
        what="members"
        query={list}
        empty={
          <EmptyList
            icon={UserX}
            filtered={filtered}
            none={['No members yet', 'Members appear here when they create an account.']}
            noMatch={[
              'No members match',
              'Check the spelling, search for part of an email or name, or clear the filters.',
            ]}
          />
        }
        caption={(pages, approximate) =>
          listCaption('Members', MEMBER_SORTS[filters.sort].label, filters.page, pages, approximate)
        }
        columns={columns(filters)}
        minWidth="min-w-[44rem]"
        paging={paging(['member', 'members'], MEMBERS_PAGE_SIZE)}
      />
    </div>
  );
}
