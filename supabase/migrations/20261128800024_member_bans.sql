-- The admins' member search filtered to suspended members (decision 281, issue 40 part 4). A suspension
-- is auth.users.banned_until, which no index of ours holds (auth's table is the platform's: on hosted
-- Supabase it is not the product's to index), so "suspended" over a word most members hold was checked
-- member by member: every match's account read, the whole list at 10,000,000 members.
--
-- Here each account with a suspension, the end of it as auth.users has it, kept by a trigger on
-- auth.users (definitions/admin_members.sql): the suspended are the few rows whose end is to come, and
-- a search for them starts from those. A lifted suspension's row goes; an expired one stays until then
-- (the index below skips it), and the account's deletion takes its row.
create table if not exists private.member_bans (
  user_id uuid primary key references auth.users (id) on delete cascade,
  banned_until timestamptz not null
);
create index if not exists member_bans_banned_until_idx on private.member_bans (banned_until);
revoke all on table private.member_bans from public, anon, authenticated, service_role;

insert into private.member_bans (user_id, banned_until)
select u.id, u.banned_until from auth.users u where u.banned_until is not null
on conflict (user_id) do update set banned_until = excluded.banned_until;
