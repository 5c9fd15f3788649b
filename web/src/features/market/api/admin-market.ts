import { useMutation, useQueryClient } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';
import type { CloseRow, FlowerRow } from '../admin/closes-csv.ts';

/** The admin RPCs of market data (decision 128); the database checks the caller is an admin. */

export interface ImportError {
  line: number;
  column: string;
  message: string;
}

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

export interface VerifyResult {
  index: string;
  checked: number;
  ok: boolean;
  mismatches: { date: string; stored: number | null; computed: number | null }[];
}

export async function importCloses(rows: CloseRow[], apply: boolean): Promise<ImportResult> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase.rpc('market_import_closes', { p_rows: rows, p_apply: apply });
  if (error) throw error;
  return data as ImportResult;
}

export async function importFlowerPrices(rows: FlowerRow[], apply: boolean): Promise<ImportResult> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase.rpc('market_import_flower_prices', { p_rows: rows, p_apply: apply });
  if (error) throw error;
  return data as ImportResult;
}

export async function verifyIndex(slug: string): Promise<VerifyResult> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase.rpc('market_verify', { p_index: slug });
  if (error) throw error;
  return data as VerifyResult;
}

export function useImportCloses() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ rows, apply }: { rows: CloseRow[]; apply: boolean }) => importCloses(rows, apply),
    onSuccess: (result) => {
      if (result.applied) void queryClient.invalidateQueries({ queryKey: ['market'] });
    },
  });
}

export function useImportFlowerPrices() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ rows, apply }: { rows: FlowerRow[]; apply: boolean }) => importFlowerPrices(rows, apply),
    onSuccess: (result) => {
      if (result.applied) void queryClient.invalidateQueries({ queryKey: ['market'] });
    },
  });
}

export function useVerifyIndex() {
  return useMutation({ mutationFn: verifyIndex });
}
