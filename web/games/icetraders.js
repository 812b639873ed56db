// IceTraders: star systems as markers, ships as pyramids by colour, size and owner,
// hyperspaces, the stash, whose turn, and alignments once they are revealed.
import { h, seatLabel, s, seatColor, swatch, enumName } from '../common.js';

const pieceColor = { COLOR_RED: '#e33', COLOR_YELLOW: '#fd3', COLOR_GREEN: '#3c5', COLOR_BLUE: '#39f' };
const sizeScale = { SIZE_SMALL: 0.6, SIZE_MEDIUM: 0.8, SIZE_LARGE: 1 };
const W = 900, H = 560;

function pyramid(piece, x, y, owner, attrs) {
  const k = 16 * (sizeScale[piece.size] || 0.6);
  return s('polygon', {
    class: 'ship', points: `${x},${y - k * 1.5} ${x - k},${y + k * 0.6} ${x + k},${y + k * 0.6}`,
    fill: pieceColor[piece.color] || '#888', stroke: seatColor(owner), 'stroke-width': 3, ...attrs,
  });
}

function star(piece, x, y, attrs) {
  const r = 20 * (sizeScale[piece.size] || 0.6);
  const pts = [];
  for (let i = 0; i < 10; i++) {
    const a = (Math.PI / 5) * i - Math.PI / 2, rr = i % 2 ? r * 0.45 : r;
    pts.push(`${x + rr * Math.cos(a)},${y + rr * Math.sin(a)}`);
  }
  return s('polygon', { class: 'marker', points: pts.join(' '), fill: pieceColor[piece.color] || '#888', stroke: '#fff', 'stroke-width': 1, ...attrs });
}

export function board(el, catalog, opts) {
  const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, id: 'icetraders' });
  const side = h('div', { class: 'panel', id: 'boardinfo' });
  el.append(svg);
  el.after(side);
  const pick = (token) => (ev) => { ev.stopPropagation(); opts.onPick && opts.onPick(token); };
  return {
    update(o) {
      if (!o) return;
      const systems = o.systems || [];
      const hs = o.hyperspaces || [];
      const n = Math.max(1, systems.length);
      const cx = W / 2, cy = (H - 90) / 2, R = Math.min(cx, cy) - 60;
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
        const g = s('g', { class: 'system', 'data-system': sys.id, onclick: pick(`sys${sys.id}`), style: 'cursor:pointer' });
        g.append(s('circle', { cx: x, cy: y, r: 54, fill: '#151a26', stroke: '#2a3142' }));
        g.append(star(sys.marker, x - (sys.second_marker && sys.second_marker.color !== 'COLOR_UNSPECIFIED' ? 10 : 0), y));
        if (sys.second_marker && sys.second_marker.color !== 'COLOR_UNSPECIFIED') g.append(star(sys.second_marker, x + 12, y));
        g.append(s('text', { x: x - 16, y: y - 30 }, `sys${sys.id}`));
        (sys.ships || []).forEach((sh, k) => {
          const a = (2 * Math.PI * k) / Math.max(1, sys.ships.length) + Math.PI / 2;
          g.append(pyramid(sh.piece, x + 36 * Math.cos(a), y + 36 * Math.sin(a), sh.owner, { 'data-ship': sh.id, 'data-owner': sh.owner, onclick: pick(`s${sh.id}`) }));
        });
        nodes.push(g);
      }
      hs.forEach((hy, i) => {
        const x = 60 + i * 150, y = H - 45;
        const g = s('g', { class: 'hyperspace', 'data-hyperspace': hy.id });
        g.append(s('rect', { x: x - 50, y: y - 35, width: 130, height: 70, rx: 8, fill: '#1d1430', stroke: '#6a4fa0' }), s('text', { x: x - 44, y: y - 20 }, `hyperspace ${hy.id}`));
        (hy.ships || []).forEach((sh, k) => g.append(pyramid(sh.piece, x - 25 + k * 30, y + 12, sh.owner, { 'data-ship': sh.id, onclick: pick(`s${sh.id}`) })));
        nodes.push(g);
      });
      svg.replaceChildren(...nodes);

      const players = (o.players || []).map((p) => h('div', { class: 'player', 'data-seat': p.seat },
        swatch(seatColor(p.seat)), `${seatLabel(p.seat, opts.names)}`,
        p.seat === o.current_seat && o.phase === 'PHASE_PLAY' ? ' ◀ to move' : '',
        ` · ${p.ships} ships`, p.eliminated ? ' · eliminated' : '',
        p.alignment !== 'ALIGNMENT_UNSPECIFIED' ? h('span', { class: 'alignment' }, ` · ${enumName(p.alignment, 'ALIGNMENT_')}`) : ''));
      const stash = (o.stash || []).map((c) => h('span', { class: 'card', style: `border-left:4px solid ${pieceColor[c.piece.color]}` }, `${enumName(c.piece.size, 'SIZE_')}×${c.count}`));
      side.replaceChildren(h('div', {}, `${enumName(o.phase, 'PHASE_')} · turn ${o.turn} of ${o.turn_cap}`), ...players,
        h('div', {}, 'stash: ', ...stash),
        o.game_over && o.game_over.kind !== 'END_KIND_UNSPECIFIED' ? h('div', { id: 'gameover' }, o.game_over.detail) : '');
    },
    destroy() { side.remove(); },
  };
}
