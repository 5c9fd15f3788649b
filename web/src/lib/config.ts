/**
 * Run-time configuration. One build serves any deployment: the server inlines this object into
 * index.html (`<script id="app-config" type="application/json">`) and also answers
 * `GET /app-config.json`. Static hosting (vite preview, dev) has neither, so safe defaults apply.
 */
export interface AppConfig {
  /** Base URL of the API (`/auth/v1`, `/rest/v1`, ...). The page's own origin when the server sends null. */
  supabaseUrl: string;
  anonKey: string;
  siteName: string;
  supportEmail: string;
  /** Nonce the Content-Security-Policy allows for `<style>` tags injected at run time. */
  styleNonce: string | null;
  /** Milliseconds without activity after which a member is signed out (product §session: 2 hours). */
  autoSignOutMs: number;
  /** 'stripe' when the server takes card payments, else 'demo' (no payment is taken; decision 131). */
  payments: 'stripe' | 'demo';
}

/** Product §session: auto sign-out after 2 hours. */
export const DEFAULT_AUTO_SIGN_OUT_MS = 2 * 60 * 60 * 1000;

const defaults: AppConfig = {
  supabaseUrl: typeof window === 'undefined' ? 'http://localhost' : window.location.origin,
  anonKey: '',
  siteName: 'HighGrade',
  supportEmail: 'support@highgrade.app',
  styleNonce: null,
  autoSignOutMs: DEFAULT_AUTO_SIGN_OUT_MS,
  payments: 'demo',
};

let current: AppConfig | null = null;

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

function positiveInt(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : undefined;
}

/** Accepts whatever JSON arrived and keeps only well-typed fields, so a bad value never breaks start-up. */
export function parseConfig(raw: unknown): AppConfig {
  const input = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  return {
    supabaseUrl: str(input.supabaseUrl)?.replace(/\/+$/, '') ?? defaults.supabaseUrl,
    anonKey: str(input.anonKey) ?? defaults.anonKey,
    siteName: str(input.siteName) ?? defaults.siteName,
    supportEmail: str(input.supportEmail) ?? defaults.supportEmail,
    styleNonce: str(input.styleNonce) ?? null,
    autoSignOutMs: positiveInt(input.autoSignOutMs) ?? defaults.autoSignOutMs,
    payments: input.payments === 'stripe' ? 'stripe' : 'demo',
  };
}

function readInline(): unknown {
  const element = document.getElementById('app-config');
  if (!element?.textContent) return undefined;
  try {
    return JSON.parse(element.textContent);
  } catch {
    return undefined;
  }
}

async function fetchConfig(): Promise<unknown> {
  try {
    const response = await fetch('/app-config.json', {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(3000),
    });
    if (!response.ok || !response.headers.get('content-type')?.includes('json')) return undefined;
    return await response.json();
  } catch {
    return undefined;
  }
}

/** Resolves the configuration once; call before the first render. */
export async function loadConfig(): Promise<AppConfig> {
  if (current) return current;
  current = parseConfig(readInline() ?? (await fetchConfig()));
  return current;
}

/**
 * Sets the configuration without reading the page: the build's prerender renders with placeholders the
 * server replaces with its own values (web/src/prerender.tsx, decision 157).
 */
export function setConfigForPrerender(config: AppConfig): void {
  current = config;
}

/** The loaded configuration (defaults if `loadConfig` has not finished, which only tests would see). */
export function getConfig(): AppConfig {
  return current ?? defaults;
}
