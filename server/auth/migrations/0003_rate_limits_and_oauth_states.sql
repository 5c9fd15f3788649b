-- State GoTrue keeps in memory or in signed cookies, kept in the database here because several server
-- processes share it (docs/decisions/014-auth-rate-limits.md).

-- Fixed-window counters: one row per (bucket, subject), e.g. 'ip:signin:203.0.113.7' or
-- 'mail:recovery:<sha256 of the address>'. A window restarts when it has run out.
create table if not exists auth.rate_limits (
  key text not null primary key,
  window_start timestamptz not null,
  count integer not null
);
create index if not exists rate_limits_window_start_idx on auth.rate_limits (window_start);

-- One row per sign-in with the social provider in flight: what only the server may know between
-- /authorize and /callback (our PKCE verifier and OIDC nonce towards the provider). Single use.
create table if not exists auth.oauth_client_states (
  id uuid not null primary key,
  provider_type text not null,
  code_verifier text not null,
  nonce text not null,
  created_at timestamptz not null default now()
);
create index if not exists oauth_client_states_created_at_idx on auth.oauth_client_states (created_at);

revoke all on auth.rate_limits, auth.oauth_client_states from anon, authenticated, service_role;
