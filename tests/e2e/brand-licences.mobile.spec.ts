import { randomBytes } from 'node:crypto';
import { expect, expectNoSeriousA11yViolations, test } from './fixtures.ts';
import { adminClient } from './support/api.ts';
import { pngBytes } from './support/images.ts';

test('a brand with several licences and an uploaded logo on a phone', async ({ page, server }) => {
  const t = randomBytes(3).toString('hex');
  const name = `Phone Licences ${t}`;
  const service = adminClient(server);
  const { data, error } = await service
    .from('brands')
    .insert({
      name,
      slug: `phone-licences-${t}`,
      states: ['CO'],
      licence_number: `CO-${t}`,
      licence_state: 'CO',
    })
    .select('id, slug')
    .single();
  expect(error).toBeNull();
  const id = data?.id as string;
  // Two months before the run, at noon UTC: within the 12-month re-check period (decision 207).
  const checkedAt = new Date(Math.floor(Date.now() / 86_400_000 - 60) * 86_400_000 + 43_200_000);
  const checkedText = checkedAt.toLocaleDateString('en-US', {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  });
  try {
    const second = await service.from('brand_licences').insert({
      brand_id: id,
      number: `NM-${t}`,
      state: 'NM',
      type: 'Manufacturer',
      verification: 'verified',
      verified_at: checkedAt.toISOString(),
      verification_note: 'Listed on the New Mexico register.',
    });
    expect(second.error).toBeNull();
    const path = `${id}/logo-1.png`;
    expect(
      (await service.storage.from('brand-logos').upload(path, pngBytes(24, 24), { contentType: 'image/png' }))
        .error,
    ).toBeNull();
    const url = service.storage.from('brand-logos').getPublicUrl(path).data.publicUrl;
    expect((await service.from('brands').update({ logo_url: url }).eq('id', id)).error).toBeNull();

    await page.goto(`/brand-directory/${data?.slug}`);
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('brand-licence')).toContainText(`CO-${t}`);
    const other = page.getByTestId('other-licence');
    await expect(other).toContainText(`NM-${t}`);
    await expect(other.getByTestId('licence-verification-text')).toHaveText(
      `HighGrade checked this licence on ${checkedText}. Evidence: Listed on the New Mexico register.`,
    );
    const box = await other.boundingBox();
    const viewport = page.viewportSize();
    expect(box && viewport ? box.x + box.width : Number.POSITIVE_INFINITY).toBeLessThanOrEqual(
      viewport?.width ?? 0,
    );
    await expect(page.locator(`img[src="${url}"]`)).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  } finally {
    await service.storage.from('brand-logos').remove([`${id}/logo-1.png`]);
    await service.from('brands').delete().eq('id', id);
  }
});
