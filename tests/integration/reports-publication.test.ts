// @databases: both — the second-person and summary rules, and the brand counts, are SQL triggers and functions.
/**
 * Issue 32 parts 1 and 5 (decisions 195, 196). Publication needs a second person and a deliberate act:
 * the member who filed a report — an admin too — never claims, summarises, redacts, links or publishes
 * it; publishing needs a non-empty reviewers' summary; an admin cannot create a report already published
 * or reviewed. Every path is tried — the Data API, SQL as `authenticated`, and a security-definer
 * function an admin calls — and each refusal leaves the row, the audit log and the reporter's bell as
 * they were. Part 2 (decision 197): reviewers mask spans of the text, the database proposes masks for
 * phone numbers, emails and street addresses, publishing waits for every proposal's decision, and
 * readers never receive a masked character. Counts and links agree: a brand's count leaves out merged duplicates, and the search lists
 * the reports linked to a brand by its id.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reloadSchemaCache } from '#server/rest/schema-cache.ts';
import { adminClient } from '#tests/support/clients.ts';
import { RELAXED_LIMITS } from '#tests/support/server-process.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { type SignedInUser, signedInUser, uniqueEmail } from '#tests/support/users.ts';
import { refusalOf } from '#web/lib/refusals.ts';
import { unmaskProposals } from './report-review-support.ts';
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

describe('the filer never reviews the evidence or the replies of their report (decision 238)', () => {
  it('refuses the filing admin the approval of its files and the decision of replies about it; a second admin may', async () => {
    const id = await file(filer);
    const evidence = await service
      .from('scammer_report_evidence')
      .insert({
        report_id: id,
        object_name: `${id}/${crypto.randomUUID()}.jpg`,
        file_name: 'receipt.jpg',
        content_type: 'image/jpeg',
        cleaned_at: new Date().toISOString(),
      })
      .select('id')
      .single();
    expect(evidence.error).toBeNull();
    const evidenceId = evidence.data?.id as string;
    const approve = await filer.client
      .from('scammer_report_evidence')
      .update({ approved_at: new Date().toISOString() })
      .eq('id', evidenceId);
    expect(approve.error?.code).toBe('42501');
    expect(approve.error?.message).toBe('You filed this report: another admin has to review its evidence.');

    const reply = await service
      .from('scammer_report_replies')
      .insert({
        report_id: id,
        user_id: member.id,
        kind: 'reply',
        relation: 'person',
        body: 'That is not what happened: the parcel was sent.',
      })
      .select('id')
      .single();
    expect(reply.error).toBeNull();
    const replyId = reply.data?.id as string;
    for (const change of [
      { status: 'accepted' },
      { status: 'declined', decision_note: 'Not convincing.' },
      { decision_note: 'A note only.' },
    ]) {
      const decide = await filer.client.from('scammer_report_replies').update(change).eq('id', replyId);
      expect(decide.error?.code, JSON.stringify(change)).toBe('42501');
      expect(decide.error?.message).toBe(
        'You filed this report: another admin has to decide the replies about it.',
      );
    }
    const { rows } = await server.db.query<{ approved: string | null; status: string; note: string | null }>(
      `select (select approved_at from public.scammer_report_evidence where id = $1) as approved,
              r.status, r.decision_note as note
       from public.scammer_report_replies r where r.id = $2`,
      [evidenceId, replyId],
    );
    expect(rows[0]).toEqual({ approved: null, status: 'pending', note: null });

    // The second admin decides both.
    expect(
      (
        await reviewer.client
          .from('scammer_report_evidence')
          .update({ approved_at: new Date().toISOString() })
          .eq('id', evidenceId)
      ).error,
    ).toBeNull();
    expect(
      (await reviewer.client.from('scammer_report_replies').update({ status: 'accepted' }).eq('id', replyId))
        .error,
    ).toBeNull();
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

  it('a brand counts every linked report, listing the latest 50 for the reply links', async () => {
    const { data: brand } = await service
      .from('brands')
      .insert({ name: `Many Reports Farms ${suffix()}`, slug: `many-reports-${suffix()}` })
      .select('id')
      .single();
    // 260 published reports, written as the server's own role (the review path is tested above).
    await server.db.query(
      `insert into public.scammer_reports (scammer_name, scammer_description, incident_details, business_name,
         truth_confirmed_at, reporter_user_id, status, public_summary, brand_id, reviewed_at, created_at)
       select 'Counted Seller ' || g, 'Sells nothing.', 'Paid upfront, nothing came.', 'Counted Ltd', now(), $1,
         'published', $2, $3, now(), now() - make_interval(mins => g)
       from generate_series(1, 260) g`,
      [member.id, SUMMARY, brand?.id],
    );
    const summary = await member.client.rpc('brand_report_summary', { p_brand_id: brand?.id });
    expect(summary.error).toBeNull();
    expect(summary.data.count).toBe(260);
    expect(summary.data.ids).toHaveLength(50);
    expect(summary.data.dates).toHaveLength(50);
    const { rows } = await server.db.query<{ id: string }>(
      `select id from public.scammer_reports where brand_id = $1 order by created_at desc, id limit 50`,
      [brand?.id],
    );
    expect(summary.data.ids).toEqual(rows.map((r) => r.id));
  });
});

/** Issue 32 part 2 (decision 197): masked spans of the text, and proposals for personal data. */
describe('masked spans and pre-masked personal data', () => {
  const PHONE = '(415) 555-0143';
  const INCIDENT = `Paid $400 upfront; he said call ${PHONE} or mail bart.quick@example.com, then vanished.`;

  async function masks(id: string) {
    const { rows } = await server.db.query<{
      id: string;
      field: string;
      start_at: number;
      end_at: number;
      kind: string;
      state: string;
    }>(
      `select id, field, start_at, end_at, kind, state from public.scammer_report_masks
       where report_id = $1 order by field, start_at`,
      [id],
    );
    return rows;
  }

  async function maskAudit(id: string): Promise<{ action: string; actor_id: string | null }[]> {
    const { rows } = await server.db.query<{ action: string; actor_id: string | null }>(
      `select a.action, a.actor_id from private.audit_log a
       where a.target_table = 'public.scammer_report_masks' and a.after ->> 'report_id' = $1
          or a.target_table = 'public.scammer_report_masks' and a.before ->> 'report_id' = $1
       order by a.id`,
      [id],
    );
    return rows;
  }

  async function claim(id: string) {
    const claimed = await reviewer.client
      .from('scammer_reports')
      .update({ status: 'under_review' })
      .eq('id', id);
    expect(claimed.error).toBeNull();
  }

  it('proposes phone numbers, email addresses and street addresses of the free text on submission', async () => {
    const id = await file(member, { incident_details: INCIDENT });
    const found = await masks(id);
    expect(found.map((m) => [m.field, m.kind, m.state, INCIDENT.slice(m.start_at, m.end_at)])).toEqual([
      ['incident_details', 'phone', 'proposed', PHONE],
      ['incident_details', 'email', 'proposed', 'bart.quick@example.com'],
    ]);
    // Entering review proposes nothing twice.
    await claim(id);
    expect(await masks(id)).toHaveLength(2);

    // Street addresses in any free-text field; dates and amounts are not phone numbers.
    const description = 'Sells flower from 12 Elm Street. Met him on 2024-01-15 and paid $1,250.00.';
    const location = '450b North Main Ave, Tacoma';
    const other = await file(member, { scammer_description: description, location });
    expect(
      (await masks(other)).map((m) => [
        m.field,
        m.kind,
        (m.field === 'location' ? location : description).slice(m.start_at, m.end_at),
      ]),
    ).toEqual([
      ['location', 'address', '450b North Main Ave'],
      ['scammer_description', 'address', '12 Elm Street'],
    ]);
  });

  it('the reporter — an admin too — and members cannot mask or see masks; the Data API and SQL refuse', async () => {
    const own = await file(filer, { incident_details: INCIDENT });
    const proposals = await masks(own);
    expect(proposals).toHaveLength(2);
    const span = { report_id: own, field: 'incident_details', start_at: 0, end_at: 4 };
    const byFiler = await filer.client.from('scammer_report_masks').insert(span);
    expect(byFiler.error?.code).toBe('42501');
    const seen = await filer.client.from('scammer_report_masks').select('id').eq('report_id', own);
    expect(seen.data).toEqual([]);
    const kept = await filer.client
      .from('scammer_report_masks')
      .update({ state: 'unmasked' })
      .eq('id', proposals[0]?.id ?? '')
      .select('id');
    expect(kept.data).toEqual([]);
    const bySql = await asAuthenticated(
      filer,
      `update public.scammer_report_masks set state = 'unmasked' where report_id = $1`,
      [own],
    );
    expect(bySql.ok && bySql.value.rowCount).toBeFalsy();
    const insertSql = await asAuthenticated(
      filer,
      `insert into public.scammer_report_masks (report_id, field, start_at, end_at) values ($1, 'incident_details', 0, 4)`,
      [own],
    );
    expect(insertSql.ok).toBe(false);
    if (!insertSql.ok) expect(insertSql.error.code).toBe('42501');

    const theirs = await file(member, { incident_details: INCIDENT });
    const byMember = await member.client
      .from('scammer_report_masks')
      .insert({ report_id: theirs, field: 'incident_details', start_at: 0, end_at: 4 });
    expect(byMember.error?.code).toBe('42501');
    expect(await masks(own)).toEqual(proposals);
    expect((await masks(theirs)).map((m) => m.state)).toEqual(['proposed', 'proposed']);
  });

  it('refuses a span outside the text or overlapping a masked one, at its field; nothing is written', async () => {
    const id = await file(member, { incident_details: INCIDENT });
    await claim(id);
    const outside = await reviewer.client
      .from('scammer_report_masks')
      .insert({ report_id: id, field: 'incident_details', start_at: 10, end_at: INCIDENT.length + 1 });
    expect(outside.error?.code).toBe('23514');
    expect(refusalOf(outside.error)).toEqual({
      field: 'end_at',
      message: 'The span lies outside the text of this field: choose characters within it.',
    });
    const empty = await reviewer.client
      .from('scammer_report_masks')
      .insert({ report_id: id, field: 'incident_details', start_at: 5, end_at: 5 });
    expect(refusalOf(empty.error)?.field).toBe('start_at');
    const noText = await reviewer.client
      .from('scammer_report_masks')
      .insert({ report_id: id, field: 'location', start_at: 0, end_at: 2 });
    expect(refusalOf(noText.error)?.field).toBe('end_at');
    const phone = INCIDENT.indexOf(PHONE);
    const overlapping = await reviewer.client
      .from('scammer_report_masks')
      .insert({ report_id: id, field: 'incident_details', start_at: phone - 3, end_at: phone + 2 });
    expect(overlapping.error?.code).toBe('23514');
    expect(refusalOf(overlapping.error)).toEqual({
      field: 'start_at',
      message:
        'This span overlaps a span already masked in this field: unmask that one or choose other characters.',
    });
    const moved = await reviewer.client
      .from('scammer_report_masks')
      .update({ start_at: 0 })
      .eq('report_id', id)
      .eq('kind', 'phone');
    expect(refusalOf(moved.error)?.message).toBe(
      'A masked span cannot be moved: unmask it and mask the new span.',
    );
    expect((await masks(id)).map((m) => m.kind)).toEqual(['phone', 'email']);
  });

  it('refuses publishing while a proposal is undecided, on every path; kept spans never reach readers', async () => {
    const id = await file(member, {
      incident_details: INCIDENT,
      scammer_name: `Bart Quickfinger ${suffix()}`,
    });
    await claim(id);
    const before = await auditCount(id);
    const refused = await reviewer.client
      .from('scammer_reports')
      .update({ status: 'published', public_summary: SUMMARY })
      .eq('id', id);
    expect(refused.error?.code).toBe('23514');
    expect(refusalOf(refused.error)).toEqual({
      field: null,
      message:
        'Keep or unmask each proposed mask before publishing: nobody has checked that personal data yet.',
    });
    const byRpc = await reviewer.client.rpc('i32_set_report_status', {
      report: id,
      next: 'published',
      summary: SUMMARY,
    });
    expect(byRpc.error?.code).toBe('23514');
    const bySql = await asAuthenticated(
      reviewer,
      `update public.scammer_reports set status = 'published', public_summary = $2 where id = $1`,
      [id, SUMMARY],
    );
    expect(bySql.ok).toBe(false);
    expect(await row(id)).toMatchObject({ status: 'under_review', public_summary: null });
    expect(await auditCount(id)).toBe(before);

    // The reviewer keeps the phone number, unmasks the email, masks "vanished" by hand, and publishes.
    const [phone, email] = await masks(id);
    for (const [mask, state] of [
      [phone, 'masked'],
      [email, 'unmasked'],
    ] as const) {
      const decided = await reviewer.client
        .from('scammer_report_masks')
        .update({ state })
        .eq('id', mask?.id ?? '');
      expect(decided.error).toBeNull();
    }
    const vanished = INCIDENT.indexOf('vanished');
    const manual = await reviewer.client
      .from('scammer_report_masks')
      .insert({ report_id: id, field: 'incident_details', start_at: vanished, end_at: vanished + 8 })
      .select('kind, state')
      .single();
    expect(manual.data).toEqual({ kind: 'manual', state: 'masked' });
    const published = await reviewer.client
      .from('scammer_reports')
      .update({ status: 'published', public_summary: SUMMARY })
      .eq('id', id);
    expect(published.error).toBeNull();

    // What a reader receives from the Data API: the placeholder, never the masked characters.
    const response = await fetch(`${server.url}/rest/v1/published_scammer_reports?id=eq.${id}`, {
      headers: { apikey: server.anonKey, Authorization: `Bearer ${member.session.access_token}` },
    });
    const body = await response.text();
    expect(response.status).toBe(200);
    expect(body).not.toContain('555-0143');
    expect(body).not.toContain('0143');
    expect(body).not.toContain('vanished');
    expect(JSON.parse(body)[0].incident_details).toBe(
      'Paid $400 upfront; he said call [removed by the reviewers] or mail bart.quick@example.com, then [removed by the reviewers].',
    );
    const searched = await member.client.rpc('search_scammer_reports', { query: 'Quickfinger' });
    expect(JSON.stringify(searched.data)).not.toContain('0143');

    // Reversible by an admin: unmasking the phone shows it again; every step is in the audit log.
    const unmasked = await reviewer.client
      .from('scammer_report_masks')
      .update({ state: 'unmasked' })
      .eq('id', phone?.id ?? '');
    expect(unmasked.error).toBeNull();
    const again = await member.client
      .from('published_scammer_reports')
      .select('incident_details')
      .eq('id', id)
      .single();
    expect(again.data?.incident_details).toContain(PHONE);
    const removed = await reviewer.client
      .from('scammer_report_masks')
      .delete()
      .eq('kind', 'manual')
      .eq('report_id', id)
      .select('id');
    expect(removed.data).toHaveLength(1);
    expect(await maskAudit(id)).toEqual([
      // The proposals, made by the database as the report was filed (here through the service key).
      { action: 'INSERT', actor_id: null },
      { action: 'INSERT', actor_id: null },
      { action: 'UPDATE', actor_id: reviewer.id },
      { action: 'UPDATE', actor_id: reviewer.id },
      { action: 'INSERT', actor_id: reviewer.id },
      { action: 'UPDATE', actor_id: reviewer.id },
      { action: 'DELETE', actor_id: reviewer.id },
    ]);
  });

  it('a masked word of the business name never finds, links or alerts about the report', async () => {
    const name = `Hidden Hank ${suffix()}`;
    const contact = `+1 415 555 ${String(Math.floor(Math.random() * 9000) + 1000)}`;
    // An earlier published report sharing the phone: its readers see this one among the linked reports.
    const earlier = await file(member, { contact_info: contact });
    await claim(earlier);
    await unmaskProposals(reviewer.client, earlier);
    const first = await reviewer.client
      .from('scammer_reports')
      .update({ status: 'published', public_summary: SUMMARY })
      .eq('id', earlier);
    expect(first.error).toBeNull();
    const watched = await member.client
      .from('scammer_watches')
      .insert({ kind: 'business', value: 'Zanzibarquist' });
    expect(watched.error).toBeNull();
    const id = await file(member, {
      scammer_name: name,
      business_name: 'Zanzibarquist Supply',
      contact_info: contact,
    });
    await claim(id);
    expect(
      (
        await reviewer.client
          .from('scammer_report_masks')
          .insert({ report_id: id, field: 'business_name', start_at: 0, end_at: 13 })
      ).error,
    ).toBeNull();
    await unmaskProposals(reviewer.client, id);
    expect(
      (
        await reviewer.client
          .from('scammer_reports')
          .update({ status: 'published', public_summary: SUMMARY })
          .eq('id', id)
      ).error,
    ).toBeNull();
    const byMasked = await member.client.rpc('search_scammer_reports', { query: 'Zanzibarquist' });
    expect(byMasked.data.map((r: { id: string }) => r.id)).not.toContain(id);
    const byName = await member.client.rpc('search_scammer_reports', { query: name });
    expect(byName.data.map((r: { id: string }) => r.id)).toContain(id);
    expect(byName.data.find((r: { id: string }) => r.id === id).business_name).toBe(
      '[removed by the reviewers] Supply',
    );
    const linked = await member.client.rpc('linked_scammer_reports', { report_id: earlier });
    expect(linked.data.map((r: { id: string; business_name: string }) => [r.id, r.business_name])).toEqual([
      [id, '[removed by the reviewers] Supply'],
    ]);
    const { rows } = await server.db.query<{ n: number }>(
      `select count(*)::int as n from public.notifications where user_id = $1 and kind = 'scammer_watch.match'
       and link = $2`,
      [member.id, `/scammer-database/${id}`],
    );
    expect(rows[0]?.n).toBe(0);
  });
  it('a masked or redacted location never matches the place filter, newest or largest amount first', async () => {
    // The place is looked for in the stored location first, then as readers see it (reports_read.sql).
    const place = `Quarry${suffix()}`;
    const town = `Vale${suffix()}`;
    const publish = async (id: string, changes: Record<string, unknown> = {}) => {
      await unmaskProposals(reviewer.client, id);
      const published = await reviewer.client
        .from('scammer_reports')
        .update({ status: 'published', public_summary: SUMMARY, ...changes })
        .eq('id', id);
      expect(published.error).toBeNull();
    };
    const masked = await file(member, { location: `${place} Heights, ${town}`, amount_scammed: 1500 });
    await claim(masked);
    const span = await reviewer.client
      .from('scammer_report_masks')
      .insert({ report_id: masked, field: 'location', start_at: 0, end_at: place.length + 8 });
    expect(span.error).toBeNull();
    await publish(masked);
    const redacted = await file(member, { location: `${place} Flats, ${town}`, amount_scammed: 1600 });
    await claim(redacted);
    await publish(redacted, { redacted_fields: ['location'] });
    const plain = await file(member, { location: `${place} Row, ${town}`, amount_scammed: 1700 });
    await claim(plain);
    await publish(plain);
    for (const sort of ['newest', 'amount']) {
      const byPlace = await member.client.rpc('search_scammer_reports', {
        location: place.toLowerCase(),
        sort,
      });
      expect(byPlace.error).toBeNull();
      expect(
        byPlace.data.map((r: { id: string }) => r.id),
        sort,
      ).toEqual([plain]);
      const byTown = await member.client.rpc('search_scammer_reports', {
        location: town,
        amount_min: 1000,
        amount_max: 2000,
        sort,
      });
      expect(byTown.data.map((r: { id: string }) => r.id).sort(), sort).toEqual([masked, plain].sort());
    }
  });

  it('masks spans of the name and contact details: readers, search, links, alerts and the word list see only the rest', async () => {
    const randomLetters = () =>
      Array.from({ length: 7 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('');
    const letters = randomLetters();
    const handle = `quillhandle${randomLetters()}`;
    const surname = `Quill${letters}`;
    const name = `Ozzy ${surname}`;
    const phone = `+1 415 555 ${String(Math.floor(Math.random() * 9000) + 1000)}`;
    const contact = `Text ${phone} or @${handle}`;
    // An earlier published report with the same phone: unmasked, the two would be linked.
    const earlier = await file(member, { contact_info: phone });
    await claim(earlier);
    // The reviewer shows the accused's number the database proposed to mask (decision 240).
    await unmaskProposals(reviewer.client, earlier);
    expect(
      (
        await reviewer.client
          .from('scammer_reports')
          .update({ status: 'published', public_summary: SUMMARY })
          .eq('id', earlier)
      ).error,
    ).toBeNull();
    for (const watch of [
      { kind: 'name', value: surname },
      { kind: 'phone', value: phone },
    ]) {
      expect((await member.client.from('scammer_watches').insert(watch)).error).toBeNull();
    }
    const id = await file(member, { scammer_name: name, contact_info: contact });
    await claim(id);
    // The database proposes the number in the contact details (decision 240) and nothing in the name;
    // the reviewer keeps the proposal and masks the surname by hand, under the same rules (inside the
    // text, no overlap).
    const proposed = (await masks(id)).filter(
      (m) => m.field === 'scammer_name' || m.field === 'contact_info',
    );
    expect(proposed.map((m) => [m.field, m.kind, m.start_at, m.end_at, m.state])).toEqual([
      ['contact_info', 'phone', 5, 5 + phone.length, 'proposed'],
    ]);
    const overlapping = await reviewer.client
      .from('scammer_report_masks')
      .insert({ report_id: id, field: 'contact_info', start_at: 5, end_at: 5 + phone.length });
    expect(refusalOf(overlapping.error)?.field).toBe('start_at');
    const kept = await reviewer.client
      .from('scammer_report_masks')
      .update({ state: 'masked' })
      .eq('id', proposed[0]?.id ?? '')
      .select('field, kind, state');
    expect(kept.data).toEqual([{ field: 'contact_info', kind: 'phone', state: 'masked' }]);
    const outside = await reviewer.client
      .from('scammer_report_masks')
      .insert({ report_id: id, field: 'scammer_name', start_at: 5, end_at: name.length + 1 });
    expect(refusalOf(outside.error)?.field).toBe('end_at');
    const masked = await reviewer.client
      .from('scammer_report_masks')
      .insert({ report_id: id, field: 'scammer_name', start_at: 5, end_at: name.length })
      .select('id, field, kind, state');
    expect(masked.error).toBeNull();
    expect(masked.data?.map((m) => [m.field, m.kind, m.state])).toEqual([
      ['scammer_name', 'manual', 'masked'],
    ]);
    expect(
      (
        await reviewer.client
          .from('scammer_reports')
          .update({ status: 'published', public_summary: SUMMARY })
          .eq('id', id)
      ).error,
    ).toBeNull();

    // The Data API's answer carries the placeholder, never the masked characters.
    const response = await fetch(`${server.url}/rest/v1/published_scammer_reports?id=eq.${id}`, {
      headers: { apikey: server.anonKey, Authorization: `Bearer ${member.session.access_token}` },
    });
    const body = await response.text();
    expect(body).not.toContain(letters);
    expect(body).not.toContain(phone.slice(-4));
    expect(JSON.parse(body)[0]).toMatchObject({
      scammer_name: 'Ozzy [removed by the reviewers]',
      contact_info: `Text [removed by the reviewers] or @${handle}`,
    });
    // Probing finds nothing: the masked surname, its misspelling and the masked phone (any way written).
    const ids = async (query: string, sort = 'newest') => {
      const { data, error } = await member.client.rpc('search_scammer_reports', { query, sort });
      expect(error).toBeNull();
      return (data as { id: string }[]).map((r) => r.id);
    };
    for (const probe of [surname, `Quil${letters}`, `Ozzy ${surname}`, phone, phone.replace(/ /g, '')]) {
      expect(await ids(probe), probe).not.toContain(id);
    }
    // What readers see still finds it, and the result holds only the masked text.
    expect(await ids(handle, 'relevance')).toEqual([id]);
    const found = await member.client.rpc('search_scammer_reports', { query: `@${handle}` });
    expect(JSON.stringify(found.data)).not.toContain(surname);
    expect(JSON.stringify(found.data)).not.toContain(phone);
    // Linked reports: the only shared identifier is masked, so neither report links to the other.
    const linked = await member.client.rpc('linked_scammer_reports', { report_id: earlier });
    expect(linked.data.map((r: { id: string }) => r.id)).not.toContain(id);
    // Watch alerts: neither the watched surname nor the watched phone alerted.
    const alerts = async () => {
      const { rows } = await server.db.query<{ n: number }>(
        `select count(*)::int as n from public.notifications where user_id = $1 and kind = 'scammer_watch.match'
         and link = $2`,
        [member.id, `/scammer-database/${id}`],
      );
      return rows[0]?.n;
    };
    expect(await alerts()).toBe(0);
    // The spelling word list holds the words readers see, never a masked one.
    const inWordList = async (word: string) => {
      const { rows } = await server.db.query<{ n: number; completes: number }>(
        `select (select count(*)::int from private.scammer_report_words where word = $1) as n,
           (select count(*)::int from private.scammer_report_lexemes where lexeme = $1) as completes`,
        [word],
      );
      // The words that complete a typed word (decision 251) hold no masked word either.
      expect(rows[0]?.completes, word).toBe(rows[0]?.n);
      return rows[0]?.n;
    };
    expect(await inWordList(surname.toLowerCase())).toBe(0);
    expect(await inWordList(handle)).toBe(1);
    expect(await inWordList('ozzy')).toBe(1);

    // Unmasked by an admin: the name and phone are searchable, linked and in the word list again;
    // masked again, they are gone again.
    const nameMask = masked.data?.[0];
    const phoneMask = proposed[0];
    for (const mask of [nameMask, phoneMask]) {
      const decided = await reviewer.client
        .from('scammer_report_masks')
        .update({ state: 'unmasked' })
        .eq('id', mask?.id ?? '');
      expect(decided.error).toBeNull();
    }
    expect(await ids(surname)).toEqual([id]);
    expect(await ids(phone)).toContain(id);
    expect(await inWordList(surname.toLowerCase())).toBe(1);
    // Visible, the surname is a spelling suggestion: a misspelling finds the report.
    expect(await ids(`Quil${letters}`)).toEqual([id]);
    const relinked = await member.client.rpc('linked_scammer_reports', { report_id: earlier });
    expect(relinked.data.map((r: { id: string }) => r.id)).toContain(id);
    const again = await reviewer.client
      .from('scammer_report_masks')
      .update({ state: 'masked' })
      .in('id', [nameMask?.id ?? '', phoneMask?.id ?? '']);
    expect(again.error).toBeNull();
    expect(await ids(surname)).toEqual([]);
    expect(await ids(phone)).not.toContain(id);
    expect(await inWordList(surname.toLowerCase())).toBe(0);
    // Masked, it is never a suggestion: the same misspelling finds nothing.
    expect(await ids(`Quil${letters}`)).toEqual([]);
  });
});
