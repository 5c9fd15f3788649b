import { useQuery } from '@tanstack/react-query';
import { Lock, UserX } from 'lucide-react';
import { Link } from 'react-router';
import { EmptyState } from '#web/components/layout/empty-state.tsx';
import { QueryState } from '#web/components/layout/list-states.tsx';
import { PageContainer } from '#web/components/layout/page-header.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent } from '#web/components/ui/card.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { type MemberProfile, memberProfileQueryOptions } from '../api/get-member-profile.ts';
import { VisibleProfileCard } from './visible-profile.tsx';

function titleOf(username: string, profile: MemberProfile | undefined): string | undefined {
  if (!profile) return undefined;
  if (profile.status === 'not_found') return 'Member not found';
  if (profile.status === 'private') return 'Private profile';
  return profile.display_name ? `${profile.display_name} (@${profile.username})` : `@${username}`;
}

function Loading() {
  return (
    <Card aria-hidden="true">
      <CardContent className="flex flex-col items-center gap-4 pt-6 sm:flex-row sm:items-start">
        <Skeleton className="size-24 shrink-0 rounded-full" />
        <div className="grid w-full gap-2">
          <Skeleton className="h-8 w-48" />
          <Skeleton className="h-4 w-32" />
          <Skeleton className="h-4 w-40" />
          <Skeleton className="h-12 w-full" />
        </div>
      </CardContent>
    </Card>
  );
}

/**
 * Product §public-profile: a member's public page, showing only what their privacy settings allow
 * (the server decides, decision 146); a private profile says so, an unknown or suspended member is
 * "not found".
 */
export function PublicProfileView({
  username,
  viewer,
}: {
  username: string;
  /** The signed-in member's id, null for a visitor, undefined while a stored session is unconfirmed. */
  viewer: string | null | undefined;
}) {
  const query = useQuery(memberProfileQueryOptions(username, viewer));
  useDocumentTitle(titleOf(username, query.data) ?? 'Member profile');
  const profile = query.data;

  return (
    <PageContainer className="grid max-w-4xl gap-6 py-8">
      {profile === undefined ? (
        <>
          <h1 className="sr-only">Member profile</h1>
          <QueryState what="member profile" query={query} loading={<Loading />} />
        </>
      ) : profile.status === 'visible' ? (
        <VisibleProfileCard profile={profile} />
      ) : profile.status === 'private' ? (
        <>
          <h1 className="font-bold text-3xl tracking-tight">@{profile.username}</h1>
          <EmptyState icon={Lock} title="This profile is private">
            Only @{profile.username} can see it.
          </EmptyState>
        </>
      ) : (
        <>
          <h1 className="font-bold text-3xl tracking-tight">Member not found</h1>
          <EmptyState
            icon={UserX}
            title="No member by this name"
            actions={
              <Button asChild>
                <Link to="/">Return to Home</Link>
              </Button>
            }
          >
            <span>No member has the username @{username}.</span>
          </EmptyState>
        </>
      )}
    </PageContainer>
  );
}
