-- The admin bootstrap needs proof of the mailbox, and sign-in gets a per-account throttle
-- (docs/decisions/093-admin-bootstrap-needs-the-mailbox.md, 095-mail-and-sign-in-throttles.md).

-- Whether the server mailed the token to `relates_to` itself. Links made by admin/generate_link are
-- handed to whoever holds the service key, so following one proves nothing about the mailbox.
alter table auth.one_time_tokens add column if not exists mailed boolean not null default false;

-- Addresses whose automatic admin bootstrap an operator turned off (`npm run admin -- revoke`): the
-- support account keeps the role it was refused, whatever links it follows later. `grant` clears it.
create table if not exists auth.admin_bootstrap_revocations (
  email text not null primary key constraint admin_bootstrap_revocations_email_lower check (email = lower(email)),
  revoked_at timestamptz not null default now()
);

-- Failed password sign-ins, per account and per known device (OWASP's device cookies). `key` is
-- 'account:<keyed hash of the address>' or 'device:<random id of a device token>'; `account_key` is the
-- keyed hash, so an account's rows can be found (and erased) without storing the address. Rows exist
-- for addresses without an account too: the throttle answers the same either way.
create table if not exists auth.sign_in_throttles (
  key text not null primary key,
  account_key text not null,
  failures integer not null constraint sign_in_throttles_failures_positive check (failures > 0),
  locked_until timestamptz,
  updated_at timestamptz not null default now()
);
create index if not exists sign_in_throttles_account_key_idx on auth.sign_in_throttles (account_key);
create index if not exists sign_in_throttles_updated_at_idx on auth.sign_in_throttles (updated_at);

revoke all on auth.admin_bootstrap_revocations, auth.sign_in_throttles from anon, authenticated, service_role;

-- Until decision 254 this file also created `auth.caller_exists()`, the account check of decision
-- 097, which ../definitions/caller_exists.sql now creates. A database that applied it then has
-- everything this version creates, so the runner accepts that earlier content as applied:
-- replaces sha256 ff458e2d6ec119f2885e4867624361bb0f72e95a920dd25c3f7509d0e335265d
