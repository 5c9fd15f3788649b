import { useQuery } from '@tanstack/react-query';
import { LayoutDashboard, SearchX, ShieldX } from 'lucide-react';
import { Suspense } from 'react';
import { Link, Navigate, Route, Routes } from 'react-router';
import { EmptyState } from '#web/components/layout/empty-state.tsx';
import { PageContainer } from '#web/components/layout/page-header.tsx';
import { PageSkeleton } from '#web/components/layout/page-skeleton.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { adminRoleQueryOptions } from '#web/features/admin/api/get-is-admin.ts';
import { DashboardHome } from '#web/features/admin/components/dashboard-home.tsx';
import { PaymentsModeNotice } from '#web/features/subscription/components/payments-mode-notice.tsx';
import { useAuth, useConfirmedUserId } from '#web/lib/auth/hooks/use-auth.ts';
import { errorText } from '#web/lib/error-text.ts';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { AdminLayout } from './admin/admin-layout.tsx';
import { adminSectionPaths, adminSections } from './admin/sections.ts';

function NotAuthorised({ email }: { email: string }) {
  useDocumentTitle('Not authorised');
  return (
    <PageContainer className="max-w-2xl py-16">
      <EmptyState
        icon={ShieldX}
        title="Not authorised"
        actions={
          <Button asChild variant="outline">
            <Link to="/">Back to Home</Link>
          </Button>
        }
      >
        The admin dashboard is only for HighGrade's admins, and the account {email} is not one of them. If you
        think it should be, ask an admin to grant you the role.
      </EmptyState>
    </PageContainer>
  );
}

function SectionNotFound() {
  return (
    <EmptyState icon={SearchX} title="No such section" headingLevel={2}>
      This part of the admin dashboard does not exist. Pick a section from the navigation.
    </EmptyState>
  );
}

function Home() {
  return (
    <section aria-labelledby="admin-overview">
      <h2 id="admin-overview" className="font-semibold text-xl">
        Overview
      </h2>
      <p className="mt-1 mb-5 text-muted-foreground">
        What needs attention now. The counts refresh every 30 seconds.
      </p>
      <PaymentsModeNotice />
      <DashboardHome sections={adminSectionPaths} />
    </section>
  );
}

function SectionLoading() {
  return (
    <div role="status" className="space-y-3">
      <span className="sr-only">Loading the section…</span>
      <Skeleton className="h-8 w-48" />
      <Skeleton className="h-64 w-full" />
    </div>
  );
}

/**
 * /admin and /admin/<section> (issue 15): a visitor is sent to sign in, a member without the admin role
 * sees an honest "not authorised" page, an admin gets the dashboard. This only decides what to show:
 * the server refuses every admin call from anyone but an admin, whatever the browser does.
 */
export default function AdminPage() {
  const { user } = useAuth();
  const userId = useConfirmedUserId();
  const role = useQuery(adminRoleQueryOptions(userId));

  if (!user) return <Navigate to="/auth" replace />;
  if (!userId || role.isPending) return <PageSkeleton />;
  if (role.isError) {
    return (
      <PageContainer className="max-w-2xl py-16">
        <EmptyState
          icon={LayoutDashboard}
          title="The dashboard could not be opened"
          actions={<Button onClick={() => void role.refetch()}>Try Again</Button>}
        >
          {errorText(role.error)}
        </EmptyState>
      </PageContainer>
    );
  }
  if (!role.data) return <NotAuthorised email={user.email} />;
  return (
    <Routes>
      <Route element={<AdminLayout />}>
        <Route index element={<Home />} />
        {adminSections.map((section) => (
          <Route
            key={section.path}
            path={`${section.path}/*`}
            element={
              <Suspense fallback={<SectionLoading />}>
                <section.element />
              </Suspense>
            }
          />
        ))}
        <Route path="*" element={<SectionNotFound />} />
      </Route>
    </Routes>
  );
}
