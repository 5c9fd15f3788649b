import { useQuery } from '@tanstack/react-query';
import { KeyRound, Trash2 } from 'lucide-react';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { errorMessageOf } from '#web/lib/error-text.ts';
import { useAddPasskey } from '../api/add-passkey.ts';
import { passkeysQueryOptions } from '../api/get-passkeys.ts';
import { useRemovePasskey } from '../api/remove-passkey.ts';
import { formatDate } from '../profile-data.ts';

/**
 * Product §passkeys: the member's passkeys (sign-in with a fingerprint, face or device PIN), added
 * with the browser's own prompt and removed one by one. The page shows it only when the server
 * offers passkeys and the browser can make them (decision 149).
 */
export function PasskeysCard({ userId }: { userId: string }) {
  const passkeys = useQuery(passkeysQueryOptions(userId));
  const add = useAddPasskey(userId);
  const remove = useRemovePasskey(userId);
  if (passkeys.isError) {
    return (
      <Card className="min-w-0">
        <CardHeader>
          <CardTitle>Passkeys</CardTitle>
          <CardDescription>{errorMessageOf(passkeys.error)}</CardDescription>
        </CardHeader>
      </Card>
    );
  }

  async function addPasskey() {
    try {
      await add.mutateAsync();
      toast({ title: 'Passkey added', description: 'You can now sign in with this passkey.' });
    } catch (error) {
      toast({ variant: 'destructive', title: 'Passkey not added', description: errorMessageOf(error) });
    }
  }

  async function removePasskey(id: string) {
    try {
      await remove.mutateAsync(id);
      toast({ title: 'Passkey removed' });
    } catch (error) {
      toast({ variant: 'destructive', title: 'Passkey not removed', description: errorMessageOf(error) });
    }
  }

  const list = passkeys.data ?? [];
  return (
    // min-w-0: a grid item may shrink to the phone's width (the names truncate instead).
    <Card className="min-w-0">
      <CardHeader>
        <CardTitle>Passkeys</CardTitle>
        <CardDescription>
          Sign in with your fingerprint, face or device PIN instead of your password.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {passkeys.isPending ? (
          <p role="status" className="text-muted-foreground text-sm">
            Loading passkeys...
          </p>
        ) : list.length === 0 ? (
          <p className="text-muted-foreground text-sm">No passkeys yet.</p>
        ) : (
          <ul className="grid min-w-0 gap-2" aria-label="Your passkeys">
            {list.map((passkey) => {
              const name = passkey.friendly_name || `Passkey added ${formatDate(passkey.created_at)}`;
              return (
                <li
                  key={passkey.id}
                  className="flex min-w-0 items-center justify-between gap-3 rounded-md border p-3"
                >
                  <span className="flex min-w-0 items-center gap-2">
                    <KeyRound aria-hidden="true" className="size-4 shrink-0" />
                    <span className="truncate">{name}</span>
                  </span>
                  <Button
                    type="button"
                    variant="outline"
                    size="sm"
                    aria-label={`Remove ${name}`}
                    disabled={remove.isPending}
                    onClick={() => removePasskey(passkey.id)}
                  >
                    <Trash2 aria-hidden="true" />
                    Remove
                  </Button>
                </li>
              );
            })}
          </ul>
        )}
        <div>
          <Button type="button" onClick={addPasskey} disabled={add.isPending || passkeys.isPending}>
            <KeyRound aria-hidden="true" />
            {add.isPending ? 'Adding...' : 'Add a passkey'}
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
