// PanTropia: the Hoberman sphere in 3D. Its six great circles are drawn strut by strut in
// their colours; rings sit on joints in their owners' colours; habitats (cubes) and
// arcologies (towers) on intersections; shuttles as cones. Beside it: chips, dice, cards in
// hand, and the Technocalypse countdown. A seat clicks intersections, joints and struts (the
// lit dots; any point names itself on hover); dice, swaps, cards and reactions are controls;
// a trade is built colour by colour (offer.js) and checked against the legal list.
import { h, seatLabel, seatColor, swatch, enumName } from '../common.js';
import { stage, placeDots } from '../three-view.js';
import { gameAction } from '../boards.js';
import { offerBuilder } from './offer.js';

export const colorHex = {
  COLOR_RED: '#e53935', COLOR_ORANGE: '#fb8c00', COLOR_YELLOW: '#fdd835', COLOR_GREEN: '#43a047',
  COLOR_BLUE: '#1e88e5', COLOR_PURPLE: '#8e24aa', COLOR_BLACK: '#222', COLOR_UNSPECIFIED: '#777',
};
export const chipColors = ['red', 'orange', 'yellow', 'green', 'blue', 'purple'];
const resource = { red: 'nitrogen', orange: 'radioactives', yellow: 'solar energy', green: 'carbon', blue: 'water', purple: 'metals' };

function chips(c) {
  return chipColors.map((k) => h('span', { class: 'card', title: `${k} (${resource[k]})`, style: `border-left:4px solid ${colorHex[`COLOR_${k.toUpperCase()}`]}` }, c ? c[k] : 0));
}

export function board(el, catalog, opts) {
  const st = stage(el, { distance: 3.2, height: 480 });
  const overlay = h('div', { class: 'overlay' });
  el.append(overlay);
  const side = h('div', { class: 'panel', id: 'boardinfo' });
  el.after(side);
  const ints = (catalog && catalog.intersections) || [];
  const joints = (catalog && catalog.joints) || [];
  const struts = (catalog && catalog.struts) || [];
  let radius = 0;
  for (const p of ints) radius = Math.max(radius, Math.hypot(p.x, p.y, p.z));
  const scale = radius ? 1 / radius : 1;
  const P = (p) => [p.x * scale, p.y * scale, p.z * scale];
  let pieces = null, shared = null, obs = null, ctx = {}, hover = null;

  if (st) {
    const { THREE } = st;
    const frame = new THREE.Group();
    frame.add(new THREE.Mesh(new THREE.SphereGeometry(0.97, 48, 32), new THREE.MeshLambertMaterial({ color: 0x1b2233, transparent: true, opacity: 0.55 })));
    for (const sv of struts) {
      const a = ints[sv.a], b = ints[sv.b];
      if (!a || !b) continue;
      // A strut follows its great circle: bend the chord out onto the sphere.
      const pts = [];
      for (let t = 0; t <= 8; t++) pts.push(new THREE.Vector3(...P(a)).lerp(new THREE.Vector3(...P(b)), t / 8).normalize());
      frame.add(new THREE.Mesh(new THREE.TubeGeometry(new THREE.CatmullRomCurve3(pts), 8, 0.012, 6, false), new THREE.MeshLambertMaterial({ color: colorHex[sv.color] || '#777' })));
    }
    st.root.add(frame);
    pieces = new THREE.Group();
    st.root.add(pieces);
    const seatMaterials = [0, 1, 2, 3, 4, 5].map((s) => new THREE.MeshLambertMaterial({ color: seatColor(s) }));
    shared = {
      ring: new THREE.TorusGeometry(0.035, 0.012, 8, 16),
      habitat: new THREE.BoxGeometry(0.07, 0.07, 0.07),
      arcology: new THREE.BoxGeometry(0.07, 0.07, 0.16),
      shuttle: new THREE.ConeGeometry(0.04, 0.12, 12),
      seat: (s) => seatMaterials[s % seatMaterials.length],
      materials: seatMaterials,
    };
    st.renderer.domElement.addEventListener('pointermove', (e) => {
      const r = st.renderer.domElement.getBoundingClientRect();
      const found = nearest(e.clientX - r.left, e.clientY - r.top);
      if ((found && found.key !== hover?.key) || (!found && hover)) { hover = found; dots(); }
    });
    st.renderer.domElement.addEventListener('pointerup', () => dots());
  }

  // where is a key's point on the sphere: an intersection, a joint, or a strut's middle joint.
  function where(key) {
    const [kind, n] = key.split(':');
    const id = Number(n);
    if (kind === 'int' && ints[id]) return P(ints[id]);
    if (kind === 'joint' && joints[id]) return P(joints[id]);
    if (kind === 'strut' && joints[3 * id + 1]) return P(joints[3 * id + 1]);
    return null;
  }
  function screen(p) {
    const { THREE } = st;
    st.root.updateMatrixWorld();
    const w = new THREE.Vector3(...p).applyMatrix4(st.root.matrixWorld);
    const front = w.clone().normalize().z > 0.15;
    const q = w.clone().project(st.camera);
    const c = st.renderer.domElement;
    return { x: ((q.x + 1) / 2) * c.clientWidth, y: ((1 - q.y) / 2) * c.clientHeight, front };
  }
  // nearest is the point under the pointer, for its label.
  function nearest(x, y) {
    let best = null, bd = 12;
    const test = (key, p) => {
      const at = screen(p);
      const d = Math.hypot(at.x - x, at.y - y);
      if (at.front && d < bd) { bd = d; best = { key, at }; }
    };
    ints.forEach((p, i) => test(`int:${i}`, P(p)));
    joints.forEach((p, i) => test(`joint:${i}`, P(p)));
    return best;
  }
  function describe(key) {
    const [kind, n] = key.split(':');
    const id = Number(n);
    if (kind === 'int') {
      const it = ints[id];
      const sv = (obs?.structures || []).find((x) => x.intersection === id);
      return `intersection ${id} (${enumName(it.color_a, 'COLOR_')} and ${enumName(it.color_b, 'COLOR_')})${sv ? `: ${seatLabel(sv.owner, opts.names)}'s ${sv.arcology ? 'arcology' : 'habitat'}` : ''}`;
    }
    if (kind === 'joint') {
      const owner = (obs?.joints || [])[id];
      return `joint ${id} of strut ${joints[id].strut} (${enumName(struts[joints[id].strut]?.color, 'COLOR_')})${owner >= 0 ? `: ${seatLabel(owner, opts.names)}'s ring` : ''}`;
    }
    return `strut ${id} (${enumName(struts[id]?.color, 'COLOR_')})`;
  }

  function dots() {
    if (!st) return;
    const marks = ctx.marks || { selectable: new Map(), selected: [] };
    const out = [];
    for (const [key, label] of marks.selectable) {
      const p = where(key);
      if (!p) continue;
      const at = screen(p);
      if (!at.front) continue;
      out.push({ key, dataKey: key, cls: `dot ${key.split(':')[0]}`, title: `${describe(key)} — click: ${label}`, x: at.x, y: at.y,
        onclick: (ev) => { ev.stopPropagation(); opts.onKey && opts.onKey(key); } });
    }
    for (const key of marks.selected) {
      const p = where(key);
      if (p) { const at = screen(p); out.push({ key: `selected ${key}`, cls: 'dot selected', style: 'pointer-events:none', x: at.x, y: at.y }); }
    }
    if (hover) out.push({ key: 'tip', cls: 'tip', text: describe(hover.key), x: hover.at.x, y: hover.at.y });
    placeDots(overlay, out);
  }

  // turnTo turns the sphere so that the point looks at the viewer.
  function turnTo(p) {
    const { THREE } = st;
    st.root.quaternion.setFromUnitVectors(new THREE.Vector3(...p).normalize(), new THREE.Vector3(0, 0, 1));
  }

  return {
    update(o, c = {}) {
      if (!o) return;
      obs = o;
      ctx = c;
      const marks = c.marks || { selectable: new Map(), selected: [] };
      if (st) {
        const { THREE } = st;
        pieces.clear(); // the geometries and materials are shared and kept
        (o.joints || []).forEach((owner, id) => {
          if (owner < 0 || !joints[id]) return;
          const ring = new THREE.Mesh(shared.ring, shared.seat(owner));
          ring.position.set(...P(joints[id]));
          ring.lookAt(0, 0, 0);
          pieces.add(ring);
        });
        for (const sv of o.structures || []) {
          const at = ints[sv.intersection];
          if (!at) continue;
          const tall = sv.arcology ? 0.16 : 0.07;
          const m = new THREE.Mesh(sv.arcology ? shared.arcology : shared.habitat, shared.seat(sv.owner));
          m.position.copy(new THREE.Vector3(...P(at)).multiplyScalar(1 + tall / 2));
          m.lookAt(0, 0, 0);
          pieces.add(m);
        }
        for (const p of o.players || []) {
          if (p.shuttle_at < 0 || !ints[p.shuttle_at]) continue;
          const cone = new THREE.Mesh(shared.shuttle, shared.seat(p.seat));
          const v = new THREE.Vector3(...P(ints[p.shuttle_at])).multiplyScalar(1.25);
          cone.position.copy(v);
          cone.quaternion.setFromUnitVectors(new THREE.Vector3(0, 1, 0), v.clone().normalize().negate());
          pieces.add(cone);
        }
        // The last move of a replay: a light marker where it happened.
        const [, lf] = gameAction(c.last);
        const lastAt = lf && (lf.intersection !== undefined ? where(`int:${lf.intersection}`) : lf.joint !== undefined ? where(`joint:${lf.joint}`) : null);
        if (lastAt) {
          const m = new THREE.Mesh(new THREE.SphereGeometry(0.03, 12, 8), new THREE.MeshBasicMaterial({ color: 0x8cc4ff }));
          m.position.copy(new THREE.Vector3(...lastAt).multiplyScalar(1.06));
          pieces.add(m);
        }
        // Choices all out of sight: turn the sphere to the first.
        const keys = [...marks.selectable.keys()].filter(where);
        if (keys.length && !keys.some((k) => screen(where(k)).front)) turnTo(where(keys[0]));
        st.draw();
        requestAnimationFrame(dots);
      }
      const roll = o.last_roll;
      const players = (o.players || []).map((p) => h('div', { class: 'player', 'data-seat': p.seat },
        h('div', {}, swatch(seatColor(p.seat)), `${seatLabel(p.seat, opts.names)}`,
          p.seat === o.active ? h('b', {}, ' ◀ active') : '', ` · ${p.rings} rings · die ${enumName(p.die, 'DIE_')} · ${p.hand_size} cards in hand`,
          p.space_elevator ? ' · space elevator' : ''),
        h('div', {}, 'chips ', ...chips(p.chips)),
        (p.hand || []).length ? h('div', {}, 'hand: ', p.hand.map((cd) => h('span', { class: 'card' }, enumName(cd, 'CARD_KIND_')))) : ''));
      side.replaceChildren(
        h('div', {}, `${enumName(o.phase, 'PHASE_')} · turn ${o.turn} of ${o.turn_cap}`),
        roll && roll.permanent !== 'COLOR_UNSPECIFIED' ? h('div', { id: 'dice' }, `last roll (${seatLabel(roll.seat, opts.names)}): d8 `, swatch(colorHex[roll.permanent]), enumName(roll.permanent, 'COLOR_'),
          ` · ${enumName(roll.die, 'DIE_')} `, swatch(colorHex[roll.swappable]), enumName(roll.swappable, 'COLOR_')) : '',
        h('div', { id: 'technocalypse' }, `Technocalypse: ${o.countdown} face up · ${o.technocalypses_in_deck} in the deck (${o.deck_size} cards) · ${o.technocalypse_reserve} in reserve`),
        (o.hand || []).length ? h('div', { id: 'hand' }, 'your hand: ', o.hand.map((cd) => h('span', { class: 'card' }, enumName(cd, 'CARD_KIND_')))) : '',
        o.offer && (o.offer.from !== o.offer.to) ? h('div', { id: 'openoffer' }, `offer: ${seatLabel(o.offer.from, opts.names)} gives `, ...chips(o.offer.give), ' for ', ...chips(o.offer.take), ` from ${seatLabel(o.offer.to, opts.names)}`) : '',
        ...players,
        h('details', { class: 'legend' }, h('summary', {}, 'legend'),
          chipColors.map((k) => h('div', {}, swatch(colorHex[`COLOR_${k.toUpperCase()}`]), `${k}: ${resource[k]}`)),
          h('div', {}, 'rings (tori) sit on joints, habitats (cubes) and arcologies (towers) on intersections, shuttles (cones) hang above them; hover a point for its name')));
    },
    destroy() {
      side.remove();
      if (!st) return;
      pieces.clear();
      for (const g of [shared.ring, shared.habitat, shared.arcology, shared.shuttle, ...shared.materials]) g.dispose();
      st.destroy();
    },
  };
}

export const onBoard = (key) => /^(int|joint|strut):/.test(key);
export const confirm = false;
export const describeKey = (key) => key.replace('int:', 'intersection ').replace(':', ' ');

const col = (c) => enumName(c, 'COLOR_');
const die = (d) => enumName(d, 'DIE_');
const cardName = (c) => enumName(c, 'CARD_KIND_');

// moves turns each legal action but the trade offers (built in offer.js) into clicks.
export function moves(decision, obs, catalog) {
  const slot = (i) => (catalog && catalog.slots && catalog.slots[i] ? catalog.slots[i].name : `slot ${i}`);
  const me = decision.seat;
  const rate = (c) => { const p = (obs.players || []).find((x) => x.seat === me); return p && p.earth_rates ? p.earth_rates[chipColors.indexOf(col(c))] : ''; };
  const out = [];
  (decision.legal || []).forEach((a, index) => {
    const [kind, f] = gameAction(a);
    const text = decision.legal_notation[index];
    const st = (key, label) => ({ key, label: label || key });
    let steps;
    switch (kind) {
      case 'offer': return; // the offer builder
      case 'settle': steps = [st(`int:${f.intersection}`, 'settle here'), st(`strut:${f.strut}`, 'with the three rings of this strut')]; break;
      case 'react': steps = [st(f.play_luddite ? 'play Luddite Legislation (cancel it)' : 'let it stand')]; break;
      case 'terraform': steps = [st('Terraforming'), st(`swap the ${die(f.die_a)}`), st(`with the ${die(f.die_b)}`)]; break;
      case 'pantropy': steps = f.none ? [st('Pantropy (no slot holds the colour)')] : [st('Pantropy'), st(`swap ${slot(f.slot_from)}`), st(`with ${slot(f.slot_to)}`)]; break;
      case 'earth_trade': steps = [st('trade with Earth'), st(`give ${rate(f.give)} ${col(f.give)}`), st(`for 1 ${col(f.take)}`)]; break;
      case 'reply': steps = [st(f.accept ? 'accept the offer' : 'decline the offer')]; break;
      case 'ring': steps = [st(`joint:${f.joint}`, obs.phase === 'PHASE_ORBITAL_MIRROR' ? 'a free ring here' : 'put a ring here')]; break;
      case 'habitat': steps = [st(`int:${f.intersection}`, 'build a habitat here')]; break;
      case 'arcology': steps = [st(`int:${f.intersection}`, 'build here'), st('an arcology')]; break;
      case 'shuttle': steps = [st(`int:${f.intersection}`, 'build here'), st('hang your shuttle here')]; break;
      case 'buy_card': steps = [st('buy a card')]; break;
      case 'play_card': {
        const c = cardName(f.card);
        if (f.card === 'CARD_KIND_SHUTTLE') steps = [st(`play ${c}`), st(`move seat ${f.shuttle_owner}'s shuttle`), st(`int:${f.intersection}`, 'to here')];
        else if (f.card === 'CARD_KIND_AQUIFER') steps = [st(`play ${c}`), st(`take ${col(f.color)}`)];
        else if (f.card === 'CARD_KIND_GUIDED_COMET') steps = [st(`play ${c}`), st(`recolour ${slot(f.slot)}`), st(`to ${col(f.color)}`)];
        else steps = [st(`play ${c}`)];
        break;
      }
      case 'remove_ring': steps = f.skip ? [st('remove no ring')] : [st(`joint:${f.joint}`, 'remove this ring')]; break;
      case 'abandon_site': steps = [st(`int:${f.intersection}`, 'abandon this site')]; break;
      case 'discard': steps = [st('discard'), st(`${f.count} ${col(f.color)}`)]; break;
      case 'end_turn': steps = [st('end turn')]; break;
      default: steps = [st(text)];
    }
    out.push({ index, steps, text });
  });
  return out;
}

// controls is what the chooser cannot show: the trade offer builder.
export function controls(decision, obs, answer, names) {
  const offers = (decision.legal || []).map((a, index) => [gameAction(a), index]).filter(([[k]]) => k === 'offer');
  return offers.length ? offerBuilder(offers, obs, answer, names, decision.seat) : null;
}

// attempt: an intersection clicked with nothing to do there is a habitat to build (in the
// main phase), a joint a ring, so that the server says why not.
export function attempt(prefix, key, obs) {
  if (obs.phase !== 'PHASE_MAIN' || prefix.length) return null;
  const id = Number(key.split(':')[1]);
  if (key.startsWith('int:')) return { pantropia: { habitat: { intersection: id } } };
  if (key.startsWith('joint:')) return { pantropia: { ring: { joint: id } } };
  return null;
}

export function prompt(decision, obs, prefix, next, ready) {
  if (ready) return ready.move.text;
  const keys = [...next.keys()];
  if (prefix[0] && prefix[0].startsWith('int:')) return `intersection ${prefix[0].slice(4)}: now a strut that touches it (the dots)`;
  if (obs.phase === 'PHASE_OFFER') return `${seatLabel(obs.offer.from, null)} offers you a trade: accept or decline`;
  if (obs.phase === 'PHASE_LUDDITE_WINDOW') return 'a card or a black roll may be cancelled with Luddite Legislation';
  if (keys.some(onBoard)) return 'click a lit point of the sphere (drag to turn it), or choose below';
  return 'choose below';
}
