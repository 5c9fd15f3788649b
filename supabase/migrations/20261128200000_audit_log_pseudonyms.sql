-- Erasure keeps the audit log's facts (issue 33, decision 185): when a member's account is erased, the
-- entries about them stay — who did what to which row, and when — with the member replaced by a
-- pseudonym and their personal fields removed. This column says when an entry was so rewritten (null:
-- as written). The rewrite itself is `private.erase_member` (supabase/definitions/erasure.sql), the one
-- change the append-only trigger lets through.
alter table private.audit_log add column if not exists pseudonymised_at timestamptz;
