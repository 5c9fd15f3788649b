-- Span masks on the accused's name and the contact details too (issue 32, decision 209): the field list
-- of public.scammer_report_masks gains scammer_name (contact_info was listed but refused by the guard).
-- Readers, search, linked reports, watch alerts and the spelling vocabulary use the masked text:
-- supabase/definitions/reports_masks.sql, reports_read.sql, reports_identifiers.sql, reports_watches.sql.
alter table public.scammer_report_masks drop constraint if exists scammer_report_masks_field_check;
alter table public.scammer_report_masks add constraint scammer_report_masks_field_check check (field in (
  'scammer_name', 'scammer_description', 'incident_details', 'location', 'business_name', 'contact_info'
));
