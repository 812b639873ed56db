// A person plays a Full-Contact Catan team live. Click one of your players (its numbered ring,
// or keys 0-3) and click the field where it should run; keys give its orders: P pick up, T tag
// (knights), X throw to the nearest teammate (published ruleset), L place a settlement marker,
// S stand still. The team's intents go to the server as they change; on the wall clock a team
// that sends nothing keeps its last intents, and in lockstep each tick is answered with them.
// The page decides nothing: the server applies or refuses the intents it is sent.
import { h, enumName } from '../common.js';

const flagKeys = { p: 'pick_up', t: 'tag', x: 'throw', l: 'place' };

export function controller({ board, boardEl, controls, prompt, seat, joined }) {
  const wall = !!(joined && joined.clock && joined.clock.wall_clock);
  let decision = null, obs = null, send = null;
  let dirty = false;
  let sent = 0;
  const state = {
    selected: 0,
    intents: [], // per avatar: {target?: {x, y}, pick_up, tag, throw, throw_to, place}
    select(i) { state.selected = i; render(); redraw(); },
    target(x, y) {
      const it = state.intents[state.selected];
      if (!it) return;
      it.target = { x, y };
      // Running to a pile is running to pick up there: a person clicks a pile to fetch a ball.
      changed();
    },
  };

  const mine = () => (obs && (obs.teams || []).find((t) => t.seat === seat)) || { avatars: [] };

  // fromObservation reads the team's standing orders, which only its own view holds.
  function fromObservation() {
    state.intents = (mine().avatars || []).map((a) => {
      const i = a.intent || {};
      return { target: i.target ? { x: i.target.x, y: i.target.y } : null, pick_up: !!i.pick_up, tag: !!i.tag || a.knight, throw: !!i.throw, throw_to: i.throw_to || 0, place: !!i.place };
    });
  }

  const wire = (it) => {
    const out = { pick_up: it.pick_up, tag: it.tag, throw: it.throw, throw_to: it.throw_to, place: it.place };
    if (it.target) out.target = it.target; else out.stay = {};
    return out;
  };

  function flush() {
    if (!decision || !dirty || !send) return;
    send({ decision_id: decision.decision_id, action: { fccatan: { intents: { avatars: state.intents.map(wire) } } } });
    dirty = false;
    sent++;
    boardEl.dataset.intentsSent = sent;
  }
  function changed() { dirty = true; flush(); render(); redraw(); }
  const redraw = () => board.update(obs, { live: state, viewer: seat });

  // nearestMate is the teammate closest to the selected player, to throw to.
  function nearestMate() {
    const av = mine().avatars || [];
    const me = av[state.selected];
    let best = -1, bd = Infinity;
    for (const a of av) {
      if (a.index === state.selected) continue;
      const d = Math.hypot(a.position.x - me.position.x, a.position.y - me.position.y);
      if (d < bd) { bd = d; best = a.index; }
    }
    return best;
  }

  const onKey = (ev) => {
    if (!obs || ev.target.tagName === 'INPUT') return;
    const key = ev.key.toLowerCase();
    const av = mine().avatars || [];
    if (/^[0-9]$/.test(key) && Number(key) < av.length) { state.select(Number(key)); return; }
    const it = state.intents[state.selected];
    if (!it) return;
    if (key === 's') { it.target = null; changed(); return; }
    const flag = flagKeys[key];
    if (!flag) return;
    it[flag] = !it[flag];
    if (flag === 'throw') it.throw_to = nearestMate();
    ev.preventDefault();
    changed();
  };
  window.addEventListener('keydown', onKey);

  // The controls list each player's orders, with buttons for what the keys do.
  function render() {
    const av = mine().avatars || [];
    controls.replaceChildren(...av.map((a) => {
      const it = state.intents[a.index] || {};
      const toggle = (flag, label, key) => h('button', { class: `toggle${it[flag] ? ' on' : ''}`, 'data-flag': flag, 'data-avatar': a.index, title: `key ${key}`,
        onclick: () => { state.selected = a.index; it[flag] = !it[flag]; if (flag === 'throw') it.throw_to = nearestMate(); changed(); } }, label);
      return h('div', { class: `avatarrow${state.selected === a.index ? ' selected' : ''}`, 'data-avatar': a.index },
        h('button', { class: 'selectavatar', 'data-avatar': a.index, onclick: () => state.select(a.index) }, `player ${a.index}${a.knight ? ' (knight)' : ''}`),
        h('span', { class: 'dim' }, it.target ? ` runs to (${it.target.x}, ${it.target.y})` : ' stands', a.carrying !== 'RESOURCE_UNSPECIFIED' ? ` · carries ${enumName(a.carrying, 'RESOURCE_')}` : '', a.frozen ? ' · frozen' : ''),
        ' ', toggle('pick_up', 'pick up', 'P'), a.knight ? toggle('tag', 'tag', 'T') : '', obs.rules && obs.rules.throwing ? toggle('throw', 'throw', 'X') : '', a.markers ? toggle('place', 'place', 'L') : '');
    }));
    prompt.textContent = `round ${obs.round}: click a player (or keys 0-${Math.max(0, av.length - 1)}), then the field where it runs; P pick up, T tag, X throw, L place, S stand${wall ? ' · the round runs on the clock' : ''}`;
  }

  return {
    state,
    decision(d, o, s) {
      const first = !obs || obs.phase !== 'PHASE_TICK' || (mine().avatars || []).length !== state.intents.length;
      decision = d; obs = o; send = s;
      if (first) { fromObservation(); render(); }
      // In lockstep every tick waits for the team: answer each with the standing orders.
      if (!wall) dirty = true;
      flush();
      redraw();
    },
    accepted() {},
    destroy() { window.removeEventListener('keydown', onKey); },
  };
}
