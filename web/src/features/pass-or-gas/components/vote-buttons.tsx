import { ThumbsDown, ThumbsUp } from 'lucide-react';
import { Button } from '#web/components/ui/button.tsx';
import { cn } from '#web/lib/utils.ts';
import { useCastVote } from '../api/cast-vote.ts';
import type { MyVote, RankedProduct, VoteType } from '../types.ts';
import { toastWriteFailed } from './write-failed.ts';

interface VoteButtonsProps {
  product: Pick<RankedProduct, 'id' | 'name' | 'gas' | 'pass' | 'is_sample'>;
  vote: MyVote | undefined;
  signedIn: boolean;
  onSignIn: () => void;
  size?: 'default' | 'sm';
}

function statusNote(vote: MyVote): string | null {
  if (vote.status === 'pending') {
    const from = vote.counts_from ? new Date(vote.counts_from) : null;
    return from
      ? `Your vote is pending: it counts from ${from.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}.`
      : 'Your vote is pending.';
  }
  if (vote.status === 'held') return 'Your vote is held for review.';
  if (vote.status === 'rejected') return 'Your vote was not counted after review.';
  return null;
}

/** Gas and Pass, showing the member's vote; pressing it again takes it back (product §pass-or-gas). */
export function VoteButtons({ product, vote, signedIn, onSignIn, size = 'default' }: VoteButtonsProps) {
  const cast = useCastVote();

  function press(voteType: VoteType) {
    if (!signedIn) {
      onSignIn();
      return;
    }
    cast.mutate(
      { current: vote, productId: product.id, voteType },
      {
        onError: (error) => toastWriteFailed('Vote not saved', error),
      },
    );
  }

  const button = (type: VoteType) => {
    const active = vote?.vote_type === type;
    const Icon = type === 'gas' ? ThumbsUp : ThumbsDown;
    const label = type === 'gas' ? 'Gas' : 'Pass';
    const count = type === 'gas' ? product.gas : product.pass;
    return (
      <Button
        variant={active ? 'default' : 'outline'}
        size={size}
        aria-pressed={active}
        disabled={cast.isPending || product.is_sample}
        onClick={() => press(type)}
        className={cn(
          'flex-1',
          active && type === 'pass' && 'bg-secondary text-secondary-foreground hover:bg-secondary/80',
        )}
        title={active ? `Take back your ${label} vote` : `Vote ${label}`}
      >
        <Icon aria-hidden="true" />
        {label}
        <span className="tabular-nums" data-testid={`${type}-count`}>
          {count}
        </span>
        <span className="sr-only">
          {' '}
          counted {count === 1 ? 'vote' : 'votes'} for {product.name}
          {active ? ' (your vote)' : ''}
        </span>
      </Button>
    );
  };

  // A sample takes no votes (decision 175): the buttons show its counts, disabled, with the reason.
  const note = product.is_sample
    ? 'Sample products cannot be voted on: they are deleted when the first real product is added.'
    : vote
      ? statusNote(vote)
      : null;
  return (
    <div className="grid gap-2">
      <div className="flex gap-2">
        {button('gas')}
        {button('pass')}
      </div>
      {note ? (
        <p className="text-muted-foreground text-xs" role="status">
          {note}
        </p>
      ) : null}
    </div>
  );
}
