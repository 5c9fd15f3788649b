/**
 * Scammer Network access and the trial countdown (product §access). Pure: every
 * function takes the time it reasons about, so the rules are tested without clocks.
 */

/** $9.99 per month (product §access). */
export const SUBSCRIPTION_PRICE = '$9.99/month';

/** Status refresh: every 30 s, every 1 s while under 5 minutes of trial remain (product §access). */
export const CHECK_INTERVAL_MS = 30_000;
export const FAST_CHECK_INTERVAL_MS = 1_000;
export const FAST_CHECK_BELOW_MS = 5 * 60_000;
/** The trial badge turns destructive under 2 hours (product §access "warning under 2 hours"). */
export const TRIAL_WARNING_BELOW_MS = 2 * 60 * 60_000;

/** Shown wherever the demo mode's direct activation shows (decision 131). */
export const DEMO_MODE_LABEL = 'Demo mode — no payment is taken';

export interface Subscription {
  subscriptionType: string;
  /** cancelled = will not renew: access continues until expiresAt (cancel at period end). */
  status: 'active' | 'cancelled';
  /** Epoch milliseconds: the end of the paid period (or of the grace period after a failed payment). */
  expiresAt: number;
  createdAt: number;
  /** demo: activated without payment; stripe: paid by card; admin: granted by an admin. */
  provider: 'demo' | 'stripe' | 'admin';
  /** Epoch milliseconds of a failed renewal payment not yet settled, else null. */
  paymentFailedAt: number | null;
}

/** What the server holds about the member's access. */
export interface AccessFacts {
  /** profiles.trial_ends_at, epoch milliseconds; null without a profile. */
  trialEndsAt: number | null;
  subscription: Subscription | null;
}

export interface AccessStatus {
  hasAccess: boolean;
  trialActive: boolean;
  /** Milliseconds of trial left (0 once it ended). */
  trialRemainingMs: number;
  subscriptionActive: boolean;
}

/**
 * §access: a subscription counts until its expiry — active, or cancelled and still in the period paid
 * for (cancelling keeps access until the period ends, as the Terms say; decision 132).
 */
export function isSubscriptionActive(subscription: Subscription | null, now: number): boolean {
  return subscription !== null && subscription.expiresAt > now;
}

/** §access: access with an active subscription or an active trial; admins always have access. */
export function accessStatus(facts: AccessFacts | null, isAdmin: boolean, now: number): AccessStatus {
  const trialRemainingMs = facts?.trialEndsAt != null ? Math.max(0, facts.trialEndsAt - now) : 0;
  const trialActive = trialRemainingMs > 0;
  const subscriptionActive = isSubscriptionActive(facts?.subscription ?? null, now);
  return {
    hasAccess: isAdmin || trialActive || subscriptionActive,
    trialActive,
    trialRemainingMs,
    subscriptionActive,
  };
}

/** When to look at the status again: 1 s while an active trial has under 5 minutes left, else 30 s. */
export function nextCheckDelay(status: AccessStatus): number {
  return status.trialActive && status.trialRemainingMs < FAST_CHECK_BELOW_MS
    ? FAST_CHECK_INTERVAL_MS
    : CHECK_INTERVAL_MS;
}

/** "5h 3m 9s" (hours, minutes and seconds; whole seconds rounded down), or Trial Expired. */
export function formatCountdown(remainingMs: number): string {
  if (remainingMs <= 0) return 'Trial Expired';
  const totalSeconds = Math.floor(remainingMs / 1000);
  if (totalSeconds === 0) return '0h 0m 0s';
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  return `${hours}h ${minutes}m ${seconds}s`;
}

/** The badge style of the countdown: destructive under 2 hours. */
export function trialBadgeVariant(remainingMs: number): 'destructive' | 'secondary' {
  return remainingMs < TRIAL_WARNING_BELOW_MS ? 'destructive' : 'secondary';
}

export function formatDate(epochMs: number): string {
  return new Date(epochMs).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });
}

/**
 * What the demo activation toast says: what was activated, for how long, and what it cost. Here rather
 * than beside the Subscription tab, so the layout's Scammer Network button does not load the tab.
 */
export function activationDescription(subscription: Subscription): string {
  return `Scammer Network, monthly plan, until ${formatDate(subscription.expiresAt)}. ${DEMO_MODE_LABEL}: you were not charged ${SUBSCRIPTION_PRICE}.`;
}
