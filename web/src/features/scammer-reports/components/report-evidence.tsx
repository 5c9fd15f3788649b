import { useQuery } from '@tanstack/react-query';
import { FileText } from 'lucide-react';
import { useConfirmedUserId } from '#web/lib/auth/hooks/use-auth.ts';
import { publishedEvidenceQueryOptions } from '../api/get-published-evidence.ts';
import { ReportSection } from './report-section.tsx';

/** Evidence an admin approved, through links that work for two minutes (decision 141). */
export function ReportEvidence({ id }: { id: string }) {
  const userId = useConfirmedUserId();
  const query = useQuery(publishedEvidenceQueryOptions(userId, id));
  if (query.isSuccess && query.data.length === 0) return null;
  return (
    <ReportSection
      name="evidence"
      title="Evidence"
      intro={
        <p className="text-muted-foreground text-sm">
          Files the reporter provided, checked by the reviewers.
        </p>
      }
      query={query}
      placeholder="h-24"
    >
      {(files) => (
        <ul className="mt-2 grid grid-cols-2 gap-3 sm:grid-cols-3">
          {files.map((file, index) => (
            <li key={file.id} className="overflow-hidden rounded-lg border">
              {file.url === null ? (
                <p className="p-3 text-muted-foreground text-sm">This file is not available.</p>
              ) : file.content_type === 'application/pdf' ? (
                <a
                  href={file.url}
                  target="_blank"
                  rel="noreferrer noopener"
                  className="flex items-center gap-2 p-3 hover:underline"
                >
                  <FileText aria-hidden="true" className="size-5" />
                  Evidence {index + 1} (PDF)
                </a>
              ) : (
                <a href={file.url} target="_blank" rel="noreferrer noopener">
                  <img
                    src={file.url}
                    alt={`Evidence ${index + 1}`}
                    loading="lazy"
                    className="aspect-square w-full object-cover"
                  />
                </a>
              )}
            </li>
          ))}
        </ul>
      )}
    </ReportSection>
  );
}
