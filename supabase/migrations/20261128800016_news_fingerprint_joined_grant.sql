-- The joined fingerprint (decision 266) is computed as whoever writes the article: its index's
-- expression runs with the writer's rights, and an admin who hides an article through the data API
-- updates the row. As for private.name_grams and private.name_marks, the API roles may execute it.
grant execute on function private.news_fingerprint_joined(text) to anon, authenticated, service_role;
