import { describe, expect, it } from 'vitest';
import { errorText } from './error-text.ts';
import { FunctionError } from './invoke-function.ts';
import { refusalOf } from './refusals.ts';

describe('refusalOf', () => {
  it("reads the rule's name from PostgREST's message, a function's code or the trigger's sentence", () => {
    expect(
      refusalOf({
        code: '23514',
        message: 'new row for relation "products" violates check constraint "products_thc_order"',
      }),
    ).toEqual({ field: 'thc_max', message: 'THC "to" must be at least THC "from".' });
    const post = new FunctionError(
      'Failed to create post: the content may not contain script markup',
      'admin_posts_content_markup',
      400,
    );
    expect(refusalOf(post)?.field).toBe('content');
    expect(errorText(post)).toMatch(/^The content may not contain script markup/);
    expect(
      refusalOf({ code: '23505', message: 'Another booking is already confirmed for 2026-12-01 at 10:00.' }),
    ).toEqual({ field: 'status', message: 'Another booking is already confirmed for 2026-12-01 at 10:00.' });
  });

  it('leaves what is not a rule of ours to errorText', () => {
    expect(refusalOf({ code: '23514', message: 'violates check constraint "unknown_rule"' })).toBeNull();
    expect(refusalOf(new Error('Failed to fetch'))).toBeNull();
    expect(refusalOf(null)).toBeNull();
  });
});
