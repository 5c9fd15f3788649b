import { ChartLine, type LucideIcon, Newspaper, Store, ThumbsUp } from 'lucide-react';

export interface NavItem {
  to: string;
  label: string;
  icon: LucideIcon;
}

/** The section links of the top navigation (product §navigation), in their order. */
export const mainNavItems: readonly NavItem[] = [
  { to: '/news', label: 'News', icon: Newspaper },
  { to: '/market-index', label: 'Market Index', icon: ChartLine },
  { to: '/pass-or-gas', label: 'Pass or Gas', icon: ThumbsUp },
  { to: '/brand-directory', label: 'Brand Directory', icon: Store },
];

export const legalNavItems = [
  { to: '/privacy-policy', label: 'Privacy Policy' },
  { to: '/terms-of-service', label: 'Terms of Service' },
  { to: '/cookie-policy', label: 'Cookie Policy' },
  { to: '/personal-data', label: 'Personal Data' },
] as const;

/** What the navigation needs to know about a signed-in member. */
export interface NavUser {
  email: string;
  isAdmin: boolean;
}

/** "alex" for "alex@example.com": the label of the account menu. */
export function emailLocalPart(email: string): string {
  const at = email.indexOf('@');
  return at > 0 ? email.slice(0, at) : email;
}
