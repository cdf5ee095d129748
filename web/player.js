// Signing in as a player: the API key (`bp_…`) kept in this browser's
// `localStorage`, never in an address; the account page (register, paste a
// key, sign out); and the player's events, followed by a long poll, which
// tell when a tournament round seats the player at a table.

import { t } from './i18n.js';
import { el } from './dom.js';
import * as api from './api.js';
import { field } from './forms.js';

const KEY = 'botifarra.key';
const PROFILE = 'botifarra.player';

function read(name) {
  try { return localStorage.getItem(name); } catch { return null; }
}

function write(name, value) {
  try {
    if (value === null) localStorage.removeItem(name);
    else localStorage.setItem(name, value);
  } catch { /* private mode: signed in for this page only */ }
}

let memory = { key: read(KEY), player: JSON.parse(read(PROFILE) || 'null') };

/** The signed-in player's key, or null. */
export const playerKey = () => memory.key;
/** The signed-in player's profile (`id`, `name`, `kind`), or null. */
export const player = () => memory.player;

function signIn(key, profile) {
  memory = { key, player: { id: profile.id, name: profile.name, kind: profile.kind } };
  write(KEY, key);
  write(PROFILE, JSON.stringify(memory.player));
  changed();
}

/** Forgets the key in this browser (the player and its key stay valid). */
export function signOut() {
  memory = { key: null, player: null };
  write(KEY, null);
  write(PROFILE, null);
  changed();
}

let listeners = [];
/** Calls `f()` whenever the player signs in or out. */
export function onChange(f) { listeners.push(f); }
function changed() { for (const f of listeners) f(); }

// ---- the player's events ----

let polling = null; // { key, stop }

/**
 * Follows the signed-in player's events from now on: `onRound(event)` for
 * each `round_started` with a match, `onOver(event)` for `tournament_over`.
 * Restarts when the player changes; stops on sign-out or a refused key.
 */
export function followEvents({ onRound, onOver }) {
  const start = () => {
    if (polling) polling.stop();
    polling = null;
    const key = playerKey();
    if (!key) return;
    let stopped = false;
    polling = { key, stop: () => { stopped = true; } };
    (async () => {
      let after = null;
      while (!stopped) {
        try {
          // The first read only learns where "now" is; what came before is
          // on the tournament pages (the table of a running round).
          const page = await api.playerEvents(key, after ?? 0, after === null ? 0 : 20000);
          if (stopped) return;
          if (after !== null) {
            for (const e of page.events) {
              if (e.type === 'round_started' && e.match_id) onRound(e);
              if (e.type === 'tournament_over') onOver(e);
            }
          }
          after = page.last_seq;
        } catch (e) {
          if (e.status === 401) { stopped = true; return; }
          await new Promise((r) => { setTimeout(r, 3000); });
        }
      }
    })();
  };
  onChange(start);
  start();
}

/** The table seats the player takes in `tournament`, from its kept events. */
export async function myTables(tournament) {
  const key = playerKey();
  if (!key) return [];
  const page = await api.playerEvents(key, 0);
  const ongoing = new Set((page.ongoing || []).map((m) => m.match_id));
  return page.events
    .filter((e) => e.type === 'round_started' && e.tournament_id === tournament && e.match_id)
    .map((e) => ({ round: e.round, match: e.match_id, seat: e.seat, ongoing: ongoing.has(e.match_id) }));
}

// ---- the account page ----

const text = (name, label, attrs = {}) => field(`f-${name}`, label, (id) => el('input', { id, name, type: 'text', autocomplete: 'off', ...attrs }));

/** The account page: who is signed in, or the ways to sign in. */
export function accountPage(main, { afterSignIn }) {
  const p = player();
  if (p && playerKey()) {
    main.replaceChildren(el('div', {},
      el('h1', {}, t('account')),
      el('section', { class: 'card-panel', 'aria-labelledby': 'signed-title' },
        el('h2', { id: 'signed-title' }, t('signedInAs', p.name)),
        el('p', {}, `${t('playerId')}: `, el('code', { 'data-player-id': '' }, p.id)),
        el('p', {}, t('keyKept')),
        el('button', { type: 'button', 'data-sign-out': '', onclick: () => { signOut(); accountPage(main, { afterSignIn }); } }, t('signOut')))));
    return;
  }
  const reg = el('form', { class: 'card-panel', 'aria-labelledby': 'reg-title', 'data-form': 'register' },
    el('h2', { id: 'reg-title' }, t('register')),
    text('name', t('yourName'), { maxlength: '40', autocomplete: 'nickname', required: true }),
    el('p', { class: 'message', role: 'alert' }),
    el('button', { type: 'submit', class: 'primary' }, t('registerButton')));
  reg.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const name = String(new FormData(reg).get('name') || '').trim();
    try {
      const r = await api.register(name, 'human');
      signIn(r.api_key, r.player);
      main.replaceChildren(el('div', {},
        el('h1', {}, t('account')),
        el('section', { class: 'card-panel', 'aria-labelledby': 'key-title' },
          el('h2', { id: 'key-title', tabindex: '-1' }, t('signedInAs', r.player.name)),
          el('p', {}, t('keyOnce')),
          el('p', {}, el('code', { class: 'key', 'data-api-key': '' }, r.api_key)),
          el('p', {}, el('a', { href: '#tournaments', class: 'button primary' }, t('toTournaments'))))));
      document.getElementById('key-title')?.focus();
      afterSignIn();
    } catch (e) { reg.querySelector('.message').textContent = t('refused', e.detail || e.message); }
  });
  const paste = el('form', { class: 'card-panel', 'aria-labelledby': 'paste-title', 'data-form': 'key' },
    el('h2', { id: 'paste-title' }, t('haveKey')),
    text('key', t('apiKey'), { spellcheck: 'false', required: true }),
    el('p', { class: 'message', role: 'alert' }),
    el('button', { type: 'submit' }, t('signIn')));
  paste.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const key = String(new FormData(paste).get('key') || '').trim();
    try {
      const profile = await api.me(key);
      signIn(key, profile);
      afterSignIn();
      accountPage(main, { afterSignIn });
    } catch (e) {
      paste.querySelector('.message').textContent = e.status === 401 ? t('badKey') : t('refused', e.detail || e.message);
    }
  });
  main.replaceChildren(el('div', {},
    el('h1', {}, t('account')),
    el('p', { class: 'intro' }, t('accountIntro')),
    el('div', { class: 'lobby' }, reg, paste)));
}
