import type { Readable, Writable } from 'node:stream';

/**
 * Where object bytes live (decision 041): a directory on local disk or an S3-compatible store, behind
 * one small interface. Backends know blobs by an opaque key (the object's version id); object names,
 * buckets and permissions are the database's business, so no name ever becomes a path or a key.
 */
export interface StorageBackend {
  readonly kind: 'file' | 's3';
  /**
   * Starts writing a new blob. Nothing is readable under `key` until `commit()`; `abort()` leaves no
   * trace. The caller streams the bytes into `stream` and ends it.
   */
  startWrite(key: string, info: BlobInfo): Promise<BlobWrite>;
  /** The blob's bytes, or the inclusive range of them; rejects with BlobNotFound when it is missing. */
  read(key: string, range?: ByteRange): Promise<Readable>;
  /** Copies a committed blob to a new key (the new key becomes readable when this resolves). */
  copy(fromKey: string, toKey: string): Promise<void>;
  /** Deletes blobs; keys that do not exist are ignored. */
  remove(keys: string[]): Promise<void>;
  /** Whether a blob exists under the key (for checks and tests; reads never need it). */
  exists(key: string): Promise<boolean>;
  close(): Promise<void>;
}

export interface BlobInfo {
  contentType: string;
  cacheControl: string;
}

export interface ByteRange {
  start: number;
  /** Inclusive. */
  end: number;
}

export interface BlobWrite {
  readonly stream: Writable;
  /** Makes the blob readable under its key. Only after `stream` finished. */
  commit(): Promise<void>;
  /** Discards whatever was written. Safe at any point and more than once; never throws. */
  abort(): Promise<void>;
}

export class BlobNotFound extends Error {
  constructor(key: string) {
    super(`blob ${key} does not exist`);
    this.name = 'BlobNotFound';
  }
}
