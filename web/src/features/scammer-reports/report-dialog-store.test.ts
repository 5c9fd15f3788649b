import { describe, expect, it } from 'vitest';
import {
  closeReportDialog,
  isReportDialogOpen,
  openReportDialog,
  setReportDialogOpen,
  subscribeReportDialog,
} from './report-dialog-store.ts';

describe('report dialog store', () => {
  it('opens and closes, telling subscribers only about changes', () => {
    closeReportDialog();
    const seen: boolean[] = [];
    const unsubscribe = subscribeReportDialog(() => seen.push(isReportDialogOpen()));
    openReportDialog();
    openReportDialog();
    expect(isReportDialogOpen()).toBe(true);
    setReportDialogOpen(false);
    expect(seen).toEqual([true, false]);
    unsubscribe();
    openReportDialog();
    expect(seen).toEqual([true, false]);
    closeReportDialog();
  });
});
