-- Whether any sample product or brand is left, answered from an index (decision 175's retirement
-- triggers ask it for every statement that adds a real product or brand; without these indexes a bulk
-- import scanned the whole table once per row).
create index if not exists products_is_sample_idx on public.products (id) where is_sample;
create index if not exists brands_is_sample_idx on public.brands (id) where is_sample;
