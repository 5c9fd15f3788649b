import { describe, expect, it } from 'vitest';
import { leaveDiffs, presenceState, trackDiffs } from './presence.ts';

describe('presence shapes', () => {
  it('group state by key, each meta with its phx_ref', () => {
    expect(
      presenceState([
        { topic: 't', key: 'a', ref: 'r1', meta: { x: 1 } },
        { topic: 't', key: 'a', ref: 'r2', meta: { x: 2 } },
        { topic: 't', key: 'b', ref: 'r3', meta: {} },
      ]),
    ).toEqual({
      a: {
        metas: [
          { x: 1, phx_ref: 'r1' },
          { x: 2, phx_ref: 'r2' },
        ],
      },
      b: { metas: [{ phx_ref: 'r3' }] },
    });
  });

  it('announce a first track as a join, and a re-track as a leave followed by a join', () => {
    expect(trackDiffs('a', 'r1', { x: 1 }, null)).toEqual([
      { joins: { a: { metas: [{ x: 1, phx_ref: 'r1' }] } }, leaves: {} },
    ]);
    expect(trackDiffs('a', 'r2', { x: 2 }, { ref: 'r1', meta: { x: 1 } })).toEqual([
      { joins: {}, leaves: { a: { metas: [{ x: 1, phx_ref: 'r1' }] } } },
      { joins: { a: { metas: [{ x: 2, phx_ref: 'r2' }] } }, leaves: {} },
    ]);
  });

  it('group the leaves of a stopped process by topic', () => {
    const diffs = leaveDiffs([
      { topic: 'public:a', key: 'k', ref: 'r1', meta: {} },
      { topic: 'public:b', key: 'k', ref: 'r2', meta: { y: 1 } },
      { topic: 'public:a', key: 'j', ref: 'r3', meta: {} },
    ]);
    expect([...diffs.keys()]).toEqual(['public:a', 'public:b']);
    expect(diffs.get('public:a')).toEqual({
      joins: {},
      leaves: { k: { metas: [{ phx_ref: 'r1' }] }, j: { metas: [{ phx_ref: 'r3' }] } },
    });
  });
});
