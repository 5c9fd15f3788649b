import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RELAXED_LIMITS } from '#tests/support/server-process.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { signedInUser } from '#tests/support/users.ts';

/**
 * Issue 34 item 3, decision 170: a member's public profile, /u/<username>, is the app on a reload or a
 * shared link for every username the profile form accepts, although a dot makes the last segment look
 * like a file name; a missing file is still a 404.
 */

let server: TestServer;
const suffix = Date.now().toString(36);
// Each kind of name the form (and constraint profiles_username_format) accepts.
const usernames = [
  `nina.grows${suffix}`,
  `nina.grows.${suffix}`,
  `pat${suffix}.js`,
  `grower-${suffix}`,
  `42${suffix}`,
  `_under_${suffix}`,
  `a..b-${suffix}`,
  `trail.${suffix}.`,
  `x.png.${suffix}-`,
];

beforeAll(async () => {
  server = await startTestServer(RELAXED_LIMITS);
  for (const username of usernames) {
    const member = await signedInUser(server);
    const saved = await member.client.from('profiles').update({ username }).eq('user_id', member.id);
    expect(saved.error, username).toBeNull();
  }
}, 60_000);
afterAll(() => server?.close());

describe('GET /u/<username>', () => {
  it.each(usernames)('/u/%s is the app, not a missing file', async (username) => {
    const response = await fetch(`${server.url}/u/${encodeURIComponent(username)}`, {
      headers: { accept: 'text/html' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await response.text();
    expect(html).toContain('<div id="root"');
    expect(html).toContain('id="app-config"');
  });

  it('answers HEAD for such a page too', async () => {
    // A member's page (an unknown name is a 404 with the app, decision 183).
    const response = await fetch(`${server.url}/u/${encodeURIComponent(usernames[0] as string)}`, {
      method: 'HEAD',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
  });

  it('still answers a missing file with a JSON 404, below a profile as elsewhere', async () => {
    for (const path of ['/assets/gone-1234.js', '/nina.grows', '/u/nina.grows/avatar.png', '/favicon.ico']) {
      const response = await fetch(`${server.url}${path}`, { headers: { accept: 'text/html' } });
      expect(response.status, path).toBe(404);
      expect(await response.json()).toEqual({ error: 'not_found', message: 'Not found' });
    }
  });
});
