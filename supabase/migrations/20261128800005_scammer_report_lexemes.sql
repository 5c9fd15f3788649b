-- Every word readers can see in published reports that starts with a letter (names, businesses,
-- places, and contact details such as `deals7@gmail.com`), in byte order (decision 251): a typed word
-- is searched as the words it begins, found here as a range of the primary key, instead of as a prefix
-- term (`word:*`), for which the full-text index reads the whole posting list of every word starting
-- so (issue 40 part 4, bench/scale.ts: a business name 27 ms among 200,000 reports, 234 ms among
-- 2,000,000). Kept with the vocabulary by definitions/reports_identifiers.sql; filled from the reports
-- there are by definitions/reports_masks.sql.
create table if not exists private.scammer_report_lexemes (
  lexeme text collate "C" primary key
);
revoke all on table private.scammer_report_lexemes from public, anon, authenticated, service_role;
