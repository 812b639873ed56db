// Planet: each seat's dodecahedron in 3D, its 60 areas coloured by habitat; the draft
// display, the animal columns, and the scores as far as they are known.
import { h, seatLabel, seatColor, swatch, enumName } from '../common.js';
import { stage } from '../three-view.js';

const habitatColor = {
  HABITAT_UNSPECIFIED: '#2b3140', HABITAT_OCEAN: '#2f7de1', HABITAT_DESERT: '#e3c26b',
  HABITAT_MOUNTAIN: '#8d7d72', HABITAT_FOREST: '#2f9e4a', HABITAT_GLACIER: '#e8f4ff',
};

function tileChip(t) {
  return h('span', { class: 'card tile', 'data-tile': t.id }, `#${t.id} `, (t.areas || []).map((a) => h('span', { class: 'swatch', style: `background:${habitatColor[a]};border-radius:0` })));
}

export function board(el, catalog, opts) {
  const st = stage(el, { distance: 0.6 + 1.9 * (opts.seats || 2), height: 420 });
  const side = h('div', { class: 'panel', id: 'boardinfo' });
  el.after(side);
  const THREE = st && st.THREE;
  const areas = (catalog && catalog.areas) || [];
  const scale = (() => {
    let m = 0;
    for (const v of (catalog && catalog.vertices) || []) m = Math.max(m, Math.hypot(v.x, v.y, v.z));
    return m ? 1 / m : 1;
  })();
  let meshes = [];

  function build(seats) {
    st.clear(st.root);
    meshes = [];
    for (let p = 0; p < seats; p++) {
      const pos = new Float32Array(areas.length * 9);
      areas.forEach((a, i) => a.corners.forEach((c, k) => { pos.set([c.x * scale, c.y * scale, c.z * scale], i * 9 + k * 3); }));
      const geo = new THREE.BufferGeometry();
      geo.setAttribute('position', new THREE.BufferAttribute(pos, 3));
      geo.setAttribute('color', new THREE.BufferAttribute(new Float32Array(areas.length * 9), 3));
      geo.computeVertexNormals();
      const mesh = new THREE.Mesh(geo, new THREE.MeshLambertMaterial({ vertexColors: true, side: THREE.DoubleSide }));
      const edges = new THREE.LineSegments(new THREE.EdgesGeometry(geo, 30), new THREE.LineBasicMaterial({ color: 0x111111 }));
      const g = new THREE.Group();
      g.add(mesh, edges);
      const ring = new THREE.Mesh(new THREE.TorusGeometry(1.15, 0.02, 8, 64), new THREE.MeshBasicMaterial({ color: seatColor(p) }));
      g.add(ring);
      g.position.x = (p - (seats - 1) / 2) * 2.6;
      st.root.add(g);
      meshes.push(mesh);
    }
  }

  return {
    update(o) {
      if (!o) return;
      const planets = o.planets || [];
      if (st) {
        if (meshes.length !== planets.length) build(planets.length);
        const c = new THREE.Color();
        planets.forEach((pl, p) => {
          const col = meshes[p].geometry.getAttribute('color');
          (pl.areas || []).forEach((hab, i) => {
            c.set(habitatColor[hab] || habitatColor.HABITAT_UNSPECIFIED);
            for (let k = 0; k < 3; k++) col.setXYZ(i * 3 + k, c.r, c.g, c.b);
          });
          col.needsUpdate = true;
        });
        st.draw();
      }
      const planetRows = planets.map((pl) => h('div', { class: 'planet', 'data-seat': pl.seat },
        swatch(seatColor(pl.seat)), `${seatLabel(pl.seat, opts.names)}: ${(pl.tiles || []).length} tiles`,
        pl.objective && pl.objective.habitat !== 'HABITAT_UNSPECIFIED' ? h('span', { class: 'objective' }, ` · objective ${enumName(pl.objective.habitat, 'HABITAT_')}`) : '',
        (pl.animals || []).length ? ` · animals: ${pl.animals.map((a) => a.name).join(', ')}` : '',
        o.over ? ` · score ${pl.score} (objective ${pl.objective_points}, animals ${pl.animal_points})` : ''));
      const columns = (o.columns || []).map((col) => h('div', { class: 'column' }, `turn ${col.turn}: `,
        (col.cards || []).map((a) => h('span', { class: 'card', style: `border-left:4px solid ${habitatColor[a.habitat]}` }, `${a.name}: ${a.requirement}`)),
        col.face_down ? h('span', { class: 'card' }, `${col.face_down} face down`) : ''));
      side.replaceChildren(h('div', {}, `turn ${o.turn} of ${o.last_turn}`, o.over ? ` · ${o.result}` : ''),
        ...planetRows, h('h2', {}, 'Display'), h('div', { id: 'display' }, (o.display || []).map(tileChip)),
        h('div', { class: 'dim' }, `${(o.stacks || []).length} stacks to come`),
        h('h2', {}, 'Animal columns'), ...columns);
    },
    destroy() { side.remove(); if (st) st.destroy(); },
  };
}
