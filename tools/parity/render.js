#!/usr/bin/env node
'use strict';
/*
 * Deterministic Babylon.js reference renderer.
 *
 *   node render.js SCENE OUT.png [WIDTH HEIGHT]      render one scene (default size: the scene's own, else 640x480)
 *   node render.js --all OUTDIR [WIDTH HEIGHT]       render every registered scene into OUTDIR/<scene>.png
 *   node render.js --list                            list scene names
 * Options (anywhere on the command line):
 *   --frames N       override the scene's frame count (scene.render() calls before capture)
 *   --no-json        do not write the OUT.json metadata file next to the PNG
 *   --filter REGEX   with --all: only the scenes whose name matches REGEX (e.g. --filter '^lite')
 *   --aa on|off      override the scene's antialias (MSAA) setting (experiments only; references use the default)
 *
 * Sizes: WIDTH HEIGHT on the command line win; otherwise the scene's own default (def.width/def.height, e.g.
 * 1280x720 for the lite* scenes); otherwise 640x480.
 *
 * Environment: CHROMIUM=/path/to/chromium (default /usr/bin/chromium).
 *              PARITY_ASSETS=/path/to/assets  (directory holding bjs/, dds/, ...; served to the page as
 *              /shared-assets/...). Default: the repository's assets/ (../../assets from this directory). Every
 *              file served from there is listed with its sha256 in OUT.json ("sharedAssetsServed").
 *
 * It serves this directory on 127.0.0.1 (random port), opens harness.html in headless Debian chromium
 * (SwiftShader WebGL2 through ANGLE), blocks every request that is not to that local server, renders
 * exactly N frames with no render loop, reads the default framebuffer with gl.readPixels and writes an
 * 8-bit RGB PNG (alpha dropped; its statistics go into the JSON) plus OUT.json with all scene constants,
 * Babylon-computed values, GL renderer string and timings.
 */
const http = require('http');
const fs = require('fs');
const path = require('path');
const crypto = require('crypto');
const { chromium } = require('playwright-core');
const { encodePNG } = require('./lib/png.js');
// Version of the glTF loader bundle harness.html loads (npm babylonjs-loaders, pinned in package.json); written to
// the JSON of the scenes that use it (def.usesGltfLoader).
const LOADERS_VERSION = (() => {
  try { return require('./node_modules/babylonjs-loaders/package.json').version; } catch (e) { return null; }
})();

const ROOT = __dirname;
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const ASSETS_URL_PREFIX = 'shared-assets/';
const ASSETS_DIR = (() => {
  if (process.env.PARITY_ASSETS) return path.resolve(process.env.PARITY_ASSETS);
  for (const rel of ['../../assets']) {
    const d = path.resolve(ROOT, rel);
    if (fs.existsSync(path.join(d, 'bjs', 'backgroundGround.png'))) return d;
  }
  return null;
})();
const DEFAULT_W = 640, DEFAULT_H = 480;
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  // PARITY_ANGLE=vulkan runs ANGLE on the machine's Vulkan driver instead (e.g. lavapipe through
  // VK_ICD_FILENAMES): an experiment to separate rasterizer differences from maths, not how references are made.
  ...(process.env.PARITY_ANGLE === 'vulkan'
    ? ['--use-angle=vulkan', '--enable-features=Vulkan', '--ignore-gpu-blocklist', '--enable-gpu', '--enable-unsafe-webgpu']
    : ['--use-angle=swiftshader', '--enable-unsafe-swiftshader']),
  '--force-device-scale-factor=1',
  '--disable-gpu-vsync',
  '--disable-frame-rate-limit',
];
const MIME = {
  '.html': 'text/html', '.js': 'text/javascript', '.json': 'application/json', '.png': 'image/png',
  '.dds': 'application/octet-stream', '.env': 'application/octet-stream', '.map': 'application/json',
};

// Files served from ASSETS_DIR since the last reset (path relative to ASSETS_DIR -> sha256), and requests answered 404.
let servedAssets = {};
let notFound = [];
const RENDER_TIMEOUT_MS = 180000;
const sha256Cache = {};
function sha256(file) {
  if (!sha256Cache[file]) sha256Cache[file] = crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
  return sha256Cache[file];
}

function startServer() {
  return new Promise((resolve) => {
    const server = http.createServer((req, res) => {
      const url = new URL(req.url, 'http://x');
      const rel = decodeURIComponent(url.pathname).replace(/^\/+/, '');
      let base = ROOT, relPath = rel, isAsset = false;
      if (rel.startsWith(ASSETS_URL_PREFIX)) {
        if (!ASSETS_DIR) { notFound.push(rel + ' (no assets directory: set PARITY_ASSETS)'); res.writeHead(404); res.end('no PARITY_ASSETS directory'); return; }
        base = ASSETS_DIR; relPath = rel.slice(ASSETS_URL_PREFIX.length); isAsset = true;
      }
      const file = path.resolve(base, relPath);
      if (!file.startsWith(base + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
        if (rel !== 'favicon.ico') notFound.push(rel);
        res.writeHead(404); res.end('not found'); return;
      }
      if (isAsset) servedAssets[path.relative(ASSETS_DIR, file)] = sha256(file);
      res.writeHead(200, { 'Content-Type': MIME[path.extname(file)] || 'application/octet-stream', 'Cache-Control': 'no-store' });
      fs.createReadStream(file).pipe(res);
    });
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

function parseArgs(argv) {
  const o = { positional: [], frames: 0, json: true, all: false, list: false, filter: null, aa: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--frames') o.frames = parseInt(argv[++i], 10);
    else if (a === '--filter') o.filter = new RegExp(argv[++i]);
    else if (a === '--aa') {
      const v = argv[++i];
      if (v !== 'on' && v !== 'off') throw new Error('--aa takes on|off');
      o.aa = v === 'on';
    }
    else if (a === '--no-json') o.json = false;
    else if (a === '--all') o.all = true;
    else if (a === '--list') o.list = true;
    else o.positional.push(a);
  }
  return o;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const server = await startServer();
  const base = `http://127.0.0.1:${server.address().port}`;
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  let failed = 0;
  try {
    const list = async () => {
      const page = await browser.newPage();
      await page.goto(`${base}/harness.html`, { timeout: RENDER_TIMEOUT_MS }); // loads the bundles: slow on a busy machine
      await page.waitForFunction(() => window.harnessLoaded === true, null, { timeout: RENDER_TIMEOUT_MS });
      const names = await page.evaluate(() => Object.keys(window.SCENES));
      await page.close();
      return names;
    };

    let jobs = [];
    if (args.list) { console.log((await list()).join('\n')); return; }
    if (args.all) {
      const [outDir = path.join(ROOT, 'out'), w, h] = args.positional;
      fs.mkdirSync(outDir, { recursive: true });
      jobs = (await list()).filter((n) => !args.filter || args.filter.test(n))
        .map((n) => ({ scene: n, out: path.join(outDir, n + '.png'), w: w ? +w : 0, h: h ? +h : 0 }));
    } else {
      const [scene, out, w, h] = args.positional;
      if (!scene || !out) {
        console.error('usage: node render.js SCENE OUT.png [WIDTH HEIGHT] | --all OUTDIR [W H] | --list');
        process.exitCode = 2; return;
      }
      jobs = [{ scene, out: path.resolve(out), w: w ? +w : 0, h: h ? +h : 0 }];
    }

    // Sizes not given on the command line come from the scene definition (def.width/def.height), else 640x480.
    if (jobs.some((j) => !j.w || !j.h)) {
      const page = await browser.newPage();
      await page.goto(`${base}/harness.html`, { timeout: RENDER_TIMEOUT_MS }); // loads the bundles: slow on a busy machine
      await page.waitForFunction(() => window.harnessLoaded === true, null, { timeout: RENDER_TIMEOUT_MS });
      const sizes = await page.evaluate(() => Object.fromEntries(Object.entries(window.SCENES).map(([n, d]) => [n, [d.width || 0, d.height || 0]])));
      await page.close();
      for (const j of jobs) {
        const [sw, sh] = sizes[j.scene] || [0, 0];
        if (!j.w || !j.h) { j.w = sw || DEFAULT_W; j.h = sh || DEFAULT_H; }
      }
    }

    for (const job of jobs) {
      const t0 = Date.now();
      servedAssets = {};
      notFound = [];
      const context = await browser.newContext({ viewport: { width: Math.max(job.w, 16), height: Math.max(job.h, 16) }, deviceScaleFactor: 1 });
      const page = await context.newPage();
      const log = [];
      const blocked = [];
      page.on('console', (m) => log.push(`[${m.type()}] ${m.text()}`));
      page.on('pageerror', (e) => log.push(`[pageerror] ${e.message}`));
      await page.route('**/*', (route) => {
        const u = route.request().url();
        if (u.startsWith(base + '/') || u.startsWith('data:') || u.startsWith('blob:')) return route.continue();
        blocked.push(u);
        return route.abort('blockedbyclient');
      });
      try {
        await page.goto(`${base}/harness.html`, { timeout: RENDER_TIMEOUT_MS }); // loads the bundles: slow on a busy machine
        await page.waitForFunction(() => window.harnessLoaded === true, null, { timeout: RENDER_TIMEOUT_MS });
        let timer;
        const r = await Promise.race([
          page.evaluate(([s, w, h, f, aa]) => window.renderScene(s, w, h, f, aa), [job.scene, job.w, job.h, args.frames, args.aa]),
          new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`timed out after ${RENDER_TIMEOUT_MS} ms`)), RENDER_TIMEOUT_MS); }),
        ]).finally(() => clearTimeout(timer));
        // A missing file (e.g. an environment texture) would silently give a wrong picture: refuse to write it.
        if (notFound.length) throw new Error(`missing file(s), nothing written: ${notFound.join(', ')}`);
        const rgba = Buffer.from(r.rgbaBase64, 'base64');
        delete r.rgbaBase64;
        const n = r.width * r.height;
        const rgb = Buffer.alloc(n * 3);
        let alphaNot255 = 0, sum = 0, minV = 255, maxV = 0, nonFirst = 0;
        for (let i = 0; i < n; i++) {
          if (rgba[i * 4] !== rgba[0] || rgba[i * 4 + 1] !== rgba[1] || rgba[i * 4 + 2] !== rgba[2]) nonFirst++;
          rgb[i * 3] = rgba[i * 4]; rgb[i * 3 + 1] = rgba[i * 4 + 1]; rgb[i * 3 + 2] = rgba[i * 4 + 2];
          if (rgba[i * 4 + 3] !== 255) alphaNot255++;
          for (let c = 0; c < 3; c++) { const v = rgba[i * 4 + c]; sum += v; if (v < minV) minV = v; if (v > maxV) maxV = v; }
        }
        fs.mkdirSync(path.dirname(job.out), { recursive: true });
        fs.writeFileSync(job.out, encodePNG(r.width, r.height, rgb, 3));
        r.pixelStats = { meanRGB: +(sum / (n * 3)).toFixed(3), min: minV, max: maxV, pixelsWithAlphaNot255: alphaNot255 };
        r.timingMs.wallTotalIncludingPageLoad = Date.now() - t0;
        r.blockedRequests = blocked;
        if (r.usesGltfLoader) r.babylonLoadersVersion = LOADERS_VERSION;
        // Relative to the repository when it is the checkout's assets/ (the
        // JSON is committed); the sha256 in sharedAssetsServed identify the bytes.
        const repoRel = ASSETS_DIR && path.relative(path.resolve(ROOT, '../..'), ASSETS_DIR);
        r.sharedAssetsDir = repoRel && !repoRel.startsWith('..') && !path.isAbsolute(repoRel) ? repoRel
                          : ASSETS_DIR ? 'outside the checkout' : null;
        r.sharedAssetsServed = servedAssets;
        r.consoleLog = log;
        r.chromium = browser.version();
        if (args.json) fs.writeFileSync(job.out.replace(/\.png$/i, '') + '.json', JSON.stringify(r, null, 1) + '\n');
        const warn = [];
        if (blocked.length) warn.push(`${blocked.length} blocked request(s): ${blocked.join(' ')}`);
        if (alphaNot255) warn.push(`${alphaNot255} pixels with alpha!=255`);
        if (nonFirst === 0) warn.push('image is a single flat colour');
        console.log(`${job.scene}: ${path.relative(process.cwd(), job.out)} ${r.width}x${r.height} frames=${r.frames} ` +
          `setup+ready=${r.timingMs.setupAndReady}ms render=${r.timingMs.renderAndReadback}ms wall=${r.timingMs.wallTotalIncludingPageLoad}ms ` +
          `mean=${r.pixelStats.meanRGB}${warn.length ? '  WARN: ' + warn.join('; ') : ''}`);
      } catch (e) {
        failed++;
        console.error(`${job.scene}: FAILED: ${e.message}`);
        for (const l of log.slice(-30)) console.error('   ' + l);
      } finally {
        await context.close();
      }
    }
  } finally {
    await browser.close();
    server.close();
  }
  if (failed) process.exitCode = 1;
}

// anim-export.js reuses the server and the browser settings.
module.exports = { startServer, LOADERS_VERSION, CHROMIUM, CHROMIUM_ARGS, ASSETS_DIR, sha256, served: () => ({ servedAssets, notFound }) };

if (require.main === module) main().catch((e) => { console.error(e); process.exit(1); });
