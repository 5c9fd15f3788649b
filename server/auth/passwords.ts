import { availableParallelism } from 'node:os';
import type { AuthConfig } from '../config.ts';
import { onFirstUse } from '../lazy.ts';
import { randomToken } from './crypto.ts';
import { authErrors } from './errors.ts';
import { isCleanText } from './input.ts';

/**
 * Passwords are hashed with argon2id (OWASP's parameters: 19 MiB, 2 passes, 1 lane) on libuv's thread
 * pool, so hashing never blocks the event loop. Argon2 has no input limit worth the name, so the
 * maximum below is a policy: long enough for any passphrase or password manager, short enough that
 * nobody can make the server hash megabytes. Longer input is rejected, never truncated
 * (docs/decisions/013-auth-passwords.md).
 */
export const MAX_PASSWORD_LENGTH = 256;

const ARGON2_OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;
/** Loaded with the first password to hash or check, not at start-up (decision 086). */
const argon2 = onFirstUse(() => import('@node-rs/argon2'));

/**
 * At most this many hashes run at once, one core fewer than the machine has, so a burst of sign-ins
 * queues for the hasher instead of starving the event loop: every other request (token refresh,
 * GET /user, the REST API) keeps a core. Sign-ins beyond it wait their turn.
 */
export const HASHER_CONCURRENCY = Math.max(1, availableParallelism() - 1);

let running = 0;
const waiting: (() => void)[] = [];

async function withHasher<T>(work: () => Promise<T>): Promise<T> {
  // A finishing hash hands its slot straight to the next in line, so the count never overshoots.
  if (running >= HASHER_CONCURRENCY) await new Promise<void>((resolve) => waiting.push(resolve));
  else running += 1;
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  }
}

export function hashPassword(password: string): Promise<string> {
  return withHasher(async () => (await argon2()).hash(password, ARGON2_OPTIONS));
}

/**
 * Whether the password matches the stored hash. A stored value that is not an argon2 hash, or that
 * argon2 cannot read, simply does not match. Failing to load argon2 is not a mismatch: it rejects, so
 * the request fails as a server error and is logged, instead of every sign-in reading as a wrong
 * password.
 */
export async function verifyPassword(stored: string | null | undefined, password: string): Promise<boolean> {
  if (!stored?.startsWith('$argon2')) return false;
  return withHasher(async () => {
    const { verify } = await argon2();
    try {
      return await verify(stored, password);
    } catch {
      return false;
    }
  });
}

/**
 * When an account does not exist the server still spends one verification, so answer times do not
 * tell whether an address is registered.
 */
const decoy = onFirstUse(() => hashPassword(randomToken(24)));
export async function burnVerification(password: string): Promise<void> {
  await verifyPassword(await decoy(), password);
}

/** Input checks that hold before any policy: present, storable text, not over the maximum. */
export function checkPasswordInput(password: string): void {
  if (!isCleanText(password)) {
    throw authErrors.validation('Password must not contain NUL characters or unpaired surrogates');
  }
  if ([...password].length > MAX_PASSWORD_LENGTH) throw authErrors.passwordTooLong(MAX_PASSWORD_LENGTH);
}

export interface PasswordWeakness {
  message: string;
  reasons: string[];
}

/** GoTrue's strength policy: minimum length and required character sets, with its messages. */
export function passwordWeakness(password: string, config: AuthConfig): PasswordWeakness | undefined {
  const reasons: string[] = [];
  const messages: string[] = [];
  if ([...password].length < config.passwordMinLength) {
    reasons.push('length');
    messages.push(`Password should be at least ${config.passwordMinLength} characters.`);
  }
  const sets = config.passwordRequiredCharacters.filter(Boolean);
  if (sets.some((set) => ![...set].some((character) => password.includes(character)))) {
    reasons.push('characters');
    messages.push(`Password should contain at least one character of each: ${sets.join(', ')}.`);
  }
  return reasons.length > 0 ? { message: messages.join(' '), reasons } : undefined;
}

/** For setting a password: input checks, then the policy as a `weak_password` error. */
export function assertStrongPassword(password: string, config: AuthConfig): void {
  checkPasswordInput(password);
  const weakness = passwordWeakness(password, config);
  if (weakness) throw authErrors.weakPassword(weakness.message, weakness.reasons);
}
