import { readFile } from 'node:fs/promises';
import { expect, expectNoSeriousA11yViolations, test } from './fixtures.ts';
import { adminClient, openSignedIn } from './support/api.ts';
import { type E2eServer, startE2eServer } from './support/server.ts';

/**
 * /market-index and /admin/market (issue 20, product §market-index): ranges, the chart and the table
 * showing the same points, the tooltip, the export, the methodology, the import with row-level
 * problems, and the demonstration label (on a server of its own with DEMO_CONTENT=true).
 */

const FIRST_LOAD = { timeout: 30_000 };
test.describe.configure({ timeout: 180_000 });

/**
 * The chart drew as many points as the table lists (both render the same query's array). A long table
 * shows its newest 40 rows and a button for the rest (decision 160), which says how many there are.
 */
async function expectChartEqualsTable(scope: import('@playwright/test').Locator) {
  const table = scope.getByTestId('points-table');
  await expect(table.locator('tbody tr').first()).toBeVisible(FIRST_LOAD);
  const showAll = scope.getByRole('button', { name: /^Show all \d+ values$/ });
  if (await showAll.isVisible()) {
    await expect(table.locator('tbody tr')).toHaveCount(40);
    const total = (await showAll.textContent())?.match(/\d+/)?.[0];
    expect(total).toBe(await scope.getByTestId('index-chart').getAttribute('data-points'));
    await showAll.click();
    await expect(showAll).toHaveCount(0);
    await expect(scope.getByRole('region', { name: /: values$/ })).toBeFocused();
  }
  await expect
    .poll(async () => {
      const rows = await scope.getByTestId('points-table').locator('tbody tr').count();
      const drawn = await scope.getByTestId('index-chart').getAttribute('data-points');
      return rows > 0 && String(rows) === drawn;
    })
    .toBe(true);
}

function panel(page: import('@playwright/test').Page, name: string) {
  return page.getByRole('region', { name, exact: true });
}

test('the flower index: ranges in the URL, chart and table with the same points, tooltip, CSV, methodology', async ({
  page,
}) => {
  test.slow();
  await page.goto('/market-index');
  const flower = panel(page, 'HighGrade Flower Price Index');
  const table = flower.getByTestId('points-table');
  const chart = flower.getByTestId('index-chart');
  await expect(table).toBeVisible(FIRST_LOAD);
  await expect(flower.getByRole('button', { name: 'All', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  const rows = table.locator('tbody tr');
  await expectChartEqualsTable(flower);
  const allCount = await rows.count();
  expect(allCount).toBeGreaterThan(25);
  await expect(table.getByRole('rowheader', { name: '2018-10-01' })).toBeVisible();
  // A quarter nobody reported is carried, visibly
  await expect(table.locator('tr[data-date="2024-01-01"]')).toContainText('carried');
  // Each point names the states that moved it, with both prices, and those not compared (decision 205)
  await expect(table.locator('tr[data-date="2020-01-01"]')).toContainText(
    'contributing: MA 14.5700/14.0800 (1 of 5 states); not compared: MI (first point)',
  );

  await flower.getByRole('button', { name: '1Y', exact: true }).click();
  await expect(page).toHaveURL(/[?&]flower-price=1Y/);
  await expect(table).toHaveAttribute('data-range', '1Y');
  await expect(flower.getByRole('button', { name: '1Y', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(table.getByRole('rowheader', { name: '2018-10-01' })).toHaveCount(0);
  await expectChartEqualsTable(flower);
  const yearCount = await rows.count();
  expect(yearCount).toBeLessThan(allCount);
  await expect(flower.getByTestId('range-change')).toContainText('%');

  // The tooltip shows a point of the table: date, value, source, as-of
  // The chart draws when it comes near the viewport (decision 160), as a reader scrolling to it sees.
  await chart.scrollIntoViewIfNeeded();
  const plot = chart.locator('.u-over');
  await expect(plot).toBeVisible(FIRST_LOAD);
  const box = await plot.boundingBox();
  if (!box) throw new Error('the chart has no plotting area');
  await plot.hover({ position: { x: box.width - 4, y: box.height / 2 } });
  const tooltip = flower.getByTestId('chart-tooltip');
  await expect(tooltip).toBeVisible();
  await expect(tooltip).toContainText('Source:');
  await expect(tooltip).toContainText('As of');
  const tooltipDate = (await tooltip.textContent())?.match(/\d{4}-\d{2}-\d{2}/)?.[0] ?? '';
  const row = table.locator(`tr[data-date="${tooltipDate}"]`);
  await expect(row).toHaveCount(1);
  const value = (await row.locator('td').first().textContent())?.replace('carried', '').trim() ?? '';
  await expect(tooltip).toContainText(`${tooltipDate}: ${value}`);

  await page.reload();
  await expect(flower.getByRole('button', { name: '1Y', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
    FIRST_LOAD,
  );
  await expectNoSeriousA11yViolations(page);

  const download = page.waitForEvent('download');
  await flower.getByRole('button', { name: 'Download CSV' }).click();
  const csv = await readFile((await (await download).path()) as string, 'utf8');
  const lines = csv.trim().split('\r\n');
  expect(lines[0]).toBe('index,date,value,carried,revision,source,detail,as_of,demonstration');
  expect(lines).toHaveLength(yearCount + 1);
  expect(lines.slice(1).every((line) => line.startsWith('flower-price,'))).toBe(true);

  await flower.getByRole('link', { name: 'Methodology' }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: 'HighGrade Flower Price Index: methodology' }),
  ).toBeVisible(FIRST_LOAD);
  await expect(page.getByRole('heading', { level: 2, name: 'Worked example' })).toBeVisible();
  await expect(page.getByText('136.201099')).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});

test('the home page shows the index headline with a sparkline, without the chart library', async ({
  page,
}) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(request.url());
  });
  await page.goto('/');
  const headline = page.getByRole('region', { name: 'Market index' });
  await expect(headline.getByRole('link', { name: 'HighGrade Flower Price Index' })).toBeVisible(FIRST_LOAD);
  await expect(headline.locator('li').filter({ hasText: 'HighGrade Flower Price Index' })).toContainText(
    /\d+\.\d{2}/,
  );
  await expect(headline.locator('svg polyline').first()).toBeAttached();
  expect(scripts.some((url) => /uplot/i.test(url))).toBe(false);
  await expectNoSeriousA11yViolations(page);
});

test('an admin imports closes: problems by line and nothing written, then a good file, then verify', async ({
  page,
  server,
  member,
}) => {
  test.slow();
  const service = adminClient(server);
  expect((await service.from('user_roles').insert({ user_id: member.id, role: 'admin' })).error).toBeNull();
  // Dates of their own, so nothing else on the shared server sees these closes.
  const dates = ['2001-03-05', '2001-03-06'];
  try {
    await openSignedIn(page, server, member, '/admin/market');
    await expect(page.getByRole('heading', { name: 'Market data' })).toBeVisible(FIRST_LOAD);
    const chooser = page
      .getByRole('region', { name: 'Import daily closes', exact: true })
      .getByLabel('Choose CSV file');

    await chooser.setInputFiles({
      name: 'bad.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(
        `ticker,date,close,source\nTLRY,${dates[0]},1.5,broker\nNOPE,${dates[0]},1,broker\nCGC,${dates[0]},-2,broker\nCGC,2001-02-30,2,=cmd|' /C calc'!A0\n`,
      ),
    });
    const problems = page.getByRole('list', { name: 'Problems by line' });
    await expect(problems).toBeVisible(FIRST_LOAD);
    await expect(problems).toContainText('Line 3, ticker: unknown ticker "NOPE"');
    await expect(problems).toContainText('Line 4, close: negative price -2');
    await expect(problems).toContainText('Line 5, date: bad date "2001-02-30"');
    await expect(problems).toContainText('Line 5, source: formulas are not accepted');
    await expect(page.getByRole('button', { name: 'Apply import' })).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);

    await chooser.setInputFiles({
      name: 'malformed.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(`ticker,date,close,source\nTLRY,"${dates[0]},1\n`),
    });
    await expect(page.getByRole('alert').filter({ hasText: 'The file is not valid CSV' })).toBeVisible();

    await chooser.setInputFiles({
      name: 'good.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(
        `ticker,date,close,source\nTLRY,${dates[0]},1.50,e2e broker\nCGC,${dates[0]},3,e2e broker\nTLRY,${dates[1]},1.65,e2e broker\nCGC,${dates[1]},3,e2e broker\n`,
      ),
    });
    await expect(
      page.getByText('4 rows checked: 4 new, 0 corrected (new revision), 0 unchanged.'),
    ).toBeVisible(FIRST_LOAD);
    expect((await service.from('market_closes').select('ticker').in('date', dates)).data).toEqual([]);
    await page.getByRole('button', { name: 'Apply import' }).click();
    await expect(page.getByText(/Imported: 4 new closes, 0 corrected, 0 unchanged/)).toBeVisible(FIRST_LOAD);
    const { data } = await service
      .from('index_points')
      .select('date, value')
      .eq('index_slug', 'cannabis-equity')
      .in('date', dates)
      .order('date');
    expect(data).toEqual([
      { date: dates[0], value: 100 },
      { date: dates[1], value: 105 },
    ]);

    await page.getByRole('button', { name: 'Verify HighGrade Cannabis Equity Index' }).click();
    await expect(page.getByText(/values recomputed: all equal to the stored values/)).toBeVisible(FIRST_LOAD);
  } finally {
    await service.from('market_close_revisions').delete().in('date', dates);
    await service.from('market_closes').delete().in('date', dates);
    await service.rpc('market_recompute', { p_index: 'cannabis-equity' });
  }
});

test('an admin checks a flower price file: problems by line, then a preview of a good one', async ({
  page,
  server,
  member,
}) => {
  test.slow();
  const service = adminClient(server);
  expect((await service.from('user_roles').insert({ user_id: member.id, role: 'admin' })).error).toBeNull();
  await openSignedIn(page, server, member, '/admin/market');
  const section = page.getByRole('region', { name: 'Import flower prices', exact: true });
  await expect(section).toBeVisible(FIRST_LOAD);
  const chooser = section.getByLabel('Choose CSV file');
  const header = 'state,series,period,unit,value,statistic,source,note';
  await chooser.setInputFiles({
    name: 'flower-bad.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(
      `${header}\nMA,retail dried flower price,2001-06-01,USD/oz,5,average,CCC,\nMA,retail dried flower price,2001-07-01,USD/g,-5,average,CCC,\nMA,retail dried flower price,2001-13-01,USD/g,5,average,@SUM(A1),\n`,
    ),
  });
  const problems = section.getByRole('list', { name: 'Problems by line' });
  await expect(problems).toBeVisible(FIRST_LOAD);
  await expect(problems).toContainText(
    'Line 2, unit: unit mismatch: MA "retail dried flower price" is reported in USD/g, not USD/oz',
  );
  await expect(problems).toContainText('Line 3, value: negative price -5');
  await expect(problems).toContainText('Line 4, period: bad date "2001-13-01"');
  await expect(problems).toContainText('Line 4, source: formulas are not accepted (cell starts with @)');
  await expect(section.getByRole('button', { name: 'Apply import' })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);

  await chooser.setInputFiles({
    name: 'flower-good.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(
      `${header}\nMA,retail dried flower price,2001-06-01,USD/g,5.10,average,"CCC, open data",\n`,
    ),
  });
  await expect(
    section.getByText('1 row checked: 1 new, 0 corrected (new revision), 0 unchanged.'),
  ).toBeVisible(FIRST_LOAD);
  await expect(section.getByRole('button', { name: 'Apply import' })).toBeVisible();
  // a preview writes nothing
  expect(
    (await service.from('flower_price_observations').select('id').eq('period', '2001-06-01')).data,
  ).toEqual([]);
});

test.describe('with the demonstration series (DEMO_CONTENT=true)', () => {
  let demo: E2eServer;
  test.beforeAll(async () => {
    test.setTimeout(120_000);
    demo = await startE2eServer({ DEMO_CONTENT: 'true' });
  });
  test.afterAll(async () => {
    await demo?.stop();
  });

  test('labels the equity series as a demonstration on the chart, in the table and in the export', async ({
    page,
  }) => {
    test.slow();
    await page.goto(`${demo.url}/market-index`);
    const equity = panel(page, 'HighGrade Cannabis Equity Index');
    await expect(equity.getByText('Demonstration series — not market data')).toBeVisible(FIRST_LOAD);
    await expect(equity.getByRole('img', { name: /demonstration series/ })).toBeVisible();
    await expect(equity.getByTestId('points-table').locator('caption')).toContainText(
      'demonstration series, generated, not market data',
    );
    const constituents = equity.getByRole('table').filter({ hasText: 'Target weight' });
    await expect(constituents.getByText('(demonstration)').first()).toBeVisible();
    // Every change says over what it is measured (issue 35).
    await expect(
      constituents.getByRole('columnheader', { name: 'Change since previous close' }),
    ).toBeVisible();
    for (const range of ['1M', '3M', 'YTD', 'All'] as const) {
      await equity.getByRole('button', { name: range, exact: true }).click();
      await expect(equity.getByRole('button', { name: range, exact: true })).toHaveAttribute(
        'aria-pressed',
        'true',
      );
      await expectChartEqualsTable(equity);
    }
    const download = page.waitForEvent('download');
    await equity.getByRole('button', { name: 'Download CSV' }).click();
    const csv = await readFile((await (await download).path()) as string, 'utf8');
    const lines = csv.trim().split('\r\n').slice(1);
    expect(lines.length).toBeGreaterThan(300);
    expect(lines.every((line) => line.endsWith('"yes (demonstration series, not market data)"'))).toBe(true);
    await expectNoSeriousA11yViolations(page);
  });
});
