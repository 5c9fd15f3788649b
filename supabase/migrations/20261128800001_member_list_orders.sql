-- The admins' member list in each of its orders reads an index, not every profile (issue 40 part 4,
-- bench/scale.ts): the page asks for "newest" as `created_at desc nulls last, id desc` and "name" as
-- `full_name asc nulls last, id asc`. profiles_created_at_user_id_idx read backwards gives `desc nulls
-- first`, which the planner does not take for `nulls last` (even on a not-null column), so each order
-- sorted all members and computed the view's columns for every one: 425 ms with 100,000 members.
create index if not exists profiles_created_at_desc_user_id_idx
  on public.profiles (created_at desc nulls last, user_id desc);
create index if not exists profiles_full_name_user_id_idx on public.profiles (full_name, user_id);
