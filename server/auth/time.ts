/**
 * The database drivers return timestamps as PostgreSQL's own text (and json_agg as ISO text), in the
 * session's time zone. The API answers in UTC RFC 3339 with microseconds, as GoTrue does.
 */
const PG_TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?(?:(Z)|([+-])(\d{2})(?::?(\d{2}))?(?::?(\d{2}))?)?$/;

export function toIso(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (value instanceof Date) return value.toISOString();
  const match = PG_TIMESTAMP.exec(String(value));
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s, fraction = '', , sign, oh = '0', om = '0', os = '0'] = match;
  const offsetSeconds = sign
    ? (sign === '-' ? -1 : 1) * (Number(oh) * 3600 + Number(om) * 60 + Number(os))
    : 0;
  const utc =
    Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)) - offsetSeconds * 1000;
  const base = new Date(utc).toISOString().slice(0, 19);
  return `${base}.${fraction.padEnd(6, '0')}Z`;
}

/** Seconds since the epoch for a database timestamp (0 when absent). */
export function toEpochSeconds(value: unknown): number {
  const iso = toIso(value);
  return iso ? Math.floor(Date.parse(iso) / 1000) : 0;
}

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
