import { randomBytes } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import { expect as baseExpect, test, toastWith } from './fixtures.ts';
import { emoji, expectNoHorizontalOverflow, url, word } from './long-text.ts';
import { adminClient, createMember, deleteMember, openSignedIn } from './support/api.ts';
import { publishedReport } from './support/fair-process.ts';
import { setPrivacy } from './support/member-profile.ts';

/**
 * Issue 34 item 1, through the forms themselves: a member (who is also an admin) types the longest
 * unbroken word each field takes (at most 2,000 characters), a URL (at most 500) or a run of emoji
 * into the product, comment, profile, report, reply, booking (and its internal note), brand (and its
 * licence), claim, post and news-source forms,
 * sends each, and every page that shows what was typed fits a 1,280 px and a 390 px screen. The
 * seeded walk (long-text.ts) covers the fields no form of this kind writes (reviewers' notes, licences,
 * reasons).
 */

const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 300_000 });
// The booking calendar is read in UTC.
test.use({ timezoneId: 'UTC' });

const MONTHS = new Intl.DateTimeFormat('en-US', { month: 'long', timeZone: 'UTC' });
const ORDINAL = (day: number) =>
  `${day}${day % 10 === 1 && day !== 11 ? 'st' : day % 10 === 2 && day !== 12 ? 'nd' : day % 10 === 3 && day !== 13 ? 'rd' : 'th'}`;

/**
 * Types into the field the longest text of its kind it takes — a word (2,000 characters at most), a
 * URL (500) or emoji (200) — beginning with `tag`, so the page showing it can be told by it.
 */
async function typeLong(
  field: Locator,
  tag: string,
  kind: 'word' | 'url' | 'emoji' = 'word',
): Promise<string> {
  await expect(field).toBeEditable();
  const limit = Number((await field.getAttribute('maxlength')) ?? '') || Number.POSITIVE_INFINITY;
  const text =
    kind === 'url'
      ? url(Math.min(500, limit), tag)
      : kind === 'emoji'
        ? `${tag} ${emoji(Math.min(200, Math.floor((limit - tag.length - 1) / 2)))}`
        : word(Math.min(2000, limit), tag);
  await field.fill(text);
  return text;
}

const main = (page: Page) => page.getByRole('main');

test('long words, URLs and emoji typed into the forms keep every page that shows them within 1,280 and 390 px', async ({
  page,
  server,
  member,
}) => {
  test.slow();
  const t = randomBytes(3).toString('hex');
  const service = adminClient(server);
  expect((await service.from('user_roles').insert({ user_id: member.id, role: 'admin' })).error).toBeNull();
  const reporter = await createMember(server);
  try {
    // Admin: a product through its form.
    await openSignedIn(page, server, member, '/admin/products');
    await page.getByRole('button', { name: 'New product' }).click();
    const productName = await typeLong(page.getByLabel('Name', { exact: true }), `fp${t}`);
    await page.getByLabel('Category', { exact: true }).selectOption('Flower');
    await typeLong(page.getByLabel('Description', { exact: true }), `fd${t}`);
    await page.getByRole('button', { name: 'Create product' }).click();
    await expect(page.getByTestId('admin-product').filter({ hasText: `fp${t}` })).toBeVisible();
    const product = await service.from('products').select('id').eq('name', productName).single();
    expect(product.error).toBeNull();
    const productId = product.data?.id as string;

    // Member: two comments on it, a word and a URL.
    await page.goto(`/pass-or-gas/${productId}`);
    for (const [tag, kind] of [
      [`fc${t}`, 'word'],
      [`fu${t}`, 'url'],
    ] as const) {
      await typeLong(page.getByLabel('Add a comment'), tag, kind);
      await page.getByRole('button', { name: 'Post comment' }).click();
      await expect(page.getByTestId('comment').filter({ hasText: tag })).toBeVisible();
    }

    // Member: the profile's name and bio (the username keeps its format: letters and a dot).
    await page.goto('/profile');
    const username = await typeLong(main(page).getByRole('textbox', { name: /^Username/ }), `fn${t}.`);
    await typeLong(main(page).getByRole('textbox', { name: /^Display Name/ }), `fN${t}`);
    await typeLong(main(page).getByRole('textbox', { name: /^Bio/ }), `fB${t}`, 'emoji');
    await main(page).getByRole('button', { name: 'Save Changes' }).click();
    await expect(toastWith(page, 'Profile updated')).toBeVisible();
    // The public profile shows the name and the comments once the member chose to show them (decision 193).
    await setPrivacy(server, member, {
      profile_visibility: 'public',
      show_email: false,
      show_activity: true,
    });

    // Member: a scam report through the dialog.
    await page.getByRole('banner').getByRole('button', { name: 'Submit a Tip' }).click();
    const dialog = page.getByRole('dialog', { name: 'Submit a Scammer Report' });
    const box = (name: RegExp) => dialog.getByRole('textbox', { name });
    await typeLong(box(/^Scammer Name/), `fs${t}`);
    await typeLong(box(/^Location/), `fo${t}`);
    await typeLong(box(/^Scammer Description/), `fe${t}`);
    await typeLong(box(/^Incident Details/), `fi${t}`);
    await typeLong(box(/^Business Name/), `fb${t}`);
    await typeLong(box(/^Contact Info Used/), `fk${t}`, 'url');
    await dialog.getByRole('checkbox', { name: /I confirm this report is true/ }).check();
    await dialog.getByRole('button', { name: 'Submit Report' }).click();
    await expect(toastWith(page, 'Report Submitted')).toBeVisible();
    const typedReport = await service
      .from('scammer_reports')
      .select('id')
      .like('scammer_name', `fs${t}%`)
      .single();
    expect(typedReport.error).toBeNull();

    // Member: a reply to another member's published report.
    const answered = await publishedReport(server, reporter, `Long Reply Target ${t}`);
    await page.goto(`/scammer-database/${answered}/reply`);
    await main(page).getByLabel('How are you named in the report?').selectOption('person');
    await typeLong(main(page).getByRole('textbox', { name: /Your message/ }), `fr${t}`);
    await main(page).getByRole('button', { name: 'Send for review' }).click();
    await expect(main(page).getByText('Waiting for review')).toBeVisible();

    // Visitor or member: a booking request, every text field long.
    await page.goto('/booking');
    const field = (name: RegExp) => main(page).getByRole('textbox', { name });
    // The member's name and email arrive after the form: typing before they land would race them.
    await expect(field(/^Email/)).toHaveValue(member.email);
    await typeLong(field(/^Full Name/), `fq${t}`);
    await typeLong(field(/^Company Name/), `fm${t}`);
    await typeLong(field(/^Product Name/), `fx${t}`);
    await typeLong(field(/^Product Description/), `fy${t}`, 'url');
    await typeLong(field(/^Special Requests/), `fh${t}`);
    await main(page)
      .getByRole('combobox', { name: /^Product Category/ })
      .selectOption('Flower');
    await page.getByRole('button', { name: /next month/i }).click();
    const now = new Date();
    const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 16));
    await page
      .getByRole('button', {
        name: new RegExp(`\\b${MONTHS.format(day)} ${ORDINAL(day.getUTCDate())}, ${day.getUTCFullYear()}`),
      })
      .click();
    await page.getByRole('radio', { name: '09:30' }).check();
    await page.getByRole('button', { name: 'Submit Booking Request' }).click();
    await expect(
      toastWith(page, "Your booking request has been submitted. We'll contact you soon!"),
    ).toBeVisible();
    const booking = await service.from('bookings').select('id').like('product_name', `fx${t}%`).single();
    expect(booking.error).toBeNull();

    // Admin: the booking's internal note.
    await page.goto(`/admin/bookings/${booking.data?.id}`);
    await typeLong(page.getByLabel('Internal note'), `fI${t}`);
    await page.getByRole('button', { name: 'Save note' }).click();
    await expect(toastWith(page, 'Note saved')).toBeVisible();

    // Admin: a brand's name and description through its form; the member then claims it.
    const slug = `typed-${t}`;
    expect((await service.from('brands').insert({ name: `Typed Brand ${t}`, slug })).error).toBeNull();
    await page.goto('/admin/brands');
    await page.getByLabel('Find a brand').fill(`Typed Brand ${t}`);
    await page
      .getByTestId('admin-brand')
      .filter({ hasText: `Typed Brand ${t}` })
      .getByRole('button', { name: /^Edit/ })
      .click();
    await typeLong(page.getByLabel('Name', { exact: true }), `fj${t}`);
    await typeLong(page.getByLabel('Description', { exact: true }), `fz${t}`);
    // Its licence, verified: the longest number the format takes, a long type and evidence note.
    await typeLong(page.getByLabel('Licence number'), `fL${t}`);
    await page.getByLabel('Issuing state').selectOption('CA');
    await typeLong(page.getByLabel('Licence type'), `fT${t}`);
    await page.getByLabel('Verification').selectOption('verified');
    await page.getByLabel('Verified on').fill('2026-11-02');
    await typeLong(page.getByLabel(/^Evidence note/), `fE${t}`);
    await page.getByRole('button', { name: 'Save brand' }).click();
    await expect(toastWith(page, 'Brand saved')).toBeVisible();
    await page.goto(`/brand-directory/${slug}`);
    await page.getByRole('button', { name: 'Claim this brand' }).click();
    const claim = page.getByRole('dialog');
    await typeLong(claim.getByLabel('Your role at the brand'), `fw${t}`);
    await typeLong(claim.getByLabel(/How can an admin confirm it/), `fv${t}`, 'url');
    await claim.getByRole('button', { name: 'Send claim' }).click();
    await expect(toastWith(page, 'Claim sent')).toBeVisible();

    // Admin: a team post.
    await page.goto('/admin/posts');
    await page.getByRole('link', { name: 'New post' }).click();
    await typeLong(page.getByLabel(/^Title/), `ft${t}`);
    await typeLong(page.getByLabel(/^Content \(Markdown\)/), `fa${t}`);
    await page.getByRole('button', { name: 'Create post' }).click();
    await expect(toastWith(page, 'Post created')).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/posts\/[0-9a-f-]{36}$/);
    const postId = /\/admin\/posts\/([0-9a-f-]{36})$/.exec(page.url())?.[1] as string;

    // Admin: a news source (a loopback address nothing answers on, so it is never fetched from outside).
    await page.goto('/admin/news');
    await page.getByRole('button', { name: 'Add source' }).click();
    const source = page.getByRole('dialog', { name: 'Add a news source' });
    await typeLong(source.getByLabel('Name'), `fg${t}`);
    await typeLong(source.getByLabel('Category'), `fG${t}`);
    await source.getByLabel('Feed URL').fill(`http://127.0.0.1:9/${word(480, `ff${t}`)}`);
    await source.getByRole('button', { name: 'Save source' }).click();
    await expect(toastWith(page, 'Source added')).toBeVisible();

    // Every page that shows what was typed, on a desktop and on a phone.
    const visits: Array<[string, string]> = [
      [`/pass-or-gas/${productId}`, `fc${t}`],
      [`/pass-or-gas?q=fp${t}`, `fp${t}`],
      ['/profile?tab=comments', `fu${t}`],
      [`/u/${username}`, `fN${t}`],
      ['/scammer-database', `fs${t}`],
      ['/admin/reports', `fs${t}`],
      [`/admin/reports/${typedReport.data?.id}`, `fi${t}`],
      [`/scammer-database/${answered}/reply`, `fr${t}`],
      ['/booking', `fx${t}`],
      ['/admin/bookings', `fx${t}`],
      [`/admin/bookings/${booking.data?.id}`, `fh${t}`],
      [`/brand-directory/${slug}`, `fz${t}`],
      [`/brand-directory/${slug}`, `fE${t}`],
      ['/admin/brands', `fw${t}`],
      ['/news', `ft${t}`],
      [`/news/posts/${postId}`, `fa${t}`],
      ['/admin/posts', `ft${t}`],
      ['/admin/news', `fg${t}`],
      ['/admin/products', `fp${t}`],
    ];
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      for (const [path, text] of visits) {
        await page.goto(path);
        await expect(main(page).getByText(text).first()).toBeVisible();
        await expectNoHorizontalOverflow(page, `${path} at ${width} px`);
      }
    }
  } finally {
    await deleteMember(server, reporter);
  }
});
