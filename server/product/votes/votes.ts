import type { Database } from '../../db/driver.ts';
import { broadcastTallies, setVoteSettings, voteHousekeeping } from './db.ts';

/**
 * Pass or Gas: housekeeping (promotes pending votes, expires ring signals), and the live broadcast
 * of changed tallies (decision 156).
 */
export interface VotesDeps {
  housekeeping(): Promise<number>;
  broadcastTallies(): Promise<number>;
}

/**
 * Writes the vote rules (VOTE_MIN_ACCOUNT_AGE_HOURS, VOTE_RING_DETECTION) where the vote triggers read
 * them, and answers the area's scheduled work.
 */
export async function createVotes(
  db: Database,
  settings: { minAccountAgeHours: number; ringDetection: boolean },
): Promise<VotesDeps> {
  await setVoteSettings(db, settings);
  return {
    housekeeping: () => voteHousekeeping(db),
    broadcastTallies: () => broadcastTallies(db),
  };
}
