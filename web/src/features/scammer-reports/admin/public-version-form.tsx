import { useState } from 'react';
import { Button } from '#web/components/ui/button.tsx';
import { TextareaField } from '#web/components/ui/form-field.tsx';
import { useForm } from '#web/lib/use-form.ts';
import { REDACTABLE_FIELDS, type RedactableField } from '../database.ts';
import type { AdminReport } from './admin-report.ts';
import type { ReviewChange } from './api/review-report.ts';
import type { Mask } from './masks.ts';
import { PublishPreview } from './publish-preview.tsx';
import { publishProblem } from './review.ts';
import type { ReviewStep } from './review-step.ts';

/** The fields the reviewer hides from readers (checkboxes: their own state, beside the form's text). */
function RedactionChoices({
  redacted,
  onChange,
}: {
  redacted: ReadonlySet<RedactableField>;
  onChange: (redacted: Set<RedactableField>) => void;
}) {
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-1 font-medium text-sm">Redact from readers</legend>
      <p className="text-muted-foreground text-xs">
        Hide fields holding personal data such as a third party's home address or ID numbers. The reporter is
        never shown to readers.
      </p>
      <div className="grid gap-2 sm:grid-cols-2">
        {REDACTABLE_FIELDS.map(([field, label]) => (
          <label key={field} className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              className="size-4 accent-primary"
              checked={redacted.has(field)}
              onChange={(event) => {
                const next = new Set(redacted);
                if (event.target.checked) next.add(field);
                else next.delete(field);
                onChange(next);
              }}
            />
            Redact {label.toLowerCase()}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/**
 * What readers get of a report under review or published: the reviewers' summary and the redacted
 * fields; saved, published after a preview (decision 195), released to the queue or taken down.
 */
export function PublicVersionForm({
  report,
  masks,
  redacted,
  onRedacted,
  step,
}: {
  report: AdminReport;
  masks: readonly Mask[];
  redacted: ReadonlySet<RedactableField>;
  onRedacted: (redacted: Set<RedactableField>) => void;
  step: ReviewStep;
}) {
  // The key names the column a refusal concerns (public_summary; decision 180).
  const form = useForm(
    { publicSummary: report.public_summary ?? '' },
    { maxLength: { publicSummary: 2000 } },
  );
  const [previewing, setPreviewing] = useState(false);
  const [masksError, setMasksError] = useState<string | null>(null);
  const summary = form.values.publicSummary.trim();
  const edits = (): ReviewChange => ({
    public_summary: summary || null,
    redacted_fields: REDACTABLE_FIELDS.map(([field]) => field).filter((field) => redacted.has(field)),
  });
  const preview = () => {
    const problem = publishProblem(summary, masks);
    if (problem && 'summary' in problem) {
      form.showErrors({ publicSummary: problem.summary });
      return;
    }
    setMasksError(problem ? problem.masks : null);
    if (problem) document.getElementById('masks-heading')?.scrollIntoView();
    else setPreviewing(true);
  };

  return (
    <>
      <form
        ref={form.ref}
        aria-label="Public version"
        className="grid gap-4 rounded-xl border p-4"
        onSubmit={form.handleSubmit(() => step.run(edits(), 'Changes saved', form.showRefusal))}
      >
        <TextareaField
          id="review-summary"
          label="Public summary"
          rows={4}
          hint="Shown above the report. Write it as the member's account, never as a verdict. Needed to publish."
          {...form.field('publicSummary')}
        />
        <RedactionChoices redacted={redacted} onChange={onRedacted} />
        <div className="flex flex-wrap gap-2">
          <Button type="submit" variant="outline" disabled={step.pending}>
            Save changes
          </Button>
          {report.status === 'under_review' ? (
            <>
              <Button type="button" disabled={step.pending} onClick={preview}>
                Publish…
              </Button>
              <Button
                type="button"
                variant="ghost"
                disabled={step.pending}
                onClick={() => void step.run({ status: 'submitted' }, 'Report released to the queue')}
              >
                Release
              </Button>
            </>
          ) : (
            <Button
              type="button"
              variant="destructive"
              disabled={step.pending}
              onClick={() => void step.run({ status: 'under_review' }, 'Report taken down for review')}
            >
              Take down for review
            </Button>
          )}
        </div>
        {masksError ? (
          <p role="alert" className="text-destructive text-sm dark:text-red-400">
            {masksError}
          </p>
        ) : null}
      </form>
      <PublishPreview
        open={previewing}
        busy={step.pending}
        report={{ ...report, public_summary: summary, redacted_fields: [...redacted] }}
        masks={masks}
        onCancel={() => setPreviewing(false)}
        onConfirm={async () => {
          await step.run({ ...edits(), status: 'published' }, 'Report published', form.showRefusal);
          setPreviewing(false);
        }}
      />
    </>
  );
}
