import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Link } from 'react-router';
import { ConfirmButton } from '#web/components/ui/confirm-button.tsx';
import { InputField } from '#web/components/ui/form-field.tsx';
import { useForm } from '#web/lib/use-form.ts';
import { formatDay } from '../database.ts';
import type { AdminReport } from './admin-report.ts';
import { mergeTargetsQueryOptions } from './api/find-merge-targets.ts';
import type { ReviewStep } from './review-step.ts';

/** Merge this report, a duplicate, into a published one: it leaves readers' lists (decision 142). */
export function MergeDuplicate({ report, step }: { report: AdminReport; step: ReviewStep }) {
  const headingId = useId();
  const form = useForm({ text: '' }, { maxLength: { text: 100 } });
  const found = useQuery(mergeTargetsQueryOptions(form.values.text, report));
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
            onConfirm={() => step.run({ merged_into: null }, 'Merge undone')}
          >
            Undo the merge
          </ConfirmButton>
        </div>
      </section>
    );
  }
  return (
    <section aria-labelledby={headingId} className="grid gap-2 rounded-xl border p-4">
      <h4 id={headingId} className="font-medium">
        Merge a duplicate
      </h4>
      <p className="text-muted-foreground text-xs">
        When this report tells the same incident as a published one, merge it there: it disappears from
        readers' lists and the reporter is told.
      </p>
      <InputField label="Find the published report" type="search" {...form.field('text')} />
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
                onConfirm={() => step.run({ merged_into: target.id }, 'Merged as a duplicate')}
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
