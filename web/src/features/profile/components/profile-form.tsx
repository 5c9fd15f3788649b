import { useEffect } from 'react';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { InputField, TextareaField } from '#web/components/ui/form-field.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { errorMessageOf } from '#web/lib/error-text.ts';
import { useForm } from '#web/lib/use-form.ts';
import { useUpdateProfile } from '../api/update-profile.ts';
import {
  PROFILE_MAX_LENGTH,
  PROFILE_RULES,
  type Profile,
  type ProfileFormValues,
  profileFieldOfError,
  profileFormErrors,
  profileUpdateOf,
} from '../profile-data.ts';

interface ProfileFormProps {
  userId: string;
  profile: Profile | null;
}

/**
 * Product §profile-settings. A value the database would refuse is
 * shown under its field with the rule it broke (product §profile-settings), before and after saving.
 */
export function ProfileForm({ userId, profile }: ProfileFormProps) {
  const form = useForm<ProfileFormValues>(
    { username: '', fullName: '', bio: '' },
    { maxLength: PROFILE_MAX_LENGTH },
  );
  const update = useUpdateProfile();
  const { setValues } = form;

  useEffect(() => {
    setValues({
      username: profile?.username ?? '',
      fullName: profile?.full_name ?? '',
      bio: profile?.bio ?? '',
    });
  }, [setValues, profile?.username, profile?.full_name, profile?.bio]);

  const onSubmit = form.handleSubmit(async (values) => {
    if (form.showErrors(profileFormErrors(values))) return;
    try {
      await update.mutateAsync({ userId, patch: profileUpdateOf(values) });
      toast({ title: 'Profile updated' });
    } catch (error) {
      const message = errorMessageOf(error);
      const code = error && typeof error === 'object' && 'code' in error ? error.code : undefined;
      const field = profileFieldOfError(message);
      if (code === '23505' || /duplicate key/i.test(message)) {
        form.showErrors({ username: 'This username is already in use. Please choose another.' });
        toast({
          variant: 'destructive',
          title: 'Username taken',
          description: 'This username is already in use. Please choose another.',
        });
      } else if (field) {
        form.showErrors({ [field]: PROFILE_RULES[field] });
      } else {
        // A rule of the database at its field (decision 180); "try again" only when retrying can help.
        const note = form.showRefusal(error);
        toast({
          variant: 'destructive',
          title: 'Error',
          description: note ?? 'Failed to update profile. Please try again.',
        });
      }
    }
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle>Profile Information</CardTitle>
        <CardDescription>How other members see you.</CardDescription>
      </CardHeader>
      <CardContent>
        <form ref={form.ref} className="grid gap-4" noValidate onSubmit={(event) => void onSubmit(event)}>
          <InputField
            label="Username"
            autoComplete="username"
            hint="Letters, digits, underscores, dots and dashes."
            {...form.field('username')}
          />
          <InputField label="Display Name" autoComplete="name" {...form.field('fullName')} />
          <TextareaField label="Bio" rows={4} {...form.field('bio')} />
          <div>
            <Button type="submit" disabled={update.isPending || form.busy}>
              {update.isPending ? 'Saving...' : 'Save Changes'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
