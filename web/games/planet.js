// Planet: each seat's dodecahedron in 3D, in a cell of its own that turns on its own (drag it),
// its 60 areas coloured by habitat; above them the draft display as tiles; beside them the
// animal columns and the scores. A seat clicks a tile of the display, then a face of its own
// planet: the tile shows there as a preview, turned with ←/→ through its legal rotations, and
// is confirmed. Faces are numbered on hover.
import { h, s, seatLabel, seatColor, swatch, enumName } from '../common.js';
import { THREE, webglAvailable, placeDots } from '../three-view.js';
import { gameAction } from '../boards.js';

const habitatColor = {
  HABITAT_UNSPECIFIED: '#2b3140', HABITAT_OCEAN: '#2f7de1', HABITAT_DESERT: '#e3c26b',
  HABITAT_MOUNTAIN: '#8d7d72', HABITAT_FOREST: '#2f9e4a', HABITAT_GLACIER: '#e8f4ff',
};

// tileSVG draws a tile as the pentagon it is: area i is the triangle from the centre to edge i.
function tileSVG(t, size = 34) {
  const r = size / 2, c = r;
  const v = (i) => { const a = -Math.PI / 2 + (2 * Math.PI * i) / 5; return [c + r * Math.cos(a), c + r * Math.sin(a)]; };
  return s('svg', { width: size, height: size, viewBox: `0 0 ${size} ${size}`, class: 'tilesvg' },
    (t.areas || []).map((hab, i) => {
      const [x1, y1] = v(i), [x2, y2] = v(i + 1);
      return s('polygon', { points: `${c},${c} ${x1},${y1} ${x2},${y2}`, fill: habitatColor[hab], stroke: '#111', 'stroke-width': 0.7 });
    }));
}

export function board(el, catalog, opts) {
  const display = h('div', { class: 'display', id: 'display' });
  const wrap = h('div', { class: 'planets' });
  const overlay = h('div', { class: 'overlay' });
  const side = h('div', { class: 'panel', id: 'boardinfo' });
  el.append(display, wrap);
  el.after(side);
  const areas = (catalog && catalog.areas) || [];
  const faces = (catalog && catalog.faces) || [];
  let scale = 0;
  for (const v of (catalog && catalog.vertices) || []) scale = Math.max(scale, Math.hypot(v.x, v.y, v.z));
  scale = scale ? 1 / scale : 1;
  const gl = webglAvailable();
  let renderer = null, canvas = null;
  if (gl) {
    renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
    renderer.setPixelRatio(Math.min(2, window.devicePixelRatio || 1));
    renderer.setScissorTest(true);
    canvas = renderer.domElement;
    wrap.append(canvas, overlay);
  } else {
    wrap.append(h('p', { class: 'error' }, 'This board needs WebGL, which this browser does not offer.'));
  }
  let planets = []; // per seat: {scene, camera, group, mesh, edges, ring, cell}
  let cols = 1, cell = 300;
  let obs = null, ctx = {};
  let hover = null; // {seat, face}

  function build(n) {
    for (const p of planets) p.scene.traverse((o) => { if (o.geometry) o.geometry.dispose(); if (o.material) o.material.dispose(); });
    planets = [];
    for (let p = 0; p < n; p++) {
      const scene = new THREE.Scene();
      scene.background = new THREE.Color(0x0b0e14);
      scene.add(new THREE.AmbientLight(0xffffff, 1.3));
      const sun = new THREE.DirectionalLight(0xffffff, 1.4);
      sun.position.set(2, 3, 4);
      scene.add(sun);
      const camera = new THREE.PerspectiveCamera(36, 1, 0.1, 50);
      camera.position.set(0, 0, 3.4);
      const pos = new Float32Array(areas.length * 9);
      areas.forEach((a, i) => a.corners.forEach((c, k) => pos.set([c.x * scale, c.y * scale, c.z * scale], i * 9 + k * 3)));
      const geo = new THREE.BufferGeometry();
      geo.setAttribute('position', new THREE.BufferAttribute(pos, 3));
      geo.setAttribute('color', new THREE.BufferAttribute(new Float32Array(areas.length * 9), 3));
      geo.computeVertexNormals();
      const mesh = new THREE.Mesh(geo, new THREE.MeshLambertMaterial({ vertexColors: true, side: THREE.DoubleSide }));
      const edges = new THREE.LineSegments(new THREE.EdgesGeometry(geo, 30), new THREE.LineBasicMaterial({ color: 0x111111 }));
      const group = new THREE.Group();
      group.add(mesh, edges);
      group.rotation.set(0.4, -0.5, 0);
      // The marked face: outlined in the accent (a choice) or light blue (the last move).
      const mark = new THREE.LineLoop(new THREE.BufferGeometry(), new THREE.LineBasicMaterial({ color: 0xffcf5a, linewidth: 2 }));
      group.add(mark);
      scene.add(group);
      planets.push({ scene, camera, group, mesh, mark });
    }
    layout();
  }

  function layout() {
    if (!renderer) return;
    const width = Math.max(320, el.clientWidth || 800);
    const n = Math.max(1, planets.length);
    cols = Math.min(n, Math.max(1, Math.floor(width / 260)));
    cell = Math.floor(width / cols);
    const rows = Math.ceil(n / cols);
    renderer.setSize(width, rows * cell);
  }

  const cellOf = (p) => ({ x: (p % cols) * cell, y: Math.floor(p / cols) * cell });

  function render() {
    if (!renderer) return;
    const H = canvas.clientHeight || Math.ceil(planets.length / cols) * cell;
    planets.forEach((pl, p) => {
      const c = cellOf(p);
      renderer.setViewport(c.x, H - c.y - cell, cell, cell);
      renderer.setScissor(c.x, H - c.y - cell, cell, cell);
      renderer.render(pl.scene, pl.camera);
    });
    dots();
  }
  let pending = false;
  const draw = () => { if (pending) return; pending = true; requestAnimationFrame(() => { pending = false; render(); }); };

  // screen is where a point of planet p lands on the canvas, and whether it faces the viewer.
  function screen(p, v) {
    const pl = planets[p];
    const w = v.clone().applyEuler(pl.group.rotation);
    const front = w.clone().normalize().z > 0.2;
    const q = w.clone().project(pl.camera);
    const c = cellOf(p);
    return { x: c.x + ((q.x + 1) / 2) * cell, y: c.y + ((1 - q.y) / 2) * cell, front };
  }
  const faceCentre = (f) => { const c = faces[f].center; return new THREE.Vector3(c.x * scale, c.y * scale, c.z * scale); };

  // dots are the faces a click can choose, drawn over the canvas (as chessground's move dots).
  function dots() {
    const marks = ctx.marks || { selectable: new Map(), selected: [] };
    const me = opts.me;
    const out = [];
    const pi = planets.length && me >= 0 ? (obs.planets || []).findIndex((pl) => pl.seat === me) : -1;
    for (const [key, label] of marks.selectable) {
      if (!key.startsWith('face:') || pi < 0) continue;
      const f = Number(key.slice(5));
      const at = screen(pi, faceCentre(f));
      if (!at.front) continue;
      out.push({ key, dataKey: key, cls: 'dot', title: `face ${f}: ${label}`, x: at.x, y: at.y, onclick: (ev) => { ev.stopPropagation(); opts.onKey && opts.onKey(key); } });
    }
    planets.forEach((_, p) => {
      const c = cellOf(p), pl = (obs.planets || [])[p];
      if (pl) out.push({ key: `name ${p}`, cls: 'tag planet-name', x: c.x + 8, y: c.y + 10, style: `transform:none;border-left:4px solid ${seatColor(pl.seat)};padding-left:4px`, text: seatLabel(pl.seat, opts.names) });
    });
    if (hover) {
      const at = screen(hover.p, faceCentre(hover.face));
      const pl = (obs.planets || [])[hover.p];
      const placed = pl && (pl.tiles || []).find((t) => t.face === hover.face);
      out.push({ key: 'tip', cls: 'tip', x: at.x, y: at.y, text: `face ${hover.face}${placed ? `: tile #${placed.tile.id}` : ' (free)'}` });
    }
    placeDots(overlay, out);
  }

  // Dragging a planet turns it alone; hovering names the face under the pointer.
  if (canvas) {
    let drag = null;
    const at = (e) => { const r = canvas.getBoundingClientRect(); return { x: e.clientX - r.left, y: e.clientY - r.top }; };
    const planetAt = ({ x, y }) => { const p = Math.floor(y / cell) * cols + Math.floor(x / cell); return p < planets.length ? p : -1; };
    canvas.style.cursor = 'grab';
    let moved = 0;
    canvas.addEventListener('pointerdown', (e) => { const q = at(e); drag = { ...q, p: planetAt(q) }; moved = 0; canvas.setPointerCapture(e.pointerId); });
    canvas.addEventListener('pointerup', () => { drag = null; });
    const ray = new THREE.Raycaster();
    canvas.addEventListener('pointermove', (e) => {
      const q = at(e);
      if (drag && drag.p >= 0) {
        const g = planets[drag.p].group;
        moved += Math.abs(q.x - drag.x) + Math.abs(q.y - drag.y);
        g.rotation.y += (q.x - drag.x) * 0.01;
        g.rotation.x += (q.y - drag.y) * 0.01;
        drag.x = q.x; drag.y = q.y;
        draw();
        return;
      }
      const p = planetAt(q);
      let found = null;
      if (p >= 0) {
        const c = cellOf(p);
        ray.setFromCamera(new THREE.Vector2(((q.x - c.x) / cell) * 2 - 1, -(((q.y - c.y) / cell) * 2 - 1)), planets[p].camera);
        const hit = ray.intersectObject(planets[p].mesh)[0];
        if (hit) found = { p, face: Math.floor(hit.faceIndex / 5) };
      }
      if ((found && (!hover || hover.p !== found.p || hover.face !== found.face)) || (!found && hover)) { hover = found; draw(); }
    });
    canvas.addEventListener('pointerleave', () => { if (hover) { hover = null; draw(); } });
    // A click on a face of your planet is a click on that face, dot or not.
    canvas.addEventListener('click', () => {
      const marks = ctx.marks;
      if (moved > 4 || !hover || !marks || (obs.planets || [])[hover.p]?.seat !== opts.me) return;
      opts.onKey && opts.onKey(`face:${hover.face}`);
    });
    window.addEventListener('resize', onResize);
  }
  function onResize() { layout(); draw(); }

  // turnTo turns planet p so that face f looks at the viewer.
  function turnTo(p, f) {
    const c = faceCentre(f).normalize();
    const q = new THREE.Quaternion().setFromUnitVectors(c, new THREE.Vector3(0, 0, 1));
    planets[p].group.quaternion.copy(q);
  }

  function paint(p, pl, preview) {
    const col = planets[p].mesh.geometry.getAttribute('color');
    const colour = new THREE.Color();
    const habs = [...(pl.areas || [])];
    if (preview) preview.tile.areas.forEach((hab, i) => { habs[preview.face * 5 + ((i + preview.rotation) % 5)] = hab; });
    habs.forEach((hab, i) => {
      colour.set(habitatColor[hab] || habitatColor.HABITAT_UNSPECIFIED);
      for (let k = 0; k < 3; k++) col.setXYZ(i * 3 + k, colour.r, colour.g, colour.b);
    });
    col.needsUpdate = true;
  }

  function outline(p, f, colour) {
    const m = planets[p].mark;
    m.geometry.dispose();
    if (f === null) { m.geometry = new THREE.BufferGeometry(); return; }
    const pts = (faces[f].vertices || []).map((vi) => { const v = catalog.vertices[vi]; return new THREE.Vector3(v.x, v.y, v.z).multiplyScalar(scale * 1.01); });
    m.geometry = new THREE.BufferGeometry().setFromPoints(pts);
    m.material.color.set(colour);
  }

  let turnedFor = '';
  return {
    update(o, c = {}) {
      if (!o) return;
      obs = o;
      ctx = c;
      const marks = c.marks || { selectable: new Map(), selected: [] };
      const ps = o.planets || [];
      const tiles = Object.fromEntries((o.display || []).map((t) => [t.id, t]));
      // The preview: the chosen tile on the chosen face at the chosen rotation.
      let preview = null;
      const [kind, f] = c.marks && c.marks.preview ? gameAction(c.marks.preview.action) : [null, null];
      if (kind === 'place' && tiles[f.tile]) preview = { tile: tiles[f.tile], face: f.face, rotation: f.rotation };
      if (renderer) {
        if (planets.length !== ps.length) build(ps.length);
        const [lk, lf] = gameAction(c.last);
        ps.forEach((pl, p) => {
          const mine = pl.seat === opts.me;
          paint(p, pl, mine ? preview : null);
          if (mine && preview) outline(p, preview.face, 0xffcf5a);
          else if (lk === 'place' && pl.seat === c.lastSeat) outline(p, lf.face, 0x8cc4ff);
          else outline(p, null);
        });
        // Choosing a face turns the planet to it, once per choice.
        const me = ps.findIndex((pl) => pl.seat === opts.me);
        const key = preview ? `${preview.tile.id}/${preview.face}` : '';
        if (preview && me >= 0 && key !== turnedFor) turnTo(me, preview.face);
        turnedFor = key;
        // Faces to choose that are all out of sight: turn the planet to show one.
        const choosable = [...marks.selectable.keys()].filter((k) => k.startsWith('face:')).map((k) => Number(k.slice(5)));
        if (me >= 0 && choosable.length && !choosable.some((fc) => screen(me, faceCentre(fc)).front)) turnTo(me, choosable[0]);
        draw();
      }
      // The display: the tiles to draft, lit when a click can take one.
      display.replaceChildren(h('span', { class: 'dim' }, `turn ${o.turn} of ${o.last_turn} · display: `),
        ...(o.display || []).map((t) => {
          const key = `tile:${t.id}`;
          return h('span', { class: `tile${marks.selectable.has(key) ? ' selectable' : ''}${marks.selected.includes(key) ? ' selected' : ''}`, 'data-key': key, 'data-tile': t.id,
            title: `tile #${t.id}: ${(t.areas || []).map((a) => enumName(a, 'HABITAT_')).join(', ')}`,
            onclick: () => opts.onKey && opts.onKey(key) }, tileSVG(t), h('span', { class: 'tileid' }, `#${t.id}`));
        }));
      wrap.dataset.planets = ps.length;
      const planetRows = ps.map((pl) => h('div', { class: 'planet', 'data-seat': pl.seat },
        swatch(seatColor(pl.seat)), `${seatLabel(pl.seat, opts.names)}: ${(pl.tiles || []).length} of 12 faces`,
        pl.objective && pl.objective.habitat !== 'HABITAT_UNSPECIFIED' ? h('span', { class: 'objective' }, ` · objective ${enumName(pl.objective.habitat, 'HABITAT_')}`) : '',
        (pl.animals || []).length ? ` · animals: ${pl.animals.map((a) => a.name).join(', ')}` : '',
        o.over ? ` · score ${pl.score} (objective ${pl.objective_points}, animals ${pl.animal_points})` : ''));
      const columns = (o.columns || []).map((col) => h('div', { class: 'column' }, `turn ${col.turn}: `,
        (col.cards || []).map((a) => h('span', { class: 'card', style: `border-left:4px solid ${habitatColor[a.habitat]}` }, `${a.name}: ${a.requirement}`)),
        col.face_down ? h('span', { class: 'card' }, `${col.face_down} face down`) : ''));
      side.replaceChildren(h('div', {}, `turn ${o.turn} of ${o.last_turn}`, o.over ? ` · ${o.result}` : ''),
        h('div', { class: 'dim' }, `planets in seat order, left to right: ${ps.map((pl) => `seat ${pl.seat}`).join(', ')} · drag a planet to turn it`),
        ...planetRows, h('div', { class: 'dim' }, `${(o.stacks || []).length} stacks to come`),
        h('h2', {}, 'Animal columns'), ...columns,
        h('details', { class: 'legend' }, h('summary', {}, 'legend'),
          Object.entries(habitatColor).map(([k, c]) => h('div', {}, h('span', { class: 'swatch', style: `background:${c};border-radius:0` }), k === 'HABITAT_UNSPECIFIED' ? 'no tile yet' : enumName(k, 'HABITAT_')))));
    },
    destroy() {
      side.remove();
      window.removeEventListener('resize', onResize);
      if (renderer) {
        for (const p of planets) p.scene.traverse((x) => { if (x.geometry) x.geometry.dispose(); if (x.material) x.material.dispose(); });
        renderer.dispose();
      }
    },
  };
}

export const onBoard = (key) => /^(tile|face):/.test(key);
export const confirm = true;
export const describeKey = (key) => key.replace(':', ' ');

// moves: take a tile, then a face; the rotations of one tile on one face are its variants.
export function moves(decision) {
  return (decision.legal || []).map((a, index) => {
    const [kind, f] = gameAction(a);
    if (kind !== 'place') return { index, steps: [{ key: decision.legal_notation[index], label: decision.legal_notation[index] }], text: decision.legal_notation[index] };
    return {
      index, text: `tile #${f.tile} on face ${f.face}, turned ${f.rotation}`,
      steps: [{ key: `tile:${f.tile}`, label: `take tile #${f.tile}` }, { key: `face:${f.face}`, label: `place it on face ${f.face}` }],
    };
  });
}

// attempt: a tile and a face the list does not offer (an occupied face) is still a placement,
// for the server to explain.
export function attempt(prefix, key) {
  if (prefix[0] && prefix[0].startsWith('tile:') && key.startsWith('face:')) {
    return { planet: { place: { tile: Number(prefix[0].slice(5)), face: Number(key.slice(5)), rotation: 0 } } };
  }
  return null;
}

export function prompt(decision, obs, prefix, next, ready) {
  if (ready) return `${ready.move.text}: turn it with ←/→ (or ⟲ ⟳), then confirm`;
  if (prefix.length) return 'click a free face of your planet (the dots)';
  return 'take a tile from the display';
}
