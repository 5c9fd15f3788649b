import { randomBytes } from 'node:crypto';
import { expect, expectNoSeriousA11yViolations, test } from './fixtures.ts';
import { adminClient, createMember, deleteMember, type Member, openSignedIn } from './support/api.ts';

/**
 * Issue 35 part 4 on the admin screens (decision 212): a brand and a licence whose check is older than
 * 12 months read "Due for re-check" in the admin brand list, the brand form, the licence list and the
 * licence form — as visitors see them — while a fresh check reads "Licence verified" with its date.
 */

const FIRST_LOAD = { timeout: 30_000 };
const DAY = 86_400_000;

test('admin › Brands shows a check older than 12 months as due for re-check, everywhere it shows a verification', async ({
  page,
  server,
}) => {
  const service = adminClient(server);
  const t = randomBytes(4).toString('hex');
  const old = new Date(Date.now() - 400 * DAY).toISOString();
  const recent = new Date(Date.now() - 10 * DAY).toISOString();
  const brands = await service
    .from('brands')
    .insert(
      [
        ['Stale Admin', old],
        ['Fresh Admin', recent],
      ].map(([name, at]) => ({
        name: `${name} ${t}`,
        slug: `${name?.toLowerCase().replace(' ', '-')}-${t}`,
        states: ['CO'],
        licence_number: `CO-${name?.charAt(0)}-${t}`,
        licence_state: 'CO',
        verification: 'verified',
        verified_at: at,
        verification_note: 'Checked on the state register.',
      })),
    )
    .select('id, name');
  expect(brands.error).toBeNull();
  const ids = (brands.data ?? []).map((row) => row.id as string);
  let admin: Member | null = null;
  try {
    admin = await createMember(server);
    expect((await service.from('user_roles').insert({ user_id: admin.id, role: 'admin' })).error).toBeNull();
    await openSignedIn(page, server, admin, '/admin/brands');
    await page.getByLabel('Find a brand', { exact: true }).fill(t);

    // The list: the old check is due, with its date; the fresh one verified, with its date.
    const staleRow = page.getByTestId('admin-brand').filter({ hasText: `Stale Admin ${t}` });
    await expect(staleRow.getByTestId('verification-badge')).toHaveText(
      /^Due for re-check · last checked [A-Z][a-z]{2} \d{1,2}, \d{4}$/,
      FIRST_LOAD,
    );
    const freshRow = page.getByTestId('admin-brand').filter({ hasText: `Fresh Admin ${t}` });
    await expect(freshRow.getByTestId('verification-badge')).toHaveText('Licence verified');
    await expect(freshRow.getByTestId('verification-checked')).toHaveText(
      /^checked [A-Z][a-z]{2} \d{1,2}, \d{4}$/,
    );

    // The brand form says why the stored "Verified" no longer counts, and how to verify again.
    await staleRow.getByRole('button', { name: `Edit Stale Admin ${t}`, exact: true }).click();
    const form = page.getByRole('form', { name: `Edit Stale Admin ${t}` });
    await expect(form.getByTestId('recheck-note')).toContainText(
      /^Due for re-check: last checked [A-Z][a-z]{2} \d{1,2}, \d{4}, more than 12 months ago/,
    );
    // The licence list and the licence form say the same of the primary licence.
    const panel = page.getByRole('region', { name: `Licences of Stale Admin ${t}`, exact: true });
    const licence = panel.getByTestId('admin-licence');
    await expect(licence.getByTestId('verification-badge')).toHaveText(
      /^Due for re-check · last checked [A-Z][a-z]{2} \d{1,2}, \d{4}$/,
      FIRST_LOAD,
    );
    await licence.getByRole('button', { name: `Edit licence CO CO-S-${t}`, exact: true }).click();
    const licenceForm = panel.getByRole('form', { name: `Edit licence CO CO-S-${t}` });
    await expect(licenceForm.getByTestId('recheck-note')).toContainText('more than 12 months ago');
    await expectNoSeriousA11yViolations(page);
  } finally {
    if (ids.length) await service.from('brands').delete().in('id', ids);
    if (admin) await deleteMember(server, admin);
  }
});
