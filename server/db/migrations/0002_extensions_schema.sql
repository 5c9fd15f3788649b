-- The `extensions` schema, as every Supabase project has it: where the product's migrations install
-- PostgreSQL extensions (`create extension ... with schema extensions`), outside the exposed `public`
-- schema so the data API never lists their functions. The embedded database loads the extensions
-- the product uses (pg_trgm) on every open (server/db/pglite-worker.mjs).
create schema if not exists extensions;
grant usage on schema extensions to anon, authenticated, service_role;
