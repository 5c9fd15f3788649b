/**
 * The member's profile and activity as the profile page shows them (product §profile, §data).
 * Pure helpers; the calls live in api/.
 */

import { hasHtml, hasScriptMarkup, trimmedLength } from '#web/lib/security/field-rules.ts';

/** The storage bucket members' avatars are uploaded to (product §avatar). */
export const AVATAR_BUCKET = 'user-uploads';

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

/** The product a vote or comment is about: null when it was archived (members no longer read it). */
export interface ActivityProduct {
  name: string;
}

export interface ProductVote {
  id: string;
  product_id: string;
  vote_type: 'gas' | 'pass';
  created_at: string;
  product: ActivityProduct | null;
}

export interface ProductComment {
  id: string;
  product_id: string;
  content: string;
  created_at: string;
  product: ActivityProduct | null;
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

/** The six tabs of the profile page, selected by ?tab= (product §profile); Settings by default. */
export const PROFILE_TABS = ['settings', 'privacy', 'saved', 'subscription', 'votes', 'comments'] as const;
export type ProfileTab = (typeof PROFILE_TABS)[number];

export function profileTabOf(value: string | null): ProfileTab {
  return (PROFILE_TABS as readonly string[]).includes(value ?? '') ? (value as ProfileTab) : 'settings';
}

/** The page of the product a vote or comment is about. */
export function productPath(productId: string): string {
  return `/pass-or-gas/${encodeURIComponent(productId)}`;
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

export interface ProfileFormValues {
  username: string;
  fullName: string;
  bio: string;
}

/** The database's limits (profiles_* constraints), given to the inputs as maxLength. */
export const PROFILE_MAX_LENGTH = { username: 64, fullName: 100, bio: 1000 } as const;

/** What the database accepts as a username (constraint profiles_username_format). */
export const USERNAME_FORMAT = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$/;

export const PROFILE_RULES = {
  username:
    'A username may use only letters, digits, underscores (_), dots (.) and dashes (-), starts with a letter, digit or underscore, and is at most 64 characters: no spaces or other symbols.',
  fullName: 'A display name is 2 to 100 characters, without HTML.',
  bio: 'A bio is at most 1000 characters and may not contain scripts.',
} as const;

/**
 * Each field's problem, by the rules the database enforces (product §profile-settings), so a member
 * sees the rule they broke instead of a generic failure. Blank fields are fine: they are saved as null.
 */
export function profileFormErrors(
  values: ProfileFormValues,
): Partial<Record<keyof ProfileFormValues, string>> {
  const errors: Partial<Record<keyof ProfileFormValues, string>> = {};
  const username = values.username.trim();
  if (username !== '' && !USERNAME_FORMAT.test(username)) errors.username = PROFILE_RULES.username;
  const fullName = values.fullName.trim();
  if (fullName !== '') {
    const length = trimmedLength(fullName);
    if (length < 2 || length > 100 || hasHtml(fullName) || hasScriptMarkup(fullName)) {
      errors.fullName = PROFILE_RULES.fullName;
    }
  }
  const bio = values.bio.trim();
  if (bio !== '' && (trimmedLength(bio) > 1000 || hasScriptMarkup(bio))) errors.bio = PROFILE_RULES.bio;
  return errors;
}

/**
 * The field a refused update broke, from the database's error (a check constraint of public.profiles),
 * when the browser's rules let it through (another client, a rule that changed).
 */
export function profileFieldOfError(message: string): keyof ProfileFormValues | null {
  if (/profiles_username_format/.test(message)) return 'username';
  if (/profiles_full_name_/.test(message)) return 'fullName';
  if (/profiles_bio_/.test(message)) return 'bio';
  return null;
}

/** Product §profile-settings: an empty (or blank) username, name or bio is saved as null. */
export function profileUpdateOf(form: ProfileFormValues): {
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
 * own uploads: the app never deletes a file it cannot prove is the member's (product §avatar).
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

/** Product §buckets: avatars live at {userId}/avatar-{timestamp}.{extension}. */
export function avatarPathFor(userId: string, extension: string, now: number): string {
  return `${userId}/avatar-${now}.${extension}`;
}
