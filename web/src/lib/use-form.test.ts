import { describe, expect, it } from 'vitest';
import { fieldName, withPrefill } from './use-form.ts';

describe('fieldName', () => {
  it('names a field after its column', () => {
    expect(fieldName('fullName')).toBe('full_name');
    expect(fieldName('productDescription')).toBe('product_description');
    expect(fieldName('email')).toBe('email');
    expect(fieldName('dateOfIncident')).toBe('date_of_incident');
  });
});

describe('withPrefill', () => {
  const first = { fullName: '', email: '', productName: '' };

  it('fills the fields nobody has changed yet', () => {
    expect(withPrefill(first, first, { fullName: 'Morgan Lee', email: 'm@example.com' })).toEqual({
      fullName: 'Morgan Lee',
      email: 'm@example.com',
      productName: '',
    });
  });

  it('keeps what the person typed before the prefill arrived', () => {
    const typed = { fullName: 'Jamie Rivera', email: '', productName: 'Gummies' };
    expect(withPrefill(typed, first, { fullName: 'Morgan Lee', email: 'm@example.com' })).toEqual({
      fullName: 'Jamie Rivera',
      email: 'm@example.com',
      productName: 'Gummies',
    });
  });

  it('ignores fields the prefill leaves out', () => {
    expect(withPrefill(first, first, { email: undefined })).toEqual(first);
  });
});
