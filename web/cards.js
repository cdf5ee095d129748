// Cards as the API writes them (`9O`: rank 1-12 then suit O, C, E, B).

import { t } from './i18n.js';

/** Suits in the order a hand is shown. */
export const SUITS = ['O', 'C', 'E', 'B'];
/** Ranks from strongest to weakest inside a suit (docs/rules.md section 1). */
const STRENGTH = [9, 1, 12, 11, 10, 8, 7, 6, 5, 4, 3, 2];

/** `{rank, suit}` of a card code. */
export function parse(code) {
  return { rank: Number(code.slice(0, -1)), suit: code.slice(-1).toUpperCase() };
}

/** The card's name in the current language ("manilla d'oros"). */
export function cardName(code) {
  const { rank, suit } = parse(code);
  return t('cardName', rank, t('suits')[suit]);
}

/** The cards sorted by suit (the trump suit first when there is one), strongest first. */
export function sortHand(cards, trump) {
  const order = SUITS.includes(trump) ? [trump, ...SUITS.filter((s) => s !== trump)] : SUITS;
  return [...cards].sort((a, b) => {
    const x = parse(a);
    const y = parse(b);
    return order.indexOf(x.suit) - order.indexOf(y.suit) || STRENGTH.indexOf(x.rank) - STRENGTH.indexOf(y.rank);
  });
}

/** The short face of a card: its rank as printed on Spanish cards. */
export function face(code) {
  return String(parse(code).rank);
}

/**
 * Why a card of the hand cannot be played now, in words; the server's
 * `legal_actions` decide, this only explains the usual reason.
 */
export function whyNot(view, code) {
  if (view.phase !== 'playing') return t('notNow');
  if (view.turn !== view.you) return t('notYourTurn');
  const led = view.trick && view.trick.cards.length ? parse(view.trick.cards[0].card).suit : null;
  if (led && parse(code).suit !== led && (view.hand || []).some((c) => parse(c).suit === led)) {
    return t('mustFollow', t('suits')[led]);
  }
  return t('mustBeat');
}
