#!/usr/bin/env node
'use strict';
/*
 * node lite-vs-golden.js [RENDER_DIR] [--out FILE] [--extra LABEL=DIR]...
 *
 * Compares every RENDER_DIR/lite<ID>.png (default RENDER_DIR = ./out) with the Babylon Lite golden image for scene <ID>
 * (a file named scene<ID>-*.png in one of the golden directories) and writes a table to FILE
 * (default RENDER_DIR/lite-vs-golden.txt) plus RENDER_DIR/diff-lite<ID>-vs-golden.png (max-channel |a-b| x4, grey).
 *
 *   golden directories : $GOLDEN_DIRS (':'-separated); default: ../golden and the repository's tests/data/parity
 *                        (relative to this file) that exist
 *   Lite thresholds    : maxMad per scene id from $LITE_SCENE_CONFIG (a Babylon Lite scene-config.json) if set;
 *                        otherwise the thresholds published in docs/parity.md (200: 2.5, 201: 0.1, 204: 0.5, 16: 0.01)
 *   --extra LABEL=DIR  adds a column: MAD of DIR/lite<ID>.png vs the golden (e.g. the same scenes rendered with --aa off)
 *
 * MAD = mean over all pixels of (mean over R,G,B of |a - b|), 0..255 scale (docs/parity.md, Babylon Lite).
 * max = largest single-channel |a - b|. >8 = % of pixels where some channel differs by more than 8.
 * <=1/<=3/<=5 = % of pixels whose per-pixel difference (mean over R,G,B) is at most 1, 3, 5.
 */
const fs = require('fs');
const path = require('path');
const { compare } = require('./compare.js');

const args = process.argv.slice(2);
let renderDir = null, outFile = null;
const extras = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--out') outFile = args[++i];
  else if (args[i] === '--extra') { const [label, dir] = args[++i].split('='); extras.push({ label, dir: path.resolve(dir) }); }
  else renderDir = args[i];
}
renderDir = path.resolve(renderDir || path.join(__dirname, 'out'));
outFile = outFile ? path.resolve(outFile) : path.join(renderDir, 'lite-vs-golden.txt');

const GOLDEN_DIR_DEFAULTS = ['../golden', '../../tests/data/parity'];
let configPath = process.env.LITE_SCENE_CONFIG || null;
const goldenDirs = (process.env.GOLDEN_DIRS ? process.env.GOLDEN_DIRS.split(':') : GOLDEN_DIR_DEFAULTS.map((d) => path.join(__dirname, d)))
  .map((d) => path.resolve(d)).filter((d, i, all) => fs.existsSync(d) && all.indexOf(d) === i);
const PUBLISHED_MAXMAD = [{ id: 200, maxMad: 2.5 }, { id: 201, maxMad: 0.1 }, { id: 204, maxMad: 0.5 }, { id: 16, maxMad: 0.01 }];
const config = configPath ? JSON.parse(fs.readFileSync(configPath, 'utf8')) : PUBLISHED_MAXMAD;
const configName = configPath ? path.basename(configPath) : 'docs/parity.md';
const liteCfg = (id) => config.find((c) => c.id === id) || {};

function goldenFor(id) {
  for (const d of goldenDirs) {
    const f = fs.readdirSync(d).find((n) => n.startsWith(`scene${id}-`) && n.endsWith('.png'));
    if (f) return path.join(d, f);
  }
  return null;
}

const rel = (p) => path.relative(path.dirname(outFile), p);
const meta = (scene) => {
  const j = path.join(renderDir, scene + '.json');
  return fs.existsSync(j) ? JSON.parse(fs.readFileSync(j, 'utf8')) : null;
};

const scenes = fs.readdirSync(renderDir).filter((n) => /^lite\d+\.png$/.test(n)).map((n) => +n.slice(4, -4)).sort((a, b) => a - b);
const lines = [];
const log = (s) => { console.log(s); lines.push(s); };
const m0 = scenes.length ? meta('lite' + scenes[0]) : null;
log('# Babylon.js 9.35.0 (UMD, WebGL2, SwiftShader) renders vs the Babylon Lite goldens (Babylon.js 9.x, WebGPU, macOS GPU)');
log('# MAD = mean over pixels of mean over R,G,B of |a-b| (0..255). max = largest single-channel |a-b|.');
log('# >8 = % pixels with some channel differing by more than 8. <=1/<=3/<=5 = % pixels whose per-pixel mean-over-RGB difference is <= 1/3/5.');
log(`# Lite maxMad = the threshold Babylon Lite holds against the same golden (Lite vs Babylon.js, both on the same GPU;`);
log(`#   from ${configName}). ok = MAD <= maxMad.`);
if (m0) {
  log(`# renderer: ${m0.gl && m0.gl.renderer}; chromium ${m0.chromium}; Babylon ${m0.babylonVersion}; ${m0.width}x${m0.height}; ` +
    `antialias requested ${m0.antialiasRequested}, context antialias ${m0.contextAttributes && m0.contextAttributes.antialias}, default framebuffer SAMPLES ${m0.defaultFramebufferSamples}`);
}
log(`# renders: ${rel(renderDir) || '.'}   goldens: ${goldenDirs.map(rel).join(', ')}`);
log('');
const head = ['scene', 'golden', 'MAD', 'max', '>8 %', '<=1 %', '<=3 %', '<=5 %', 'Lite maxMad', 'ok', ...extras.map((e) => `MAD ${e.label}`)];
const rows = [];
for (const id of scenes) {
  const g = goldenFor(id);
  if (!g) continue;
  const a = path.join(renderDir, `lite${id}.png`);
  const r = compare(a, g, path.join(renderDir, `diff-lite${id}-vs-golden.png`));
  const maxMad = liteCfg(id).maxMad;
  const row = [`lite${id}`, path.basename(g), r.mae.toFixed(4), r.maxAbs, r.pctPixelsGt8.toFixed(3), r.pctWithin1.toFixed(3), r.pctWithin3.toFixed(3), r.pctWithin5.toFixed(3),
    maxMad === undefined ? '-' : maxMad, maxMad === undefined ? '-' : r.mae <= maxMad ? 'yes' : 'NO'];
  for (const e of extras) {
    const f = path.join(e.dir, `lite${id}.png`);
    row.push(fs.existsSync(f) ? compare(f, g).mae.toFixed(4) : '-');
  }
  rows.push(row);
}
const widths = head.map((h, i) => Math.max(String(h).length, ...rows.map((r) => String(r[i]).length)));
const fmt = (r) => r.map((c, i) => String(c).padEnd(widths[i])).join('  ').trimEnd();
log(fmt(head));
log(fmt(widths.map((w) => '-'.repeat(w))));
for (const r of rows) log(fmt(r));

const floor = rows.filter((r) => r[0] !== 'lite200').map((r) => +r[2]).sort((a, b) => a - b);
if (floor.length) log(`\nMAD over the scenes with a golden, excluding lite200 (float32 breakage differs per rasterizer): ` +
  `min ${floor[0].toFixed(4)}, median ${floor[Math.floor(floor.length / 2)].toFixed(4)}, max ${floor[floor.length - 1].toFixed(4)}`);
const noGolden = scenes.filter((id) => !goldenFor(id));
if (noGolden.length) log(`\nno golden available for: ${noGolden.map((id) => 'lite' + id).join(', ')}`);

// Scene 200 must differ strongly from scene 201 (Babylon Lite requires MAD >= 5.0 between the two).
const g200 = goldenFor(200), g201 = goldenFor(201);
const o200 = path.join(renderDir, 'lite200.png'), o201 = path.join(renderDir, 'lite201.png');
log('\n# scene 200 (no floating origin) vs scene 201 (useLargeWorldRendering). docs/parity.md: Babylon Lite requires');
log('# MAD >= 5.0 between its own 200 and 201 images. Babylon.js itself stays below that on both rasterizers:');
if (fs.existsSync(o200) && fs.existsSync(o201)) { const r = compare(o200, o201); log(`lite200 vs lite201 (this renderer)   MAD=${r.mae.toFixed(4)} max=${r.maxAbs} >8=${r.pctPixelsGt8}%`); }
if (g200 && g201) { const r = compare(g200, g201); log(`golden 200 vs golden 201              MAD=${r.mae.toFixed(4)} max=${r.maxAbs} >8=${r.pctPixelsGt8}%`); }
fs.writeFileSync(outFile, lines.join('\n') + '\n');
console.log(`\nwrote ${outFile}`);
