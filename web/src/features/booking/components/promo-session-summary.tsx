import { BOOKING_TIME_ZONE_LABEL } from '../booking.ts';

/**
 * What a promo session is and what it costs, before anyone fills in the form (issue 34, decision 166).
 * HighGrade takes no payment for sessions on this site, so the page says exactly that rather than a
 * price it cannot charge.
 */
export function PromoSessionSummary() {
  return (
    <section
      aria-labelledby="promo-session-what"
      className="mx-auto mt-8 max-w-2xl rounded-lg border bg-card p-5 text-left text-sm"
      data-testid="promo-session-summary"
    >
      <h2 id="promo-session-what" className="font-semibold text-base">
        What is a promo session?
      </h2>
      <p className="mt-2">
        A 30-minute live session in which you present one product to the HighGrade community, hosted by our
        team. Pick a half-hour slot ({BOOKING_TIME_ZONE_LABEL}); we confirm or decline by email
        {' — '}members also get a notification.
      </p>
      <p className="mt-2">
        <strong>Cost: free to request.</strong> A request commits you to nothing and HighGrade takes no
        payment on this site. If a session would carry a fee, our team tells you before confirming it, and you
        can still say no.
      </p>
    </section>
  );
}
