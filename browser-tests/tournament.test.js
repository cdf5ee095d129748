// Tournaments in a real browser: a person registers as a player, makes a
// duplicate tournament of one round of one board with house bots filling
// the table, enters, starts it, is taken to its table when the round
// starts, plays the board by clicking, and reads the board's traveller.
// Also signing in with a pasted key, signing out, three languages and
// axe-core on the new pages.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  BASE, DESKTOP, PHONE, assertAccessible, assertNoProblems, clickMove, launch, openPage, screenshot, waitForMove,
} from './helpers.js';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** Registers through the account page; returns the key shown once. */
async function register(page, name) {
  await page.goto(`${BASE}/#account`);
  const form = page.locator('form[data-form="register"]');
  await form.locator('input[name="name"]').fill(name);
  await form.locator('button[type="submit"]').click();
  const key = await page.locator('[data-api-key]').textContent();
  assert.match(key, /^bp_/, 'the key is shown once');
  return key;
}

for (const [label, viewport] of [['phone', PHONE], ['desktop', DESKTOP]]) {
  test(`a person registers, makes and enters a duplicate tournament, plays its board and reads the traveller (${label})`, async () => {
    const page = await openPage(browser, { viewport });
    const key = await register(page, 'Núria');
    assert.equal(await page.evaluate(() => localStorage.getItem('botifarra.key')), await page.locator('[data-api-key]').textContent());
    assert.equal(await page.locator('#nav-account').textContent(), 'Núria', 'the header names the player');
    assert.ok(!page.url().includes(key), 'the key is never in the address');

    // Make the tournament: duplicate, 1 round of 1 board, random house bots.
    await page.locator('a[href="#tournaments"]').first().click();
    const form = page.locator('form[data-form="tournament"]');
    await form.waitFor();
    await assertAccessible(page, `tournaments list (${label})`);
    await form.locator('input[name="name"]').fill(`Duplicat ${label}`);
    await form.locator('select[name="format"]').selectOption('duplicate');
    assert.equal(await form.locator('input[name="duration_min"]').isVisible(), false, 'an arena count is not asked for a duplicate');
    await form.locator('input[name="rounds"]').fill('1');
    await form.locator('input[name="boards"]').fill('1');
    await form.locator('select[name="fill_with"]').selectOption('random');
    await form.locator('input[name="starts_in_min"]').fill('60');
    await form.locator('button[type="submit"]').click();
    await page.waitForSelector('[data-tournament-page][data-status="open"]');
    const id = new URLSearchParams(new URL(page.url()).hash.slice(1)).get('tournament');
    assert.match(id, /^t[0-9a-f]+$/);
    assert.equal(await page.locator('h1').textContent(), `Duplicat ${label}`);

    // Enter (the list of entrants shows it), then start as the maker.
    await page.locator('button[data-enter]').click();
    await page.waitForFunction(() => document.querySelector('[data-entrants]')?.textContent.includes('Núria'));
    await page.locator('button[data-withdraw]').waitFor();
    await assertAccessible(page, `a tournament's page (${label})`);
    // Withdrawing before the start drops the entry; entering again is allowed.
    await page.locator('button[data-withdraw]').click();
    await page.locator('button[data-enter]').waitFor();
    assert.ok(!(await page.locator('[data-entrants]').textContent()).includes('Núria'), 'withdrawn');
    await page.locator('button[data-enter]').click();
    await page.locator('button[data-withdraw]').waitFor();
    // The page speaks the language picked while it is open, and goes on.
    await page.selectOption('#lang', 'ca');
    await page.waitForFunction(() => document.getElementById('about-title')?.textContent === 'El torneig');
    await page.selectOption('#lang', 'en');
    await page.waitForFunction(() => document.getElementById('about-title')?.textContent === 'The tournament');
    await page.locator('button[data-start]').click();

    // The round's `round_started` takes the player to its table, seated with its key.
    await page.waitForSelector('.table-page', { timeout: 30000 });
    const hash = new URLSearchParams(new URL(page.url()).hash.slice(1));
    assert.equal(hash.get('as'), 'player');
    assert.equal(hash.get('tournament'), id);
    assert.equal(hash.get('token'), null, 'no token in the address');
    const match = hash.get('match');
    let s = await waitForMove(page);
    assert.ok(s.hand.length === 12 || s.phase !== 'playing', 'the player sees its own hand');
    for (let moves = 0; s.phase !== 'match_over'; moves += 1) {
      assert.ok(moves < 100, 'the board ends');
      s = await clickMove(page);
    }
    await page.locator('.over').waitFor();
    assert.doesNotMatch(await page.locator('main').innerText(), /\b(null|undefined|NaN)\b/, 'no placeholder leaks');
    const scores = await page.locator('[data-side-score]').allTextContents();

    // Back at the tournament: the traveller of board 1, once the round is done.
    await page.locator('a[data-back-tournament]').click();
    await page.waitForSelector('[data-round="1"] [data-board="1"] tr[data-table="0"]', { timeout: 30000 });
    const row = page.locator('[data-board="1"] tr[data-table="0"]');
    assert.equal(await row.locator('[data-recorded]').textContent(), scores.join(' – '), 'the traveller records the board as played');
    // One table alone on the board: 50 % each way.
    assert.equal(await row.locator('[data-percent]').textContent(), '50.0 / 50.0');
    const watch = await page.locator(`[data-round="1"] a[data-watch="${match}"]`).count();
    assert.equal(watch, 1, 'the finished round links its table to replay');
    await page.waitForSelector('[data-tournament-page][data-status="over"]', { timeout: 30000 });
    assert.equal(await page.locator('[data-standings] tbody tr').count(), 1, 'the one ranked unit is in the standings');
    // The player's events say the tournament is over, with the rank.
    await page.locator('#notice [data-notice-link]').waitFor({ timeout: 30000 });
    assert.match(await page.locator('#notice').innerText(), /you placed 1\b/);
    assert.doesNotMatch(await page.locator('main').innerText(), /\b(null|undefined|NaN)\b/, 'no placeholder leaks');
    await assertAccessible(page, `a finished duplicate with its traveller (${label})`);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    const wide = await page.evaluate(() => [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > innerWidth && !e.closest('.traveller table'))
      .map((e) => `${e.tagName}.${e.className}`).slice(0, 5));
    assert.ok(width <= viewport.width, `no horizontal scrolling (${width}px: ${wide})`);
    await screenshot(page, `tournament-traveller-${label}`);
    assertNoProblems(page);
    await page.context().close();
  });
}

test('a pasted key signs in, a wrong one is refused, and signing out forgets the key', async () => {
  const r = await fetch(`${BASE}/v1/players`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Pau', kind: 'human' }),
  });
  assert.equal(r.status, 201);
  const { api_key: key, player } = await r.json();
  const page = await openPage(browser, { viewport: PHONE });
  await page.goto(`${BASE}/#account`);
  const form = page.locator('form[data-form="key"]');
  await form.locator('input[name="key"]').fill(`${key}x`);
  await form.locator('button[type="submit"]').click();
  await form.locator('.message').waitFor();
  assert.match(await form.locator('.message').textContent(), /not valid/);
  assert.equal(await page.evaluate(() => localStorage.getItem('botifarra.key')), null, 'a refused key is not kept');
  await form.locator('input[name="key"]').fill(key);
  await form.locator('button[type="submit"]').click();
  assert.equal(await page.locator('[data-player-id]').textContent(), player.id);
  // Kept across a reload.
  await page.reload();
  assert.equal(await page.locator('[data-player-id]').textContent(), player.id);
  await assertAccessible(page, 'the account page');
  await page.locator('button[data-sign-out]').click();
  await page.locator('form[data-form="register"]').waitFor();
  assert.equal(await page.evaluate(() => localStorage.getItem('botifarra.key')), null, 'signing out forgets the key');
  assert.equal(await page.locator('#nav-account').textContent(), 'Sign in');
  // Signed out, the tournaments page asks to sign in rather than showing the form.
  await page.goto(`${BASE}/#tournaments`);
  await page.locator('[data-sign-in-first]').waitFor();
  assert.equal(await page.locator('form[data-form="tournament"]').count(), 0);
  assertNoProblems(page, [/status of 401/]);
  await page.context().close();
});

test('the tournament pages speak each language', async () => {
  const expected = {
    ca: { nav: 'Torneigs', list: 'Torneigs públics', sign: 'Entra com a jugador' },
    es: { nav: 'Torneos', list: 'Torneos públicos', sign: 'Entra como jugador' },
    en: { nav: 'Tournaments', list: 'Public tournaments', sign: 'Sign in as a player' },
  };
  for (const [lang, words] of Object.entries(expected)) {
    const page = await openPage(browser, { viewport: PHONE, locale: `${lang}-ES` });
    await page.goto(`${BASE}/#tournaments`);
    assert.equal(await page.locator('a[href="#tournaments"]').textContent(), words.nav);
    await page.locator('section[data-loaded]').waitFor();
    assert.equal(await page.locator('#list-title').textContent(), words.list);
    assert.ok((await page.locator('[data-sign-in-first]').textContent()).startsWith(words.sign));
    assert.doesNotMatch(await page.locator('main').innerText(), /\b(null|undefined|NaN)\b/, 'no placeholder leaks');
    assertNoProblems(page);
    await page.context().close();
  }
});
