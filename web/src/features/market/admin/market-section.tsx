import { useQuery } from '@tanstack/react-query';
import { CheckCircle2, FileUp, ShieldCheck } from 'lucide-react';
import { type ReactNode, useId, useState } from 'react';
import { SampleRetirementNotice } from '#web/components/layout/sample-retirement-notice.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { errorText } from '#web/lib/error-text.ts';
import {
  type ImportResult,
  useImportCloses,
  useImportFlowerPrices,
  useVerifyIndex,
  type VerifyResult,
} from '../api/admin-market.ts';
import { indicesQueryOptions } from '../api/market.ts';
import {
  type CloseRow,
  checkFileSize,
  type FlowerRow,
  MAX_BROWSER_PAYLOAD_BYTES,
  type ParsedRows,
  parseClosesCsv,
  parseFlowerCsv,
} from './closes-csv.ts';

const PREVIEW_ROWS = 20;

/**
 * /admin/market (product §market-index, decision 128): import daily closes from a CSV — read and
 * checked in the browser, checked row by row by the database (preview), then applied all at once —
 * and verify that each index's stored values are what its inputs give.
 */
export function MarketSection() {
  return (
    <div className="space-y-10">
      <div>
        <h2 className="font-semibold text-2xl">Market data</h2>
        <p className="mt-1 text-muted-foreground text-sm">
          Import daily closes for the equity index and regulator flower prices, and check every index against
          its inputs. A corrected close becomes a new revision; the page shows each point's history.
        </p>
      </div>
      <SampleRetirementNotice area="market" />
      <ImportCloses />
      <ImportFlowerPrices />
      <VerifyIndices />
    </div>
  );
}

interface CsvImportProps<Row> {
  id: string;
  title: string;
  description: ReactNode;
  parse: (text: string) => ParsedRows<Row>;
  /** The preview table's columns, in order. */
  columns: { key: keyof Row & string; label: string }[];
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
function CsvImport<Row>({
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
        <section aria-label="Preview" className="space-y-3 rounded-md border p-4">
          {preview.ok ? (
            <p className="text-sm" role="status">
              {preview.rows} row{preview.rows === 1 ? '' : 's'} checked: {preview.new} new, {preview.revised}{' '}
              corrected (new revision), {preview.unchanged} unchanged.
            </p>
          ) : (
            <div role="alert" className="space-y-2">
              <p className="font-medium text-destructive text-sm">
                {preview.error_count} problem{preview.error_count === 1 ? '' : 's'} in {preview.rows} rows —
                nothing was imported. Fix the file and choose it again.
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
          )}
          <section
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (axe)
            tabIndex={0}
            aria-label="Rows as read"
            className="overflow-x-auto"
          >
            <table className="w-full text-sm">
              <caption className="text-left text-muted-foreground text-xs">
                The first {Math.min(PREVIEW_ROWS, rows.length)} of {rows.length} rows as read
              </caption>
              <thead className="text-left text-xs">
                <tr>
                  <th scope="col" className="px-2 py-1">
                    Line
                  </th>
                  {columns.map((column) => (
                    <th key={column.key} scope="col" className="px-2 py-1">
                      {column.label}
                    </th>
                  ))}
                </tr>
              </thead>
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
          </section>
          {preview.ok && !applied ? (
            <Button
              disabled={mutation.isPending}
              onClick={() => mutation.mutate({ rows, apply: true }, { onSuccess: setApplied })}
            >
              Apply import
            </Button>
          ) : null}
        </section>
      ) : null}

      {applied ? (
        applied.ok ? (
          <p role="status" className="flex items-center gap-2 text-sm">
            <CheckCircle2 aria-hidden="true" className="size-4 text-emerald-600" />
            {appliedText(applied)}
          </p>
        ) : (
          <p role="alert" className="text-destructive text-sm">
            Nothing was imported: {applied.error_count} problems (the data changed since the preview). Choose
            the file again.
          </p>
        )
      ) : null}
    </section>
  );
}

function ImportCloses() {
  const importer = useImportCloses();
  return (
    <CsvImport<CloseRow>
      id="market-import"
      title="Import daily closes"
      description={
        <>
          A CSV file with the columns <code>ticker,date,close,source</code> (and optionally{' '}
          <code>currency</code>, USD): one close per security and day, tickers of the equity universe, dates
          as YYYY-MM-DD, prices above zero with up to 4 decimals. Any bad row refuses the whole file; nothing
          is written until you apply.
        </>
      }
      parse={parseClosesCsv}
      columns={[
        { key: 'ticker', label: 'Ticker' },
        { key: 'date', label: 'Date' },
        { key: 'close', label: 'Close' },
        { key: 'source', label: 'Source' },
      ]}
      mutation={importer}
      appliedText={(applied) =>
        `Imported: ${applied.new} new closes, ${applied.revised} corrected, ${applied.unchanged} unchanged${
          applied.samples_removed
            ? `; the demonstration series (${applied.samples_removed} closes) was removed`
            : ''
        }. The indices were recomputed.`
      }
    />
  );
}

function ImportFlowerPrices() {
  const importer = useImportFlowerPrices();
  return (
    <CsvImport<FlowerRow>
      id="market-flower-import"
      title="Import flower prices"
      description={
        <>
          A CSV file with the columns <code>state,series,period,unit,value,statistic,source</code> (and
          optionally <code>note</code>), as in the regulator data the index ships with: two-letter state
          codes, the first day of each period as YYYY-MM-DD, units USD/lb, USD/oz or USD/g — a series keeps
          its unit — and prices above zero. Any bad row refuses the whole file; nothing is written until you
          apply.
        </>
      }
      parse={parseFlowerCsv}
      columns={[
        { key: 'state', label: 'State' },
        { key: 'series', label: 'Series' },
        { key: 'period', label: 'Period' },
        { key: 'unit', label: 'Unit' },
        { key: 'value', label: 'Value' },
        { key: 'source', label: 'Source' },
      ]}
      mutation={importer}
      appliedText={(applied) =>
        `Imported: ${applied.new} new price points, ${applied.revised} corrected, ${applied.unchanged} unchanged. The flower price index was recomputed.`
      }
    />
  );
}

function VerifyIndices() {
  const indices = useQuery(indicesQueryOptions());
  const verify = useVerifyIndex();
  const [results, setResults] = useState<Record<string, VerifyResult>>({});
  return (
    <section aria-labelledby="market-verify" className="space-y-3">
      <h3 id="market-verify" className="font-semibold text-lg">
        Verify the indices
      </h3>
      <p className="text-muted-foreground text-sm">
        Recomputes an index from its inputs and compares every stored value with the result.
      </p>
      {indices.isError ? (
        <p role="alert" className="text-destructive text-sm">
          {errorText(indices.error)}
        </p>
      ) : null}
      <ul className="space-y-3">
        {(indices.data ?? []).map((index) => {
          const result = results[index.slug];
          return (
            <li key={index.slug} className="flex flex-wrap items-center gap-3">
              <Button
                variant="outline"
                disabled={verify.isPending}
                onClick={() =>
                  verify.mutate(index.slug, {
                    onSuccess: (value) => setResults((current) => ({ ...current, [index.slug]: value })),
                  })
                }
              >
                <ShieldCheck aria-hidden="true" className="size-4" />
                Verify {index.name}
              </Button>
              {result ? (
                <span role="status" className={result.ok ? 'text-sm' : 'text-destructive text-sm'}>
                  {result.ok
                    ? `${result.checked} values recomputed: all equal to the stored values.`
                    : `${result.mismatches.length} of ${result.checked} values differ (first: ${result.mismatches[0]?.date}). Recompute the index.`}
                </span>
              ) : null}
            </li>
          );
        })}
      </ul>
      {verify.isError ? (
        <p role="alert" className="text-destructive text-sm">
          The check failed: {errorText(verify.error)}
        </p>
      ) : null}
    </section>
  );
}
