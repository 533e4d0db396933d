#!/usr/bin/env node
'use strict';
/*
 * Babylon.js's CascadedShadowGenerator matrices for Orrery's cascade unit tests (issue 12, part 2).
 *
 *   node cascade-export.js [OUTDIR [VARIANT_REGEX]]        default OUTDIR: ../../tests/data/parity
 *
 * Builds the shadow-csm scene of the issue-12 specification (640x480; ground 30x400 at z = -180, 26 boxes,
 * UniversalCamera (0,4,12) -> (0,0,-60), fov 0.8, minZ 0.5, maxZ 250; DirectionalLight direction
 * (-1,-1.5,-0.5); CascadedShadowGenerator(1024): 4 cascades, lambda 0.7, stabilizeCascades, blend 0.1,
 * shadowMaxZ 200, PCF medium, autoCalcDepthBounds off) and variants of it (VARIANTS below: a second camera
 * pose, the right-handed scene, no stabilisation, no depth clamp, explicit min/max distances, and the spec's
 * -far variant: positions offset by (5e6, 0, 5e6) with useLargeWorldRendering), renders
 * 3 frames (the generator computes its matrices while rendering the shadow map) and writes
 * OUTDIR/csm-<variant>.json with the camera's view and projection, the casters' bounding box, the split
 * distances, the frustum lengths and each cascade's view, projection and transform matrix (Babylon's
 * getCascadeViewMatrix / getCascadeProjectionMatrix / getCascadeTransformMatrix; Babylon's Matrix is
 * row-vector with the translation in m[12..14], so its 16 numbers are Orrery's column-major array of
 * the same transform). No image is written (the render test's reference is the parity tool's job).
 *
 * Same server, chromium and asset directory as render.js.
 */
const fs = require('fs');
const path = require('path');
const { chromium } = require('playwright-core');
const R = require('./render.js');

const BASE = {
  width: 640, height: 480,
  camera: { position: [0, 4, 12], target: [0, 0, -60], fov: 0.8, minZ: 0.5, maxZ: 250 },
  light: { direction: [-1, -1.5, -0.5], position: [20, 30, 10], intensity: 0.9 },
  csm: { mapSize: 1024, numCascades: 4, lambda: 0.7, stabilizeCascades: true, cascadeBlendPercentage: 0.1, shadowMaxZ: 200,
    depthClamp: null, minMaxDistance: null },
  rightHanded: false,
  offset: [0, 0, 0],
  largeWorld: false,
};
const VARIANTS = {
  csm: {},
  'csm-rh': { rightHanded: true },
  'csm-pose2': { camera: { position: [7.3, 11.2, -37.9], target: [-12, 0.5, -140] } },
  'csm-pose2-rh': { rightHanded: true, camera: { position: [7.3, 11.2, -37.9], target: [-12, 0.5, -140] } },
  'csm-nostab': { csm: { stabilizeCascades: false } },
  'csm-noclamp': { csm: { depthClamp: false, numCascades: 3, lambda: 0.5 } },
  'csm-minmax': { csm: { numCascades: 2, minMaxDistance: [0.05, 0.7] } },
  // the spec's -far variant: every position offset by (5e6, 0, 5e6), engine option useLargeWorldRendering
  'csm-far': { offset: [5e6, 0, 5e6], largeWorld: true },
};

function variant(name) {
  const v = VARIANTS[name];
  return {
    ...BASE, ...v,
    camera: { ...BASE.camera, ...(v.camera || {}) },
    light: { ...BASE.light, ...(v.light || {}) },
    csm: { ...BASE.csm, ...(v.csm || {}) },
  };
}

/* Runs in the page. */
async function pageExport(C) {
  const B = window.BABYLON;
  const canvas = document.getElementById('c');
  canvas.width = C.width; canvas.height = C.height;
  canvas.style.width = C.width + 'px'; canvas.style.height = C.height + 'px';
  const engine = new B.Engine(canvas, true, { preserveDrawingBuffer: true, antialias: true, stencil: true, audioEngine: false,
    adaptToDeviceRatio: false, doNotHandleContextLost: true, useLargeWorldRendering: C.largeWorld }, false);
  engine.setHardwareScalingLevel(1);
  engine.resize();
  const scene = new B.Scene(engine, C.rightHanded ? { useRightHandedSystem: true } : undefined);
  if (C.rightHanded) scene.useRightHandedSystem = true;
  scene.clearColor = new B.Color4(0.2, 0.2, 0.3, 1);
  const v3 = (a) => new B.Vector3(a[0], a[1], a[2]);
  const P3 = (a) => new B.Vector3(a[0] + C.offset[0], a[1] + C.offset[1], a[2] + C.offset[2]); // positions only
  const hemi = new B.HemisphericLight('hemi', new B.Vector3(0, 1, 0), scene);
  hemi.intensity = 0.25; hemi.specular = new B.Color3(0, 0, 0); hemi.groundColor = new B.Color3(0, 0, 0);
  const std = (name, c) => { const m = new B.StandardMaterial(name, scene); m.diffuseColor = new B.Color3(c[0], c[1], c[2]); m.specularColor = new B.Color3(0, 0, 0); return m; };
  const ground = B.MeshBuilder.CreateGround('ground', { width: 30, height: 400 }, scene);
  ground.position = P3([0, 0, -180]);
  ground.material = std('gm', [0.85, 0.85, 0.85]);
  ground.receiveShadows = true;
  const boxMat = std('bm', [0.9, 0.35, 0.25]);
  const boxes = [];
  for (let row = 0; row < 13; row++) {
    for (const x of [-4, 4]) {
      const b = B.MeshBuilder.CreateBox('b' + boxes.length, { size: 2 }, scene);
      b.position = P3([x, 1, -15 * row]);
      b.material = boxMat; b.receiveShadows = true;
      boxes.push(b);
    }
  }
  const cam = new B.UniversalCamera('cam', P3(C.camera.position), scene);
  cam.setTarget(P3(C.camera.target));
  cam.fov = C.camera.fov; cam.minZ = C.camera.minZ; cam.maxZ = C.camera.maxZ;
  scene.activeCamera = cam;
  const sun = new B.DirectionalLight('sun', v3(C.light.direction), scene);
  sun.position = P3(C.light.position); sun.intensity = C.light.intensity; sun.specular = new B.Color3(0, 0, 0);
  const g = new B.CascadedShadowGenerator(C.csm.mapSize, sun);
  g.numCascades = C.csm.numCascades;
  g.lambda = C.csm.lambda;
  g.stabilizeCascades = C.csm.stabilizeCascades;
  g.cascadeBlendPercentage = C.csm.cascadeBlendPercentage;
  g.shadowMaxZ = C.csm.shadowMaxZ;
  g.usePercentageCloserFiltering = true;
  g.filteringQuality = B.ShadowGenerator.QUALITY_MEDIUM;
  g.autoCalcDepthBounds = false;
  if (C.csm.depthClamp !== null) g.depthClamp = C.csm.depthClamp;
  if (C.csm.minMaxDistance) g.setMinMaxDistance(C.csm.minMaxDistance[0], C.csm.minMaxDistance[1]);
  for (const b of boxes) g.addShadowCaster(b);
  await scene.whenReadyAsync();
  for (let i = 0; i < 3; i++) scene.render();
  const arr = (m) => Array.from(m.m);
  const vec = (v) => [v.x, v.y, v.z];
  const n = g.numCascades;
  const cascades = [];
  for (let i = 0; i < n; i++) {
    cascades.push({
      view: arr(g.getCascadeViewMatrix(i)),
      projection: arr(g.getCascadeProjectionMatrix(i)),
      transform: arr(g.getCascadeTransformMatrix(i)),
      minExtents: vec(g.getCascadeMinExtents(i)),
      maxExtents: vec(g.getCascadeMaxExtents(i)),
      prevBreakDistance: g._cascades[i].prevBreakDistance,
      breakDistance: g._cascades[i].breakDistance,
      frustumCenter: vec(g._frustumCenter[i]),
      shadowCameraPos: vec(g._shadowCameraPos[i]),
      frustumCornersWorld: g._frustumCornersWorldSpace[i].map(vec),
    });
  }
  // The generator's box (world space, casters + receivers); its boundingInfo is left transformed by the
  // last cascade's view, so rebuild one from the world min/max for each cascade's light-space depth range.
  const scbiMin = g._scbiMin.clone(), scbiMax = g._scbiMax.clone();
  for (let i = 0; i < n; i++) {
    const bi = new B.BoundingInfo(scbiMin, scbiMax);
    bi.update(g.getCascadeViewMatrix(i));
    cascades[i].castersLightMin = vec(bi.boundingBox.minimumWorld);
    cascades[i].castersLightMax = vec(bi.boundingBox.maximumWorld);
  }
  const out = {
    babylonVersion: B.Engine.Version,
    webGLVersion: engine.webGLVersion,
    isNDCHalfZRange: !!engine.isNDCHalfZRange,
    useReverseDepthBuffer: !!engine.useReverseDepthBuffer,
    matrixUse64Bits: !!(B.PerformanceConfigurator && B.PerformanceConfigurator.MatrixUse64Bits),
    useRightHandedSystem: scene.useRightHandedSystem,
    floatingOriginMode: !!scene.floatingOriginMode,
    floatingOriginOffset: scene.floatingOriginOffset ? vec(scene.floatingOriginOffset) : null,
    renderWidth: engine.getRenderWidth(), renderHeight: engine.getRenderHeight(),
    camera: { position: vec(cam.position), view: arr(cam.getViewMatrix()), projection: arr(cam.getProjectionMatrix()), minZ: cam.minZ, maxZ: cam.maxZ, fov: cam.fov },
    lightDirectionNormalized: vec(g._lightDirection),
    castersBoundingBox: { min: vec(scbiMin), max: vec(scbiMax) },
    generator: {
      numCascades: n, lambda: g.lambda, stabilizeCascades: g.stabilizeCascades, cascadeBlendPercentage: g.cascadeBlendPercentage,
      shadowMaxZ: g.shadowMaxZ, depthClamp: g.depthClamp, filter: g.filter, filteringQuality: g.filteringQuality,
      autoCalcDepthBounds: g.autoCalcDepthBounds, minDistance: g.minDistance, maxDistance: g.maxDistance, mapSize: C.csm.mapSize,
      bias: g.bias, normalBias: g.normalBias, darkness: g.getDarkness(), frustumEdgeFalloff: g.frustumEdgeFalloff,
    },
    splitDistances: Array.from(g._viewSpaceFrustumsZ),
    frustumLengths: Array.from(g._frustumLengths),
    cascadeBlendFactor: g.cascadeBlendPercentage === 0 ? 10000 : 1 / g.cascadeBlendPercentage,
    lightDepthValues: [sun.getDepthMinZ(cam), sun.getDepthMinZ(cam) + sun.getDepthMaxZ(cam)],
    cascades,
  };
  scene.dispose();
  engine.dispose();
  return out;
}

async function main() {
  const outDir = path.resolve(process.argv[2] || path.join(__dirname, '../../tests/data/parity'));
  const server = await R.startServer();
  const base = `http://127.0.0.1:${server.address().port}`;
  const only = process.argv[3] ? new RegExp(process.argv[3]) : null;
  try {
    for (const name of Object.keys(VARIANTS)) {
      if (only && !only.test(name)) continue;
      // A fresh browser per variant (one browser for all of them was killed half-way on a loaded machine).
      const browser = await chromium.launch({ executablePath: R.CHROMIUM, headless: true, args: R.CHROMIUM_ARGS });
      const C = variant(name);
      const page = await browser.newPage();
      const log = [];
      page.on('console', (m) => log.push(`[${m.type()}] ${m.text()}`));
      page.on('pageerror', (e) => log.push(`[pageerror] ${e.message}`));
      await page.route('**/*', (route) => (route.request().url().startsWith(base + '/') ? route.continue() : route.abort('blockedbyclient')));
      await page.goto(`${base}/harness.html`, { timeout: 180000 });
      await page.waitForFunction(() => window.harnessLoaded === true, null, { timeout: 180000 });
      const r = await page.evaluate(pageExport, C);
      await page.close();
      const chromiumVersion = browser.version();
      await browser.close();
      const out = {
        variant: name,
        tool: 'tools/parity/cascade-export.js',
        chromium: chromiumVersion,
        constants: C,
        matrixLayout: 'Babylon Matrix.m (row vectors, translation in m[12..14]) = column-major column-vector array',
        consoleLog: log,
        ...r,
      };
      fs.mkdirSync(outDir, { recursive: true });
      const file = path.join(outDir, `${name}.json`);
      fs.writeFileSync(file, JSON.stringify(out, null, 1) + '\n');
      console.log(`${name}: ${path.relative(process.cwd(), file)} splits ${r.splitDistances.map((d) => d.toFixed(4)).join(' ')}`);
    }
  } finally {
    server.close();
  }
}

main().catch((e) => { console.error(e); process.exit(1); });
