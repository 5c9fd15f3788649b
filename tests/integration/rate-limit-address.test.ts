// @databases: both — the rate-limit procedures are SQL reading the request's headers.
/**
 * Issue 33 part 4 (decision 190): global_rate_limit_check and progressive_rate_limit_check count against
 * the address the server sees — behind TRUST_PROXY the forwarded one — whatever `ip_address` a caller
 * sends, and the spec's argument names stay accepted. A caller who names another address on every call
 * does not get a fresh counter.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, anonClient } from '#tests/support/clients.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { signedInUser } from '#tests/support/users.ts';

let server: TestServer;

beforeAll(async () => {
  // Behind a trusted proxy (TRUST_PROXY): the forwarded address is the client's.
  server = await startTestServer({ TRUST_PROXY: 'true' });
});
afterAll(() => server?.close());

const forwarded = (address: string) => ({ 'x-forwarded-for': address });

/** The spec's arguments (§rpc), naming a different address on each call. */
const globalArgs = (action: string, index: number) => ({
  action_type_param: action,
  max_attempts: 5,
  time_window_minutes: 60,
  ip_address: `198.51.100.${index + 1}`,
  max_ip_attempts: 5,
});

describe('global_rate_limit_check counts the address the server sees', () => {
  it('refuses a visitor’s 6th and 7th of 7 calls with max 5, though each names another address', async () => {
    const visitor = anonClient(server, { headers: forwarded('203.0.113.10') });
    const answers: unknown[] = [];
    for (let index = 0; index < 7; index++) {
      const { data, error } = await visitor.rpc(
        'global_rate_limit_check',
        globalArgs('address_visitor', index),
      );
      expect(error).toBeNull();
      answers.push(data);
    }
    expect(answers).toEqual([true, true, true, true, true, false, false]);

    // The counter is the forwarded address's: a visitor elsewhere still has all of its own.
    const elsewhere = anonClient(server, { headers: forwarded('203.0.113.11') });
    const other = await elsewhere.rpc('global_rate_limit_check', globalArgs('address_visitor', 0));
    expect(other).toMatchObject({ error: null, data: true });

    const { rows } = await server.db.query<{ ip: string; n: number }>(
      `select host(ip) as ip, count(*)::int as n from private.rate_limit_attempts
       where action_type = 'address_visitor' group by ip order by ip`,
    );
    expect(rows).toEqual([
      { ip: '203.0.113.10', n: 5 },
      { ip: '203.0.113.11', n: 1 },
    ]);
  });

  it('does the same for the service key: its request’s address counts, not the one it names', async () => {
    const service = adminClient(server, { headers: forwarded('203.0.113.20') });
    const answers: unknown[] = [];
    for (let index = 0; index < 7; index++) {
      answers.push((await service.rpc('global_rate_limit_check', globalArgs('address_service', index))).data);
    }
    expect(answers).toEqual([true, true, true, true, true, false, false]);
  });

  it('counts a member by account, whatever address they name', async () => {
    const member = await signedInUser(server);
    const answers: unknown[] = [];
    for (let index = 0; index < 7; index++) {
      answers.push(
        (await member.client.rpc('global_rate_limit_check', globalArgs('address_member', index))).data,
      );
    }
    expect(answers).toEqual([true, true, true, true, true, false, false]);
  });

  it('still refuses an argument that is not an address (22023)', async () => {
    const visitor = anonClient(server, { headers: forwarded('203.0.113.30') });
    const { error, status } = await visitor.rpc('global_rate_limit_check', {
      action_type_param: 'address_bad',
      ip_address: 'not an address',
    });
    expect(status).toBe(400);
    expect(error?.code).toBe('22023');
  });
});

describe('progressive_rate_limit_check counts the address the server sees', () => {
  it('refuses a visitor after 5 of 7 calls, and another forwarded address is counted apart', async () => {
    const visitor = anonClient(server, { headers: forwarded('203.0.113.40') });
    const allowed: unknown[] = [];
    for (let index = 0; index < 7; index++) {
      const { data, error } = await visitor.rpc('progressive_rate_limit_check', {
        action_type_param: 'address_progressive',
        base_max_attempts: 5,
        time_window_minutes: 60,
      });
      expect(error).toBeNull();
      allowed.push((data as { allowed: boolean }).allowed);
    }
    expect(allowed).toEqual([true, true, true, true, true, false, false]);
    const elsewhere = anonClient(server, { headers: forwarded('203.0.113.41') });
    const other = await elsewhere.rpc('progressive_rate_limit_check', {
      action_type_param: 'address_progressive',
      base_max_attempts: 5,
      time_window_minutes: 60,
    });
    expect(other.data).toMatchObject({ allowed: true, remaining_attempts: 4 });
  });
});
