-- Anonymous sign-ins (decision 148) look around; they change nothing in the product.
--
-- An anonymous user has the `authenticated` role, as on Supabase, and the token's `is_anonymous`
-- claim tells them apart. They own no rows (no profile is made for them, profiles_new_user.sql) and so
-- read only what a visitor reads; they must not do what the spec gives members either: vote, comment,
-- report, book, subscribe, watch, claim a brand, save articles or keep settings. Rather than a
-- restrictive policy per table and command, which SECURITY DEFINER paths would bypass, one statement
-- trigger on every table the `authenticated` role may write refuses the statement, whichever way it
-- arrives (the Data API, a remote procedure, a trigger acting for the caller). The server's own work
-- (no claims, service_role, the account deletion) is never refused. A test lists the tables the role
-- may write and expects this trigger on each (tests/integration/anonymous-users.test.ts): a new
-- table that members write adds its line below.
create or replace function private.refuse_anonymous_writes() returns trigger
language plpgsql set search_path = ''
as $$
begin
  if not private.caller_is_privileged()
    and coalesce((current_setting('request.jwt.claims', true)::jsonb ->> 'is_anonymous')::boolean, false) then
    raise exception using errcode = 'insufficient_privilege',
      message = 'Anonymous users cannot change data here',
      hint = 'Add an email address to the account (and confirm it) to become a member.';
  end if;
  return null;
end
$$;
comment on function private.refuse_anonymous_writes() is
  'Statement trigger: refuses inserts, updates and deletes by anonymous sign-ins (decision 148).';
revoke all on function private.refuse_anonymous_writes() from public;

do $$
declare
  t text;
begin
  foreach t in array array[
    'admin_posts', 'bookings', 'brand_claims', 'brand_licences', 'brands', 'market_constituents', 'news_articles',
    'news_sources', 'notifications', 'privacy_settings', 'product_comment_likes', 'product_comment_reports',
    'product_comments', 'product_votes', 'products', 'profiles', 'saved_articles', 'scammer_report_evidence',
    'scammer_report_masks', 'scammer_report_replies', 'scammer_reports', 'scammer_subscriptions', 'scammer_watches',
    'security_events', 'user_roles'
  ] loop
    execute format(
      'create or replace trigger refuse_anonymous_writes before insert or update or delete on public.%I '
      'for each statement execute function private.refuse_anonymous_writes()', t);
  end loop;
end
$$;

-- Files: restrictive, ANDed with the buckets' policies (as decision 073's).
drop policy if exists "objects: anonymous users upload nothing" on storage.objects;
create policy "objects: anonymous users upload nothing" on storage.objects
  as restrictive for insert to authenticated
  with check ((select coalesce((auth.jwt() ->> 'is_anonymous')::boolean, false)) is false);

drop policy if exists "objects: anonymous users change no files" on storage.objects;
create policy "objects: anonymous users change no files" on storage.objects
  as restrictive for update to authenticated
  using ((select coalesce((auth.jwt() ->> 'is_anonymous')::boolean, false)) is false)
  with check ((select coalesce((auth.jwt() ->> 'is_anonymous')::boolean, false)) is false);
