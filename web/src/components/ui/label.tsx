import type { ComponentProps } from 'react';
import { cn } from '#web/lib/utils.ts';

export function Label({ className, ...props }: ComponentProps<'label'>) {
  // biome-ignore lint/a11y/noLabelWithoutControl: callers pass htmlFor.
  return <label className={cn('font-medium text-sm leading-none', className)} {...props} />;
}
