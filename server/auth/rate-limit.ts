import type { AuthConfig } from '../config.ts';
import type { Database } from '../db/driver.ts';
import { keyedHash } from './crypto.ts';
import { hitRateLimit } from './db.ts';
import { authErrors } from './errors.ts';

export type IpBucket = 'signin' | 'refresh' | 'verify' | 'otp' | 'anonymous' | 'passkey';

const IP_WINDOW_SECONDS = 300;
/** Anonymous sign-ins are counted per hour, as GoTrue's RATE_LIMIT_ANONYMOUS_USERS. */
const ANONYMOUS_WINDOW_SECONDS = 3600;
const MAIL_WINDOW_SECONDS = 3600;

/** One mail a request would send: its kind (GoTrue's mail types) and where it goes. */
export interface MailRecipient {
  kind: string;
  address: string;
}

export interface MailRequest {
  /** The client address asking. */
  ip: string;
  recipients: MailRecipient[];
  /**
   * Whether mails actually go out. Requests for addresses without an account send nothing but are
   * counted against the client and the recipient all the same, so the answers never tell which
   * addresses are registered (decision 016); only mails sent spend the instance's budget.
   */
  sends: boolean;
  /** The mails go to addresses nobody has confirmed yet (sign-up confirmations, new magic-link users). */
  unconfirmed?: boolean;
  /**
   * GoTrue's password recovery (decision 188): an address without an account is not counted per
   * address (its answer is always `{}`), and a known address over its per-address limits is skipped
   * quietly — the same `{}` — so the answers still tell no accounts apart.
   */
  perAddress?: 'refuse' | 'quiet';
}

/** The keyed hash of an address in rate-limit keys (decision 095): found again, never read back. */
export function addressKey(secret: string, address: string): string {
  return keyedHash(secret, 'mail-address', address.toLowerCase());
}

/**
 * Rate limits kept in the database (fixed windows in auth.rate_limits), so every server process in
 * front of one database counts the same requests. Limits follow GoTrue's defaults and names
 * (docs/decisions/014-auth-rate-limits.md), with the mail limits of decision 095 on top.
 */
export class RateLimiter {
  constructor(
    private readonly db: Database,
    private readonly config: AuthConfig,
    private readonly secret: string,
  ) {}

  private limitFor(bucket: IpBucket): number {
    const limits = this.config.rateLimits;
    return {
      signin: limits.signIn,
      refresh: limits.tokenRefresh,
      verify: limits.verify,
      otp: limits.otp,
      anonymous: limits.anonymousUsers,
      passkey: limits.passkey,
    }[bucket];
  }

  /** One request of this kind from this client address. */
  async perIp(bucket: IpBucket, ip: string): Promise<void> {
    const window = bucket === 'anonymous' ? ANONYMOUS_WINDOW_SECONDS : IP_WINDOW_SECONDS;
    const { count, reset_in } = await hitRateLimit(this.db, `ip:${bucket}:${ip}`, window);
    if (count > this.limitFor(bucket)) throw authErrors.overRequestRateLimit(reset_in);
  }

  /**
   * Every mail limit of one request, decided together in one transaction: at most one mail of a kind
   * per address per SMTP_MAX_FREQUENCY; per hour, RATE_LIMIT_EMAIL_PER_RECIPIENT mails to one address
   * and RATE_LIMIT_EMAIL_PER_CLIENT caused by one client address; RATE_LIMIT_EMAIL_SENT for the whole
   * instance, of which mails to unconfirmed addresses may use half, so a flood of sign-ups never
   * leaves members without their password resets. A refused request counts nowhere (the transaction
   * rolls back): pressing a button again never extends a wait.
   */
  /** Counts a request for mail; false when the mail is to be skipped quietly (`perAddress: 'quiet'`). */
  async mail(request: MailRequest): Promise<boolean> {
    const limits = this.config.rateLimits;
    const frequency = this.config.smtpMaxFrequency;
    const messages = request.recipients.length;
    if (messages === 0) return request.sends;
    const quiet = request.perAddress === 'quiet';
    // A request refused quietly (decision 188) counts nowhere, as a refusal said aloud never did: its
    // transaction is rolled back by this marker, which the caller sees as "not sent".
    const quietlyRefused = new Error('quietly refused');
    return this.db
      .transaction(async (tx) => {
        let skipped = false;
        const overAddressLimit = (error: Error) => {
          if (!quiet) throw error;
          skipped = true;
        };
        // Other mail requests count unknown addresses too, for the same answers (decision 016).
        if (request.perAddress === undefined || request.sends) {
          for (const { kind, address } of request.recipients) {
            if (frequency === 0) continue;
            const key = `mail:${kind}:${addressKey(this.secret, address)}`;
            const { count, reset_in } = await hitRateLimit(tx, key, frequency);
            if (count > 1) overAddressLimit(authErrors.mailTooFrequent(reset_in));
          }
          for (const { address } of request.recipients) {
            const key = `mail:to:${addressKey(this.secret, address)}`;
            const { count, reset_in } = await hitRateLimit(tx, key, MAIL_WINDOW_SECONDS);
            if (count > limits.emailPerRecipient)
              overAddressLimit(authErrors.overEmailSendRateLimit(reset_in));
          }
        }
        if (skipped) throw quietlyRefused;
        const client = await hitRateLimit(tx, `mail:from:${request.ip}`, MAIL_WINDOW_SECONDS, messages);
        if (client.count > limits.emailPerClient) throw authErrors.overEmailSendRateLimit(client.reset_in);
        if (!request.sends) return false;
        const all = await hitRateLimit(tx, 'mail:all', MAIL_WINDOW_SECONDS, messages);
        if (all.count > limits.emailSent) throw authErrors.overEmailSendRateLimit(all.reset_in);
        if (request.unconfirmed) {
          const share = await hitRateLimit(tx, 'mail:unconfirmed', MAIL_WINDOW_SECONDS, messages);
          if (share.count > Math.max(1, Math.floor(limits.emailSent / 2))) {
            throw authErrors.overEmailSendRateLimit(share.reset_in);
          }
        }
        return true;
      })
      .catch((error: unknown) => {
        if (error === quietlyRefused) return false;
        throw error;
      });
  }

  /** Mails an administrator sends (invitations): only the instance's budget applies. */
  async mailBudget(messages = 1): Promise<void> {
    await this.db.transaction(async (tx) => {
      const { count, reset_in } = await hitRateLimit(tx, 'mail:all', MAIL_WINDOW_SECONDS, messages);
      if (count > this.config.rateLimits.emailSent) throw authErrors.overEmailSendRateLimit(reset_in);
    });
  }
}
