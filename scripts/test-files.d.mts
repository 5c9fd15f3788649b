export const DATABASE_TEST_DIRS: string[];
export const BOTH_MARKER: RegExp;
export function bothDatabasesReason(source: string): string | undefined;
export function databaseTestFiles(
  root: string,
): Array<{ path: string; both: boolean; reason: string | undefined }>;
