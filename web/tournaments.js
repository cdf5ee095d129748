// Tournaments: the public list, a form to make one, and a tournament's
// page (status, entrants, standings, rounds with their tables and, in
// duplicate, every board's traveller), with entering, withdrawing and the
// maker's start. Everything read from the public API; writes with the
// signed-in player's key.

import { t } from './i18n.js';
import { el } from './dom.js';
import * as api from './api.js';
import { myTables, player, playerKey } from './player.js';
import { checkbox, choice, field, signInFirst } from './forms.js';

const VARIANTS = ['pairs', 'abarrotada', 'abarrotada3'];
const FORMATS = ['duplicate', 'swiss', 'arena'];
const LEVELS = ['random', 'easy', 'medium', 'hard', 'expert'];
/** How often an open or running tournament's page is read again. */
const REFRESH_MS = 2000;

const number = (name, label, value, min, max) => field(`f-${name}`, label, (id) => el('input', {
  id, name, type: 'number', min: String(min), max: String(max), value: String(value), inputmode: 'numeric', required: true,
}));

/** The body of `POST /v1/tournaments` from the form. */
function tournamentBody(form) {
  const f = new FormData(form);
  const format = String(f.get('format'));
  const body = {
    name: String(f.get('name') || '').trim(),
    variant: String(f.get('variant')),
    format,
    starts_in_s: Math.round(Number(f.get('starts_in_min')) * 60),
    private: f.get('private') === 'on',
  };
  if (format === 'arena') body.duration_s = Math.round(Number(f.get('duration_min')) * 60);
  else body.rounds = Number(f.get('rounds'));
  if (format === 'duplicate') body.boards = Number(f.get('boards'));
  if (f.get('fill_with')) body.fill_with = String(f.get('fill_with'));
  return body;
}

function createForm() {
  const form = el('form', { class: 'card-panel', 'aria-labelledby': 'make-title', 'data-form': 'tournament' },
    el('h2', { id: 'make-title' }, t('makeTournament')),
    field('f-name', t('tournamentName'), (id) => el('input', { id, name: 'name', type: 'text', maxlength: '64', required: true, autocomplete: 'off' })),
    choice('f-variant', 'variant', t('variant'), VARIANTS.map((v) => [v, t(v)]), 'pairs'),
    choice('f-format', 'format', t('format'), FORMATS.map((v) => [v, t('formats')[v]]), 'duplicate'),
    number('rounds', t('roundsField'), 3, 1, 30),
    number('boards', t('boardsField'), 4, 1, 32),
    number('duration_min', t('durationField'), 30, 1, 10080),
    choice('f-fill_with', 'fill_with', t('fillWith'), [['', t('noFill')], ...LEVELS.map((l) => [l, l])], 'medium'),
    number('starts_in_min', t('startsIn'), 10, 0, 10080),
    checkbox('f-private', 'private', t('privateField')),
    el('p', { class: 'message', role: 'alert' }),
    el('button', { type: 'submit', class: 'primary' }, t('makeButton')));
  // Only the counts of the chosen format are asked.
  const shape = () => {
    const format = form.elements.format.value;
    const show = { rounds: format !== 'arena', boards: format === 'duplicate', duration_min: format === 'arena' };
    for (const [name, on] of Object.entries(show)) {
      form.elements[name].closest('.field').hidden = !on;
      form.elements[name].disabled = !on;
    }
  };
  form.elements.format.addEventListener('change', shape);
  shape();
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    try {
      const made = await api.createTournament(playerKey(), tournamentBody(form));
      if (made.code) codes.set(made.tournament.id, made.code);
      location.hash = new URLSearchParams({ tournament: made.tournament.id }).toString();
    } catch (e) { form.querySelector('.message').textContent = t('refused', e.detail || e.message); }
  });
  return form;
}

/** Codes of private tournaments made in this page (shown once by the server). */
const codes = new Map();

function when(iso) {
  if (!iso) return '';
  try { return new Date(iso).toLocaleString(document.documentElement.lang); } catch { return iso; }
}

function shape(tour) {
  if (tour.format === 'arena') return t('arenaShape', Math.round((tour.duration_s || 0) / 60));
  if (tour.format === 'duplicate') return t('duplicateShape', tour.rounds, tour.boards);
  return t('swissShape', tour.rounds);
}

/** The list of public tournaments, and the form to make one. */
export function listPage(main, state) {
  const list = el('section', { class: 'card-panel', 'aria-labelledby': 'list-title' },
    el('h2', { id: 'list-title' }, t('publicTournaments')), el('p', {}, t('loading')));
  main.replaceChildren(el('div', {},
    el('h1', {}, t('tournaments')),
    el('p', { class: 'intro' }, t('tournamentsIntro')),
    el('div', { class: 'lobby two' }, list, playerKey() ? createForm() : signInFirst(t('signInFirst')))));
  (async () => {
    try {
      const page = await api.listTournaments();
      if (state.closed) return;
      const rows = page.tournaments;
      list.replaceChildren(el('h2', { id: 'list-title' }, t('publicTournaments')),
        rows.length ? el('ul', { class: 'tour-list' }, rows.map((tour) => el('li', { 'data-tournament': tour.id },
          el('a', { href: `#${new URLSearchParams({ tournament: tour.id })}` }, tour.name), ' ',
          el('span', { class: 'tag' }, `${t(tour.variant)} · ${t('formats')[tour.format]} · ${shape(tour)}`), ' ',
          el('span', { class: `status-${tour.status}` }, t('tourStatus')[tour.status]), ' ',
          el('span', {}, t('entrants', tour.entries.length)))))
          : el('p', {}, t('noTournaments')));
      list.dataset.loaded = '';
    } catch (e) { list.append(el('p', { role: 'alert' }, t('refused', e.detail || e.message))); }
  })();
}

// ---- one tournament ----

function unitName(tour, unit) {
  const u = tour.units.find((x) => x.unit === unit);
  if (!u) return t('unit', unit);
  const names = u.players.map((p) => p.name).join(' & ');
  return u.house ? `${names} (${t('house')})` : names;
}

function standingsTable(tour) {
  if (!tour.standings.length) return null;
  const dup = tour.format === 'duplicate';
  const tie = { swiss: t('buchholz'), arena: t('streak'), duplicate: t('differences') }[tour.format];
  return el('section', { class: 'card-panel', 'aria-labelledby': 'standings-title' },
    el('h2', { id: 'standings-title' }, t('standings')),
    el('table', { class: 'grid', 'data-standings': '' },
      el('thead', {}, el('tr', {}, [t('rank'), t('entrant'), dup ? t('percent') : t('scoreCol'), tie, t('playedCol')].map((h) => el('th', { scope: 'col' }, h)))),
      el('tbody', {}, tour.standings.map((s) => el('tr', { 'data-unit': s.unit },
        el('td', {}, s.rank), el('th', { scope: 'row' }, unitName(tour, s.unit)),
        el('td', {}, dup ? s.score.toFixed(1) : s.score), el('td', {}, Number(s.tiebreak.toFixed(2))), el('td', {}, s.played))))));
}

function matchLink(id) {
  return el('a', { href: `#${new URLSearchParams({ match: id })}`, 'data-watch': id }, t('watch'));
}

function traveller(tour, board) {
  // Scrolls sideways on a phone: focusable, so a keyboard can scroll it too.
  return el('div', { class: 'traveller', 'data-board': board.board, tabindex: '0', role: 'region', 'aria-label': t('travellerOf', board.board) },
    el('h4', {}, t('board', board.board)),
    el('table', { class: 'grid' },
      el('caption', { class: 'sr' }, t('travellerOf', board.board)),
      el('thead', {}, el('tr', {}, [t('table'), t('sidesCol'), t('recordedCol'), t('netCol'), t('mpCol'), t('percent'), t('diffCol')].map((h) => el('th', { scope: 'col' }, h)))),
      el('tbody', {}, board.traveller.map((row) => el('tr', { 'data-table': row.table },
        el('th', { scope: 'row' }, row.table + 1),
        el('td', {}, row.units.map((u) => unitName(tour, u)).join(' / ')),
        el('td', { 'data-recorded': '' }, row.recorded ? row.recorded.join(' – ') : t('notPlayed')),
        el('td', {}, row.sides.map((s) => (s.net === null ? '—' : s.net)).join(' / ')),
        el('td', {}, row.sides.map((s) => `${s.matchpoints}/${s.top}`).join(' / ')),
        el('td', { 'data-percent': '' }, row.sides.map((s) => s.percent.toFixed(1)).join(' / ')),
        el('td', {}, row.sides.map((s) => s.difference.toFixed(1)).join(' / ')))))));
}

function roundView(tour, round) {
  return el('section', { class: 'card-panel round', 'data-round': round.number, 'aria-labelledby': `round-${round.number}` },
    el('h3', { id: `round-${round.number}` }, t('roundN', round.number), ' ', el('span', { class: 'tag' }, round.done ? t('roundDone') : t('roundPlaying'))),
    el('ul', { class: 'tables' }, round.tables.map((tb) => el('li', { 'data-table': tb.table },
      `${t('table')} ${tb.table + 1}: `, tb.units.map((u) => unitName(tour, u)).join(` ${t('versus')} `),
      tb.result ? ` — ${tb.result.scores.join(' – ')}` : (tb.finished ? ` — ${t('finished')}` : ''),
      tb.match_id ? [' ', matchLink(tb.match_id)] : null)),
    round.byes.map((u) => el('li', {}, `${t('bye')}: ${unitName(tour, u)}`))),
    round.boards.length ? el('div', { class: 'boards' }, round.boards.map((b) => traveller(tour, b))) : null);
}

function actions(tour, mine, refresh, say) {
  const me = player();
  if (!me || !playerKey()) return signInFirst(t('signInFirst'));
  const entry = tour.entries.find((e) => e.player.id === me.id);
  const entered = entry && !entry.withdrawn;
  const doing = (f) => async () => {
    try { await f(); say(''); } catch (e) { say(t('refused', e.detail || e.message)); }
    refresh();
  };
  const buttons = [];
  const open = tour.status === 'open' || (tour.status === 'running' && tour.format === 'arena');
  let code = null;
  if (!entered && open) {
    if (tour.private && !codes.has(tour.id)) {
      code = el('p', { class: 'field' }, el('label', { for: 'f-code' }, t('codeField')), el('input', { id: 'f-code', type: 'text', autocomplete: 'off' }));
    }
    buttons.push(el('button', { type: 'button', class: 'primary', id: 'b-enter', 'data-enter': '', onclick: doing(() => {
      const c = codes.get(tour.id) || document.getElementById('f-code')?.value.trim();
      return api.enterTournament(playerKey(), tour.id, c ? { code: c } : {});
    }) }, t('enter')));
  }
  if (entered && tour.status !== 'over' && tour.status !== 'cancelled') {
    buttons.push(el('button', { type: 'button', id: 'b-withdraw', 'data-withdraw': '', onclick: doing(() => api.withdraw(playerKey(), tour.id)) }, t('withdraw')));
  }
  if (tour.status === 'open' && tour.owner.id === me.id) {
    buttons.push(el('button', { type: 'button', class: 'primary', id: 'b-start', 'data-start': '', onclick: doing(() => api.startTournament(playerKey(), tour.id)) }, t('startNow')));
  }
  const seat = mine.find((m) => m.ongoing);
  return el('section', { class: 'card-panel', 'aria-labelledby': 'you-title' },
    el('h2', { id: 'you-title' }, entered ? t('youEntered') : t('youNotEntered')),
    codes.has(tour.id) ? el('p', {}, `${t('privateCode')}: `, el('code', { 'data-code': '' }, codes.get(tour.id))) : null,
    seat ? el('p', {}, el('a', { class: 'button primary', 'data-my-table': '', href: `#${new URLSearchParams({ match: seat.match, as: 'player', tournament: tour.id })}` }, t('yourTable', seat.round))) : null,
    code, el('div', { class: 'actions' }, buttons));
}

function facts(tour) {
  return el('dl', { class: 'facts' },
    el('dt', {}, t('status')), el('dd', { 'data-status': tour.status }, t('tourStatus')[tour.status]),
    el('dt', {}, t('format')), el('dd', {}, `${t('formats')[tour.format]} · ${shape(tour)}`),
    el('dt', {}, t('variant')), el('dd', {}, t(tour.variant)),
    el('dt', {}, t('maker')), el('dd', {}, tour.owner.name),
    el('dt', {}, t('startsAt')), el('dd', {}, when(tour.starts_at)),
    tour.fill_with ? [el('dt', {}, t('fillWith')), el('dd', {}, tour.fill_with)] : null,
    el('dt', {}, t('entrantsTitle')), el('dd', { 'data-entrants': '' }, tour.entries.filter((e) => !e.withdrawn).map((e) => e.player.name).join(', ') || t('none')));
}

/**
 * A tournament's page, read again every few seconds until it is over;
 * `state.closed` stops it when the page is left.
 */
export function tournamentPage(main, id, state) {
  // Drawn again (a new language): the loop of the page drawn before stops.
  if (state.onClose) state.onClose();
  const generation = (state.generation || 0) + 1;
  state.generation = generation;
  const stale = () => state.closed || state.generation !== generation;
  let message = '';
  let timer = null;
  let drawn = null; // what the page shows, to draw it again only when it changed
  const finished = new Map(); // the rounds done, by number
  const heading = el('h1', {}, t('loading'));
  const body = el('div', {});
  main.replaceChildren(heading, el('p', { class: 'message', role: 'alert', id: 'tour-message' }), body);
  const say = (m) => { message = m; document.getElementById('tour-message').textContent = message; };
  async function refresh() {
    clearTimeout(timer);
    if (stale()) return;
    try {
      const tour = await api.getTournament(id);
      // A round once done never changes: read again only those under way.
      const rounds = await Promise.all(tour.round_list.slice(-10).reverse()
        .map((r) => finished.get(r.number) || api.getRound(id, r.number)));
      for (const r of rounds) if (r.done) finished.set(r.number, r);
      let mine = [];
      try { mine = await myTables(id); } catch { mine = []; }
      if (stale()) return;
      heading.textContent = tour.name;
      const seen = JSON.stringify([tour, rounds, mine]);
      if (seen !== drawn) draw(tour, rounds, mine);
      drawn = seen;
      if (tour.status === 'open' || tour.status === 'running' || rounds.some((r) => !r.done)) timer = setTimeout(refresh, REFRESH_MS);
    } catch (e) {
      if (e.status === 404) { heading.textContent = t('noSuchTournament'); return; }
      say(t('refused', e.detail || e.message));
      timer = setTimeout(refresh, REFRESH_MS * 3);
    }
  }
  function draw(tour, rounds, mine) {
    const focused = document.activeElement?.id;
    body.replaceChildren(
      el('div', { class: 'tour-page', 'data-tournament-page': tour.id, 'data-status': tour.status },
        el('section', { class: 'card-panel', 'aria-labelledby': 'about-title' }, el('h2', { id: 'about-title' }, t('about')), facts(tour)),
        actions(tour, mine, () => { drawn = null; refresh(); }, say),
        standingsTable(tour),
        rounds.length ? el('div', { class: 'rounds' }, el('h2', {}, t('rounds')), rounds.map((r) => roundView(tour, r))) : null));
    if (focused) document.getElementById(focused)?.focus();
  }
  state.onClose = () => clearTimeout(timer);
  refresh();
}
