import { QueryClient } from '@tanstack/react-query';

/**
 * The page's one cache of server state (decision 090). Queries are keyed `[area, entity, params]`:
 * the feature folder, what is read, and an object of what it is read for, e.g.
 * `['profile', 'activity', { userId }]`; a write invalidates (or sets) the keys it changed, by prefix
 * (`['subscription']` refreshes everything of that area).
 *
 * The defaults keep the behaviour the screens had before the cache: a failed read is shown at once
 * rather than retried three times, and nothing refetches behind the member's back when the window
 * regains focus or the network returns. A screen that wants either opts in on its query. Data is
 * stale at once (staleTime 0), so a screen that mounts loads again, showing what it has meanwhile.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, refetchOnReconnect: false },
    mutations: { retry: false },
  },
});
