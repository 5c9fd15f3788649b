import type { AuthConfig } from '../config.ts';
import type { Database } from '../db/driver.ts';
import { sha256Hex } from './crypto.ts';
import { hitRateLimit } from './db.ts';
import { authErrors } from './errors.ts';

export type IpBucket = 'signin' | 'refresh' | 'verify' | 'otp';

const IP_WINDOW_SECONDS = 300;
const MAIL_WINDOW_SECONDS = 3600;

/**
 * Rate limits kept in the database (fixed windows in auth.rate_limits), so every server process in
 * front of one database counts the same requests. Limits follow GoTrue's defaults and names
 * (docs/decisions/014-auth-rate-limits.md).
 */
export class RateLimiter {
  constructor(
    private readonly db: Database,
    private readonly config: AuthConfig,
  ) {}

  private limitFor(bucket: IpBucket): number {
    const limits = this.config.rateLimits;
    return { signin: limits.signIn, refresh: limits.tokenRefresh, verify: limits.verify, otp: limits.otp }[
      bucket
    ];
  }

  /** One request of this kind from this client address. */
  async perIp(bucket: IpBucket, ip: string): Promise<void> {
    const { count, reset_in } = await hitRateLimit(this.db, `ip:${bucket}:${ip}`, IP_WINDOW_SECONDS);
    if (count > this.limitFor(bucket)) throw authErrors.overRequestRateLimit(reset_in);
  }

  /**
   * At most one mail of a kind per address per SMTP_MAX_FREQUENCY. Counted whether or not an account
   * exists for the address, so the answer never tells which addresses are registered.
   */
  async mailFrequency(kind: string, email: string): Promise<void> {
    const window = this.config.smtpMaxFrequency;
    if (window === 0) return;
    const { count, reset_in } = await hitRateLimit(this.db, `mail:${kind}:${sha256Hex(email)}`, window);
    if (count > 1) throw authErrors.mailTooFrequent(reset_in);
  }

  /** The instance's hourly mail budget (RATE_LIMIT_EMAIL_SENT). */
  async mailBudget(messages = 1): Promise<void> {
    for (let i = 0; i < messages; i += 1) {
      const { count, reset_in } = await hitRateLimit(this.db, 'mail:all', MAIL_WINDOW_SECONDS);
      if (count > this.config.rateLimits.emailSent) throw authErrors.overEmailSendRateLimit(reset_in);
    }
  }
}
