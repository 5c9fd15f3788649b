import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ERROR_TEXTS, errorText, UserFacingError } from '#web/lib/error-text.ts';
import { refusalOf } from '#web/lib/refusals.ts';

/**
 * What a refused brand write means, in words (product §brand-directory): the one mapping of the
 * database's rules (lib/refusals.ts, decision 180) first; the brand area's guards and procedures raise
 * messages written for people; anything else reads as usual.
 */
export function brandErrorText(error: unknown): string {
  const refusal = refusalOf(error);
  if (refusal) return refusal.message;
  const message =
    error && typeof error === 'object' && 'message' in error && typeof error.message === 'string'
      ? error.message
      : '';
  const code = error && typeof error === 'object' && 'code' in error ? String(error.code) : '';
  // The brand area's own guards and procedures raise messages written for people.
  if (['42501', 'PT404', '22023', '23514', '23505'].includes(code) && message && !/violates/.test(message)) {
    return message;
  }
  if (code === '42501') return ERROR_TEXTS.permission;
  return errorText(error);
}

/**
 * A failed brand call: a refusal by one of the database's rules travels as it came, so a form finds its
 * field (decision 180); anything else is worded here.
 */
export function throwBrandError(error: unknown): never {
  if (refusalOf(error)) throw error;
  throw new UserFacingError(brandErrorText(error));
}

/** A brand write: once it is done, every brand query (directory, pages, admin lists, licences) reads again. */
export function useBrandMutation<Input>(write: (input: Input) => Promise<void>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: write,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['brands'] }),
  });
}
