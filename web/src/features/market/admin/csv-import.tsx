import { FileUp } from 'lucide-react';
import { type ReactNode, useId, useState } from 'react';
import { errorText } from '#web/lib/error-text.ts';
import type { ImportResult } from './api/market-rpc.ts';
import { checkFileSize, MAX_BROWSER_PAYLOAD_BYTES, type ParsedRows } from './closes-csv.ts';
import { AppliedImport, ImportPreview, type PreviewColumn } from './import-preview.tsx';

export interface CsvImportProps<Row> {
  id: string;
  title: string;
  description: ReactNode;
  parse: (text: string) => ParsedRows<Row>;
  /** The preview table's columns, in order. */
  columns: PreviewColumn<Row>[];
  mutation: {
    mutate: (
      variables: { rows: Row[]; apply: boolean },
      options: { onSuccess: (result: ImportResult) => void },
    ) => void;
    reset: () => void;
    isPending: boolean;
    isError: boolean;
    error: unknown;
  };
  /** What an applied import says: counts of new, corrected, unchanged. */
  appliedText: (result: ImportResult) => string;
}

/**
 * A CSV import (decision 128): the file's size and shape checked in the browser, every row checked by
 * the database (the preview, with problems by line), then applied all at once.
 */
export function CsvImport<Row>({
  id,
  title,
  description,
  parse,
  columns,
  mutation,
  appliedText,
}: CsvImportProps<Row>) {
  const inputId = useId();
  const [fileName, setFileName] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [rows, setRows] = useState<Row[] | null>(null);
  const [preview, setPreview] = useState<ImportResult | null>(null);
  const [applied, setApplied] = useState<ImportResult | null>(null);

  const reset = () => {
    setProblem(null);
    setRows(null);
    setPreview(null);
    setApplied(null);
    mutation.reset();
  };

  const onFile = async (file: File | undefined) => {
    reset();
    if (!file) return;
    setFileName(file.name);
    const sizeProblem = checkFileSize(file.size);
    if (sizeProblem) return setProblem(sizeProblem);
    const parsed = parse(await file.text());
    if (!parsed.ok) return setProblem(parsed.message);
    if (JSON.stringify(parsed.rows).length > MAX_BROWSER_PAYLOAD_BYTES) {
      return setProblem(
        `The file has ${parsed.rows.length.toLocaleString('en-US')} rows, more than one browser import can carry. Import it with npm run market:import -- FILE.`,
      );
    }
    setRows(parsed.rows);
    mutation.mutate({ rows: parsed.rows, apply: false }, { onSuccess: setPreview });
  };

  return (
    <section aria-labelledby={id} className="space-y-4">
      <h3 id={id} className="font-semibold text-lg">
        {title}
      </h3>
      <p className="text-muted-foreground text-sm">{description}</p>
      <div className="flex flex-wrap items-center gap-3">
        <label
          htmlFor={inputId}
          className="inline-flex cursor-pointer items-center gap-2 rounded-md border px-3 py-2 font-medium text-sm hover:bg-accent focus-within:outline-2 focus-within:outline-ring"
        >
          <FileUp aria-hidden="true" className="size-4" />
          Choose CSV file
          <span className="sr-only"> ({title.toLowerCase()})</span>
          <input
            id={inputId}
            type="file"
            accept=".csv,text/csv"
            className="sr-only"
            onChange={(event) => {
              void onFile(event.target.files?.[0]);
              event.target.value = '';
            }}
          />
        </label>
        {fileName ? <span className="text-sm">{fileName}</span> : null}
      </div>

      {problem ? (
        <p role="alert" className="rounded-md border border-destructive/50 p-3 text-destructive text-sm">
          {problem}
        </p>
      ) : null}
      {mutation.isError ? (
        <p role="alert" className="rounded-md border border-destructive/50 p-3 text-destructive text-sm">
          The import failed: {errorText(mutation.error)}
        </p>
      ) : null}
      {mutation.isPending ? <p className="text-muted-foreground text-sm">Checking…</p> : null}

      {rows && preview ? (
        <ImportPreview
          rows={rows}
          preview={preview}
          columns={columns}
          canApply={!applied}
          busy={mutation.isPending}
          onApply={() => mutation.mutate({ rows, apply: true }, { onSuccess: setApplied })}
        />
      ) : null}
      {applied ? <AppliedImport applied={applied} text={appliedText(applied)} /> : null}
    </section>
  );
}
