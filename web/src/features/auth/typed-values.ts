import { fieldName } from '#web/lib/use-form.ts';

/**
 * An auth form's values as the fields hold them when it is sent, each read by its input's name (useForm's
 * fieldName: fullName → full_name). The sign-in screens keep their inputs uncontrolled: the /auth page is
 * prerendered (decision 157), so what a person or a password manager types before the app runs must be
 * what is sent, and never be wiped by a render.
 */
export function typedValues<K extends string>(data: FormData | null, keys: readonly K[]): Record<K, string> {
  const values = {} as Record<K, string>;
  for (const key of keys) {
    const value = data?.get(fieldName(key));
    values[key] = typeof value === 'string' ? value : '';
  }
  return values;
}

/** The form's data, or null before it is on the page. */
export const formData = (form: HTMLFormElement | null): FormData | null => (form ? new FormData(form) : null);
