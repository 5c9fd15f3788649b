import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '#web/components/ui/button.tsx';

/** While Stripe's confirmation is awaited after Checkout, the access facts are read this often. */
const CONFIRMATION_POLL_MS = 2000;

/** ?checkout=success|cancelled: what Stripe's Checkout sent the member back with. */
export function CheckoutReturn({ subscribed }: { subscribed: boolean }) {
  const [params, setParams] = useSearchParams();
  const queryClient = useQueryClient();
  const state = params.get('checkout');
  const waiting = state === 'success' && !subscribed;
  // Until the webhook has been applied, read the access facts again every few seconds.
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(
      () => void queryClient.invalidateQueries({ queryKey: ['subscription'] }),
      CONFIRMATION_POLL_MS,
    );
    return () => clearInterval(timer);
  }, [waiting, queryClient]);
  if (state !== 'success' && state !== 'cancelled') return null;
  const dismiss = () =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('checkout');
        next.delete('session_id');
        return next;
      },
      { replace: true },
    );
  return (
    <div
      role="status"
      className="flex flex-wrap items-start justify-between gap-3 rounded-md border p-4 text-sm"
    >
      <p>
        {state === 'cancelled'
          ? 'Checkout cancelled — nothing was charged. You can subscribe whenever you like.'
          : subscribed
            ? 'Payment received — your Scammer Network subscription is active.'
            : 'Payment received — waiting for Stripe to confirm it. Your access starts in a moment.'}
      </p>
      <Button variant="ghost" size="sm" onClick={dismiss}>
        Dismiss
      </Button>
    </div>
  );
}
