import { type FormEvent, useEffect, useState } from 'react';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { errorMessageOf } from '#web/lib/error-text.ts';
import { useUpdateProfile } from '../api/update-profile.ts';
import { type Profile, profileUpdateOf } from '../profile-data.ts';

interface ProfileFormProps {
  userId: string;
  profile: Profile | null;
}

/** Spec §2 "Profile Information", §5 "Profile form", §8 "Profile". */
export function ProfileForm({ userId, profile }: ProfileFormProps) {
  const [form, setForm] = useState({ username: '', fullName: '', bio: '' });
  const update = useUpdateProfile(userId);

  useEffect(() => {
    setForm({
      username: profile?.username ?? '',
      fullName: profile?.full_name ?? '',
      bio: profile?.bio ?? '',
    });
  }, [profile?.username, profile?.full_name, profile?.bio]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    try {
      await update.mutateAsync(profileUpdateOf(form));
      toast({ title: 'Profile updated' });
    } catch (error) {
      const code = error && typeof error === 'object' && 'code' in error ? error.code : undefined;
      if (code === '23505' || /duplicate key/i.test(errorMessageOf(error))) {
        toast({
          variant: 'destructive',
          title: 'Username taken',
          description: 'This username is already in use. Please choose another.',
        });
      } else {
        toast({
          variant: 'destructive',
          title: 'Error',
          description: 'Failed to update profile. Please try again.',
        });
      }
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Profile Information</CardTitle>
        <CardDescription>How other members see you.</CardDescription>
      </CardHeader>
      <CardContent>
        <form className="grid gap-4" onSubmit={(event) => void submit(event)}>
          <div className="grid gap-2">
            <Label htmlFor="profile-username">Username</Label>
            <Input
              id="profile-username"
              name="username"
              autoComplete="username"
              maxLength={64}
              value={form.username}
              onChange={(event) => setForm({ ...form, username: event.target.value })}
              aria-describedby="profile-username-hint"
            />
            <p id="profile-username-hint" className="text-muted-foreground text-xs">
              Letters, digits, underscores, dots and dashes.
            </p>
          </div>
          <div className="grid gap-2">
            <Label htmlFor="profile-full-name">Display Name</Label>
            <Input
              id="profile-full-name"
              name="full_name"
              autoComplete="name"
              maxLength={100}
              value={form.fullName}
              onChange={(event) => setForm({ ...form, fullName: event.target.value })}
            />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="profile-bio">Bio</Label>
            <textarea
              id="profile-bio"
              name="bio"
              rows={4}
              maxLength={1000}
              value={form.bio}
              onChange={(event) => setForm({ ...form, bio: event.target.value })}
              className="flex min-h-20 w-full rounded-md border border-input bg-background px-3 py-2 text-base shadow-xs placeholder:text-muted-foreground disabled:cursor-not-allowed disabled:opacity-50 md:text-sm"
            />
          </div>
          <div>
            <Button type="submit" disabled={update.isPending}>
              {update.isPending ? 'Saving...' : 'Save Changes'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
