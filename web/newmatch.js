// The New match form: a game, who sits in each seat (you, a link to hand to a friend or to a
// bot of your own, or one of the server's built-in bots), the game's options, and for a
// real-time game whether it runs on the wall clock. On a server with an admin key it says so,
// and takes the key for this tab only (sessionStorage, gone when the tab closes). The match's
// creator token stays in this browser (creator.js), for its pages' Abort.
import { post } from './api.js';
import { h, seatColor, swatch } from './common.js';
import { keepCreator } from './creator.js';

const adminKey = 'orrery-admin-key';

export function newMatch(all) {
  const game = h('select', { id: 'newgame' }, Object.values(all).map((g) => h('option', { value: g.name }, g.title || g.name)));
  const seats = h('input', { id: 'newseats', type: 'number', min: 1, max: 6, value: 2, style: 'width:4em' });
  const seatRows = h('div', { id: 'seatrows', class: 'seatrows' });
  const options = h('details', { id: 'newoptions', class: 'options' });
  const realtime = h('label', { id: 'realtime' }, h('input', { type: 'checkbox', id: 'wallclock', checked: true }), ' real time (the wall clock, at the game\'s tick rate)');
  const out = h('div', { id: 'newmatch' });
  let who = []; // per seat: 'you', 'link' or a bot's name

  const rows = () => {
    const g = all[game.value];
    const bots = g.bots || [];
    const n = Number(seats.value);
    const opponent = bots.includes('greedy') ? 'greedy' : bots[0] || 'link';
    who = Array.from({ length: n }, (_, i) => who[i] || (i === 0 ? 'you' : opponent));
    seatRows.replaceChildren(...who.map((w, i) => h('label', { class: 'seatrow' }, swatch(seatColor(i)), `seat ${i} `,
      h('select', { class: 'seatwho', 'data-seat': i, onchange: (ev) => { who[i] = ev.target.value; } },
        h('option', { value: 'you', selected: w === 'you' }, 'you'),
        h('option', { value: 'link', selected: w === 'link' }, 'a link (a friend, or your own bot)'),
        bots.map((b) => h('option', { value: b, selected: w === b }, `${b} bot`))))));
    if (!bots.length) seatRows.append(h('div', { class: 'dim' }, 'this server offers no built-in bots for new matches: give the links to bots (orrery join)'));
  };
  const sync = () => {
    const g = all[game.value];
    seats.min = g.min_seats; seats.max = g.max_seats;
    seats.value = Math.min(Math.max(Number(seats.value), g.min_seats), g.max_seats);
    realtime.style.display = g.real_time ? '' : 'none';
    options.replaceChildren(h('summary', {}, 'options'), ...(g.options || []).map((o) => h('label', { class: 'option', title: o.help },
      `${o.name} `, h('input', { 'data-option': o.name, placeholder: o.default_value, size: 10 }))));
    who = [];
    rows();
  };
  game.addEventListener('change', sync);
  seats.addEventListener('change', rows);
  sync();

  const create = async () => {
    const g = all[game.value];
    const req = { game: g.name, seats: Number(seats.value), options: {}, seat_names: who.map((w, i) => (w === 'you' ? 'you' : w === 'link' ? `seat ${i}` : w)) };
    for (const input of options.querySelectorAll('input[data-option]')) if (input.value.trim()) req.options[input.dataset.option] = input.value.trim();
    const wall = g.real_time && document.getElementById('wallclock').checked;
    // A person thinks: a minute a move and five in the bank; on the wall clock the ticks run
    // at the game's own rate and the budget only bounds the decisions between rounds.
    req.clock = wall ? { per_move: '30s', time_bank: '120s', wall_clock: true } : { per_move: '60s', time_bank: '300s' };
    const bots = who.map((w, seat) => ({ seat, bot: w })).filter((b) => b.bot !== 'you' && b.bot !== 'link');
    if (bots.length) req.bots = bots;
    out.replaceChildren('creating…');
    try {
      const r = await post('/v1/matches', req);
      keepCreator(r.match_id, r.creator_token); // this browser may abort it: creator.js
      const mine = r.seats.filter((st) => who[st.seat] === 'you');
      const links = r.seats.filter((st) => who[st.seat] === 'link');
      out.replaceChildren(h('div', {}, 'match ', h('a', { href: `#/match/${r.match_id}` }, r.match_id), ' · keep these links secret: each plays its seat'),
        ...r.seats.map((st) => h('div', {}, swatch(seatColor(st.seat)), h('a', { href: `#/seat/${st.token}`, class: 'seatlink', 'data-seat': st.seat }, `play seat ${st.seat}`),
          who[st.seat] === 'you' ? ' (you)' : '')));
      // One seat of yours: go and play it. Several (a table of friends at one screen) or only
      // links: the links stay here to hand out.
      if (mine.length === 1 && !links.length) location.hash = `#/seat/${mine[0].token}`;
    } catch (err) {
      if (err.code === 16) {
        const key = h('input', { id: 'adminkey', type: 'password', placeholder: 'admin key', autocomplete: 'off' });
        out.replaceChildren(h('div', { class: 'error' }, 'This server creates matches only with its admin key (orrery serve --admin-key).'),
          h('div', { class: 'controls' }, key, h('button', { id: 'savekey', onclick: () => { sessionStorage.setItem(adminKey, key.value); create(); } }, 'use the key in this tab'),
            h('span', { class: 'dim' }, 'kept in this tab only (sessionStorage), never sent anywhere but this server; or create matches with grpcurl or curl and the key (docs/http.md)')));
      } else {
        out.replaceChildren(h('span', { class: 'error' }, err.message));
      }
    }
  };
  return h('div', { class: 'panel' }, h('h2', {}, 'New match'),
    h('div', { class: 'controls' }, game, 'seats', seats, h('button', { id: 'create', onclick: create }, 'create')),
    seatRows, realtime, options, out);
}
