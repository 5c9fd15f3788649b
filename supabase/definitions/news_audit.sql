-- Admins' changes to the news tables go to the audit log (decision 100's private.audit_row_change):
-- sources added, edited, enabled or disabled, deleted; articles hidden or shown again. The fetcher's own
-- bookkeeping on a source (status, validators, counts) and ingested articles are not admin actions and
-- are not recorded.

create or replace trigger audit after insert or delete on public.news_sources
  for each row execute function private.audit_row_change();

create or replace trigger audit_edit after update on public.news_sources
  for each row
  when ((old.name, old.feed_url, old.category, old.enabled) is distinct from (new.name, new.feed_url, new.category, new.enabled))
  execute function private.audit_row_change();

create or replace trigger audit_hidden after update on public.news_articles
  for each row
  when (old.hidden is distinct from new.hidden)
  execute function private.audit_row_change();
