-- The longest lifetime, in seconds, a signed download URL of a bucket may have (decision 154). Not an
-- upstream column: Supabase Storage signs for whatever `expiresIn` a reader asks. Null: no cap beyond
-- the service-wide maximum. A product migration sets it where links must stay short-lived (the
-- Scammer Network's evidence files); a longer `expiresIn` is shortened to it when signing.
alter table storage.buckets add column if not exists signed_url_max_seconds integer
  constraint buckets_signed_url_max_seconds_check check (signed_url_max_seconds > 0);
