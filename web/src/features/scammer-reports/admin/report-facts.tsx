import type { ReactNode } from 'react';
import { Badge } from '#web/components/ui/badge.tsx';
import { formatAmount, formatDay, type RedactableField } from '../database.ts';
import type { AdminReport } from './admin-report.ts';
import type { Mask, MaskableField } from './masks.ts';
import { MaskedFieldText } from './review-masks.tsx';

function Fact({ label, redacted, children }: { label: string; redacted: boolean; children: ReactNode }) {
  return (
    <div className="rounded-lg border p-3">
      <dt className="flex items-center gap-2 text-muted-foreground text-xs uppercase tracking-wide">
        {label}
        {redacted ? <Badge variant="secondary">Redacted</Badge> : null}
      </dt>
      <dd className="mt-1 whitespace-pre-line">{children}</dd>
    </div>
  );
}

/** The member's text fields, in the order the reviewer reads them. */
const TEXT_FACTS = [
  ['Description', 'scammer_description'],
  ['Incident details', 'incident_details'],
  ['Business name', 'business_name'],
  ['Location', 'location'],
  ['Contact details', 'contact_info'],
] as const satisfies readonly (readonly [string, MaskableField & RedactableField])[];

/** The report's fields as the member wrote them, masked spans marked, the fields chosen for redaction badged. */
export function ReportFacts({
  report,
  masks,
  redacted,
}: {
  report: AdminReport;
  masks: readonly Mask[];
  redacted: ReadonlySet<RedactableField>;
}) {
  return (
    <dl className="grid gap-3 sm:grid-cols-2">
      {TEXT_FACTS.map(([label, field]) => (
        <Fact key={field} label={label} redacted={redacted.has(field)}>
          {report[field] ? <MaskedFieldText text={report[field]} masks={masks} field={field} /> : '—'}
        </Fact>
      ))}
      <Fact label="Amount" redacted={redacted.has('amount_scammed')}>
        {formatAmount(report.amount_scammed) ?? '—'}
      </Fact>
      <Fact label="Date of incident" redacted={redacted.has('date_of_incident')}>
        {report.date_of_incident ? formatDay(report.date_of_incident) : '—'}
      </Fact>
    </dl>
  );
}
