// Challenges: the signed-in player invites another player, by id, to a
// match (house bots in the seats nobody is named for), and answers the
// challenges it received. The page reads the pending challenges every few
// seconds; a challenge of the player's that starts opens its table.

import { t } from './i18n.js';
import { el } from './dom.js';
import * as api from './api.js';
import { player, playerKey } from './player.js';
import { checkbox, choice, field, signInFirst } from './forms.js';

const VARIANTS = ['pairs', 'abarrotada', 'abarrotada3'];
const LEVELS = ['random', 'easy', 'medium', 'hard', 'expert'];
const REFRESH_MS = 2000;

function challengeBody(form) {
  const f = new FormData(form);
  const body = {
    variant: String(f.get('variant')),
    opponents: String(f.get('opponents') || '').split(/[\s,]+/).filter(Boolean),
    rated: f.get('rated') === 'on',
  };
  if (f.get('fill_with')) body.fill_with = String(f.get('fill_with'));
  return body;
}

/** Who is at a challenge's seats, in words. */
function seatsText(c) {
  return c.seats.map((s) => (s.player ? s.player.name : t('botSeat', s.bot))).join(', ');
}

const play = (c) => new URLSearchParams({ match: c.match_id, as: 'player' }).toString();

/** The challenges page (`state.closed` when left). */
export function challengesPage(main, state) {
  if (!playerKey()) {
    main.replaceChildren(el('div', {}, el('h1', {}, t('challenges')),
      signInFirst(t('signInToChallenge'))));
    return;
  }
  const made = new Set(); // challenges made on this page, followed until they start
  const form = el('form', { class: 'card-panel', 'aria-labelledby': 'ch-title', 'data-form': 'challenge' },
    el('h2', { id: 'ch-title' }, t('challengeSomeone')),
    el('p', {}, t('yourIdIs'), ' ', el('code', {}, player()?.id || '')),
    field('f-c-opponents', t('opponentIds'), (id) => el('input', { id, name: 'opponents', type: 'text', autocomplete: 'off', spellcheck: 'false', required: true })),
    choice('f-c-variant', 'variant', t('variant'), VARIANTS.map((v) => [v, t(v)]), 'pairs'),
    choice('f-c-fill_with', 'fill_with', t('fillWith'), [['', t('none')], ...LEVELS.map((l) => [l, l])], 'medium'),
    checkbox('f-c-rated', 'rated', t('ratedGame')),
    el('p', { class: 'message', role: 'alert' }),
    el('button', { type: 'submit', class: 'primary' }, t('sendChallenge')));
  const lists = el('div', { class: 'challenge-lists' });
  const out = el('p', { class: 'message', role: 'alert' });
  let timer = null;
  let drawn = null;
  const act = (f) => async () => {
    try {
      const c = await f();
      if (c && c.status === 'started' && c.match_id) { location.hash = play(c); return; }
    } catch (e) { out.textContent = t('refused', e.detail || e.message); }
    drawn = null;
    refresh();
  };
  const item = (c, incoming) => el('li', { 'data-challenge': c.challenge_id },
    `${t(c.rules.variant)}${c.rated ? ` · ${t('ratedGame')}` : ''}: ${seatsText(c)} `,
    incoming
      ? [el('button', { type: 'button', class: 'primary', 'data-accept': c.challenge_id, onclick: act(() => api.answerChallenge(playerKey(), c.challenge_id, 'accept')) }, t('accept')), ' ',
        el('button', { type: 'button', 'data-decline': c.challenge_id, onclick: act(() => api.answerChallenge(playerKey(), c.challenge_id, 'decline')) }, t('decline'))]
      : el('button', { type: 'button', 'data-cancel': c.challenge_id, onclick: act(() => api.cancelChallenge(playerKey(), c.challenge_id)) }, t('cancelChallenge')));
  async function refresh() {
    clearTimeout(timer);
    if (state.closed) return;
    try {
      const page = await api.challenges(playerKey());
      const pending = new Set(page.outgoing.map((c) => c.challenge_id));
      for (const id of made) {
        if (pending.has(id)) continue;
        made.delete(id);
        const c = await api.getChallenge(playerKey(), id);
        if (c.status === 'started' && c.match_id && !state.closed) { location.hash = play(c); return; }
      }
      if (state.closed) return;
      const seen = JSON.stringify(page);
      if (seen !== drawn) {
        lists.replaceChildren(
          el('section', { class: 'card-panel', 'aria-labelledby': 'in-title' }, el('h2', { id: 'in-title' }, t('incoming')),
            page.incoming.length ? el('ul', { 'data-incoming': '' }, page.incoming.map((c) => item(c, true))) : el('p', {}, t('noneYet'))),
          el('section', { class: 'card-panel', 'aria-labelledby': 'out-title' }, el('h2', { id: 'out-title' }, t('outgoing')),
            page.outgoing.length ? el('ul', { 'data-outgoing': '' }, page.outgoing.map((c) => item(c, false))) : el('p', {}, t('noneYet'))));
        drawn = seen;
      }
    } catch (e) { out.textContent = t('refused', e.detail || e.message); }
    timer = setTimeout(refresh, REFRESH_MS);
  }
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    try {
      const c = await api.challenge(playerKey(), challengeBody(form));
      if (c.status === 'started' && c.match_id) { location.hash = play(c); return; }
      made.add(c.challenge_id);
      form.querySelector('.message').textContent = '';
      drawn = null;
      refresh();
    } catch (e) { form.querySelector('.message').textContent = t('refused', e.detail || e.message); }
  });
  if (state.onClose) state.onClose();
  state.onClose = () => clearTimeout(timer);
  main.replaceChildren(el('div', {},
    el('h1', {}, t('challenges')),
    el('p', { class: 'intro' }, t('challengesIntro')), out,
    el('div', { class: 'lobby two' }, form, lists)));
  refresh();
}
