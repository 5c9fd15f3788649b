import { useQuery } from '@tanstack/react-query';
import { AlertTriangle, CalendarCheck, type LucideIcon, Newspaper, ShieldAlert, Users } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '#web/components/ui/button.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { errorText } from '#web/lib/error-text.ts';
import { dashboardCountsQueryOptions } from '../api/get-dashboard-counts.ts';
import { type DashboardCounts, formatCount } from '../dashboard.ts';

interface Tile {
  label: string;
  value: (counts: DashboardCounts) => number;
  detail: (counts: DashboardCounts) => string;
  /** Where the tile leads: its section's URL with the filter that shows the counted rows. */
  to: string;
  section: string;
  icon: LucideIcon;
}

const TILES: readonly Tile[] = [
  {
    label: 'Reports waiting for review',
    value: (c) => c.reportsWaiting,
    detail: () => 'Submitted or under review',
    to: '/admin/reports',
    section: 'reports',
    icon: AlertTriangle,
  },
  {
    label: 'New bookings',
    value: (c) => c.bookingsNew,
    detail: () => 'Promo sessions waiting for an answer',
    to: '/admin/bookings?status=new',
    section: 'bookings',
    icon: CalendarCheck,
  },
  {
    label: 'Posts published this week',
    value: (c) => c.postsPublishedWeek,
    detail: () => 'In the last 7 days',
    to: '/admin/posts',
    section: 'posts',
    icon: Newspaper,
  },
  {
    label: 'Members',
    value: (c) => c.membersTotal,
    detail: (c) => `${formatCount(c.membersNewWeek)} new this week`,
    to: '/admin/members',
    section: 'members',
    icon: Users,
  },
  {
    label: 'Security events (24 h)',
    value: (c) => c.securityEventsDay,
    detail: (c) => `${formatCount(c.securityEventsHighDay)} high or critical`,
    to: '/admin/audit?tab=security',
    section: 'audit',
    icon: ShieldAlert,
  },
];

function TileBody({ tile, counts }: { tile: Tile; counts: DashboardCounts }) {
  const Icon = tile.icon;
  return (
    <>
      <div className="flex items-center justify-between gap-3">
        <span className="font-medium text-muted-foreground text-sm">{tile.label}</span>
        <Icon aria-hidden="true" className="size-5 text-primary" />
      </div>
      <span className="mt-3 block font-bold text-3xl tabular-nums">{formatCount(tile.value(counts))}</span>
      <span className="mt-1 block text-muted-foreground text-sm">{tile.detail(counts)}</span>
    </>
  );
}

const TILE_CLASS = 'block rounded-xl border bg-card p-5 text-card-foreground shadow-sm';

/**
 * The dashboard home (issue 15 "The shell"): live counts, each leading to its section when that
 * section exists. `sections` lists the paths the shell has registered (app/routes/admin/sections.ts).
 */
export function DashboardHome({ sections }: { sections: ReadonlySet<string> }) {
  const counts = useQuery(dashboardCountsQueryOptions());
  if (counts.isPending) {
    return (
      <div role="status" className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
        <span className="sr-only">Loading the counts…</span>
        {TILES.map((tile) => (
          <Skeleton key={tile.label} className="h-32 rounded-xl" />
        ))}
      </div>
    );
  }
  if (counts.isError) {
    return (
      <div role="alert" className="rounded-xl border border-destructive/40 p-6">
        <p className="font-medium">The counts could not be loaded.</p>
        <p className="mt-1 text-muted-foreground text-sm">{errorText(counts.error)}</p>
        <Button className="mt-4" variant="outline" onClick={() => void counts.refetch()}>
          Try Again
        </Button>
      </div>
    );
  }
  return (
    <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3" aria-label="Live counts">
      {TILES.map((tile) => (
        <li key={tile.label}>
          {sections.has(tile.section) ? (
            <Link
              to={tile.to}
              className={`${TILE_CLASS} transition-colors hover:border-primary focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring`}
            >
              <TileBody tile={tile} counts={counts.data} />
            </Link>
          ) : (
            <div className={TILE_CLASS}>
              <TileBody tile={tile} counts={counts.data} />
            </div>
          )}
        </li>
      ))}
    </ul>
  );
}
