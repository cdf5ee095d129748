// Form pieces shared by the player's pages: a labelled control, a
// labelled select, a checkbox, and the "sign in first" line. Every control
// gets an id its label points to.

import { t } from './i18n.js';
import { el } from './dom.js';

/** `<p class="field"><label/>control</p>`; `control(id)` builds the control. */
export function field(id, label, control) {
  return el('p', { class: 'field' }, el('label', { for: id }, label), control(id));
}

/** A labelled select of `[value, text]` options, `value` selected. */
export function choice(id, name, label, options, value) {
  return field(id, label, (i) => el('select', { id: i, name },
    options.map(([v, text]) => el('option', { value: v, selected: v === value }, text))));
}

/** A checkbox with its label after it. */
export function checkbox(id, name, label, checked = false) {
  return el('p', { class: 'field check' }, el('input', { id, name, type: 'checkbox', checked }), el('label', { for: id }, label));
}

/** Says that `what` needs a player, with a link to sign in. */
export function signInFirst(what) {
  return el('p', { class: 'card-panel', 'data-sign-in-first': '' }, what, ' ', el('a', { href: '#account' }, t('signIn')));
}
