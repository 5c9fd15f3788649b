-- The Scammer Network's vocabulary gets a GIN trigram index in place of its GiST one (decision 274): the
-- search now asks it for every word within the similarity threshold (`%`), ranks them itself and no
-- longer walks the index nearest-first (`<->`), which only GiST serves. At 10× the bench's reports
-- (63,000 words) that lookup took 12–18 ms through GiST and 3 ms through GIN, per typed word.
create index if not exists scammer_report_words_trgm_gin_idx
  on private.scammer_report_words using gin (word extensions.gin_trgm_ops);
drop index if exists private.scammer_report_words_trgm_idx;
