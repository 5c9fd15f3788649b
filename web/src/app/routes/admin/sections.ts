import {
  CalendarCheck,
  ChartLine,
  FileText,
  FileWarning,
  type LucideIcon,
  Newspaper,
  Package,
  ScrollText,
  ShieldAlert,
  Store,
  Users,
} from 'lucide-react';
import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

/**
 * The admin dashboard's sections, in the order of its navigation: THE one list (decision 100;
 * docs/architecture.md, "What every product area shares"). Each section is a URL, `/admin/<path>` (deeper paths such as `/admin/bookings/<id>` belong to
 * the section), and its screen is a component exported by its feature, loaded only when opened:
 *
 *   { path: 'news', label: 'News', icon: Newspaper,
 *     element: lazy(() => import('#web/features/news/admin/news-section.tsx').then((m) => ({ default: m.NewsSection }))) },
 *
 * The shell (admin.tsx) guards every section (signed-in admins only), gives it the layout with the
 * section navigation, and shows the dashboard home at `/admin`. A section renders its own <h2> and
 * may use nested routes (`<Routes>` relative to `/admin/<path>/`).
 */
export interface AdminSection {
  /** The URL segment after /admin/: lower-case, no slashes. */
  path: string;
  label: string;
  icon?: LucideIcon;
  element: LazyExoticComponent<ComponentType>;
}

export const adminSections: readonly AdminSection[] = [
  {
    path: 'posts',
    label: 'Posts',
    icon: FileText,
    element: lazy(() =>
      import('#web/features/posts/admin/posts-section.tsx').then((m) => ({ default: m.PostsSection })),
    ),
  },
  {
    path: 'news',
    label: 'News',
    icon: Newspaper,
    element: lazy(() =>
      import('#web/features/news/admin/news-section.tsx').then((m) => ({ default: m.NewsSection })),
    ),
  },
  {
    path: 'market',
    label: 'Market',
    icon: ChartLine,
    element: lazy(() =>
      import('#web/features/market/admin/market-section.tsx').then((m) => ({ default: m.MarketSection })),
    ),
  },
  {
    path: 'bookings',
    label: 'Bookings',
    icon: CalendarCheck,
    element: lazy(() =>
      import('#web/features/booking/admin/bookings-section.tsx').then((m) => ({
        default: m.BookingsSection,
      })),
    ),
  },
  {
    path: 'reports',
    label: 'Reports',
    icon: FileWarning,
    element: lazy(() =>
      import('#web/features/scammer-reports/admin/reports-section.tsx').then((m) => ({
        default: m.ReportsSection,
      })),
    ),
  },
  {
    path: 'products',
    label: 'Products',
    icon: Package,
    element: lazy(() =>
      import('#web/features/pass-or-gas/admin/products-section.tsx').then((m) => ({
        default: m.ProductsSection,
      })),
    ),
  },
  {
    path: 'brands',
    label: 'Brands',
    icon: Store,
    element: lazy(() =>
      import('#web/features/brands/admin/brands-section.tsx').then((m) => ({ default: m.BrandsSection })),
    ),
  },
  {
    path: 'members',
    label: 'Members',
    icon: Users,
    element: lazy(() =>
      import('#web/features/admin/members/members-section.tsx').then((m) => ({ default: m.MembersSection })),
    ),
  },
  {
    path: 'audit',
    label: 'Audit',
    icon: ScrollText,
    element: lazy(() =>
      import('#web/features/admin/audit/audit-section.tsx').then((m) => ({ default: m.AuditSection })),
    ),
  },
  {
    path: 'moderation',
    label: 'Moderation',
    icon: ShieldAlert,
    element: lazy(() =>
      import('#web/features/pass-or-gas/admin/moderation-section.tsx').then((m) => ({
        default: m.ModerationSection,
      })),
    ),
  },
];

/** Paths of the registered sections, for the dashboard home's links. */
export const adminSectionPaths: ReadonlySet<string> = new Set(adminSections.map((section) => section.path));
