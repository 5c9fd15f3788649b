import type { CSSProperties, ReactNode, Ref } from 'react';
import { cn } from '#web/lib/utils.ts';

/** A column of a market table: its heading, and whether its figures align right. */
export interface Column {
  label: ReactNode;
  /** React's key, when the label is not a plain string. */
  key?: string;
  right?: boolean;
}

/** A table's row of column headings (scope col), text left unless a column says right. */
export function TableHead({
  columns,
  className,
  cellClassName = 'px-3 py-2',
}: {
  columns: readonly Column[];
  className?: string;
  cellClassName?: string;
}) {
  return (
    <thead className={cn('text-left text-xs', className)}>
      <tr>
        {columns.map((column) => (
          <th
            key={column.key ?? String(column.label)}
            scope="col"
            className={cn(cellClassName, column.right && 'text-right')}
          >
            {column.label}
          </th>
        ))}
      </tr>
    </thead>
  );
}

/** A named box that scrolls a wide or long table; reachable by keyboard, as axe asks of a scrolling region. */
export function ScrollRegion({
  label,
  className,
  style,
  ref,
  children,
}: {
  label: string;
  className?: string;
  style?: CSSProperties;
  ref?: Ref<HTMLElement>;
  children: ReactNode;
}) {
  return (
    <section
      ref={ref}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (axe)
      tabIndex={0}
      aria-label={label}
      className={className}
      style={style}
    >
      {children}
    </section>
  );
}
