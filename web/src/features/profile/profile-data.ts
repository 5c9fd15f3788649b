/**
 * The member's profile and activity as the profile page shows them (spec §2 "Profile page", §3).
 * Pure helpers; the calls live in api/.
 */

export interface Profile {
  user_id: string;
  email: string | null;
  full_name: string | null;
  username: string | null;
  bio: string | null;
  avatar_url: string | null;
  created_at: string;
  trial_ends_at: string;
}

export interface ProductVote {
  id: string;
  product_id: string;
  vote_type: 'gas' | 'pass';
  created_at: string;
}

export interface ProductComment {
  id: string;
  product_id: string;
  content: string;
  created_at: string;
}

export interface SavedArticle {
  id: string;
  article_title: string;
  article_summary: string | null;
  article_image: string | null;
  article_source: string | null;
  article_category: string | null;
  article_url: string;
  saved_at: string;
}

/** The six tabs of the profile page, selected by ?tab= (spec §2); Settings by default. */
export const PROFILE_TABS = ['settings', 'privacy', 'saved', 'subscription', 'votes', 'comments'] as const;
export type ProfileTab = (typeof PROFILE_TABS)[number];

export function profileTabOf(value: string | null): ProfileTab {
  return (PROFILE_TABS as readonly string[]).includes(value ?? '') ? (value as ProfileTab) : 'settings';
}

/** Initials for the avatar fallback: from the display name, else the username, else ?. */
export function initialsOf(profile: Pick<Profile, 'full_name' | 'username'> | null): string {
  const name = profile?.full_name?.trim() || profile?.username?.trim() || '';
  const words = name.split(/[\s_.-]+/).filter(Boolean);
  if (words.length === 0) return '?';
  const first = words[0] ?? '';
  const last = words.length > 1 ? (words[words.length - 1] ?? '') : '';
  return `${first.slice(0, 1)}${last.slice(0, 1)}`.toUpperCase();
}

/** Spec §5 "Profile form": an empty (or blank) username, name or bio is saved as null. */
export function profileUpdateOf(form: { username: string; fullName: string; bio: string }): {
  username: string | null;
  full_name: string | null;
  bio: string | null;
} {
  const value = (text: string) => (text.trim() === '' ? null : text.trim());
  return { username: value(form.username), full_name: value(form.fullName), bio: value(form.bio) };
}

/** "November 21, 2026" (dates on the profile page). */
export function formatDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return date.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });
}

/**
 * The object path of an avatar in the user-uploads bucket, from its public URL
 * (…/storage/v1/object/public/user-uploads/{path}), or null when the URL is not one of the member's
 * own uploads: the app never deletes a file it cannot prove is the member's (spec §4 "Avatar").
 */
export function avatarPathOf(avatarUrl: string | null, userId: string): string | null {
  if (!avatarUrl) return null;
  let url: URL;
  try {
    url = new URL(avatarUrl);
  } catch {
    return null;
  }
  const marker = '/storage/v1/object/public/user-uploads/';
  const at = url.pathname.indexOf(marker);
  if (at < 0) return null;
  let path: string;
  try {
    path = decodeURIComponent(url.pathname.slice(at + marker.length));
  } catch {
    return null;
  }
  if (!path.startsWith(`${userId}/`) || path.split('/').some((part) => part === '..' || part === ''))
    return null;
  return path;
}

/** Spec §3: avatars live at {userId}/avatar-{timestamp}.{extension}. */
export function avatarPathFor(userId: string, extension: string, now: number): string {
  return `${userId}/avatar-${now}.${extension}`;
}
