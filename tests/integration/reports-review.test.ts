// @databases: both — the review path and redaction are SQL and RLS.
/**
 * Issue 19, Scammer Network review and reading, through supabase-js: only admins move a report along
 * submitted → under_review → published | rejected, claim it for themselves, write its public summary
 * and redact fields; the reporter is notified and mailed at each status change and sees the rejection
 * reason; readers with access (subscription, trial, admin) find published reports — typo-tolerant —
 * without the reporter or any redacted field; nobody else reads anything.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, clientFor } from '#tests/support/clients.ts';
import { KALMENO, oneLetterIn, twoLettersAway } from '#tests/support/close-words.ts';
import { RELAXED_LIMITS } from '#tests/support/server-process.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { type SignedInUser, signedInUser, uniqueEmail } from '#tests/support/users.ts';
import { unmaskProposals } from './report-review-support.ts';

let server: TestServer;
let service: SupabaseClient;
let admin: SignedInUser;
let reporter: SignedInUser;
let subscriber: SignedInUser;
let lapsed: SignedInUser;

const DAY = 86_400_000;

function report(overrides: Record<string, unknown> = {}) {
  return {
    scammer_name: `Bartholomew Quickfingers ${Math.random().toString(36).slice(2, 8)}`,
    scammer_description: 'Sells fake lab results and disappears.',
    incident_details: 'Paid $400 upfront for two ounces; the seller stopped answering after payment.',
    location: 'Denver, CO',
    business_name: 'Mile High Deals',
    contact_info: '(303) 555-0147, lives at 12 Elm Street',
    amount_scammed: 400,
    date_of_incident: new Date(Date.now() - 10 * DAY).toISOString().slice(0, 10),
    ...overrides,
  };
}

async function submit(overrides: Record<string, unknown> = {}): Promise<string> {
  const values = { ...report(overrides), reporter_user_id: reporter.id };
  const { data, error } = await service.from('scammer_reports').insert(values).select('id').single();
  if (error) throw new Error(error.message);
  return data.id as string;
}

/**
 * Published reports named after each word (in the order given, ids likewise), with `business` as their
 * business name: as the review leaves them, with the vocabulary's triggers.
 */
async function publishNamed(words: string[], business: string): Promise<string[]> {
  const inserted = await server.db.query<{ id: string; word: string }>(
    `insert into public.scammer_reports (scammer_name, business_name, location, amount_scammed, reviewed_at,
       scammer_description, incident_details, reporter_user_id, status)
     select initcap(w), $2, 'Denver, CO', 100, now(),
       'Sold product that never arrived.', 'Paid upfront, then only silence.', $3, 'published'
     from unnest($1::text[]) w
     returning id, lower(scammer_name) as word`,
    [words, business, reporter.id],
  );
  const ids = new Map(inserted.rows.map((row) => [row.word, row.id]));
  return words.map((word) => ids.get(word) as string);
}

/** A word of `n` random letters, so a test's words are its own. */
function randomLetters(n: number): string {
  return Array.from({ length: n }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('');
}

async function endTrial(user: SignedInUser) {
  const { error } = await service
    .from('profiles')
    .update({ trial_ends_at: new Date(Date.now() - DAY).toISOString() })
    .eq('user_id', user.id);
  if (error) throw new Error(error.message);
}

beforeAll(async () => {
  server = await startTestServer({ ...RELAXED_LIMITS });
  service = adminClient(server);
  admin = await signedInUser(server, { email: uniqueEmail('admin', 'reports.example') });
  reporter = await signedInUser(server, { email: uniqueEmail('reporter', 'reports.example') });
  subscriber = await signedInUser(server, { email: uniqueEmail('subscriber', 'reports.example') });
  lapsed = await signedInUser(server, { email: uniqueEmail('lapsed', 'reports.example') });
  const granted = await service.from('user_roles').insert({ user_id: admin.id, role: 'admin' });
  if (granted.error) throw new Error(granted.error.message);
  for (const user of [reporter, subscriber, lapsed]) await endTrial(user);
  const subscribed = await service.from('scammer_subscriptions').insert({
    user_id: subscriber.id,
    expires_at: new Date(Date.now() + 20 * DAY).toISOString(),
  });
  if (subscribed.error) throw new Error(subscribed.error.message);
});
afterAll(() => server?.close());

describe('review: only admins move a report, along the flow', () => {
  it('refuses the reporter and other members any change, and admins any jump in the flow', async () => {
    const id = await submit();
    for (const set of [{ status: 'published' }, { public_summary: 'mine' }, { redacted_fields: [] }]) {
      const answer = await reporter.client.from('scammer_reports').update(set).eq('id', id).select();
      expect(answer.data ?? []).toEqual([]);
    }
    const rpcStyle = await subscriber.client
      .from('scammer_reports')
      .update({ status: 'under_review' })
      .eq('id', id)
      .select();
    expect(rpcStyle.data ?? []).toEqual([]);

    const jump = await admin.client.from('scammer_reports').update({ status: 'published' }).eq('id', id);
    expect(jump.error?.code).toBe('23514');
    expect(jump.error?.message).toBe('A submitted report cannot be marked published.');
    const noReason = await admin.client
      .from('scammer_reports')
      .update({ status: 'under_review' })
      .eq('id', id);
    expect(noReason.error).toBeNull();
    const rejectWithout = await admin.client
      .from('scammer_reports')
      .update({ status: 'rejected' })
      .eq('id', id);
    expect(rejectWithout.error?.code).toBe('23514');
    const editWords = await admin.client
      .from('scammer_reports')
      .update({ scammer_name: 'Someone Else' })
      .eq('id', id);
    expect(editWords.error?.code).toBe('42501');
    const claimForOther = await admin.client
      .from('scammer_reports')
      .update({ claimed_by: reporter.id })
      .eq('id', id);
    expect(claimForOther.error?.code).toBe('42501');
    const unknownField = await admin.client
      .from('scammer_reports')
      .update({ redacted_fields: ['reporter_user_id'] })
      .eq('id', id);
    expect(unknownField.error?.code).toBe('23514');
    const { data } = await service.from('scammer_reports').select('status, claimed_by').eq('id', id).single();
    expect(data).toEqual({ status: 'under_review', claimed_by: admin.id });
  });

  it('a member cannot submit a report with review fields filled in', async () => {
    const answer = await reporter.client
      .from('scammer_reports')
      .insert({ ...report(), reporter_user_id: reporter.id, public_summary: 'Verified scammer' });
    expect(answer.error?.code).toBe('42501');
  });

  it('claim, summary, redaction and publish: audited, reporter notified and mailed', async () => {
    const id = await submit();
    const claim = await admin.client.from('scammer_reports').update({ status: 'under_review' }).eq('id', id);
    expect(claim.error).toBeNull();
    const edit = await admin.client
      .from('scammer_reports')
      .update({
        public_summary: 'Took payment for flower, never shipped.',
        redacted_fields: ['contact_info'],
      })
      .eq('id', id);
    expect(edit.error).toBeNull();
    await unmaskProposals(admin.client, id);
    const publish = await admin.client.from('scammer_reports').update({ status: 'published' }).eq('id', id);
    expect(publish.error).toBeNull();

    const row = await service.from('scammer_reports').select('*').eq('id', id).single();
    expect(row.data).toMatchObject({
      status: 'published',
      claimed_by: admin.id,
      redacted_fields: ['contact_info'],
    });
    expect(row.data.reviewed_at).not.toBeNull();
    expect(row.data.claimed_at).not.toBeNull();

    const audit = await server.db.query<{ action: string; actor_id: string }>(
      `select action, actor_id from private.audit_log where target_table = 'public.scammer_reports' and target_id = $1 order by id`,
      [id],
    );
    expect(audit.rows).toEqual([
      { action: 'UPDATE', actor_id: admin.id },
      { action: 'UPDATE', actor_id: admin.id },
      { action: 'UPDATE', actor_id: admin.id },
    ]);
    const notes = await reporter.client
      .from('notifications')
      .select('kind, title, link')
      .in('kind', ['scammer_report.under_review', 'scammer_report.published'])
      .order('created_at');
    expect(notes.data?.map((n) => n.kind)).toEqual(
      expect.arrayContaining(['scammer_report.under_review', 'scammer_report.published']),
    );
    expect(notes.data?.[0]?.link).toBe('/scammer-database#my-reports');
    const mails = await server.db.query<{ subject: string }>(
      `select subject from private.mail_queue where to_email = $1 and type = 'scammer_report_status'`,
      [reporter.email],
    );
    expect(mails.rows.map((m) => m.subject)).toEqual(
      expect.arrayContaining(['Your scammer report was published']),
    );
  });

  it('a rejection carries its reason to the reporter, in My reports and the bell', async () => {
    const id = await submit();
    await admin.client.from('scammer_reports').update({ status: 'under_review' }).eq('id', id);
    const reject = await admin.client
      .from('scammer_reports')
      .update({ status: 'rejected', rejection_reason: 'The evidence does not show a scam.' })
      .eq('id', id);
    expect(reject.error).toBeNull();
    const mine = await reporter.client
      .from('scammer_reports')
      .select('status, rejection_reason')
      .eq('id', id)
      .single();
    expect(mine.data).toEqual({ status: 'rejected', rejection_reason: 'The evidence does not show a scam.' });
    const note = await reporter.client
      .from('notifications')
      .select('message')
      .eq('kind', 'scammer_report.rejected')
      .limit(1)
      .single();
    expect(note.data?.message).toContain('Reason: The evidence does not show a scam.');
    const again = await admin.client.from('scammer_reports').update({ status: 'published' }).eq('id', id);
    expect(again.error?.code).toBe('23514');
  });
});

describe('reading: published reports reach exactly the members with access', () => {
  let publishedId: string;
  let pendingId: string;
  const name = `Zebediah Crookshank ${Math.random().toString(36).slice(2, 6)}`;

  beforeAll(async () => {
    publishedId = await submit({ scammer_name: name, contact_info: 'home: 77 Secret Lane, ID 998877' });
    pendingId = await submit({ scammer_name: `${name} pending` });
    await admin.client.from('scammer_reports').update({ status: 'under_review' }).eq('id', publishedId);
    await admin.client
      .from('scammer_reports')
      .update({
        redacted_fields: ['contact_info', 'location'],
        public_summary: 'A member reports paying upfront for an order that never came.',
      })
      .eq('id', publishedId);
    await unmaskProposals(admin.client, publishedId);
    const published = await admin.client
      .from('scammer_reports')
      .update({ status: 'published' })
      .eq('id', publishedId);
    if (published.error) throw new Error(published.error.message);
  });

  it('a subscriber reads the published report, never the reporter, a redacted field or a pending one', async () => {
    const view = await subscriber.client
      .from('published_scammer_reports')
      .select('*')
      .in('id', [publishedId, pendingId]);
    expect(view.error).toBeNull();
    expect(view.data).toHaveLength(1);
    const row = view.data?.[0];
    expect(row.id).toBe(publishedId);
    expect(row.contact_info).toBeNull();
    expect(row.location).toBeNull();
    expect(row.business_name).toBe('Mile High Deals');
    expect(Object.keys(row)).not.toContain('reporter_user_id');
    expect(JSON.stringify(row)).not.toContain(reporter.id);
    expect(JSON.stringify(row)).not.toContain('Secret Lane');
    expect(row.reported_at).toBeTruthy();
    expect(row.reviewed_at).toBeTruthy();

    const base = await subscriber.client
      .from('scammer_reports')
      .select('*')
      .in('id', [publishedId, pendingId]);
    expect(base.data ?? []).toEqual([]);
    // Filtering on a redacted column finds nothing: the filter sees the redacted value.
    const probe = await subscriber.client
      .from('published_scammer_reports')
      .select('id')
      .eq('id', publishedId)
      .ilike('contact_info', '%Secret%');
    expect(probe.data).toEqual([]);
  });

  it('finds it by a typo’d name, and never by a redacted field', async () => {
    const typo = name.replace('Crookshank', 'Crokshank').replace('Zebediah', 'Zebedia');
    const found = await subscriber.client.rpc('search_scammer_reports', { query: typo });
    expect(found.error).toBeNull();
    expect(found.data.map((r: { id: string }) => r.id)).toContain(publishedId);
    expect(found.data.map((r: { id: string }) => r.id)).not.toContain(pendingId);
    const byRedacted = await subscriber.client.rpc('search_scammer_reports', { query: '77 Secret Lane' });
    expect(byRedacted.data.map((r: { id: string }) => r.id)).not.toContain(publishedId);
    const byBusiness = await subscriber.client.rpc('search_scammer_reports', {
      query: 'mile hi deals',
      amount_min: 300,
      amount_max: 500,
      sort: 'amount',
    });
    expect(byBusiness.data.map((r: { id: string }) => r.id)).toContain(publishedId);
    const outOfRange = await subscriber.client.rpc('search_scammer_reports', {
      query: name,
      amount_min: 401,
    });
    expect(outOfRange.data.map((r: { id: string }) => r.id)).not.toContain(publishedId);
  });

  it('finds a report by the start of a word or of a contact detail, completed from the words readers see (decision 251)', async () => {
    const tag = randomLetters(6);
    const id = await submit({
      scammer_name: `Quentavius Orloff${tag}`,
      business_name: `Farms${tag} Collective`,
      contact_info: `orders${tag}7@gmail.com`,
    });
    for (const step of [
      { status: 'under_review' },
      { public_summary: 'A member reports an order that never came.' },
    ]) {
      const moved = await admin.client.from('scammer_reports').update(step).eq('id', id);
      expect(moved.error).toBeNull();
    }
    await unmaskProposals(admin.client, id);
    const published = await admin.client.from('scammer_reports').update({ status: 'published' }).eq('id', id);
    expect(published.error).toBeNull();
    const ids = async (query: string) => {
      const { data, error } = await subscriber.client.rpc('search_scammer_reports', { query });
      expect(error).toBeNull();
      return (data as { id: string }[]).map((row) => row.id);
    };
    const lexemes = async (prefix: string) =>
      (
        await server.db.query<{ lexeme: string }>(
          `select lexeme from private.scammer_report_lexemes where lexeme like $1 || '%' order by lexeme`,
          [prefix],
        )
      ).rows.map((row) => row.lexeme);

    // The words it begins are the words readers can see, an email's included.
    expect(await lexemes(`orders${tag}`)).toEqual([`orders${tag}7@gmail.com`]);
    expect(await lexemes(`orloff${tag}`)).toEqual([`orloff${tag}`]);
    for (const query of [
      `orders${tag}`,
      `orloff${tag.slice(0, 3)}`,
      `quentav orloff${tag}`,
      `farms${tag} coll`,
    ]) {
      expect(await ids(query), query).toEqual([id]);
    }
    // A word that begins more than 64 words is searched as a prefix: the report's word, last of 71 in
    // order, is still found.
    await server.db.query(
      `insert into private.scammer_report_lexemes (lexeme)
       select $1 || 'a' || lpad(g::text, 2, '0') from generate_series(1, 70) g`,
      [`orloff${tag}`],
    );
    try {
      expect(await ids(`orloff${tag.slice(0, 3)}`)).toEqual([id]);
    } finally {
      await server.db.query(`delete from private.scammer_report_lexemes where lexeme like $1 || 'a%'`, [
        `orloff${tag}`,
      ]);
    }
    // Deleted, its words go with it.
    const deleted = await service.from('scammer_reports').delete().eq('id', id);
    expect(deleted.error).toBeNull();
    expect(await lexemes(`orders${tag}`)).toEqual([]);
    expect(await lexemes(`orloff${tag}`)).toEqual([]);
    expect(await ids(`orders${tag}`)).toEqual([]);
  });

  it('keeps every word as close as the 16th closest, up to 32 (decision 274)', async () => {
    // "kalmeno" with one letter put in after its 3rd letter (17 words) or its 4th (7 more): 24 words,
    // each sharing 6 of its trigrams (similarity 6/11), none a completion of it. A limit of 16 kept 16
    // of them by chance, and a report naming another was not found.
    const words = [...oneLetterIn(3, 'bcdfghjpqrstvwxyz'), ...oneLetterIn(4, 'bcdfghj')];
    const tag = randomLetters(6);
    const tied = await server.db.query<{ n: number; low: number; high: number }>(
      `select count(*)::int as n, min(extensions.similarity(w, 'kalmeno'))::float8 as low,
         max(extensions.similarity(w, 'kalmeno'))::float8 as high from unnest($1::text[]) w`,
      [words],
    );
    expect(tied.rows[0]).toEqual({ n: 24, low: tied.rows[0]?.high, high: tied.rows[0]?.high });
    const ids = await publishNamed(words, `Tiecheck${tag}`);
    try {
      const found = await subscriber.client.rpc('search_scammer_reports', {
        query: `${KALMENO} tiecheck${tag}`,
        result_limit: 100,
      });
      expect(found.error).toBeNull();
      expect((found.data as { id: string }[]).map((row) => row.id).sort()).toEqual([...ids].sort());
    } finally {
      expect((await service.from('scammer_reports').delete().in('id', ids)).error).toBeNull();
    }
  });

  it('among words as close, keeps those one letter away first (decision 274)', async () => {
    // 40 words as close to "kalmeno" by trigrams as "kalmzeno", but two letters away and before it in
    // byte order: ranked by similarity alone, the 32 kept were all of those, and "Kalmzeno" was not found.
    const far = await twoLettersAway(server.db, 40);
    expect(far).toHaveLength(40);
    const tag = randomLetters(6);
    const ids = await publishNamed([...far, ...oneLetterIn(4, 'z')], `Editcheck${tag}`);
    try {
      const found = await subscriber.client.rpc('search_scammer_reports', {
        query: `${KALMENO} editcheck${tag}`,
        result_limit: 100,
      });
      expect(found.error).toBeNull();
      // The one letter away, then 31 of the 40: the 16 closest and those ranked as the 16th, up to 32.
      const foundIds = (found.data as { id: string }[]).map((row) => row.id);
      expect(foundIds).toHaveLength(32);
      expect(foundIds).toContain(ids.at(-1));
    } finally {
      expect((await service.from('scammer_reports').delete().in('id', ids)).error).toBeNull();
    }
  });

  it('members without access, visitors and the reporter without access read nothing', async () => {
    for (const client of [lapsed.client, clientFor(server)]) {
      const view = await client.from('published_scammer_reports').select('*').eq('id', publishedId);
      expect(view.data ?? []).toEqual([]);
      const search = await client.rpc('search_scammer_reports', { query: name });
      expect(search.error).not.toBeNull();
      expect(search.data ?? []).toEqual([]);
    }
    const denied = await lapsed.client.rpc('search_scammer_reports', { query: name });
    expect(denied.error?.code).toBe('42501');
    // The reporter still sees their own report (with every field) in My reports.
    const own = await reporter.client
      .from('scammer_reports')
      .select('contact_info, status')
      .eq('id', publishedId)
      .single();
    expect(own.data).toEqual({ contact_info: 'home: 77 Secret Lane, ID 998877', status: 'published' });
  });

  it('refuses bad search input with a clear error, not a 500', async () => {
    const badSort = await subscriber.client.rpc('search_scammer_reports', { sort: 'drop table' });
    expect(badSort.error?.code).toBe('22023');
    const badLimit = await subscriber.client.rpc('search_scammer_reports', { result_limit: 100000 });
    expect(badLimit.error?.code).toBe('22023');
    const markup = await subscriber.client.rpc('search_scammer_reports', { query: "<script>'%_\\" });
    expect(markup.error).toBeNull();
  });

  it('admins read every published report through the view too', async () => {
    const view = await admin.client.from('published_scammer_reports').select('id').eq('id', publishedId);
    expect(view.data).toEqual([{ id: publishedId }]);
  });
});
