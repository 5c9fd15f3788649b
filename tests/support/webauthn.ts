import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';

/**
 * A software WebAuthn authenticator for tests (decision 149): one P-256 credential, "none"
 * attestation, user presence and verification flags, a signature counter. It answers the options a
 * relying party sends (as JSON, or as auth-js hands them over after turning them into ArrayBuffers)
 * with what a browser's PublicKeyCredential would give, including `toJSON()` (WebAuthn Level 3), so
 * auth-js serialises it as it would a real one. Nothing of the server is used or imitated here.
 */

type Bytes = Uint8Array;

function concat(...parts: Bytes[]): Bytes {
  return new Uint8Array(Buffer.concat(parts.map((part) => Buffer.from(part))));
}

function sha256(data: Bytes | string): Bytes {
  return new Uint8Array(createHash('sha256').update(data).digest());
}

const b64url = (bytes: Bytes) => Buffer.from(bytes).toString('base64url');

/** The subset of CBOR (RFC 8949) a COSE key and an attestation object need. */
type Cbor = number | string | Bytes | Cbor[] | Map<number | string, Cbor>;

function head(major: number, length: number): Bytes {
  if (length < 24) return new Uint8Array([(major << 5) | length]);
  if (length < 256) return new Uint8Array([(major << 5) | 24, length]);
  if (length < 65536) return new Uint8Array([(major << 5) | 25, length >> 8, length & 0xff]);
  const out = Buffer.alloc(5);
  out[0] = (major << 5) | 26;
  out.writeUInt32BE(length, 1);
  return new Uint8Array(out);
}

export function encodeCbor(value: Cbor): Bytes {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const bytes = new Uint8Array(Buffer.from(value, 'utf8'));
    return concat(head(3, bytes.length), bytes);
  }
  if (value instanceof Uint8Array) return concat(head(2, value.length), value);
  if (Array.isArray(value)) return concat(head(4, value.length), ...value.map(encodeCbor));
  const entries = [...value.entries()];
  return concat(head(5, entries.length), ...entries.flatMap(([k, v]) => [encodeCbor(k), encodeCbor(v)]));
}

/** A challenge or id as the relying party's JSON has it (base64url) or as auth-js passes it (ArrayBuffer). */
function bytesOf(value: unknown): Bytes {
  if (typeof value === 'string') return new Uint8Array(Buffer.from(value, 'base64url'));
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  throw new Error('not a byte string');
}

interface PublicKeyOptions {
  challenge: unknown;
  rp?: { id?: string };
  rpId?: string;
  user?: { id?: unknown };
}

export interface SoftwareCredential<T> {
  id: string;
  rawId: string;
  type: 'public-key';
  response: T;
  clientExtensionResults: Record<string, never>;
  authenticatorAttachment: 'cross-platform';
  toJSON(): Omit<SoftwareCredential<T>, 'toJSON'>;
}

function credential<T>(id: Bytes, response: T): SoftwareCredential<T> {
  const json = {
    id: b64url(id),
    rawId: b64url(id),
    type: 'public-key' as const,
    response,
    clientExtensionResults: {},
    authenticatorAttachment: 'cross-platform' as const,
  };
  return { ...json, toJSON: () => json };
}

export class SoftwareAuthenticator {
  readonly credentialId: Bytes = new Uint8Array(randomBytes(32));
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  counter = 0;
  /** The user handle the relying party gave at registration (returned by assertions, as passkeys do). */
  userHandle: Bytes | undefined;

  constructor(private readonly origin: string) {
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = pair.privateKey;
    this.publicKey = pair.publicKey;
  }

  private cosePublicKey(): Bytes {
    const jwk = this.publicKey.export({ format: 'jwk' });
    return encodeCbor(
      new Map<number, Cbor>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, new Uint8Array(Buffer.from(jwk.x as string, 'base64url'))],
        [-3, new Uint8Array(Buffer.from(jwk.y as string, 'base64url'))],
      ]),
    );
  }

  private clientData(type: 'webauthn.create' | 'webauthn.get', challenge: unknown): Bytes {
    return new Uint8Array(
      Buffer.from(
        JSON.stringify({
          type,
          challenge: b64url(bytesOf(challenge)),
          origin: this.origin,
          crossOrigin: false,
        }),
      ),
    );
  }

  private counterBytes(): Bytes {
    const out = Buffer.alloc(4);
    out.writeUInt32BE(this.counter, 0);
    return new Uint8Array(out);
  }

  /** navigator.credentials.create(): a new credential with "none" attestation. */
  create(
    options: PublicKeyOptions,
  ): SoftwareCredential<{ clientDataJSON: string; attestationObject: string; transports: string[] }> {
    const rpId = options.rp?.id as string;
    if (options.user?.id !== undefined) this.userHandle = bytesOf(options.user.id);
    const length = new Uint8Array([this.credentialId.length >> 8, this.credentialId.length & 0xff]);
    const authData = concat(
      sha256(rpId),
      new Uint8Array([0x45]), // UP | UV | AT
      this.counterBytes(),
      new Uint8Array(16), // AAGUID: none
      length,
      this.credentialId,
      this.cosePublicKey(),
    );
    const attestationObject = encodeCbor(
      new Map<string, Cbor>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    return credential(this.credentialId, {
      clientDataJSON: b64url(this.clientData('webauthn.create', options.challenge)),
      attestationObject: b64url(attestationObject),
      transports: ['usb'],
    });
  }

  /** navigator.credentials.get(): an assertion signed with the credential's key. */
  get(
    options: PublicKeyOptions,
    overrides: { rpId?: string } = {},
  ): SoftwareCredential<{
    clientDataJSON: string;
    authenticatorData: string;
    signature: string;
    userHandle?: string;
  }> {
    this.counter += 1;
    const rpId = overrides.rpId ?? (options.rpId as string);
    const authenticatorData = concat(sha256(rpId), new Uint8Array([0x05]), this.counterBytes());
    const clientDataJSON = this.clientData('webauthn.get', options.challenge);
    const signature = sign('sha256', concat(authenticatorData, sha256(clientDataJSON)), this.privateKey);
    return credential(this.credentialId, {
      clientDataJSON: b64url(clientDataJSON),
      authenticatorData: b64url(authenticatorData),
      signature: b64url(new Uint8Array(signature)),
      ...(this.userHandle ? { userHandle: b64url(this.userHandle) } : {}),
    });
  }
}
