import { createStore, useStore } from '#web/lib/store.ts';

/**
 * Whether the scammer report dialog is open: the Submit a Tip buttons (top navigation, mobile drawer)
 * open it from outside the feature, the dialog host mounted once in the app shell renders it.
 */
export const reportDialogStore = createStore(false);

export const openReportDialog = () => reportDialogStore.set(true);
export const setReportDialogOpen = (open: boolean) => reportDialogStore.set(open);

export function useReportDialogOpen(): boolean {
  return useStore(reportDialogStore);
}
