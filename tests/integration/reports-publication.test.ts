// @databases: both — the second-person and summary rules, and the brand counts, are SQL triggers and functions.
/**
 * Issue 32 parts 1 and 5 (decisions 195, 196). Publication needs a second person and a deliberate act:
 * the member who filed a report — an admin too — never claims, summarises, redacts, links or publishes
 * it; publishing needs a non-empty reviewers' summary; an admin cannot create a report already published
 * or reviewed. Every path is tried — the Data API, SQL as `authenticated`, and a security-definer
 * function an admin calls — and each refusal leaves the row, the audit log and the reporter's bell as
 * they were. Counts and links agree: a brand's count leaves out merged duplicates, and the search lists
 * the reports linked to a brand by its id.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reloadSchemaCache } from '#server/rest/schema-cache.ts';
import { adminClient } from '#tests/support/clients.ts';
import { RELAXED_LIMITS } from '#tests/support/server-process.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { type SignedInUser, signedInUser, uniqueEmail } from '#tests/support/users.ts';
import { attempt, user } from './schema-support.ts';

let server: TestServer;
let service: SupabaseClient;
let filer: SignedInUser; // an admin who files a report of their own
let reviewer: SignedInUser; // a second admin
let member: SignedInUser;

const SUMMARY = 'A member reports paying upfront for two ounces that never arrived.';
const suffix = () => Math.random().toString(36).slice(2, 8);

function report(overrides: Record<string, unknown> = {}) {
  return {
    scammer_name: `Cornelius Slipknot ${suffix()}`,
    scammer_description: 'Sells fake lab results and disappears.',
    incident_details: 'Paid $400 upfront for two ounces; the seller stopped answering after payment.',
    business_name: 'Slipknot Supply',
    truth_confirmed_at: new Date().toISOString(),
    ...overrides,
  };
}

/** A report filed by `by`: an admin through the Data API, a member's through the service key (no rate limit). */
async function file(by: SignedInUser, overrides: Record<string, unknown> = {}): Promise<string> {
  const { data, error } = await (by === member ? service : by.client)
    .from('scammer_reports')
    .insert({ ...report(overrides), reporter_user_id: by.id })
    .select('id')
    .single();
  if (error) throw new Error(error.message);
  return data.id as string;
}

async function row(id: string) {
  const { rows } = await server.db.query<Record<string, unknown>>(
    `select status, claimed_by, public_summary, redacted_fields, reviewed_at, brand_id
     from public.scammer_reports where id = $1`,
    [id],
  );
  return rows[0];
}

async function auditCount(id: string): Promise<number> {
  const { rows } = await server.db.query<{ n: number }>(
    `select count(*)::int as n from private.audit_log where target_table = 'public.scammer_reports' and target_id = $1`,
    [id],
  );
  return rows[0]?.n ?? 0;
}

async function countByName(name: string): Promise<number> {
  const { rows } = await server.db.query<{ n: number }>(
    'select count(*)::int as n from public.scammer_reports where scammer_name = $1',
    [name],
  );
  return rows[0]?.n ?? 0;
}

async function publishedNotes(reporter: string, id: string): Promise<number> {
  const { rows } = await server.db.query<{ n: number }>(
    `select count(*)::int as n from public.notifications
     where user_id = $1 and kind = 'scammer_report.published' and message like '%' || (
       select scammer_name from public.scammer_reports where id = $2) || '%'`,
    [reporter, id],
  );
  return rows[0]?.n ?? 0;
}

/** A statement as the signed-in `who`, the way the Data API runs it (role authenticated, their claims); rolled back. */
function asAuthenticated(who: SignedInUser, sql: string, params: unknown[] = []) {
  return attempt(server.db, user(who.id), (tx) => tx.query(sql, params));
}

beforeAll(async () => {
  server = await startTestServer({ ...RELAXED_LIMITS });
  service = adminClient(server);
  filer = await signedInUser(server, { email: uniqueEmail('filer', 'publication.example'), admin: true });
  reviewer = await signedInUser(server, {
    email: uniqueEmail('reviewer', 'publication.example'),
    admin: true,
  });
  member = await signedInUser(server, { email: uniqueEmail('member', 'publication.example') });
  // What an RPC does: a security-definer function, owned by the database owner, run for the caller.
  for (const statement of [
    `create or replace function public.i32_set_report_status(report uuid, next text, summary text default null)
        returns void language sql security definer set search_path = '' as $$
          update public.scammer_reports set status = next, public_summary = coalesce(summary, public_summary)
          where id = report
        $$;`,
    `create or replace function public.i32_insert_report(name text, reporter uuid, state text, summary text)
        returns void language sql security definer set search_path = '' as $$
          insert into public.scammer_reports (scammer_name, scammer_description, incident_details, reporter_user_id,
            status, public_summary)
          values (name, 'Sells fake lab results and disappears.', 'Paid upfront; the seller stopped answering.',
            reporter, state, summary)
        $$;`,
    `grant execute on function public.i32_set_report_status(uuid, text, text) to authenticated;`,
    `grant execute on function public.i32_insert_report(text, uuid, text, text) to authenticated;`,
  ]) {
    await server.db.query(statement);
  }
  await reloadSchemaCache(server.db);
});
afterAll(async () => {
  await server?.db.query('drop function if exists public.i32_set_report_status(uuid, text, text)');
  await server?.db.query('drop function if exists public.i32_insert_report(text, uuid, text, text)');
  await server?.close();
});

describe('an admin cannot create a report already published or reviewed', () => {
  it('refuses it through the Data API, SQL as authenticated and a definer function; nothing is stored', async () => {
    const name = `Published Pete ${suffix()}`;
    const published = await reviewer.client.from('scammer_reports').insert({
      ...report({ scammer_name: name }),
      reporter_user_id: reviewer.id,
      status: 'published',
      public_summary: SUMMARY,
    });
    expect(published.error?.code).toBe('42501');
    expect(published.error?.message).toBe(
      'reports are submitted for review: scammer_reports.status is set by the reviewers',
    );
    const reviewed = await reviewer.client.from('scammer_reports').insert({
      ...report({ scammer_name: name }),
      reporter_user_id: reviewer.id,
      public_summary: SUMMARY,
      reviewed_at: new Date().toISOString(),
    });
    expect(reviewed.error?.code).toBe('42501');
    expect(reviewed.error?.message).toBe(
      'a report is submitted as written: review fields are set by the reviewers',
    );
    const underReview = await reviewer.client
      .from('scammer_reports')
      .insert({ ...report({ scammer_name: name }), reporter_user_id: reviewer.id, status: 'under_review' });
    expect(underReview.error?.code).toBe('42501');

    const bySql = await asAuthenticated(
      reviewer,
      `insert into public.scammer_reports (scammer_name, scammer_description, incident_details, reporter_user_id, status, public_summary)
       values ($1, 'Sells fake lab results and disappears.', 'Paid upfront; the seller stopped answering.', $2, 'published', $3)`,
      [name, reviewer.id, SUMMARY],
    );
    expect(bySql.ok).toBe(false);
    if (!bySql.ok) expect(bySql.error.code).toBe('42501');

    const byRpc = await reviewer.client.rpc('i32_insert_report', {
      name,
      reporter: reviewer.id,
      state: 'published',
      summary: SUMMARY,
    });
    expect(byRpc.error?.code).toBe('42501');
    expect(byRpc.error?.message).toBe(
      'reports are submitted for review: scammer_reports.status is set by the reviewers',
    );
    const rpcSummary = await reviewer.client.rpc('i32_insert_report', {
      name,
      reporter: reviewer.id,
      state: 'submitted',
      summary: SUMMARY,
    });
    expect(rpcSummary.error?.code).toBe('42501');

    expect(await countByName(name)).toBe(0);
    // A plain submission by an admin is fine: it waits for review like anyone's.
    const id = await file(reviewer, { scammer_name: name });
    expect(await row(id)).toMatchObject({ status: 'submitted', claimed_by: null, public_summary: null });
  });

  it('cannot skip under_review through the Data API or a definer function', async () => {
    const id = await file(member);
    const jump = await reviewer.client
      .from('scammer_reports')
      .update({ status: 'published', public_summary: SUMMARY })
      .eq('id', id);
    expect(jump.error?.code).toBe('23514');
    expect(jump.error?.message).toBe('A submitted report cannot be marked published.');
    const byRpc = await reviewer.client.rpc('i32_set_report_status', {
      report: id,
      next: 'published',
      summary: SUMMARY,
    });
    expect(byRpc.error?.code).toBe('23514');
    expect(await row(id)).toMatchObject({ status: 'submitted', public_summary: null, reviewed_at: null });
    expect(await auditCount(id)).toBe(0);
  });
});

describe('the member who filed a report never reviews it, admins included', () => {
  it('refuses the filing admin every review step, on every path, and leaves the report as it was', async () => {
    const id = await file(filer);
    const ownMessage = 'You filed this report: another admin has to review, redact and publish it.';
    for (const change of [
      { status: 'under_review' },
      { claimed_by: filer.id },
      { public_summary: SUMMARY },
      { redacted_fields: ['business_name'] },
    ]) {
      const answer = await filer.client.from('scammer_reports').update(change).eq('id', id);
      expect(answer.error?.code, JSON.stringify(change)).toBe('42501');
      expect(answer.error?.message).toBe(ownMessage);
    }
    const bySql = await asAuthenticated(
      filer,
      `update public.scammer_reports set status = 'under_review' where id = $1`,
      [id],
    );
    expect(bySql.ok).toBe(false);
    if (!bySql.ok) {
      expect(bySql.error.code).toBe('42501');
      expect(bySql.error.message).toBe(ownMessage);
    }
    const byRpc = await filer.client.rpc('i32_set_report_status', { report: id, next: 'under_review' });
    expect(byRpc.error?.code).toBe('42501');
    expect(byRpc.error?.message).toBe(ownMessage);
    expect(await row(id)).toMatchObject({
      status: 'submitted',
      claimed_by: null,
      public_summary: null,
      redacted_fields: [],
      reviewed_at: null,
    });
    expect(await auditCount(id)).toBe(0);

    // A second admin claims it; the filer still cannot summarise, redact, publish or reject it.
    const claim = await reviewer.client
      .from('scammer_reports')
      .update({ status: 'under_review' })
      .eq('id', id);
    expect(claim.error).toBeNull();
    for (const change of [
      { status: 'published', public_summary: SUMMARY },
      { status: 'rejected', rejection_reason: 'Not enough evidence.' },
      { redacted_fields: ['incident_details'] },
      { claimed_by: filer.id },
    ]) {
      const answer = await filer.client.from('scammer_reports').update(change).eq('id', id);
      expect(answer.error?.code, JSON.stringify(change)).toBe('42501');
    }
    const publishByRpc = await filer.client.rpc('i32_set_report_status', {
      report: id,
      next: 'published',
      summary: SUMMARY,
    });
    expect(publishByRpc.error?.code).toBe('42501');
    expect(await row(id)).toMatchObject({
      status: 'under_review',
      claimed_by: reviewer.id,
      public_summary: null,
    });
    expect(await auditCount(id)).toBe(1);
    expect(await publishedNotes(filer.id, id)).toBe(0);

    // The second admin publishes it, with a summary.
    const publish = await reviewer.client
      .from('scammer_reports')
      .update({ status: 'published', public_summary: SUMMARY })
      .eq('id', id);
    expect(publish.error).toBeNull();
    expect(await publishedNotes(filer.id, id)).toBe(1);
    // Taking their own report down shows readers less, never more: that stays possible.
    const down = await filer.client.from('scammer_reports').update({ status: 'under_review' }).eq('id', id);
    expect(down.error).toBeNull();
    const republish = await filer.client.from('scammer_reports').update({ status: 'published' }).eq('id', id);
    expect(republish.error?.code).toBe('42501');
    expect((await row(id))?.status).toBe('under_review');
  });
});

describe('publishing needs the reviewers’ summary', () => {
  it('refuses a missing or blank summary with an error naming the field, and nothing is half-written', async () => {
    const id = await file(member);
    expect(
      (await reviewer.client.from('scammer_reports').update({ status: 'under_review' }).eq('id', id)).error,
    ).toBeNull();
    const before = await auditCount(id);
    for (const change of [
      { status: 'published' },
      { status: 'published', public_summary: '   \n ' },
      { status: 'published', public_summary: '', redacted_fields: ['business_name'] },
    ]) {
      const answer = await reviewer.client.from('scammer_reports').update(change).eq('id', id);
      expect(answer.error?.code, JSON.stringify(change)).toBe('23514');
      expect(answer.error?.message).toBe(
        "Write the reviewers' summary before publishing: readers see it above the report.",
      );
    }
    const bySql = await asAuthenticated(
      reviewer,
      `update public.scammer_reports set status = 'published' where id = $1`,
      [id],
    );
    expect(bySql.ok).toBe(false);
    if (!bySql.ok) expect(bySql.error.code).toBe('23514');
    const byRpc = await reviewer.client.rpc('i32_set_report_status', { report: id, next: 'published' });
    expect(byRpc.error?.code).toBe('23514');
    expect(await row(id)).toMatchObject({
      status: 'under_review',
      public_summary: null,
      redacted_fields: [],
      reviewed_at: null,
    });
    expect(await auditCount(id)).toBe(before);
    expect(await publishedNotes(member.id, id)).toBe(0);

    const publish = await reviewer.client
      .from('scammer_reports')
      .update({ status: 'published', public_summary: SUMMARY })
      .eq('id', id);
    expect(publish.error).toBeNull();
    // A published report keeps its summary.
    const cleared = await reviewer.client
      .from('scammer_reports')
      .update({ public_summary: ' ' })
      .eq('id', id);
    expect(cleared.error?.code).toBe('23514');
    expect(await row(id)).toMatchObject({ status: 'published', public_summary: SUMMARY });
  });
});

describe('counts and links agree (issue 32 part 5)', () => {
  it('a brand counts a merged duplicate once, and its id lists exactly the linked reports', async () => {
    const { data: brand, error } = await service
      .from('brands')
      .insert({ name: `Counting Farms ${suffix()}`, slug: `counting-farms-${suffix()}` })
      .select('id, name')
      .single();
    expect(error).toBeNull();
    const publish = async (id: string, extra: Record<string, unknown> = {}) => {
      for (const change of [
        { status: 'under_review' },
        { status: 'published', public_summary: SUMMARY, brand_id: brand?.id, ...extra },
      ]) {
        const step = await reviewer.client.from('scammer_reports').update(change).eq('id', id);
        if (step.error) throw new Error(step.error.message);
      }
    };
    // Linked by id, though neither names the brand.
    const keep = await file(member, { business_name: 'Somebody Else Ltd' });
    const other = await file(member, { business_name: null });
    const duplicate = await file(member, { business_name: 'Somebody Else Ltd' });
    await publish(keep);
    await publish(other);
    await publish(duplicate);
    // Names the brand in its text but is not linked to it.
    const unlinked = await file(member, {
      business_name: brand?.name,
      scammer_name: `${brand?.name} impostor`,
    });
    await publish(unlinked, { brand_id: null });

    const before = await member.client.rpc('brand_report_summary', { p_brand_id: brand?.id });
    expect(before.data.count).toBe(3);
    const merge = await reviewer.client
      .from('scammer_reports')
      .update({ merged_into: keep })
      .eq('id', duplicate);
    expect(merge.error).toBeNull();
    const after = await member.client.rpc('brand_report_summary', { p_brand_id: brand?.id });
    expect(after.data.count).toBe(2);
    expect(after.data.dates).toHaveLength(2);

    const linked = await member.client.rpc('search_scammer_reports', { brand: brand?.id });
    expect(linked.error).toBeNull();
    expect(linked.data.map((r: { id: string }) => r.id).sort()).toEqual([keep, other].sort());
    // The count and the list agree.
    expect(linked.data).toHaveLength(after.data.count);
    const amountSort = await member.client.rpc('search_scammer_reports', {
      brand: brand?.id,
      sort: 'amount',
    });
    expect(amountSort.data.map((r: { id: string }) => r.id).sort()).toEqual([keep, other].sort());
    const withQuery = await member.client.rpc('search_scammer_reports', {
      brand: brand?.id,
      query: 'Somebody Else',
    });
    expect(withQuery.data.map((r: { id: string }) => r.id)).toEqual([keep]);
    // The old link's name search found the unlinked report and missed the linked ones.
    const byName = await member.client.rpc('search_scammer_reports', { query: brand?.name });
    expect(byName.data.map((r: { id: string }) => r.id)).toContain(unlinked);
    expect(byName.data.map((r: { id: string }) => r.id)).not.toContain(other);
  });
});
