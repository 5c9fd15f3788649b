import { Calendar, DollarSign, MapPin } from 'lucide-react';
import { Link } from 'react-router';
import type { PublishedReport } from '../api/get-published-report.ts';
import { attribution, formatAmount, formatDay } from '../database.ts';

/** One search result (product §scammer-database): who, where, how much, and whose report it is. */
export function ReportCard({ report }: { report: PublishedReport }) {
  const amount = formatAmount(report.amount_scammed);
  return (
    <li className="rounded-xl border bg-card p-4 shadow-xs">
      <h3 className="font-semibold text-lg">
        <Link
          to={`/scammer-database/${report.id}`}
          className="rounded-sm hover:underline focus-visible:outline-2 focus-visible:outline-ring"
        >
          {report.scammer_name}
        </Link>
      </h3>
      {report.business_name ? <p className="text-muted-foreground text-sm">{report.business_name}</p> : null}
      <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm" aria-label="Key facts">
        {report.location ? (
          <li className="flex items-center gap-1">
            <MapPin aria-hidden="true" className="size-4 text-muted-foreground" />
            {report.location}
          </li>
        ) : null}
        {amount ? (
          <li className="flex items-center gap-1">
            <DollarSign aria-hidden="true" className="size-4 text-muted-foreground" />
            <span className="sr-only">Amount: </span>
            {amount}
          </li>
        ) : null}
        {report.date_of_incident ? (
          <li className="flex items-center gap-1">
            <Calendar aria-hidden="true" className="size-4 text-muted-foreground" />
            <span className="sr-only">Incident: </span>
            {formatDay(report.date_of_incident)}
          </li>
        ) : null}
      </ul>
      {report.public_summary ? <p className="mt-2 line-clamp-3 text-sm">{report.public_summary}</p> : null}
      <p className="mt-2 text-muted-foreground text-xs">
        {attribution(report.reported_at, report.reviewed_at)}
      </p>
    </li>
  );
}
