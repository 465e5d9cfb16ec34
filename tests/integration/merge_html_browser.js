// Opens the merge report in Chromium (playwright-core driving /usr/bin/chromium),
// with the network refused: the page must render under its own content
// security policy (no violation), draw its two charts, and sort a table when a
// heading is clicked. Usage: node merge_html_browser.js REPORT.html
const { chromium } = require('playwright-core');
const path = require('path');

(async () => {
  const file = path.resolve(process.argv[2]);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox'] });
  const problems = [];
  try {
    const page = await browser.newPage();
    page.on('console', (m) => { if (m.type() === 'error') problems.push('console: ' + m.text()); });
    page.on('pageerror', (e) => problems.push('page error: ' + e.message));
    await page.route('**/*', (route) => (route.request().url().startsWith('file:') ? route.continue() : (problems.push('request: ' + route.request().url()), route.abort())));
    await page.goto('file://' + file);
    const charts = await page.locator('svg.chart').count();
    if (charts !== 2) problems.push('charts: ' + charts);
    // The hostile label is text.
    const hostile = await page.locator('#workloads td', { hasText: "<script>alert('x')</script>" }).count();
    if (hostile !== 1) problems.push('hostile label cells: ' + hostile);
    const names = async () => page.locator('#repositories tbody tr td:first-child').allTextContents();
    const before = await names();
    await page.locator('#repositories thead th', { hasText: 'repository' }).locator('button').click();
    const ascending = await names();
    await page.locator('#repositories thead th', { hasText: 'repository' }).locator('button').click();
    const descending = await names();
    const sorted = [...before].sort((a, b) => a.localeCompare(b));
    if (JSON.stringify(ascending) !== JSON.stringify(sorted)) problems.push('ascending: ' + JSON.stringify(ascending));
    if (JSON.stringify(descending) !== JSON.stringify([...sorted].reverse())) problems.push('descending: ' + JSON.stringify(descending));
    const state = await page.locator('#repositories thead th', { hasText: 'repository' }).getAttribute('aria-sort');
    if (state !== 'descending') problems.push('aria-sort: ' + state);
    // A numeric column sorts by value, not by its text ("$4,013" after "$120" as numbers).
    await page.locator('#repositories thead th', { hasText: 'always-on' }).locator('button').click();
    const spend = await page.locator('#repositories tbody tr td:nth-child(2)').evaluateAll((cells) => cells.map((c) => parseFloat(c.getAttribute('data-v'))));
    for (let i = 1; i < spend.length; ++i) if (spend[i - 1] > spend[i]) problems.push('numeric sort: ' + JSON.stringify(spend));
    await page.screenshot({ path: process.env.SCREENSHOT || path.join(path.dirname(file), 'report.png'), fullPage: true });
  } finally {
    await browser.close();
  }
  if (problems.length) {
    console.log(problems.join('\n'));
    process.exit(1);
  }
  console.log('1 passed, 0 failed');
})().catch((e) => { console.log(String(e)); process.exit(1); });
