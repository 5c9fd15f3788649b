/** product §brand-directory: what a member writes to claim a brand, and a representative's edit of it. */

import type { ProfileInput } from './api/update-brand-profile.ts';
import { linesOf } from './brand-input.ts';
import type { Brand } from './types.ts';

export interface ClaimValues {
  roleTitle: string;
  message: string;
}

export const CLAIM_MAX_LENGTH = { roleTitle: 100, message: 2000 };

/** Why the claim cannot be sent (the database says the same), or null. */
export function claimProblem(values: ClaimValues): string | null {
  return values.roleTitle.trim().length < 2 ? 'Say your role at the brand in 2 to 100 characters.' : null;
}

/** The representative's text fields; the logo is the logo field's (an upload or an address). */
export interface ProfileValues {
  description: string;
  website: string;
  socialLinks: string;
}

export const PROFILE_MAX_LENGTH = { description: 4000 };

export const profileValuesOf = (brand: Brand): ProfileValues => ({
  description: brand.description,
  website: brand.website ?? '',
  socialLinks: brand.social_links.join('\n'),
});

const HTTPS = /^https:\/\/[^\s/?#<>"]+[^\s<>"]*$/i;
const HTTP = /^https?:\/\/[^\s/?#<>"]+[^\s<>"]*$/i;

/** What the edit saves (rpc brands_update_profile: an empty logo or website clears it). */
export const profileInputOf = (values: ProfileValues, logo: string | null): ProfileInput => ({
  description: values.description,
  logo_url: logo?.trim() ?? '',
  website: values.website.trim(),
  social_links: linesOf(values.socialLinks),
});

/**
 * Why the edit cannot be saved (the database says the same), or null. `storedLogo` tells a file this brand
 * stored (its address need not be https in development).
 */
export function profileProblem(input: ProfileInput, storedLogo: (url: string) => boolean): string | null {
  if (input.logo_url && !HTTPS.test(input.logo_url) && !storedLogo(input.logo_url))
    return 'The logo must be an https:// address of an image.';
  if (input.website && !HTTP.test(input.website))
    return 'The website must be a full http:// or https:// address.';
  if (input.social_links.length > 10 || input.social_links.some((url) => !HTTP.test(url)))
    return 'Each social link must be a full http:// or https:// address (at most 10).';
  return null;
}
