import { describe, expect, it, vi } from 'vitest';
import { EMPTY_REPORT } from './report.ts';
import { type SubmitDependencies, submitReport } from './submit-report.ts';

const valid = {
  ...EMPTY_REPORT,
  scammerName: 'Jay Greenleaf',
  scammerDescription: 'Sells flower online that never ships.',
  incidentDetails: 'Paid upfront for two ounces; nothing ever shipped.',
  truthConfirmed: 'yes',
};

function deps(overrides: Partial<SubmitDependencies> = {}): SubmitDependencies {
  return {
    userId: 'user-1',
    csrfToken: 'a'.repeat(64),
    now: new Date(2026, 10, 21),
    clientAllows: vi.fn(() => true),
    serverAllows: vi.fn(async () => true),
    insert: vi.fn(async () => null),
    ...overrides,
  };
}

describe('submitReport', () => {
  it('saves a valid report as the signed-in user', async () => {
    const d = deps();
    expect(await submitReport(valid, d)).toEqual({ kind: 'submitted' });
    expect(d.insert).toHaveBeenCalledWith(
      expect.objectContaining({
        reporter_user_id: 'user-1',
        status: 'submitted',
        truth_confirmed_at: new Date(2026, 10, 21).toISOString(),
      }),
    );
  });

  it('needs a signed-in user, then a security token, before anything else', async () => {
    const signedOut = deps({ userId: null, csrfToken: null });
    expect(await submitReport(EMPTY_REPORT, signedOut)).toEqual({ kind: 'signed-out' });
    const noToken = deps({ csrfToken: null });
    expect(await submitReport(valid, noToken)).toEqual({ kind: 'token-missing' });
    expect(noToken.clientAllows).not.toHaveBeenCalled();
    expect(noToken.insert).not.toHaveBeenCalled();
  });

  it('reports invalid fields without using up a rate-limit attempt', async () => {
    const d = deps();
    const outcome = await submitReport({ ...valid, amountScammed: '-3' }, d);
    expect(outcome).toMatchObject({ kind: 'invalid', message: 'Please enter a valid amount.' });
    expect(d.clientAllows).not.toHaveBeenCalled();
    expect(d.serverAllows).not.toHaveBeenCalled();
  });

  it("is refused by the browser's limit, then by the server's check, then by the insert's 429", async () => {
    expect(await submitReport(valid, deps({ clientAllows: () => false }))).toEqual({
      kind: 'rate-limited',
      by: 'browser',
    });
    const server = deps({ serverAllows: async () => false });
    expect(await submitReport(valid, server)).toEqual({ kind: 'rate-limited', by: 'server' });
    expect(server.insert).not.toHaveBeenCalled();
    const error = { code: 'PT429', message: 'rate limit exceeded for insert:scammer_reports' };
    expect(await submitReport(valid, deps({ insert: async () => error }))).toEqual({
      kind: 'rate-limited',
      by: 'server',
    });
  });

  it('passes on what the database refused, and what failed outright', async () => {
    const refused = { code: '23514', message: 'violates check constraint' };
    expect(await submitReport(valid, deps({ insert: async () => refused }))).toEqual({
      kind: 'rejected',
      error: refused,
    });
    const thrown = new TypeError('Failed to fetch');
    expect(
      await submitReport(
        valid,
        deps({
          insert: async () => {
            throw thrown;
          },
        }),
      ),
    ).toEqual({ kind: 'failed', error: thrown });
  });
});
