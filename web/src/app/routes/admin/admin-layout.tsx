import { LayoutDashboard } from 'lucide-react';
import { NavLink, Outlet, useLocation } from 'react-router';
import { PageContainer } from '#web/components/layout/page-header.tsx';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { cn } from '#web/lib/utils.ts';
import { adminSections } from './sections.ts';

const linkClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    'flex shrink-0 items-center gap-2 whitespace-nowrap rounded-md px-3 py-2 font-medium text-sm transition-colors',
    'focus-visible:outline-2 focus-visible:outline-ring focus-visible:outline-offset-2',
    isActive
      ? 'bg-secondary text-foreground'
      : 'text-muted-foreground hover:bg-secondary/60 hover:text-foreground',
  );

/** The section the URL is in, for the page title. */
function currentLabel(pathname: string): string | null {
  const segment = pathname.replace(/^\/admin\/?/, '').split('/')[0] ?? '';
  if (!segment) return null;
  return adminSections.find((section) => section.path === segment)?.label ?? null;
}

/**
 * The dashboard's frame: a title, the section navigation (a column beside the content on wide
 * screens, a scrolling row above it on narrow ones; plain links, so Tab and Enter work and the
 * current one is announced with aria-current) and the section in the outlet.
 */
export function AdminLayout() {
  const { pathname } = useLocation();
  const label = currentLabel(pathname);
  useDocumentTitle(label ? `${label} · Admin Dashboard` : 'Admin Dashboard');
  return (
    <PageContainer className="py-8">
      <h1 className="flex items-center gap-3 font-bold text-2xl tracking-tight sm:text-3xl">
        <LayoutDashboard aria-hidden="true" className="size-7 shrink-0 text-primary" />
        Admin Dashboard
      </h1>
      <div className="mt-6 flex flex-col gap-6 lg:flex-row">
        <nav aria-label="Admin sections" className="lg:w-52 lg:shrink-0">
          <ul className="-mx-1 flex gap-1 overflow-x-auto px-1 pb-2 lg:flex-col lg:overflow-visible lg:pb-0">
            <li>
              <NavLink to="/admin" end className={linkClass}>
                <LayoutDashboard aria-hidden="true" className="size-4" />
                Overview
              </NavLink>
            </li>
            {adminSections.map((section) => {
              const Icon = section.icon;
              return (
                <li key={section.path}>
                  <NavLink to={`/admin/${section.path}`} className={linkClass}>
                    {Icon ? <Icon aria-hidden="true" className="size-4" /> : null}
                    {section.label}
                  </NavLink>
                </li>
              );
            })}
          </ul>
        </nav>
        <div className="min-w-0 flex-1">
          <Outlet />
        </div>
      </div>
    </PageContainer>
  );
}
