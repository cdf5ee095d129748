// The matchmaking queue in a browser: a signed-in player queues for a
// casual game with house bots completing the table at once, is taken to
// the table when matched, and plays with its key.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, PHONE, assertAccessible, assertNoProblems, clickMove, launch, openPage, waitForMove } from './helpers.js';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test('a player queues, house bots complete the table, and the match opens with its key', async () => {
  const page = await openPage(browser, { viewport: PHONE });
  await page.goto(`${BASE}/#queue`);
  await page.locator('[data-sign-in-first]').waitFor();
  // Signed in with a key pasted on the account page.
  const r = await fetch(`${BASE}/v1/players`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Jordi', kind: 'human' }),
  });
  const { api_key: key, player } = await r.json();
  await page.goto(`${BASE}/#account`);
  await page.locator('form[data-form="key"] input[name="key"]').fill(key);
  await page.locator('form[data-form="key"] button[type="submit"]').click();
  await page.locator('[data-player-id]').waitFor();
  await page.locator('a[href="#queue"]').click();
  const form = page.locator('form[data-form="queue"]');
  await form.waitFor();
  await assertAccessible(page, 'the queue');
  await form.locator('input[name="rated"]').uncheck();
  await form.locator('select[name="fill_after"]').selectOption('0');
  await form.locator('select[name="fill_level"]').selectOption('random');
  await form.locator('button[type="submit"]').click();
  await page.waitForSelector('.table-page', { timeout: 30000 });
  const hash = new URLSearchParams(new URL(page.url()).hash.slice(1));
  assert.equal(hash.get('as'), 'player');
  assert.equal(hash.get('token'), null, 'no token in the address');
  // The match the API says the player sits in.
  const mine = await (await fetch(`${BASE}/v1/players/me/matches`, { headers: { authorization: `Bearer ${key}` } })).json();
  const ids = JSON.stringify(mine);
  assert.ok(ids.includes(hash.get('match')), 'the table is the player\'s queue match');
  assert.match(await page.locator('.table-title').textContent(), /Jordi \(you\)/);
  const before = await waitForMove(page);
  const next = await clickMove(page);
  assert.ok(next.version > before.version, 'the key acts for the seat');
  assert.ok(!(await page.content()).includes(key), 'the key is not in the page');
  assert.equal(player.name, 'Jordi');
  assertNoProblems(page);
  await page.context().close();
});
