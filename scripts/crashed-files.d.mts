export const MOST_FILES_RUN_AGAIN: number;
export function filesToRunAgain(
  failures: ReadonlyArray<{ file: string; unfinished?: boolean; errors: ReadonlyArray<string> }>,
): string[];
