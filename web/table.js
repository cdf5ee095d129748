// The table drawn from one view (`GET /v1/matches/{id}`): nothing here
// knows the rules beyond what the view says; `legal_actions` decides what
// can be clicked.

import { t } from './i18n.js';
import { el } from './dom.js';
import { cardName, face, parse, sortHand, whyNot } from './cards.js';
import { replay } from './replay.js';

/**
 * A seat's display name ("Seat 2", its given name, "… (you)"); a name
 * another seat shares (three house bots of one kind, say) says where the
 * seat is ("… (across)"), or its number for a spectator.
 */
export function seatName(view, seat) {
  const info = view.seats[seat] || {};
  const base = info.name || t('seat', seat);
  if (view.you === seat) return `${base} (${t('you')})`;
  const shared = info.name && view.seats.some((o) => o.seat !== seat && o.name === info.name);
  if (!shared) return base;
  const me = view.you !== null && view.you !== undefined;
  return `${base} (${me ? t('where')[position(view, seat)] : t('seat', seat)})`;
}

/** A side's name: "Us"/"Them" in the pairs game, else its seat's name. */
export function sideName(view, side) {
  const members = view.seats.filter((s) => s.team === side).map((s) => s.seat);
  if (members.length <= 1) return seatName(view, members[0] ?? side);
  if (view.you !== null && view.you !== undefined) {
    return view.seats[view.you].team === side ? t('us') : t('them');
  }
  return `${t('side', side)} (${members.map((m) => seatName(view, m)).join(', ')})`;
}

const POSITIONS = { 4: ['bottom', 'right', 'top', 'left'], 3: ['bottom', 'right', 'left'] };

function position(view, seat) {
  const n = view.seats.length;
  const base = view.you ?? 0;
  return (POSITIONS[n] || POSITIONS[4])[(seat - base + n) % n];
}

function cardFace(code, extra = {}) {
  const { suit } = parse(code);
  return el('span', { class: `face suit-${suit}`, 'aria-hidden': 'true', ...extra },
    el('span', { class: 'rank' }, face(code)),
    el('span', { class: 'suit' }, t('suits')[suit]));
}

function trickView(view, trick, { title, cls }) {
  const cards = trick ? trick.cards : [];
  const list = el('ul', { class: `trick ${cls}`, 'aria-label': title },
    cards.map((pc) => el('li', { class: `played pos-${position(view, pc.seat)}${trick.winner === pc.seat ? ' winner' : ''}` },
      cardFace(pc.card),
      el('span', { class: 'who' }, seatName(view, pc.seat)),
      el('span', { class: 'sr' }, t('played', seatName(view, pc.seat), cardName(pc.card))))));
  if (!cards.length && view.phase !== 'match_over') list.append(el('li', { class: 'empty' }, t('emptyTrick')));
  return list;
}

function seatBox(view, info) {
  const s = info.seat;
  const cls = ['seat', `pos-${position(view, s)}`, view.turn === s ? 'turn' : '', view.you === s ? 'me' : ''].join(' ');
  return el('div', { class: cls, 'data-seat': s },
    el('strong', {}, seatName(view, s)),
    info.kind === 'bot' ? el('span', { class: 'tag' }, t('botSeat', info.bot)) : null,
    view.dealer === s ? el('span', { class: 'tag' }, t('dealer')) : null,
    el('span', { class: 'count' }, t('cardsHeld', view.hand_sizes[s] ?? 0)),
    view.turn === s ? el('span', { class: 'tag now' }, '●') : null);
}

function actionButtons(view, onAction, busy) {
  const trump = view.legal_actions.filter((a) => a.type === 'trump');
  const double = view.legal_actions.filter((a) => a.type === 'double');
  const deal = view.legal_actions.filter((a) => a.type === 'deal');
  const group = (label, actions, text) => el('div', { class: 'actions', role: 'group', 'aria-label': label },
    el('span', { class: 'label' }, label),
    actions.map((a) => el('button', { type: 'button', class: 'act', 'data-key': `act-${text(a)}`, disabled: busy, onclick: () => onAction(a) }, label === t('deal') ? label : t(a.type === 'trump' ? 'choice' : 'call')[text(a)])));
  return [
    deal.length ? group(t('deal'), deal, () => 'deal') : null,
    trump.length ? group(t('chooseTrump'), trump, (a) => a.choice) : null,
    double.length ? group(t('doubleOrPass'), double, (a) => a.call) : null,
  ];
}

function handView(view, onAction, busy, onRefused) {
  if (!view.hand || view.phase === 'match_over') return null;
  const legal = new Set(view.legal_actions.filter((a) => a.type === 'play').map((a) => a.card));
  const trump = ['O', 'C', 'E', 'B'].includes(view.trump) ? view.trump : null;
  return el('section', { class: 'hand-area', 'aria-labelledby': 'hand-title' },
    el('h2', { id: 'hand-title' }, t('yourHand')),
    el('ul', { class: 'hand' }, sortHand(view.hand, trump).map((code) => {
      const ok = legal.has(code);
      const reason = ok ? null : whyNot(view, code);
      return el('li', {}, el('button', {
        type: 'button',
        class: `card${ok ? ' legal' : ' illegal'}${code.endsWith(trump || '-') ? ' trump' : ''}`,
        'data-card': code,
        'data-key': `card-${code}`,
        'aria-disabled': ok && !busy ? null : 'true',
        title: reason,
        onclick: () => (ok && !busy ? onAction({ type: 'play', card: code }) : onRefused(reason)),
      }, cardFace(code, { 'aria-hidden': null }), el('span', { class: 'sr' }, ` (${cardName(code)})${reason ? `: ${reason}` : ''}`)));
    })));
}

function scoreBoard(view) {
  const sides = view.scores.map((_, i) => i).filter((i) => view.seats.some((s) => s.team === i));
  const trumpText = view.trump ? t('choice')[view.trump] : t('noTrumpYet');
  const calls = view.calls.length ? view.calls.map((c) => `${seatName(view, c.seat)}: ${t('call')[c.call]}`).join(', ') : t('none');
  return el('section', { class: 'scores', 'aria-labelledby': 'score-title' },
    el('h2', { id: 'score-title' }, t('score')),
    el('table', {},
      el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, ''), el('th', { scope: 'col' }, t('score')), el('th', { scope: 'col' }, t('tricks')), el('th', { scope: 'col' }, t('points')))),
      el('tbody', {}, sides.map((i) => el('tr', {},
        el('th', { scope: 'row' }, sideName(view, i)),
        el('td', { 'data-side-score': i }, view.scores[i]),
        el('td', {}, view.tricks_won[i] ?? 0),
        el('td', {}, view.points_taken[i] ?? 0))))),
    el('dl', { class: 'facts' },
      el('dt', {}, t('trump')), el('dd', { 'data-trump': view.trump || '' }, trumpText,
        view.declarer !== null && view.declarer !== undefined ? ` — ${seatName(view, view.declarer)}` : ''),
      el('dt', {}, t('multiplier')), el('dd', {}, `×${view.multiplier}`),
      el('dt', {}, t('calls')), el('dd', {}, calls)));
}

function results(view) {
  if (!view.hands.length) return null;
  const sides = view.scores.map((_, i) => i).filter((i) => view.seats.some((s) => s.team === i));
  return el('section', { class: 'results', 'aria-labelledby': 'results-title' },
    el('h2', { id: 'results-title' }, t('results')),
    el('table', {},
      el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, '#'), el('th', { scope: 'col' }, t('trump')),
        sides.map((i) => el('th', { scope: 'col' }, sideName(view, i))))),
      el('tbody', {}, view.hands.map((h) => el('tr', {},
        el('th', { scope: 'row' }, h.hand_number),
        el('td', {}, h.trump ? t('choice')[h.trump] : '—', h.multiplier > 1 ? ` ×${h.multiplier}` : '',
          h.forfeit !== null && h.forfeit !== undefined ? ` (${t('forfeit')})` : ''),
        sides.map((i) => el('td', {}, `${h.points[i] ?? 0} → ${h.recorded[i] ?? 0}`)))))));
}

/** How a match ended early (resigned, aborted, abandoned, claimed), if it did. */
function endedBy(view) {
  const e = view.ended_by;
  const say = e && t('endedBy')[e.how];
  if (!say) return null;
  const gone = e.against !== null && e.against !== undefined ? seatName(view, e.against) : '';
  return el('p', { class: 'ended-by' }, say(seatName(view, e.seat), gone));
}

function over(view) {
  if (view.phase !== 'match_over') return null;
  let who = view.winner === 'draw' || view.winner === null ? t('draw') : t('winner', sideName(view, view.winner));
  const mine = view.you !== null && view.you !== undefined ? view.seats[view.you].team : null;
  const shared = view.seats.filter((s) => s.team === view.winner).length > 1;
  if (mine !== null && shared) who = view.winner === mine ? t('weWon') : t('theyWon');
  return el('section', { class: 'over', 'aria-labelledby': 'over-title' },
    el('h2', { id: 'over-title' }, t('matchOver')),
    el('p', { class: 'winner' }, who),
    endedBy(view),
    el('p', {}, view.scores.filter((_, i) => view.seats.some((s) => s.team === i)).join(' – ')),
    view.seed ? el('p', { class: 'seed' }, `${t('seed')}: `, el('code', { 'data-seed': '' }, view.seed)) : null,
    el('p', {}, el('a', { href: '#', class: 'button' }, t('backToLobby'))));
}

/** The status line: phase, whose turn, and the move clock. */
export function statusText(view) {
  if (view.phase === 'match_over') return t('matchOver');
  const phase = t('phase')[view.phase] || view.phase;
  if (view.turn === null || view.turn === undefined) return `${phase} · ${t('waiting')}`;
  const turn = view.turn === view.you ? t('yourTurn') : t('turnOf', seatName(view, view.turn));
  return `${t('hand', view.hand_number)} · ${phase} · ${turn}`;
}

/** The seconds left on the move clock, or null without one. */
export function clockLeft(view) {
  if (!view.deadline || view.phase === 'match_over') return null;
  return Math.max(0, Math.ceil((Date.parse(view.deadline) - Date.now()) / 1000));
}

/**
 * The whole table for `view`; `onAction(action)` posts a legal action,
 * `onRefused(reason)` explains a click on a card that cannot be played;
 * `analysis` is the finished match's analysis as far as it is known.
 */
export function renderTable(view, { onAction, onRefused, busy, message, analysis, onAnalyse }) {
  const me = view.you !== null && view.you !== undefined;
  return el('div', { class: `table-page seats-${view.seats.length}`, 'data-version': view.version, 'data-phase': view.phase, 'data-turn': view.turn ?? '' },
    el('section', { class: 'board', 'aria-label': t('trick') },
      view.seats.map((s) => seatBox(view, s)),
      el('div', { class: 'center' },
        el('h2', { class: 'sr' }, t('trick')),
        trickView(view, view.trick, { title: t('trick'), cls: 'current' }))),
    message ? el('p', { class: 'message', role: 'alert' }, message) : null,
    me ? actionButtons(view, onAction, busy) : el('p', { class: 'spectator' }, t('spectator')),
    handView(view, onAction, busy, onRefused),
    over(view),
    view.phase === 'match_over' ? replay(analysis, (seat) => seatName(view, seat), onAnalyse) : null,
    el('div', { class: 'info' },
      scoreBoard(view),
      el('section', { class: 'last', 'aria-labelledby': 'last-title' },
        el('h2', { id: 'last-title' }, t('lastTrick')),
        view.last_trick ? trickView(view, view.last_trick, { title: t('lastTrick'), cls: 'small' }) : el('p', {}, t('emptyTrick')),
        view.last_trick && view.last_trick.winner !== null && view.last_trick.winner !== undefined
          ? el('p', { class: 'won' }, t('wonBy', seatName(view, view.last_trick.winner))) : null),
      results(view)));
}
