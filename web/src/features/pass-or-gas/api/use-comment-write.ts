import { useMutation, useQueryClient } from '@tanstack/react-query';

/** A comment write as a mutation: the thread reloads after it (and the profile's Comments tab). */
export function useCommentWrite<Input>(write: (input: Input) => Promise<void>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: write,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['pass-or-gas', 'comments'] });
      void queryClient.invalidateQueries({ queryKey: ['profile'] });
    },
  });
}
