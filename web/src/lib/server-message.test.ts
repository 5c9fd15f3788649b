import { describe, expect, it } from 'vitest';
import { ERROR_TEXTS } from './error-text.ts';
import { serverMessage } from './server-message.ts';

describe('serverMessage', () => {
  it("passes the product's own refusals through", () => {
    expect(
      serverMessage({
        status: 409,
        message: 'Another booking is already confirmed for 2026-12-01 at 10:00.',
      }),
    ).toBe('Another booking is already confirmed for 2026-12-01 at 10:00.');
    expect(serverMessage({ status: 403, message: 'Unauthorized' })).toBe('Unauthorized');
    expect(
      serverMessage({
        code: '23505',
        message: 'Another booking is already confirmed for 2026-12-01 at 10:00.',
      }),
    ).toBe('Another booking is already confirmed for 2026-12-01 at 10:00.');
    expect(serverMessage({ code: '42P01', message: 'Relation is missing.' })).toBe(ERROR_TEXTS.generic);
  });

  it("maps PostgreSQL's wording and failures through the §messages table", () => {
    expect(serverMessage({ status: 400, message: 'invalid input syntax for type uuid: "x"' })).toBe(
      ERROR_TEXTS.checkInput,
    );
    expect(serverMessage({ status: 400, message: 'New row violates check constraint "x".' })).toBe(
      ERROR_TEXTS.checkInput,
    );
    expect(serverMessage({ status: 500, message: 'Boom.' })).toBe(ERROR_TEXTS.server);
    expect(serverMessage(new TypeError('Failed to fetch'))).toBe(ERROR_TEXTS.network);
  });
});
