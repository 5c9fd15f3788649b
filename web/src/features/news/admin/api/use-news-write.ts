import { useMutation, useQueryClient } from '@tanstack/react-query';

/**
 * An admin write to the news as a mutation; afterwards everything it may have moved reloads (the admin
 * lists and the public feed): once it succeeded, or `settled` also after a failure (a refresh or a switch
 * may have done part of its work, or the screen may show a state the server refused).
 */
export function useNewsWrite<Input, Output>(
  write: (input: Input) => Promise<Output>,
  reload: 'succeeded' | 'settled' = 'succeeded',
) {
  const queryClient = useQueryClient();
  const invalidate = () => queryClient.invalidateQueries({ queryKey: ['news'] });
  return useMutation({
    mutationFn: write,
    ...(reload === 'settled' ? { onSettled: invalidate } : { onSuccess: invalidate }),
  });
}
