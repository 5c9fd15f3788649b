import { describe, expect, it } from 'vitest';
import { isAppRoute } from './app-routes.ts';

describe('isAppRoute', () => {
  it.each([
    '/',
    '/news',
    '/u/nina.grows',
    '/u/pat.js',
    '/u/a..b',
    '/u/grower-42',
    '/u/_x.',
    '/brand-directory/acme.co',
    '/pass-or-gas/3f0c.1',
    '/scammer-database/abc.def/reply',
    '/market-index/flower.eu/methodology',
    '/admin/members',
    '/admin/audit/log.csv',
  ])('%s is a page', (path) => {
    expect(isAppRoute(path)).toBe(true);
  });

  it.each([
    '/assets/index-1234.js',
    '/missing.png',
    '/index.html.br',
    '/favicon.ico',
    '/u/nina.grows/photo.png',
    '/u/',
    '//u/x.y',
    '/news/feed.xml',
    '/.well-known/security.txt',
  ])('%s is not', (path) => {
    expect(isAppRoute(path)).toBe(false);
  });
});
