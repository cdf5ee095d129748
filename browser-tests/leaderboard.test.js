// The leaderboard page: a pool's players by rating, highest first, the
// house bots listed at their anchors; another game's pool on request.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, PHONE, assertAccessible, assertNoProblems, launch, openPage } from './helpers.js';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test('the leaderboard lists a pool by rating, anchors marked, and switches pools', async () => {
  const page = await openPage(browser, { viewport: PHONE });
  await page.goto(`${BASE}/`);
  await page.locator('a[href="#leaderboard"]').click();
  await page.locator('table[data-leaderboard="pairs"][data-loaded]').waitFor();
  // What the API answers, drawn in its order.
  const api = await (await fetch(`${BASE}/v1/leaderboard?variant=pairs&limit=50`)).json();
  const drawn = await page.locator('table[data-leaderboard="pairs"] tbody tr').evaluateAll((rows) => rows.map((r) => ({
    id: r.dataset.player, rating: Number(r.querySelector('[data-rating]').dataset.rating),
  })));
  assert.ok(drawn.length > 0, 'the house bots are listed');
  assert.deepEqual(drawn.map((d) => d.id), api.players.map((p) => p.player_id));
  for (let i = 1; i < drawn.length; i += 1) assert.ok(drawn[i - 1].rating >= drawn[i].rating, 'highest first');
  assert.match(await page.locator('tr[data-player="house-expert"]').innerText(), /anchor/);
  await assertAccessible(page, 'the leaderboard');
  await page.selectOption('#f-pool', 'abarrotada');
  await page.locator('table[data-leaderboard="abarrotada"][data-loaded]').waitFor();
  assert.ok(await page.locator('table[data-leaderboard="abarrotada"] tbody tr').count() > 0);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= PHONE.width, `no horizontal scrolling (${width}px)`);
  assertNoProblems(page);
  await page.context().close();
});
