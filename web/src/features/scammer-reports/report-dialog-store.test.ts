import { describe, expect, it } from 'vitest';
import { openReportDialog, reportDialogStore, setReportDialogOpen } from './report-dialog-store.ts';

describe('report dialog store', () => {
  it('opens and closes, telling subscribers only about changes', () => {
    setReportDialogOpen(false);
    const seen: boolean[] = [];
    const unsubscribe = reportDialogStore.subscribe(() => seen.push(reportDialogStore.get()));
    openReportDialog();
    openReportDialog();
    expect(reportDialogStore.get()).toBe(true);
    setReportDialogOpen(false);
    expect(seen).toEqual([true, false]);
    unsubscribe();
    openReportDialog();
    expect(seen).toEqual([true, false]);
    setReportDialogOpen(false);
  });
});
