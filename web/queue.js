// The matchmaking queue: the signed-in player queues for a game (rated or
// casual, house bots completing the table after a wait if it likes), the
// ticket is followed by a long poll, and a match found opens its table,
// where the player's key acts for the seat.

import { t } from './i18n.js';
import { el } from './dom.js';
import * as api from './api.js';
import { playerKey } from './player.js';
import { checkbox, choice, signInFirst } from './forms.js';

const VARIANTS = ['pairs', 'abarrotada', 'abarrotada3'];
const LEVELS = ['random', 'easy', 'medium', 'hard', 'expert'];
const WAITS = [['', null], ['0', 0], ['30', 30], ['60', 60], ['300', 300]];

function queueBody(form) {
  const f = new FormData(form);
  const body = { variant: String(f.get('variant')), rated: f.get('rated') === 'on' };
  if (f.get('fill_after') !== '') {
    body.fill_with_house_bots_after_s = Number(f.get('fill_after'));
    body.fill_level = String(f.get('fill_level'));
  }
  return body;
}

/** The queue page (`state.closed` when left, which stops the long poll). */
export function queuePage(main, state) {
  if (!playerKey()) {
    main.replaceChildren(el('div', {}, el('h1', {}, t('queue')),
      signInFirst(t('signInToQueue'))));
    return;
  }
  const status = el('p', { id: 'queue-status', role: 'status', 'aria-live': 'polite' });
  const form = el('form', { class: 'card-panel', 'aria-labelledby': 'queue-title', 'data-form': 'queue' },
    el('h2', { id: 'queue-title' }, t('findGame')),
    choice('f-q-variant', 'variant', t('variant'), VARIANTS.map((v) => [v, t(v)]), 'pairs'),
    checkbox('f-q-rated', 'rated', t('ratedGame'), true),
    choice('f-q-fill_after', 'fill_after', t('fillAfter'), WAITS.map(([v, s]) => [v, s === null ? t('never') : t('seconds', s)]), '60'),
    choice('f-q-fill_level', 'fill_level', t('fillLevel'), LEVELS.map((l) => [l, l]), 'medium'),
    el('p', { class: 'message', role: 'alert' }),
    el('button', { type: 'submit', class: 'primary' }, t('joinQueue')));
  let ticket = null;
  const leave = el('button', { type: 'button', hidden: true, 'data-leave-queue': '' }, t('leaveQueue'));
  const show = (tk) => {
    ticket = tk;
    status.dataset.ticket = tk.status;
    status.textContent = t('ticketStatus')[tk.status] || tk.status;
    leave.hidden = tk.status !== 'waiting';
    form.querySelector('button[type="submit"]').disabled = tk.status === 'waiting';
    if (tk.status === 'matched' && tk.match_id && !state.closed) {
      location.hash = new URLSearchParams({ match: tk.match_id, as: 'player' }).toString();
    }
  };
  const follow = async () => {
    while (ticket && ticket.status === 'waiting' && !state.closed) {
      try { show(await api.getTicket(playerKey(), ticket.ticket_id, 20000)); } catch (e) {
        form.querySelector('.message').textContent = t('refused', e.detail || e.message);
        return;
      }
    }
  };
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    try {
      show(await api.joinQueue(playerKey(), queueBody(form)));
      follow();
    } catch (e) { form.querySelector('.message').textContent = t('refused', e.detail || e.message); }
  });
  leave.addEventListener('click', async () => {
    try { show(await api.leaveQueue(playerKey(), ticket.ticket_id)); } catch (e) { form.querySelector('.message').textContent = t('refused', e.detail || e.message); }
  });
  main.replaceChildren(el('div', {},
    el('h1', {}, t('queue')),
    el('p', { class: 'intro' }, t('queueIntro')),
    el('div', { class: 'lobby two' }, form, el('section', { class: 'card-panel', 'aria-label': t('yourTicket') }, status, leave))));
}
