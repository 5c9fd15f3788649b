import { describe, expect, it } from 'vitest';
import { fieldName } from './use-form.ts';

describe('fieldName', () => {
  it('names a field after its column', () => {
    expect(fieldName('fullName')).toBe('full_name');
    expect(fieldName('productDescription')).toBe('product_description');
    expect(fieldName('email')).toBe('email');
    expect(fieldName('dateOfIncident')).toBe('date_of_incident');
  });
});
