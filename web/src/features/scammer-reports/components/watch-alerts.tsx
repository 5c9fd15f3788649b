import { useQuery } from '@tanstack/react-query';
import { BellRing, X } from 'lucide-react';
import { Button } from '#web/components/ui/button.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { NativeSelect } from '#web/components/ui/native-select.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { useConfirmedUserId } from '#web/lib/auth/hooks/use-auth.ts';
import { errorText } from '#web/lib/error-text.ts';
import { useForm } from '#web/lib/use-form.ts';
import { useAddWatch } from '../api/add-watch.ts';
import { WATCH_KINDS, type WatchKind, watchesQueryOptions } from '../api/get-watches.ts';
import { useRemoveWatch } from '../api/remove-watch.ts';
import { QueryError } from './query-error.tsx';

const LABELS = Object.fromEntries(WATCH_KINDS) as Record<WatchKind, string>;

interface WatchValues {
  kind: WatchKind;
  value: string;
}

const NEW_WATCH: WatchValues = { kind: 'name', value: '' };

/** Product §scammer-database watch alerts: told in the bell and by mail when a matching report is published. */
export function WatchAlerts() {
  const userId = useConfirmedUserId();
  const watches = useQuery(watchesQueryOptions(userId));
  const add = useAddWatch();
  const remove = useRemoveWatch();
  const form = useForm<WatchValues>(NEW_WATCH, { maxLength: { value: 200 } });
  const kind = form.field('kind');
  const value = form.field('value');
  const error = form.errors.value;

  const onSubmit = form.handleSubmit(async (values) => {
    const text = values.value.trim();
    if (form.showErrors({ value: text.length < 2 ? 'Enter at least 2 characters.' : null })) return;
    try {
      await add.mutateAsync({ kind: values.kind, value: text });
      // The kind stays, for the next watch of the same sort.
      form.setValues({ ...values, value: '' });
    } catch (failure) {
      form.showErrors({ value: errorText(failure) });
    }
  });

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
        ref={form.ref}
        aria-label="Add a watch"
        className="mt-3 flex flex-col gap-3 sm:flex-row sm:items-end"
        onSubmit={onSubmit}
      >
        <div className="grid gap-1.5">
          <Label htmlFor="watch-kind">Watch a</Label>
          <NativeSelect id="watch-kind" value={kind.value} onChange={kind.onChange}>
            {WATCH_KINDS.map(([key, label]) => (
              <option key={key} value={key}>
                {label}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="grid flex-1 gap-1.5">
          <Label htmlFor="watch-value">{LABELS[form.values.kind]} to watch</Label>
          <Input
            id="watch-value"
            maxLength={value.maxLength}
            value={value.value}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'watch-error' : undefined}
            onChange={value.onChange}
          />
        </div>
        <Button type="submit" disabled={form.busy}>
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
        <QueryError error={watches.error} className="mt-3 text-sm" />
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
