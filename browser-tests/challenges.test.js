// Challenges between two people in two browsers: one challenges the other
// by player id (house bots in the other seats), the other sees it and
// accepts, and both are taken to the same match, each at its own seat.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, DESKTOP, PHONE, assertAccessible, assertNoProblems, launch, openPage } from './helpers.js';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** A page signed in as a new player (registered on the account page). */
async function signedIn(viewport, name) {
  const page = await openPage(browser, { viewport });
  await page.goto(`${BASE}/#account`);
  await page.locator('form[data-form="register"] input[name="name"]').fill(name);
  await page.locator('form[data-form="register"] button[type="submit"]').click();
  await page.locator('[data-api-key]').waitFor();
  const id = await page.evaluate(() => JSON.parse(localStorage.getItem('botifarra.player')).id);
  return { page, id };
}

test('a challenge sent by id is accepted in another browser, and both sit at its match', async () => {
  const anna = await signedIn(DESKTOP, 'Anna');
  const biel = await signedIn(PHONE, 'Biel');
  await anna.page.locator('a[href="#challenges"]').click();
  const form = anna.page.locator('form[data-form="challenge"]');
  await form.locator('input[name="opponents"]').fill(biel.id);
  await form.locator('select[name="fill_with"]').selectOption('random');
  await form.locator('button[type="submit"]').click();
  await anna.page.locator('[data-outgoing] li').waitFor();
  assert.match(await anna.page.locator('[data-outgoing] li').innerText(), /Anna, Biel/);
  await assertAccessible(anna.page, 'the challenges page');

  await biel.page.locator('a[href="#challenges"]').click();
  const accept = biel.page.locator('[data-incoming] button[data-accept]');
  await accept.waitFor();
  await accept.click();
  await biel.page.waitForSelector('.table-page');
  await anna.page.waitForSelector('.table-page', { timeout: 30000 });
  const match = (p) => new URLSearchParams(new URL(p.url()).hash.slice(1)).get('match');
  assert.equal(match(anna.page), match(biel.page), 'one match for both');
  assert.match(await anna.page.locator('.table-title').textContent(), /Anna \(you\)/);
  assert.match(await biel.page.locator('.table-title').textContent(), /Biel \(you\)/);
  assertNoProblems(anna.page);
  assertNoProblems(biel.page);
  await anna.page.context().close();
  await biel.page.context().close();
});
