import type { Queryable } from './driver.ts';

/**
 * The one place identifiers are quoted. Values never go through here: they are always bind
 * parameters. Identifiers reaching this function have already been checked against the schema cache
 * (or are our own constants); quoting makes any name safe regardless.
 */
export function quoteIdent(name: string): string {
  if (name.length === 0 || name.includes('\u0000')) {
    throw new TypeError('invalid SQL identifier');
  }
  return `"${name.replaceAll('"', '""')}"`;
}

/** schema.name, each part quoted. */
export function quoteQualified(schema: string, name: string): string {
  return `${quoteIdent(schema)}.${quoteIdent(name)}`;
}

/** The first row of a statement's answer, if any. */
export async function one<T>(tx: Queryable, sql: string, params: unknown[]): Promise<T | undefined> {
  const { rows } = await tx.query<T>(sql, params);
  return rows[0];
}
