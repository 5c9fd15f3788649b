import { describe, expect, it } from 'vitest';
import { typedValues } from './typed-values.ts';

describe('typedValues', () => {
  it('reads each field by its input name', () => {
    const data = new FormData();
    data.set('full_name', 'Morgan Lee');
    data.set('email', 'm@example.com');
    data.set('confirm_new_password', 'secret 2');
    expect(typedValues(data, ['fullName', 'email', 'confirmNewPassword'])).toEqual({
      fullName: 'Morgan Lee',
      email: 'm@example.com',
      confirmNewPassword: 'secret 2',
    });
  });

  it('keeps what was typed as it is (spaces included)', () => {
    const data = new FormData();
    data.set('password', '  spaced secret ');
    expect(typedValues(data, ['password'])).toEqual({ password: '  spaced secret ' });
  });

  it('gives an empty value for a field that is missing, a file, or a form not yet on the page', () => {
    const data = new FormData();
    data.set('avatar', new Blob(['x']), 'a.png');
    expect(typedValues(data, ['email', 'avatar'])).toEqual({ email: '', avatar: '' });
    expect(typedValues(null, ['email'])).toEqual({ email: '' });
  });
});
