import { useQuery } from '@tanstack/react-query';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { useConfirmedUserId } from '#web/lib/auth/hooks/use-auth.ts';
import { reportForReplyQueryOptions } from '../api/get-report-for-reply.ts';
import { formatAmount, formatDay, REDACTABLE_FIELDS } from '../database.ts';
import { QueryError } from './query-error.tsx';
import { ReportedLine } from './report-status.tsx';

/** The report being answered, as its readers see it: redacted fields say so, never the reporter. */
export function AnsweredReport({ id }: { id: string }) {
  const userId = useConfirmedUserId();
  const query = useQuery(reportForReplyQueryOptions(userId, id));
  if (query.isPending) return <Skeleton className="h-32" aria-label="Loading the report" />;
  if (query.isError) {
    return <QueryError error={query.error} />;
  }
  const report = query.data;
  if (!report) {
    return (
      <p className="rounded-lg border p-4 text-muted-foreground text-sm">
        Once you send a request about this report, it is shown here as its readers see it.
      </p>
    );
  }
  const redacted = new Set(report.redacted_fields);
  const value = (field: string, text: string | null) =>
    redacted.has(field) ? 'Removed by the reviewers' : (text ?? 'Not given');
  const label = (field: string) => REDACTABLE_FIELDS.find(([key]) => key === field)?.[1] ?? field;
  return (
    <section
      aria-labelledby="answered-heading"
      className="rounded-xl border p-4"
      data-testid="answered-report"
    >
      <h2 id="answered-heading" className="font-semibold text-lg">
        The report you are answering: {report.scammer_name}
      </h2>
      <p className="text-muted-foreground text-sm">
        As its readers see it. <ReportedLine report={report} />
      </p>
      {report.public_summary ? (
        <div className="mt-3 rounded-lg border-primary border-l-4 bg-primary/5 p-3">
          <h3 className="font-medium text-sm">Summary by HighGrade's reviewers</h3>
          <p className="mt-1 whitespace-pre-line text-sm">{report.public_summary}</p>
        </div>
      ) : null}
      <h3 className="mt-4 font-medium text-sm">The member's account</h3>
      <dl className="mt-2 grid gap-2 text-sm sm:grid-cols-2">
        {(
          [
            ['business_name', report.business_name],
            ['location', report.location],
            ['amount_scammed', formatAmount(report.amount_scammed)],
            ['date_of_incident', report.date_of_incident ? formatDay(report.date_of_incident) : null],
            ['contact_info', report.contact_info],
            ['scammer_description', report.scammer_description],
            ['incident_details', report.incident_details],
          ] as const
        ).map(([field, text]) => (
          <div
            key={field}
            className={field.endsWith('details') || field === 'scammer_description' ? 'sm:col-span-2' : ''}
          >
            <dt className="text-muted-foreground text-xs uppercase tracking-wide">{label(field)}</dt>
            <dd className="whitespace-pre-line">{value(field, text)}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
