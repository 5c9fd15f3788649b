import { invokeFunction } from '#web/lib/invoke-function.ts';
import { useNewsWrite } from './use-news-write.ts';

export interface FetchOutcome {
  source_id: string;
  name: string;
  status: 'ok' | 'not_modified' | 'error';
  new_items: number;
  error: string | null;
}

/** Fetches one source now, or every enabled one (null): functions/v1/news-refresh. */
export const refreshNews = (sourceId: string | null) =>
  invokeFunction<{ sources: FetchOutcome[] }>('news-refresh', sourceId ? { source_id: sourceId } : {});

export const useRefreshNews = () => useNewsWrite(refreshNews, 'settled');
