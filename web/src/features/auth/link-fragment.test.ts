import { describe, expect, it } from 'vitest';
import { parseLinkFragment } from './link-fragment.ts';

describe('parseLinkFragment', () => {
  it('finds the session a confirmation link created', () => {
    expect(parseLinkFragment('#access_token=abc&expires_in=3600&refresh_token=r&type=signup')).toEqual({
      kind: 'session',
      accessToken: 'abc',
    });
  });

  it('reads the error of a refused link', () => {
    expect(
      parseLinkFragment(
        '#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired',
      ),
    ).toEqual({ kind: 'error', description: 'Email link is invalid or has expired' });
    expect(parseLinkFragment('#error_code=x')).toEqual({
      kind: 'error',
      description: 'The link is invalid or has expired.',
    });
  });

  it('is nothing without a fragment', () => {
    expect(parseLinkFragment('')).toEqual({ kind: 'none' });
    expect(parseLinkFragment('#section')).toEqual({ kind: 'none' });
  });
});

describe('parseLinkFragment with a PKCE link (decision 165)', () => {
  it('finds the code and the flow id in the query', () => {
    expect(parseLinkFragment('', '?sb_flow_id=f1&code=c0de')).toEqual({
      kind: 'code',
      code: 'c0de',
      flowId: 'f1',
    });
    expect(parseLinkFragment('', '?code=c0de')).toEqual({ kind: 'code', code: 'c0de', flowId: null });
  });

  it('reports a refused link even when a code is present', () => {
    expect(parseLinkFragment('#error_description=Expired', '?code=c0de')).toEqual({
      kind: 'error',
      description: 'Expired',
    });
  });
});
