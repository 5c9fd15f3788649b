import { randomBytes } from 'node:crypto';
import type { PresenceRow } from './db.ts';

/**
 * Presence in Phoenix.Presence's wire shape, which realtime-js' presence sync understands:
 * `presence_state` is `{key: {metas: [{phx_ref, ...meta}]}}` and `presence_diff` is
 * `{joins: {...}, leaves: {...}}` in the same shape.
 */
export type PresenceMeta = Record<string, unknown> & { phx_ref: string };
export type PresenceMap = Record<string, { metas: PresenceMeta[] }>;
export interface PresenceDiff {
  joins: PresenceMap;
  leaves: PresenceMap;
}

export function newPresenceRef(): string {
  return randomBytes(12).toString('base64url');
}

function add(map: PresenceMap, key: string, meta: PresenceMeta): void {
  const entry = map[key];
  if (entry) entry.metas.push(meta);
  else map[key] = { metas: [meta] };
}

export function presenceState(rows: PresenceRow[]): PresenceMap {
  const state: PresenceMap = {};
  for (const row of rows) add(state, row.key, { ...row.meta, phx_ref: row.ref });
  return state;
}

/**
 * The diffs announcing a track. Re-tracking (an update) is announced as the old meta leaving, then
 * the new one joining, in two diffs: realtime-js' presence sync rewrites the metas it already holds
 * while handling a join, after which a leave in the same diff no longer finds the old meta.
 */
export function trackDiffs(
  key: string,
  ref: string,
  meta: Record<string, unknown>,
  previous: { ref: string; meta: Record<string, unknown> } | null,
): PresenceDiff[] {
  const diffs: PresenceDiff[] = [];
  if (previous) {
    const leave: PresenceDiff = { joins: {}, leaves: {} };
    add(leave.leaves, key, { ...previous.meta, phx_ref: previous.ref });
    diffs.push(leave);
  }
  const join: PresenceDiff = { joins: {}, leaves: {} };
  add(join.joins, key, { ...meta, phx_ref: ref });
  diffs.push(join);
  return diffs;
}

/** Leaves grouped by topic (e.g. of a server process that stopped). */
export function leaveDiffs(rows: PresenceRow[]): Map<string, PresenceDiff> {
  const byTopic = new Map<string, PresenceDiff>();
  for (const row of rows) {
    let diff = byTopic.get(row.topic);
    if (!diff) {
      diff = { joins: {}, leaves: {} };
      byTopic.set(row.topic, diff);
    }
    add(diff.leaves, row.key, { ...row.meta, phx_ref: row.ref });
  }
  return byTopic;
}
