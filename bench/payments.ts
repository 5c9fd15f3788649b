/**
 * Payments (issue 22): how fast the server takes Stripe's webhook deliveries — signature check, the
 * once-only insert and the ordered apply in one statement — for new subscriptions, repeated deliveries
 * (duplicates) and out-of-date ones (stale), and how long a Checkout session takes to make against the
 * local fake of Stripe (so: our side only).
 *
 *   npx tsx bench/payments.ts [pglite|postgres] [--members=300]
 *
 * `postgres` needs BENCH_PG_URL or TEST_PG_URL. Deliveries are sent 8 at a time.
 */
import {
  newSubscription,
  signedEvent,
  startStripeFake,
  subscriptionEventObject,
} from '#tests/support/stripe-fake.ts';
import { startTestServer } from '#tests/support/test-server.ts';
import { signedInUser } from '#tests/support/users.ts';

const tier = (process.argv[2] ?? 'pglite') as 'pglite' | 'postgres';
const membersArg = process.argv.find((arg) => arg.startsWith('--members='));
const MEMBERS = membersArg ? Number(membersArg.slice('--members='.length)) : 300;
const CONCURRENCY = 8;
if (tier === 'postgres') {
  process.env.TEST_DB = 'postgres';
  process.env.TEST_PG_URL ??= process.env.BENCH_PG_URL;
}

const percentile = (samples: number[], p: number) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
};

async function run<T>(items: T[], fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < items.length) {
        const item = items[next++] as T;
        await fn(item);
      }
    }),
  );
}

const fake = await startStripeFake();
const server = await startTestServer({
  ...fake.env,
  LOG_LEVEL: 'silent',
  RATE_LIMIT_SIGN_IN_SIGN_UPS: '100000',
  DB_ACQUIRE_TIMEOUT_MS: '10000',
});
try {
  const ids: string[] = [];
  const { rows } = await server.db.query<{ id: string }>(
    `insert into auth.users (id, aud, role, email, email_confirmed_at, raw_app_meta_data, raw_user_meta_data)
     select gen_random_uuid(), 'authenticated', 'authenticated', 'bench-' || g || '@payments.example', now(), '{}', '{}'
     from generate_series(1, $1) g returning id::text`,
    [MEMBERS],
  );
  for (const row of rows) ids.push(row.id);

  const deliver = async (event: { body: string; signature: string }) => {
    const started = performance.now();
    const response = await fetch(`${server.url}/functions/v1/stripe-webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': event.signature },
      body: event.body,
    });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`webhook answered ${response.status}`);
    return performance.now() - started;
  };

  const now = Math.floor(Date.now() / 1000);
  const subscriptions = ids.map((id) => newSubscription(id, now - 60));
  const created = subscriptions.map((s) =>
    signedEvent('customer.subscription.created', subscriptionEventObject(s), { created: now - 30 }),
  );
  const figures: Record<string, string | number>[] = [];
  const measure = async (name: string, events: { body: string; signature: string }[]) => {
    const times: number[] = [];
    const started = performance.now();
    await run(events, async (event) => {
      times.push(await deliver(event));
    });
    const seconds = (performance.now() - started) / 1000;
    figures.push({
      deliveries: name,
      count: events.length,
      'per second': Math.round(events.length / seconds),
      'p50 ms': percentile(times, 0.5).toFixed(1),
      'p95 ms': percentile(times, 0.95).toFixed(1),
    });
  };
  await measure('new subscription (applied)', created);
  await measure('same events again (duplicate)', created);
  const older = subscriptions.map((s) =>
    signedEvent('customer.subscription.updated', subscriptionEventObject(s), { created: now - 50 }),
  );
  await measure('older state (stale)', older);
  const { rows: outcomes } = await server.db.query<{ outcome: string; n: number }>(
    'select outcome, count(*)::int as n from private.stripe_events group by outcome order by outcome',
  );

  // Checkout sessions: our side of "Subscribe" (the fake answers at once).
  const member = await signedInUser(server);
  await server.db.query('delete from public.scammer_subscriptions where user_id = $1', [member.id]);
  const checkout: number[] = [];
  for (let i = 0; i < 50; i += 1) {
    const started = performance.now();
    const response = await fetch(`${server.url}/functions/v1/stripe-checkout`, {
      method: 'POST',
      headers: { authorization: `Bearer ${member.token}` },
    });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`checkout answered ${response.status}`);
    checkout.push(performance.now() - started);
  }
  console.log(`payments bench — ${tier}, ${MEMBERS} members, ${CONCURRENCY} deliveries at a time`);
  console.table(figures);
  console.log('stored outcomes:', outcomes.map((o) => `${o.outcome} ${o.n}`).join(', '));
  console.log(
    `stripe-checkout (against the local fake): p50 ${percentile(checkout, 0.5).toFixed(1)} ms, p95 ${percentile(checkout, 0.95).toFixed(1)} ms`,
  );
} finally {
  await server.close();
  await fake.close();
}
