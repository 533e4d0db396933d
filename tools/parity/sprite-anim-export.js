#!/usr/bin/env node
'use strict';
/*
 * Babylon.js's sprite frame animation rule as sampled tables, for Orrery's sprite tests (issue 12: "sprite
 * animation frames ... against CPU references").
 *
 *   node sprite-anim-export.js [OUTDIR]        default OUTDIR: ../../tests/data/parity
 *
 * Writes OUTDIR/sprite-anim.json: for each sequence (Sprite.playAnimation(from, to, loop, delay) driven by scene.render()
 * frames of a fixed delta time), the sprite's cellIndex after every frame. The page side is
 * window.SPRITE_SCENES.exportAnimation in scenes/sprites.js (engine.getDeltaTime replaced by a constant, so the run is
 * deterministic). The script also checks every sample against RULE below, re-implemented here, and records the result.
 * Same server, chromium and asset directory as render.js.
 */
const fs = require('fs');
const path = require('path');
const { chromium } = require('playwright-core');
const R = require('./render.js');

const SEQUENCES = [
  { name: 'loop-0-7-100ms-dt16', from: 0, to: 7, loop: true, delay: 100, dtMs: 16, frames: 125 },
  { name: 'once-0-7-100ms-dt16', from: 0, to: 7, loop: false, delay: 100, dtMs: 16, frames: 70 },
  { name: 'loop-0-7-100ms-dt50', from: 0, to: 7, loop: true, delay: 100, dtMs: 50, frames: 40 },
  { name: 'loop-0-7-100ms-dt250', from: 0, to: 7, loop: true, delay: 100, dtMs: 250, frames: 12 },
  { name: 'loop-2-5-100ms-dt16', from: 2, to: 5, loop: true, delay: 100, dtMs: 16, frames: 60 },
  { name: 'reverse-once-7-0-100ms-dt16', from: 7, to: 0, loop: false, delay: 100, dtMs: 16, frames: 70 },
];

const RULE = [
  'playAnimation(from, to, loop, delay): cellIndex = from, time = 0, started; if from > to the range is [to, from] and the direction is -1.',
  'Every frame (once per sprite, in SpriteRenderer.render before the sprite is drawn), with dt = engine.getDeltaTime() in ms:',
  '  time += dt; if (time > delay) { time = time % delay; cellIndex += direction;',
  '    if it went past the range end: loop ? cellIndex = range start (direction +1: from; -1: the larger index)',
  '                                   : cellIndex = range end, stopped, onAnimationEnd called }',
  'At most ONE cell per frame, whatever dt is (dt = 250 with delay 100 still steps one cell; the remainder time % delay is kept).',
  'The comparison is strict (time > delay): with dt = 20 and delay 100 the first step comes in frame 6, not 5.',
].join('\n');

function simulate(q) {
  let lo = q.from, hi = q.to, dir = 1;
  if (q.from > q.to) { dir = -1; lo = q.to; hi = q.from; }
  let cell = q.from, time = 0, started = true;
  const out = [{ frame: 0, cellIndex: cell, animationStarted: started }];
  for (let f = 1; f <= q.frames; f++) {
    if (started) {
      time += q.dtMs;
      if (time > q.delay) {
        time %= q.delay;
        cell += dir;
        if ((dir > 0 && cell > hi) || (dir < 0 && cell < lo)) {
          if (q.loop) cell = dir > 0 ? lo : hi;
          else { cell = dir > 0 ? hi : lo; started = false; }
        }
      }
    }
    out.push({ frame: f, cellIndex: cell, animationStarted: started });
  }
  return out;
}

async function main() {
  const outDir = path.resolve(process.argv[2] || path.join(__dirname, '../../tests/data/parity'));
  if (!R.ASSETS_DIR) throw new Error('no assets directory (set PARITY_ASSETS)');
  const server = await R.startServer();
  const base = `http://127.0.0.1:${server.address().port}`;
  const browser = await chromium.launch({ executablePath: R.CHROMIUM, headless: true, args: R.CHROMIUM_ARGS });
  try {
    const page = await browser.newPage();
    const log = [];
    page.on('console', (m) => log.push(`[${m.type()}] ${m.text()}`));
    page.on('pageerror', (e) => log.push(`[pageerror] ${e.message}`));
    await page.route('**/*', (route) => (route.request().url().startsWith(base + '/') ? route.continue() : route.abort('blockedbyclient')));
    await page.goto(`${base}/harness.html`, { timeout: 180000 });
    await page.waitForFunction(() => window.harnessLoaded === true, null, { timeout: 180000 });
    const r = await page.evaluate((seq) => window.SPRITE_SCENES.exportAnimation(seq), SEQUENCES);
    await page.close();
    const { notFound } = R.served();
    if (notFound.length) throw new Error('missing file(s): ' + notFound.join(', '));
    let mismatches = 0;
    for (const s of r.sequences) {
      const sim = simulate(s);
      s.samples.forEach((x, i) => { if (x.cellIndex !== sim[i].cellIndex || x.animationStarted !== sim[i].animationStarted) mismatches++; });
    }
    const out = {
      babylonVersion: r.babylonVersion,
      chromium: browser.version(),
      tool: 'tools/parity/sprite-anim-export.js (page side: SPRITE_SCENES.exportAnimation in tools/parity/scenes/sprites.js)',
      method: 'one SpriteManager (assets/sprites/sheet.png, cell 64) in a scene; per sequence a new Sprite, playAnimation(from, to, loop, delay, onEnd); engine.getDeltaTime replaced by () => dtMs; then `frames` calls of scene.render() (SpriteManager.render -> SpriteRenderer.render -> sprite._animate(dt)); cellIndex read after each frame (= the cell drawn in that frame). Frame 0 = right after playAnimation. elapsedMs = frame * dtMs.',
      rule: RULE,
      ruleCheck: { mismatches, note: 'every sample compared with the rule re-implemented in sprite-anim-export.js (simulate)' },
      consoleLog: log,
      sequences: r.sequences,
    };
    fs.mkdirSync(outDir, { recursive: true });
    const file = path.join(outDir, 'sprite-anim.json');
    fs.writeFileSync(file, JSON.stringify(out, null, 1) + '\n');
    console.log(`${path.relative(process.cwd(), file)}: ${out.sequences.length} sequences, rule mismatches ${mismatches}`);
  } finally {
    await browser.close();
    server.close();
  }
}

main().catch((e) => { console.error(e); process.exit(1); });
