import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Button } from '#web/components/ui/button.tsx';
import { SelectField } from '#web/components/ui/form-field.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { errorText } from '#web/lib/error-text.ts';
import { useForm } from '#web/lib/use-form.ts';
import { privacySettingsQueryOptions } from '../api/get-privacy-settings.ts';
import { useSavePrivacySettings } from '../api/save-privacy-settings.ts';
import {
  DEFAULT_PRIVACY_SETTINGS,
  type PrivacyFormValues,
  type PrivacySettings,
  type PrivacySwitches,
  privacyFormOf,
  privacySettingsFrom,
  RETENTION_MONTHS,
} from '../privacy-settings.ts';
import { DataRightsCard } from './data-rights-card.tsx';
import { SectionCard, SettingSwitch, VisibilityChoice } from './privacy-fields.tsx';

/** Product §privacy, §data-rights. */
export function PrivacySettingsPanel({ userId }: { userId: string }) {
  const query = useQuery(privacySettingsQueryOptions(userId));

  useEffect(() => {
    if (query.error) toast({ variant: 'destructive', title: 'Error', description: errorText(query.error) });
  }, [query.error]);

  if (query.isPending) {
    return (
      <p role="status" className="py-10 text-center text-muted-foreground">
        Loading privacy settings...
      </p>
    );
  }
  // Settings that could not be loaded start from the defaults, as a member who never saved any.
  return <PrivacySettingsForm userId={userId} initial={query.data ?? DEFAULT_PRIVACY_SETTINGS} />;
}

/**
 * The settings as a form (useForm): the visibility and the retention period are its values, the on/off
 * settings are kept beside them. A setting the database refuses is shown at its field (decision 180).
 */
function PrivacySettingsForm({ userId, initial }: { userId: string; initial: PrivacySettings }) {
  const [first] = useState(() => privacyFormOf(initial));
  const form = useForm<PrivacyFormValues>(first.values);
  const [switches, setSwitches] = useState<PrivacySwitches>(first.switches);
  const saving = useSavePrivacySettings(userId);

  const change = (patch: Partial<PrivacySwitches>) => setSwitches((current) => ({ ...current, ...patch }));
  const switchProps = { switches, onChange: change };

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await saving.mutateAsync(privacySettingsFrom(values, switches));
      toast({
        title: 'Privacy Settings Updated',
        description: 'Your privacy preferences have been saved successfully.',
      });
    } catch (error) {
      const note = form.showRefusal(error);
      toast({ variant: 'destructive', title: 'Save Failed', description: note ?? errorText(error) });
    }
  });

  return (
    <form ref={form.ref} className="grid gap-6" noValidate onSubmit={(event) => void onSubmit(event)}>
      <SectionCard title="Profile Visibility" description="Choose who can see your profile.">
        <VisibilityChoice field={form.field('profileVisibility')} />
        <SettingSwitch
          id="show_email"
          label="Show email address"
          description="Display your email address on your profile."
          {...switchProps}
        />
        <SettingSwitch
          id="show_activity"
          label="Show activity"
          description="Let others see your votes, comments and other activity."
          {...switchProps}
        />
      </SectionCard>

      <SectionCard
        title="Data Processing"
        description="Control how your data is used. We run no analytics and no tracking of any kind."
      >
        <SettingSwitch
          id="allow_marketing"
          label="Allow marketing"
          description="Receive news about products, events and offers."
          {...switchProps}
        />
        <SettingSwitch
          id="data_processing_consent"
          label="Data processing consent"
          description="Consent to the processing of your personal data as described in the Privacy Policy."
          {...switchProps}
        />
      </SectionCard>

      <SectionCard title="Account Retention" description="Decide what happens to an inactive account.">
        <SettingSwitch
          id="auto_delete_inactive"
          label="Delete my account when inactive"
          description="Automatically delete your account after a period without activity."
          {...switchProps}
        />
        {switches.auto_delete_inactive ? (
          <SelectField label="Delete after" className="sm:max-w-xs" {...form.field('inactivePeriodMonths')}>
            {RETENTION_MONTHS.map((months) => (
              <option key={months} value={months}>
                {months} months
              </option>
            ))}
          </SelectField>
        ) : null}
      </SectionCard>

      <DataRightsCard userId={userId} />

      <div>
        <Button type="submit" disabled={form.busy}>
          {form.busy ? 'Saving...' : 'Save Settings'}
        </Button>
      </div>
    </form>
  );
}
