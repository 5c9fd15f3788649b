import { describe, expect, it } from 'vitest';
import { auditFiltersSearch, changedFields, parseAuditFilters } from './audit.ts';

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
