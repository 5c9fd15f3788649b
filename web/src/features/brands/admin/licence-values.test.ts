import { describe, expect, it } from 'vitest';
import type { BrandLicence } from '../types.ts';
import { licenceInputOf, licenceProblem, licenceValuesOf } from './licence-values.ts';

const SAVED: BrandLicence = {
  id: 'l1',
  number: 'OR-1',
  state: 'OR',
  type: 'Producer',
  expires_on: '2028-06-30',
  verification: 'verified',
  shown_verification: 'verified',
  verified_at: '2026-11-03T12:00:00Z',
  verification_note: 'Active on the OLCC search.',
  is_primary: false,
};

describe('the licence form', () => {
  it('writes a saved licence back as it was', () => {
    const { id: _id, shown_verification: _shown, ...row } = SAVED;
    expect(licenceInputOf(licenceValuesOf(SAVED), false, '2026-12-01')).toEqual(row);
  });

  it('adds a licence with empty optional fields as nulls, never as primary', () => {
    const values = { ...licenceValuesOf(null), number: ' WA-7 ', state: 'WA' };
    expect(licenceProblem(values)).toBeNull();
    expect(licenceInputOf(values, false, '2026-12-01')).toEqual({
      number: 'WA-7',
      state: 'WA',
      type: null,
      expires_on: null,
      verification: 'unverified',
      verified_at: null,
      verification_note: null,
      is_primary: false,
    });
  });

  it('asks for a number and a state, and for evidence of a verified licence', () => {
    expect(licenceProblem({ ...licenceValuesOf(null), number: '  ', state: 'WA' })).toBe(
      'A licence needs its number and issuing state.',
    );
    expect(licenceProblem({ ...licenceValuesOf(null), number: 'WA-7' })).toBe(
      'A licence needs its number and issuing state.',
    );
    expect(licenceProblem({ ...licenceValuesOf(SAVED), verification_note: 'ok' })).toBe(
      'A verified licence needs the verification date and an evidence note.',
    );
  });

  it('dates a new check today when no date is given', () => {
    const values = { ...licenceValuesOf(null), number: 'WA-7', state: 'WA', verification: 'verified' };
    expect(licenceInputOf(values, true, '2026-12-01')).toMatchObject({
      verified_at: '2026-12-01T12:00:00Z',
      is_primary: true,
    });
  });
});
