-- Issue 35 part 4 (decision 207): a verified licence is due for re-check 12 months after the check.
-- The directory's rows gain the date of the check (`verified_at`), and the verification as shown
-- takes that date into account, so both functions change their signatures: the old ones are dropped
-- here and `definitions/brands_directory.sql` creates the new ones (definitions run after migrations).
drop function if exists public.search_brands(text, text, text, boolean, text, integer, integer);
drop function if exists public.brands_effective_verification(text, date);
