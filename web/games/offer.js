// A PanTropia trade offer, built as at a table: whom to, and per colour how many chips to give
// and to get. The builder only picks among the offers the legal list holds: "offer" is lit
// when the offer built is one of them, and the page sends that action.
import { h, seatLabel, swatch } from '../common.js';

const colors = ['red', 'orange', 'yellow', 'green', 'blue', 'purple'];
const hex = { red: '#e53935', orange: '#fb8c00', yellow: '#fdd835', green: '#43a047', blue: '#1e88e5', purple: '#8e24aa' };

// offerBuilder over offers: [[['offer', {to, give, take}], legalIndex], ...].
export function offerBuilder(offers, obs, answer, names, me) {
  const tos = [...new Set(offers.map(([[, f]]) => f.to))].sort((a, b) => a - b);
  const give = Object.fromEntries(colors.map((c) => [c, 0]));
  const take = Object.fromEntries(colors.map((c) => [c, 0]));
  const to = h('select', { id: 'offerto' }, tos.map((s) => h('option', { value: s }, seatLabel(s, names))));
  const status = h('span', { class: 'dim', id: 'offerstatus' });
  const send = h('button', { id: 'offersend', class: 'primary', disabled: true }, 'offer');
  const same = (a, b) => colors.every((c) => (a[c] || 0) === (b[c] || 0));
  const match = () => offers.find(([[, f]]) => f.to === Number(to.value) && same(f.give, give) && same(f.take, take));
  const check = () => {
    const m = match();
    send.disabled = !m;
    const any = colors.some((c) => give[c] || take[c]);
    status.textContent = m ? 'you may offer this' : any ? 'not an offer you may make now' : `${offers.length} offers are open to you`;
  };
  const counter = (side, c) => {
    const n = h('span', { class: 'count', 'data-side': side, 'data-color': c }, '0');
    const bump = (d) => () => { side[c] = Math.max(0, side[c] + d); n.textContent = side[c]; check(); };
    return h('span', { class: 'counter' }, swatch(hex[c]), h('button', { class: 'less', 'data-color': c, onclick: bump(-1), title: `one ${c} less` }, '−'), n,
      h('button', { class: 'more', 'data-color': c, onclick: bump(1), title: `one ${c} more` }, '+'));
  };
  const row = (label, side, id) => h('div', { class: 'offerrow', id }, h('span', { class: 'offerlabel' }, label), colors.map((c) => counter(side, c)));
  to.addEventListener('change', check);
  send.addEventListener('click', () => { const m = match(); if (m) answer({ legal_index: m[1] }); });
  // "fill" sets the counters to one offer the list holds, to start from.
  const fill = h('button', { id: 'offerfill', title: 'start from an offer you may make' }, 'suggest');
  let k = 0;
  fill.addEventListener('click', () => {
    const [[, f]] = offers[k++ % offers.length];
    to.value = f.to;
    for (const c of colors) { give[c] = f.give[c] || 0; take[c] = f.take[c] || 0; }
    el.querySelectorAll('.count').forEach((n) => { n.textContent = (n.dataset.side === 'give' ? give : take)[n.dataset.color]; });
    check();
  });
  const el = h('div', { class: 'offer', id: 'offerbuilder' }, h('div', {}, h('b', {}, 'Offer a trade '), 'to ', to),
    row('you give', give, 'offergive'), row('you get', take, 'offertake'), h('div', { class: 'controls' }, send, fill, status));
  el.querySelectorAll('#offergive .count').forEach((n) => { n.dataset.side = 'give'; });
  el.querySelectorAll('#offertake .count').forEach((n) => { n.dataset.side = 'take'; });
  check();
  return el;
}
