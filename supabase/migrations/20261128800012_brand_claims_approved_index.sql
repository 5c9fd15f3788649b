-- The admins' approved representatives, most recently approved first (decision 260): read apart from
-- the pending claims (brand_claims_pending_idx), each list through its own index. Read together, oldest
-- first, the approved claims of years pushed every new claim off the admins' list.
create index if not exists brand_claims_approved_idx on public.brand_claims (decided_at desc nulls last)
  where status = 'approved';
