-- A `like`/`ilike` pattern for "contains the text as typed": the text's % _ and \ escaped (the default
-- escape character), wrapped in %. Null for null. Used by every search that builds one (decisions 120,
-- 123, 256, 258).
create or replace function private.contains_pattern(typed text) returns text
language sql immutable strict parallel safe set search_path = ''
as $$
  select '%' || replace(replace(replace(typed, '\', '\\'), '%', '\%'), '_', '\_') || '%'
$$;
revoke all on function private.contains_pattern(text) from public;
-- search_brands runs with its caller's rights.
grant execute on function private.contains_pattern(text) to anon, authenticated, service_role;
