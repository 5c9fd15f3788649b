import type { AppContext } from '../context.ts';
import type { Database } from '../db/driver.ts';
import { followErasedMail } from '../mail/erasure.ts';
import { createMailer } from '../mail/mailer.ts';
import { type QuoteDeps, quoteDeps } from '../market/quotes.ts';
import { openBackend } from '../storage/backends/index.ts';
import { StorageService } from '../storage/storage.ts';
import { SignedUrls } from '../storage/tokens.ts';
import type { DeletionDeps } from './account-deletion.ts';
import { BlobTrash } from './blob-trash.ts';
import {
  broadcastTallies,
  pruneStripeEvents,
  remindExpiringSubscriptions,
  setExportRule,
  setVoteSettings,
  voteHousekeeping,
} from './db.ts';
import type { EvidenceDeps } from './evidence.ts';
import { EXPORT_RATE_ACTION, type ExportDeps } from './gdpr-export.ts';
import { type InactivityRun, pruneSecurityLogs, runInactivityDeletion } from './inactive-accounts.ts';
import type { NewsDeps } from './news-feeds.ts';
import { createPayments, type PaymentsDeps } from './payments.ts';
import type { ProductMailDeps } from './product-mail.ts';

/**
 * What the functions and their routes are built from, one per server (decision 088). A new function
 * adds what it needs here, under its own key.
 */
export interface FunctionsDeps {
  export: ExportDeps;
  deletion: DeletionDeps;
  news: NewsDeps;
  productMail: ProductMailDeps;
  /**
   * Pass or Gas: housekeeping (promotes pending votes, expires ring signals), and the live broadcast
   * of changed tallies (decision 156).
   */
  votes: { housekeeping(): Promise<number>; broadcastTallies(): Promise<number> };
  /** The team's posts: rendered on the server, saved as the admin who writes them. */
  posts: { db: Database };
  /** Tells members whose cancelled subscription ends soon (once per end date). */
  subscriptions: { remind(): Promise<number>; pruneEvents(): Promise<number> };
  /** Stripe or the labelled demo mode (decisions 131–133). */
  payments: PaymentsDeps;
  /**
   * What the privacy policy promises about time: inactive accounts warned, then erased (decision 192);
   * security logs older than 12 months deleted (decision 194).
   */
  retention: {
    eraseInactive(): Promise<InactivityRun>;
    pruneSecurityLogs(): Promise<{ events: number; auth: number }>;
  };
  /** Scammer-report evidence: cleaned of metadata, then stored as the service (decision 199). */
  evidence: EvidenceDeps;
  /** Daily closes from the optional quote provider (MARKET_QUOTES_URL; decision 143). */
  quotes: QuoteDeps & { shutdownController: AbortController };
  /** Releases what the functions opened (the blob backend). */
  close(): Promise<void>;
}

export async function createFunctions(ctx: AppContext): Promise<FunctionsDeps> {
  const backend = await openBackend(ctx.config, (message, error) => ctx.log.warn({ err: error }, message));
  const trash = new BlobTrash(ctx.db, backend, ctx.log);
  // The export limit is a server setting; the rate-limit procedure reads it from its rules table.
  await setExportRule(ctx.db, EXPORT_RATE_ACTION, ctx.config.functions.gdprExportsPerHour);
  const mailer = createMailer(ctx.config, ctx.log);
  // So are the vote rules (VOTE_MIN_ACCOUNT_AGE_HOURS, VOTE_RING_DETECTION); the vote triggers read them.
  await setVoteSettings(ctx.db, ctx.config.functions.votes);
  const quotesShutdown = new AbortController();
  const deletion: DeletionDeps = {
    db: ctx.db,
    trash,
    log: ctx.log,
    secret: ctx.keys.jwtSecret,
    outboxDataDir: ctx.config.smtp.host ? undefined : ctx.config.dataDir,
  };
  const payments = createPayments(ctx.config.payments, ctx.db, ctx.log, ctx.config.siteUrl);
  // Erasures by any process reach this process's outbox (decision 173).
  const stopErasures =
    deletion.outboxDataDir === undefined
      ? async () => {}
      : await followErasedMail(ctx.db, deletion.outboxDataDir, ctx.log);
  return {
    export: {
      db: ctx.db,
      apiUrl: ctx.config.apiExternalUrl,
      exportsPerHour: ctx.config.functions.gdprExportsPerHour,
    },
    deletion,
    news: {
      db: ctx.db,
      log: ctx.log,
      refreshMinutes: ctx.config.news.refreshMinutes,
      fetch: {
        allowPrivateHosts: ctx.config.news.allowPrivateHosts,
        timeoutMs: ctx.config.news.fetchTimeoutMs,
        maxBytes: ctx.config.news.maxFeedBytes,
        maxRedirects: 5,
        userAgent: `HighGrade-NewsFetcher/1.0 (+${ctx.config.siteUrl})`,
      },
      shutdown: new AbortController(),
    },
    productMail: {
      db: ctx.db,
      mailer,
      log: ctx.log,
      siteName: ctx.config.siteName,
      siteUrl: ctx.config.siteUrl,
    },
    votes: {
      housekeeping: () => voteHousekeeping(ctx.db),
      broadcastTallies: () => broadcastTallies(ctx.db),
    },
    posts: { db: ctx.db },
    subscriptions: {
      remind: () => remindExpiringSubscriptions(ctx.db),
      pruneEvents: () => pruneStripeEvents(ctx.db),
    },
    payments,
    evidence: {
      db: ctx.db,
      storage: new StorageService(
        ctx.db,
        backend,
        ctx.config.storage,
        new SignedUrls(ctx.keys.jwtSecret),
        ctx.log,
      ),
    },
    retention: {
      eraseInactive: () => runInactivityDeletion({ db: ctx.db, deletion, payments, log: ctx.log }),
      pruneSecurityLogs: () => pruneSecurityLogs(ctx.db),
    },
    quotes: {
      ...quoteDeps(ctx.config.marketQuotes, ctx.db, ctx.log, quotesShutdown.signal),
      shutdownController: quotesShutdown,
    },
    close: async () => {
      await stopErasures();
      await backend.close();
      await mailer.close();
    },
  };
}
