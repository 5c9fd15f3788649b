import { UserFacingError } from '#web/lib/error-text.ts';
import { loadSupabase } from '#web/lib/supabase.ts';
import { invalidNameMessage, NAME_MAX_LENGTH, NAME_MIN_LENGTH } from '../validation.ts';

/**
 * The sign-up name check on the server (product §auth-rules: field full_name, 2 to 100 characters, no HTML).
 * Throws "Invalid name: …" with the violations. If the check itself cannot run, sign-up goes on: the
 * database refuses a bad name in the profile anyway (decision 035).
 */
export async function validateName(fullName: string): Promise<void> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase.rpc('advanced_content_validation', {
    content_text: fullName,
    field_name: 'full_name',
    min_length: NAME_MIN_LENGTH,
    max_length: NAME_MAX_LENGTH,
    allow_html: false,
  });
  if (error || !data || typeof data !== 'object') return;
  const { is_valid: isValid, violations } = data as { is_valid?: unknown; violations?: unknown };
  if (isValid !== false) return;
  const texts = Array.isArray(violations) ? violations.filter((v): v is string => typeof v === 'string') : [];
  throw new UserFacingError(invalidNameMessage(texts));
}
