import { type FormEvent, type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import { refusalNote, refusalOf } from './refusals.ts';

/** Each field's problem (null or absent: none); a form may add keys of its own (e.g. a schedule). */
export type FieldErrors<K extends string> = Partial<Record<K, string | null | undefined>>;

/** What a field component (components/ui/form-field.tsx) takes from the form. */
export interface FieldProps {
  /** The field's key in snake_case: the column it is stored in (fullName → full_name). */
  name: string;
  value: string;
  onChange: (event: { target: { value: string } }) => void;
  error: string | null | undefined;
  maxLength?: number;
}

export interface Form<V extends Record<keyof V, string>, K extends string> {
  values: V;
  errors: FieldErrors<(keyof V & string) | K>;
  /** True while the submit handler runs; a second press meanwhile is ignored. */
  busy: boolean;
  /** For the <form> element: where the first invalid field is looked for. */
  ref: RefObject<HTMLFormElement | null>;
  /** A text field's name, value, change handler (which also clears its problem), problem and limit. */
  field: (name: keyof V & string) => FieldProps;
  clearError: (name: (keyof V & string) | K) => void;
  /**
   * Shows the problems (replacing earlier ones); when there are any, the keyboard moves to the first
   * field marked invalid (aria-invalid) once they are on screen. Returns whether there were any.
   */
  showErrors: (errors: FieldErrors<(keyof V & string) | K>) => boolean;
  /**
   * A refused submission (decision 180, issue 34): when the database names one of its rules, the rule's
   * sentence goes under the field it concerns (the keyboard moves there) and the note for the form says
   * retrying cannot help; null when the refusal is not a rule of ours (say it as usual, with errorText).
   */
  showRefusal: (error: unknown) => string | null;
  /** Back to the first values, without problems (after a successful submission). */
  reset: () => void;
  /** Replaces every value (a form that edits saved data, once the data has loaded). */
  setValues: (values: V) => void;
  /**
   * Values that arrived after the form opened (a member's name from their profile): they become the
   * first values (what `reset` goes back to) and show in every field the person has not changed yet;
   * what they typed meanwhile stays.
   */
  prefill: (values: Partial<V>) => void;
  /** The form's onSubmit: no browser submission, one submission at a time, `busy` while it runs. */
  handleSubmit: (
    submit: (values: V) => Promise<void>,
  ) => (event: FormEvent<HTMLFormElement>) => Promise<void>;
}

/** A field key as the input's name: the column it is stored in (productName → product_name). */
export function fieldName(key: string): string {
  return key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/**
 * The values after a late prefill: each prefilled field that still holds its first value takes the
 * prefilled one; a field the person already changed keeps what they typed.
 */
export function withPrefill<V extends Record<keyof V, string>>(current: V, first: V, next: Partial<V>): V {
  const merged = { ...current };
  for (const key of Object.keys(next) as (keyof V)[]) {
    const value = next[key];
    if (value !== undefined && current[key] === first[key]) merged[key] = value;
  }
  return merged;
}

/**
 * Which of a form's fields (by key) a refusal concerns, its sentence, and the note for the form — or null
 * when the error is not one of the database's rules (lib/refusals.ts, decision 180).
 */
export function refusedField(
  keys: readonly string[],
  error: unknown,
): { key: string | null; message: string; note: string } | null {
  const refusal = refusalOf(error);
  if (!refusal) return null;
  const key = keys.find((name) => fieldName(name) === refusal.field) ?? null;
  return { key, message: refusal.message, note: refusalNote(refusal, key !== null) };
}

/**
 * The state of a form of text fields (decision 090): values, field errors, the busy flag and focus on
 * the first invalid field after a refused submission. The rules stay in the feature (pure, tested);
 * the labels, hints and error texts are rendered by InputField, TextareaField and SelectField.
 *
 * `maxLength` gives each field the input's limit, usually the database's (the feature's *_MAX_LENGTH).
 */
export function useForm<V extends Record<keyof V, string>, K extends string = never>(
  initial: V,
  options: { maxLength?: Partial<Record<keyof V, number>> } = {},
): Form<V, K> {
  type Key = (keyof V & string) | K;
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<FieldErrors<Key>>({});
  const [busy, setBusy] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const ref = useRef<HTMLFormElement>(null);
  const running = useRef(false);
  const first = useRef(initial);
  const { maxLength } = options;

  useEffect(() => {
    if (attempt === 0) return;
    ref.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [attempt]);

  const clearError = useCallback((name: Key) => setErrors((current) => ({ ...current, [name]: null })), []);

  const showErrors = useCallback((next: FieldErrors<Key>) => {
    setErrors(next);
    const any = Object.values(next).some(Boolean);
    if (any) setAttempt((count) => count + 1);
    return any;
  }, []);

  const showRefusal = useCallback(
    (error: unknown): string | null => {
      const refused = refusedField(Object.keys(first.current), error);
      if (!refused) return null;
      if (refused.key) showErrors({ [refused.key]: refused.message } as FieldErrors<Key>);
      return refused.note;
    },
    [showErrors],
  );

  const reset = useCallback(() => {
    setValues(first.current);
    setErrors({});
  }, []);

  const prefill = useCallback((next: Partial<V>) => {
    const before = first.current;
    first.current = { ...before, ...next };
    setValues((current) => withPrefill(current, before, next));
  }, []);

  const field = (name: keyof V & string): FieldProps => ({
    name: fieldName(name),
    value: values[name] ?? '',
    onChange: (event) => {
      const { value } = event.target;
      setValues((current) => ({ ...current, [name]: value }));
      clearError(name);
    },
    error: errors[name],
    ...(maxLength?.[name] !== undefined ? { maxLength: maxLength[name] } : {}),
  });

  const handleSubmit =
    (submit: (values: V) => Promise<void>) => async (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      if (running.current) return;
      running.current = true;
      setBusy(true);
      try {
        await submit(values);
      } finally {
        running.current = false;
        setBusy(false);
      }
    };

  return {
    values,
    errors,
    busy,
    ref,
    field,
    clearError,
    showErrors,
    showRefusal,
    reset,
    setValues,
    prefill,
    handleSubmit,
  };
}

/** What useFieldRefusal gives a form whose inputs are its own (not useForm's fields). */
export interface FieldRefusal {
  /**
   * Shows a refused write at its field (decision 180): the rule's sentence under the input, the input
   * marked and focused; returns the note for the form, or null when the error is not a rule of ours.
   */
  show: (error: unknown) => string | null;
  /** The sentence for a column's input, when the last refusal concerns it. */
  errorFor: (column: string) => string | null;
  /** The attributes that mark a column's input (aria-invalid, aria-describedby its sentence). */
  mark: (column: string) => { 'aria-invalid'?: true; 'aria-describedby'?: string };
  /** The id of the element that holds a column's sentence. */
  errorId: (column: string) => string;
  clear: () => void;
}

/**
 * The shared error-to-field mapping (lib/refusals.ts) for a form that keeps its own state: `inputs` maps
 * each column the form writes to its input's id.
 */
export function useFieldRefusal(inputs: Readonly<Record<string, string>>): FieldRefusal {
  // A new object on every refusal, so the same refusal twice moves the keyboard to its field again.
  const [refused, setRefused] = useState<{ column: string; message: string } | null>(null);
  const inputsRef = useRef(inputs);
  inputsRef.current = inputs;

  useEffect(() => {
    if (!refused) return;
    const id = inputsRef.current[refused.column];
    if (id) document.getElementById(id)?.focus();
  }, [refused]);

  const show = useCallback((error: unknown): string | null => {
    const refusal = refusalOf(error);
    if (!refusal) {
      setRefused(null);
      return null;
    }
    const atField = refusal.field !== null && refusal.field in inputsRef.current;
    setRefused(atField ? { column: refusal.field as string, message: refusal.message } : null);
    return refusalNote(refusal, atField);
  }, []);

  const clear = useCallback(() => setRefused(null), []);
  const errorFor = (column: string) => (refused?.column === column ? refused.message : null);
  const errorId = (column: string) => `${inputs[column] ?? column}-refusal`;
  return {
    show,
    errorFor,
    errorId,
    mark: (column) => (errorFor(column) ? { 'aria-invalid': true, 'aria-describedby': errorId(column) } : {}),
    clear,
  };
}
