import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The process's metrics for `/metrics` (Prometheus text format, prom-client; decision 177). One
 * registry per process; what is counted as it happens lives here, what is read at scrape time is
 * registered by `collectFrom` for the running server. Labels are bounded: route templates, never URLs.
 */
export const registry = new Registry();

export const httpRequests = new Counter({
  name: 'highgrade_http_requests_total',
  help: 'HTTP requests answered, by service, route template and status',
  labelNames: ['service', 'route', 'status'] as const,
  registers: [registry],
});

export const httpDuration = new Histogram({
  name: 'highgrade_http_request_duration_seconds',
  help: 'Time from request to response, by service, route template and status',
  labelNames: ['service', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

export const admissionWait = new Histogram({
  name: 'highgrade_db_admission_wait_seconds',
  help: 'How long work waited at the database gate for a connection (only work that had to wait)',
  buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  registers: [registry],
});

export const admissionRefused = new Counter({
  name: 'highgrade_db_admission_refused_total',
  help: 'Work turned away after waiting DB_ACQUIRE_TIMEOUT_MS for a connection (503)',
  registers: [registry],
});

export const jobRuns = new Counter({
  name: 'highgrade_job_runs_total',
  help: 'Runs of scheduled jobs by this process, by job and outcome (ok, failed, skipped: leased elsewhere)',
  labelNames: ['job', 'outcome'] as const,
  registers: [registry],
});

export const mailQueued = new Gauge({
  name: 'highgrade_mail_queue_depth',
  help: 'Mails accepted and not yet delivered (SMTP or the outbox)',
  registers: [registry],
});

export const realtimeDelivery = new Histogram({
  name: 'highgrade_realtime_delivery_seconds',
  help: "Time from a change's commit to its delivery by this process (the oldest change of each batch read)",
  buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [registry],
});

/** What `/metrics` reads at scrape time from the running server (the last one started, in tests). */
interface DatabaseSource {
  activity: { inUse: number; capacity: number; waiting: number };
  restarts: number;
  listening: boolean;
}
interface RealtimeSource {
  connections: number;
  channels: number;
  topics: number;
  /** Seconds the oldest change not yet read by this process has waited (0: none). */
  lag(): Promise<number>;
}

const sources: {
  db?: DatabaseSource;
  realtime?: RealtimeSource;
  /** Mails the product's database queued and not yet sent (private.mail_queue, every process's). */
  productMail?: () => Promise<number>;
} = {};

export function collectDatabase(db: DatabaseSource): void {
  sources.db = db;
}

export function collectProductMail(queued: (() => Promise<number>) | undefined): void {
  sources.productMail = queued;
}

export function collectRealtime(realtime: RealtimeSource | undefined): void {
  sources.realtime = realtime;
}

function scraped(
  name: string,
  help: string,
  read: (s: typeof sources) => number | undefined | Promise<number | undefined>,
): void {
  new Gauge({
    name,
    help,
    registers: [registry],
    async collect() {
      const value = await read(sources);
      if (value !== undefined) this.set(value);
    },
  });
}

scraped('highgrade_db_connections_in_use', 'Database connections in use now', (s) => s.db?.activity.inUse);
scraped(
  'highgrade_db_connections',
  'Database connections this process may use (the pool)',
  (s) => s.db?.activity.capacity,
);
scraped(
  'highgrade_db_admission_waiting',
  'Work waiting for a database connection now',
  (s) => s.db?.activity.waiting,
);
scraped(
  'highgrade_pglite_worker_restarts',
  'Times the embedded database thread was replaced since start',
  (s) => s.db?.restarts,
);
scraped('highgrade_db_listener_connected', '1 when the LISTEN connection is open', (s) =>
  s.db ? (s.db.listening ? 1 : 0) : undefined,
);
scraped(
  'highgrade_realtime_connections',
  'Open realtime websocket connections',
  (s) => s.realtime?.connections,
);
scraped('highgrade_realtime_channels', 'Joined realtime channels', (s) => s.realtime?.channels);
scraped(
  'highgrade_realtime_topics',
  'Realtime topics with a channel on this process',
  (s) => s.realtime?.topics,
);
scraped(
  'highgrade_realtime_delivery_lag_seconds',
  'How long the oldest change not yet delivered by this process has waited (0: none)',
  (s) => s.realtime?.lag().catch(() => undefined),
);
scraped(
  'highgrade_product_mail_queue_depth',
  "Mails the product's database queued (bookings, account status…) and not yet sent, by every process",
  (s) => s.productMail?.().catch(() => undefined),
);
