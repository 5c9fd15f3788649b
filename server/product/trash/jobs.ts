import type { Job } from '../../jobs.ts';
import type { BlobTrash } from './blob-trash.ts';

/** Set-aside blobs of an operation this old belong to a crashed one (decision 072). */
const TRASH_LEASE_SECONDS = 3600;

/** The trash area's scheduled work, started with the functions service's (decision 088). */
export const JOBS: Job<{ deletion: { trash: BlobTrash } }>[] = [
  {
    // Finish what a crashed or failed deletion left behind: at start, and every few minutes.
    name: 'functions: blob trash sweep',
    everyMs: 10 * 60 * 1000,
    atStart: true,
    run: (deps) => deps.deletion.trash.sweep(TRASH_LEASE_SECONDS),
  },
];
