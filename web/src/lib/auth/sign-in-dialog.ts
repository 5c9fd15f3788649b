import { createStore } from '#web/lib/store.ts';

/**
 * Whether the sign-in dialog is open. The root layout shows it; any page may ask for it (the news
 * heart of a visitor), without knowing the auth feature. `used` keeps the dialog's code unloaded until
 * it is first wanted.
 */
export const signInDialogStore = createStore<{ open: boolean; used: boolean; reason: string | null }>({
  open: false,
  used: false,
  reason: null,
});

/**
 * Opens the dialog; `reason` (what the visitor tried: "Please sign in to submit a scammer report.") is
 * said on its Sign In tab instead of the usual subtitle. Buttons may pass their click event: not a reason.
 */
export function openSignInDialog(reason?: unknown): void {
  signInDialogStore.set({ open: true, used: true, reason: typeof reason === 'string' ? reason : null });
}
