import { useQuery } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import { cloneElement, useState } from 'react';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { ConfirmButton } from '#web/components/ui/confirm-button.tsx';
import { FieldError } from '#web/components/ui/form-field.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { NativeSelect } from '#web/components/ui/native-select.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { Textarea } from '#web/components/ui/textarea.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { errorText } from '#web/lib/error-text.ts';
import { useFieldRefusal } from '#web/lib/use-form.ts';
import { type BrandLicence, stateName, US_STATES } from '../types.ts';
import { type LicenceInput, licencesQueryOptions, useLicenceWrite } from './admin-api.ts';
import { RecheckNote, ShownVerification } from './shown-verification.tsx';
import { VerificationSelect } from './verification-select.tsx';

const EMPTY: LicenceInput = {
  number: '',
  state: '',
  type: null,
  expires_on: null,
  verification: 'unverified',
  verified_at: null,
  verification_note: null,
  is_primary: false,
};
/** The licence's columns and the keys of the inputs that write them, so a refusal shows at its field. */
const LICENCE_INPUTS: Record<string, string> = {
  number: 'number',
  state: 'state',
  type: 'type',
  expires_on: 'expires',
  verification: 'status',
  verified_at: 'date',
  verification_note: 'note',
};
const COLUMN_OF_INPUT = Object.fromEntries(Object.entries(LICENCE_INPUTS).map(([c, k]) => [k, c]));
const orNull = (value: string) => (value.trim() === '' ? null : value.trim());
const today = () => new Date().toISOString().slice(0, 10);

/** Adds or edits one licence: number, issuing state, type, expiry and its verification. */
function LicenceForm({
  brandId,
  initial,
  onDone,
}: {
  brandId: string;
  initial: BrandLicence | null;
  onDone: () => void;
}) {
  const [values, setValues] = useState<LicenceInput>(() => {
    if (!initial) return EMPTY;
    const { id: _id, shown_verification: _shown, ...rest } = initial;
    return rest;
  });
  const [problem, setProblem] = useState<string | null>(null);
  const write = useLicenceWrite();
  const set = (patch: Partial<LicenceInput>) => {
    setValues((current) => ({ ...current, ...patch }));
    refusal.clear();
  };
  const id = initial ? `licence-${initial.id}` : 'licence-new';
  const title = initial ? `Edit licence ${initial.state} ${initial.number}` : 'Add a licence';
  // The database's refusal at the field it concerns (decision 180): each column and its input's key.
  const refusal = useFieldRefusal(
    Object.fromEntries(Object.entries(LICENCE_INPUTS).map(([column, key]) => [column, `${id}-${key}`])),
  );

  function submit(event: React.FormEvent) {
    event.preventDefault();
    if (!values.number.trim() || !values.state)
      return setProblem('A licence needs its number and issuing state.');
    if (values.verification === 'verified' && (values.verification_note ?? '').trim().length < 3)
      return setProblem('A verified licence needs the verification date and an evidence note.');
    const input: LicenceInput = {
      ...values,
      number: values.number.trim(),
      verified_at:
        values.verification === 'unverified' ? null : (values.verified_at ?? `${today()}T12:00:00Z`),
    };
    setProblem(null);
    refusal.clear();
    write.mutate(initial ? { kind: 'edit', id: initial.id, input } : { kind: 'add', brandId, input }, {
      onSuccess: () => {
        toast({ title: initial ? 'Licence saved' : 'Licence added' });
        onDone();
      },
      onError: (error) => setProblem(refusal.show(error) ?? errorText(error)),
    });
  }

  const field = (key: string, label: string, input: React.ReactElement<Record<string, unknown>>) => {
    const column = COLUMN_OF_INPUT[key];
    return (
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-${key}`}>{label}</Label>
        {column ? cloneElement(input, refusal.mark(column)) : input}
        {column && refusal.errorFor(column) ? (
          <FieldError id={refusal.errorId(column)} error={refusal.errorFor(column)} />
        ) : null}
      </div>
    );
  };

  return (
    <form onSubmit={submit} aria-label={title} className="grid gap-3 rounded-md border p-3 sm:grid-cols-2">
      <h5 className="font-medium sm:col-span-2">{title}</h5>
      {field(
        'number',
        'Number',
        <Input
          id={`${id}-number`}
          maxLength={64}
          value={values.number}
          onChange={(e) => set({ number: e.target.value })}
        />,
      )}
      {field(
        'state',
        'Issued by',
        <NativeSelect
          id={`${id}-state`}
          value={values.state}
          onChange={(e) => set({ state: e.target.value })}
        >
          <option value="">Choose a state</option>
          {US_STATES.map(([code, name]) => (
            <option key={code} value={code}>
              {name}
            </option>
          ))}
        </NativeSelect>,
      )}
      {field(
        'type',
        'Type',
        <Input
          id={`${id}-type`}
          maxLength={100}
          value={values.type ?? ''}
          onChange={(e) => set({ type: orNull(e.target.value) })}
        />,
      )}
      {field(
        'expires',
        'Expires on',
        <Input
          id={`${id}-expires`}
          type="date"
          value={values.expires_on ?? ''}
          onChange={(e) => set({ expires_on: orNull(e.target.value) })}
        />,
      )}
      {field(
        'status',
        'Status',
        <VerificationSelect
          id={`${id}-status`}
          value={values.verification}
          onChange={(verification) => set({ verification })}
        />,
      )}
      {field(
        'date',
        'Checked on',
        <Input
          id={`${id}-date`}
          type="date"
          max={today()}
          disabled={values.verification === 'unverified'}
          value={values.verified_at ? values.verified_at.slice(0, 10) : ''}
          onChange={(e) => set({ verified_at: e.target.value ? `${e.target.value}T12:00:00Z` : null })}
        />,
      )}
      <div className="sm:col-span-2">
        {field(
          'note',
          'Evidence (what was checked, where)',
          <Textarea
            id={`${id}-note`}
            maxLength={2000}
            rows={2}
            value={values.verification_note ?? ''}
            onChange={(e) => set({ verification_note: orNull(e.target.value) })}
          />,
        )}
      </div>
      {initial ? <RecheckNote shown={initial.shown_verification} checkedAt={initial.verified_at} /> : null}
      {problem ? (
        <p role="alert" className="text-destructive text-sm sm:col-span-2">
          {problem}
        </p>
      ) : null}
      <div className="flex gap-2 sm:col-span-2">
        <Button type="submit" size="sm" disabled={write.isPending}>
          {write.isPending ? 'Saving…' : initial ? 'Save licence' : 'Add licence'}
        </Button>
        <Button type="button" size="sm" variant="outline" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/**
 * Every licence of a brand (decision 151): add, edit, verify (status, date, evidence), set expiry,
 * make primary, remove. The primary licence is the one cards and promotions show.
 */
export function LicencesPanel({ brandId, brandName }: { brandId: string; brandName: string }) {
  const licences = useQuery(licencesQueryOptions(brandId));
  const write = useLicenceWrite();
  const [editing, setEditing] = useState<BrandLicence | 'new' | null>(null);
  const act = (run: Parameters<typeof write.mutateAsync>[0], done: string) =>
    write
      .mutateAsync(run)
      .then(() => toast({ title: done }))
      .catch((error) => toast({ variant: 'destructive', title: 'Not saved', description: errorText(error) }));

  return (
    <section aria-labelledby="licences-heading" className="grid gap-3 rounded-lg border p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h4 id="licences-heading" className="font-semibold">
          Licences of {brandName}
        </h4>
        <Button size="sm" variant="outline" onClick={() => setEditing('new')}>
          <Plus aria-hidden="true" />
          Add a licence
        </Button>
      </div>
      {licences.isPending ? (
        <Skeleton className="h-16" />
      ) : licences.isError ? (
        <p className="text-destructive">{errorText(licences.error)}</p>
      ) : licences.data.length === 0 ? (
        <p className="text-muted-foreground text-sm">No licence on file.</p>
      ) : (
        <ul className="grid gap-2">
          {licences.data.map((licence) => {
            const name = `${licence.state} ${licence.number}`;
            return (
              <li
                key={licence.id}
                className="flex flex-wrap items-center justify-between gap-2 rounded-md border p-2"
                data-testid="admin-licence"
              >
                <div className="flex flex-wrap items-center gap-2 text-sm">
                  <span className="font-medium font-mono">{name}</span>
                  <span className="text-muted-foreground">
                    {stateName(licence.state)}
                    {licence.type ? ` · ${licence.type}` : ''}
                    {licence.expires_on ? ` · expires ${licence.expires_on}` : ''}
                  </span>
                  <ShownVerification
                    verification={licence.verification}
                    shown={licence.shown_verification}
                    checkedAt={licence.verified_at}
                  />
                  {licence.is_primary ? <Badge variant="secondary">Primary</Badge> : null}
                </div>
                <div className="flex flex-wrap gap-2">
                  <Button size="sm" variant="outline" onClick={() => setEditing(licence)}>
                    Edit<span className="sr-only"> licence {name}</span>
                  </Button>
                  {licence.is_primary ? null : (
                    <Button
                      size="sm"
                      variant="outline"
                      disabled={write.isPending}
                      onClick={() =>
                        void act(
                          { kind: 'edit', id: licence.id, input: { is_primary: true } },
                          'Primary licence set',
                        )
                      }
                    >
                      Make primary<span className="sr-only"> licence {name}</span>
                    </Button>
                  )}
                  <ConfirmButton
                    size="sm"
                    variant="outline"
                    title={`Remove licence ${name}?`}
                    description="It disappears from the brand's page. The audit log keeps the record."
                    confirmLabel="Remove licence"
                    destructive
                    onConfirm={() => act({ kind: 'remove', id: licence.id }, 'Licence removed')}
                  >
                    Remove<span className="sr-only"> licence {name}</span>
                  </ConfirmButton>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      {editing ? (
        <LicenceForm
          key={editing === 'new' ? 'new' : editing.id}
          brandId={brandId}
          initial={editing === 'new' ? null : editing}
          onDone={() => setEditing(null)}
        />
      ) : null}
    </section>
  );
}
