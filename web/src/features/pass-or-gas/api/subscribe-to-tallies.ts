import type { RealtimeChannel } from '@supabase/supabase-js';
import { loadSupabase } from '#web/lib/supabase.ts';
import { idle } from '#web/lib/when-idle.ts';
import type { Tally } from '../types.ts';

/** The public broadcast topic the server sends changed tallies on, once a second (decision 156). */
export const TALLIES_TOPIC = 'product-tallies';

function parseTally(row: unknown): Tally | null {
  if (!row || typeof row !== 'object') return null;
  const r = row as Record<string, unknown>;
  if (typeof r.product_id !== 'string') return null;
  const num = (value: unknown) => (typeof value === 'number' ? value : Number(value ?? 0));
  return {
    product_id: r.product_id,
    gas: num(r.gas),
    pass: num(r.pass),
    pending: num(r.pending),
    held: num(r.held),
    trend: num(r.trend),
  };
}

type Listener = { productId: string | null; onTally: (tally: Tally) => void };

/**
 * One channel per page however many parts of it follow tallies (realtime-js keeps one channel per
 * topic). It stays open a few seconds after its last listener leaves, so moving from the list to a
 * product page keeps it; a new channel waits until the previous one is closed.
 */
const listeners = new Set<Listener>();
const LINGER_MS = 5000;
let channel: Promise<RealtimeChannel> | undefined;
let closing: Promise<unknown> = Promise.resolve();
let lingering: ReturnType<typeof setTimeout> | undefined;

function deliver(payload: unknown): void {
  const tallies = (payload as { tallies?: unknown } | null)?.tallies;
  if (!Array.isArray(tallies)) return;
  for (const row of tallies) {
    const tally = parseTally(row);
    if (!tally) continue;
    for (const listener of listeners) {
      if (listener.productId === null || listener.productId === tally.product_id) listener.onTally(tally);
    }
  }
}

function close(): void {
  lingering = undefined;
  const open = channel;
  channel = undefined;
  if (open)
    closing = Promise.all([loadSupabase(), open]).then(([supabase, ch]) => supabase.removeChannel(ch));
  closing = closing.catch(() => {});
}

/**
 * Live tallies (product §pass-or-gas): the server broadcasts the tallies that changed in the last
 * second on a public topic; `onTally` gets those of `productId`, or all of them. Until `signal` aborts.
 */
export async function subscribeToTallies(
  productId: string | null,
  onTally: (tally: Tally) => void,
  signal: AbortSignal,
): Promise<void> {
  if (signal.aborted) return;
  const listener: Listener = { productId, onTally };
  listeners.add(listener);
  clearTimeout(lingering);
  lingering = undefined;
  channel ??= closing.then(async () => {
    // Realtime comes with supabase-js, which the page's first render and data do not need: the channel
    // opens once the browser is idle (decision 158). Tallies change at most once a second, and a list
    // read before the channel opens shows the tallies of its read.
    await idle();
    const supabase = await loadSupabase();
    return supabase
      .channel(TALLIES_TOPIC)
      .on('broadcast', { event: 'tallies' }, (message) => deliver(message.payload))
      .subscribe();
  });
  signal.addEventListener(
    'abort',
    () => {
      listeners.delete(listener);
      if (listeners.size === 0 && channel) lingering = setTimeout(close, LINGER_MS);
    },
    { once: true },
  );
  await channel;
}
