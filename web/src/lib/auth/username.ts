/**
 * A member's full name: 2 to 100 characters (product §auth-rules), in the sign-up form and in a created
 * profile.
 */
export const NAME_MIN_LENGTH = 2;
export const NAME_MAX_LENGTH = 100;

/**
 * The username derived from an email address (product §profile-creation): the local part, lowercased,
 * with every character other than a-z, 0-9 and underscore replaced by an underscore. Cut to 48
 * characters, as the server's sign-up trigger does (decision 032), so a suffix still fits the 64 the
 * database allows; an empty local part gives "user".
 */
export function deriveUsername(email: string): string {
  // Up to the first "@", as the trigger's split_part does, so both paths derive the same name.
  const at = email.indexOf('@');
  const local = at === -1 ? email : email.slice(0, at);
  const username = local
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, '_')
    .slice(0, 48);
  return username === '' ? 'user' : username;
}

/** A variant for a username that is taken: "_" and six hex characters. */
export function usernameWithSuffix(username: string, random: () => number = Math.random): string {
  const suffix = Math.floor(random() * 0x1000000)
    .toString(16)
    .padStart(6, '0');
  return `${username}_${suffix}`;
}
