// PanTropia: the Hoberman sphere in 3D. Its six great circles are drawn strut by strut in
// their colours; rings sit on joints in their owners' colours; habitats (cubes) and
// arcologies (towers) on intersections; shuttles as cones. Beside it: chips, dice, cards in
// hand, and the Technocalypse countdown.
import { h, seatLabel, seatColor, swatch, enumName } from '../common.js';
import { stage } from '../three-view.js';

const colorHex = {
  COLOR_RED: '#e53935', COLOR_ORANGE: '#fb8c00', COLOR_YELLOW: '#fdd835', COLOR_GREEN: '#43a047',
  COLOR_BLUE: '#1e88e5', COLOR_PURPLE: '#8e24aa', COLOR_BLACK: '#222', COLOR_UNSPECIFIED: '#777',
};
const chipColors = ['red', 'orange', 'yellow', 'green', 'blue', 'purple'];

function chips(c) {
  return chipColors.map((k) => h('span', { class: 'card', style: `border-left:4px solid ${colorHex[`COLOR_${k.toUpperCase()}`]}` }, c ? c[k] : 0));
}

export function board(el, catalog, opts) {
  const st = stage(el, { distance: 3.2, height: 480 });
  const side = h('div', { class: 'panel', id: 'boardinfo' });
  el.after(side);
  const ints = (catalog && catalog.intersections) || [];
  const joints = (catalog && catalog.joints) || [];
  let radius = 0;
  for (const p of ints) radius = Math.max(radius, Math.hypot(p.x, p.y, p.z));
  const scale = radius ? 1 / radius : 1;
  const P = (p) => [p.x * scale, p.y * scale, p.z * scale];
  let pieces = null;
  let shared = null; // geometries and materials every piece reuses: an update only moves meshes

  if (st) {
    const { THREE } = st;
    // The sphere's frame never changes: struts (the six circles) and a faint globe.
    const frame = new THREE.Group();
    frame.add(new THREE.Mesh(new THREE.SphereGeometry(0.97, 48, 32), new THREE.MeshLambertMaterial({ color: 0x1b2233, transparent: true, opacity: 0.55 })));
    for (const s of (catalog && catalog.struts) || []) {
      const a = ints[s.a], b = ints[s.b];
      if (!a || !b) continue;
      // A strut follows its great circle: bend the chord out onto the sphere.
      const pts = [];
      for (let t = 0; t <= 8; t++) {
        const v = new THREE.Vector3(...P(a)).lerp(new THREE.Vector3(...P(b)), t / 8).normalize();
        pts.push(v);
      }
      const tube = new THREE.TubeGeometry(new THREE.CatmullRomCurve3(pts), 8, 0.012, 6, false);
      frame.add(new THREE.Mesh(tube, new THREE.MeshLambertMaterial({ color: colorHex[s.color] || '#777' })));
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
  }

  return {
    update(o) {
      if (!o) return;
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
          const v = new THREE.Vector3(...P(at)).multiplyScalar(1 + tall / 2);
          m.position.copy(v);
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
        st.draw();
      }
      const roll = o.last_roll;
      const players = (o.players || []).map((p) => h('div', { class: 'player', 'data-seat': p.seat },
        h('div', {}, swatch(seatColor(p.seat)), `${seatLabel(p.seat, opts.names)}`,
          p.seat === o.active ? ' ◀ active' : '', ` · ${p.rings} rings · die ${enumName(p.die, 'DIE_')} · ${p.hand_size} cards in hand`,
          p.space_elevator ? ' · space elevator' : ''),
        h('div', {}, 'chips ', ...chips(p.chips)),
        (p.hand || []).length ? h('div', {}, 'hand: ', p.hand.map((c) => h('span', { class: 'card' }, enumName(c, 'CARD_KIND_')))) : ''));
      side.replaceChildren(
        h('div', {}, `${enumName(o.phase, 'PHASE_')} · turn ${o.turn} of ${o.turn_cap}`),
        roll && roll.permanent !== 'COLOR_UNSPECIFIED' ? h('div', { id: 'dice' }, `last roll (seat ${roll.seat}): d8 `, swatch(colorHex[roll.permanent]), enumName(roll.permanent, 'COLOR_'),
          ` · ${enumName(roll.die, 'DIE_')} `, swatch(colorHex[roll.swappable]), enumName(roll.swappable, 'COLOR_')) : '',
        h('div', { id: 'technocalypse' }, `Technocalypse: ${o.countdown} face up · ${o.technocalypses_in_deck} in the deck (${o.deck_size} cards) · ${o.technocalypse_reserve} in reserve`),
        (o.hand || []).length ? h('div', { id: 'hand' }, 'your hand: ', o.hand.map((c) => h('span', { class: 'card' }, enumName(c, 'CARD_KIND_')))) : '',
        o.offer && (o.offer.from !== o.offer.to) ? h('div', {}, `offer: seat ${o.offer.from} → seat ${o.offer.to}`) : '',
        ...players);
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
