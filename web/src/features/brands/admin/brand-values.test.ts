import { describe, expect, it } from 'vitest';
import type { Brand } from '../types.ts';
import { brandInputOf, brandProblem, brandValuesOf, changedColumns } from './brand-values.ts';

const SAVED: Brand = {
  id: 'b1',
  name: 'Green Thumb',
  slug: 'green-thumb',
  description: 'Growers.',
  logo_url: null,
  website: 'https://green.example',
  social_links: ['https://a.example', 'https://b.example'],
  states: ['CA', 'OR'],
  city: 'Eureka',
  categories: ['Flower'],
  licence_number: 'C11-1',
  licence_state: 'CA',
  licence_type: null,
  licence_expires_on: null,
  verification: 'verified',
  shown_verification: 'recheck_due',
  verified_at: '2025-01-03T08:15:00+00:00',
  verification_note: 'On the DCC search.',
  archived_at: null,
  merged_into: null,
  is_sample: false,
  created_at: '2025-01-01T00:00:00Z',
  updated_at: '2025-01-01T00:00:00Z',
};

describe('the admin brand form', () => {
  it('opened on a saved brand and saved untouched, changes nothing', () => {
    const input = brandInputOf(brandValuesOf(SAVED), SAVED.categories, '2026-12-01');
    expect(changedColumns(input, SAVED)).toEqual({});
  });

  it('sends only what changed, as the columns take it', () => {
    const values = {
      ...brandValuesOf(SAVED),
      city: '  ',
      states: 'ca, wa',
      social_links: ' https://c.example \n',
    };
    expect(changedColumns(brandInputOf(values, ['Flower', 'Edibles'], '2026-12-01'), SAVED)).toEqual({
      city: null,
      states: ['CA', 'WA'],
      social_links: ['https://c.example'],
      categories: ['Flower', 'Edibles'],
    });
  });

  it('makes a new brand’s address from its name and dates a fresh check today', () => {
    const values = {
      ...brandValuesOf(null),
      name: ' Blue Sky Farms ',
      verification: 'verified',
      licence_number: 'C10-9',
      licence_state: 'CA',
      verification_note: 'Active on the DCC licence search.',
    };
    expect(brandProblem(values)).toBeNull();
    const input = brandInputOf(values, [], '2026-12-01');
    expect(input).toMatchObject({
      name: 'Blue Sky Farms',
      slug: 'blue-sky-farms',
      logo_url: null,
      website: null,
      states: [],
      verified_at: '2026-12-01T12:00:00Z',
      verification_note: 'Active on the DCC licence search.',
    });
  });

  it('asks for a name, and for the licence and evidence of a verified one', () => {
    expect(brandProblem(brandValuesOf(null))).toBe('Name is required.');
    expect(brandProblem({ ...brandValuesOf(null), name: 'X', verification: 'verified' })).toBe(
      'A verified licence needs its number, issuing state, the verification date and an evidence note.',
    );
    expect(brandProblem({ ...brandValuesOf(SAVED), verification_note: ' ok ' })).toBe(
      'A verified licence needs its number, issuing state, the verification date and an evidence note.',
    );
  });

  it('forgets the check of a licence set back to unverified', () => {
    const values = { ...brandValuesOf(SAVED), verification: 'unverified' };
    expect(changedColumns(brandInputOf(values, SAVED.categories, '2026-12-01'), SAVED)).toEqual({
      verification: 'unverified',
      verified_at: null,
    });
  });
});
