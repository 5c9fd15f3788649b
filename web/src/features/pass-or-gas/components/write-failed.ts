import { toast } from '#web/components/ui/use-toast.ts';
import { writeErrorText } from '../vote-errors.ts';

/**
 * Says that a vote or comment write failed: `note` when the form already showed the database's refusal at
 * its field (useForm's showRefusal), otherwise the member's reading of the error.
 */
export function toastWriteFailed(title: string, error: unknown, note: string | null = null): void {
  toast({ variant: 'destructive', title, description: note ?? writeErrorText(error) });
}

/**
 * A form's write (useForm): on failure the database's refusal shows at its field and the toast titled
 * `title` says what failed. Resolves whether the write succeeded.
 */
export async function attemptWrite(
  form: { showRefusal: (error: unknown) => string | null },
  title: string,
  write: () => Promise<unknown>,
): Promise<boolean> {
  try {
    await write();
    return true;
  } catch (error) {
    toastWriteFailed(title, error, form.showRefusal(error));
    return false;
  }
}
