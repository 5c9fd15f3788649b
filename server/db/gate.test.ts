import { describe, expect, it } from 'vitest';
import { type Claim, DatabaseBusyError, DatabaseClosedError, Gate } from './gate.ts';

const anon = (address: string, waitMs?: number): Claim => ({ key: `addr:${address}`, capped: true, waitMs });
const server: Claim = { key: 'server', capped: false, waitMs: undefined };

/** Acquires and records the order in which grants arrive. */
function recorder(gate: Gate) {
  const order: string[] = [];
  const releases = new Map<string, () => void>();
  const take = (label: string, claim: Claim) =>
    gate.acquire(claim).then((release) => {
      order.push(label);
      releases.set(label, release);
    });
  const release = async (label: string) => {
    releases.get(label)?.();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { order, take, release };
}

describe('Gate', () => {
  it('grants at once while connections are free, and counts them', async () => {
    const gate = new Gate(2, 2);
    const first = await gate.acquire(server);
    await gate.acquire(anon('a'));
    expect(gate.activity).toEqual({ inUse: 2, capacity: 2, waiting: 0 });
    first();
    first(); // a second call gives back nothing more
    expect(gate.activity.inUse).toBe(1);
  });

  it('serves the client served least recently first, not in order of arrival', async () => {
    const gate = new Gate(1, 1);
    const { order, take, release } = recorder(gate);
    await take('a1', anon('a'));
    const waiting = [
      take('a2', anon('a')),
      take('a3', anon('a')),
      take('b1', anon('b')),
      take('b2', anon('b')),
      take('c1', server),
    ];
    for (const label of ['a1', 'b1', 'c1', 'a2', 'b2']) await release(label);
    await Promise.all(waiting);
    expect(order).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3']);
  });

  it('does not let a client that keeps coming back starve one that waits', async () => {
    const gate = new Gate(1, 1);
    const { order, take, release } = recorder(gate);
    await take('a0', anon('a'));
    await release('a0');
    await take('r1', anon('r1'));
    const a1 = take('a1', anon('a')); // served before r1 was: next after anyone never served
    const r2 = take('r2', anon('r2')); // never served: first
    await release('r1');
    await r2;
    const again = take('r1 again', anon('r1')); // comes straight back, as a closed-loop client does
    await release('r2');
    await a1;
    await release('a1');
    await again;
    expect(order).toEqual(['a0', 'r1', 'r2', 'a1', 'r1 again']);
  });

  it('gives one client no more than its share, while others still get connections', async () => {
    const gate = new Gate(4, 1);
    const { order, take } = recorder(gate);
    await take('a1', anon('a'));
    const a2 = take('a2', anon('a'));
    await take('b1', anon('b'));
    await take('s1', server);
    await take('s2', server); // the server's own work is uncapped
    expect(order).toEqual(['a1', 'b1', 's1', 's2']);
    expect(gate.activity).toEqual({ inUse: 4, capacity: 4, waiting: 1 });
    void a2;
  });

  it('refuses a request that waited its limit with its own busy error (http/errors.ts answers it 503)', async () => {
    const gate = new Gate(1, 1);
    await gate.acquire(anon('a'));
    const error = await gate.acquire(anon('b', 20)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DatabaseBusyError);
    expect((error as DatabaseBusyError).waitedMs).toBeGreaterThanOrEqual(15);
    expect(gate.activity.waiting).toBe(0);
  });

  it('fails waiting work when closed, and resolves drained once everything is given back', async () => {
    const gate = new Gate(1, 1);
    const release = await gate.acquire(server);
    const waiting = gate.acquire(server);
    gate.close();
    await expect(waiting).rejects.toBeInstanceOf(DatabaseClosedError);
    await expect(gate.acquire(server)).rejects.toBeInstanceOf(DatabaseClosedError);
    const drained = gate.drained(60_000);
    release();
    await drained;
    expect(gate.activity.inUse).toBe(0);
  });
});
