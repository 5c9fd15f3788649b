import { useCallback, useEffect, useState } from 'react';
import { toast } from '../../../components/ui/use-toast.ts';
import { errorText } from '../../../lib/error-text.ts';
import { type Activity, getActivity } from '../api/get-activity.ts';
import { getProfile } from '../api/get-profile.ts';
import type { Profile } from '../profile-data.ts';

export interface ProfileData {
  loading: boolean;
  profile: Profile | null;
  activity: Activity;
  setProfile: (profile: Profile) => void;
  removeSaved: (id: string) => void;
}

const NO_ACTIVITY: Activity = { votes: [], comments: [], saved: [] };

/** The member's profile and activity for the profile page, loaded once per member. */
export function useProfileData(userId: string | null): ProfileData {
  const [loading, setLoading] = useState(true);
  const [profile, setProfile] = useState<Profile | null>(null);
  const [activity, setActivity] = useState<Activity>(NO_ACTIVITY);

  useEffect(() => {
    setProfile(null);
    setActivity(NO_ACTIVITY);
    if (!userId) return;
    let live = true;
    setLoading(true);
    Promise.all([getProfile(userId), getActivity(userId)])
      .then(([loadedProfile, loadedActivity]) => {
        if (!live) return;
        setProfile(loadedProfile);
        setActivity(loadedActivity);
      })
      .catch((error) => {
        if (live) toast({ variant: 'destructive', title: 'Error', description: errorText(error) });
      })
      .finally(() => {
        if (live) setLoading(false);
      });
    return () => {
      live = false;
    };
  }, [userId]);

  return {
    loading,
    profile,
    activity,
    setProfile,
    removeSaved: useCallback(
      (id: string) =>
        setActivity((current) => ({ ...current, saved: current.saved.filter((item) => item.id !== id) })),
      [],
    ),
  };
}
