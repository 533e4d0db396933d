#!/usr/bin/env node
'use strict';
/*
 * Babylon.js's sampled glTF animation poses, for Orrery's animation tests (issue 11: "sampled node transforms
 * against Babylon.js's at fixed times").
 *
 *   node anim-export.js [OUTDIR]        default OUTDIR: ../../tests/data/parity
 *
 * For each model in MODELS it writes OUTDIR/gltf-anim-<key>.json: every animation group of the file (glTF
 * animation order), and for each the local TRS (node.position, node.rotationQuaternion [x, y, z, w],
 * node.scaling) of every node the group animates, with the glTF node index and name, at t = 0, 0.25, ..., 2 s.
 * Method (page side, window.GLTF_SCENES.exportAnimations in scenes/gltf.js): SceneLoader.ImportMeshAsync into a
 * fresh left-handed scene, scene.animationsEnabled = false; per group: stop every group, start this one, pause,
 * then goToFrame(t * 60) per time (the loader keys at 60 frames per second; Babylon clamps a time outside a
 * channel's keys to its first/last key, and does not loop). The same export in a right-handed scene must give
 * the same numbers (the handedness conversion lives on '__root__', which no animation targets); the script
 * checks that and records the result.
 *
 * Same server, chromium and asset directory ($PARITY_ASSETS, default the repository's assets/) as render.js.
 */
const fs = require('fs');
const path = require('path');
const { chromium } = require('playwright-core');
const R = require('./render.js');

const MODELS = [
  { key: 'fox', model: 'Fox', file: 'Fox.glb' },
  { key: 'riggedsimple', model: 'RiggedSimple', file: 'RiggedSimple.glb' },
];
const TIMES = Array.from({ length: 9 }, (_, i) => i * 0.25); // 0 .. 2 s

function maxAbsDiff(a, b) {
  let m = 0;
  const walk = (x, y) => {
    if (typeof x === 'number') { m = Math.max(m, Math.abs(x - y)); return; }
    if (Array.isArray(x)) { x.forEach((v, i) => walk(v, y[i])); return; }
    if (x && typeof x === 'object') for (const k of Object.keys(x)) walk(x[k], y[k]);
  };
  walk(a, b);
  return m;
}

async function main() {
  const outDir = path.resolve(process.argv[2] || path.join(__dirname, '../../tests/data/parity'));
  if (!R.ASSETS_DIR) throw new Error('no assets directory (set PARITY_ASSETS)');
  const server = await R.startServer();
  const base = `http://127.0.0.1:${server.address().port}`;
  const browser = await chromium.launch({ executablePath: R.CHROMIUM, headless: true, args: R.CHROMIUM_ARGS });
  try {
    for (const M of MODELS) {
      const run = async (rightHanded) => {
        const page = await browser.newPage();
        const log = [];
        page.on('console', (m) => log.push(`[${m.type()}] ${m.text()}`));
        page.on('pageerror', (e) => log.push(`[pageerror] ${e.message}`));
        await page.route('**/*', (route) => (route.request().url().startsWith(base + '/') ? route.continue() : route.abort('blockedbyclient')));
        await page.goto(`${base}/harness.html`, { timeout: 180000 });
        await page.waitForFunction(() => window.harnessLoaded === true, null, { timeout: 180000 });
        const r = await page.evaluate(([m, f, t, rh]) => window.GLTF_SCENES.exportAnimations(m, f, t, rh), [M.model, M.file, TIMES, rightHanded]);
        await page.close();
        return { r, log };
      };
      const lh = await run(false);
      const rh = await run(true);
      const { notFound } = R.served();
      if (notFound.length) throw new Error('missing file(s): ' + notFound.join(', '));
      const rel = path.join('gltf', M.model, M.file);
      const out = {
        model: M.model,
        file: 'assets/' + rel.split(path.sep).join('/'),
        sha256: R.sha256(path.join(R.ASSETS_DIR, rel)),
        babylonVersion: lh.r.babylonVersion,
        babylonLoadersVersion: R.LOADERS_VERSION,
        chromium: browser.version(),
        tool: 'tools/parity/anim-export.js',
        method: 'SceneLoader.ImportMeshAsync into a left-handed scene; per group: stop all groups, start(false, 1, from, to), pause(), goToFrame(t * 60); read node.position, node.rotationQuaternion, node.scaling (local TRS, glTF node space: the handedness conversion is on __root__, not on these nodes)',
        framesPerSecond: 60,
        timesSeconds: TIMES,
        outsideKeys: 'clamped to the first/last key of each channel (no looping)',
        rotationOrder: 'quaternion [x, y, z, w]',
        rightHandedCheck: { maxAbsDiff: maxAbsDiff(lh.r.groups, rh.r.groups), note: 'the same export with scene.useRightHandedSystem = true' },
        consoleLog: lh.log,
        groups: lh.r.groups,
      };
      const file = path.join(outDir, `gltf-anim-${M.key}.json`);
      fs.mkdirSync(outDir, { recursive: true });
      fs.writeFileSync(file, JSON.stringify(out, null, 1) + '\n');
      const nNodes = out.groups.map((g) => `${g.name}:${g.nodes.length} nodes, ${g.durationSeconds.toFixed(3)} s`).join('; ');
      console.log(`${M.key}: ${path.relative(process.cwd(), file)}  ${out.groups.length} group(s) [${nNodes}]  rh maxAbsDiff ${out.rightHandedCheck.maxAbsDiff}`);
    }
  } finally {
    await browser.close();
    server.close();
  }
}

main().catch((e) => { console.error(e); process.exit(1); });
