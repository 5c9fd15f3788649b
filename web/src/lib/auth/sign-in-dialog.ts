import { createStore } from '#web/lib/store.ts';

/**
 * Whether the sign-in dialog is open. The root layout shows it; any page may ask for it (the news
 * heart of a visitor), without knowing the auth feature. `used` keeps the dialog's code unloaded until
 * it is first wanted.
 */
export const signInDialogStore = createStore({ open: false, used: false });

export function openSignInDialog(): void {
  signInDialogStore.set({ open: true, used: true });
}
