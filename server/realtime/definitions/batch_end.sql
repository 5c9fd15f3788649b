
-- The last change id of the next batch: parallel shards of one batch all read up to it.
create or replace function realtime.batch_end(p_after bigint, p_limit int) returns bigint
language sql
stable
as $$
  select max(id) from (
    select c.id from realtime.changes c where c.id > p_after order by c.id limit p_limit
  ) batch
$$;

revoke all on function realtime.batch_end(bigint, int) from public;
