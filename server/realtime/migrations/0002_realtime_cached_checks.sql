-- Faster authorisation of changes (decision 087).
--
-- 1. The row-level security check of a batch ran one dynamic query per identity (table, role,
--    claims); PL/pgSQL plans a dynamic query anew every time, and planning the table's policies was
--    most of the cost (about 0.1 ms per identity). Each distinct check query now lives in a generated
--    function of the `realtime_check` schema, named after its text's hash and created on first use;
--    PL/pgSQL keeps the plans of its functions for the session, so an identity costs a call of a
--    cached generic plan. The function runs as its caller (the subscriber's role, with its claims):
--    the policies judge the rows exactly as before.
-- 2. The final addressing query joined a fanned-out change's pairs with its visible identities on
--    the change alone (500 subscribers: 250 000 rows sorted on disk) before matching identities.
--
-- The functions of `realtime_check` only say which of the rows they are given the caller may select
-- from a table it could query itself; the schema is not exposed by the data API.
--
-- This file also created realtime.check_call and a new realtime.apply_changes; both now live in
-- server/realtime/definitions/apply_changes*.sql (decision 089). A database that applied this file
-- with them (as first committed, or with the explicit grant added for a while) has what this version
-- creates, so the runner accepts those contents as applied:
-- replaces sha256 080454c88e79bd86a95a5c513571e8d6f1cfb217106477b0a84b667e937c72c9
-- replaces sha256 213562a6d7dc08536cfbf37f437ac81fc23ef2cccfdc64248728baead9f187fb

create schema if not exists realtime_check;
revoke all on schema realtime_check from public;
grant usage on schema realtime_check to public;
