/**
 * Where the auth service may send a browser back to, as GoTrue decides it (utilities.IsRedirectURLValid):
 * the site itself (same scheme, host and port; any port on loopback), loopback addresses, or a URL
 * matching one of ADDITIONAL_REDIRECT_URLS. Anything else falls back to SITE_URL, so a forged
 * `redirect_to` can never carry tokens to another host.
 *
 * Patterns use GoTrue's glob semantics (gobwas/glob with '.' and '/' as separators): `*` matches
 * within one host label or path segment, `**` across them, `?` one such character, `[abc]`/`[!abc]`
 * a character class, `{a,b}` alternatives and `\` escapes.
 */
export function globToRegExp(pattern: string): RegExp {
  let source = '';
  let inGroup = 0;
  for (let i = 0; i < pattern.length; i += 1) {
    const char = pattern[i] as string;
    if (char === '\\' && i + 1 < pattern.length) {
      i += 1;
      source += escapeRegExp(pattern[i] as string);
    } else if (char === '*') {
      if (pattern[i + 1] === '*') {
        source += '.*';
        i += 1;
      } else {
        source += '[^./]*';
      }
    } else if (char === '?') {
      source += '[^./]';
    } else if (char === '[') {
      const end = pattern.indexOf(']', i + 1);
      if (end === -1) {
        source += '\\[';
        continue;
      }
      let body = pattern.slice(i + 1, end);
      const negate = body.startsWith('!');
      if (negate) body = body.slice(1);
      const escaped = body.replace(/[\\\]^]/g, (c) => `\\${c}`);
      source += negate ? `[^${escaped}]` : `[${escaped}]`;
      i = end;
    } else if (char === '{') {
      inGroup += 1;
      source += '(?:';
    } else if (char === '}' && inGroup > 0) {
      inGroup -= 1;
      source += ')';
    } else if (char === ',' && inGroup > 0) {
      source += '|';
    } else {
      source += escapeRegExp(char);
    }
  }
  source += ')'.repeat(inGroup);
  return new RegExp(`^${source}$`, 's');
}

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

function hasControlOrSpace(value: string): boolean {
  for (let i = 0; i < value.length; i += 1) {
    const code = value.charCodeAt(i);
    if (code <= 0x20 || code === 0x7f) return true;
  }
  return false;
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_NAMES.has(hostname) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

export class RedirectPolicy {
  private readonly site: URL;
  private readonly patterns: RegExp[];

  constructor(
    readonly siteUrl: string,
    additional: string[],
  ) {
    this.site = new URL(siteUrl);
    this.patterns = additional.map(globToRegExp);
  }

  isAllowed(candidate: string): boolean {
    // Control characters and spaces never belong in a URL; browsers strip some of them, which could
    // turn a rejected value into a different, unchecked address.
    if (candidate === '' || candidate.length > 2048 || hasControlOrSpace(candidate)) return false;
    let url: URL;
    try {
      url = new URL(candidate);
    } catch {
      return false;
    }
    // Only URLs that mean exactly what they say: a browser would read backslashes, odd IP spellings
    // or non-ASCII text differently from the pattern match, so anything the URL parser rewrites is
    // refused rather than interpreted.
    const canonical = url.href === candidate || (url.pathname === '/' && url.href === `${candidate}/`);
    if (!canonical || candidate.includes('\\') || url.username || url.password) return false;
    const http = url.protocol === 'http:' || url.protocol === 'https:';
    if (http && url.hostname === this.site.hostname && url.protocol === this.site.protocol) {
      if (url.port === this.site.port || isLoopbackHost(url.hostname)) return true;
    }
    if (http && isLoopbackHost(url.hostname)) return true;
    const withoutFragment = candidate.split('#')[0] as string;
    return this.patterns.some((pattern) => pattern.test(withoutFragment));
  }

  /** The requested target when allowed, else SITE_URL. */
  resolve(candidate: string | undefined): string {
    return candidate && this.isAllowed(candidate) ? candidate : this.siteUrl;
  }
}

function sortedParams(params: Record<string, string>): string {
  return new URLSearchParams(Object.entries(params).sort(([a], [b]) => a.localeCompare(b))).toString();
}

/** `target` with `params` as its fragment (GoTrue's implicit-flow answer: tokens after the `#`). */
export function withFragment(target: string, params: Record<string, string>): string {
  const url = new URL(target);
  url.hash = sortedParams(params);
  return url.toString();
}

/** `target` with `params` added to its query (PKCE flows: `?code=`). */
export function withQuery(target: string, params: Record<string, string>): string {
  const url = new URL(target);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return url.toString();
}

const OAUTH_ERRORS: Record<number, string> = {
  400: 'invalid_request',
  401: 'unauthorized_client',
  403: 'access_denied',
  500: 'server_error',
  503: 'temporarily_unavailable',
};

/** GoTrue's prepErrorRedirectURL: the error in the fragment, and in the query too for PKCE flows. */
export function errorRedirect(
  target: string,
  error: { status: number; code: string; message: string },
  pkce: boolean,
): string {
  const params: Record<string, string> = {
    ...(OAUTH_ERRORS[error.status] ? { error: OAUTH_ERRORS[error.status] as string } : {}),
    error_code: error.code,
    error_description: error.message,
  };
  const url = new URL(target);
  if (pkce) for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  url.hash = sortedParams(params);
  return url.toString();
}
