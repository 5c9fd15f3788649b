import { useEffect, useRef, useState } from 'react';
import { readTabDraft, writeTabDraft } from '#web/lib/tab-drafts.ts';
import { type BookingValues, EMPTY_BOOKING } from './booking.ts';

/**
 * What a visitor typed into the booking form, kept in this tab while they sign in (decision 242):
 * signing in goes to `/` (product §auth-form), and the text must not be lost on the way. Written only
 * while nobody is signed in; read back once when the booking page opens; removed once a member's form
 * holds it, when a request is sent, and with every draft of the tab when a session ends
 * (lib/tab-drafts.ts). A member's own typing is never kept.
 */
export const BOOKING_DRAFT = 'booking';

/** The stored draft, or null when there is none or it is not a draft of these fields. */
export function readBookingDraft(stored: string | null): BookingValues | null {
  if (!stored) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(stored);
  } catch {
    return null;
  }
  if (!parsed || typeof parsed !== 'object') return null;
  const draft = { ...EMPTY_BOOKING };
  let typed = false;
  for (const key of Object.keys(EMPTY_BOOKING) as (keyof BookingValues)[]) {
    const value = (parsed as Record<string, unknown>)[key];
    if (typeof value === 'string') {
      draft[key] = value;
      typed ||= value !== '';
    }
  }
  return typed ? draft : null;
}

/** The draft to keep: null (remove it) when nothing is typed. */
export function bookingDraftText(values: BookingValues): string | null {
  return Object.values(values).some((value) => value !== '') ? JSON.stringify(values) : null;
}

/**
 * Restores the tab's draft into the form once, and keeps a visitor's typing. Returns whether a draft was
 * restored (the form says so).
 */
export function useBookingDraft(
  values: BookingValues,
  setValues: (values: BookingValues) => void,
  signedIn: boolean,
): boolean {
  const [restored, setRestored] = useState(false);
  const checked = useRef(false);
  // Once a member used this form, nothing of it is kept, not even after their session ends.
  const memberForm = useRef(false);
  if (signedIn) memberForm.current = true;
  useEffect(() => {
    if (checked.current) return;
    checked.current = true;
    const draft = readBookingDraft(readTabDraft(BOOKING_DRAFT));
    if (!draft) return;
    setValues(draft);
    setRestored(true);
    // A member's form holds it now; a visitor's stays kept until they send it or sign in.
    if (signedIn) writeTabDraft(BOOKING_DRAFT, null);
  }, [setValues, signedIn]);
  useEffect(() => {
    if (!checked.current || memberForm.current) return;
    writeTabDraft(BOOKING_DRAFT, bookingDraftText(values));
  }, [values]);
  return restored;
}
