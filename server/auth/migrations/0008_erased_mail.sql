-- Addresses of erased accounts, as SHA-256 hashes of the lower-cased address, kept a week: every
-- server process removes their mails from its own outbox (DATA_DIR/mail, used without SMTP) and drops
-- mails to them still on their way, also a process that was down when the account was erased and
-- sweeps at its next start (issue 36, decision 173). Written by the GDPR deletion in its transaction;
-- NOTIFY `mail_erased` at commit tells the running processes.
create table if not exists auth.erased_mail (
  address_hash text primary key,
  erased_at timestamptz not null default now()
);

revoke all on auth.erased_mail from public;
