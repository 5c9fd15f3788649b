import { ShieldAlert } from 'lucide-react';
import { useId } from 'react';
import type { FieldProps } from '#web/lib/use-form.ts';
import { REPORT_RULES_TEXTS, REPORT_TEXTS } from '../report.ts';

/**
 * "Before you submit" (issue 32 part 6, decision 200): what readers will see, who may reply, what to
 * leave out, and the box confirming the report is true (the form's truthConfirmed: 'yes' or '').
 */
export function ReportTruth({ truth }: { truth: FieldProps }) {
  const truthId = useId();
  return (
    <section
      aria-labelledby={`${truthId}-heading`}
      className="grid gap-2 rounded-lg border border-warning/40 bg-warning/10 p-3 text-sm"
    >
      <h3 id={`${truthId}-heading`} className="flex items-center gap-2 font-medium">
        <ShieldAlert aria-hidden="true" className="size-5 shrink-0 text-warning" />
        Before you submit
      </h3>
      <ul className="grid list-disc gap-1 pl-5">
        <li>All reports are reviewed before publication. False reports may result in account suspension.</li>
        <li>{REPORT_RULES_TEXTS.published}</li>
        <li>{REPORT_RULES_TEXTS.reply}</li>
        <li>{REPORT_RULES_TEXTS.thirdParties}</li>
      </ul>
      <div className="grid gap-1">
        <label htmlFor={`${truthId}-box`} className="flex items-start gap-2 font-medium">
          <input
            id={`${truthId}-box`}
            type="checkbox"
            name={truth.name}
            required
            checked={truth.value === 'yes'}
            aria-invalid={truth.error ? true : undefined}
            aria-describedby={truth.error ? `${truthId}-error` : undefined}
            onChange={(event) => truth.onChange({ target: { value: event.target.checked ? 'yes' : '' } })}
            className="mt-0.5 size-4 shrink-0 accent-primary"
          />
          {REPORT_TEXTS.truthLabel}
        </label>
        {truth.error ? (
          <p id={`${truthId}-error`} className="text-destructive text-sm dark:text-red-400">
            {truth.error}
          </p>
        ) : null}
      </div>
    </section>
  );
}
