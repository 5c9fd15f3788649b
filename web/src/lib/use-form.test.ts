import { describe, expect, it } from 'vitest';
import { fieldName, refusedField, withPrefill } from './use-form.ts';

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

describe('refusedField (decision 180, issue 34)', () => {
  const keys = ['fullName', 'email', 'specialRequests'];

  it("puts a database rule's sentence at the form's field for its column, and says retrying cannot help", () => {
    expect(
      refusedField(keys, {
        code: '23514',
        message: 'new row for relation "bookings" violates check constraint "bookings_full_name_markup"',
      }),
    ).toEqual({
      key: 'fullName',
      message: 'Full name may not contain HTML or script markup.',
      note: 'Saving again as it is will be refused the same way: change the marked field.',
    });
  });

  it('keeps a rule about a column the form lacks for the form itself, and leaves unknown errors alone', () => {
    const outside = refusedField(['email'], {
      code: '23514',
      message: 'violates check constraint "bookings_full_name_markup"',
    });
    expect(outside?.key).toBeNull();
    expect(outside?.note).toBe(
      'Full name may not contain HTML or script markup. Saving again as it is will be refused the same way.',
    );
    expect(refusedField(keys, new Error('Failed to fetch'))).toBeNull();
  });
});
