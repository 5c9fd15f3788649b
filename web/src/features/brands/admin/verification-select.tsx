import { NativeSelect } from '#web/components/ui/native-select.tsx';
import type { Verification } from '../types.ts';

/** The verification status of a brand or one of its licences, as an admin sets it. */
export function VerificationSelect({
  id,
  value,
  onChange,
  ...aria
}: {
  id: string;
  value: Verification;
  onChange: (value: Verification) => void;
  'aria-invalid'?: true;
  'aria-describedby'?: string;
}) {
  return (
    <NativeSelect id={id} value={value} onChange={(e) => onChange(e.target.value as Verification)} {...aria}>
      <option value="unverified">Unverified</option>
      <option value="verified">Verified</option>
      <option value="expired">Expired</option>
    </NativeSelect>
  );
}
