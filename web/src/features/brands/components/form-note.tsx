import { useState } from 'react';
import { errorText } from '#web/lib/error-text.ts';
import type { Form } from '#web/lib/use-form.ts';
import { cn } from '#web/lib/utils.ts';

/**
 * A brand form's note (its one alert): why it cannot be saved yet, or what a refused save means. `attempt`
 * runs a save once the form's own check passes; a refusal by one of the database's rules also shows under
 * the field it concerns (decision 180).
 */
export function useFormNote<V extends Record<keyof V, string>, K extends string>(form: Form<V, K>) {
  const [note, setNote] = useState<string | null>(null);
  const attempt = async (problem: string | null, save: () => Promise<void>): Promise<void> => {
    setNote(problem);
    form.showErrors({});
    if (problem) return;
    try {
      await save();
    } catch (error) {
      setNote(form.showRefusal(error) ?? errorText(error));
    }
  };
  return { note, setNote, attempt };
}

export function FormNote({ note, className }: { note: string | null; className?: string }) {
  return note ? (
    <p role="alert" className={cn('text-destructive text-sm', className)}>
      {note}
    </p>
  ) : null;
}
