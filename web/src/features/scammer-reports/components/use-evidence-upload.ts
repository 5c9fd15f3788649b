import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorText } from '#web/lib/error-text.ts';
import { attachEvidence } from '../api/attach-evidence.ts';

/**
 * The evidence a member picks for their report, and its upload once the report is stored: the files
 * one after the other, each with its progress; a failed file does not undo the report.
 */
export function useEvidenceUpload() {
  const queryClient = useQueryClient();
  const [files, setFiles] = useState<File[]>([]);
  /** While uploading after the report is stored: each file's progress, 0 to 1. */
  const [progress, setProgress] = useState<number[] | null>(null);

  /** Uploads every picked file to the stored report; resolves the failures, "name: reason". */
  async function upload(reportId: string): Promise<string[]> {
    const failed: string[] = [];
    setProgress(files.map(() => 0));
    for (const [index, file] of files.entries()) {
      try {
        await attachEvidence(reportId, file, (fraction) =>
          setProgress((current) => current?.map((value, i) => (i === index ? fraction : value)) ?? null),
        );
        setProgress((current) => current?.map((value, i) => (i === index ? 1 : value)) ?? null);
      } catch (error) {
        failed.push(`${file.name}: ${errorText(error)}`);
      }
    }
    setProgress(null);
    void queryClient.invalidateQueries({ queryKey: ['scammer-reports', 'mine'] });
    return failed;
  }

  return { files, setFiles, progress, upload };
}
