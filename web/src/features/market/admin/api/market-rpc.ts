import type { SupabaseClient } from '@supabase/supabase-js';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';

/**
 * Runs one of the admin RPCs of market data (decision 128; the database checks the caller is an admin)
 * and answers its result. Each operation's file names its procedure in its own `.rpc(…)` call.
 */
export async function marketRpc<T>(
  call: (supabase: SupabaseClient) => PromiseLike<{ data: unknown; error: unknown }>,
): Promise<T> {
  const { data, error } = await call(await loadSupabase());
  if (error) throw error;
  return data as T;
}

export interface ImportError {
  line: number;
  column: string;
  message: string;
}

/** What an import answers: its preview (apply false) or what it applied. */
export interface ImportResult {
  ok: boolean;
  applied: boolean;
  rows: number;
  error_count: number;
  errors: ImportError[];
  new?: number;
  revised?: number;
  unchanged?: number;
  samples_removed?: number;
}

/** A CSV import's mutation: once an import is applied, every market query reads again. */
export function useImportMutation<Row>(importRows: (rows: Row[], apply: boolean) => Promise<ImportResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ rows, apply }: { rows: Row[]; apply: boolean }) => importRows(rows, apply),
    onSuccess: (result) => {
      if (result.applied) void queryClient.invalidateQueries({ queryKey: ['market'] });
    },
  });
}
