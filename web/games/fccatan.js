// Full-Contact Catan: the field from above. Hoops with their buildings, piles with their
// balls, every avatar gliding between ticks at the game's tick rate, carried balls, frozen
// players; beside it the teams' VP, resources and cards, and the market's offers.
import { h, seatLabel, seatColor, swatch, enumName } from '../common.js';

const resourceColor = { RESOURCE_WOOD: '#2e7d32', RESOURCE_BRICK: '#c0552b', RESOURCE_ORE: '#9aa0a6', RESOURCE_SHEEP: '#c5e1a5', RESOURCE_UNSPECIFIED: '#555' };
const resources = ['wood', 'brick', 'ore', 'sheep'];

export function board(el, catalog, opts) {
  const canvas = h('canvas', { id: 'field', width: 900, height: 520 });
  const side = h('div', { class: 'panel', id: 'boardinfo' });
  el.append(canvas);
  el.after(side);
  const ctx = canvas.getContext('2d');
  let obs = null, map = null;
  let from = new Map(), to = new Map(); // avatar key -> [x, y]
  let since = 0, tickMs = 100;
  let frame = 0;

  const fieldMap = (o) => {
    const maps = (catalog && catalog.maps) || [];
    return maps.find((m) => m.name === (o.rules && o.rules.map)) || maps[0];
  };

  function draw(now) {
    frame = 0;
    if (!obs || !map) return;
    const W = canvas.width, H = canvas.height;
    const k = Math.min(W / map.width_cm, H / map.height_cm);
    const X = (x) => x * k, Y = (y) => H - y * k; // the field's y runs up from the start line
    ctx.fillStyle = '#1e4620';
    ctx.fillRect(0, 0, W, H);
    ctx.strokeStyle = '#fff';
    ctx.strokeRect(0.5, H - map.height_cm * k + 0.5, map.width_cm * k - 1, map.height_cm * k - 1);
    const hoopState = Object.fromEntries((obs.hoops || []).map((x) => [x.id, x]));
    for (const hp of map.hoops || []) {
      const stt = hoopState[hp.id] || { owner: -1 };
      ctx.beginPath();
      ctx.arc(X(hp.center.x), Y(hp.center.y), Math.max(4, hp.radius_cm * k), 0, 2 * Math.PI);
      ctx.lineWidth = stt.owner >= 0 ? 4 : 2;
      ctx.strokeStyle = stt.owner >= 0 ? seatColor(stt.owner) : '#ddd';
      ctx.stroke();
      if (stt.owner >= 0) {
        ctx.fillStyle = seatColor(stt.owner);
        const r = stt.building === 'BUILDING_CITY' ? 9 : 6;
        ctx.fillRect(X(hp.center.x) - r, Y(hp.center.y) - r, 2 * r, 2 * r);
      }
    }
    const piles = Object.fromEntries((obs.piles || []).map((p) => [p.id, p]));
    ctx.font = '11px system-ui';
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
    for (const team of obs.teams || []) {
      for (const a of team.avatars || []) {
        const key = `${team.seat}.${a.index}`;
        const b = to.get(key), f = from.get(key) || b;
        const x = f[0] + (b[0] - f[0]) * t, y = f[1] + (b[1] - f[1]) * t;
        ctx.beginPath();
        ctx.arc(X(x), Y(y), a.knight ? 9 : 7, 0, 2 * Math.PI);
        ctx.fillStyle = seatColor(team.seat);
        ctx.fill();
        ctx.lineWidth = 2;
        ctx.strokeStyle = a.frozen ? '#9ef' : a.knight ? '#fff' : '#000';
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
    if (t < 1) frame = requestAnimationFrame(draw);
  }

  return {
    update(o) {
      if (!o) return;
      obs = o;
      map = fieldMap(o);
      if (!map) return;
      const height = Math.round((canvas.width * map.height_cm) / map.width_cm);
      if (canvas.height !== height) canvas.height = height; // the field's own proportions
      tickMs = (o.rules && o.rules.tick_ms) || 100;
      from = new Map();
      for (const [key, p] of to) from.set(key, p);
      to = new Map();
      for (const team of o.teams || []) for (const a of team.avatars || []) to.set(`${team.seat}.${a.index}`, [a.position.x, a.position.y]);
      since = performance.now();
      if (!frame) frame = requestAnimationFrame(draw);
      canvas.dataset.avatars = to.size;
      const teams = (o.teams || []).map((tm) => h('div', { class: 'team', 'data-seat': tm.seat },
        swatch(seatColor(tm.seat)), `${seatLabel(tm.seat, opts.names)}: ${tm.vp} VP · `,
        resources.map((r) => h('span', { class: 'card', style: `border-left:4px solid ${resourceColor[`RESOURCE_${r.toUpperCase()}`]}` }, `${r} ${tm.resources ? tm.resources[r] : 0}`)),
        (tm.cards || []).length ? ` · cards: ${tm.cards.map((c) => enumName(c, 'CARD_')).join(', ')}` : ''));
      const offers = (o.offers || []).map((of) => h('div', {}, `offer: team ${of.from_seat} → team ${of.to_seat}`));
      side.replaceChildren(h('div', {}, `${enumName(o.phase, 'PHASE_')} · round ${o.round} · tick ${o.tick} · ${(o.time_left_ms / 1000).toFixed(1)} s left`),
        ...teams, h('h2', {}, 'Market'), h('div', {}, `${o.deck_left} cards in the deck`), ...offers);
    },
    destroy() { cancelAnimationFrame(frame); side.remove(); },
  };
}
