// Shared by the browser tests: the browser (Debian's Chromium driven by
// Playwright), pages that fail the test on any script error, moves made by
// clicking, and the axe-core check.

import assert from 'node:assert/strict';
import { readFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium } from 'playwright-core';

const require = createRequire(import.meta.url);
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** The server under test (scripts/browser-test starts it). */
export const BASE = process.env.BASE_URL || 'http://127.0.0.1:8080';
/** Where screenshots go (none when unset). */
export const SHOTS = process.env.SCREENSHOT_DIR || '';
export const PHONE = { width: 360, height: 640 };
export const DESKTOP = { width: 1280, height: 800 };

/** Debian's Chromium, headless, with a fresh profile (Playwright makes one per launch). */
export function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/**
 * A new page in its own context; every uncaught error, console error
 * (a CSP refusal is one) and failed request is collected in `page.problems`.
 */
export async function openPage(browser, { viewport = DESKTOP, locale = 'en-GB' } = {}) {
  const context = await browser.newContext({ viewport, locale });
  const page = await context.newPage();
  page.problems = [];
  page.on('pageerror', (e) => page.problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') page.problems.push(`console: ${m.text()}`);
  });
  return page;
}

/** Fails on any error the page reported (besides `allowed` patterns). */
export function assertNoProblems(page, allowed = []) {
  const left = page.problems.filter((p) => !allowed.some((a) => a.test(p)));
  assert.deepEqual(left, [], 'the page reported errors');
}

/** Starts a match from the lobby against three house bots; returns {id, token}. */
export async function startAgainstBots(page, { maxHands = 1, bot = 'random', name = 'Anna', clock = '' } = {}) {
  await page.goto(`${BASE}/`);
  const form = page.locator('form[data-form="bots"]');
  await form.locator('input[name="name"]').fill(name);
  await form.locator('select[name="bot"]').selectOption(bot);
  await form.locator('input[name="max_hands"]').fill(String(maxHands));
  await form.locator('select[name="clock"]').selectOption(clock);
  await form.locator('button[type="submit"]').click();
  await page.waitForSelector('.table-page');
  const url = new URL(page.url());
  assert.equal(url.search, '', 'no token in the query string');
  const p = new URLSearchParams(url.hash.slice(1));
  assert.ok(p.get('match') && p.get('token'), 'the seat is in the fragment');
  return { id: p.get('match'), token: p.get('token') };
}

/** The table's state as drawn: version, phase, turn, hand, legal cards. */
export function state(page) {
  return page.evaluate(() => {
    const t = document.querySelector('.table-page');
    if (!t) return null;
    const cards = [...document.querySelectorAll('.hand .card')];
    return {
      version: Number(t.dataset.version),
      phase: t.dataset.phase,
      turn: t.dataset.turn,
      hand: cards.map((c) => c.dataset.card),
      legal: cards.filter((c) => !c.hasAttribute('aria-disabled')).map((c) => c.dataset.card),
      illegal: cards.filter((c) => c.hasAttribute('aria-disabled')).map((c) => c.dataset.card),
      buttons: [...document.querySelectorAll('button.act:not([disabled])')].map((b) => b.dataset.key),
      trick: document.querySelectorAll('.trick.current .played').length,
    };
  });
}

/** Waits until the seat can act (a legal card or button) or the match is over. */
export async function waitForMove(page) {
  await page.waitForFunction(() => {
    const t = document.querySelector('.table-page');
    if (!t) return false;
    if (t.dataset.phase === 'match_over') return true;
    return document.querySelector('.hand .card.legal:not([aria-disabled])') || document.querySelector('button.act:not([disabled])');
  }, null, { timeout: 30000 });
  return state(page);
}

/**
 * Makes one move by clicking (the first legal card, else the first action
 * button) and waits until the table shows a newer version.
 */
export async function clickMove(page) {
  const s = await waitForMove(page);
  if (s.phase === 'match_over') return s;
  if (s.legal.length) await page.click(`.hand .card[data-card="${s.legal[0]}"]`);
  else await page.click(`button.act[data-key="${s.buttons[0]}"]`);
  await page.waitForFunction((v) => Number(document.querySelector('.table-page')?.dataset.version) > v, s.version, { timeout: 30000 });
  return state(page);
}

/** Runs axe-core on the page: no serious or critical violation. */
export async function assertAccessible(page, what) {
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const r = await globalThis.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 5) }));
  });
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(bad, [], `${what}: serious or critical accessibility violations`);
}

/** Saves a screenshot as `name`.png when SCREENSHOT_DIR is set. */
export async function screenshot(page, name) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: false });
}
