import type { Category, StrainType } from './ranking.ts';

/** A row of public.product_rankings (decision 115): the product and every number behind its place. */
export interface RankedProduct {
  id: string;
  name: string;
  brand_id: string | null;
  brand_name: string | null;
  brand_slug: string | null;
  category: Category;
  strain_type: StrainType;
  thc_min: number | null;
  thc_max: number | null;
  cbd_min: number | null;
  cbd_max: number | null;
  image_url: string | null;
  description: string;
  is_sample: boolean;
  created_at: string;
  gas: number;
  pass: number;
  counted: number;
  pending: number;
  held: number;
  gas_share: number | null;
  wilson: number;
  trend_key: number;
  trending_score: number;
  last_vote_at: string | null;
}

export type VoteType = 'gas' | 'pass';
export type VoteStatus = 'counted' | 'pending' | 'held' | 'rejected';

/** The member's own vote on a product. */
export interface MyVote {
  id: string;
  product_id: string;
  vote_type: VoteType;
  status: VoteStatus;
  counts_from: string | null;
}

/** A live tally row (public.product_tallies) as realtime sends it. */
export interface Tally {
  product_id: string;
  gas: number;
  pass: number;
  pending: number;
  held: number;
  trend: number;
}

export interface ProductComment {
  id: string;
  user_id: string;
  product_id: string;
  content: string;
  created_at: string;
  edited_at: string | null;
  hidden_at: string | null;
  likes: number;
}

/** A comment author who has a public profile and shows their activity (rpc member_names, decision 146). */
export interface CommentAuthor {
  username: string;
  display_name: string | null;
}

export interface Brand {
  id: string;
  name: string;
  slug: string;
}
