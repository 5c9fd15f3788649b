import { expect, type Locator, type Page } from '@playwright/test';
import type { SupabaseClient } from '@supabase/supabase-js';

const FIRST_LOAD = { timeout: 30_000 };

/**
 * Checks the home's "Top-rated on Pass or Gas" list against the ranking it shows (the all-time Top five
 * of product_rankings, with `columns`). Other files' tests vote meanwhile, so the page and the ranking
 * are read together: when a vote moved the list between the two, the page is read again and `check`
 * runs again, for up to a minute. `check` gets the ranking's rows, in order, and the list's items.
 */
export async function expectHomeLeaders<Row extends { id: string }>(
  page: Page,
  service: SupabaseClient,
  columns: string,
  check: (ranked: Row[], items: Locator) => Promise<void>,
): Promise<void> {
  const leaders = page.getByRole('region', { name: 'Top-rated on Pass or Gas' });
  await expect(leaders.getByRole('listitem').first()).toBeVisible(FIRST_LOAD);
  await expect(async () => {
    const ranked = await service
      .from('product_rankings')
      .select(`id, ${columns}`)
      .order('wilson', { ascending: false })
      .order('counted', { ascending: false })
      .order('id')
      .limit(5);
    expect(ranked.error).toBeNull();
    const rows = (ranked.data ?? []) as unknown as Row[];
    const shown = await leaders
      .getByRole('listitem')
      .locator('a[href^="/pass-or-gas/"]')
      .evaluateAll((links) => [...new Set(links.map((link) => link.getAttribute('href')))]);
    const expected = rows.map((row) => `/pass-or-gas/${row.id}`);
    if (shown.join() !== expected.join()) {
      await page.reload();
      await expect(leaders.getByRole('listitem').first()).toBeVisible(FIRST_LOAD);
    }
    expect(shown).toEqual(expected);
    await check(rows, leaders.getByRole('listitem'));
  }).toPass({ timeout: 60_000 });
}
