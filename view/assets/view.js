// The collide viewer. It loads a recording from the server of this page:
// recording.json (the models, objects and the figures of every step), each
// model's mesh and every pose as binary (see the view package's
// documentation for the layouts), and each step's contacts as JSON when
// the step is shown. It draws the objects with three.js, one instanced mesh
// per model, and the triangles in contact on top of everything.

import * as THREE from 'three';
import { OrbitControls } from 'three/addons/OrbitControls.js';
import { Chart, formatMicros } from '/chart.js';

const $ = (id) => document.getElementById(id);

// What the page shows, for tests and snapshots (window.collideView):
// ready once the first step is drawn; shown, the step drawn;
// highlighted, its pairs of triangles and the triangles drawn for them
// (two a pair); triangles, those of each model as decoded; setStep(n)
// shows step n and resolves when it is drawn.
const view = {
  ready: false,
  shown: -1,
  highlighted: { pairs: 0, triangles: 0 },
  // pairs(), the pairs highlighted: [object, triangle, object, triangle]
  // each, in the server's order; selected, the pair selected (its index
  // in pairs()) or -1; select(k) selects pair k and looks at it.
  pairs: () => shownPairs.map((p) => [...p]),
  // vertex(o, v): where object o's instance draws vertex v of its mesh,
  // plus the origin.
  vertex: (o, v) => {
    const it = instances[o], m = new THREE.Matrix4(), pos = meshes[rec.objects[o].model].positions;
    it.mesh.getMatrixAt(it.index, m);
    return new THREE.Vector3(pos[3 * v], pos[3 * v + 1], pos[3 * v + 2]).applyMatrix4(m).toArray()
      .map((x, j) => x + rec.origin[j]);
  },
  // triangle(i): the 9 coordinates of highlighted triangle i (2k and
  // 2k+1 are pair k's) as drawn, plus the origin: where the page puts it.
  triangle: (i) => [...overlay.geometry.getAttribute('position').array.slice(9 * i, 9 * i + 9)]
    .map((x, j) => x + rec.origin[j % 3]),
  selected: -1,
  select: (k) => select(k),
  triangles: [],
  error: null,
  setStep: (n) => show(n),
  // curves, the segments of the intersection curves drawn at the step
  // shown (each 6 numbers, plus the origin: curve(i)); normals, the
  // normals drawn (at each contact patch); focus, the box of both
  // (relative to the origin) or null; framed, whether the camera was
  // pointed at it (?frame=contact).
  curves: 0,
  curve: (i) => [...curveLines.geometry.getAttribute('position').array.slice(6 * i, 6 * i + 6)]
    .map((x, j) => x + rec.origin[j % 3]),
  normals: 0,
  focus: null,
  framed: false,
  // timings, in ms: fetching the recording's description, its meshes and
  // poses, making the scene and drawing the first step; step, the last
  // step's show.
  timings: {},
  // frameTime(n) draws n frames turning the camera about its target and
  // returns the mean time of a frame in ms (the GPU's work included).
  frameTime: (n) => frameTime(n),
};
window.collideView = view;

function fail(err) {
  view.error = String(err && err.message ? err.message : err);
  const e = $('error');
  e.hidden = false;
  e.textContent = 'collide view: ' + view.error;
}
window.addEventListener('error', (e) => fail(e.error || e.message));
window.addEventListener('unhandledrejection', (e) => fail(e.reason));

async function fetchOK(path) {
  const r = await fetch(path);
  if (!r.ok) throw new Error(`${path}: ${r.status} ${(await r.text()).trim()}`);
  return r;
}

// fetchBinary fetches path and checks its magic and version.
async function fetchBinary(path, magic) {
  const buf = await (await fetchOK(path)).arrayBuffer();
  const dv = new DataView(buf);
  const got = String.fromCharCode(...new Uint8Array(buf, 0, 4));
  if (got !== magic || dv.getUint32(4, true) !== 1) {
    throw new Error(`${path}: not a version 1 ${magic} (got ${JSON.stringify(got)})`);
  }
  return buf;
}

// decodeMesh reads a mesh: "CVMS", version, vertices and triangles (uint32),
// the centre (3 float64), then the vertices less the centre (float32) and
// the triangles' vertex indices (uint32), all little-endian.
function decodeMesh(buf) {
  const dv = new DataView(buf);
  const nv = dv.getUint32(8, true), nt = dv.getUint32(12, true);
  return {
    positions: new Float32Array(buf, 40, 3 * nv),
    index: new Uint32Array(buf, 40 + 12 * nv, 3 * nt),
    triangles: nt,
  };
}

// decodePoses reads the poses: "CVPS", version, objects, moving objects and
// steps (uint32), 0, the origin (3 float64), then 12 float32 for every
// object, then 12 for each moving object at each step: the rows of the
// rotation and the translation that place the mesh (less its centre)
// relative to the origin.
function decodePoses(buf) {
  const dv = new DataView(buf);
  const objects = dv.getUint32(8, true), moving = dv.getUint32(12, true), steps = dv.getUint32(16, true);
  return {
    objects, moving, steps,
    base: new Float32Array(buf, 48, 12 * objects),
    steps: new Float32Array(buf, 48 + 48 * objects, 12 * moving * steps),
  };
}

// setMatrix sets m from the 12 numbers at a[i].
function setMatrix(m, a, i) {
  m.set(a[i], a[i + 1], a[i + 2], a[i + 9],
    a[i + 3], a[i + 4], a[i + 5], a[i + 10],
    a[i + 6], a[i + 7], a[i + 8], a[i + 11],
    0, 0, 0, 1);
}

// The colours of static objects, of moving ones (in turn) and of the two
// triangles of a pair in contact.
const STATIC = new THREE.Color(0x8a939e);
const MOVING = [0x4aa3ff, 0x34c759, 0xaf52de, 0xff9f0a, 0x5ac8fa, 0xff2d55].map((c) => new THREE.Color(c));
const HIT_A = new THREE.Color(0xff3b30), HIT_B = new THREE.Color(0xffd60a);
// The colours of the intersection curves and of the contact normals:
// magenta against the red and yellow of the pairs and the models' blues,
// cyan for the normals.
const CURVE = new THREE.Color(0xff2bd6), NORMAL = new THREE.Color(0x00ffff);
// frameContact: the camera looks at each step's contact region (?frame=contact).
const frameContact = new URLSearchParams(location.search).get('frame') === 'contact';

let rec, poses, meshes = [], current = 0;
const instances = []; // by object: {mesh, index}: its instanced mesh and its instance
const matrices = []; // by object: its pose at the step shown, the 12 numbers
let renderer, scene, camera, controls, overlay, dots, chart, curveLines, normalLines;
let curveTubes, normalShafts, normalHeads; // the curves and normals drawn thick (instanced)
let sceneRadius = 1, followRadius = 0; // the radii of everything and of the followed object
const stepCache = new Map();
let shownPairs = []; // [a, e, b, f] by pair highlighted
let marked; // the selected pair, drawn white
const LISTED_PAIRS = 12;

async function main() {
  const t0 = performance.now();
  if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) throw new Error('this viewer needs a little-endian machine');
  rec = await (await fetchOK('/recording.json')).json();
  const t1 = performance.now();
  $('title').textContent = rec.title || 'collide view';
  $('doc').textContent = rec.doc;
  $('mode').textContent = `${rec.steps} steps; contacts: ${rec.mode}`;
  const [ps, ...ms] = await Promise.all([
    fetchBinary('/poses', 'CVPS'),
    ...rec.models.map((_, i) => fetchBinary(`/mesh/${i}`, 'CVMS')),
  ]);
  const t2 = performance.now();
  poses = decodePoses(ps);
  meshes = ms.map(decodeMesh);
  view.triangles = meshes.map((m) => m.triangles);
  $('s-time-name').textContent = rec.time_name;
  const listed = 8;
  for (const m of rec.models.slice(0, listed)) {
    const li = document.createElement('li');
    li.textContent = `${m.name}: ${m.triangles.toLocaleString('en')} triangles`;
    $('models').append(li);
  }
  if (rec.models.length > listed) {
    const li = document.createElement('li');
    li.textContent = `and ${rec.models.length - listed} more models`;
    $('models').append(li);
  }
  build();
  setupControls();
  const start = Number(new URLSearchParams(location.search).get('step') || 0);
  await show(start);
  if ($('follow').checked) {
    follow(true);
    render();
  }
  const gl = renderer.getContext();
  gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4)); // waits for the GPU
  view.timings = { recording: t1 - t0, data: t2 - t1, scene: performance.now() - t2 };
  view.ready = true;
}

function build() {
  const box = $('scene');
  renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(window.devicePixelRatio);
  box.append(renderer.domElement);
  scene = new THREE.Scene();
  scene.background = new THREE.Color(0x15191f);

  const min = new THREE.Vector3(...rec.min), max = new THREE.Vector3(...rec.max);
  const centre = min.clone().add(max).multiplyScalar(0.5);
  const radius = Math.max(max.distanceTo(min) / 2, 1e-9);
  sceneRadius = radius;
  camera = new THREE.PerspectiveCamera(45, 1, radius / 1000, radius * 100);
  camera.position.copy(centre).add(new THREE.Vector3(1.1, -1.6, 1.0).multiplyScalar(radius * 1.15));
  camera.up.set(0, 0, 1);
  scene.add(new THREE.HemisphereLight(0xffffff, 0x303840, 1.6));
  const head = new THREE.DirectionalLight(0xffffff, 1.6);
  head.position.set(0.3, 0.6, 1);
  camera.add(head);
  scene.add(camera);
  controls = new OrbitControls(camera, renderer.domElement);
  controls.target.copy(centre);
  controls.update();
  controls.addEventListener('change', render);

  // One instanced mesh per model, an instance per object.
  const byModel = rec.models.map(() => []);
  rec.objects.forEach((o, i) => byModel[o.model].push(i));
  const m = new THREE.Matrix4();
  let moving = 0;
  byModel.forEach((objs, k) => {
    if (objs.length === 0) return;
    const g = new THREE.BufferGeometry();
    g.setAttribute('position', new THREE.BufferAttribute(meshes[k].positions, 3));
    g.setIndex(new THREE.BufferAttribute(meshes[k].index, 1));
    const mat = new THREE.MeshPhongMaterial({ flatShading: true, side: THREE.DoubleSide, shininess: 20 });
    const im = new THREE.InstancedMesh(g, mat, objs.length);
    im.frustumCulled = false; // the instances move
    objs.forEach((o, j) => {
      instances[o] = { mesh: im, index: j };
      matrices[o] = poses.base.subarray(12 * o, 12 * o + 12);
      setMatrix(m, matrices[o], 0);
      im.setMatrixAt(j, m);
      im.setColorAt(j, rec.objects[o].static ? STATIC : MOVING[moving++ % MOVING.length]);
    });
    scene.add(im);
  });

  // The triangles in contact (drawn through everything) and a dot at each
  // pair.
  overlay = new THREE.Mesh(new THREE.BufferGeometry(), new THREE.MeshBasicMaterial({
    vertexColors: true, side: THREE.DoubleSide, depthTest: false, transparent: true, opacity: 0.9,
  }));
  overlay.renderOrder = 1;
  overlay.frustumCulled = false;
  dots = new THREE.Points(new THREE.BufferGeometry(), new THREE.PointsMaterial({
    color: HIT_A, size: 7, sizeAttenuation: false, depthTest: false,
  }));
  dots.renderOrder = 2;
  dots.frustumCulled = false;
  marked = new THREE.Mesh(new THREE.BufferGeometry(), new THREE.MeshBasicMaterial({
    color: 0xffffff, side: THREE.DoubleSide, depthTest: false,
  }));
  marked.renderOrder = 3;
  marked.visible = false;
  // The intersection curves and the contact normals, drawn over
  // everything.
  curveLines = new THREE.LineSegments(new THREE.BufferGeometry(), new THREE.LineBasicMaterial({
    color: CURVE, depthTest: false, transparent: true,
  }));
  curveLines.renderOrder = 4;
  curveLines.frustumCulled = false;
  normalLines = new THREE.LineSegments(new THREE.BufferGeometry(), new THREE.LineBasicMaterial({
    color: NORMAL, depthTest: false, transparent: true,
  }));
  normalLines.renderOrder = 5;
  normalLines.frustumCulled = false;
  scene.add(overlay, dots, marked, curveLines, normalLines);
  // Lines are one pixel wide in WebGL: the curves and normals are drawn
  // again as thin cylinders (and cones at the normals' tips), their
  // width a fraction of the contact region's size, which read when the
  // camera is near the contact; the lines keep them visible from afar.
  curveTubes = new Instanced(new THREE.CylinderGeometry(1, 1, 1, 8, 1, true), CURVE, 4);
  normalShafts = new Instanced(new THREE.CylinderGeometry(1, 1, 1, 8, 1, true), NORMAL, 5);
  normalHeads = new Instanced(new THREE.ConeGeometry(1, 1, 12), NORMAL, 5);

  // A click (not a drag) picks.
  let down;
  renderer.domElement.addEventListener('pointerdown', (e) => { down = [e.clientX, e.clientY]; });
  renderer.domElement.addEventListener('pointerup', (e) => {
    if (down && Math.hypot(e.clientX - down[0], e.clientY - down[1]) < 4) pick(e.clientX, e.clientY);
  });

  new ResizeObserver(resize).observe(box);
  resize();
}

function resize() {
  const box = $('scene');
  const w = Math.max(box.clientWidth, 1), h = Math.max(box.clientHeight, 1);
  renderer.setSize(w, h);
  camera.aspect = w / h;
  camera.updateProjectionMatrix();
  render();
}

// render draws the scene. When following, the near plane cuts away
// whatever lies between the camera and the followed object (a ceiling, a
// wall), so that the object and what it touches stay in sight.
function render() {
  let near = sceneRadius / 1000;
  if ($('follow').checked && followRadius > 0) {
    const d = camera.position.distanceTo(controls.target);
    near = Math.max(d - 2 * followRadius, near);
  }
  if (camera.near !== near) {
    camera.near = near;
    camera.updateProjectionMatrix();
  }
  renderer.render(scene, camera);
}

async function stepData(n) {
  let p = stepCache.get(n);
  if (!p) {
    p = fetchOK(`/step/${n}`).then((r) => r.json());
    stepCache.set(n, p);
    if (stepCache.size > 512) stepCache.delete(stepCache.keys().next().value);
  }
  return p;
}

// show draws step n: the moving objects at their poses, its contacts, its
// figures; a later call supersedes one still waiting for its contacts.
async function show(n) {
  const t0 = performance.now();
  n = Math.min(Math.max(Math.trunc(n) || 0, 0), rec.steps - 1);
  current = n;
  const st = await stepData(n);
  if (current !== n) return;
  const m = new THREE.Matrix4();
  rec.moving.forEach((o, k) => {
    const at = 12 * (n * rec.moving.length + k);
    matrices[o] = poses.steps.subarray(at, at + 12);
    setMatrix(m, matrices[o], 0);
    instances[o].mesh.setMatrixAt(instances[o].index, m);
    instances[o].mesh.instanceMatrix.needsUpdate = true;
  });
  highlight(st);
  drawContacts(st);
  if ($('follow').checked) follow(false);
  else if (frameContact && st.focus) frameOn(st.focus);
  $('slider').value = n;
  $('s-step').textContent = `${n} of ${rec.steps - 1}`;
  $('s-pairs').textContent = st.pairs.toLocaleString('en') + (st.truncated ? ' (more not kept)' : '');
  $('s-contacts').textContent = st.contacts.length.toLocaleString('en');
  $('s-time').textContent = formatMicros(st.time * 1e6);
  $('s-bv').textContent = st.bv_tests.toLocaleString('en');
  $('s-tri').textContent = st.tri_tests.toLocaleString('en');
  chart.mark(n);
  render();
  view.shown = n;
  view.timings.step = performance.now() - t0;
}

// highlight draws the two triangles of every pair in contact at step st,
// placed as their objects are, and a dot at the first vertex of each
// pair's first triangle.
function highlight(st) {
  const tris = 2 * st.pairs;
  const pos = new Float32Array(9 * tris), col = new Float32Array(9 * tris), dot = new Float32Array(3 * st.pairs);
  let v = 0, d = 0;
  const put = (obj, t, colour) => {
    const mesh = meshes[rec.objects[obj].model], a = matrices[obj];
    for (let c = 0; c < 3; c++) {
      const i = 3 * mesh.index[3 * t + c];
      const x = mesh.positions[i], y = mesh.positions[i + 1], z = mesh.positions[i + 2];
      pos[v] = a[0] * x + a[1] * y + a[2] * z + a[9];
      pos[v + 1] = a[3] * x + a[4] * y + a[5] * z + a[10];
      pos[v + 2] = a[6] * x + a[7] * y + a[8] * z + a[11];
      col[v] = colour.r;
      col[v + 1] = colour.g;
      col[v + 2] = colour.b;
      v += 3;
    }
  };
  shownPairs = [];
  for (const c of st.contacts) {
    for (let i = 0; i < c.pairs.length; i += 2) {
      put(c.a, c.pairs[i], HIT_A);
      dot.set(pos.subarray(v - 9, v - 6), d);
      d += 3;
      put(c.b, c.pairs[i + 1], HIT_B);
      shownPairs.push([c.a, c.pairs[i], c.b, c.pairs[i + 1]]);
    }
  }
  const g = overlay.geometry;
  g.setAttribute('position', new THREE.BufferAttribute(pos, 3));
  g.setAttribute('color', new THREE.BufferAttribute(col, 3));
  if (tris > 0) g.computeBoundingSphere();
  dots.geometry.setAttribute('position', new THREE.BufferAttribute(dot, 3));
  view.highlighted = { pairs: st.pairs, triangles: v / 9 };
  listPairs();
  mark(-1);
}

// contactSize is the size of the step's contact region: the diagonal of
// its focus box, at least a two-hundredth of the scene's radius (a contact
// at a point has none).
function contactSize(st) {
  if (!st.focus) return sceneRadius / 200;
  const d = new THREE.Vector3(...st.focus.max).distanceTo(new THREE.Vector3(...st.focus.min));
  return Math.max(d, sceneRadius / 200);
}

// Instanced draws copies of a geometry whose axis is y from -1/2 to 1/2
// (a cylinder, a cone) along segments, over everything.
class Instanced {
  constructor(geometry, colour, order) {
    this.geometry = geometry;
    this.material = new THREE.MeshBasicMaterial({ color: colour, depthTest: false, transparent: true });
    this.order = order;
    this.mesh = null;
    this.grow(64);
  }

  grow(n) {
    if (this.mesh) scene.remove(this.mesh);
    this.mesh = new THREE.InstancedMesh(this.geometry, this.material, n);
    this.mesh.renderOrder = this.order;
    this.mesh.frustumCulled = false;
    this.mesh.count = 0;
    scene.add(this.mesh);
  }

  // set draws one copy along each segment of segs (6 numbers each: from,
  // to), r wide.
  set(segs, r) {
    const n = Math.floor(segs.length / 6);
    if (n > this.mesh.instanceMatrix.count) this.grow(Math.max(n, 2 * this.mesh.instanceMatrix.count));
    const a = new THREE.Vector3(), b = new THREE.Vector3(), d = new THREE.Vector3(), y = new THREE.Vector3(0, 1, 0);
    const q = new THREE.Quaternion(), m = new THREE.Matrix4(), sc = new THREE.Vector3();
    for (let i = 0; i < n; i++) {
      a.fromArray(segs, 6 * i);
      b.fromArray(segs, 6 * i + 3);
      d.subVectors(b, a);
      const len = d.length();
      q.setFromUnitVectors(y, len > 0 ? d.divideScalar(len) : y);
      m.compose(a.add(b).multiplyScalar(0.5), q, sc.set(r, len, r));
      this.mesh.setMatrixAt(i, m);
    }
    this.mesh.count = n;
    this.mesh.instanceMatrix.needsUpdate = true;
  }
}

// drawContacts draws step st's intersection curves and, at each contact
// patch, its normal as an arrow a third of the contact region's size long.
function drawContacts(st) {
  const curves = st.curves || [], normals = st.normals || [];
  curveLines.geometry.setAttribute('position', new THREE.BufferAttribute(new Float32Array(curves), 3));
  const size = contactSize(st), len = size / 3, seg = new Float32Array(normals.length), head = new Float32Array(normals.length);
  for (let i = 0; i + 5 < normals.length; i += 6) {
    for (let j = 0; j < 3; j++) {
      const p = normals[i + j], n = normals[i + 3 + j];
      seg[i + j] = p;
      seg[i + 3 + j] = p + 0.75 * len * n;
      head[i + j] = p + 0.75 * len * n;
      head[i + 3 + j] = p + len * n;
    }
  }
  normalLines.geometry.setAttribute('position', new THREE.BufferAttribute(seg, 3));
  curveTubes.set(curves, size / 150);
  normalShafts.set(seg, size / 300);
  normalHeads.set(head, size / 60);
  view.curves = curves.length / 6;
  view.normals = normals.length / 6;
  view.focus = st.focus || null;
}

// frameOn points the camera at box (relative to the origin) grown by half
// its size, from the direction it looks now, so that the contact region
// fills the view.
function frameOn(box) {
  const min = new THREE.Vector3(...box.min), max = new THREE.Vector3(...box.max);
  const centre = min.clone().add(max).multiplyScalar(0.5);
  const r = Math.max(0.75 * max.distanceTo(min), sceneRadius / 200);
  const dir = camera.position.clone().sub(controls.target).normalize();
  const fov = THREE.MathUtils.degToRad(camera.fov) / 2;
  controls.target.copy(centre);
  camera.position.copy(centre).addScaledVector(dir, r / Math.sin(Math.min(fov, Math.atan(Math.tan(fov) * camera.aspect))));
  controls.update();
  view.framed = true;
}

// frameCurrent points the camera at the contact region of the step shown
// (the c key), following nothing.
async function frameCurrent() {
  const st = await stepData(current);
  if (!st.focus) return;
  $('follow').checked = false;
  frameOn(st.focus);
  render();
}

const objectName = (o) => rec.objects[o].name || `object ${o}`;
const pairText = (p) => `${objectName(p[0])} ${p[1]} ↔ ${objectName(p[2])} ${p[3]}`;

// listPairs lists the first pairs of the step shown.
function listPairs() {
  const ol = $('pairs');
  ol.replaceChildren(...shownPairs.slice(0, LISTED_PAIRS).map((p, k) => {
    const li = document.createElement('li');
    li.textContent = pairText(p);
    li.addEventListener('click', () => select(k));
    return li;
  }));
  if (shownPairs.length > LISTED_PAIRS) {
    const li = document.createElement('li');
    li.textContent = `… ${(shownPairs.length - LISTED_PAIRS).toLocaleString('en')} more`;
    li.style.listStyle = 'none';
    ol.append(li);
  }
}

// mark draws pair k (an index in shownPairs) white, or nothing for -1.
function mark(k) {
  view.selected = k;
  [...$('pairs').children].forEach((li, i) => li.classList.toggle('selected', i === k));
  if (k < 0) {
    marked.visible = false;
    $('pick').textContent = shownPairs.length ? 'click a highlighted triangle, or a pair below, to look at it' : '';
    return;
  }
  const pos = overlay.geometry.getAttribute('position').array.slice(18 * k, 18 * k + 18);
  marked.geometry.setAttribute('position', new THREE.BufferAttribute(pos, 3));
  marked.geometry.computeBoundingSphere();
  marked.visible = true;
  const p = shownPairs[k];
  $('pick').textContent = `pair ${k} of ${shownPairs.length}: ${objectName(p[0])} triangle ${p[1]} (red) touches ${objectName(p[2])} triangle ${p[3]} (yellow)`;
}

// select marks pair k and turns the camera to it, from a few times the
// pair's size away, following nothing.
function select(k) {
  if (k < 0 || k >= shownPairs.length) return;
  mark(k);
  $('follow').checked = false;
  const s = marked.geometry.boundingSphere;
  const dir = camera.position.clone().sub(controls.target).normalize();
  controls.target.copy(s.center);
  camera.position.copy(s.center).addScaledVector(dir, Math.max(12 * s.radius, sceneRadius / 200));
  controls.update();
  render();
}

// pick answers a click at (x, y) in the canvas: a highlighted triangle
// selects its pair; a model's triangle is named.
function pick(x, y) {
  const r = renderer.domElement.getBoundingClientRect();
  const ndc = new THREE.Vector2(((x - r.left) / r.width) * 2 - 1, -((y - r.top) / r.height) * 2 + 1);
  const ray = new THREE.Raycaster();
  ray.setFromCamera(ndc, camera);
  const hit = ray.intersectObject(overlay, false)[0];
  if (hit) {
    select(Math.floor(hit.faceIndex / 2));
    return;
  }
  const models = scene.children.filter((c) => c.isInstancedMesh);
  const m = ray.intersectObjects(models, false)[0];
  if (!m) return;
  const o = instances.findIndex((it) => it && it.mesh === m.object && it.index === m.instanceId);
  mark(-1);
  $('pick').textContent = `${objectName(o)} (${rec.models[rec.objects[o].model].name}), triangle ${m.faceIndex}`;
  render();
}

function frameTime(n) {
  const gl = renderer.getContext(), up = camera.up.clone(), px = new Uint8Array(4);
  const sync = () => gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, px); // waits for the GPU
  sync();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    camera.position.sub(controls.target).applyAxisAngle(up, (2 * Math.PI) / n).add(controls.target);
    camera.lookAt(controls.target);
    render();
    sync();
  }
  return (performance.now() - t0) / n;
}

// follow moves the camera with the first moving object, keeping its
// offset, or with frame set, to a few times the object's size from it.
function follow(frame) {
  if (rec.moving.length === 0) return;
  const o = rec.moving[0], a = matrices[o];
  const target = new THREE.Vector3(a[9], a[10], a[11]);
  if (frame) {
    const g = instances[o].mesh.geometry;
    if (!g.boundingSphere) g.computeBoundingSphere();
    followRadius = g.boundingSphere.radius;
    const dir = camera.position.clone().sub(controls.target).normalize();
    camera.position.copy(target).addScaledVector(dir, 5 * g.boundingSphere.radius);
  } else {
    camera.position.add(target.clone().sub(controls.target));
  }
  controls.target.copy(target);
  controls.update();
}

function setupControls() {
  const slider = $('slider');
  slider.max = rec.steps - 1;
  const f = new URLSearchParams(location.search).get('follow');
  $('follow').checked = f === null ? rec.moving.length === 1 && !frameContact : f === '1';
  $('follow').disabled = rec.moving.length === 0;
  $('follow').addEventListener('change', () => {
    if ($('follow').checked) follow(true);
    render();
  });
  slider.addEventListener('input', () => show(Number(slider.value)));
  chart = new Chart($('chart'), rec.time, rec.pairs.map((p) => p > 0), rec.time_name, (s) => show(s));

  let playing = false, last = 0, carry = 0;
  const play = $('play');
  const setPlaying = (on) => {
    playing = on;
    play.textContent = on ? 'pause' : 'play';
    if (on) {
      if (current >= rec.steps - 1) show(0);
      last = performance.now();
      carry = 0;
      requestAnimationFrame(tick);
    }
  };
  // tick advances as many steps as the speed asks for the time since the
  // last frame, waiting for each step to be drawn.
  const tick = async (now) => {
    if (!playing) return;
    carry += ((now - last) / 1000) * Number($('speed').value);
    last = now;
    const k = Math.floor(carry);
    if (k > 0) {
      carry -= k;
      const n = Math.min(current + k, rec.steps - 1);
      await show(n);
      if (n >= rec.steps - 1) return setPlaying(false);
    }
    requestAnimationFrame(tick);
  };
  play.addEventListener('click', () => setPlaying(!playing));

  const contactFrom = (n, dir) => {
    for (let s = n + dir; s >= 0 && s < rec.steps; s += dir) if (rec.pairs[s] > 0) return s;
    return n;
  };
  $('prev').addEventListener('click', () => show(contactFrom(current, -1)));
  $('next').addEventListener('click', () => show(contactFrom(current, +1)));
  window.addEventListener('keydown', (e) => {
    if (['SELECT', 'INPUT', 'BUTTON'].includes(e.target.tagName)) return;
    if (e.key === ' ') setPlaying(!playing);
    else if (e.key === 'ArrowRight') show(current + 1);
    else if (e.key === 'ArrowLeft') show(current - 1);
    else if (e.key === 'c') frameCurrent();
    else return;
    e.preventDefault();
  });
}

main().catch(fail);
