/**
 * The Phoenix wire formats realtime-js speaks (node_modules/@supabase/realtime-js/dist/module/lib/
 * serializer.js and @supabase/phoenix): `vsn=1.0.0` sends JSON objects `{topic, event, payload, ref}`;
 * `vsn=2.0.0` (realtime-js' default) sends JSON arrays `[join_ref, ref, topic, event, payload]` plus two
 * binary frames for broadcasts: kind 3 "user broadcast push" from the client and kind 4 "user
 * broadcast" to the client, which carry the user's event name and an opaque JSON or binary payload.
 */

export type Vsn = '1.0.0' | '2.0.0';
export const VSN_1: Vsn = '1.0.0';
export const VSN_2: Vsn = '2.0.0';

export type JsonObject = Record<string, unknown>;

/** A text frame: a Phoenix message. */
export interface Message {
  joinRef: string | null;
  ref: string | null;
  topic: string;
  event: string;
  payload: JsonObject;
}

export type PayloadEncoding = 'json' | 'binary';

/** A broadcast the client sent as a binary frame (realtime-js 2.0.0 does for every broadcast). */
export interface UserBroadcastPush {
  joinRef: string | null;
  ref: string | null;
  topic: string;
  /** The user's event name (`channel.send({type: 'broadcast', event})`). */
  userEvent: string;
  encoding: PayloadEncoding;
  /** The user's payload bytes: UTF-8 JSON text or opaque bytes. */
  payload: Buffer;
  metadata: JsonObject | null;
}

export type Decoded =
  | { kind: 'message'; message: Message }
  | { kind: 'user_broadcast'; push: UserBroadcastPush }
  | { kind: 'malformed'; reason: string; ref: string | null; topic: string | null };

const KIND_PUSH = 0;
const KIND_USER_BROADCAST_PUSH = 3;
const KIND_USER_BROADCAST = 4;
const JSON_ENCODING = 1;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Refs are strings in realtime-js; other clients send numbers. Anything else is not a ref. */
function refOf(value: unknown): string | null | undefined {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

function malformed(reason: string, ref: unknown = null, topic: unknown = null): Decoded {
  return {
    kind: 'malformed',
    reason,
    ref: refOf(ref) ?? null,
    topic: typeof topic === 'string' ? topic : null,
  };
}

function shape(fields: {
  joinRef: unknown;
  ref: unknown;
  topic: unknown;
  event: unknown;
  payload: unknown;
}): Decoded {
  const joinRef = refOf(fields.joinRef);
  const ref = refOf(fields.ref);
  if (ref === undefined) return malformed('ref must be a string or null');
  if (joinRef === undefined) return malformed('join_ref must be a string or null', ref);
  if (typeof fields.topic !== 'string') return malformed('topic must be a string', ref);
  if (typeof fields.event !== 'string' || fields.event === '') {
    return malformed('event must be a non-empty string', ref, fields.topic);
  }
  if (!isObject(fields.payload)) return malformed('payload must be a JSON object', ref, fields.topic);
  return {
    kind: 'message',
    message: { joinRef, ref, topic: fields.topic, event: fields.event, payload: fields.payload },
  };
}

function decodeText(text: string, vsn: Vsn): Decoded {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return malformed('the frame is not valid JSON');
  }
  if (vsn === VSN_2) {
    if (!Array.isArray(parsed) || parsed.length < 5) {
      return malformed('expected a V2 array [join_ref, ref, topic, event, payload]');
    }
    const [joinRef, ref, topic, event, payload] = parsed;
    return shape({ joinRef, ref, topic, event, payload });
  }
  if (!isObject(parsed)) return malformed('expected a V1 object {topic, event, payload, ref}');
  return shape({
    joinRef: parsed.join_ref,
    ref: parsed.ref,
    topic: parsed.topic,
    event: parsed.event,
    payload: parsed.payload,
  });
}

function decodeBinary(frame: Buffer): Decoded {
  if (frame.length < 1) return malformed('empty binary frame');
  const kind = frame[0];
  if (kind === KIND_USER_BROADCAST_PUSH) {
    if (frame.length < 7) return malformed('truncated binary broadcast header');
    const sizes = [frame[1], frame[2], frame[3], frame[4], frame[5]] as number[];
    const encoding = frame[6];
    let offset = 7;
    const parts: string[] = [];
    for (const size of sizes) {
      if (offset + size > frame.length) return malformed('binary broadcast header exceeds the frame');
      parts.push(frame.toString('utf8', offset, offset + size));
      offset += size;
    }
    const [joinRef, ref, topic, userEvent, metadataText] = parts as [string, string, string, string, string];
    if (encoding !== 0 && encoding !== JSON_ENCODING) {
      return malformed('unknown binary broadcast payload encoding', ref, topic);
    }
    let metadata: JsonObject | null = null;
    if (metadataText !== '') {
      try {
        const value: unknown = JSON.parse(metadataText);
        if (!isObject(value)) throw new Error('not an object');
        metadata = value;
      } catch {
        return malformed('binary broadcast metadata must be a JSON object', ref, topic);
      }
    }
    return {
      kind: 'user_broadcast',
      push: {
        joinRef: joinRef === '' ? null : joinRef,
        ref: ref === '' ? null : ref,
        topic,
        userEvent,
        encoding: encoding === JSON_ENCODING ? 'json' : 'binary',
        payload: frame.subarray(offset),
        metadata,
      },
    };
  }
  if (kind === KIND_PUSH) return malformed('binary pushes are only accepted for broadcasts (kind 3)');
  return malformed(`unknown binary message kind ${kind}`);
}

/** Decodes one websocket frame of a connection speaking `vsn`. Never throws. */
export function decode(data: Buffer, isBinary: boolean, vsn: Vsn): Decoded {
  if (isBinary) {
    if (vsn !== VSN_2) return malformed('binary frames need vsn=2.0.0');
    return decodeBinary(data);
  }
  return decodeText(data.toString('utf8'), vsn);
}

/**
 * Encodes a message whose payload is already JSON text, so a payload shared by many subscribers is
 * serialised once and only the envelope differs per recipient.
 */
export function encodeRaw(
  vsn: Vsn,
  joinRef: string | null,
  ref: string | null,
  topic: string,
  event: string,
  payloadJson: string,
): string {
  if (vsn === VSN_2) {
    return `[${JSON.stringify(joinRef)},${JSON.stringify(ref)},${JSON.stringify(topic)},${JSON.stringify(event)},${payloadJson}]`;
  }
  return `{"topic":${JSON.stringify(topic)},"event":${JSON.stringify(event)},"payload":${payloadJson},"ref":${JSON.stringify(ref)}}`;
}

export function encode(vsn: Vsn, message: Message): string {
  return encodeRaw(
    vsn,
    message.joinRef,
    message.ref,
    message.topic,
    message.event,
    JSON.stringify(message.payload),
  );
}

/** Kind 4 frame: a broadcast to a 2.0.0 client, keeping the sender's payload bytes untouched. */
export function encodeUserBroadcast(
  topic: string,
  userEvent: string,
  encoding: PayloadEncoding,
  payload: Buffer,
  metadata: JsonObject | null,
): Buffer | null {
  const topicBytes = Buffer.from(topic, 'utf8');
  const eventBytes = Buffer.from(userEvent, 'utf8');
  const metaBytes = Buffer.from(metadata ? JSON.stringify(metadata) : '', 'utf8');
  if (topicBytes.length > 255 || eventBytes.length > 255 || metaBytes.length > 255) return null;
  const header = Buffer.from([
    KIND_USER_BROADCAST,
    topicBytes.length,
    eventBytes.length,
    metaBytes.length,
    encoding === 'json' ? JSON_ENCODING : 0,
  ]);
  return Buffer.concat([header, topicBytes, eventBytes, metaBytes, payload]);
}
