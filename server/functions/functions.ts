import type { AppContext } from '../context.ts';
import { followErasedMail } from '../mail/erasure.ts';
import { createMailer } from '../mail/mailer.ts';
import { collectProductMail } from '../metrics.ts';
import type { DeletionDeps } from '../product/gdpr/account-deletion.ts';
import { type ExportDeps, setExportLimit } from '../product/gdpr/gdpr-export.ts';
import {
  pruneSecurityLogs,
  type RetentionDeps,
  runInactivityDeletion,
} from '../product/gdpr/inactive-accounts.ts';
import { queuedMailCount } from '../product/mail/db.ts';
import type { ProductMailDeps } from '../product/mail/product-mail.ts';
import { type QuoteDeps, quoteDeps } from '../product/market/quotes.ts';
import type { NewsDeps } from '../product/news/news.ts';
import {
  createPayments,
  createSubscriptions,
  type PaymentsDeps,
  type SubscriptionsDeps,
} from '../product/payments/payments.ts';
import type { PostsDeps } from '../product/posts/posts.ts';
import type { EvidenceDeps } from '../product/reports/evidence.ts';
import { BlobTrash } from '../product/trash/blob-trash.ts';
import { createVotes, type VotesDeps } from '../product/votes/votes.ts';
import { openBackend } from '../storage/backends/index.ts';
import { StorageService } from '../storage/storage.ts';
import { SignedUrls } from '../storage/tokens.ts';
import { productPlatform } from './platform.ts';

/**
 * What the functions and their routes are built from, one per server (decision 088). A new function
 * adds what it needs here, under its own key.
 */
export interface FunctionsDeps {
  export: ExportDeps;
  deletion: DeletionDeps;
  news: NewsDeps;
  productMail: ProductMailDeps;
  /** Pass or Gas's scheduled work (product/votes). */
  votes: VotesDeps;
  /** The team's posts: rendered on the server, saved as the admin who writes them. */
  posts: PostsDeps;
  /** Tells members whose cancelled subscription ends soon (once per end date). */
  subscriptions: SubscriptionsDeps;
  /** Stripe or the labelled demo mode (decisions 131–133). */
  payments: PaymentsDeps;
  /** Inactive accounts erased, security logs pruned (decisions 192, 194). */
  retention: RetentionDeps;
  /** Scammer-report evidence: cleaned of metadata, then stored as the service (decision 199). */
  evidence: EvidenceDeps;
  /** Daily closes from the optional quote provider (MARKET_QUOTES_URL; decision 143). */
  quotes: QuoteDeps & { shutdownController: AbortController };
  /** Releases what the functions opened (the blob backend). */
  close(): Promise<void>;
}

export async function createFunctions(ctx: AppContext): Promise<FunctionsDeps> {
  const backend = await openBackend(ctx.config, (message, error) => ctx.log.warn({ err: error }, message));
  // What the platform lends the product areas, bound here once (functions/platform.ts).
  const platform = productPlatform(ctx.keys.jwtSecret, backend);
  const trash = new BlobTrash(ctx.db, platform.blobs, ctx.log);
  await setExportLimit(ctx.db, ctx.config.functions.gdprExportsPerHour);
  const mailer = createMailer(ctx.config, ctx.log);
  collectProductMail(() => queuedMailCount(ctx.db));
  // Server settings the database reads: the export limit above, the vote rules here.
  const votes = await createVotes(ctx.db, ctx.config.functions.votes);
  const quotesShutdown = new AbortController();
  const deletion: DeletionDeps = {
    db: ctx.db,
    trash,
    log: ctx.log,
    auth: platform.auth,
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
    votes,
    posts: { db: ctx.db },
    subscriptions: createSubscriptions(ctx.db),
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
      pruneSecurityLogs: () => pruneSecurityLogs(ctx.db, platform.auth),
    },
    quotes: {
      ...quoteDeps(ctx.config.marketQuotes, ctx.db, ctx.log, quotesShutdown.signal),
      shutdownController: quotesShutdown,
    },
    close: async () => {
      collectProductMail(undefined);
      await stopErasures();
      await backend.close();
      await mailer.close();
    },
  };
}
