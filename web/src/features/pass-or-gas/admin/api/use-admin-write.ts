import { useMutation, useQueryClient } from '@tanstack/react-query';

/** An admin write to Pass or Gas as a mutation: every Pass or Gas query reloads after it. */
export function useAdminWrite<Input>(write: (input: Input) => Promise<void>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: write,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['pass-or-gas'] }),
  });
}
