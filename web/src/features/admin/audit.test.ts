import { describe, expect, it } from 'vitest';
import {
  AUDIT_ACTIONS,
  AUDIT_TABLES,
  actionLabel,
  actorLabel,
  auditFiltersSearch,
  changedFields,
  parseAuditFilters,
  tableLabel,
} from './audit.ts';

describe('audit filters in the URL', () => {
  it('reads known values and ignores the rest', () => {
    expect(parseAuditFilters(new URLSearchParams('table=public.bookings&action=UPDATE&page=2'))).toEqual({
      tab: 'changes',
      table: 'public.bookings',
      action: 'UPDATE',
      risk: null,
      page: 2,
    });
    expect(
      parseAuditFilters(new URLSearchParams("tab=security&risk=apocalyptic&table=x';drop&page=0")),
    ).toEqual({
      tab: 'security',
      table: null,
      action: null,
      risk: null,
      page: 1,
    });
  });

  it('writes only the filters of the open tab', () => {
    expect(
      auditFiltersSearch({ tab: 'security', table: 'public.bookings', action: null, risk: 'high', page: 1 }),
    ).toBe('?tab=security&risk=high');
  });
});

describe('changedFields', () => {
  it('lists what an update changed, leaving out the timestamp', () => {
    expect(
      changedFields({ status: 'new', updated_at: 1, n: 1 }, { status: 'confirmed', updated_at: 2, n: 1 }),
    ).toEqual(['status: "new" → "confirmed"']);
    expect(changedFields(null, { a: 1 })).toEqual([]);
  });
});

describe('the log in words (issue 34, decision 167)', () => {
  it('names tables and actions, and reads anything new as words', () => {
    expect(tableLabel('public.user_roles')).toBe('Admin role');
    expect(tableLabel('public.scammer_subscriptions')).toBe('Subscription');
    expect(tableLabel('public.market_closes')).toBe('Market closes');
    expect(actionLabel('INSERT')).toBe('Created');
    expect(actionLabel('trial.grant')).toBe('Trial given');
    expect(actionLabel('market recompute')).toBe('Market recompute');
    for (const table of AUDIT_TABLES) expect(tableLabel(table)).not.toMatch(/[._]/);
    for (const action of AUDIT_ACTIONS) expect(actionLabel(action)).not.toMatch(/^[A-Z]+$|[._]/);
  });

  it('says who acted by name and email, or that it was a deleted account or the server', () => {
    expect(actorLabel({ actorName: 'Ada Admin', actorEmail: 'ada@x.example', actorId: 'a' })).toBe(
      'Ada Admin · ada@x.example',
    );
    expect(actorLabel({ actorName: null, actorEmail: 'ada@x.example', actorId: 'a' })).toBe('ada@x.example');
    expect(actorLabel({ actorName: null, actorEmail: null, actorId: 'a' })).toBe('A deleted account');
    expect(actorLabel({ actorName: null, actorEmail: null, actorId: null })).toBe('The server');
  });
});
