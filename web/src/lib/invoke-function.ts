import { loadSupabase } from '#web/lib/supabase.ts';

/** A server function's refusal: its message, its code (`{error}`: a rule's name for a refused write) and status. */
export class FunctionError extends Error {
  override name = 'FunctionError';
  readonly code: string;
  readonly status: number | undefined;
  constructor(message: string, code: string, status: number | undefined) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

/** Calls a server function; on failure throws an Error with the function's own message. */
export async function invokeFunction<T>(name: string, body: Record<string, unknown>): Promise<T> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase.functions.invoke(name, { body });
  if (error) {
    const context = (error as { context?: Response }).context;
    const detail = context
      ? ((await context.json().catch(() => null)) as { error?: string; message?: string } | null)
      : null;
    throw new FunctionError(detail?.message ?? error.message, detail?.error ?? '', context?.status);
  }
  return data as T;
}
