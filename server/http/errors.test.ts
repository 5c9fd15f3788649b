import { describe, expect, it } from 'vitest';
import { DatabaseBusyError } from '../db/gate.ts';
import { ApiError, toApiError } from './errors.ts';

describe('toApiError', () => {
  it('answers the database layer’s busy error 503 with Retry-After, keeping it as the cause', () => {
    const busy = new DatabaseBusyError(1000);
    const answered = toApiError(busy);
    expect(answered).toBeInstanceOf(ApiError);
    expect(answered).toMatchObject({
      status: 503,
      code: 'service_unavailable',
      message: 'The server is busy. Please retry in a moment.',
      headers: { 'retry-after': '1' },
    });
    expect(answered.cause).toBe(busy);
  });

  it('keeps an ApiError as it is, and answers anything unknown 500 without its text', () => {
    const refused = new ApiError(403, 'forbidden', 'No.');
    expect(toApiError(refused)).toBe(refused);
    expect(toApiError(new Error('secret detail'))).toMatchObject({
      status: 500,
      message: 'An unexpected error occurred',
    });
  });
});
