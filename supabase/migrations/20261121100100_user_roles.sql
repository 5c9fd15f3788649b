-- HighGrade product schema, part 2: roles (spec §3 user_roles, §6 Admin) and `has_role`.
--
-- A role row makes its user an admin; the only role there is. Policies everywhere ask
-- `public.has_role('admin')`, a SECURITY DEFINER function, so checking a role never depends on what the
-- caller may read of user_roles (and the user_roles policies can use it without recursion).

create table if not exists public.user_roles (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  role text not null check (role in ('admin')),
  created_at timestamptz not null default now(),
  unique (user_id, role)
);

create or replace function public.has_role(_role text) returns boolean
language sql stable security definer set search_path = ''
as $$
  select exists (
    select 1 from public.user_roles r
    where r.user_id = (select auth.uid()) and r.role = _role
  )
$$;
comment on function public.has_role(text) is
  'Whether the calling user (auth.uid()) holds the role. Used by policies, storage policies and the web app.';

revoke all on function public.has_role(text) from public;
grant execute on function public.has_role(text) to anon, authenticated, service_role;

alter table public.user_roles enable row level security;

drop policy if exists "user_roles: read own or as admin" on public.user_roles;
create policy "user_roles: read own or as admin" on public.user_roles
  for select to authenticated
  using (user_id = (select auth.uid()) or (select public.has_role('admin')));

drop policy if exists "user_roles: admins grant" on public.user_roles;
create policy "user_roles: admins grant" on public.user_roles
  for insert to authenticated
  with check ((select public.has_role('admin')));

drop policy if exists "user_roles: admins change" on public.user_roles;
create policy "user_roles: admins change" on public.user_roles
  for update to authenticated
  using ((select public.has_role('admin')))
  with check ((select public.has_role('admin')));

drop policy if exists "user_roles: admins revoke" on public.user_roles;
create policy "user_roles: admins revoke" on public.user_roles
  for delete to authenticated
  using ((select public.has_role('admin')));

create or replace trigger guard_timestamps before insert or update on public.user_roles
  for each row execute function private.guard_timestamps('created_at');
