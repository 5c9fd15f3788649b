import { NAME_MAX_LENGTH, NAME_MIN_LENGTH } from '#web/lib/auth/username.ts';
import { FIELD_TEXTS, isEmail } from '#web/lib/security/field-rules.ts';

/** The auth forms' field rules (product §auth-rules; the generic texts of §field-rules are shared). */
export const PASSWORD_MIN_LENGTH = 6;
export { NAME_MAX_LENGTH, NAME_MIN_LENGTH };

export const VALIDATION_TEXTS = {
  required: FIELD_TEXTS.required,
  email: FIELD_TEXTS.email,
  passwordTooShort: 'Password must be at least 6 characters long.',
  passwordsDiffer: 'Passwords do not match.',
} as const;

export function emailProblem(value: string): string | null {
  if (value.trim() === '') return VALIDATION_TEXTS.required('Email');
  return isEmail(value) ? null : VALIDATION_TEXTS.email;
}

/** Sign-in: a password is required (its length is the server's business: old accounts may differ). */
export function passwordPresentProblem(value: string): string | null {
  return value === '' ? VALIDATION_TEXTS.required('Password') : null;
}

/** Sign-up and new passwords: required, at least 6 characters. */
export function newPasswordProblem(value: string): string | null {
  if (value === '') return VALIDATION_TEXTS.required('Password');
  return value.length < PASSWORD_MIN_LENGTH ? VALIDATION_TEXTS.passwordTooShort : null;
}

/**
 * Password update (product §auth-rules): the entries must match, else "Passwords do not match."; under 6
 * characters gives "Password must be at least 6 characters long."
 */
export function passwordUpdateProblems(
  password: string,
  confirmation: string,
): { password?: string; confirmation?: string } {
  if (password !== confirmation) return { confirmation: VALIDATION_TEXTS.passwordsDiffer };
  if (password.length < PASSWORD_MIN_LENGTH) return { password: VALIDATION_TEXTS.passwordTooShort };
  return {};
}

/** "Invalid name: " plus the server's violations joined by a comma and a space (product §auth-rules). */
export function invalidNameMessage(violations: readonly string[]): string {
  return `Invalid name: ${violations.join(', ')}`;
}
