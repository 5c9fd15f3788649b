import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useConfirmedUserId } from '#web/lib/auth/hooks/use-auth.ts';
import { linkedReportsQueryOptions } from '../api/get-linked-reports.ts';
import { groupLinks } from '../database.ts';
import { ReportSection } from './report-section.tsx';

/** Product §scammer-database "linked reports": other published reports sharing a contact identifier. */
export function LinkedReports({ id }: { id: string }) {
  const userId = useConfirmedUserId();
  const query = useQuery(linkedReportsQueryOptions(userId, id));
  return (
    <ReportSection
      name="linked"
      title="Linked reports"
      query={query}
      placeholder="h-12"
      empty="No other published report shares these contact details."
    >
      {(rows) => (
        <ul className="mt-2 grid gap-2">
          {groupLinks(rows).map(({ report, identifiers }) => (
            <li key={report.id} className="rounded-lg border p-3">
              <Link to={`/scammer-database/${report.id}`} className="font-medium hover:underline">
                {report.scammer_name}
              </Link>
              {report.business_name ? (
                <span className="text-muted-foreground"> · {report.business_name}</span>
              ) : null}
              <p className="text-muted-foreground text-sm">Shares: {identifiers.join(', ')}</p>
            </li>
          ))}
        </ul>
      )}
    </ReportSection>
  );
}
