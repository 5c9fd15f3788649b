import { describe, expect, it } from 'vitest';
import {
  type AdminProduct,
  imageProblem,
  productInput,
  productProblems,
  productValues,
} from './admin-product.ts';

const product: AdminProduct = {
  id: 'p1',
  name: 'Blue Dream',
  brand_id: 'b1',
  category: 'Edibles',
  strain_type: 'hybrid',
  thc_min: 18.5,
  thc_max: 22,
  cbd_min: 0,
  cbd_max: null,
  image_url: 'https://example.com/a.png',
  description: 'Sweet.',
  archived_at: null,
  is_sample: false,
  created_at: '2025-01-01T00:00:00Z',
};

describe('productValues', () => {
  it('starts a new product as Flower, no strain type, every other field empty', () => {
    expect(productValues(null)).toEqual({
      name: '',
      brandId: '',
      category: 'Flower',
      strainType: 'n/a',
      thcMin: '',
      thcMax: '',
      cbdMin: '',
      cbdMax: '',
      description: '',
      imageUrl: '',
    });
  });

  it('shows a saved product as text, a zero percentage as 0 and a missing one as empty', () => {
    expect(productValues(product)).toMatchObject({
      brandId: 'b1',
      thcMin: '18.5',
      thcMax: '22',
      cbdMin: '0',
      cbdMax: '',
      imageUrl: 'https://example.com/a.png',
    });
  });
});

describe('productInput', () => {
  it('gives back the saved row it was made from', () => {
    const { id, archived_at, is_sample, created_at, ...input } = product;
    expect(productInput(productValues(product))).toEqual(input);
  });

  it('trims the name and writes empty choices as null', () => {
    const input = productInput({ ...productValues(null), name: '  Gelato  ', thcMin: ' ', cbdMax: '3' });
    expect(input).toMatchObject({
      name: 'Gelato',
      brand_id: null,
      thc_min: null,
      cbd_max: 3,
      image_url: null,
    });
  });
});

describe('productProblems', () => {
  it('requires a name besides spaces', () => {
    expect(productProblems({ ...productValues(null), name: '  ' })).toEqual({ name: 'Name is required.' });
    expect(productProblems(productValues(product))).toEqual({ name: null });
  });
});

describe('imageProblem', () => {
  it('takes JPEG, PNG, WebP and GIF up to 5 MB', () => {
    expect(imageProblem({ type: 'image/webp', size: 5 * 1024 * 1024 })).toBeNull();
    expect(imageProblem({ type: 'image/svg+xml', size: 10 })).toBe(
      'File type not allowed. Only JPEG, PNG, WebP, and GIF files are permitted.',
    );
    expect(imageProblem({ type: 'image/png', size: 5 * 1024 * 1024 + 1 })).toBe(
      'File size too large. Maximum size is 5MB.',
    );
  });
});
