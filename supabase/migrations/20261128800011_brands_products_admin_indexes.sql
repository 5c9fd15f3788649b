-- The admins' lists in the order they read (decision 260): archived brands by name, as the live ones
-- are (brands_live_name_idx), so public.admin_find_brands walks either list's order; and every
-- product newest first, archived ones included (/admin/products), which the live products' partial
-- index (products_live_created_at_idx) cannot serve: without this the list sorted every product.
create index if not exists brands_archived_name_idx on public.brands (lower(name), id)
  where archived_at is not null;
create index if not exists products_created_at_idx on public.products (created_at desc, id);
