import { useQuery } from '@tanstack/react-query';
import { Download, Trash2 } from 'lucide-react';
import { AlertDialog as AlertDialogPrimitive } from 'radix-ui';
import { type ReactNode, useEffect, useId, useState } from 'react';
import {
  AlertDialog,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogTitle,
} from '#web/components/ui/alert-dialog.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { RadioGroup, RadioGroupItem } from '#web/components/ui/radio-group.tsx';
import { Switch } from '#web/components/ui/switch.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { useSignOut } from '#web/lib/auth/hooks/use-sign-out.ts';
import { errorText } from '#web/lib/error-text.ts';
import {
  deleteUserData,
  downloadBlob,
  exportUserData,
  forgetDeletedSession,
  NoSessionError,
} from '../api/data-rights.ts';
import { privacySettingsQueryOptions, useSavePrivacySettings } from '../api/privacy.ts';
import {
  DEFAULT_PRIVACY_SETTINGS,
  exportFileName,
  type PrivacySettings,
  RETENTION_MONTHS,
  VISIBILITY_OPTIONS,
} from '../privacy-settings.ts';

type BooleanSetting = {
  [K in keyof PrivacySettings]: PrivacySettings[K] extends boolean ? K : never;
}[keyof PrivacySettings];

function SettingSwitch(props: {
  id: BooleanSetting;
  label: string;
  description: string;
  settings: PrivacySettings;
  onChange: (patch: Partial<PrivacySettings>) => void;
}) {
  const descriptionId = `${props.id}-description`;
  return (
    <div className="flex items-start justify-between gap-4">
      <div className="grid gap-1">
        <Label htmlFor={props.id}>{props.label}</Label>
        <p id={descriptionId} className="text-muted-foreground text-sm">
          {props.description}
        </p>
      </div>
      <Switch
        id={props.id}
        checked={props.settings[props.id]}
        aria-describedby={descriptionId}
        onCheckedChange={(checked) => props.onChange({ [props.id]: checked })}
      />
    </div>
  );
}

function SectionCard({
  title,
  description,
  children,
}: {
  title: string;
  description: string;
  children: ReactNode;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5">{children}</CardContent>
    </Card>
  );
}

const authRequired = (description: string) =>
  toast({ variant: 'destructive', title: 'Authentication Required', description });

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

function PrivacySettingsForm({ userId, initial }: { userId: string; initial: PrivacySettings }) {
  const signOut = useSignOut();
  const retentionId = useId();
  const [settings, setSettings] = useState<PrivacySettings>(initial);
  const saving = useSavePrivacySettings(userId);
  const [exporting, setExporting] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [confirmOpen, setConfirmOpen] = useState(false);

  const change = (patch: Partial<PrivacySettings>) => setSettings((current) => ({ ...current, ...patch }));

  async function save() {
    try {
      await saving.mutateAsync(settings);
      toast({
        title: 'Privacy Settings Updated',
        description: 'Your privacy preferences have been saved successfully.',
      });
    } catch (error) {
      toast({ variant: 'destructive', title: 'Save Failed', description: errorText(error) });
    }
  }

  async function exportData() {
    setExporting(true);
    try {
      downloadBlob(await exportUserData(), exportFileName(userId));
      toast({ title: 'Data Export Complete', description: 'Your data has been exported successfully.' });
    } catch (error) {
      if (error instanceof NoSessionError) authRequired('Please sign in to export your data.');
      else toast({ variant: 'destructive', title: 'Export Failed', description: errorText(error) });
    } finally {
      setExporting(false);
    }
  }

  async function deleteData() {
    setDeleting(true);
    try {
      const message = await deleteUserData();
      setConfirmOpen(false);
      toast({ title: 'Data Deletion Initiated', description: message });
      // §data-rights: after account deletion the user is signed out (and, as with any sign-out, goes to /).
      await forgetDeletedSession();
      await signOut();
    } catch (error) {
      setConfirmOpen(false);
      if (error instanceof NoSessionError) authRequired('Please sign in to delete your data.');
      else toast({ variant: 'destructive', title: 'Deletion Failed', description: errorText(error) });
    } finally {
      setDeleting(false);
    }
  }

  return (
    <div className="grid gap-6">
      <SectionCard title="Profile Visibility" description="Choose who can see your profile.">
        <RadioGroup
          aria-label="Profile visibility"
          value={settings.profile_visibility}
          onValueChange={(value) =>
            change({ profile_visibility: value as PrivacySettings['profile_visibility'] })
          }
        >
          {VISIBILITY_OPTIONS.map((option) => (
            <div key={option.value} className="flex items-start gap-3">
              <RadioGroupItem
                id={`visibility-${option.value}`}
                value={option.value}
                aria-describedby={`visibility-${option.value}-description`}
                className="mt-0.5"
              />
              <div className="grid gap-1">
                <Label htmlFor={`visibility-${option.value}`}>{option.label}</Label>
                <p id={`visibility-${option.value}-description`} className="text-muted-foreground text-sm">
                  {option.description}
                  {option.hint ? (
                    <>
                      .<span className="block font-medium text-foreground">{option.hint}</span>
                    </>
                  ) : null}
                </p>
              </div>
            </div>
          ))}
        </RadioGroup>
        <SettingSwitch
          id="show_email"
          label="Show email address"
          description="Display your email address on your profile."
          settings={settings}
          onChange={change}
        />
        <SettingSwitch
          id="show_activity"
          label="Show activity"
          description="Let others see your votes, comments and other activity."
          settings={settings}
          onChange={change}
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
          settings={settings}
          onChange={change}
        />
        <SettingSwitch
          id="data_processing_consent"
          label="Data processing consent"
          description="Consent to the processing of your personal data as described in the Privacy Policy."
          settings={settings}
          onChange={change}
        />
      </SectionCard>

      <SectionCard title="Account Retention" description="Decide what happens to an inactive account.">
        <SettingSwitch
          id="auto_delete_inactive"
          label="Delete my account when inactive"
          description="Automatically delete your account after a period without activity."
          settings={settings}
          onChange={change}
        />
        {settings.auto_delete_inactive ? (
          <div className="grid gap-2 sm:max-w-xs">
            <Label htmlFor={retentionId}>Delete after</Label>
            <select
              id={retentionId}
              value={settings.inactive_period_months}
              onChange={(event) => change({ inactive_period_months: Number(event.target.value) })}
              className="h-10 rounded-md border border-input bg-background px-3 text-base shadow-xs md:text-sm"
            >
              {RETENTION_MONTHS.map((months) => (
                <option key={months} value={months}>
                  {months} months
                </option>
              ))}
            </select>
          </div>
        ) : null}
      </SectionCard>

      <SectionCard title="Data Rights (GDPR)" description="Get a copy of your data or delete your account.">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div className="grid gap-1">
            <h4 className="font-medium text-sm">Export your data</h4>
            <p className="text-muted-foreground text-sm">
              Download everything we hold about you as a JSON file.
            </p>
          </div>
          <Button variant="outline" disabled={exporting} onClick={() => void exportData()}>
            <Download aria-hidden="true" />
            {exporting ? 'Exporting...' : 'Export My Data'}
          </Button>
        </div>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div className="grid gap-1">
            <h4 className="font-medium text-sm">Delete your account</h4>
            <p className="text-muted-foreground text-sm">
              Permanently delete your account and all of your data.
            </p>
          </div>
          <AlertDialog open={confirmOpen} onOpenChange={(open) => !deleting && setConfirmOpen(open)}>
            <AlertDialogPrimitive.Trigger asChild>
              <Button variant="destructive">
                <Trash2 aria-hidden="true" />
                Delete My Account
              </Button>
            </AlertDialogPrimitive.Trigger>
            <AlertDialogContent>
              <AlertDialogTitle>Delete your account?</AlertDialogTitle>
              <AlertDialogDescription asChild>
                <div className="grid gap-3 text-muted-foreground text-sm">
                  <p>This will permanently delete:</p>
                  <ul className="list-disc pl-5">
                    <li>Your profile information</li>
                    <li>Your reviews and comments</li>
                    <li>Your bookings and submissions</li>
                    <li>All personal data</li>
                  </ul>
                  <p className="font-medium text-foreground">This action cannot be undone.</p>
                </div>
              </AlertDialogDescription>
              <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
                <AlertDialogPrimitive.Cancel asChild>
                  <Button variant="outline" disabled={deleting}>
                    Cancel
                  </Button>
                </AlertDialogPrimitive.Cancel>
                <Button variant="destructive" disabled={deleting} onClick={() => void deleteData()}>
                  {deleting ? 'Deleting...' : 'Delete Everything'}
                </Button>
              </div>
            </AlertDialogContent>
          </AlertDialog>
        </div>
      </SectionCard>

      <div>
        <Button disabled={saving.isPending} onClick={() => void save()}>
          {saving.isPending ? 'Saving...' : 'Save Settings'}
        </Button>
      </div>
    </div>
  );
}
