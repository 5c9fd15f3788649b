import type { FieldErrors } from '#web/lib/use-form.ts';
import type { Category, StrainType } from '../ranking.ts';
import type { RankedProduct } from '../types.ts';

/** A row of public.products as the admin's list and form read it: the ranked row's own columns. */
export type AdminProduct = Pick<
  RankedProduct,
  | 'id'
  | 'name'
  | 'brand_id'
  | 'category'
  | 'strain_type'
  | 'thc_min'
  | 'thc_max'
  | 'cbd_min'
  | 'cbd_max'
  | 'image_url'
  | 'description'
  | 'is_sample'
  | 'created_at'
> & { archived_at: string | null };

/** What the product form writes. */
export type ProductInput = Omit<AdminProduct, 'id' | 'archived_at' | 'is_sample' | 'created_at'>;

/** The product form's fields as text; each key is its column in camelCase (useForm's fieldName). */
export interface ProductValues {
  name: string;
  brandId: string;
  category: string;
  strainType: string;
  thcMin: string;
  thcMax: string;
  cbdMin: string;
  cbdMax: string;
  description: string;
  imageUrl: string;
}

/** The database's limits (products_name_length, products_description_length). */
export const PRODUCT_MAX_LENGTH = { name: 200, description: 4000 } as const;

export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'];
const IMAGE_MAX_BYTES = 5 * 1024 * 1024;

const text = (value: number | string | null) => (value === null ? '' : String(value));
const numberOrNull = (value: string) => (value.trim() === '' ? null : Number(value));

/** The form's first values: the product's, or a new Flower with no strain type. */
export function productValues(product: AdminProduct | null): ProductValues {
  return {
    name: product?.name ?? '',
    brandId: text(product?.brand_id ?? null),
    category: product?.category ?? 'Flower',
    strainType: product?.strain_type ?? 'n/a',
    thcMin: text(product?.thc_min ?? null),
    thcMax: text(product?.thc_max ?? null),
    cbdMin: text(product?.cbd_min ?? null),
    cbdMax: text(product?.cbd_max ?? null),
    description: product?.description ?? '',
    imageUrl: text(product?.image_url ?? null),
  };
}

/** The row to write: the name trimmed, an empty brand, percentage or image as null. */
export function productInput(values: ProductValues): ProductInput {
  return {
    name: values.name.trim(),
    brand_id: values.brandId || null,
    category: values.category as Category,
    strain_type: values.strainType as StrainType,
    thc_min: numberOrNull(values.thcMin),
    thc_max: numberOrNull(values.thcMax),
    cbd_min: numberOrNull(values.cbdMin),
    cbd_max: numberOrNull(values.cbdMax),
    image_url: values.imageUrl || null,
    description: values.description,
  };
}

/** What the form checks before sending (the database checks the rest, decision 180). */
export function productProblems(values: ProductValues): FieldErrors<keyof ProductValues> {
  return { name: values.name.trim().length === 0 ? 'Name is required.' : null };
}

/** Why a picked image cannot be uploaded, or null when it can. */
export function imageProblem(file: { type: string; size: number }): string | null {
  if (!IMAGE_TYPES.includes(file.type)) {
    return 'File type not allowed. Only JPEG, PNG, WebP, and GIF files are permitted.';
  }
  if (file.size > IMAGE_MAX_BYTES) return 'File size too large. Maximum size is 5MB.';
  return null;
}
