import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expect as baseExpect } from './fixtures.ts';
import { adminClient, deleteMember, type Member, openSignedIn, type ServerInfo } from './support/api.ts';
import { setPrivacy } from './support/member-profile.ts';

/**
 * Issue 34 item 1, decision 171: members' and admins' text with a 2,000-character unbroken word, a
 * 500-character URL and 200 emoji, in every field a member or admin fills, never makes a page wider
 * than the screen. Shared by long-text.spec.ts (1,280 px) and long-text.mobile.spec.ts (390 px).
 */

const expect = baseExpect.configure({ timeout: 30_000 });

/** A word of `length` characters with no break opportunity: letters only. */
export function word(length: number, tag: string): string {
  return `${tag}${'W'.repeat(Math.max(0, length - tag.length))}`;
}

/** An http URL of `length` characters (no characters the text checks refuse). */
export function url(length: number, tag: string): string {
  const head = `https://example.com/${tag}/`;
  return `${head}${'u'.repeat(length - head.length)}`;
}

/** A run of `count` emoji (one code point each), no spaces. */
export function emoji(count: number): string {
  return '🌿'.repeat(count);
}

interface Seeded {
  username: string;
  productId: string;
  reportId: string;
  postId: string;
  bookingId: string;
  brandSlug: string;
  /** The tag that starts each long text of this run: `C${tag}` a comment, `S${tag}` the report's name… */
  tag: string;
}

/** Arranges everything with the service key (the forms have their own tests), as the admin `member`. */
async function seed(server: ServerInfo, member: Member): Promise<Seeded> {
  const t = randomBytes(3).toString('hex');
  const service = adminClient(server);
  const ok = (what: string, result: { error: unknown }) => expect(result.error, what).toBeNull();
  ok('admin role', await service.from('user_roles').insert({ user_id: member.id, role: 'admin' }));

  const username = word(64, `L${t}.`);
  ok(
    'profile',
    await service
      .from('profiles')
      .update({ username, full_name: word(100, `N${t}`), bio: `${word(900, `B${t}`)} ${emoji(60)}` })
      .eq('user_id', member.id),
  );
  // The public profile shows the member's comments only when they chose to show activity (decision 193).
  await setPrivacy(server, member, { profile_visibility: 'public', show_email: false, show_activity: true });

  const product = await service
    .from('products')
    .insert({ name: word(200, `P${t}`), category: 'Flower', description: word(2000, `D${t}`) })
    .select('id')
    .single();
  ok('product', product);
  const productId = product.data?.id as string;
  ok(
    'vote',
    await service
      .from('product_votes')
      .insert({ user_id: member.id, product_id: productId, vote_type: 'gas' }),
  );
  for (const content of [word(2000, `C${t}`), url(500, `c${t}`), emoji(200)]) {
    ok(
      'comment',
      await service.from('product_comments').insert({ user_id: member.id, product_id: productId, content }),
    );
  }
  // The long comment reported with a long reason: the moderation queue shows both.
  const reported = await service
    .from('product_comments')
    .select('id')
    .eq('product_id', productId)
    .like('content', `C${t}%`)
    .single();
  ok('reported comment', reported);
  ok(
    'comment report',
    await service.from('product_comment_reports').insert({
      comment_id: reported.data?.id,
      reporter_id: member.id,
      reason: `${word(300, `CR${t}`)} ${url(190, `cr${t}`)}`,
    }),
  );

  const report = await service
    .from('scammer_reports')
    .insert({
      scammer_name: word(100, `S${t}`),
      scammer_description: word(1000, `E${t}`),
      incident_details: `${word(1500, `I${t}`)} ${emoji(200)}`,
      location: word(200, `O${t}`),
      business_name: word(200, `U${t}`),
      contact_info: url(500, `r${t}`),
      amount_scammed: 120,
      reporter_user_id: member.id,
      status: 'published',
      public_summary: `${word(1500, `Y${t}`)} ${emoji(100)}`,
      reviewed_at: new Date().toISOString(),
    })
    .select('id')
    .single();
  ok('report', report);
  const reportId = report.data?.id as string;
  // A second one, waiting for review, for the admins' queue.
  ok(
    'report to review',
    await service.from('scammer_reports').insert({
      scammer_name: word(100, `V${t}`),
      scammer_description: word(1000, `F${t}`),
      incident_details: `${word(1500, `G${t}`)} ${emoji(200)}`,
      business_name: word(200, `H${t}`),
      contact_info: url(500, `v${t}`),
      reporter_user_id: member.id,
    }),
  );
  ok(
    'reply',
    await service.from('scammer_report_replies').insert({
      report_id: reportId,
      user_id: member.id,
      kind: 'reply',
      relation: 'person',
      body: `${word(1500, `R${t}`)} ${url(400, `y${t}`)}`,
    }),
  );
  // A second request, declined with the reviewers' note (the sender reads it on the reply page).
  ok(
    'declined reply',
    await service.from('scammer_report_replies').insert({
      report_id: reportId,
      user_id: member.id,
      kind: 'correction',
      relation: 'person',
      body: word(300, `RC${t}`),
      status: 'declined',
      decision_note: `${word(700, `DN${t}`)} ${url(280, `dn${t}`)}`,
    }),
  );

  const post = await service
    .from('admin_posts')
    .insert({
      title: word(200, `T${t}`),
      content: `${word(2000, `A${t}`)}\n\n${url(500, `a${t}`)}\n\n${emoji(200)}`,
      author_id: member.id,
      status: 'published',
      featured: true,
    })
    .select('id')
    .single();
  ok('post', post);

  const brandSlug = `long-${t}`;
  const brand = await service
    .from('brands')
    .insert({
      name: word(120, `J${t}`),
      slug: brandSlug,
      description: `${word(2000, `Z${t}`)} ${url(400, `z${t}`)} ${emoji(100)}`,
    })
    .select('id')
    .single();
  ok('brand', brand);
  const brandId = brand.data?.id as string;
  // A licence with the longest number the format takes (64 characters, no break) and a long type and note.
  ok(
    'licence',
    await service.from('brand_licences').insert({
      brand_id: brandId,
      number: word(64, `LN${t}`),
      state: 'CA',
      type: word(100, `k${t}`),
      verification: 'verified',
      verification_note: `${word(1500, `vn${t}`)} ${url(400, `vu${t}`)}`,
      is_primary: true,
    }),
  );
  // A claim waiting for the admins: its role and message.
  ok(
    'claim',
    await service.from('brand_claims').insert({
      brand_id: brandId,
      user_id: member.id,
      role_title: word(100, `RT${t}`),
      message: `${word(1500, `cm${t}`)} ${url(400, `cu${t}`)}`,
    }),
  );
  ok(
    'news source',
    await service.from('news_sources').insert({
      name: word(120, `NS${t}`),
      category: word(40, `nc${t}`),
      feed_url: url(500, `nf${t}`),
      enabled: false,
    }),
  );
  // The member's rejected report, with the reviewers' reason (shown in My reports).
  ok(
    'rejected report',
    await service.from('scammer_reports').insert({
      scammer_name: word(100, `RJ${t}`),
      scammer_description: word(1000, `rd${t}`),
      incident_details: `${word(1500, `ri${t}`)} ${emoji(100)}`,
      reporter_user_id: member.id,
      status: 'rejected',
      rejection_reason: `${word(700, `RR${t}`)} ${url(280, `rr${t}`)}`,
    }),
  );

  const day = new Date(Date.now() + (30 + Math.floor(Math.random() * 300)) * 86_400_000)
    .toISOString()
    .slice(0, 10);
  const booking = await service
    .from('bookings')
    .insert({
      full_name: word(100, `K${t}`),
      email: member.email,
      company_name: word(200, `M${t}`),
      product_name: word(200, `Q${t}`),
      product_description: `${word(1500, `X${t}`)} ${url(400, `b${t}`)}`,
      product_category: 'Flower',
      booking_date: day,
      booking_time: '10:30',
      special_requests: `${word(1500, `h${t}`)} ${url(400, `s${t}`)}`,
      user_id: member.id,
    })
    .select('id')
    .single();
  ok('booking', booking);
  return {
    username,
    productId,
    reportId,
    postId: post.data?.id as string,
    bookingId: booking.data?.id as string,
    brandSlug,
    tag: t,
  };
}

/** Fails when the document scrolls sideways, naming the innermost elements that stick out. */
export async function expectNoHorizontalOverflow(page: Page, path: string): Promise<void> {
  await expect
    .poll(
      () =>
        page.evaluate(() => {
          const { scrollWidth, clientWidth } = document.documentElement;
          if (scrollWidth <= clientWidth) return '';
          // The elements that stick out past the screen while their parent does not (the cause),
          // outside any box that scrolls or clips them.
          const sticksOut = (element: Element) =>
            element.getBoundingClientRect().right + window.scrollX > clientWidth + 1;
          const clipped = (element: Element) => {
            for (let parent = element.parentElement; parent; parent = parent.parentElement) {
              if (parent === document.body) return false;
              if (getComputedStyle(parent).overflowX !== 'visible') return true;
            }
            return false;
          };
          const outside = [...document.querySelectorAll('body *')].filter(
            (element) => sticksOut(element) && !clipped(element),
          );
          const wide = outside.filter(
            (element) => !element.parentElement || !outside.includes(element.parentElement),
          );
          // Text can stick out of a box that itself fits (a line that may not wrap).
          const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const range = document.createRange();
            range.selectNodeContents(node);
            const parent = node.parentElement;
            if (
              parent &&
              range.getBoundingClientRect().right + window.scrollX > clientWidth + 1 &&
              !clipped(node as Element)
            ) {
              wide.push(parent);
            }
          }
          const names = wide.slice(0, 5).map((element) => {
            const right = Math.round(element.getBoundingClientRect().right);
            return `${right}px <${element.tagName.toLowerCase()} class="${element.getAttribute('class') ?? ''}">`;
          });
          return `${scrollWidth - clientWidth} px too wide: ${names.join(' ')}`;
        }),
      { message: `${path} fits the screen` },
    )
    .toBe('');
}

/** Seeds the long texts, then visits each page that shows them at `width` px. */
export async function checkLongTexts(
  page: Page,
  server: ServerInfo,
  member: Member,
  width: number,
): Promise<void> {
  await page.setViewportSize({ width, height: 900 });
  const seeded = await seed(server, member);
  try {
    // Each page with a text it shows once loaded (a prefix of a long word is enough to know it came).
    const t = seeded.tag;
    const visits: Array<[string, string]> = [
      [`/pass-or-gas/${seeded.productId}`, `C${t}`],
      [`/pass-or-gas?q=P${t}`, `P${t}`],
      ['/profile', `N${t}`],
      ['/profile?tab=comments', `C${t}`],
      ['/profile?tab=votes', 'Voting History'],
      [`/u/${seeded.username}`, `C${t}`],
      ['/scammer-database', `S${t}`],
      [`/scammer-database/${seeded.reportId}`, `I${t}`],
      ['/news', `T${t}`],
      ['/booking', 'Book Your Promo Session'],
      ['/admin/posts', `T${t}`],
      ['/admin/bookings', `Q${t}`],
      ['/admin/reports', `V${t}`],
      ['/admin/products', `P${t}`],
      ['/admin/members', `N${t}`],
      ['/admin/moderation', `C${t}`],
      ['/admin/brands', `RT${t}`],
      ['/admin/news', `NS${t}`],
      ['/admin/audit', 'Audit and security'],
      ['/', `T${t}`],
      [`/news/posts/${seeded.postId}`, `A${t}`],
      [`/brand-directory/${seeded.brandSlug}`, `Z${t}`],
      [`/brand-directory/${seeded.brandSlug}`, `LN${t}`],
      ['/scammer-database', `RR${t}`],
      [`/scammer-database/${seeded.reportId}/reply`, `Y${t}`],
      [`/scammer-database/${seeded.reportId}/reply`, `DN${t}`],
      [`/admin/reports/${seeded.reportId}`, `I${t}`],
      [`/admin/bookings/${seeded.bookingId}`, `h${t}`],
    ];
    let first = true;
    for (const [path, text] of visits) {
      if (first) await openSignedIn(page, server, member, path);
      else await page.goto(path);
      first = false;
      await expect(page.getByRole('main').getByText(text).first()).toBeVisible();
      await expectNoHorizontalOverflow(page, path);
    }
  } finally {
    await deleteMember(server, member).catch(() => undefined);
  }
}
