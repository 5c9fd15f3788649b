import { loadSupabase } from '../supabase.ts';

/**
 * The security log (product §security-events, §rpc `log_security_event`, decision 037). The server
 * records the caller's user id and address itself; the page adds what only it knows.
 */
export type RiskLevel = 'low' | 'medium' | 'high' | 'critical';

export interface SecurityEvent {
  type: string;
  action: string;
  category?: string;
  /** The message, e.g. the error the user saw. */
  description?: string;
  riskLevel?: RiskLevel;
  /** Event-specific facts, merged into the additional data. */
  data?: Record<string, unknown>;
}

/** What the page knows at the time of the event (product §security-events' additional data). */
export interface SecurityContext {
  userAgent: string;
  /** The page's address. */
  url: string;
  now: Date;
  user: { id: string; email?: string | null } | null;
}

/** The arguments of `log_security_event`, named as its parameters. */
export interface SecurityEventArgs {
  type: string;
  action: string;
  category: string;
  description: string | null;
  additional_data: Record<string, unknown>;
  risk_level: RiskLevel;
}

type ContextProvider = () => Record<string, unknown>;
const providers = new Set<ContextProvider>();

/**
 * Adds facts to the additional data of every event from now on (e.g. the first 8 characters of the
 * CSRF token, product §security-events). Returns a function that removes the provider again.
 */
export function addSecurityContext(provider: ContextProvider): () => void {
  providers.add(provider);
  return () => providers.delete(provider);
}

const MAX_TEXT = 2000;
const MAX_FIELD = 512;

function clip(value: string, max: number): string {
  return value.length > max ? `${value.slice(0, max - 1)}…` : value;
}

/**
 * Never the fragment: after an auth redirect it holds access and refresh tokens, which must not end
 * up in a log that admins read. The query string stays (it carries no secrets in this app).
 */
export function loggableUrl(href: string): string {
  try {
    const url = new URL(href);
    url.hash = '';
    return clip(url.toString(), 1024);
  } catch {
    return '';
  }
}

export function buildSecurityEventArgs(event: SecurityEvent, context: SecurityContext): SecurityEventArgs {
  const extra: Record<string, unknown> = {};
  for (const provider of providers) {
    try {
      Object.assign(extra, provider());
    } catch {
      // A broken provider must not cost the event.
    }
  }
  return {
    type: clip(event.type, 100),
    action: clip(event.action, 100),
    category: clip(event.category ?? 'general', 100),
    description: event.description === undefined ? null : clip(event.description, MAX_TEXT),
    additional_data: {
      user_agent: clip(context.userAgent, MAX_FIELD),
      url: loggableUrl(context.url),
      timestamp: context.now.toISOString(),
      user_id: context.user?.id ?? null,
      user_email: context.user?.email ?? null,
      ...extra,
      ...event.data,
    },
    risk_level: event.riskLevel ?? 'low',
  };
}

/** Records the event. Never throws and never delays the caller's work: logging must not break the UI. */
export async function logSecurityEvent(event: SecurityEvent): Promise<void> {
  try {
    const supabase = await loadSupabase();
    const { data } = await supabase.auth.getSession();
    const user = data.session?.user ?? null;
    const args = buildSecurityEventArgs(event, {
      userAgent: navigator.userAgent,
      url: window.location.href,
      now: new Date(),
      user: user ? { id: user.id, email: user.email ?? null } : null,
    });
    await supabase.rpc('log_security_event', args);
  } catch {
    // Offline, flood-limited (the server drops the event) or the client failed to load: nothing to do.
  }
}
