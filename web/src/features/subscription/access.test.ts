import { describe, expect, it } from 'vitest';
import {
  type AccessFacts,
  accessStatus,
  formatCountdown,
  nextCheckDelay,
  type Subscription,
  trialBadgeVariant,
} from './access.ts';

const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

function subscription(patch: Partial<Subscription> = {}): Subscription {
  return {
    subscriptionType: 'monthly',
    status: 'active',
    expiresAt: NOW + HOUR,
    createdAt: NOW - HOUR,
    provider: 'demo',
    paymentFailedAt: null,
    ...patch,
  };
}

function facts(patch: Partial<AccessFacts> = {}): AccessFacts {
  return { trialEndsAt: null, subscription: null, ...patch };
}

describe('accessStatus', () => {
  it('grants access during an active trial', () => {
    const status = accessStatus(facts({ trialEndsAt: NOW + 3 * MINUTE }), false, NOW);
    expect(status).toEqual({
      hasAccess: true,
      trialActive: true,
      trialRemainingMs: 3 * MINUTE,
      subscriptionActive: false,
    });
  });

  it('ends the trial at trial_ends_at', () => {
    expect(accessStatus(facts({ trialEndsAt: NOW }), false, NOW)).toMatchObject({
      hasAccess: false,
      trialActive: false,
      trialRemainingMs: 0,
    });
  });

  it('grants access with an unexpired subscription, cancelled ones until the period ends', () => {
    expect(accessStatus(facts({ subscription: subscription() }), false, NOW).hasAccess).toBe(true);
    expect(
      accessStatus(facts({ subscription: subscription({ expiresAt: NOW }) }), false, NOW).hasAccess,
    ).toBe(false);
    expect(
      accessStatus(facts({ subscription: subscription({ status: 'cancelled' }) }), false, NOW).hasAccess,
    ).toBe(true);
    expect(
      accessStatus(facts({ subscription: subscription({ status: 'cancelled', expiresAt: NOW }) }), false, NOW)
        .hasAccess,
    ).toBe(false);
  });

  it('always grants admins access, even before anything is known', () => {
    expect(accessStatus(null, true, NOW).hasAccess).toBe(true);
    expect(accessStatus(null, false, NOW).hasAccess).toBe(false);
  });
});

describe('nextCheckDelay', () => {
  it('checks every 30 s, and every second while under 5 minutes of trial remain', () => {
    expect(nextCheckDelay(accessStatus(facts({ trialEndsAt: NOW + HOUR }), false, NOW))).toBe(30_000);
    expect(nextCheckDelay(accessStatus(facts({ trialEndsAt: NOW + 5 * MINUTE }), false, NOW))).toBe(30_000);
    expect(nextCheckDelay(accessStatus(facts({ trialEndsAt: NOW + 5 * MINUTE - 1 }), false, NOW))).toBe(1000);
    expect(nextCheckDelay(accessStatus(facts({ trialEndsAt: NOW - 1 }), false, NOW))).toBe(30_000);
  });
});

describe('formatCountdown', () => {
  it('shows hours, minutes and seconds', () => {
    expect(formatCountdown(23 * HOUR + 59 * MINUTE + 59_999)).toBe('23h 59m 59s');
    expect(formatCountdown(3 * MINUTE)).toBe('0h 3m 0s');
    expect(formatCountdown(1500)).toBe('0h 0m 1s');
    expect(formatCountdown(999)).toBe('0h 0m 0s');
  });

  it('says Trial Expired once the time is up', () => {
    expect(formatCountdown(0)).toBe('Trial Expired');
    expect(formatCountdown(-5)).toBe('Trial Expired');
  });
});

describe('trialBadgeVariant', () => {
  it('turns destructive under 2 hours', () => {
    expect(trialBadgeVariant(2 * HOUR)).toBe('secondary');
    expect(trialBadgeVariant(2 * HOUR - 1)).toBe('destructive');
  });
});
