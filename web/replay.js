// The end-of-match replay from `GET /v1/matches/{id}/analysis`: every
// bidding decision and trick of every analysed hand, each card marked with
// what it cost beside the best card of its position (solved with every
// hand known), each bid with what it cost by the expert's estimate.

import { t } from './i18n.js';
import { el } from './dom.js';
import { cardName, face, parse } from './cards.js';

function cardMark(c) {
  const { suit } = parse(c.card);
  const costly = c.solved && c.cost > 0;
  const cls = `played${costly ? ' costly' : ''}${c.solved ? '' : ' unsolved'}`;
  const note = !c.solved ? t('unsolved')
    : costly ? t('costly', c.cost, c.best_cards.map(cardName).join(', ')) : t('bestCard');
  return el('li', { class: cls, 'data-cost': c.solved ? c.cost : '' },
    el('span', { class: `face suit-${suit}`, 'aria-hidden': 'true' },
      el('span', { class: 'rank' }, face(c.card)), el('span', { class: 'suit' }, t('suits')[suit])),
    el('span', { class: 'sr' }, cardName(c.card)),
    el('span', { class: 'note' }, costly ? `−${c.cost}` : ''),
    el('span', { class: 'sr' }, note));
}

// A trump-phase action or a call, as the table's buttons name it.
function actionName(a) {
  return a.type === 'trump' ? t('choice')[a.choice] : t('call')[a.call];
}

// A bidding decision: who, what, and what it gave away by the expert's
// sampled estimate (an Estevet is not valued).
function bidMark(b, seatName) {
  const valued = b.cost !== null && b.cost !== undefined;
  const costly = valued && b.cost > 0;
  const note = !valued ? t('bidUnvalued')
    : costly ? t('bidCost', b.cost.toFixed(2), b.best_actions.map(actionName).join(', ')) : t('bidBest');
  return el('li', { class: `replay-bid${costly ? ' bid-costly' : ''}`, 'data-cost': valued ? b.cost : '' },
    el('span', { class: 'who' }, seatName(b.seat)), ' ',
    el('strong', {}, actionName(b.action)), ' ',
    el('span', { class: 'note' }, costly ? `−${b.cost.toFixed(2)}` : ''),
    el('span', { class: 'sr' }, note));
}

function handReplay(hand, seatName) {
  const tricks = [];
  for (const c of hand.cards) (tricks[c.trick - 1] ||= []).push(c);
  const costs = hand.cost_by_seat.map((cost, seat) => `${seatName(seat)}: −${cost}`).join(' · ');
  return el('section', { class: 'replay-hand' },
    el('h3', {}, t('hand', hand.hand_number)),
    el('p', { class: 'costs' }, `${t('costBySeat')}: ${costs}`),
    (hand.bids || []).length
      ? [el('p', { class: 'bids-title', id: `bids-${hand.hand_number}` }, t('bids')),
        el('ol', { class: 'replay-bids', 'aria-labelledby': `bids-${hand.hand_number}` },
          hand.bids.map((b) => bidMark(b, seatName)))]
      : null,
    el('ol', { class: 'replay-tricks' }, tricks.map((cards) => el('li', {},
      el('ul', { class: 'replay-trick' }, cards.map((c) => el('li', { class: 'replay-card' },
        el('span', { class: 'who' }, seatName(c.seat)), el('ul', { class: 'one' }, cardMark(c)))))))));
}

/**
 * The replay section for `analysis` (null: not asked for yet, a button
 * calling `onAnalyse`): its progress while the server computes it, then
 * every hand trick by trick.
 */
export function replay(analysis, seatName, onAnalyse) {
  if (!analysis) {
    if (!onAnalyse) return null;
    return el('section', { class: 'replay', 'data-status': 'none' },
      el('button', { type: 'button', class: 'analyse', onclick: () => onAnalyse() }, t('analyse')));
  }
  const body = analysis.status !== 'done'
    ? [el('p', { class: 'progress' }, t('analysing', analysis.progress.done, analysis.progress.total))]
    : analysis.hands.map((h) => handReplay(h, seatName));
  return el('section', { class: 'replay', 'data-status': analysis.status, 'aria-labelledby': 'replay-title' },
    el('h2', { id: 'replay-title' }, t('analysis')), el('p', {}, t('analysisIntro')), body);
}
