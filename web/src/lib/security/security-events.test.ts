import { afterEach, describe, expect, it } from 'vitest';
import { addSecurityContext, buildSecurityEventArgs, loggableUrl } from './security-events.ts';

const context = {
  userAgent: 'Mozilla/5.0 (test)',
  url: 'https://highgrade.example/auth?tab=signin',
  now: new Date('2026-01-02T03:04:05.000Z'),
  user: { id: '7f0c6d3e-0000-4000-8000-000000000001', email: 'alex@example.com' },
};

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

describe('buildSecurityEventArgs', () => {
  it("names the arguments as log_security_event's parameters, with product §security-events' additional data", () => {
    const args = buildSecurityEventArgs(
      {
        type: 'auth_error',
        action: 'signin',
        category: 'authentication',
        description: 'Invalid login credentials',
        riskLevel: 'medium',
      },
      context,
    );
    expect(args).toEqual({
      type: 'auth_error',
      action: 'signin',
      category: 'authentication',
      description: 'Invalid login credentials',
      risk_level: 'medium',
      additional_data: {
        user_agent: 'Mozilla/5.0 (test)',
        url: 'https://highgrade.example/auth?tab=signin',
        timestamp: '2026-01-02T03:04:05.000Z',
        user_id: '7f0c6d3e-0000-4000-8000-000000000001',
        user_email: 'alex@example.com',
      },
    });
  });

  it('defaults the category and risk level, and records a visitor as nobody', () => {
    const args = buildSecurityEventArgs({ type: 't', action: 'a' }, { ...context, user: null });
    expect(args.category).toBe('general');
    expect(args.risk_level).toBe('low');
    expect(args.description).toBeNull();
    expect(args.additional_data).toMatchObject({ user_id: null, user_email: null });
  });

  it('never logs the tokens an auth redirect leaves in the fragment', () => {
    const args = buildSecurityEventArgs(
      { type: 't', action: 'a' },
      { ...context, url: 'https://h.example/#access_token=secret&refresh_token=secret2&type=recovery' },
    );
    expect(JSON.stringify(args)).not.toContain('secret');
    expect(args.additional_data.url).toBe('https://h.example/');
  });

  it('keeps texts within what the procedure accepts', () => {
    const args = buildSecurityEventArgs(
      { type: 'x'.repeat(500), action: 'a', description: 'd'.repeat(5000) },
      { ...context, userAgent: 'u'.repeat(5000) },
    );
    expect(args.type).toHaveLength(100);
    expect(args.description).toHaveLength(2000);
    expect(String(args.additional_data.user_agent)).toHaveLength(512);
    expect(JSON.stringify(args.additional_data).length).toBeLessThan(8192);
  });

  it('takes facts from registered providers (e.g. the CSRF-token prefix) and event data last', () => {
    cleanups.push(addSecurityContext(() => ({ csrf_token_prefix: 'abcd1234' })));
    cleanups.push(
      addSecurityContext(() => {
        throw new Error('broken provider');
      }),
    );
    const args = buildSecurityEventArgs({ type: 't', action: 'a', data: { attempt: 3 } }, context);
    expect(args.additional_data).toMatchObject({ csrf_token_prefix: 'abcd1234', attempt: 3 });
  });

  it('stops using a provider once removed', () => {
    const remove = addSecurityContext(() => ({ extra: 1 }));
    remove();
    expect(buildSecurityEventArgs({ type: 't', action: 'a' }, context).additional_data).not.toHaveProperty(
      'extra',
    );
  });
});

describe('loggableUrl', () => {
  it('survives garbage', () => {
    expect(loggableUrl('not a url')).toBe('');
  });
});
