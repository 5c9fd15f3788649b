import { CheckCircle2 } from 'lucide-react';
import { Button } from '#web/components/ui/button.tsx';
import { ScrollRegion, TableHead } from '../components/table-parts.tsx';
import type { ImportResult } from './api/market-rpc.ts';

const PREVIEW_ROWS = 20;

/** A preview table's column: the row's field and its heading. */
export interface PreviewColumn<Row> {
  key: keyof Row & string;
  label: string;
}

/**
 * What the database said of every row (counts, or the problems by line), the first rows as read, and
 * Apply import while the preview is clean and not yet applied.
 */
export function ImportPreview<Row>({
  rows,
  preview,
  columns,
  canApply,
  busy,
  onApply,
}: {
  rows: Row[];
  preview: ImportResult;
  columns: PreviewColumn<Row>[];
  canApply: boolean;
  busy: boolean;
  onApply: () => void;
}) {
  return (
    <section aria-label="Preview" className="space-y-3 rounded-md border p-4">
      {preview.ok ? (
        <p className="text-sm" role="status">
          {preview.rows} row{preview.rows === 1 ? '' : 's'} checked: {preview.new} new, {preview.revised}{' '}
          corrected (new revision), {preview.unchanged} unchanged.
        </p>
      ) : (
        <PreviewProblems preview={preview} />
      )}
      <ScrollRegion label="Rows as read" className="overflow-x-auto">
        <table className="w-full text-sm">
          <caption className="text-left text-muted-foreground text-xs">
            The first {Math.min(PREVIEW_ROWS, rows.length)} of {rows.length} rows as read
          </caption>
          <TableHead columns={[{ label: 'Line' }, ...columns]} cellClassName="px-2 py-1" />
          <tbody>
            {rows.slice(0, PREVIEW_ROWS).map((row, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the line number is the row's identity in the file
              <tr key={index} className="border-t">
                <td className="px-2 py-1 tabular-nums">{index + 2}</td>
                {columns.map((column) => (
                  <td key={column.key} className="px-2 py-1">
                    {String(row[column.key] ?? '')}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
      {preview.ok && canApply ? (
        <Button disabled={busy} onClick={onApply}>
          Apply import
        </Button>
      ) : null}
    </section>
  );
}

/** A refused preview: how many problems, the first ones by line; nothing was imported. */
function PreviewProblems({ preview }: { preview: ImportResult }) {
  return (
    <div role="alert" className="space-y-2">
      <p className="font-medium text-destructive text-sm">
        {preview.error_count} problem{preview.error_count === 1 ? '' : 's'} in {preview.rows} rows — nothing
        was imported. Fix the file and choose it again.
      </p>
      <ul className="max-h-64 space-y-1 overflow-auto text-sm" aria-label="Problems by line">
        {preview.errors.map((error) => (
          <li key={`${error.line}-${error.column}-${error.message}`}>
            Line {error.line}, {error.column}: {error.message}
          </li>
        ))}
      </ul>
      {preview.error_count > preview.errors.length ? (
        <p className="text-muted-foreground text-xs">
          The first {preview.errors.length} problems are listed.
        </p>
      ) : null}
    </div>
  );
}

/** What an applied import did, or why nothing was imported after all. */
export function AppliedImport({ applied, text }: { applied: ImportResult; text: string }) {
  return applied.ok ? (
    <p role="status" className="flex items-center gap-2 text-sm">
      <CheckCircle2 aria-hidden="true" className="size-4 text-emerald-600" />
      {text}
    </p>
  ) : (
    <p role="alert" className="text-destructive text-sm">
      Nothing was imported: {applied.error_count} problems (the data changed since the preview). Choose the
      file again.
    </p>
  );
}
