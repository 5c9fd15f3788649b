import type { Config } from '../config.ts';
import type { AppContext } from '../context.ts';
import { createMailer, MailQueue } from '../mail/mailer.ts';
import { RateLimiter } from './rate-limit.ts';
import { RedirectPolicy } from './redirects.ts';
import { SocialProvider } from './social.ts';

/** What the auth domain is built from: one per server. */
export interface AuthDeps {
  app: AppContext;
  config: Config;
  mail: MailQueue;
  redirects: RedirectPolicy;
  limits: RateLimiter;
  provider: SocialProvider | undefined;
  /** Absolute base of this service as browsers reach it, e.g. https://example.com/auth/v1. */
  apiUrl: string;
}

/** Who is asking, as far as the domain needs to know. */
export interface RequestMeta {
  ip: string;
  userAgent: string | null;
  /** Device tokens the browser holds (the sign-in throttle's known devices, decision 095). */
  deviceTokens?: readonly string[];
}

/** The auth service of one server: its mail queue, redirect allow-list, rate limiter and social provider. */
export function createAuth(ctx: AppContext): AuthDeps {
  const { config } = ctx;
  const apiUrl = `${config.apiExternalUrl ?? config.siteUrl}/auth/v1`;
  if (config.enableEmailAutoconfirm) {
    ctx.log.info(
      `ENABLE_EMAIL_AUTOCONFIRM is on: an autoconfirmed address proves nothing, so SUPPORT_EMAIL (${config.supportEmail}) becomes an admin only by following a password-reset or magic link mailed to it, or with \`npm run admin -- grant ${config.supportEmail}\`.`,
    );
  }
  return {
    app: ctx,
    config,
    mail: new MailQueue(createMailer(config, ctx.log), ctx.log),
    redirects: new RedirectPolicy(config.siteUrl, config.additionalRedirectUrls),
    limits: new RateLimiter(ctx.db, config.auth, ctx.keys.jwtSecret),
    provider: config.oauth ? new SocialProvider(config.oauth, `${apiUrl}/callback`) : undefined,
    apiUrl,
  };
}
