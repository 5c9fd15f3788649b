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
}

/** The auth service of one server: its mail queue, redirect allow-list, rate limiter and social provider. */
export function createAuth(ctx: AppContext): AuthDeps {
  const { config } = ctx;
  const apiUrl = `${config.apiExternalUrl ?? config.siteUrl}/auth/v1`;
  if (config.enableEmailAutoconfirm) {
    ctx.log.warn(
      `ENABLE_EMAIL_AUTOCONFIRM is on: anyone can sign up with any address, including SUPPORT_EMAIL (${config.supportEmail}), which is granted the admin role on sign-in. Create that account first.`,
    );
  }
  return {
    app: ctx,
    config,
    mail: new MailQueue(createMailer(config, ctx.log), ctx.log),
    redirects: new RedirectPolicy(config.siteUrl, config.additionalRedirectUrls),
    limits: new RateLimiter(ctx.db, config.auth),
    provider: config.oauth ? new SocialProvider(config.oauth, `${apiUrl}/callback`) : undefined,
    apiUrl,
  };
}
