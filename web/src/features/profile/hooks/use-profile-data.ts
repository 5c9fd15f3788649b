import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { toast } from '#web/components/ui/use-toast.ts';
import { errorText } from '#web/lib/error-text.ts';
import { type Activity, activityQueryOptions } from '../api/get-activity.ts';
import { profileQueryOptions } from '../api/get-profile.ts';
import type { Profile } from '../profile-data.ts';

export interface ProfileData {
  loading: boolean;
  profile: Profile | null;
  activity: Activity;
}

const NO_ACTIVITY: Activity = { votes: [], comments: [], saved: [] };

/**
 * The member's profile and activity for the profile page (null until the session is confirmed). The
 * forms and tabs that change them update the same cached queries, so every part of the page agrees.
 */
export function useProfileData(userId: string | null): ProfileData {
  const profile = useQuery(profileQueryOptions(userId));
  const activity = useQuery(activityQueryOptions(userId));
  const error = profile.error ?? activity.error;

  useEffect(() => {
    if (error) toast({ variant: 'destructive', title: 'Error', description: errorText(error) });
  }, [error]);

  return {
    loading: profile.isPending || activity.isPending,
    profile: profile.data ?? null,
    activity: activity.data ?? NO_ACTIVITY,
  };
}
