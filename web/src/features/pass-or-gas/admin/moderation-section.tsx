import { useQuery } from '@tanstack/react-query';
import { Flag, ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { EmptyState } from '#web/components/layout/empty-state.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { errorText } from '#web/lib/error-text.ts';
import { type ModerationItem, moderationQueryOptions } from './api/get-moderation-items.ts';
import { useModerate } from './api/moderate-item.ts';
import { authorLabel } from './author-label.ts';

const ACTIONS: Record<
  ModerationItem['kind'],
  { action: string; label: string; variant: 'default' | 'outline' | 'destructive' }[]
> = {
  comment_report: [
    { action: 'hide', label: 'Hide', variant: 'destructive' },
    { action: 'dismiss', label: 'Dismiss', variant: 'outline' },
  ],
  held_votes: [
    { action: 'release', label: 'Release votes', variant: 'default' },
    { action: 'reject', label: 'Reject votes', variant: 'destructive' },
  ],
};

/** /admin/moderation: reported comments and held votes (product §pass-or-gas, decision 116). Audited. */
export function ModerationSection() {
  const [status, setStatus] = useState<'open' | 'resolved'>('open');
  const items = useQuery(moderationQueryOptions(status));
  const moderate = useModerate();

  function act(item: ModerationItem, action: string, label: string) {
    moderate.mutate(
      { item, action },
      {
        onSuccess: () => toast({ title: `${label}: done` }),
        onError: (error) =>
          toast({ variant: 'destructive', title: 'Not done', description: errorText(error) }),
      },
    );
  }

  return (
    <section aria-labelledby="moderation-heading" className="grid gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id="moderation-heading" className="font-semibold text-xl">
            Moderation
          </h2>
          <p className="text-muted-foreground">
            Reported comments and votes held as a suspected voting ring.
          </p>
        </div>
        <fieldset className="flex gap-1">
          <legend className="sr-only">Show</legend>
          {(['open', 'resolved'] as const).map((value) => (
            <Button
              key={value}
              size="sm"
              variant={status === value ? 'default' : 'outline'}
              aria-pressed={status === value}
              onClick={() => setStatus(value)}
            >
              {value === 'open' ? 'Open' : 'Handled'}
            </Button>
          ))}
        </fieldset>
      </div>
      {items.isPending ? (
        <Skeleton className="h-32" />
      ) : items.isError ? (
        <p className="text-destructive">{errorText(items.error)}</p>
      ) : items.data.length === 0 ? (
        <EmptyState
          icon={ShieldCheck}
          title={status === 'open' ? 'Nothing to review' : 'Nothing handled yet'}
          headingLevel={3}
        >
          {status === 'open' ? 'Reported comments and held votes appear here.' : 'Handled items appear here.'}
        </EmptyState>
      ) : (
        <ul className="grid gap-3">
          {items.data.map((item) => (
            <li key={item.id} className="grid gap-2 rounded-lg border p-4" data-testid="moderation-item">
              <div className="flex flex-wrap items-center gap-2 text-sm">
                <Flag aria-hidden="true" className="size-4 text-destructive" />
                <span className="font-medium">
                  {item.kind === 'comment_report'
                    ? `Comment reported ${item.reports} ${item.reports === 1 ? 'time' : 'times'}`
                    : `${item.votes} held ${item.votes === 1 ? 'vote' : 'votes'}`}
                </span>
                <span className="text-muted-foreground">on</span>
                <Link
                  className="text-primary hover:underline"
                  to={`/pass-or-gas/${encodeURIComponent(item.product_id)}`}
                >
                  {item.product?.name ?? item.product_id}
                </Link>
                {item.resolution ? <span className="text-muted-foreground">— {item.resolution}</span> : null}
              </div>
              {item.comment ? (
                <figure className="space-y-1">
                  <figcaption className="text-sm" data-testid="comment-author">
                    Written by <span className="font-medium">{authorLabel(item.author)}</span>
                  </figcaption>
                  <blockquote className="whitespace-pre-wrap border-l-2 pl-3 text-muted-foreground">
                    {item.comment.content}
                  </blockquote>
                </figure>
              ) : null}
              <div className="flex flex-wrap gap-2">
                {item.status === 'open' ? (
                  ACTIONS[item.kind].map(({ action, label, variant }) => (
                    <Button
                      key={action}
                      size="sm"
                      variant={variant}
                      disabled={moderate.isPending}
                      onClick={() => act(item, action, label)}
                    >
                      {label}
                    </Button>
                  ))
                ) : item.resolution === 'hidden' ? (
                  <Button
                    size="sm"
                    variant="outline"
                    disabled={moderate.isPending}
                    onClick={() => act(item, 'restore', 'Restore')}
                  >
                    Restore
                  </Button>
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
