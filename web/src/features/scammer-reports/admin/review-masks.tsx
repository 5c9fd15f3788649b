import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { errorText } from '#web/lib/error-text.ts';
import type { AdminReport } from './admin-report.ts';
import { useDecideMask } from './api/decide-mask.ts';
import { fieldText, MaskForm } from './mask-form.tsx';
import { KIND_LABELS, MASKABLE_FIELDS, type Mask, type MaskableField, pieces, spanText } from './masks.ts';

const LABELS: Record<MaskableField, string> = Object.fromEntries(MASKABLE_FIELDS) as Record<
  MaskableField,
  string
>;

/**
 * A field's text as the reviewer sees it (decision 197): everything readable, each masked or proposed
 * span marked (readers get "[removed by the reviewers]" there), unmasked spans plain.
 */
export function MaskedFieldText({
  text,
  masks,
  field,
}: {
  text: string;
  masks: readonly Mask[];
  field: MaskableField;
}) {
  return (
    <>
      {pieces(text, masks, field).map((piece, index) =>
        piece.mask && piece.mask.state !== 'unmasked' ? (
          <mark
            // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of one text, in order
            key={index}
            // No padding or border: the masks arrive after the text, and marking a span must not
            // move a line (a button below it moved under a reviewer's click). The ring is drawn
            // outside the layout.
            className="rounded-sm bg-amber-200 text-foreground ring-1 ring-amber-200 dark:bg-amber-800 dark:text-white dark:ring-amber-800"
          >
            {piece.text}
            <span className="sr-only">
              {piece.mask.state === 'proposed' ? ' (proposed mask)' : ' (masked from readers)'}
            </span>
          </mark>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of one text, in order
          <span key={index}>{piece.text}</span>
        ),
      )}
    </>
  );
}

/**
 * Masked spans of the report's text: the database's proposals (phone numbers, email addresses, street
 * addresses) to keep or unmask — publishing waits for every one — the decided spans, reversible, and a
 * form to mask a span by hand (select it in the text, or give its first and last characters).
 */
export function MaskReview({
  report,
  masks,
  pending,
  failed,
}: {
  report: AdminReport;
  masks: readonly Mask[];
  pending: boolean;
  failed: unknown;
}) {
  const decide = useDecideMask(report.id);
  const proposals = masks.filter((mask) => mask.state === 'proposed');
  const decided = masks.filter((mask) => mask.state !== 'proposed');
  const change = (mask: Mask, state: 'masked' | 'unmasked', done: string) =>
    decide.mutate(
      { id: mask.id, state },
      {
        onSuccess: () => toast({ title: done }),
        onError: (error) =>
          toast({ variant: 'destructive', title: 'Could not save', description: errorText(error) }),
      },
    );
  const spanLabel = (mask: Mask) => `${KIND_LABELS[mask.kind]} in ${LABELS[mask.field].toLowerCase()}`;
  return (
    <section aria-labelledby="masks-heading" className="grid gap-3 rounded-xl border p-4">
      <h4 id="masks-heading" className="font-medium">
        Masked text
      </h4>
      <p className="text-muted-foreground text-xs">
        Readers get "[removed by the reviewers]" in place of each marked span; you still read the original. We
        propose phone numbers, email addresses and street addresses we find in every text field, the name and
        the contact details included: keep or unmask each one before publishing (unmask the accused's own
        details, keep a third party's). Search, linked reports and watch alerts ignore every masked part.
      </p>
      {pending ? (
        <Skeleton className="h-16" />
      ) : failed ? (
        <p role="alert" className="text-destructive dark:text-red-400">
          {errorText(failed)}
        </p>
      ) : (
        <>
          <div className="grid gap-2">
            <h5 className="font-medium text-sm">Proposed masks</h5>
            {proposals.length === 0 ? (
              <p className="text-muted-foreground text-sm" data-testid="no-proposals">
                No proposal is waiting for a decision.
              </p>
            ) : (
              <ul aria-label="Proposed masks" className="grid gap-2">
                {proposals.map((mask) => (
                  <li
                    key={mask.id}
                    className="flex flex-wrap items-center gap-2 rounded-lg border p-2 text-sm"
                  >
                    <span className="font-medium">{`${spanLabel(mask)}: `}</span>
                    <mark className="rounded bg-amber-200 px-0.5 text-foreground dark:bg-amber-800 dark:text-white">
                      {spanText(fieldText(report, mask.field), mask)}
                    </mark>
                    <span className="ml-auto flex gap-2">
                      <Button
                        size="sm"
                        disabled={decide.isPending}
                        aria-label={`Keep masked: ${spanText(fieldText(report, mask.field), mask)}`}
                        onClick={() => change(mask, 'masked', 'Kept masked')}
                      >
                        Keep masked
                      </Button>
                      <Button
                        size="sm"
                        variant="outline"
                        disabled={decide.isPending}
                        aria-label={`Unmask: ${spanText(fieldText(report, mask.field), mask)}`}
                        onClick={() => change(mask, 'unmasked', 'Unmasked: readers will see it')}
                      >
                        Unmask
                      </Button>
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </div>
          {decided.length > 0 ? (
            <div className="grid gap-2">
              <h5 className="font-medium text-sm">Decided</h5>
              <ul aria-label="Decided masks" className="grid gap-2">
                {decided.map((mask) => (
                  <li
                    key={mask.id}
                    className="flex flex-wrap items-center gap-2 rounded-lg border p-2 text-sm"
                  >
                    <Badge variant={mask.state === 'masked' ? 'default' : 'outline'}>
                      {mask.state === 'masked' ? 'Masked' : 'Shown'}
                    </Badge>
                    <span>{`${spanLabel(mask)}: `}</span>
                    <span>{spanText(fieldText(report, mask.field), mask)}</span>
                    <Button
                      size="sm"
                      variant="outline"
                      className="ml-auto"
                      disabled={decide.isPending}
                      onClick={() =>
                        mask.state === 'masked'
                          ? change(mask, 'unmasked', 'Unmasked: readers will see it')
                          : change(mask, 'masked', 'Masked again')
                      }
                    >
                      {mask.state === 'masked' ? 'Unmask' : 'Mask again'}
                    </Button>
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          <MaskForm report={report} />
        </>
      )}
    </section>
  );
}
