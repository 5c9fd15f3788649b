-- Sample articles (PRODUCT-CONVENTIONS 5, product §news): a fresh install shows a few, each plainly a
-- sample ("Sample headline: …", example.com links, is_sample = true), until the first real article
-- arrives; never with DEMO_CONTENT=false. The server's start-up calls private.news_samples(load).

create or replace function private.news_samples(load boolean) returns void
language plpgsql volatile security definer set search_path = ''
as $$
begin
  if not load then
    delete from public.news_articles where is_sample;
    return;
  end if;
  if exists (select 1 from public.news_articles) then
    return; -- real articles, or the samples already, are there
  end if;
  insert into public.news_articles
    (id, story_id, title, url, url_key, summary, source_name, category, published_at, fingerprint, is_sample)
  select s.id, s.id, s.title, s.url, private.news_url_key(s.url), s.summary, 'Sample source', s.category,
         now() - s.age, private.news_fingerprint(s.title), true
  from (
    select gen_random_uuid() as id, v.*
    from (values
      ('Sample headline: a state regulator publishes its first quarterly market report',
       'https://example.com/sample-news/regulator-report',
       'This is a sample article shown until the configured news sources deliver real headlines. It is not real news.',
       'Policy', interval '2 hours'),
      ('Sample headline: licensed retailers compare notes on seasonal demand',
       'https://example.com/sample-news/seasonal-demand',
       'A sample summary. Real articles replace the samples as soon as a feed has been fetched.',
       'Business', interval '5 hours'),
      ('Sample headline: listed cannabis companies report mixed results',
       'https://example.com/sample-news/mixed-results',
       'A sample summary, not market information. Add or enable sources under Admin, News.',
       'Markets', interval '9 hours'),
      ('Sample headline: a hemp processor opens a new facility',
       'https://example.com/sample-news/hemp-facility',
       'A sample summary for the Hemp category. It links to example.com, not to a publication.',
       'Hemp', interval '1 day'),
      ('Sample headline: a community event celebrates local growers',
       'https://example.com/sample-news/community-event',
       'A sample summary for the Culture category. Samples disappear when real articles arrive.',
       'Culture', interval '2 days'),
      ('Sample headline: lawmakers debate a new licensing bill',
       'https://example.com/sample-news/licensing-bill',
       'A sample summary for the Policy category, shown so a fresh install is not empty.',
       'Policy', interval '3 days')
    ) as v(title, url, summary, category, age)
  ) as s;
end
$$;
revoke all on function private.news_samples(boolean) from public;

-- The first real article removes the samples, whatever path it came by.
create or replace function private.news_articles_drop_samples() returns trigger
language plpgsql volatile security definer set search_path = ''
as $$
begin
  if exists (select 1 from inserted where not is_sample) then
    delete from public.news_articles where is_sample;
  end if;
  return null;
end
$$;
revoke all on function private.news_articles_drop_samples() from public;

create or replace trigger drop_samples after insert on public.news_articles
  referencing new table as inserted
  for each statement execute function private.news_articles_drop_samples();
