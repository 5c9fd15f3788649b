import { useQuery } from '@tanstack/react-query';
import { BellRing, X } from 'lucide-react';
import { useState } from 'react';
import { Button } from '#web/components/ui/button.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { NativeSelect } from '#web/components/ui/native-select.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { useConfirmedUserId } from '#web/lib/auth/hooks/use-auth.ts';
import { errorText } from '#web/lib/error-text.ts';
import {
  useAddWatch,
  useRemoveWatch,
  WATCH_KINDS,
  type WatchKind,
  watchesQueryOptions,
} from '../api/watches.ts';

const LABELS = Object.fromEntries(WATCH_KINDS) as Record<WatchKind, string>;

/** Product §scammer-database watch alerts: told in the bell and by mail when a matching report is published. */
export function WatchAlerts() {
  const userId = useConfirmedUserId();
  const watches = useQuery(watchesQueryOptions(userId));
  const add = useAddWatch();
  const remove = useRemoveWatch();
  const [kind, setKind] = useState<WatchKind>('name');
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);

  return (
    <section aria-labelledby="watch-heading" className="mt-12">
      <h2 id="watch-heading" className="flex items-center gap-2 font-semibold text-xl">
        <BellRing aria-hidden="true" className="size-5 text-primary" />
        Watch alerts
      </h2>
      <p className="mt-1 text-muted-foreground text-sm">
        Get a notification and an email when a report is published about a name, business, phone, email or
        website you are dealing with.
      </p>
      <form
        aria-label="Add a watch"
        className="mt-3 flex flex-col gap-3 sm:flex-row sm:items-end"
        onSubmit={(event) => {
          event.preventDefault();
          const text = value.trim();
          if (text.length < 2) {
            setError('Enter at least 2 characters.');
            return;
          }
          setError(null);
          add.mutate(
            { kind, value: text },
            { onSuccess: () => setValue(''), onError: (failure) => setError(errorText(failure)) },
          );
        }}
      >
        <div className="grid gap-1.5">
          <Label htmlFor="watch-kind">Watch a</Label>
          <NativeSelect
            id="watch-kind"
            value={kind}
            onChange={(event) => setKind(event.target.value as WatchKind)}
          >
            {WATCH_KINDS.map(([key, label]) => (
              <option key={key} value={key}>
                {label}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="grid flex-1 gap-1.5">
          <Label htmlFor="watch-value">{LABELS[kind]} to watch</Label>
          <Input
            id="watch-value"
            maxLength={200}
            value={value}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'watch-error' : undefined}
            onChange={(event) => setValue(event.target.value)}
          />
        </div>
        <Button type="submit" disabled={add.isPending}>
          Watch
        </Button>
      </form>
      {error ? (
        <p id="watch-error" role="alert" className="mt-2 text-destructive text-sm dark:text-red-400">
          {error}
        </p>
      ) : null}
      {watches.isPending ? (
        <Skeleton className="mt-3 h-10" />
      ) : watches.isError ? (
        <p role="alert" className="mt-3 text-destructive text-sm dark:text-red-400">
          {errorText(watches.error)}
        </p>
      ) : watches.data.length === 0 ? (
        <p className="mt-3 text-muted-foreground text-sm">You are not watching anything yet.</p>
      ) : (
        <ul aria-label="Your watches" className="mt-3 flex flex-wrap gap-2">
          {watches.data.map((watch) => (
            <li key={watch.id} className="flex items-center gap-1 rounded-full border py-1 pr-1 pl-3 text-sm">
              <span className="text-muted-foreground">{LABELS[watch.kind]}:</span> {watch.value}
              <Button
                variant="ghost"
                size="icon"
                className="size-7 rounded-full"
                aria-label={`Stop watching ${watch.value}`}
                disabled={remove.isPending}
                onClick={() => remove.mutate(watch.id)}
              >
                <X aria-hidden="true" />
              </Button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
