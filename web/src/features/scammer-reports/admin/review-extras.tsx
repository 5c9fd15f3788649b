import { useQuery } from '@tanstack/react-query';
import { FileText } from 'lucide-react';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { ConfirmButton } from '#web/components/ui/confirm-button.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { errorText } from '#web/lib/error-text.ts';
import { adminEvidenceQueryOptions, useApproveEvidence } from '../api/evidence-and-replies.ts';
import { formatDay } from '../database.ts';
import {
  type AdminReport,
  findBrands,
  findMergeTargets,
  getBrand,
  type ReviewChange,
  useReviewReport,
} from './admin-api.ts';

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

async function save(review: ReturnType<typeof useReviewReport>, change: ReviewChange, done: string) {
  try {
    await review.mutateAsync(change);
    toast({ title: done });
  } catch (error) {
    toast({ variant: 'destructive', title: 'Could not save', description: errorText(error) });
  }
}

/** The brand the report is about (public.brands), or none. */
export function BrandLink({ report }: { report: AdminReport }) {
  const review = useReviewReport(report.id);
  const inputId = useId();
  const [text, setText] = useState('');
  const current = useQuery({
    queryKey: ['scammer-reports', 'admin', 'brand', report.brand_id],
    queryFn: () => (report.brand_id ? getBrand(report.brand_id) : null),
  });
  const found = useQuery({
    queryKey: ['scammer-reports', 'admin', 'brand-search', text.trim()],
    queryFn: () => findBrands(text),
    enabled: text.trim().length >= 2,
  });
  return (
    <section aria-labelledby={`${inputId}-heading`} className="grid gap-2 rounded-xl border p-4">
      <h4 id={`${inputId}-heading`} className="font-medium">
        Brand
      </h4>
      <p className="text-sm">
        {report.brand_id === null ? (
          'Not linked to a brand.'
        ) : current.data ? (
          <>
            Linked to{' '}
            <Link to={`/brand-directory/${current.data.slug}`} className="font-medium hover:underline">
              {current.data.name}
            </Link>
          </>
        ) : (
          'Linked to a brand.'
        )}
        {report.brand_id !== null ? (
          <Button
            variant="link"
            size="sm"
            disabled={review.isPending}
            onClick={() => void save(review, { brand_id: null }, 'Brand link removed')}
          >
            Remove the link
          </Button>
        ) : null}
      </p>
      <Label htmlFor={inputId}>Find a brand</Label>
      <Input
        id={inputId}
        type="search"
        value={text}
        maxLength={100}
        onChange={(event) => setText(event.target.value)}
      />
      {found.data && found.data.length > 0 ? (
        <ul className="grid gap-1" aria-label="Brands found">
          {found.data.map((brand) => (
            <li key={brand.id}>
              <Button
                variant="outline"
                size="sm"
                disabled={review.isPending || brand.id === report.brand_id}
                onClick={() => void save(review, { brand_id: brand.id }, `Linked to ${brand.name}`)}
              >
                Link to {brand.name}
              </Button>
            </li>
          ))}
        </ul>
      ) : found.data ? (
        <p className="text-muted-foreground text-sm">No brand by that name.</p>
      ) : null}
    </section>
  );
}

/** Merge this report, a duplicate, into a published one: it leaves readers' lists (decision 142). */
export function MergeDuplicate({ report }: { report: AdminReport }) {
  const review = useReviewReport(report.id);
  const inputId = useId();
  const [text, setText] = useState('');
  const found = useQuery({
    queryKey: ['scammer-reports', 'admin', 'merge-search', report.id, text.trim()],
    queryFn: () => findMergeTargets(text, report.id),
    enabled: text.trim().length >= 2 && report.merged_into === null,
  });
  if (report.merged_into !== null) {
    return (
      <section className="grid gap-2 rounded-xl border p-4" aria-label="Duplicate">
        <p className="text-sm">
          This report is a duplicate, merged into{' '}
          <Link to={`/admin/reports/${report.merged_into}`} className="font-medium hover:underline">
            another report
          </Link>
          : readers do not see it.
        </p>
        <div>
          <ConfirmButton
            variant="outline"
            size="sm"
            title="Undo the merge?"
            description="The report shows to readers again if it is published."
            confirmLabel="Undo the merge"
            onConfirm={() => save(review, { merged_into: null }, 'Merge undone')}
          >
            Undo the merge
          </ConfirmButton>
        </div>
      </section>
    );
  }
  return (
    <section aria-labelledby={`${inputId}-heading`} className="grid gap-2 rounded-xl border p-4">
      <h4 id={`${inputId}-heading`} className="font-medium">
        Merge a duplicate
      </h4>
      <p className="text-muted-foreground text-xs">
        When this report tells the same incident as a published one, merge it there: it disappears from
        readers' lists and the reporter is told.
      </p>
      <Label htmlFor={inputId}>Find the published report</Label>
      <Input
        id={inputId}
        type="search"
        value={text}
        maxLength={100}
        onChange={(event) => setText(event.target.value)}
      />
      {found.data && found.data.length > 0 ? (
        <ul className="grid gap-2" aria-label="Published reports found">
          {found.data.map((target) => (
            <li key={target.id} className="flex flex-wrap items-center gap-2 text-sm">
              <Link to={`/admin/reports/${target.id}`} className="font-medium hover:underline">
                {target.scammer_name}
              </Link>
              {target.business_name ? (
                <span className="text-muted-foreground">{target.business_name}</span>
              ) : null}
              {target.reviewed_at ? (
                <span className="text-muted-foreground text-xs">
                  published {formatDay(target.reviewed_at)}
                </span>
              ) : null}
              <ConfirmButton
                variant="outline"
                size="sm"
                title={`Merge into the report on ${target.scammer_name}?`}
                description="This report disappears from readers' lists; the reporter still sees it in My reports."
                confirmLabel="Merge"
                destructive
                onConfirm={() => save(review, { merged_into: target.id }, 'Merged as a duplicate')}
              >
                Merge into this report
              </ConfirmButton>
            </li>
          ))}
        </ul>
      ) : found.data ? (
        <p className="text-muted-foreground text-sm">No published report by that name.</p>
      ) : null}
    </section>
  );
}
