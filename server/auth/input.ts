import { authErrors } from './errors.ts';

/**
 * Reading request bodies as GoTrue does (Go's json.Unmarshal into a struct of strings): absent and
 * null fields read as empty, a field of the wrong JSON type is `bad_json`. On top, every text is
 * checked for what PostgreSQL cannot store or what would be ambiguous once hashed (NUL characters,
 * unpaired surrogates) and for a maximum length, so odd input is a 400 and never a database error.
 */

type Json = Record<string, unknown>;

const typeName = (value: unknown) =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'array'
      : typeof value === 'object'
        ? 'object'
        : typeof value;

export function isPlainObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Text the database can store and that hashes to what the user typed. */
export function isCleanText(value: string): boolean {
  return !value.includes('\u0000') && !UNPAIRED_SURROGATE.test(value);
}

export class Body {
  private readonly fields: Json;

  constructor(raw: unknown) {
    if (raw === undefined || raw === null || raw === '') {
      this.fields = {};
    } else if (isPlainObject(raw)) {
      this.fields = raw;
    } else {
      throw authErrors.badJson(`json: cannot unmarshal ${typeName(raw)} into an object`);
    }
  }

  has(name: string): boolean {
    return this.fields[name] !== undefined && this.fields[name] !== null;
  }

  /** A text field; '' when absent. `max` counts characters (code points). */
  string(name: string, max = 1024): string {
    const value = this.fields[name];
    if (value === undefined || value === null) return '';
    if (typeof value !== 'string') {
      throw authErrors.badJson(`json: cannot unmarshal ${typeName(value)} into field ${name} of type string`);
    }
    checkText(name, value, max);
    return value;
  }

  bool(name: string): boolean | undefined {
    const value = this.fields[name];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'boolean') {
      throw authErrors.badJson(`json: cannot unmarshal ${typeName(value)} into field ${name} of type bool`);
    }
    return value;
  }

  /** A JSON object field (metadata); undefined when absent. */
  object(name: string, maxBytes = 4096): Json | undefined {
    const value = this.fields[name];
    if (value === undefined || value === null) return undefined;
    if (!isPlainObject(value)) {
      throw authErrors.badJson(`json: cannot unmarshal ${typeName(value)} into field ${name} of type map`);
    }
    checkJsonValue(name, value, maxBytes);
    return value;
  }

  /** The raw value, for fields whose type decides the meaning. */
  raw(name: string): unknown {
    return this.fields[name];
  }
}

export function checkText(name: string, value: string, max: number): void {
  if (!isCleanText(value)) {
    throw authErrors.validation(`${name} must not contain NUL characters or unpaired surrogates`);
  }
  if (value.length > max && [...value].length > max) {
    throw authErrors.validation(`${name} is too long (at most ${max} characters)`);
  }
}

const MAX_DEPTH = 16;

/**
 * Metadata ends up in jsonb and in every access token (a JWT header line), so it must be storable
 * text and stay small: at most `maxBytes` of JSON and `MAX_DEPTH` levels.
 */
export function checkJsonValue(name: string, value: Json, maxBytes: number): void {
  const visit = (node: unknown, depth: number): void => {
    if (depth > MAX_DEPTH) throw authErrors.validation(`${name} is nested too deeply`);
    if (typeof node === 'string') {
      if (!isCleanText(node)) {
        throw authErrors.validation(`${name} must not contain NUL characters or unpaired surrogates`);
      }
    } else if (typeof node === 'number') {
      if (!Number.isFinite(node)) throw authErrors.validation(`${name} contains an invalid number`);
    } else if (Array.isArray(node)) {
      for (const item of node) visit(item, depth + 1);
    } else if (node !== null && typeof node === 'object') {
      for (const [key, item] of Object.entries(node)) {
        if (!isCleanText(key)) {
          throw authErrors.validation(`${name} must not contain NUL characters or unpaired surrogates`);
        }
        visit(item, depth + 1);
      }
    }
  };
  visit(value, 0);
  if (Buffer.byteLength(JSON.stringify(value), 'utf8') > maxBytes) {
    throw authErrors.validation(`${name} is too large (at most ${maxBytes} bytes of JSON)`);
  }
}

/** Query-string values as single strings (repeated parameters: the first). */
export function queryString(query: unknown, name: string, max = 2048): string {
  if (!isPlainObject(query)) return '';
  const raw = query[name];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (typeof value !== 'string') return '';
  checkText(name, value, max);
  return value;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

// An address as GoTrue's checkmail accepts it: local@domain with a dot-separated domain, printable
// ASCII only (no spaces, quotes, angle brackets or control characters), at most 255 characters.
const EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;

/** A lower-cased, validated address, or a GoTrue validation error. */
export function normalizeEmail(raw: string): string {
  const email = raw.trim();
  if (email === '') throw authErrors.emailRequired();
  if (email.length > 255) throw authErrors.validation('An email address is too long');
  if (!EMAIL.test(email) || email.indexOf('@') > 64) throw authErrors.emailInvalid();
  return email.toLowerCase();
}
