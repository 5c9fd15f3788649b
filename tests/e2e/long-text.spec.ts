import { test } from './fixtures.ts';
import { checkLongTexts } from './long-text.ts';

// Issue 34 item 1: no page is wider than a 1,280 px screen, whatever members and admins wrote.
test.describe.configure({ timeout: 300_000 });

test('long words, URLs and emoji runs in every user text keep each page within 1,280 px', async ({
  page,
  server,
  member,
}) => {
  await checkLongTexts(page, server, member, 1280);
});
