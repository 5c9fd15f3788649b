import type { ReactElement } from 'react';
import { Input } from '#web/components/ui/input.tsx';
import { NativeSelect } from '#web/components/ui/native-select.tsx';
import { Textarea } from '#web/components/ui/textarea.tsx';
import type { FieldProps } from '#web/lib/use-form.ts';
import { noonOf, today } from '../brand-input.ts';
import { type ControlProps, ProblemField } from '../components/problem-field.tsx';
import { US_STATES, type Verification } from '../types.ts';
import { RecheckNote } from './shown-verification.tsx';

/** The fields of one licence and its verification, in their order on the form. */
type Part = 'number' | 'state' | 'type' | 'expires' | 'status' | 'checkedOn' | 'evidence';

/** How a form names the fields (its labels and input ids) and whether a field's problem is an alert. */
export interface LicenceWording {
  labels: Record<Part, string>;
  /** The issuing state's empty choice. */
  noState: string;
  ids: Record<Part, string>;
  announce: boolean;
}

/** The brand form's primary licence (columns licence_*, verification…). */
export const BRAND_LICENCE_WORDING: LicenceWording = {
  labels: {
    number: 'Licence number',
    state: 'Issuing state',
    type: 'Licence type',
    expires: 'Licence expires on',
    status: 'Verification',
    checkedOn: 'Verified on',
    evidence: 'Evidence note (what was checked, where)',
  },
  noState: 'Not stated',
  ids: {
    number: 'brand-licence-number',
    state: 'brand-licence-state',
    type: 'brand-licence-type',
    expires: 'brand-licence-expires',
    status: 'brand-verification',
    checkedOn: 'brand-verified-on',
    evidence: 'brand-evidence',
  },
  announce: false,
};

/** One of the licences in the licence panel; `prefix` tells its form's inputs from another's. */
export const licenceWording = (prefix: string): LicenceWording => ({
  labels: {
    number: 'Number',
    state: 'Issued by',
    type: 'Type',
    expires: 'Expires on',
    status: 'Status',
    checkedOn: 'Checked on',
    evidence: 'Evidence (what was checked, where)',
  },
  noState: 'Choose a state',
  ids: {
    number: `${prefix}-number`,
    state: `${prefix}-state`,
    type: `${prefix}-type`,
    expires: `${prefix}-expires`,
    status: `${prefix}-status`,
    checkedOn: `${prefix}-date`,
    evidence: `${prefix}-note`,
  },
  announce: true,
});

/** The check's date field shows the day of the stored timestamp and stores a day as its noon (UTC). */
function asDay(field: FieldProps): FieldProps {
  return {
    ...field,
    value: field.value.slice(0, 10),
    onChange: (event) =>
      field.onChange({ target: { value: event.target.value ? noonOf(event.target.value) : '' } }),
  };
}

/**
 * A licence with its verification as an admin sets it (decisions 151, 207, 212): number, issuing state,
 * type, expiry, status, the date of the check and its evidence; beside a saved one, why visitors no
 * longer see it as verified. The brand form (its primary licence) and the licence panel's form share it.
 */
export function VerificationFields({
  wording,
  fields,
  saved,
}: {
  wording: LicenceWording;
  fields: Record<Part, FieldProps>;
  /** The saved licence's verification as shown, and its check (none on a new one). */
  saved: { shown: Verification | undefined; checkedAt: string | null } | null;
}) {
  const at = (part: Part, control: (props: ControlProps) => ReactElement, className?: string) => (
    <ProblemField
      id={wording.ids[part]}
      label={wording.labels[part]}
      field={part === 'checkedOn' ? asDay(fields[part]) : fields[part]}
      announce={wording.announce}
      className={className}
    >
      {control}
    </ProblemField>
  );
  const text = (props: ControlProps) => <Input {...props} />;
  return (
    <>
      {at('number', text)}
      {at('state', (props) => (
        <NativeSelect {...props}>
          <option value="">{wording.noState}</option>
          {US_STATES.map(([code, name]) => (
            <option key={code} value={code}>
              {name}
            </option>
          ))}
        </NativeSelect>
      ))}
      {at('type', text)}
      {at('expires', (props) => (
        <Input type="date" {...props} />
      ))}
      {/* The status as stored; "due for re-check" is never stored (decision 207). */}
      {at('status', (props) => (
        <NativeSelect {...props}>
          <option value="unverified">Unverified</option>
          <option value="verified">Verified</option>
          <option value="expired">Expired</option>
        </NativeSelect>
      ))}
      {at('checkedOn', (props) => (
        <Input type="date" max={today()} disabled={fields.status.value === 'unverified'} {...props} />
      ))}
      {at(
        'evidence',
        (props) => (
          <Textarea rows={2} {...props} />
        ),
        'sm:col-span-2',
      )}
      {saved ? <RecheckNote shown={saved.shown} checkedAt={saved.checkedAt} /> : null}
    </>
  );
}
