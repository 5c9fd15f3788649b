import { useQuery } from '@tanstack/react-query';
import { FileText } from 'lucide-react';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { errorText } from '#web/lib/error-text.ts';
import { useApproveEvidence } from './api/approve-evidence.ts';
import { adminEvidenceQueryOptions } from './api/get-admin-evidence.ts';

/** Every evidence file of the report; readers get a file only once approved here (decision 141). */
export function EvidenceReview({ reportId, own = false }: { reportId: string; own?: boolean }) {
  const query = useQuery(adminEvidenceQueryOptions(reportId));
  const approve = useApproveEvidence(reportId);
  return (
    <section aria-labelledby="evidence-review-heading" className="grid gap-2 rounded-xl border p-4">
      <h4 id="evidence-review-heading" className="font-medium">
        Evidence files
      </h4>
      <p className="text-muted-foreground text-xs">
        {own
          ? 'You filed this report, so another admin approves its files (decision 238).'
          : "Approve each file readers may see once the report is published. Do not approve files showing a third party's address, ID documents or other personal data."}
      </p>
      {query.isPending ? (
        <Skeleton className="h-20" />
      ) : query.isError ? (
        <p role="alert" className="text-destructive dark:text-red-400">
          {errorText(query.error)}
        </p>
      ) : query.data.length === 0 ? (
        <p className="text-muted-foreground text-sm">The reporter attached no files.</p>
      ) : (
        <ul className="grid gap-3 sm:grid-cols-2">
          {query.data.map((file) => (
            <li key={file.id} className="grid gap-2 rounded-lg border p-3">
              {file.url === null || !file.cleaned_at ? (
                <p className="text-muted-foreground text-sm">
                  The upload of this file did not finish: it has no copy without metadata, so it cannot be
                  approved.
                </p>
              ) : file.content_type === 'application/pdf' ? (
                <a
                  href={file.url}
                  target="_blank"
                  rel="noreferrer noopener"
                  className="flex items-center gap-2 hover:underline"
                >
                  <FileText aria-hidden="true" className="size-5" />
                  Open the PDF
                </a>
              ) : (
                <a href={file.url} target="_blank" rel="noreferrer noopener">
                  <img
                    src={file.url}
                    alt={`Evidence: ${file.file_name}`}
                    className="max-h-48 rounded object-contain"
                  />
                </a>
              )}
              <p className="text-xs">{file.file_name}</p>
              {file.cleaned_at ? (
                <p className="text-muted-foreground text-xs">
                  Metadata removed (location, camera, author): this is the only copy kept.
                </p>
              ) : null}
              <div className="flex items-center gap-2">
                <Badge variant={file.approved_at ? 'default' : 'outline'}>
                  {file.approved_at ? 'Approved' : 'Not approved'}
                </Badge>
                {own ? null : (
                  <Button
                    size="sm"
                    variant="outline"
                    disabled={approve.isPending || file.url === null || !file.cleaned_at}
                    aria-label={`${file.approved_at ? 'Withdraw approval of' : 'Approve'} ${file.file_name}`}
                    onClick={() =>
                      approve.mutate(
                        { id: file.id, approved: !file.approved_at },
                        {
                          onError: (error) =>
                            toast({
                              variant: 'destructive',
                              title: 'Could not save',
                              description: errorText(error),
                            }),
                        },
                      )
                    }
                  >
                    {file.approved_at ? 'Withdraw approval' : 'Approve'}
                  </Button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
