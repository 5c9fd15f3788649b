-- Evidence files lose their metadata before anyone can approve them (issue 32 part 2, decision 199).
-- The server's evidence-upload function re-encodes each file without EXIF, XMP, GPS, ICC profiles or
-- comments (images) or document metadata (PDFs), stores only the cleaned copy and then sets
-- cleaned_at; reporters no longer write into the bucket themselves. A file is approved only once
-- cleaned: the check below, so no path (Data API, SQL, admin screens) approves an uncleaned file.

alter table public.scammer_report_evidence add column if not exists cleaned_at timestamptz;
comment on column public.scammer_report_evidence.cleaned_at is
  'When the server stored the file re-encoded without its metadata (set by the server only).';

-- Files approved before this change still carry whatever metadata they were uploaded with: they go
-- back to unapproved (readers stop receiving them) until cleaned.
update public.scammer_report_evidence
  set approved_at = null, approved_by = null
  where approved_at is not null and cleaned_at is null;

do $$
begin
  if not exists (select 1 from pg_constraint where conname = 'scammer_report_evidence_approved_cleaned') then
    alter table public.scammer_report_evidence add constraint scammer_report_evidence_approved_cleaned
      check (approved_at is null or cleaned_at is not null);
  end if;
end
$$;

-- The reporter's direct upload into the bucket is gone: the only writer is the server's function,
-- which checks the slot as the reporter and stores the cleaned copy as the service.
drop policy if exists "scammer-evidence: reporters upload into their slots" on storage.objects;
