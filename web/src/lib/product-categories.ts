/**
 * The one catalogue of product categories (product §booking, §pass-or-gas, §brand-directory; the same
 * list the database's checks hold): bookings, Pass or Gas products and brands use it alike (issue 38).
 */
export const PRODUCT_CATEGORIES = [
  'Flower',
  'Concentrates',
  'Edibles',
  'Vape Cartridges',
  'Topicals',
  'Accessories',
  'Seeds',
  'Other',
] as const;
export type ProductCategory = (typeof PRODUCT_CATEGORIES)[number];
