import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '#web/lib/utils.ts';

interface PageHeaderProps {
  title: string;
  description: ReactNode;
  icon?: LucideIcon;
  eyebrow?: string;
  actions?: ReactNode;
}

export function PageHeader({ title, description, icon: Icon, eyebrow, actions }: PageHeaderProps) {
  return (
    <div className="flex flex-col gap-4 border-b pb-8 md:flex-row md:items-end md:justify-between">
      <div className="max-w-3xl">
        {eyebrow ? (
          <p className="font-semibold text-primary text-sm uppercase tracking-wider">{eyebrow}</p>
        ) : null}
        <h1 className="mt-1 flex items-center gap-3 font-bold text-3xl tracking-tight sm:text-4xl">
          {Icon ? <Icon aria-hidden="true" className="size-8 shrink-0 text-primary" /> : null}
          {title}
        </h1>
        <p className="mt-3 text-lg text-muted-foreground">{description}</p>
      </div>
      {actions ? <div className="flex shrink-0 gap-2">{actions}</div> : null}
    </div>
  );
}

/** The standard page frame: width, padding and vertical rhythm. */
export function PageContainer({ children, className }: { children: ReactNode; className?: string }) {
  return <div className={cn('mx-auto max-w-7xl px-4 py-10 sm:px-6 lg:px-8', className)}>{children}</div>;
}
