// IceTraders: star systems as markers, ships as pyramids in their piece's colour, each with its
// id and a badge holding its owner's seat number (owners are told by more than colour), the
// hyperspaces, the stash, whose turn, and alignments once they are revealed. A seat clicks a
// ship, then a system or a target ship; choices with no place on the board are controls.
import { h, seatLabel, s, seatColor, swatch, enumName } from '../common.js';
import { armOf, gameAction } from '../boards.js';

const pieceColor = { COLOR_RED: '#e33', COLOR_YELLOW: '#fd3', COLOR_GREEN: '#3c5', COLOR_BLUE: '#39f' };
const power = { COLOR_RED: 'attack', COLOR_YELLOW: 'move', COLOR_GREEN: 'grow or add', COLOR_BLUE: 'trade' };
const sizeScale = { SIZE_SMALL: 0.6, SIZE_MEDIUM: 0.8, SIZE_LARGE: 1 };
const W = 900, H = 600;

export const pieceName = (p) => (p ? `${enumName(p.size, 'SIZE_')} ${enumName(p.color, 'COLOR_')}` : '');

function pyramid(piece, x, y, attrs) {
  const k = 14 * (sizeScale[piece.size] || 0.6);
  return s('polygon', {
    class: 'ship-body', points: `${x},${y - k * 1.5} ${x - k},${y + k * 0.6} ${x + k},${y + k * 0.6}`,
    fill: pieceColor[piece.color] || '#888', stroke: '#111', 'stroke-width': 1, ...attrs,
  });
}

function star(piece, x, y) {
  const r = 20 * (sizeScale[piece.size] || 0.6);
  const pts = [];
  for (let i = 0; i < 10; i++) {
    const a = (Math.PI / 5) * i - Math.PI / 2, rr = i % 2 ? r * 0.45 : r;
    pts.push(`${x + rr * Math.cos(a)},${y + rr * Math.sin(a)}`);
  }
  return s('polygon', { class: 'marker', points: pts.join(' '), fill: pieceColor[piece.color] || '#888', stroke: '#fff', 'stroke-width': 1 });
}

// A ship: the pyramid, its id under it and its owner's badge beside it.
// A click on a ship that nothing can do with chooses its place instead, when that is lit.
function ship(sh, x, y, marks, onKey, place) {
  const key = `ship:${sh.id}`;
  const clickKey = !marks.selectable.has(key) && marks.selectable.has(place) ? place : key;
  const g = s('g', { class: shipClass(key, marks), 'data-key': key, 'data-ship': sh.id, 'data-owner': sh.owner, onclick: pick(clickKey, onKey) });
  g.append(s('title', {}, `ship ${sh.id}: ${pieceName(sh.piece)}, ${sh.owner >= 0 ? `seat ${sh.owner}'s` : 'nobody\'s'}${hint(key, marks)}`));
  g.append(s('circle', { class: 'halo', cx: x, cy: y - 4, r: 19 }));
  g.append(pyramid(sh.piece, x, y));
  g.append(s('circle', { cx: x + 13, cy: y - 14, r: 7, fill: seatColor(sh.owner), stroke: '#000' }),
    s('text', { class: 'badge', x: x + 13, y: y - 10.5, 'text-anchor': 'middle' }, sh.owner >= 0 ? String(sh.owner) : '–'),
    s('text', { class: 'shipid', x, y: y + 18, 'text-anchor': 'middle' }, `s${sh.id}`));
  return g;
}

const shipClass = (key, marks) => `ship${marks.selectable.has(key) ? ' selectable' : ''}${marks.selected.includes(key) ? ' selected' : ''}${marks.last.has(key) ? ' last' : ''}`;
const hint = (key, marks) => (marks.selectable.has(key) ? ` — click: ${marks.selectable.get(key)}` : '');
const pick = (key, onKey) => (ev) => { ev.stopPropagation(); onKey && onKey(key); };

// lastKeys are the pieces the last move touched, for a replay's highlight.
function lastKeys(action) {
  const out = new Set();
  const [, a] = gameAction(action);
  if (!a) return out;
  if (a.ship_id !== undefined) out.add(`ship:${a.ship_id}`);
  if (a.target_id !== undefined) out.add(`ship:${a.target_id}`);
  if (a.to_id !== undefined) { out.add(`sys:${a.to_id}`); out.add(`hyp:${a.to_id}`); }
  if (a.system_id !== undefined && a.system_id !== null) out.add(`sys:${a.system_id}`);
  for (const id of a.ship_ids || []) out.add(`ship:${id}`);
  return out;
}

export function board(el, catalog, opts) {
  const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, id: 'icetraders' });
  const side = h('div', { class: 'panel', id: 'boardinfo' });
  el.append(svg);
  el.after(side);
  return {
    update(o, ctx = {}) {
      if (!o) return;
      const marks = { selectable: new Map(), selected: [], ...(ctx.marks || {}), last: lastKeys(ctx.last) };
      const systems = o.systems || [];
      const hs = o.hyperspaces || [];
      const n = Math.max(1, systems.length);
      const cx = W / 2, cy = (H - 100) / 2 + 12, R = Math.min(cx, cy) - 80; // room for the top label
      const pos = {};
      systems.forEach((sys, i) => {
        const a = (2 * Math.PI * i) / n - Math.PI / 2;
        pos[sys.id] = [cx + (n > 1 ? R * Math.cos(a) : 0), cy + (n > 1 ? R * Math.sin(a) : 0)];
      });
      const nodes = [];
      for (const sys of systems) {
        for (const to of sys.connected_ids || []) {
          if (to > sys.id && pos[to]) nodes.push(s('line', { x1: pos[sys.id][0], y1: pos[sys.id][1], x2: pos[to][0], y2: pos[to][1], stroke: '#34405a', 'stroke-width': 2 }));
        }
      }
      for (const sys of systems) {
        const [x, y] = pos[sys.id];
        const key = `sys:${sys.id}`;
        const dual = sys.second_marker && sys.second_marker.color !== 'COLOR_UNSPECIFIED';
        const g = s('g', { class: `system${marks.selectable.has(key) ? ' selectable' : ''}${marks.last.has(key) ? ' last' : ''}`, 'data-key': key, 'data-system': sys.id, onclick: pick(key, opts.onKey) });
        g.append(s('title', {}, `system ${sys.id}: ${pieceName(sys.marker)} marker (${power[sys.marker.color] || ''})${dual ? ` and ${pieceName(sys.second_marker)}` : ''}${hint(key, marks)}`));
        g.append(s('circle', { class: 'well', cx: x, cy: y, r: 58 }));
        g.append(star(sys.marker, x - (dual ? 10 : 0), y - 16));
        if (dual) g.append(star(sys.second_marker, x + 12, y - 16));
        g.append(s('text', { class: 'label', x, y: y - 62, 'text-anchor': 'middle' }, `system ${sys.id}`));
        const ships = sys.ships || [];
        ships.forEach((sh, k) => {
          // Ships sit in a row under the marker, two rows when crowded, never over the label.
          const row = ships.length > 4 ? Math.floor(k / Math.ceil(ships.length / 2)) : 0;
          const inRow = ships.length > 4 ? Math.ceil(ships.length / 2) : ships.length;
          const col = k - row * inRow;
          g.append(ship(sh, x + (col - (inRow - 1) / 2) * 30, y + 22 + row * 30, marks, opts.onKey, key));
        });
        nodes.push(g);
      }
      hs.forEach((hy, i) => {
        const x = 80 + i * 170, y = H - 48;
        const key = `hyp:${hy.id}`;
        const g = s('g', { class: `hyperspace${marks.selectable.has(key) ? ' selectable' : ''}`, 'data-key': key, 'data-hyperspace': hy.id, onclick: pick(key, opts.onKey) });
        g.append(s('rect', { class: 'well', x: x - 70, y: y - 40, width: 150, height: 80, rx: 8 }), s('text', { class: 'label', x: x - 62, y: y - 26 }, `hyperspace ${hy.id}`));
        (hy.ships || []).forEach((sh, k) => g.append(ship(sh, x - 45 + k * 30, y + 12, marks, opts.onKey, key)));
        nodes.push(g);
      });
      svg.replaceChildren(...nodes);
      svg.dataset.ships = svg.querySelectorAll('.ship').length;

      const turnLine = o.phase === 'PHASE_PLAY' || o.phase === 'PHASE_OVER'
        ? `${o.turn} turns played · each player may take ${o.turn_cap}`
        : enumName(o.phase, 'PHASE_');
      const players = (o.players || []).map((p) => h('div', { class: 'player', 'data-seat': p.seat },
        swatch(seatColor(p.seat)), h('b', { class: 'badge-inline', style: `background:${seatColor(p.seat)}` }, p.seat), ` ${seatLabel(p.seat, opts.names)}`,
        p.seat === o.current_seat && o.phase === 'PHASE_PLAY' ? h('b', {}, ' ◀ to move') : '',
        ` · ${p.ships} ships (${p.large_ships} large) · turn ${p.turns_taken} of ${o.turn_cap}`, p.eliminated ? ' · eliminated' : '',
        p.alignment !== 'ALIGNMENT_UNSPECIFIED' ? h('span', { class: 'alignment' }, ` · ${enumName(p.alignment, 'ALIGNMENT_')}`) : ''));
      const stash = (o.stash || []).map((c) => h('span', { class: 'card', style: `border-left:4px solid ${pieceColor[c.piece.color]}` }, `${enumName(c.piece.size, 'SIZE_')}×${c.count}`));
      const pend = o.pending_sacrifice && o.pending_sacrifice.uses_total ? h('div', {}, `sacrifice of a ${pieceName(o.pending_sacrifice.sacrificed)}: ${o.pending_sacrifice.uses_left} of ${o.pending_sacrifice.uses_total} uses left`) : '';
      const over = o.game_over && o.game_over.kind !== 'END_KIND_UNSPECIFIED' ? h('div', { id: 'gameover' }, o.game_over.detail) : '';
      side.replaceChildren(h('div', { id: 'turnline' }, turnLine), ...players, pend, h('div', {}, 'stash: ', ...stash), over,
        h('details', { class: 'legend' }, h('summary', {}, 'legend'),
          h('div', {}, 'stars are systems (their marker), pyramids are ships; size is power (small 1, medium 2, large 3)'),
          Object.entries(power).map(([c, p]) => h('div', {}, h('span', { class: 'swatch', style: `background:${pieceColor[c]}` }), `${enumName(c, 'COLOR_')}: ${p}`)),
          h('div', {}, 'the numbered badge on a ship is its owner\'s seat; s7 is ship 7; lines join systems a move can cross')));
    },
    destroy() { side.remove(); },
  };
}

// onBoard says which keys are pieces on the board (the rest are controls).
export const onBoard = (key) => /^(sys|ship|hyp):/.test(key);
export const confirm = false;
export const describeKey = (key) => key.replace(':', ' ');

// moves turns each legal action into the clicks that choose it.
export function moves(decision, obs) {
  const place = (id) => ((obs.systems || []).some((x) => x.id === id) ? `sys:${id}` : `hyp:${id}`);
  const st = (key, label) => ({ key, label: label || key });
  return (decision.legal || []).map((a, index) => {
    const [kind, f] = gameAction(a);
    const text = decision.legal_notation[index] || kind;
    let steps;
    switch (kind) {
      case 'choose_alignment': steps = [st(`align ${enumName(f.alignment, 'ALIGNMENT_')}`)]; break;
      case 'choose_picks': steps = [st(`first: ${pieceName(f.first)}`), st(`second: ${pieceName(f.second)}`)]; break;
      case 'repick': steps = [st(`take ${pieceName(f.piece)}`)]; break;
      case 'place_first_ship': steps = [st(`sys:${f.system_id}`, 'place your first ship here'), st(`small ${enumName(f.color, 'COLOR_')} ship`)]; break;
      case 'move': steps = [st(`ship:${f.ship_id}`, 'move, attack or use a power'), st(place(f.to_id), `move ship ${f.ship_id} here`)]; break;
      case 'attack': steps = [st(`ship:${f.ship_id}`, 'move, attack or use a power'), st(`ship:${f.target_id}`, `attack with ship ${f.ship_id}`)]
        .concat(f.reduce_to && f.reduce_to !== 'COLOR_UNSPECIFIED' ? [st(`reduce to ${enumName(f.reduce_to, 'COLOR_')}`)] : []); break;
      case 'trade': steps = [st(`ship:${f.ship_id}`), st('trade'), st(`for ${pieceName(f.piece)}`)]; break;
      case 'grow': steps = [st(`ship:${f.ship_id}`), st('grow')]; break;
      case 'add_ship': steps = [st(`ship:${f.ship_id}`), st('add a ship'), st(`${enumName(f.size, 'SIZE_')} ship`)]
        .concat(f.system_id !== undefined && f.system_id !== null ? [st(`sys:${f.system_id}`, 'the new ship joins here')] : []); break;
      case 'discover': steps = [st(`ship:${f.ship_id}`), st('discover a system')]; break;
      case 'sacrifice': steps = [st(`ship:${f.ship_id}`), st('sacrifice')]; break;
      case 'research': steps = [st(`ship:${f.ship_ids[0]}`), st('R&D'), st(`with ships ${f.ship_ids.join(', ')}`), st(`for ${pieceName(f.piece)}`)]
        .concat(f.system_id !== undefined && f.system_id !== null ? [st(`sys:${f.system_id}`, 'the new ship appears here')] : []); break;
      case 'revolt': steps = [st(`ship:${f.ship_id}`, 'take this ship (revolt)')]; break;
      case 'enterprise': steps = [st('enterprise'), st(`second marker ${pieceName(f.piece)}`)]; break;
      case 'pass': steps = [st('pass')]; break;
      case 'end_sacrifice': steps = [st('end the sacrifice')]; break;
      case 'decline': steps = [st('decline')]; break;
      default: steps = [st(text)];
    }
    // Ship steps share one label whatever follows, so that a ship reads the same.
    if (steps[0].key.startsWith('ship:') && steps.length > 1) steps[0].label = 'choose this ship';
    return { index, steps, text };
  });
}

// attempt is the action a click meant when the legal list has no path for it, so the server
// can say why it is illegal: a chosen ship and a system is a move, and another ship an attack.
export function attempt(prefix, key, obs) {
  const shipSel = prefix[0] && prefix[0].startsWith('ship:') ? Number(prefix[0].slice(5)) : null;
  if (shipSel === null) return null;
  const id = Number(key.split(':')[1]);
  if (key.startsWith('sys:') || key.startsWith('hyp:')) return { icetraders: { move: { ship_id: shipSel, to_id: id } } };
  if (key.startsWith('ship:') && id !== shipSel) return { icetraders: { attack: { ship_id: shipSel, target_id: id } } };
  return null;
}

export function prompt(decision, obs, prefix, next, ready) {
  if (ready) return `${ready.move.text}: confirm`;
  const keys = [...next.keys()];
  if (prefix[0] && prefix[0].startsWith('ship:')) return `ship ${prefix[0].slice(5)}: click a system to move there, a ship to attack, or a power below`;
  if (keys.some((k) => k.startsWith('ship:'))) return 'click one of your ships (outlined), or choose below';
  if (keys.some((k) => k.startsWith('sys:'))) return 'click a system';
  if (keys.some((k) => k.startsWith('first:'))) return 'choose your two opening pieces: the first, then the second';
  if (keys.some((k) => k.startsWith('second:'))) return 'now the second piece';
  return 'choose';
}

// lastMove reads a replay step's action in the game's words.
export function lastMove(step) { return armOf(step.action)[1] ? step.notation : ''; }
