// The leaderboard: a pool's players by rating, highest first, with the
// house bots among them at their fixed anchors; a page at a time.

import { t } from './i18n.js';
import { el } from './dom.js';
import * as api from './api.js';

const VARIANTS = ['pairs', 'abarrotada', 'abarrotada3'];

function row(p, rank) {
  return el('tr', { 'data-player': p.player_id },
    el('td', {}, rank),
    el('th', { scope: 'row' }, p.name, p.anchor ? el('span', { class: 'tag' }, ` (${t('anchor')})`) : null),
    el('td', { 'data-rating': p.rating }, Math.round(p.rating), p.provisional ? '?' : '', ` ±${Math.round(p.deviation)}`),
    el('td', {}, p.games));
}

/** The leaderboard page of `variant` (`state.closed` when left). */
export function leaderboardPage(main, state, variant = 'pairs') {
  const id = 'f-pool';
  const pick = el('select', { id, name: 'variant' }, VARIANTS.map((v) => el('option', { value: v, selected: v === variant }, t(v))));
  pick.addEventListener('change', () => leaderboardPage(main, state, pick.value));
  const body = el('tbody', {});
  const more = el('button', { type: 'button', hidden: true, 'data-more': '' }, t('more'));
  const table = el('table', { class: 'grid', 'data-leaderboard': variant },
    el('caption', { class: 'sr' }, t('leaderboardOf', t(variant))),
    el('thead', {}, el('tr', {}, [t('rank'), t('playerCol'), t('ratingCol'), t('gamesCol')].map((h) => el('th', { scope: 'col' }, h)))),
    body);
  const out = el('p', { role: 'alert', class: 'message' });
  main.replaceChildren(el('div', {},
    el('h1', {}, t('leaderboard')),
    el('p', { class: 'intro' }, t('leaderboardIntro')),
    el('p', { class: 'field' }, el('label', { for: id }, t('variant')), pick),
    el('section', { class: 'card-panel', 'aria-label': t('leaderboard') }, table, out, more)));
  let next = null;
  const load = async () => {
    try {
      const page = await api.leaderboard(variant, next);
      if (state.closed) return;
      const start = body.children.length;
      body.append(...page.players.map((p, i) => row(p, start + i + 1)));
      next = page.next;
      more.hidden = !next;
      table.dataset.loaded = '';
    } catch (e) { out.textContent = t('refused', e.detail || e.message); }
  };
  more.addEventListener('click', load);
  load();
}
