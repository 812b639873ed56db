// A small three.js stage: a scene whose root group turns with the mouse (drag to rotate,
// wheel to zoom). It draws on demand, not in a loop, so an idle page costs nothing.
import * as THREE from './vendor/three.module.min.js';

export { THREE };

export function webglAvailable() {
  const c = document.createElement('canvas');
  return !!(c.getContext('webgl2') || c.getContext('webgl'));
}

export function stage(el, { distance = 3, height = 480 } = {}) {
  if (!webglAvailable()) {
    el.append(Object.assign(document.createElement('p'), { className: 'error', textContent: 'This board needs WebGL, which this browser does not offer.' }));
    return null;
  }
  const renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
  const width = Math.max(320, el.clientWidth || 800);
  renderer.setSize(width, height);
  renderer.setPixelRatio(Math.min(2, window.devicePixelRatio || 1));
  el.append(renderer.domElement);
  const scene = new THREE.Scene();
  scene.background = new THREE.Color(0x0b0e14);
  const camera = new THREE.PerspectiveCamera(40, width / height, 0.1, 100);
  camera.position.set(0, 0, distance);
  scene.add(new THREE.AmbientLight(0xffffff, 1.2));
  const sun = new THREE.DirectionalLight(0xffffff, 1.6);
  sun.position.set(2, 3, 4);
  scene.add(sun);
  const root = new THREE.Group();
  root.rotation.set(0.4, -0.5, 0);
  scene.add(root);

  let pending = false;
  const draw = () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => { pending = false; renderer.render(scene, camera); });
  };
  let drag = null;
  const canvas = renderer.domElement;
  canvas.style.cursor = 'grab';
  canvas.addEventListener('pointerdown', (e) => { drag = { x: e.clientX, y: e.clientY }; canvas.setPointerCapture(e.pointerId); });
  canvas.addEventListener('pointermove', (e) => {
    if (!drag) return;
    root.rotation.y += (e.clientX - drag.x) * 0.01;
    root.rotation.x += (e.clientY - drag.y) * 0.01;
    drag = { x: e.clientX, y: e.clientY };
    draw();
  });
  canvas.addEventListener('pointerup', () => { drag = null; });
  canvas.addEventListener('wheel', (e) => {
    e.preventDefault();
    camera.position.z = Math.min(20, Math.max(1.2, camera.position.z * (e.deltaY > 0 ? 1.1 : 0.9)));
    draw();
  }, { passive: false });

  // clear removes and frees everything in a group.
  const clear = (g) => {
    for (const c of [...g.children]) {
      g.remove(c);
      c.traverse((o) => { if (o.geometry) o.geometry.dispose(); if (o.material) o.material.dispose(); });
    }
  };
  return {
    THREE, scene, camera, root, draw, clear, renderer,
    destroy() { clear(root); renderer.dispose(); canvas.remove(); },
  };
}

// placeDots draws the dots (and labels) over a 3D board: items are {key, x, y, cls, title,
// text, onclick}. A dot that stays keeps its element, so a click is never lost to a redraw.
export function placeDots(overlay, items) {
  const old = new Map([...overlay.children].map((e) => [e.dataset.dot, e]));
  const keep = new Set();
  for (const it of items) {
    let e = old.get(it.key);
    if (!e) {
      e = document.createElement('div');
      e.dataset.dot = it.key;
      overlay.append(e);
    }
    keep.add(it.key);
    e.className = it.cls;
    if (it.dataKey) e.dataset.key = it.dataKey; else delete e.dataset.key;
    e.title = it.title || '';
    e.textContent = it.text || '';
    e.style.cssText = `left:${it.x}px;top:${it.y}px;${it.style || ''}`;
    e.onclick = it.onclick || null;
  }
  for (const [k, e] of old) if (!keep.has(k)) e.remove();
}
