'use strict';
/*
 * Orrery issue 12 parity scenes: sprites (SpriteManager / Sprite). The shared scene specification follows VERBATIM (the
 * C render tests build the same scenes); Babylon.js's own values are in each render's JSON (constants + computed).
 *
 * # Issue 12 parity scenes — the shared specification (helpers: read, do not change the numbers)
 *
 * These scenes are rendered by Babylon.js 9.35.0 with the repo's parity tool (tools/parity, new file
 * tools/parity/scenes/shadows.js and scenes/sprites.js, written by the parity-reference helper) and by
 * Orrery's render tests (written by the shadow and sprite helpers). Both sides build EXACTLY these
 * scenes. Where a Babylon default is named, the reference helper records Babylon's actual value in the
 * scene's JSON (`constants` + `computed`) so the C side can copy it.
 *
 * Common to every scene: 640x480, MSAA on (harness AA default), clear colour (0.2, 0.2, 0.3, 1),
 * 3 frames, reverse depth OFF (Babylon default) unless the far variant needs it (see below),
 * StandardMaterial everywhere with specularColor (0,0,0) (no highlights) unless stated, image processing
 * at Babylon defaults. A hemispheric fill light 'hemi': direction (0,1,0), intensity 0.25,
 * diffuse (1,1,1), specular (0,0,0), groundColor (0,0,0) is created FIRST in every scene.
 *
 * Variants of every scene NAME:
 *   NAME          at the origin
 *   NAME-far      every position (meshes, light positions, camera target/position, sprite positions)
 *                 offset by (5e6, 0, 5e6) (x and z, as scenes/lite.js OFF()); engine option
 *                 useLargeWorldRendering: true (Babylon's floating origin). Directions unchanged.
 *   NAME-rh       at the origin with scene.useRightHandedSystem = true set in the Scene constructor
 *                 (before anything else), every constant unchanged (as scenes/rh.js does).
 *
 * ## Sprite scenes (sheet: assets/sprites/sheet.png, 256x128, 4x2 cells of 64x64; see
 * ## tools/sprites/make_sheet.py for the cells)
 *
 * Ground: CreateGround('ground', {width: 10, height: 10}) at (0,0,0), diffuse (0.5,0.5,0.5).
 * hemi is the only light in sprite scenes, with intensity 1 instead of 0.25.
 * Camera: ArcRotateCamera('cam', alpha -PI/2, beta 1.2, radius 9, target (0,2,0)), fov 0.8, minZ 0.1,
 *         maxZ 100.
 * SpriteManager('sprites', 'shared-assets/sprites/sheet.png', capacity 64, cellSize 64, scene).
 * Twelve sprites, i = 0..11, created in order, named 's<i>':
 *   position = ((i % 4) * 1.5 - 2.25, 1 + floor(i / 4) * 1.5, ((i * 7) % 3) * 0.8 - 0.8)
 *   cellIndex = i % 8
 *   size = 1.2 (width = height = 1.2), except i = 5: width 2.0, height 1.0
 *   angle = 0.35 * i for odd i, 0 for even i
 *   invertU = (i % 5 == 0) -> i = 0, 5, 10; invertV = (i == 7)
 *   color = (1,1,1,1) except i % 4 == 3: (1, 0.6, 0.6, 0.8)
 * Plus sprite 's12' cellIndex 3, position (0.3, 2.4, 1.6) (in front, overlapping s5/s6 for sorting),
 *   size 1.5, color (1,1,1,1).
 * sprite-facing: the manager at Babylon defaults (alpha-blended, depth-sorted, blendMode ALPHA).
 * sprite-cutout: the same sprites, drawn as cutout sprites with alpha test in the opaque pass: the
 *   reference helper finds Babylon's way (e.g. SpriteManager/SpriteRenderer blendMode = ALPHA_DISABLE
 *   with its alpha-test discard; record which property and which alpha cutoff Babylon uses) and writes it
 *   into the scene's JSON constants; the sprite helper matches that cutoff.
 * Sprite animation (not in a reference image): playAnimation(from 0, to 7, loop true, delay 100 ms)
 *   on a sprite — frame index after t ms must match Babylon's rule (the reference helper may export a
 *   table of (t, cellIndex) from Babylon into tests/data/parity/sprite-anim.json).
 *
 * Reference files: tests/data/parity/<scene>[-far|-rh].png plus the .json of each render.
 * *
 * ---- Implementation notes (this file) ----
 * Variants: NAME (origin), NAME-far (ground, camera target and sprite positions + (5e6, 0, 5e6), engine option
 * useLargeWorldRendering: true, reverse depth off), NAME-rh (scene.useRightHandedSystem = true right after new Scene).
 * Creation order: scene, clearColor, camera, hemi, ground (+ material), SpriteManager, sprites s0..s12.
 * The sheet is the repository's assets/sprites/sheet.png, served as shared-assets/sprites/sheet.png.
 * CUTOUT_FINDINGS below records how Babylon.js 9.35.0 draws sprites (read in babylon.max.js, SpriteRenderer.render and
 * the "sprites" GLSL); the JSON's computed.manager records the manager's state after the render.
 */
(function () {
  const COMMON = {
    SOURCE: 'Orrery issue 12 (sprites); the shared scene specification in this file\'s header',
    WIDTH: 640, HEIGHT: 480, ANTIALIAS: true, FRAMES: 3, CLEAR_COLOR: [0.2, 0.2, 0.3, 1], REVERSE_DEPTH: false,
    FAR_OFFSET: 5e6,
    HEMI: { name: 'hemi', direction: [0, 1, 0], intensity: 1, diffuse: [1, 1, 1], specular: [0, 0, 0], groundColor: [0, 0, 0] },
    GROUND: { name: 'ground', options: { width: 10, height: 10 }, position: [0, 0, 0], diffuse: [0.5, 0.5, 0.5], specular: [0, 0, 0] },
    CAMERA: { type: 'ArcRotateCamera', name: 'cam', alpha: -Math.PI / 2, beta: 1.2, radius: 9, target: [0, 2, 0], fov: 0.8, minZ: 0.1, maxZ: 100 },
    MANAGER: { name: 'sprites', url: 'shared-assets/sprites/sheet.png', capacity: 64, cellSize: 64 /* epsilon, samplingMode: Babylon defaults */ },
    SHEET: { file: 'assets/sprites/sheet.png', width: 256, height: 128, columns: 4, rows: 2, cell: 64 },
    IMAGE_PROCESSING: 'Babylon defaults (scene.imageProcessingConfiguration untouched)',
  };
  const SPRITES = spriteList();
  /*
   * CUTOUT_FINDINGS (Babylon.js 9.35.0, SpriteRenderer.render and the "sprites" shaders in babylon.max.js):
   *  - Sprites are drawn per manager after the opaque and alpha-test meshes and before transparent meshes
   *    (RenderingGroup.render: opaque, alphaTest, sprites, particles, transparent), in the manager's array order:
   *    Babylon does NOT depth-sort sprites.
   *  - The fragment shader has `uniform bool alphaTest`: when set, `if (texture(diffuseSampler, uv).a < 0.95) discard;`
   *    BEFORE the colour multiplies (`color *= vColor`): the cutoff is 0.95 and applies to the sheet's texel alpha only
   *    (a sprite colour alpha of 0.8 does not make it fail).
   *  - If disableDepthWrite is false (the default), each frame first draws all sprites with alphaTest = true and
   *    colour writes off (a depth-only pre-pass: depth written where texel alpha >= 0.95), then draws them again with
   *    alphaTest = false, blendMode (default ALPHA_COMBINE: src·a + dst·(1-a)) and depth test LEQUAL (GEQUAL with reverse
   *    depth); setAlphaMode turns depth writes off for any blend mode but ALPHA_DISABLE. So default sprites are
   *    "cutout in depth, blended in colour": texels of alpha >= 0.95 occlude later sprites and the transparent parts
   *    of a sprite show what was drawn before it. With disableDepthWrite = true there is no pre-pass.
   *  - No SpriteManager/SpriteRenderer property runs the alpha test in the colour pass. blendMode = ALPHA_DISABLE
   *    only makes the colour pass unblended with depth writes: whole quads, the sheet's RGB in the transparent parts
   *    (scene sprite-alphadisable, kept as evidence).
   *  - Geometry (the "sprites" vertex shader): view-space billboard, viewPos = view·position, then
   *    corner = (offset - 0.5)·(width, height) rotated by angle in the view plane and added to viewPos.xy; offset is
   *    (epsilon or 1-epsilon) per corner with the manager's epsilon (0.01): the quad spans 0.98·size, and its UVs
   *    span epsilon..1-epsilon of the cell: uv = cellOrigin + cellSize·(|offset.x - invU|, |1 - offset.y - invV|),
   *    invU = invertU in a left-handed scene and !invertU in a right-handed one. The sheet texture: no mipmaps,
   *    TRILINEAR sampling mode (so bilinear), clamp, invertY false.
   *  sprite-cutout therefore uses Babylon's own sprite shader and cutoff with the alphaTest uniform forced to true in
   *  the colour pass too (Effect.setBool patched for the sprite effect only; see forceAlphaTest) and blendMode =
   *  ALPHA_DISABLE: the colour pass is opaque, discards texel alpha < 0.95 and writes depth (an opaque cutout pass).
   */
  const VARIANTS = {
    'sprite-facing': { manager: {} },
    'sprite-cutout': { manager: { blendMode: 'ALPHA_DISABLE', forceAlphaTestInColourPass: true } },
  };
  const EVIDENCE = { 'sprite-alphadisable': { manager: { blendMode: 'ALPHA_DISABLE' } } };

  // Forces the sprite effect's alphaTest uniform on (both of Babylon's sprite draws then discard texel alpha < 0.95).
  let setBoolPatched = false;
  function forceAlphaTest(scene, mgr) {
    if (!setBoolPatched) {
      const orig = BABYLON.Effect.prototype.setBool;
      BABYLON.Effect.prototype.setBool = function (name, v) {
        return orig.call(this, name, name === 'alphaTest' && this.__orrForceAlphaTest ? true : v);
      };
      setBoolPatched = true;
    }
    scene.onBeforeSpritesRenderingObservable.add(() => {
      for (const c of mgr.spriteRenderer._drawCaches) if (c && c.drawWrapperBase.effect) c.drawWrapperBase.effect.__orrForceAlphaTest = true;
    });
  }

  function spriteList() {
    const out = [];
    for (let i = 0; i < 12; i++) {
      out.push({
        name: 's' + i,
        position: [(i % 4) * 1.5 - 2.25, 1 + Math.floor(i / 4) * 1.5, ((i * 7) % 3) * 0.8 - 0.8],
        cellIndex: i % 8,
        width: i === 5 ? 2.0 : 1.2, height: i === 5 ? 1.0 : 1.2,
        angle: i % 2 === 1 ? 0.35 * i : 0,
        invertU: i % 5 === 0, invertV: i === 7,
        color: i % 4 === 3 ? [1, 0.6, 0.6, 0.8] : [1, 1, 1, 1],
      });
    }
    out.push({ name: 's12', position: [0.3, 2.4, 1.6], cellIndex: 3, width: 1.5, height: 1.5, angle: 0, invertU: false, invertV: false, color: [1, 1, 1, 1] });
    return out;
  }

  const OFF = (o, p) => new BABYLON.Vector3(o + p[0], p[1], o + p[2]);
  const mat = (m) => Array.from(m.m);

  function build(engine, V, o, rightHanded) {
    const scene = new BABYLON.Scene(engine);
    if (rightHanded) scene.useRightHandedSystem = true; // before anything else exists
    scene.clearColor = C4(COMMON.CLEAR_COLOR);
    const C = COMMON.CAMERA;
    const cam = new BABYLON.ArcRotateCamera(C.name, C.alpha, C.beta, C.radius, OFF(o, C.target), scene);
    cam.inertia = 0;
    cam.fov = C.fov;
    cam.minZ = C.minZ;
    cam.maxZ = C.maxZ;
    const H = COMMON.HEMI;
    const hemi = new BABYLON.HemisphericLight(H.name, V3(H.direction), scene);
    hemi.intensity = H.intensity;
    hemi.diffuse = C3(H.diffuse);
    hemi.specular = C3(H.specular);
    hemi.groundColor = C3(H.groundColor);
    const G = COMMON.GROUND;
    const ground = BABYLON.MeshBuilder.CreateGround(G.name, G.options, scene);
    ground.position = OFF(o, G.position);
    const gm = new BABYLON.StandardMaterial('groundMat', scene);
    gm.diffuseColor = C3(G.diffuse);
    gm.specularColor = C3(G.specular);
    ground.material = gm;
    const M = COMMON.MANAGER;
    const mgr = new BABYLON.SpriteManager(M.name, M.url, M.capacity, M.cellSize, scene);
    if (V.manager.blendMode) mgr.blendMode = BABYLON.Constants[V.manager.blendMode];
    if (V.manager.disableDepthWrite !== undefined) mgr.disableDepthWrite = V.manager.disableDepthWrite;
    if (V.manager.forceAlphaTestInColourPass) forceAlphaTest(scene, mgr);
    for (const S of SPRITES) {
      const s = new BABYLON.Sprite(S.name, mgr);
      s.position = OFF(o, S.position);
      s.cellIndex = S.cellIndex;
      s.width = S.width;
      s.height = S.height;
      s.angle = S.angle;
      s.invertU = S.invertU;
      s.invertV = S.invertV;
      s.color = C4(S.color);
    }
    scene.__sprites = mgr;
    scene.__forced = !!V.manager.forceAlphaTestInColourPass;
    return scene;
  }

  // The alpha-test cutoff in Babylon's sprite fragment shader ("if (color.a<X) discard;").
  function alphaTestCutoff() {
    const src = BABYLON.ShaderStore.ShadersStore.spritesPixelShader || '';
    const m = /if \(color\.a<([0-9.]+)\)/.exec(src);
    return m ? +m[1] : null;
  }

  function nameOf(v) {
    return Object.keys(BABYLON.Constants).find((n) => n.startsWith('ALPHA_') && !n.startsWith('ALPHA_EQUATION') && BABYLON.Constants[n] === v) || null;
  }

  function describe(scene) {
    const cam = scene.activeCamera;
    const mgr = scene.__sprites;
    const r = mgr.spriteRenderer;
    const tex = mgr.texture;
    const off = scene.floatingOriginOffset || new BABYLON.Vector3(0, 0, 0);
    return {
      floatingOriginOffset: v3arr(off),
      camera: { position: v3arr(cam.position), target: v3arr(cam.getTarget()), viewMatrix: mat(cam.getViewMatrix()), projectionMatrix: mat(cam.getProjectionMatrix()) },
      manager: {
        blendMode: mgr.blendMode, blendModeName: nameOf(mgr.blendMode), disableDepthWrite: mgr.disableDepthWrite,
        depthPrePassWithAlphaTest: !mgr.disableDepthWrite, alphaTestInColourPass: !!scene.__forced, alphaTestCutoff: alphaTestCutoff(), alphaTestOn: 'texture alpha before the sprite colour multiplies it',
        autoResetAlpha: r.autoResetAlpha, fogEnabled: mgr.fogEnabled, pixelPerfect: mgr.pixelPerfect, useLogarithmicDepth: mgr.useLogarithmicDepth,
        epsilon: r._epsilon,
        geometry: 'corner = (offset - 0.5) * (width, height), offset in {epsilon, 1 - epsilon}, rotated by angle in view space; uv = cellOrigin + cellSize * (|offset.x - invU|, |1 - offset.y - invV|), invU = rightHanded ? !invertU : invertU',
        drawOrder: 'manager array order (no depth sort), after opaque and alpha-test meshes, before transparent meshes',
        useInstancing: r._useInstancing, cellWidth: mgr.cellWidth, cellHeight: mgr.cellHeight,
        renderingGroupId: mgr.renderingGroupId, capacity: r.capacity, isPickable: mgr.isPickable,
        texture: {
          url: tex.url, size: tex.getSize(), baseSize: tex.getBaseSize(), samplingMode: tex.samplingMode, noMipmap: tex.noMipmap,
          invertY: tex.invertY, wrapU: tex.wrapU, wrapV: tex.wrapV, hasAlpha: tex.hasAlpha, gammaSpace: tex.gammaSpace,
        },
      },
      sprites: mgr.sprites.map((s) => ({
        name: s.name, position: v3arr(s.position), cellIndex: s.cellIndex, width: s.width, height: s.height, angle: s.angle,
        invertU: s.invertU, invertV: s.invertV, color: [s.color.r, s.color.g, s.color.b, s.color.a],
        uvOffset: [s._xOffset, s._yOffset], cellPixels: [s._xSize, s._ySize],
      })),
      drawOrder: mgr.sprites.map((s) => s.name),
      activeMeshes: scene.getActiveMeshes().length,
    };
  }

  function register(name, V, variant) {
    const o = variant === 'far' ? COMMON.FAR_OFFSET : 0;
    const engineOptions = variant === 'far' ? { useLargeWorldRendering: true } : {};
    registerScene(variant ? name + '-' + variant : name, {
      width: COMMON.WIDTH, height: COMMON.HEIGHT, antialias: COMMON.ANTIALIAS, frames: COMMON.FRAMES,
      engineOptions,
      constants: Object.assign({}, COMMON, {
        SCENE: name, VARIANT: variant || 'origin', OFFSET: o, ENGINE_OPTIONS: engineOptions, useRightHandedSystem: variant === 'rh',
        SPRITES, MANAGER_SETTINGS: V.manager,
      }),
      create: (engine) => build(engine, V, o, variant === 'rh'),
      describeAfterRender: describe,
    });
  }

  for (const [name, V] of Object.entries(VARIANTS)) for (const v of [null, 'far', 'rh']) register(name, V, v);
  for (const [name, V] of Object.entries(EVIDENCE)) register(name, V, null);
  /*
   * Sprite animation export (sprite-anim-export.js). Drives Babylon's own path deterministically: a scene with the
   * sprite manager (the sheet above) and one sprite per sequence; engine.getDeltaTime is replaced by a function
   * returning the sequence's fixed dt (ms), and each frame is one scene.render(), in which SpriteManager.render passes
   * getDeltaTime() to SpriteRenderer.render, which calls sprite._animate(dt) once per sprite per frame before
   * building the sprite's vertices. After each frame the sample is (elapsedMs = frames * dt, cellIndex as drawn in
   * that frame, animationStarted). Frame 0 is the state right after playAnimation (nothing rendered yet).
   */
  async function exportAnimation(sequences) {
    const canvas = document.getElementById('c');
    canvas.width = 64; canvas.height = 64;
    const engine = new BABYLON.Engine(canvas, false, { preserveDrawingBuffer: true, audioEngine: false }, false);
    const scene = new BABYLON.Scene(engine);
    new BABYLON.ArcRotateCamera('cam', -Math.PI / 2, Math.PI / 2, 5, BABYLON.Vector3.Zero(), scene);
    const mgr = new BABYLON.SpriteManager('anim', COMMON.MANAGER.url, 8, COMMON.MANAGER.cellSize, scene);
    const warm = new BABYLON.Sprite('warm', mgr);
    await scene.whenReadyAsync();
    scene.render();
    warm.dispose();
    const out = [];
    for (const q of sequences) {
      const sp = new BABYLON.Sprite('anim-' + out.length, mgr);
      let ended = null, frame = 0;
      sp.playAnimation(q.from, q.to, q.loop, q.delay, () => { ended = frame; });
      const samples = [{ frame: 0, elapsedMs: 0, cellIndex: sp.cellIndex, animationStarted: sp.animationStarted }];
      engine.getDeltaTime = () => q.dtMs;
      for (frame = 1; frame <= q.frames; frame++) {
        scene.render();
        samples.push({ frame, elapsedMs: frame * q.dtMs, cellIndex: sp.cellIndex, animationStarted: sp.animationStarted });
      }
      out.push(Object.assign({}, q, { endCallbackFrame: ended, samples }));
      sp.dispose();
    }
    scene.dispose();
    engine.dispose();
    return { babylonVersion: BABYLON.Engine.Version, sequences: out };
  }

  window.SPRITE_SCENES = { COMMON, SPRITES, VARIANTS, exportAnimation };
})();
