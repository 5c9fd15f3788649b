import { loadSupabase } from '#web/lib/supabase.ts';
import type { Tally } from '../types.ts';

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

/**
 * Live tallies (product §pass-or-gas): realtime postgres_changes, UPDATE on public.product_tallies —
 * all of them, or one product's. Until `signal` aborts.
 */
export async function subscribeToTallies(
  productId: string | null,
  onTally: (tally: Tally) => void,
  signal: AbortSignal,
): Promise<void> {
  const supabase = await loadSupabase();
  if (signal.aborted) return;
  const channel = supabase
    .channel(`tallies:${productId ?? 'all'}:${Math.random().toString(36).slice(2)}`)
    .on(
      'postgres_changes',
      {
        event: 'UPDATE',
        schema: 'public',
        table: 'product_tallies',
        ...(productId ? { filter: `product_id=eq.${productId}` } : {}),
      },
      (payload) => {
        const tally = parseTally(payload.new);
        if (tally && !signal.aborted) onTally(tally);
      },
    )
    .subscribe();
  signal.addEventListener('abort', () => void supabase.removeChannel(channel), { once: true });
}
