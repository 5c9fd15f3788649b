import { checkedAtOf, linesOf, orNull, slugOf, statesOf } from '../brand-input.ts';
import type { Brand } from '../types.ts';
import type { BrandInput } from './api/create-brand.ts';
import { LICENCE_LIMITS } from './licence-values.ts';

/**
 * The admin's brand form's text fields, by the columns they write (a refusal names its column, decision
 * 180). Lists are typed as text: states comma-separated, social links one per line.
 */
export interface BrandValues {
  name: string;
  slug: string;
  city: string;
  states: string;
  logo_url: string;
  website: string;
  description: string;
  social_links: string;
  licence_number: string;
  licence_state: string;
  licence_type: string;
  licence_expires_on: string;
  verification: string;
  /** The check's timestamp as stored (the date field shows its day). */
  verified_at: string;
  verification_note: string;
}

export const BRAND_MAX_LENGTH = {
  name: 120,
  slug: 80,
  city: 120,
  description: 4000,
  licence_number: LICENCE_LIMITS.number,
  licence_type: LICENCE_LIMITS.type,
  verification_note: LICENCE_LIMITS.note,
};

export function brandValuesOf(brand: Brand | null): BrandValues {
  return {
    name: brand?.name ?? '',
    slug: brand?.slug ?? '',
    city: brand?.city ?? '',
    states: brand?.states.join(', ') ?? '',
    logo_url: brand?.logo_url ?? '',
    website: brand?.website ?? '',
    description: brand?.description ?? '',
    social_links: brand?.social_links.join('\n') ?? '',
    licence_number: brand?.licence_number ?? '',
    licence_state: brand?.licence_state ?? '',
    licence_type: brand?.licence_type ?? '',
    licence_expires_on: brand?.licence_expires_on ?? '',
    verification: brand?.verification ?? 'unverified',
    verified_at: brand?.verified_at ?? '',
    verification_note: brand?.verification_note ?? '',
  };
}

/** Why the brand cannot be saved as it is (the database says the same), or null. */
export function brandProblem(values: BrandValues): string | null {
  if (!values.name.trim()) return 'Name is required.';
  if (
    values.verification === 'verified' &&
    (!orNull(values.licence_number) ||
      !orNull(values.licence_state) ||
      values.verification_note.trim().length < 3)
  ) {
    return 'A verified licence needs its number, issuing state, the verification date and an evidence note.';
  }
  return null;
}

/** The row to write; an empty address is made from the name. */
export function brandInputOf(values: BrandValues, categories: string[], day: string): BrandInput {
  return {
    name: values.name.trim(),
    slug: values.slug.trim() || slugOf(values.name),
    description: values.description,
    logo_url: orNull(values.logo_url),
    website: orNull(values.website),
    social_links: linesOf(values.social_links),
    states: statesOf(values.states),
    city: orNull(values.city),
    categories,
    licence_number: orNull(values.licence_number),
    licence_state: orNull(values.licence_state),
    licence_type: orNull(values.licence_type),
    licence_expires_on: orNull(values.licence_expires_on),
    verification: values.verification as BrandInput['verification'],
    verified_at: checkedAtOf(values.verification, values.verified_at, day),
    verification_note: orNull(values.verification_note),
  };
}

/**
 * An edit sends only what changed: the licence panel below the form may have changed the primary licence
 * since the form opened, and the form's fields must not write the old values back.
 */
export function changedColumns(input: BrandInput, saved: Brand): Partial<BrandInput> {
  return Object.fromEntries(
    Object.entries(input).filter(
      ([key, value]) => JSON.stringify(value) !== JSON.stringify(saved[key as keyof BrandInput] ?? null),
    ),
  ) as Partial<BrandInput>;
}
