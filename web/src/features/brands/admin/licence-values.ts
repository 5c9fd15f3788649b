import { checkedAtOf, orNull } from '../brand-input.ts';
import type { BrandLicence } from '../types.ts';
import type { LicenceInput } from './api/add-licence.ts';

/** The limits of a licence's text columns (brand_licences; the brand's primary licence takes the same). */
export const LICENCE_LIMITS = { number: 64, type: 100, note: 2000 } as const;

/** The licence form's fields, by the columns they write (a refusal names its column, decision 180). */
export interface LicenceValues {
  number: string;
  state: string;
  type: string;
  expires_on: string;
  verification: string;
  /** The check's timestamp as stored (the date field shows its day). */
  verified_at: string;
  verification_note: string;
}

export const LICENCE_MAX_LENGTH = {
  number: LICENCE_LIMITS.number,
  type: LICENCE_LIMITS.type,
  verification_note: LICENCE_LIMITS.note,
};

export function licenceValuesOf(licence: BrandLicence | null): LicenceValues {
  return {
    number: licence?.number ?? '',
    state: licence?.state ?? '',
    type: licence?.type ?? '',
    expires_on: licence?.expires_on ?? '',
    verification: licence?.verification ?? 'unverified',
    verified_at: licence?.verified_at ?? '',
    verification_note: licence?.verification_note ?? '',
  };
}

/** Why the licence cannot be saved as it is (the database says the same, decision 151), or null. */
export function licenceProblem(values: LicenceValues): string | null {
  if (!values.number.trim() || !values.state) return 'A licence needs its number and issuing state.';
  if (values.verification === 'verified' && values.verification_note.trim().length < 3)
    return 'A verified licence needs the verification date and an evidence note.';
  return null;
}

/** The row to write; a licence keeps whether it is the primary one (the panel's "Make primary" sets it). */
export function licenceInputOf(values: LicenceValues, isPrimary: boolean, day: string): LicenceInput {
  return {
    number: values.number.trim(),
    state: values.state,
    type: orNull(values.type),
    expires_on: orNull(values.expires_on),
    verification: values.verification as LicenceInput['verification'],
    verified_at: checkedAtOf(values.verification, values.verified_at, day),
    verification_note: orNull(values.verification_note),
    is_primary: isPrimary,
  };
}
