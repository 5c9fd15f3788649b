import { useSyncExternalStore } from 'react';

/**
 * Whether the scammer report dialog is open: the Submit a Tip buttons (top navigation, mobile drawer)
 * open it from outside the feature, the dialog host mounted once in the app shell renders it.
 */
let open = false;
const listeners = new Set<() => void>();

function set(next: boolean): void {
  if (open === next) return;
  open = next;
  for (const listener of listeners) listener();
}

export const openReportDialog = () => set(true);
export const closeReportDialog = () => set(false);
export const setReportDialogOpen = (next: boolean) => set(next);

export const isReportDialogOpen = () => open;

export function subscribeReportDialog(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useReportDialogOpen(): boolean {
  return useSyncExternalStore(subscribeReportDialog, isReportDialogOpen, () => false);
}
