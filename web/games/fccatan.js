// Full-Contact Catan: the field from above. Hoops with their buildings, piles with their
// balls, every avatar gliding between ticks at the game's tick rate, carried balls, frozen
// players; beside it the teams' VP, resources and cards, and the market's offers. During a
// round a person plays their team live (fccatan-live.js): select a player, click where it runs,
// keys to pick up, throw, tag and place. Between rounds the choices are clicks on hoops and
// controls.
import { h, seatLabel, seatColor, swatch, enumName } from '../common.js';
import { gameAction } from '../boards.js';
import { placeDots } from '../three-view.js';
export { controller } from './fccatan-live.js';

export const resourceColor = { RESOURCE_WOOD: '#2e7d32', RESOURCE_BRICK: '#c0552b', RESOURCE_ORE: '#9aa0a6', RESOURCE_SHEEP: '#c5e1a5', RESOURCE_UNSPECIFIED: '#555' };
const resources = ['wood', 'brick', 'ore', 'sheep'];

export function board(el, catalog, opts) {
  const canvas = h('canvas', { id: 'field', width: 900, height: 520 });
  const overlay = h('div', { class: 'overlay' });
  const side = h('div', { class: 'panel', id: 'boardinfo' });
  el.append(canvas, overlay);
  el.after(side);
  const ctx = canvas.getContext('2d');
  let obs = null, map = null, c = {};
  let from = new Map(), to = new Map(); // avatar key -> [x, y]
  let since = 0, tickMs = 100;
  let frame = 0;

  const fieldMap = (o) => {
    const maps = (catalog && catalog.maps) || [];
    return maps.find((m) => m.name === (o.rules && o.rules.map)) || maps[0];
  };
  // The field's scale: canvas pixels per centimetre, and CSS pixels for the overlay.
  const k = () => Math.min(canvas.width / map.width_cm, canvas.height / map.height_cm);
  const css = () => (canvas.clientWidth || canvas.width) / canvas.width;
  const X = (x) => x * k(), Y = (y) => canvas.height - y * k(); // the field's y runs up
  const position = (key, t) => { const b = to.get(key), f = from.get(key) || b; return [f[0] + (b[0] - f[0]) * t, f[1] + (b[1] - f[1]) * t]; };

  function draw(now) {
    frame = 0;
    if (!obs || !map) return;
    const W = canvas.width, H = canvas.height;
    ctx.fillStyle = '#1e4620';
    ctx.fillRect(0, 0, W, H);
    ctx.strokeStyle = '#fff';
    ctx.strokeRect(0.5, H - map.height_cm * k() + 0.5, map.width_cm * k() - 1, map.height_cm * k() - 1);
    const hoopState = Object.fromEntries((obs.hoops || []).map((x) => [x.id, x]));
    const lit = (c.marks && c.marks.selectable) || new Map();
    ctx.font = '11px system-ui';
    for (const hp of map.hoops || []) {
      const stt = hoopState[hp.id] || { owner: -1 };
      ctx.beginPath();
      ctx.arc(X(hp.center.x), Y(hp.center.y), Math.max(4, hp.radius_cm * k()), 0, 2 * Math.PI);
      ctx.lineWidth = lit.has(`hoop:${hp.id}`) ? 4 : stt.owner >= 0 ? 4 : 2;
      ctx.strokeStyle = lit.has(`hoop:${hp.id}`) ? '#ffcf5a' : stt.owner >= 0 ? seatColor(stt.owner) : '#ddd';
      ctx.stroke();
      if (stt.owner >= 0) {
        ctx.fillStyle = seatColor(stt.owner);
        const r = stt.building === 'BUILDING_CITY' ? 9 : 6;
        ctx.fillRect(X(hp.center.x) - r, Y(hp.center.y) - r, 2 * r, 2 * r);
      }
      ctx.fillStyle = '#ddd';
      ctx.fillText(`h${hp.id}`, X(hp.center.x) + hp.radius_cm * k() + 2, Y(hp.center.y) - 4);
    }
    const piles = Object.fromEntries((obs.piles || []).map((p) => [p.id, p]));
    for (const sp of map.piles || []) {
      const p = piles[sp.id] || { balls: 0 };
      ctx.fillStyle = resourceColor[sp.resource];
      ctx.beginPath();
      ctx.arc(X(sp.position.x), Y(sp.position.y), 7 + p.balls, 0, 2 * Math.PI);
      ctx.fill();
      ctx.fillStyle = '#000';
      ctx.fillText(String(p.balls), X(sp.position.x) - 3, Y(sp.position.y) + 4);
    }
    const t = Math.min(1, (now - since) / tickMs);
    const live = c.live || null;
    for (const team of obs.teams || []) {
      for (const a of team.avatars || []) {
        const key = `${team.seat}.${a.index}`;
        const [x, y] = position(key, t);
        // A player's standing order, for its own team: a line to where it runs.
        const order = live && team.seat === opts.me ? live.intents[a.index] : null;
        if (order && order.target) {
          ctx.setLineDash([4, 4]);
          ctx.strokeStyle = seatColor(team.seat);
          ctx.lineWidth = 1;
          ctx.beginPath();
          ctx.moveTo(X(x), Y(y));
          ctx.lineTo(X(order.target.x), Y(order.target.y));
          ctx.stroke();
          ctx.setLineDash([]);
        }
        ctx.beginPath();
        ctx.arc(X(x), Y(y), a.knight ? 9 : 7, 0, 2 * Math.PI);
        ctx.fillStyle = seatColor(team.seat);
        ctx.fill();
        ctx.lineWidth = live && team.seat === opts.me && live.selected === a.index ? 4 : 2;
        ctx.strokeStyle = live && team.seat === opts.me && live.selected === a.index ? '#ffcf5a' : a.frozen ? '#9ef' : a.knight ? '#fff' : '#000';
        ctx.stroke();
        if (a.frozen) { ctx.fillStyle = '#9ef'; ctx.fillText('❄', X(x) - 5, Y(y) - 10); }
        if (a.carrying !== 'RESOURCE_UNSPECIFIED') {
          ctx.beginPath();
          ctx.arc(X(x) + 7, Y(y) - 7, 4, 0, 2 * Math.PI);
          ctx.fillStyle = resourceColor[a.carrying];
          ctx.fill();
        }
      }
    }
    handles(t);
    if (t < 1) frame = requestAnimationFrame(draw);
  }

  // handles are the person's own players and the hoops a click may choose, as elements over
  // the canvas: a numbered ring on each player to select it, a dot on each lit hoop.
  function handles(t) {
    const s = css();
    const items = [];
    const live = c.live || null;
    const mine = (obs.teams || []).find((tm) => tm.seat === opts.me);
    if (live && mine) {
      for (const a of mine.avatars || []) {
        const [x, y] = position(`${mine.seat}.${a.index}`, t);
        items.push({ key: `avatar:${a.index}`, dataKey: `avatar:${a.index}`, cls: `handle${live.selected === a.index ? ' selected' : ''}`, text: String(a.index),
          title: `your player ${a.index}${a.knight ? ' (knight)' : ''}: click to give it orders`, x: X(x) * s, y: Y(y) * s,
          onclick: (ev) => { ev.stopPropagation(); live.select(a.index); } });
      }
    }
    for (const [key, label] of (c.marks && c.marks.selectable) || []) {
      const hp = key.startsWith('hoop:') && (map.hoops || []).find((x) => x.id === Number(key.slice(5)));
      if (hp) items.push({ key, dataKey: key, cls: 'dot', title: `hoop ${hp.id}: ${label}`, x: X(hp.center.x) * s, y: Y(hp.center.y) * s, onclick: (ev) => { ev.stopPropagation(); opts.onKey && opts.onKey(key); } });
    }
    for (const sp of map.piles || []) items.push({ key: `pile:${sp.id}`, dataKey: `pile:${sp.id}`, cls: 'tag pile', text: `${enumName(sp.resource, 'RESOURCE_')} ${sp.id}`, x: X(sp.position.x) * s, y: Y(sp.position.y) * s, style: 'transform:translate(-50%, 12px)' });
    placeDots(overlay, items);
  }

  // A click on the field while playing live sends the selected player there.
  canvas.addEventListener('click', (ev) => {
    if (!map || !c.live) return;
    const r = canvas.getBoundingClientRect();
    const px = ((ev.clientX - r.left) / r.width) * canvas.width, py = ((ev.clientY - r.top) / r.height) * canvas.height;
    c.live.target(Math.round(px / k()), Math.round((canvas.height - py) / k()));
  });

  return {
    update(o, cx = {}) {
      if (!o) return;
      c = cx;
      const fresh = o !== obs;
      obs = o;
      map = fieldMap(o);
      if (!map) return;
      const height = Math.round((canvas.width * map.height_cm) / map.width_cm);
      if (canvas.height !== height) canvas.height = height; // the field's own proportions
      tickMs = (o.rules && o.rules.tick_ms) || 100;
      if (fresh) {
        from = new Map();
        for (const [key, p] of to) from.set(key, p);
        to = new Map();
        for (const team of o.teams || []) for (const a of team.avatars || []) to.set(`${team.seat}.${a.index}`, [a.position.x, a.position.y]);
        since = performance.now();
      }
      if (!frame) frame = requestAnimationFrame(draw);
      canvas.dataset.avatars = to.size;
      canvas.dataset.scale = k();
      const teams = (o.teams || []).map((tm) => h('div', { class: 'team', 'data-seat': tm.seat },
        swatch(seatColor(tm.seat)), `${seatLabel(tm.seat, opts.names)}: ${tm.vp} VP · `,
        resources.map((r) => h('span', { class: 'card', style: `border-left:4px solid ${resourceColor[`RESOURCE_${r.toUpperCase()}`]}` }, `${r} ${tm.resources ? tm.resources[r] : 0}`)),
        (tm.cards || []).length ? ` · cards: ${tm.cards.map((cd) => enumName(cd, 'CARD_')).join(', ')}` : ''));
      const offers = (o.offers || []).map((of) => h('div', {}, `offer: ${seatLabel(of.from_seat, opts.names)} → ${seatLabel(of.to_seat, opts.names)}`));
      const rules = o.rules || {};
      side.replaceChildren(h('div', { id: 'roundline' }, `${enumName(o.phase, 'PHASE_')} · round ${o.round} of at most ${rules.max_rounds} · tick ${o.tick} of ${rules.ticks_per_round} · ${(o.time_left_ms / 1000).toFixed(1)} s left · ${rules.win_vp} VP win`),
        ...teams, h('h2', {}, 'Market'), h('div', {}, `${o.deck_left} cards in the deck`), ...offers,
        h('details', { class: 'legend' }, h('summary', {}, 'legend'),
          h('div', {}, 'circles are hoops (a square: a settlement, a big square: a city), coloured discs are piles of balls with their count; players are dots in their team\'s colour, knights ringed white, frozen players ❄, a carried ball beside its carrier'),
          Object.entries(resourceColor).filter(([r]) => r !== 'RESOURCE_UNSPECIFIED').map(([r, col]) => h('div', {}, swatch(col), enumName(r, 'RESOURCE_')))));
    },
    destroy() { cancelAnimationFrame(frame); side.remove(); },
  };
}

export const onBoard = (key) => key.startsWith('hoop:');
export const confirm = false;
export const describeKey = (key) => key.replace(':', ' ');

// live says when the seat plays its team live: during a round's ticks.
export const live = (obs) => obs && obs.phase === 'PHASE_TICK';

const amount = (r) => resources.filter((k) => r && r[k]).map((k) => `${r[k]} ${k}`).join(', ') || 'nothing';

// moves: the choices between rounds. A start hoop and a Barbarians target are hoops on the
// field; the rest are controls in the market's words.
export function moves(decision) {
  return (decision.legal || []).map((a, index) => {
    const [kind, f] = gameAction(a);
    const text = decision.legal_notation[index];
    const st = (key, label) => ({ key, label: label || key });
    let steps;
    switch (kind) {
      case 'setup': steps = [st(`hoop:${f.hoop}`, 'start here'), st(`knights: players ${(f.knights || []).join(', ') || 'none'}`)]; break;
      case 'barbarians': steps = [st(`hoop:${f.hoop}`, 'send the Barbarians here')]; break;
      case 'deploy': steps = [st(`deploy to hoops ${(f.hoops || []).join(', ')}`)]; break;
      case 'offer': steps = [st(`offer to seat ${f.to_seat}`), st(`give ${amount(f.give)}`), st(`for ${amount(f.want)}`)]; break;
      case 'reply': steps = [st((f.accept_from || []).length ? `accept the offers of seats ${f.accept_from.join(', ')}` : 'decline every offer')]; break;
      case 'buy': steps = [st(`buy ${(f.purchases || []).map((p) => enumName(p.kind, 'PURCHASE_KIND_')).join(', ')}`), st(text)]; break;
      case 'year_of_plenty': steps = [st(`take ${amount(f.take)}`)]; break;
      case 'monopoly': steps = [st(`monopoly on ${enumName(f.resource, 'RESOURCE_')}`)]; break;
      case 'discard': steps = [st(`discard ${amount(f.discard)}`)]; break;
      case 'pass': steps = [st('pass')]; break;
      default: steps = [st(text)];
    }
    return { index, steps, text };
  });
}

export function prompt(decision, obs) {
  if (obs.phase === 'PHASE_SETUP') return 'click your start hoop, then name your knights';
  if (obs.phase === 'PHASE_CARD_CHOICE' && obs.pending_card === 'CARD_BARBARIANS') return 'click the hoop the Barbarians hit';
  return `${enumName(obs.phase, 'PHASE_')}: choose below`;
}
