import { SampleRetirementNotice } from '#web/components/layout/sample-retirement-notice.tsx';
import { useImportCloses } from './api/import-closes.ts';
import { useImportFlowerPrices } from './api/import-flower-prices.ts';
import { type CloseRow, type FlowerRow, parseClosesCsv, parseFlowerCsv } from './closes-csv.ts';
import { CsvImport } from './csv-import.tsx';
import { VerifyIndices } from './verify-indices.tsx';

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
