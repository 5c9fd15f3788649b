import { errorText } from '#web/lib/error-text.ts';
import { cn } from '#web/lib/utils.ts';

/** Why a read failed, in words, announced as it appears. */
export function QueryError({ error, className }: { error: unknown; className?: string }) {
  return (
    <p role="alert" className={cn('text-destructive dark:text-red-400', className)}>
      {errorText(error)}
    </p>
  );
}
