-- fuzzystrmatch, for the edit distance (`extensions.levenshtein`) that orders a typed word's close words
-- of equal trigram similarity (decision 274, `private.close_words` in definitions/like_pattern.sql).
-- Hosted Supabase offers it; the embedded database loads it on every open (server/db/pglite-worker.mjs).
create extension if not exists fuzzystrmatch with schema extensions;
