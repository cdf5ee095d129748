// The reference web client in a real browser: whole matches played by
// clicking on a phone and a desktop, a reload mid-hand, a spectator
// following live, an illegal card refused, three languages, accessibility.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  BASE, DESKTOP, PHONE, assertAccessible, assertNoProblems, clickMove, launch, openPage,
  screenshot, startAgainstBots, state, waitForMove,
} from './helpers.js';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

for (const [label, viewport] of [['phone', PHONE], ['desktop', DESKTOP]]) {
  test(`a whole match against three house bots, played by clicking (${label} ${viewport.width}x${viewport.height})`, async () => {
    const page = await openPage(browser, { viewport });
    // On the desktop with a move clock of 60 seconds (shown as it runs).
    await startAgainstBots(page, { maxHands: 1, clock: label === 'desktop' ? '60000' : '' });
    if (label === 'desktop') await page.waitForFunction(() => /\d+ s left/.test(document.getElementById('clock').textContent));
    let moves = 0;
    let shot = false;
    for (;;) {
      const s = await waitForMove(page);
      if (s.phase === 'match_over') break;
      if (!shot && s.phase === 'playing' && s.hand.length <= 9 && s.trick > 0) {
        await screenshot(page, `table-${label}`);
        shot = true;
      }
      await clickMove(page);
      moves += 1;
      assert.ok(moves < 100, 'the match ends');
    }
    assert.ok(moves >= 12, `every card of the hand was played by clicking (${moves} moves)`);
    const over = page.locator('.over');
    await over.waitFor();
    const seed = await page.locator('[data-seed]').textContent();
    assert.match(seed, /^[0-9a-f]{64}$/, 'the seed is revealed at the end');
    assert.equal(await page.locator('.results tbody tr').count(), 1, 'the hand result is listed');
    // The page is the table, not a scrolling mess, on the phone too.
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= viewport.width, `no horizontal scrolling (${width}px)`);
    if (!shot) await screenshot(page, `table-${label}`);
    await screenshot(page, `match-over-${label}`);
    assertNoProblems(page);
    await page.context().close();
  });
}

test('a reload in the middle of a hand resumes where it was', async () => {
  const page = await openPage(browser, { viewport: PHONE });
  const { id } = await startAgainstBots(page, { maxHands: 1 });
  let s = await waitForMove(page);
  while (s.hand.length > 9) s = await clickMove(page);
  s = await waitForMove(page);
  await page.reload();
  await page.waitForSelector('.table-page');
  const resumed = await waitForMove(page);
  assert.equal(new URLSearchParams(new URL(page.url()).hash.slice(1)).get('match'), id);
  assert.deepEqual(resumed.hand, s.hand, 'the same hand after the reload');
  assert.equal(resumed.version, s.version);
  const next = await clickMove(page);
  assert.equal(next.hand.length, s.hand.length - 1, 'and the game goes on');
  assertNoProblems(page);
  await page.context().close();
});

test('a spectator window follows the same match live', async () => {
  const player = await openPage(browser, { viewport: DESKTOP });
  const { id, token } = await startAgainstBots(player, { maxHands: 1 });
  const watcher = await openPage(browser, { viewport: PHONE });
  await watcher.goto(`${BASE}/#match=${encodeURIComponent(id)}`);
  await watcher.waitForSelector('.table-page');
  assert.equal(await watcher.locator('.spectator').count(), 1);
  assert.equal(await watcher.locator('.hand').count(), 0, 'a spectator sees no hand');
  const html = await watcher.content();
  assert.ok(!html.includes(token), 'the spectator page holds no token');
  for (let i = 0; i < 3; i += 1) {
    const s = await clickMove(player);
    // Live: the spectator's table reaches the player's version without a reload.
    await watcher.waitForFunction((v) => Number(document.querySelector('.table-page')?.dataset.version) >= v, s.version, { timeout: 30000 });
  }
  const seen = await watcher.locator('.trick .played').count();
  assert.ok(seen > 0, 'the spectator sees the cards played');
  assertNoProblems(player);
  assertNoProblems(watcher);
  await player.context().close();
  await watcher.context().close();
});

test('an illegal card cannot be played: disabled, with the reason, and never sent', async () => {
  const page = await openPage(browser, { viewport: DESKTOP });
  await startAgainstBots(page, { maxHands: 1 });
  const posts = [];
  page.on('request', (r) => { if (r.method() === 'POST') posts.push(r.url()); });
  let s = await waitForMove(page);
  while (s.phase !== 'match_over' && !(s.legal.length && s.illegal.length)) s = await clickMove(page);
  assert.ok(s.illegal.length, 'a turn with a card that may not be played came up');
  const card = page.locator(`.hand .card[data-card="${s.illegal[0]}"]`);
  const reason = await card.getAttribute('title');
  assert.ok(reason && reason.length > 5, 'the reason is shown on hover');
  assert.ok((await card.textContent()).includes(reason), 'and read out with the card');
  const before = posts.length;
  // Playwright would wait for an aria-disabled button to be enabled: force the click.
  await card.click({ force: true });
  await page.locator('.message[role="alert"]').waitFor();
  assert.equal(await page.locator('.message[role="alert"]').textContent(), reason);
  const after = await state(page);
  assert.equal(posts.length, before, 'nothing was sent');
  assert.ok(after.hand.includes(s.illegal[0]), 'the card is still in the hand');
  assert.equal(after.version, s.version);
  assertNoProblems(page);
  await page.context().close();
});

test('each language renders, the default taken from the browser', async () => {
  const expected = {
    ca: { title: 'Juga contra els bots de la casa', hand: 'Les teves cartes' },
    es: { title: 'Juega contra los bots de la casa', hand: 'Tus cartas' },
    en: { title: 'Play against the house bots', hand: 'Your hand' },
  };
  for (const [lang, words] of Object.entries(expected)) {
    const page = await openPage(browser, { viewport: PHONE, locale: `${lang}-ES` });
    await page.goto(`${BASE}/`);
    assert.equal(await page.locator('#bots-title').textContent(), words.title, `${lang} from navigator.language`);
    assert.doesNotMatch(await page.locator('main').innerText(), /\b(null|undefined|NaN)\b/, 'no placeholder leaks');
    assert.equal(await page.evaluate(() => document.documentElement.lang), lang);
    await startAgainstBots(page, { maxHands: 1 });
    await waitForMove(page);
    assert.equal(await page.locator('#hand-title').textContent(), words.hand);
    assert.doesNotMatch(await page.locator('main').innerText(), /\b(null|undefined|NaN)\b/, 'no placeholder leaks');
    const first = await page.locator('.hand .card .sr').first().textContent();
    assert.ok(first && first.length > 3, 'cards have text names');
    assertNoProblems(page);
    await page.context().close();
  }
  // The picker switches a page already open.
  const page = await openPage(browser, { viewport: PHONE, locale: 'en-US' });
  await page.goto(`${BASE}/`);
  await page.selectOption('#lang', 'ca');
  assert.equal(await page.locator('#bots-title').textContent(), expected.ca.title);
  await page.context().close();
});

test('three house bots of one name are told apart, and an ended match shows no empty trick', async () => {
  const bot = { kind: 'bot', bot: 'random', name: 'house bot random' };
  const r = await fetch(`${BASE}/v1/matches`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ rules: { max_hands: 1 }, auto_deal: true, seats: [{ kind: 'remote', name: 'Anna' }, bot, bot, bot] }),
  });
  const text = await r.text();
  assert.equal(r.status, 201, text);
  const created = JSON.parse(text);
  const page = await openPage(browser, { viewport: DESKTOP });
  await page.goto(`${BASE}/#match=${encodeURIComponent(created.match_id)}&token=${encodeURIComponent(created.tokens[0].token)}`);
  await page.waitForSelector('.table-page');
  const names = await page.locator('.seat strong').allTextContents();
  assert.equal(new Set(names).size, 4, `every seat's name differs: ${names}`);
  assert.ok(names.includes('house bot random (across)'), `the partner says where it sits: ${names}`);
  let s = await waitForMove(page);
  for (let moves = 0; s.phase !== 'match_over'; moves += 1) {
    assert.ok(moves < 100, 'the match ends');
    s = await clickMove(page);
  }
  await page.locator('.over').waitFor();
  assert.equal(await page.locator('.trick .empty').count(), 0, 'no "no card played yet" at the end');
  assertNoProblems(page);
  await page.context().close();
});

test('a match resigned through the API says so at its end, in each language', async () => {
  const words = { en: /Anna \(you\) resigned the match/, ca: /Anna \(tu\) ha abandonat la partida/, es: /Anna \(tú\) ha abandonado la partida/ };
  for (const [lang, said] of Object.entries(words)) {
    const page = await openPage(browser, { viewport: PHONE, locale: `${lang}-ES` });
    const { id, token } = await startAgainstBots(page, { maxHands: 3 });
    await waitForMove(page);
    const r = await fetch(`${BASE}/v1/matches/${id}/resign`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ scope: 'match' }),
    });
    assert.equal(r.status, 200, await r.text());
    await page.locator('.over .ended-by').waitFor();
    assert.match(await page.locator('.over .ended-by').textContent(), said);
    assertNoProblems(page);
    await page.context().close();
  }
});

test('the lobby and the table have no serious or critical accessibility violations', async () => {
  const page = await openPage(browser, { viewport: PHONE });
  await page.goto(`${BASE}/`);
  await page.waitForSelector('form[data-form="bots"]');
  await assertAccessible(page, 'lobby');
  await startAgainstBots(page, { maxHands: 1 });
  let s = await waitForMove(page);
  while (s.hand.length > 10) s = await clickMove(page);
  await waitForMove(page);
  await assertAccessible(page, 'table');
  // Keyboard: a legal card can be reached with Tab and played with Enter.
  const legal = page.locator('.hand .card.legal:not([aria-disabled])').first();
  const code = await legal.getAttribute('data-card');
  await legal.focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction((c) => !document.querySelector(`.hand .card[data-card="${c}"]`), code, { timeout: 30000 });
  await page.setViewportSize(DESKTOP);
  await assertAccessible(page, 'table on a desktop');
  assertNoProblems(page);
  await page.context().close();
});

test('a table with friends: every seat gets a link with its token in the fragment', async () => {
  const page = await openPage(browser, { viewport: PHONE });
  await page.goto(`${BASE}/`);
  await page.locator('form[data-form="friends"] button[type="submit"]').click();
  await page.waitForSelector('[data-seat-link]');
  const links = await page.locator('a[data-seat]').evaluateAll((as) => as.map((a) => a.href));
  assert.equal(links.length, 4);
  for (const l of links) {
    const u = new URL(l);
    assert.equal(u.search, '', 'no token in a query string');
    assert.ok(new URLSearchParams(u.hash.slice(1)).get('token'));
  }
  await page.locator('a[data-seat="2"]').click();
  await page.waitForSelector('.table-page');
  assert.match(await page.locator('.table-title').textContent(), /Seat 3/);
  assert.equal(await page.locator('.hand .card').count(), 12, 'seat 3 sees its own hand');
  await assertAccessible(page, 'seat links and a remote seat');
  assertNoProblems(page);
  await page.context().close();
});

test('an unknown match or a wrong seat link says so', async () => {
  const page = await openPage(browser, { viewport: PHONE });
  await page.goto(`${BASE}/#match=no-such-match`);
  await page.locator('[role="alert"]').waitFor();
  assert.equal(await page.locator('[role="alert"]').textContent(), 'No such match.');
  const { id } = await startAgainstBots(page, { maxHands: 1 });
  await page.goto(`${BASE}/#match=${id}&token=not-a-seat-token`);
  await page.reload();
  await page.locator('[role="alert"]').waitFor();
  assert.equal(await page.locator('[role="alert"]').textContent(), 'This seat link is not valid for this match.');
  // The browser reports the refused requests (404, 401) on its console; nothing else.
  assertNoProblems(page, [/status of 40[14]/]);
  await page.context().close();
});

test('the end of a match shows a replay with the costly cards marked', async () => {
  const page = await openPage(browser, { viewport: DESKTOP });
  const { id } = await startAgainstBots(page, { maxHands: 1 });
  let s = await waitForMove(page);
  while (s.phase !== 'match_over') s = await clickMove(page);
  // Asked for after the end (nothing is computed unasked), computed on the
  // server: progress first, then the replay.
  await page.locator('.replay button.analyse').click();
  const replay = page.locator('.replay[data-status="done"]');
  await replay.waitFor({ timeout: 300000 });
  const analysis = await page.evaluate(async (m) => (await fetch(`/v1/matches/${m}/analysis`)).json(), id);
  assert.equal(analysis.status, 'done');
  const cards = analysis.hands.flatMap((h) => h.cards);
  assert.equal(cards.length, 48, 'every card of the hand is valued');
  assert.equal(await page.locator('.replay-card').count(), 48, 'and shown');
  const costly = cards.filter((c) => c.solved && c.cost > 0);
  assert.equal(await page.locator('.replay .costly').count(), costly.length, 'exactly the cards that cost points are marked');
  const notes = await page.locator('.replay .costly .note').allTextContents();
  assert.deepEqual(notes, costly.map((c) => `−${c.cost}`), 'each with what it cost');
  // The bidding decisions too (a defender always had contro or pass).
  const bids = analysis.hands.flatMap((h) => h.bids);
  assert.ok(bids.length >= 1, 'the hand had a bidding decision');
  assert.equal(await page.locator('.replay-bid').count(), bids.length, 'every bidding decision is shown');
  const dearBids = bids.filter((b) => b.cost !== null && b.cost > 0);
  assert.equal(await page.locator('.replay .bid-costly').count(), dearBids.length, 'exactly the bids that cost are marked');
  const bidNotes = await page.locator('.replay .bid-costly .note').allTextContents();
  assert.deepEqual(bidNotes, dearBids.map((b) => `−${b.cost.toFixed(2)}`), 'each with what it cost by estimate');
  await assertAccessible(page, 'the replay');
  // The table is drawn again whenever the view is read, which may detach
  // the element between finding it and scrolling: try again then.
  for (let tries = 1; ; tries += 1) {
    try {
      await page.locator('.replay-hand').first().scrollIntoViewIfNeeded({ timeout: 2000 });
      break;
    } catch (e) {
      if (tries >= 5) throw e;
    }
  }
  await screenshot(page, 'replay-desktop');
  assertNoProblems(page);
  await page.context().close();
});
