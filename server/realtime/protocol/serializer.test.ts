import { describe, expect, it } from 'vitest';
import { decode, encode, encodeRaw, encodeUserBroadcast } from './serializer.ts';

const text = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value));

/** realtime-js' kind-3 frame, byte for byte as lib/serializer.js builds it. */
function userBroadcastPush(parts: string[], encoding: number, payload: Buffer): Buffer {
  const bytes = parts.map((part) => Buffer.from(part, 'latin1'));
  return Buffer.concat([Buffer.from([3, ...bytes.map((b) => b.length), encoding]), ...bytes, payload]);
}

describe('decode', () => {
  it('reads 2.0.0 arrays and 1.0.0 objects', () => {
    expect(decode(text([null, '1', 'phoenix', 'heartbeat', {}]), false, '2.0.0')).toEqual({
      kind: 'message',
      message: { joinRef: null, ref: '1', topic: 'phoenix', event: 'heartbeat', payload: {} },
    });
    expect(
      decode(
        text({ topic: 'realtime:a', event: 'phx_join', payload: { config: {} }, ref: 3 }),
        false,
        '1.0.0',
      ),
    ).toEqual({
      kind: 'message',
      message: { joinRef: null, ref: '3', topic: 'realtime:a', event: 'phx_join', payload: { config: {} } },
    });
  });

  it.each([
    ['{', 'the frame is not valid JSON'],
    ['[1,2]', 'expected a V2 array [join_ref, ref, topic, event, payload]'],
    ['{"topic":"t"}', 'expected a V2 array [join_ref, ref, topic, event, payload]'],
    ['[null,{},"t","e",{}]', 'ref must be a string or null'],
    ['[[],"1","t","e",{}]', 'join_ref must be a string or null'],
    ['[null,"1",5,"e",{}]', 'topic must be a string'],
    ['[null,"1","t","",{}]', 'event must be a non-empty string'],
    ['[null,"1","t","e",[]]', 'payload must be a JSON object'],
    ['[null,"1","t","e",null]', 'payload must be a JSON object'],
  ])('reports %s as malformed: %s', (frame, reason) => {
    expect(decode(text(frame), false, '2.0.0')).toMatchObject({ kind: 'malformed', reason });
  });

  it('keeps the ref of a malformed message that has one, so it can be answered', () => {
    expect(decode(text([null, '9', 'realtime:x', 'broadcast', 'nope']), false, '2.0.0')).toEqual({
      kind: 'malformed',
      reason: 'payload must be a JSON object',
      ref: '9',
      topic: 'realtime:x',
    });
  });

  it('reads the kind-3 user broadcast frames realtime-js sends, JSON and binary', () => {
    const json = decode(
      userBroadcastPush(['4', '5', 'realtime:room', 'cursor', ''], 1, text({ x: 1 })),
      true,
      '2.0.0',
    );
    expect(json).toEqual({
      kind: 'user_broadcast',
      push: {
        joinRef: '4',
        ref: '5',
        topic: 'realtime:room',
        userEvent: 'cursor',
        encoding: 'json',
        payload: text({ x: 1 }),
        metadata: null,
      },
    });
    const binary = decode(
      userBroadcastPush(['4', '6', 'realtime:room', 'blob', '{"id":"m"}'], 0, Buffer.from([0, 255])),
      true,
      '2.0.0',
    );
    expect(binary).toMatchObject({
      kind: 'user_broadcast',
      push: { encoding: 'binary', payload: Buffer.from([0, 255]), metadata: { id: 'm' } },
    });
  });

  it.each([
    [Buffer.alloc(0), 'empty binary frame'],
    [Buffer.from([3, 1, 1]), 'truncated binary broadcast header'],
    [Buffer.from([3, 50, 0, 0, 0, 0, 1]), 'binary broadcast header exceeds the frame'],
    [
      userBroadcastPush(['1', '2', 't', 'e', ''], 7, Buffer.alloc(0)),
      'unknown binary broadcast payload encoding',
    ],
    [
      userBroadcastPush(['1', '2', 't', 'e', '[1]'], 1, Buffer.alloc(0)),
      'binary broadcast metadata must be a JSON object',
    ],
    [Buffer.from([0, 0, 0, 0]), 'binary pushes are only accepted for broadcasts (kind 3)'],
    [Buffer.from([2, 1, 1]), 'unknown binary message kind 2'],
  ])('reports binary frame %# as malformed: %s', (frame, reason) => {
    expect(decode(frame, true, '2.0.0')).toMatchObject({ kind: 'malformed', reason });
  });

  it('refuses binary frames on 1.0.0, which has none', () => {
    expect(decode(userBroadcastPush(['', '', 't', 'e', ''], 1, text({})), true, '1.0.0')).toMatchObject({
      kind: 'malformed',
      reason: 'binary frames need vsn=2.0.0',
    });
  });
});

describe('encode', () => {
  it('writes what realtime-js decodes, in both formats', () => {
    const message = {
      joinRef: '1',
      ref: '2',
      topic: 'realtime:a',
      event: 'phx_reply',
      payload: { status: 'ok', response: {} },
    };
    expect(JSON.parse(encode('2.0.0', message))).toEqual([
      '1',
      '2',
      'realtime:a',
      'phx_reply',
      { status: 'ok', response: {} },
    ]);
    expect(JSON.parse(encode('1.0.0', message))).toEqual({
      topic: 'realtime:a',
      event: 'phx_reply',
      payload: { status: 'ok', response: {} },
      ref: '2',
    });
    expect(encodeRaw('2.0.0', null, null, 'realtime:"q"', 'broadcast', '{"a":1}')).toBe(
      '[null,null,"realtime:\\"q\\"","broadcast",{"a":1}]',
    );
  });

  it('writes kind-4 frames as realtime-js decodes them, and declines what does not fit', () => {
    const frame = encodeUserBroadcast('realtime:room', 'cursor', 'json', text({ x: 1 }), {
      id: 'm',
    }) as Buffer;
    expect([...frame.subarray(0, 5)]).toEqual([4, 13, 6, 10, 1]);
    expect(frame.subarray(5, 18).toString()).toBe('realtime:room');
    expect(frame.subarray(18, 24).toString()).toBe('cursor');
    expect(frame.subarray(24, 34).toString()).toBe('{"id":"m"}');
    expect(JSON.parse(frame.subarray(34).toString())).toEqual({ x: 1 });
    expect(encodeUserBroadcast(`realtime:${'x'.repeat(300)}`, 'e', 'json', text({}), null)).toBeNull();
  });
});
