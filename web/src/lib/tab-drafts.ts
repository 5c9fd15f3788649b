/**
 * Drafts a visitor typed, kept in this tab only (sessionStorage: gone when the tab closes) so that
 * signing in on the way does not lose them (decision 242). Every draft of the tab goes when a member's
 * session ends (lib/auth/session.ts), so nothing typed before waits there for the next person at a
 * shared computer.
 */
const PREFIX = 'highgrade.draft.';

function store(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    return null; // storage refused (privacy settings): nothing is kept
  }
}

export function readTabDraft(name: string): string | null {
  try {
    return store()?.getItem(PREFIX + name) ?? null;
  } catch {
    return null;
  }
}

/** Keeps the draft, or removes it (null). */
export function writeTabDraft(name: string, text: string | null): void {
  try {
    if (text === null) store()?.removeItem(PREFIX + name);
    else store()?.setItem(PREFIX + name, text);
  } catch {
    // full or refused: the draft is simply not kept
  }
}

/** Removes every draft of this tab. */
export function clearTabDrafts(): void {
  const drafts = store();
  if (!drafts) return;
  for (const key of Object.keys(drafts)) if (key.startsWith(PREFIX)) drafts.removeItem(key);
}
