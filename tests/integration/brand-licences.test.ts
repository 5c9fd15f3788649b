// @databases: both — licence rules, guards and audit are SQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngBytes } from '#tests/e2e/support/images.ts';
import { adminClient, anonClient } from '#tests/support/clients.ts';
import { RELAXED_LIMITS } from '#tests/support/server-process.ts';
import { pngOfSize } from '#tests/support/storage.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { type SignedInUser, signedInUser } from '#tests/support/users.ts';

/**
 * A brand's several licences and its uploaded logo through supabase-js on the real server (decision
 * 151): admins add, verify, promote and remove licences, audited; the primary licence is the brand's
 * licence for cards, search and filters; representatives and members touch neither licences nor
 * verification; the brand-logos bucket takes a brand's logo from its admins and representatives only,
 * raster images up to 2 MB whose bytes match their type.
 */

let server: TestServer;
let admin: SignedInUser;
let representative: SignedInUser;
let member: SignedInUser;
let brand: { id: string; slug: string };
let other: { id: string; slug: string };

const suffix = `${Date.now()}`;
const sql = async <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
  (await server.db.query<T>(text, params)).rows;

beforeAll(async () => {
  server = await startTestServer(RELAXED_LIMITS);
  admin = await signedInUser(server, { admin: true });
  member = await signedInUser(server);
  const created = await admin.client
    .from('brands')
    .insert([
      {
        name: 'Licence Farms',
        slug: `licence-farms-${suffix}`,
        states: ['CA', 'OR'],
        licence_number: 'C11-0000009-LIC',
        licence_state: 'CA',
        licence_type: 'Adult-use cultivation',
      },
      {
        name: 'Other Farms',
        slug: `other-farms-${suffix}`,
        states: ['WA'],
        licence_number: null,
        licence_state: null,
        licence_type: null,
      },
    ])
    .select('id, slug');
  expect(created.error).toBeNull();
  [brand, other] = created.data as [{ id: string; slug: string }, { id: string; slug: string }];
  representative = await signedInUser(server);
  const claim = await representative.client
    .from('brand_claims')
    .insert({ brand_id: brand.id, user_id: representative.id, role_title: 'Owner' })
    .select('id')
    .single();
  expect(claim.error).toBeNull();
  expect(
    (await admin.client.from('brand_claims').update({ status: 'approved' }).eq('id', claim.data?.id)).error,
  ).toBeNull();
}, 60_000);
afterAll(() => server?.close());

type Licence = { id: string; number: string; state: string; is_primary: boolean; verification: string };

async function licences(brandId: string): Promise<Licence[]> {
  const { data, error } = await anonClient(server)
    .from('brand_licences')
    .select('id, number, state, is_primary, verification, verified_by')
    .eq('brand_id', brandId)
    .order('created_at');
  expect(error).toBeNull();
  return data as Licence[];
}

describe('licences', () => {
  it('the brand licence written before this table is its primary licence', async () => {
    const rows = await licences(brand.id);
    expect(rows).toMatchObject([{ number: 'C11-0000009-LIC', state: 'CA', is_primary: true }]);
  });

  it('an admin adds a second licence, verifies it (stamped, audited) and promotes it; the brand mirrors the primary', async () => {
    const added = await admin.client
      .from('brand_licences')
      .insert({ brand_id: brand.id, number: 'OR-100-220', state: 'OR', type: 'Producer' })
      .select('id, is_primary, verification')
      .single();
    expect(added.error).toBeNull();
    expect(added.data).toMatchObject({ is_primary: false, verification: 'unverified' });

    const verified = await admin.client
      .from('brand_licences')
      .update({
        verification: 'verified',
        verified_at: '2026-11-02T12:00:00Z',
        verification_note: 'Active on the OLCC licence search.',
        expires_on: '2027-12-31',
      })
      .eq('id', added.data?.id)
      .select('verification, verified_by')
      .single();
    expect(verified.error).toBeNull();
    expect(verified.data).toEqual({ verification: 'verified', verified_by: admin.id });
    // Who verified is the database's to stamp, not the client's to write.
    const forged = await admin.client
      .from('brand_licences')
      .update({ verified_by: member.id })
      .eq('id', added.data?.id)
      .select('verified_by')
      .single();
    expect(forged.data).toEqual({ verified_by: admin.id });

    // The brand still shows its first (unverified) licence until the second is promoted.
    const before = await anonClient(server).rpc('brand_page', { p_slug: brand.slug });
    expect(before.data.brand).toMatchObject({
      licence_number: 'C11-0000009-LIC',
      verification: 'unverified',
    });
    expect(before.data.licences).toHaveLength(2);
    expect(before.data.licences[1]).toMatchObject({
      number: 'OR-100-220',
      state: 'OR',
      type: 'Producer',
      verification: 'verified',
      verification_note: 'Active on the OLCC licence search.',
      is_primary: false,
    });
    expect(before.data.licences[1]).not.toHaveProperty('verified_by');

    const promoted = await admin.client
      .from('brand_licences')
      .update({ is_primary: true })
      .eq('id', added.data?.id);
    expect(promoted.error).toBeNull();
    const rows = await licences(brand.id);
    expect(rows.map((row) => [row.number, row.is_primary])).toEqual([
      ['C11-0000009-LIC', false],
      ['OR-100-220', true],
    ]);
    const card = await anonClient(server).rpc('search_brands', { q: 'Licence Farms' });
    expect(card.data?.[0]).toMatchObject({
      licence_number: 'OR-100-220',
      licence_state: 'OR',
      verification: 'verified',
    });
    const verifiedOnly = await anonClient(server).rpc('search_brands', { verified_only: true });
    expect(verifiedOnly.data?.map((row: { id: string }) => row.id)).toContain(brand.id);

    const audit = await sql<{ action: string; actor_id: string }>(
      `select action, actor_id from private.audit_log
        where target_table = 'public.brand_licences' and target_id = $1 order by id`,
      [added.data?.id],
    );
    expect(audit.map((row) => row.action)).toEqual(['INSERT', 'UPDATE', 'UPDATE', 'UPDATE']);
    expect(audit.every((row) => row.actor_id === admin.id)).toBe(true);

    // Expiry passed: shown as expired on the page, and no longer "verified only".
    await sql(`update public.brand_licences set expires_on = current_date - 1 where id = $1`, [
      added.data?.id,
    ]);
    const expired = await anonClient(server).rpc('brand_page', { p_slug: brand.slug });
    expect(expired.data.brand.verification).toBe('expired');
    expect(expired.data.licences[0]).toMatchObject({ number: 'OR-100-220', verification: 'expired' });
    await sql(`update public.brand_licences set expires_on = '2027-12-31' where id = $1`, [added.data?.id]);

    // Removing the primary promotes the remaining licence.
    const removed = await admin.client.from('brand_licences').delete().eq('id', added.data?.id);
    expect(removed.error).toBeNull();
    expect((await licences(brand.id)).map((row) => [row.number, row.is_primary])).toEqual([
      ['C11-0000009-LIC', true],
    ]);
    const after = await anonClient(server).rpc('brand_page', { p_slug: brand.slug });
    expect(after.data.brand).toMatchObject({ licence_number: 'C11-0000009-LIC', verification: 'unverified' });
  });

  it('representatives, members and visitors cannot add, edit, verify or remove licences', async () => {
    const [primary] = await licences(brand.id);
    for (const client of [representative.client, member.client, anonClient(server)]) {
      const insert = await client
        .from('brand_licences')
        .insert({ brand_id: brand.id, number: 'FAKE-1', state: 'CA' });
      expect(insert.error?.code).toBe('42501');
      const update = await client
        .from('brand_licences')
        .update({ verification: 'verified', verified_at: '2026-11-01', verification_note: 'Trust me.' })
        .eq('id', primary?.id)
        .select('id');
      expect(update.data ?? []).toEqual([]);
      const remove = await client.from('brand_licences').delete().eq('id', primary?.id).select('id');
      expect(remove.data ?? []).toEqual([]);
    }
    // Nor through the brand's mirrored columns.
    const direct = await representative.client
      .from('brands')
      .update({ licence_number: 'FAKE-2' })
      .eq('id', brand.id);
    expect(direct.error?.code).toBe('42501');
    expect(await licences(brand.id)).toMatchObject([
      { number: 'C11-0000009-LIC', verification: 'unverified', is_primary: true },
    ]);
  });

  it('bad input gets a clear error and changes nothing: markup, SQL, malformed, duplicates, incomplete verification', async () => {
    const bad: [Record<string, unknown>, string][] = [
      [{ number: '<script>alert(1)</script>', state: 'CA' }, 'brand_licences_number_format'],
      [{ number: "X1'; drop table public.brands; --", state: 'CA' }, 'brand_licences_number_format'],
      [{ number: 'A1', state: 'California' }, 'brand_licences_state_format'],
      [{ number: 'A1', state: 'CA', type: '<b>Retail</b>' }, 'brand_licences_type_format'],
      [{ number: 'A1', state: 'CA', verification: 'verified' }, 'brand_licences_verified_complete'],
      [
        { number: 'A1', state: 'CA', verification: 'verified', verification_note: '<script>x</script>' },
        'brand_licences_verification_note_format',
      ],
      [{ number: 'A1', state: 'CA', verification: 'trusted' }, 'brand_licences_verification_check'],
      [{ number: 'c11-0000009-lic', state: 'CA' }, 'brand_licences_number_key'],
    ];
    for (const [values, constraint] of bad) {
      const { error } = await admin.client.from('brand_licences').insert({ brand_id: brand.id, ...values });
      expect(error?.message, constraint).toContain(constraint);
    }
    const future = await admin.client.from('brand_licences').insert({
      brand_id: brand.id,
      number: 'A2',
      state: 'CA',
      verification: 'verified',
      verified_at: '2099-01-01',
      verification_note: 'From the future.',
    });
    expect(future.error?.message).toBe('The verification date cannot be in the future.');
    const moved = await admin.client
      .from('brand_licences')
      .update({ brand_id: other.id })
      .eq('brand_id', brand.id);
    expect(moved.error).not.toBeNull();
    expect(await licences(brand.id)).toHaveLength(1);
    expect(await licences(other.id)).toHaveLength(0);
  });

  it('at most 20 licences per brand', async () => {
    const rows = Array.from({ length: 19 }, (_, i) => ({
      brand_id: other.id,
      number: `N-${i}`,
      state: 'WA',
    }));
    expect((await admin.client.from('brand_licences').insert(rows)).error).toBeNull();
    expect((await licences(other.id)).filter((row) => row.is_primary)).toHaveLength(1);
    expect(
      (await admin.client.from('brand_licences').insert({ brand_id: other.id, number: 'N-19', state: 'WA' }))
        .error,
    ).toBeNull();
    const over = await admin.client
      .from('brand_licences')
      .insert({ brand_id: other.id, number: 'N-20', state: 'WA' });
    expect(over.error?.message).toBe('A brand lists at most 20 licences.');
    // Clearing the brand's licence through the brands row removes the primary and promotes the next.
    expect(
      (await admin.client.from('brands').update({ licence_number: null }).eq('id', other.id)).error,
    ).toBeNull();
    const left = await licences(other.id);
    expect(left).toHaveLength(19);
    const primaries = left.filter((row) => row.is_primary);
    expect(primaries).toHaveLength(1);
    const page = await anonClient(server).rpc('brand_page', { p_slug: other.slug });
    expect(page.data.brand.licence_number).toBe(primaries[0]?.number);
  });
});

describe('logos', () => {
  const png = () => new Blob([new Uint8Array(pngBytes())], { type: 'image/png' });

  it('a representative uploads, replaces and removes their brand logo; the brand points at it; everyone reads it', async () => {
    const path = `${brand.id}/logo-1.png`;
    const uploaded = await representative.client.storage.from('brand-logos').upload(path, png());
    expect(uploaded.error).toBeNull();
    const url = representative.client.storage.from('brand-logos').getPublicUrl(path).data.publicUrl;
    const edited = await representative.client.rpc('brands_update_profile', {
      p_brand_id: brand.id,
      description: 'Family farm.',
      logo_url: url,
      website: null,
      social_links: [],
    });
    expect(edited.error).toBeNull();
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    const replaced = await representative.client.storage
      .from('brand-logos')
      .upload(path, png(), { upsert: true });
    expect(replaced.error).toBeNull();
    const removed = await representative.client.storage.from('brand-logos').remove([path]);
    expect(removed.error).toBeNull();
    expect(removed.data).toHaveLength(1);
  });

  it('an admin uploads any brand logo; a representative not for another brand, members and visitors never', async () => {
    expect(
      (await admin.client.storage.from('brand-logos').upload(`${other.id}/logo-a.png`, png())).error,
    ).toBeNull();
    const foreign = await representative.client.storage
      .from('brand-logos')
      .upload(`${other.id}/logo-b.png`, png());
    expect(foreign.error).not.toBeNull();
    const memberUpload = await member.client.storage
      .from('brand-logos')
      .upload(`${brand.id}/logo-c.png`, png());
    expect(memberUpload.error).not.toBeNull();
    const anonUpload = await anonClient(server)
      .storage.from('brand-logos')
      .upload(`${brand.id}/logo-d.png`, png());
    expect(anonUpload.error).not.toBeNull();
    const notABrand = await representative.client.storage
      .from('brand-logos')
      .upload('logos/logo-e.png', png());
    expect(notABrand.error).not.toBeNull();
    const foreignDelete = await representative.client.storage
      .from('brand-logos')
      .remove([`${other.id}/logo-a.png`]);
    expect(foreignDelete.data ?? []).toEqual([]);
    const foreignReplace = await representative.client.storage
      .from('brand-logos')
      .upload(`${other.id}/logo-a.png`, png(), { upsert: true });
    expect(foreignReplace.error).not.toBeNull();
    const listed = await adminClient(server).storage.from('brand-logos').list(other.id);
    expect(listed.data?.map((file) => file.name)).toEqual(['logo-a.png']);
    // Another brand's stored logo cannot be this brand's logo.
    const url = admin.client.storage.from('brand-logos').getPublicUrl(`${other.id}/logo-a.png`)
      .data.publicUrl;
    const borrowed = await representative.client.rpc('brands_update_profile', {
      p_brand_id: brand.id,
      description: '',
      logo_url: url,
      website: null,
      social_links: [],
    });
    expect(borrowed.error?.message).toContain('brands_logo_url_format');
  });

  it('oversized, SVG, HTML disguised as an image and mismatched bytes are refused; nothing is stored', async () => {
    const path = (name: string) => `${brand.id}/${name}`;
    const big = await representative.client.storage
      .from('brand-logos')
      .upload(
        path('big.png'),
        new Blob([new Uint8Array(pngOfSize(2 * 1024 * 1024 + 1024))], { type: 'image/png' }),
      );
    expect(big.error?.message).toMatch(/size|large/i);
    const svg = await representative.client.storage.from('brand-logos').upload(
      path('logo.svg'),
      new Blob(['<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'], {
        type: 'image/svg+xml',
      }),
    );
    expect(svg.error).not.toBeNull();
    const svgAsPng = await representative.client.storage.from('brand-logos').upload(
      path('logo.png'),
      new Blob(['<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg>'], {
        type: 'image/png',
      }),
    );
    expect(svgAsPng.error).not.toBeNull();
    const html = await representative.client.storage
      .from('brand-logos')
      .upload(path('page.png'), new Blob(['<html><script>alert(1)</script></html>'], { type: 'image/png' }));
    expect(html.error).not.toBeNull();
    const polyglot = await representative.client.storage.from('brand-logos').upload(
      path('poly.png'),
      new Blob([new Uint8Array(Buffer.concat([pngBytes(), Buffer.from('<script>alert(1)</script>')]))], {
        type: 'image/png',
      }),
    );
    expect(polyglot.error).not.toBeNull();
    const listed = await adminClient(server).storage.from('brand-logos').list(brand.id);
    expect(listed.data ?? []).toEqual([]);
  });
});
