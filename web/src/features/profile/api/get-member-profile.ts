import { queryOptions, skipToken } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';
import { USERNAME_FORMAT } from '../profile-data.ts';

export interface PublicVote {
  product_id: string;
  product_name: string;
  vote_type: 'gas' | 'pass';
  created_at: string;
}

export interface PublicComment {
  id: string;
  product_id: string;
  product_name: string;
  content: string;
  created_at: string;
  edited_at: string | null;
}

/** What rpc member_profile answers (decision 146): only what the member's privacy settings allow. */
export type MemberProfile =
  | { status: 'not_found' }
  | { status: 'private'; username: string }
  | {
      status: 'visible';
      username: string;
      display_name: string | null;
      avatar_url: string | null;
      bio: string | null;
      member_since: string;
      /** Only when the member shows their email. */
      email: string | null;
      show_activity: boolean;
      is_self: boolean;
      /** The member's own visibility setting, given to them only. */
      visibility: 'public' | 'private' | 'friends' | null;
      /** The activity fields come only when the member shows their activity. */
      vote_count?: number;
      comment_count?: number;
      votes?: PublicVote[];
      comments?: PublicComment[];
    };

/** A member's public profile by username (any case); one breaking the username rule is nobody's. */
export async function getMemberProfile(username: string): Promise<MemberProfile> {
  if (!USERNAME_FORMAT.test(username)) return { status: 'not_found' };
  const supabase = await loadSupabase();
  const { data, error } = await supabase.rpc('member_profile', { p_username: username });
  if (error) throw error;
  return data as MemberProfile;
}

/**
 * Keyed by the viewer too: the member themself sees their own page even when it is private. `viewer` is
 * undefined while a stored session is not yet confirmed, so the page does not first ask as a visitor.
 */
export const memberProfileQueryOptions = (username: string, viewer: string | null | undefined) =>
  queryOptions({
    queryKey: ['profile', 'public', username.toLowerCase(), viewer ?? null],
    queryFn: viewer === undefined ? skipToken : () => getMemberProfile(username),
  });
