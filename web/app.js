// The reference web client: a lobby to start, create, join or watch a
// match, the table, the player's account and the tournaments. The page's
// address fragment says what to show: `#match=<id>&token=<seat token>` a
// seat, `#match=<id>&as=player` the signed-in player's seat (its key, kept
// in `localStorage`, acts for it), `#match=<id>` a spectator,
// `#tournaments` the tournaments, `#tournament=<id>` one, `#queue` the
// matchmaking queue, `#challenges` challenges, `#leaderboard` the ratings, `#account` the sign-in,
// empty the lobby. A token stays in the fragment, which browsers
// never send to a server; the client sends it as `Authorization` (and as
// `access_token` to the event stream, which cannot send headers).

import { t, initialLanguage, setLanguage } from './i18n.js';
import { el } from './dom.js';
import * as api from './api.js';
import { cardName } from './cards.js';
import { clockLeft, renderTable, seatName, statusText } from './table.js';
import { accountPage, followEvents, onChange, player, playerKey } from './player.js';
import { listPage, tournamentPage } from './tournaments.js';
import { leaderboardPage } from './leaderboard.js';
import { queuePage } from './queue.js';
import { challengesPage } from './challenges.js';

const BOTS = ['heuristic', 'random', 'montecarlo'];
const VARIANTS = ['pairs', 'abarrotada', 'abarrotada3'];
const main = document.getElementById('main');
let leave = null; // closes the open table or page
let redraw = () => {}; // draws the current page again (after a language change)
let created = null; // the last table created with friends: its seat links

function fragment() {
  const p = new URLSearchParams(location.hash.slice(1));
  return {
    match: p.get('match'), token: p.get('token'), as: p.get('as'), tournament: p.get('tournament'),
    page: ['tournaments', 'account', 'leaderboard', 'queue', 'challenges'].find((k) => p.has(k)) || null,
  };
}

/** A link to a seat (token in the fragment) or, without token, to watch. */
function tableLink(match, token) {
  const p = new URLSearchParams({ match });
  if (token) p.set('token', token);
  return `${location.origin}/#${p}`;
}

function translateStatic() {
  for (const node of document.querySelectorAll('[data-i18n]')) node.textContent = t(node.dataset.i18n);
  for (const node of document.querySelectorAll('[data-i18n-label]')) node.setAttribute('aria-label', t(node.dataset.i18nLabel));
  document.title = t('title');
}

function route() {
  if (leave) leave();
  leave = null;
  const { match, token, as, tournament, page } = fragment();
  if (match) {
    leave = openTable(match, as === 'player' ? playerKey() : token, tournament);
    return;
  }
  const state = { closed: false, onClose: null };
  leave = () => { state.closed = true; if (state.onClose) state.onClose(); };
  if (tournament) {
    redraw = () => tournamentPage(main, tournament, state);
  } else if (page === 'tournaments') {
    redraw = () => listPage(main, state);
  } else if (page === 'challenges') {
    redraw = () => challengesPage(main, state);
  } else if (page === 'queue') {
    redraw = () => queuePage(main, state);
  } else if (page === 'leaderboard') {
    redraw = () => leaderboardPage(main, state);
  } else if (page === 'account') {
    redraw = () => accountPage(main, { afterSignIn: () => {} });
  } else {
    showLobby();
    return;
  }
  redraw();
}

/** The header's account link: the player's name once signed in. */
function drawNav() {
  const a = document.getElementById('nav-account');
  if (!a) return;
  const p = player();
  a.textContent = p && playerKey() ? p.name : t('signIn');
}

/** A line at the top of the page with a link (a table to play, a result). */
function notice(text, href) {
  const box = document.getElementById('notice');
  box.replaceChildren(el('p', {}, text, ' ', el('a', { href, 'data-notice-link': '', onclick: () => box.replaceChildren() }, t('open'))));
}

// ---- lobby ----

function select(name, label, options, value) {
  const id = `f-${name}-${Math.random().toString(36).slice(2, 7)}`;
  return el('p', { class: 'field' }, el('label', { for: id }, label),
    el('select', { id, name }, options.map(([v, text]) => el('option', { value: v, selected: v === value }, text))));
}

function ruleFields() {
  return [
    select('variant', t('variant'), VARIANTS.map((v) => [v, t(v)]), 'pairs'),
    select('target', t('target'), [['101', '101'], ['51', '51']], '101'),
    (() => {
      const id = `f-max-${Math.random().toString(36).slice(2, 7)}`;
      return el('p', { class: 'field' }, el('label', { for: id }, t('maxHands')),
        el('input', { id, name: 'max_hands', type: 'number', min: '1', max: '1000', inputmode: 'numeric' }));
    })(),
    select('clock', t('clock'), [['', t('noClock')], ['30000', t('seconds', 30)], ['60000', t('seconds', 60)]], ''),
    (() => {
      const id = `f-must-${Math.random().toString(36).slice(2, 7)}`;
      return el('p', { class: 'field check' }, el('input', { id, name: 'must_trump', type: 'checkbox' }), el('label', { for: id }, t('mustTrump')));
    })(),
  ];
}

function matchBody(form, seatsFor) {
  const f = new FormData(form);
  const variant = f.get('variant');
  const rules = { variant, target: Number(f.get('target')), must_trump: f.get('must_trump') === 'on' };
  if (f.get('max_hands')) rules.max_hands = Number(f.get('max_hands'));
  const body = { rules, seats: seatsFor(variant === 'abarrotada3' ? 3 : 4, f), auto_deal: true };
  if (f.get('clock')) body.move_timeout_ms = Number(f.get('clock'));
  return body;
}

function formError(form, e) {
  const out = form.querySelector('.message');
  out.textContent = t('refused', e.detail || e.message);
}

function showLobby() {
  redraw = showLobby;
  const bots = el('form', { class: 'card-panel', 'aria-labelledby': 'bots-title', 'data-form': 'bots' },
    el('h2', { id: 'bots-title' }, t('playBots')),
    (() => {
      const id = 'f-name';
      return el('p', { class: 'field' }, el('label', { for: id }, t('yourName')), el('input', { id, name: 'name', type: 'text', maxlength: '40', autocomplete: 'nickname' }));
    })(),
    ruleFields(),
    select('bot', t('bot'), BOTS.map((b) => [b, t('botNames')[b]]), 'heuristic'),
    el('p', { class: 'message', role: 'alert' }),
    el('button', { type: 'submit', class: 'primary' }, t('start')));
  bots.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const body = matchBody(bots, (n, f) => [
      { kind: 'remote', name: f.get('name') ? String(f.get('name')) : null },
      ...Array.from({ length: n - 1 }, () => ({ kind: 'bot', bot: f.get('bot') })),
    ]);
    try {
      const c = await api.createMatch(body);
      location.hash = new URLSearchParams({ match: c.match_id, token: c.tokens[0].token }).toString();
    } catch (e) { formError(bots, e); }
  });

  const friends = el('form', { class: 'card-panel', 'aria-labelledby': 'friends-title', 'data-form': 'friends' },
    el('h2', { id: 'friends-title' }, t('playFriends')),
    ruleFields(),
    el('p', { class: 'message', role: 'alert' }),
    el('button', { type: 'submit', class: 'primary' }, t('create')));
  friends.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const body = matchBody(friends, (n) => Array.from({ length: n }, () => ({ kind: 'remote' })));
    try {
      const c = await api.createMatch(body);
      created = { id: c.match_id, tokens: c.tokens };
      showLobby();
      document.getElementById('links-title')?.focus();
    } catch (e) { formError(friends, e); }
  });

  const join = el('form', { class: 'card-panel', 'aria-labelledby': 'join-title', 'data-form': 'join' },
    el('h2', { id: 'join-title' }, t('joinWatch')),
    el('p', { class: 'field' }, el('label', { for: 'f-link' }, t('linkOrId')), el('input', { id: 'f-link', name: 'link', type: 'text', autocomplete: 'off' })),
    el('p', { class: 'message', role: 'alert' }),
    el('button', { type: 'submit' }, t('go')));
  join.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const raw = String(new FormData(join).get('link') || '').trim();
    const hash = raw.includes('#') ? raw.slice(raw.indexOf('#') + 1) : (/^[A-Za-z0-9_-]{1,100}$/.test(raw) ? `match=${raw}` : '');
    if (!new URLSearchParams(hash).get('match')) {
      join.querySelector('.message').textContent = t('badLink');
      return;
    }
    location.hash = hash;
  });

  main.replaceChildren(el('div', {},
    el('h1', {}, t('title')),
    el('p', { class: 'intro' }, t('lobbyIntro')),
    created ? seatLinks(created) : null,
    el('div', { class: 'lobby' }, bots, friends, join)));
}

function seatLinks({ id, tokens }) {
  const copyButton = (url) => el('button', {
    type: 'button',
    onclick: async (ev) => {
      try { await navigator.clipboard.writeText(url); ev.target.textContent = t('copied'); } catch { ev.target.textContent = url; }
    },
  }, t('copy'));
  return el('section', { class: 'card-panel links', 'aria-labelledby': 'links-title' },
    el('h2', { id: 'links-title', tabindex: '-1' }, `${t('matchId')} ${id}`),
    el('p', {}, t('seatLinks')),
    el('ul', {}, tokens.map((tok) => {
      const url = tableLink(id, tok.token);
      return el('li', { 'data-seat-link': tok.seat },
        el('span', {}, t('seatLink', tok.seat)), ' ',
        el('a', { href: url, 'data-seat': tok.seat }, t('sitHere')), ' ',
        copyButton(url));
    }),
    el('li', {}, el('span', {}, t('spectatorLink')), ' ', el('a', { href: tableLink(id), 'data-spectate': '' }, tableLink(id)))));
}

// ---- table ----

function openTable(id, token, tournament) {
  let view = null;
  let busy = false;
  let message = '';
  let fetching = false;
  let again = false;
  let closed = false;
  let stop = null;
  let analysis = null;
  let analysing = false;
  const live = el('p', { class: 'sr', 'aria-live': 'polite', id: 'live' });
  const status = el('p', { class: 'status', id: 'status' });
  const clock = el('span', { class: 'clock', id: 'clock' });
  const heading = el('h1', { class: 'table-title' });
  const body = el('div', {});
  const back = tournament
    ? el('p', { class: 'back' }, el('a', { href: `#${new URLSearchParams({ tournament })}`, 'data-back-tournament': '' }, t('backToTournament')))
    : null;
  main.replaceChildren(...[heading, back, el('div', { class: 'status-bar' }, status, clock), live, body].filter(Boolean));

  const draw = () => {
    if (closed) return;
    heading.textContent = `${t('matchId')} ${id}${view && view.you !== null && view.you !== undefined ? ` · ${seatName(view, view.you)}` : ''}`;
    if (!view) {
      body.replaceChildren(el('div', {}, el('p', { role: message ? 'alert' : null }, message || t('loading')),
        message ? el('p', {}, el('a', { href: '#', class: 'button' }, t('backToLobby'))) : null));
      return;
    }
    const focused = document.activeElement?.dataset?.key;
    const wasInHand = document.activeElement?.classList?.contains('card');
    status.textContent = statusText(view);
    tick();
    body.replaceChildren(renderTable(view, { onAction: send, onRefused: refusedCard, busy, message, analysis, onAnalyse: analyse }));
    let target = focused ? body.querySelector(`[data-key="${CSS.escape(focused)}"]`) : null;
    if (!target && wasInHand) target = body.querySelector('.hand .card.legal') || body.querySelector('.hand .card');
    if (target) target.focus();
  };
  const tick = () => {
    const s = view ? clockLeft(view) : null;
    clock.textContent = s === null ? '' : t('clockLeft', s);
  };
  const timer = setInterval(tick, 1000);

  const failed = (e) => {
    if (e.status === 404) message = t('matchNotFound');
    else if (e.status === 401 || e.status === 403) message = t('badToken');
    else message = t('refused', e.detail || e.message);
  };

  async function refresh() {
    if (fetching) { again = true; return; }
    fetching = true;
    try {
      const before = view;
      view = await api.getView(id, token);
      if (!before || before.turn !== view.turn || before.phase !== view.phase) {
        live.textContent = statusText(view);
      }
      if (message === t('connLost')) message = '';
      draw();
    } catch (e) {
      failed(e);
      draw();
    } finally {
      fetching = false;
      if (again && !closed) { again = false; refresh(); }
    }
  }

  // Once the match is over and the player asks for it: its analysis,
  // asked again every 2 s while the server computes it (each analysis
  // costs the server seconds of solving, so none is started unasked).
  async function analyse() {
    if (analysing || closed || (analysis && analysis.status === 'done')) return;
    analysing = true;
    try {
      analysis = await api.getAnalysis(id, token);
      draw();
    } catch {
      analysis = null;
    } finally {
      analysing = false;
    }
    if (!closed && analysis && analysis.status !== 'done') setTimeout(analyse, 2000);
  }

  async function send(action) {
    if (busy || !view) return;
    busy = true;
    message = '';
    draw();
    try {
      view = await api.act(id, token, action, view.version);
    } catch (e) {
      if (e.code !== 'version_conflict') failed(e);
    } finally {
      busy = false;
    }
    draw();
    refresh();
  }

  function refusedCard(reason) {
    message = reason;
    draw();
  }

  function announce(type, data) {
    if (!view || !data) return;
    if (type === 'card_played') live.textContent = t('played', seatName(view, data.seat), cardName(data.card));
    if (type === 'trick_won') live.textContent = t('wonBy', seatName(view, data.seat));
  }

  (async () => {
    let after = 0;
    try { after = await api.lastSeq(id, token); } catch (e) { failed(e); draw(); return; }
    await refresh();
    if (closed) return;
    stop = api.follow(id, token, after, {
      onEvent: (type, data) => { announce(type, data); refresh(); },
      onDrop: () => { message = t('connLost'); refresh(); },
      onEnd: () => refresh(),
    });
  })();

  redraw = draw;
  draw();
  return () => {
    closed = true;
    clearInterval(timer);
    if (stop) stop();
  };
}

// ---- start ----

const picker = document.getElementById('lang');
setLanguage(initialLanguage());
picker.value = document.documentElement.lang;
picker.addEventListener('change', () => {
  setLanguage(picker.value);
  translateStatic();
  drawNav();
  redraw();
});
translateStatic();
drawNav();
onChange(drawNav);
followEvents({
  // A round seats the player: open its table, unless a table is open now.
  onRound: (e) => {
    const p = new URLSearchParams({ match: e.match_id, as: 'player', tournament: e.tournament_id });
    if (fragment().match) notice(t('roundReady', e.round), `#${p}`);
    else location.hash = p.toString();
  },
  onOver: (e) => notice(e.rank ? t('tournamentOverRank', e.rank) : t('tournamentOver'), `#${new URLSearchParams({ tournament: e.tournament_id })}`),
});
window.addEventListener('hashchange', route);
route();
