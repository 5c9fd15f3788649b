import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '#web/lib/utils.ts';

interface EmptyStateProps {
  icon: LucideIcon;
  title: string;
  children: ReactNode;
  actions?: ReactNode;
  className?: string;
  /** Heading level of the title, to fit the page's outline. */
  headingLevel?: 2 | 3;
}

/** Says plainly that there is nothing to show yet, and what will appear here. */
export function EmptyState({
  icon: Icon,
  title,
  children,
  actions,
  className,
  headingLevel = 2,
}: EmptyStateProps) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <section
      aria-label={title}
      className={cn(
        'flex flex-col items-center rounded-xl border border-dashed bg-card/50 px-6 py-14 text-center',
        className,
      )}
    >
      <div className="flex size-14 items-center justify-center rounded-full bg-secondary text-primary">
        <Icon aria-hidden="true" className="size-7" />
      </div>
      <Heading className="mt-5 font-semibold text-xl">{title}</Heading>
      <div className="mt-2 max-w-md text-muted-foreground">{children}</div>
      {actions ? <div className="mt-6 flex flex-wrap justify-center gap-3">{actions}</div> : null}
    </section>
  );
}
