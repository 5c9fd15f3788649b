/** product §brand-directory: the shapes the directory, the trust page and the admin section read. */

import { PRODUCT_CATEGORIES, type ProductCategory } from '#web/lib/product-categories.ts';

/** A brand's categories are the product catalogue's (lib/product-categories.ts). */
export const BRAND_CATEGORIES = PRODUCT_CATEGORIES;
export type BrandCategory = ProductCategory;

export const BRAND_SORTS = ['name', 'score', 'newest'] as const;
export type BrandSort = (typeof BRAND_SORTS)[number] | 'relevance';
export const BRAND_SORT_LABELS: Record<BrandSort, string> = {
  relevance: 'Best match',
  name: 'Name',
  score: 'Community score',
  newest: 'Newest',
};

/** US states, districts and territories with their two-letter codes (the brands' `states`). */
export const US_STATES: readonly (readonly [string, string])[] = [
  ['AL', 'Alabama'],
  ['AK', 'Alaska'],
  ['AZ', 'Arizona'],
  ['AR', 'Arkansas'],
  ['CA', 'California'],
  ['CO', 'Colorado'],
  ['CT', 'Connecticut'],
  ['DE', 'Delaware'],
  ['DC', 'District of Columbia'],
  ['FL', 'Florida'],
  ['GA', 'Georgia'],
  ['HI', 'Hawaii'],
  ['ID', 'Idaho'],
  ['IL', 'Illinois'],
  ['IN', 'Indiana'],
  ['IA', 'Iowa'],
  ['KS', 'Kansas'],
  ['KY', 'Kentucky'],
  ['LA', 'Louisiana'],
  ['ME', 'Maine'],
  ['MD', 'Maryland'],
  ['MA', 'Massachusetts'],
  ['MI', 'Michigan'],
  ['MN', 'Minnesota'],
  ['MS', 'Mississippi'],
  ['MO', 'Missouri'],
  ['MT', 'Montana'],
  ['NE', 'Nebraska'],
  ['NV', 'Nevada'],
  ['NH', 'New Hampshire'],
  ['NJ', 'New Jersey'],
  ['NM', 'New Mexico'],
  ['NY', 'New York'],
  ['NC', 'North Carolina'],
  ['ND', 'North Dakota'],
  ['OH', 'Ohio'],
  ['OK', 'Oklahoma'],
  ['OR', 'Oregon'],
  ['PA', 'Pennsylvania'],
  ['PR', 'Puerto Rico'],
  ['RI', 'Rhode Island'],
  ['SC', 'South Carolina'],
  ['SD', 'South Dakota'],
  ['TN', 'Tennessee'],
  ['TX', 'Texas'],
  ['UT', 'Utah'],
  ['VT', 'Vermont'],
  ['VA', 'Virginia'],
  ['WA', 'Washington'],
  ['WV', 'West Virginia'],
  ['WI', 'Wisconsin'],
  ['WY', 'Wyoming'],
];
export const stateName = (code: string) => US_STATES.find(([c]) => c === code)?.[1] ?? code;

/**
 * A licence's verification. `recheck_due` is never stored: the database shows a verified licence whose
 * check is older than 12 months that way (decision 207), and leaves it out of "verified only".
 */
export type Verification = 'unverified' | 'verified' | 'expired' | 'recheck_due';

/** One card of the directory (a row of search_brands). */
export interface BrandListItem {
  id: string;
  name: string;
  slug: string;
  logo_url: string | null;
  states: string[];
  city: string | null;
  categories: string[];
  verification: Verification;
  /** When the licence was last checked (null when it never was). */
  verified_at: string | null;
  licence_number: string | null;
  licence_state: string | null;
  is_sample: boolean;
  created_at: string;
  products: number;
  gas: number;
  pass: number;
  gas_share: number | null;
  community_score: number;
  total: number;
}

export interface Brand {
  id: string;
  name: string;
  slug: string;
  description: string;
  logo_url: string | null;
  website: string | null;
  social_links: string[];
  states: string[];
  city: string | null;
  categories: string[];
  licence_number: string | null;
  licence_state: string | null;
  licence_type: string | null;
  licence_expires_on: string | null;
  verification: Verification;
  /**
   * The verification as shown (brands_effective_verification: due for re-check, expired), read by the
   * admin screens beside the stored one, which they edit (decision 212).
   */
  shown_verification?: Verification;
  verified_at: string | null;
  verification_note: string | null;
  archived_at: string | null;
  merged_into: string | null;
  is_sample: boolean;
  created_at: string;
  updated_at: string;
}

/** One of a brand's licences (brand_licences, decision 151); the primary one is also the brand's licence_*. */
export interface BrandLicence {
  id: string;
  number: string;
  state: string;
  type: string | null;
  expires_on: string | null;
  verification: Verification;
  /** As on Brand: the verification as shown, for the admin screens (decision 212). */
  shown_verification?: Verification;
  verified_at: string | null;
  verification_note: string | null;
  is_primary: boolean;
}

export interface BrandProduct {
  id: string;
  name: string;
  category: string;
  image_url: string | null;
  gas: number;
  pass: number;
  gas_share: number | null;
  is_sample: boolean;
  rank: number;
}

export interface BrandPageData {
  brand: Brand;
  /** Every licence, the primary first. */
  licences: BrandLicence[];
  merged_into_slug: string | null;
  tallies: {
    products: number;
    gas: number;
    pass: number;
    gas_share: number | null;
    community_score: number;
  } | null;
  products: BrandProduct[];
  /** Published reports linked to the brand: dates and ids (for replies), never their content (decision 201). */
  reports: { count: number; dates: string[]; ids: string[]; has_access: boolean; is_representative: boolean };
  is_representative: boolean;
  my_claim: {
    id: string;
    status: 'pending' | 'approved' | 'rejected' | 'revoked';
    created_at: string;
  } | null;
}

export interface BrandClaim {
  id: string;
  brand_id: string;
  user_id: string;
  role_title: string;
  message: string;
  status: 'pending' | 'approved' | 'rejected' | 'revoked';
  decision_note: string | null;
  /** When an admin decided it (read by the admins' list). */
  decided_at?: string | null;
  created_at: string;
  brands?: { name: string; slug: string } | null;
}
