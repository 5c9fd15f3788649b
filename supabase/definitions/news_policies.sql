-- Who reads and writes the news tables (product §news, decision 111). Everyone reads sources and the
-- articles that are not hidden; admins manage sources and hide articles; only the server (its own
-- role, through private.news_ingest) adds articles.

drop policy if exists "news_sources: anyone reads" on public.news_sources;
create policy "news_sources: anyone reads" on public.news_sources
  for select to anon, authenticated
  using (true);

drop policy if exists "news_sources: admins add" on public.news_sources;
create policy "news_sources: admins add" on public.news_sources
  for insert to authenticated
  with check ((select public.has_role('admin')));

drop policy if exists "news_sources: admins edit" on public.news_sources;
create policy "news_sources: admins edit" on public.news_sources
  for update to authenticated
  using ((select public.has_role('admin')))
  with check ((select public.has_role('admin')));

drop policy if exists "news_sources: admins delete" on public.news_sources;
create policy "news_sources: admins delete" on public.news_sources
  for delete to authenticated
  using ((select public.has_role('admin')));

drop policy if exists "news_articles: anyone reads what is shown, admins all" on public.news_articles;
create policy "news_articles: anyone reads what is shown, admins all" on public.news_articles
  for select to anon, authenticated
  using (not hidden or (select public.has_role('admin')));

drop policy if exists "news_articles: admins hide" on public.news_articles;
create policy "news_articles: admins hide" on public.news_articles
  for update to authenticated
  using ((select public.has_role('admin')))
  with check ((select public.has_role('admin')));

-- updated_at follows every change of a source.
create or replace trigger touch_updated_at before update on public.news_sources
  for each row execute function private.touch_updated_at();
