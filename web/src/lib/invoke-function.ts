import { loadSupabase } from '#web/lib/supabase.ts';

/** Calls a server function; on failure throws an Error with the function's own message. */
export async function invokeFunction<T>(name: string, body: Record<string, unknown>): Promise<T> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase.functions.invoke(name, { body });
  if (error) {
    const context = (error as { context?: Response }).context;
    const detail = context ? ((await context.json().catch(() => null)) as { message?: string } | null) : null;
    throw new Error(detail?.message ?? error.message);
  }
  return data as T;
}
