-- Finding a user's entries in the audit log: the GDPR data export lists the account's own activity and
-- the account deletion removes the email address from entries about the account
-- (docs/decisions/071-what-the-export-reads-and-how.md, 072-account-deletion-all-or-nothing.md).
-- Without these, both would read the whole log, which only ever grows.
create index if not exists audit_log_entries_actor_id_idx
  on auth.audit_log_entries ((payload ->> 'actor_id'));
create index if not exists audit_log_entries_traits_user_id_idx
  on auth.audit_log_entries (((payload -> 'traits') ->> 'user_id'));
