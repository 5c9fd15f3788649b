import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** A random, URL-safe secret of `bytes` bytes of entropy (refresh tokens, auth codes, states). */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/**
 * A keyed hash (HMAC-SHA256 under the JWT secret) of a value that must be found again but not read
 * back: an email address in a rate-limit key or a throttle row. Without the secret, a list of likely
 * addresses cannot be matched against the stored hashes. `purpose` keeps each use's hashes apart.
 */
export function keyedHash(secret: string, purpose: string, value: string): string {
  return createHmac('sha256', secret).update(`${purpose}\u0000${value}`, 'utf8').digest('hex');
}

/**
 * GoTrue's token hash for emailed links: hex SHA-224 of the address followed by the code, so a link
 * (carrying the hash) and a typed code (hashed again here) find the same one-time token.
 */
export function emailTokenHash(email: string, otp: string): string {
  return createHash('sha224').update(`${email}${otp}`, 'utf8').digest('hex');
}

/** A numeric one-time code with a uniform distribution over all `length`-digit strings. */
export function numericOtp(length: number): string {
  let code = '';
  for (let i = 0; i < length; i += 1) code += String(randomInt(10));
  return code;
}

/** Compares two strings without revealing where they differ (hashing first equalises lengths). */
export function safeEqual(a: string, b: string): boolean {
  const left = createHash('sha256').update(a, 'utf8').digest();
  const right = createHash('sha256').update(b, 'utf8').digest();
  return timingSafeEqual(left, right) && a.length === b.length;
}

/** RFC 7636: BASE64URL(SHA256(verifier)). */
export function s256Challenge(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}
