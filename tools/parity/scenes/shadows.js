'use strict';
/*
 * Orrery issue 12 parity scenes: shadows (ShadowGenerator PCF directional and spot, blurred ESM, hard point-light cube
 * map, CascadedShadowGenerator).
 * The shared scene specification follows VERBATIM (the C render tests build the same scenes); Babylon.js's own
 * values for every default it names are in each render's JSON (constants + computed).
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
 * ## Shadow scenes (SHADOW_SET geometry shared by shadow-dir-pcf, shadow-spot, shadow-esm)
 *
 * Meshes (MeshBuilder, in this order):
 *   ground   CreateGround('ground', {width: 30, height: 30}), position (0,0,0), diffuse (0.85,0.85,0.85),
 *            receiveShadows = true, NOT a caster
 *   box      CreateBox('box', {size: 2}), position (0,1,0), diffuse (0.9,0.35,0.25), caster + receiver
 *   sphere   CreateSphere('sphere', {diameter: 2, segments: 32}), position (-3.5,2.5,1.5),
 *            diffuse (0.3,0.6,0.9), caster + receiver
 *   pillar   CreateBox('pillar', {width: 0.5, height: 5, depth: 0.5}), position (3,2.5,-2),
 *            diffuse (0.4,0.8,0.4), caster + receiver
 * Camera: ArcRotateCamera('cam', alpha -2.2, beta 1.0, radius 22, target (0,0.5,0)), fov 0.8, minZ 0.5,
 *         maxZ 200.
 *
 * shadow-dir-pcf: DirectionalLight 'sun' direction (-1,-2,-1.5), position (10,20,15), intensity 0.9,
 *         diffuse (1,1,1), specular (0,0,0). ShadowGenerator(1024, sun): usePercentageCloserFiltering =
 *         true, filteringQuality Babylon default (QUALITY_HIGH), bias/normalBias/darkness Babylon
 *         defaults; casters: box, sphere, pillar (addShadowCaster). autoUpdateExtends / shadowMinZ /
 *         shadowMaxZ Babylon defaults (record the ortho extents and the light view/projection Babylon
 *         computed in the JSON's computed block).
 * shadow-spot: SpotLight 'spot' position (4,9,-6), direction (-4,-9,6), angle PI/2.5, exponent 2,
 *         intensity 1.2, diffuse (1,1,1), specular (0,0,0). ShadowGenerator(1024, spot):
 *         usePercentageCloserFiltering = true, filteringQuality = QUALITY_MEDIUM, bias = 0.0005.
 *         Same casters. (Record the spot's shadow projection: Babylon uses angle, shadowMinZ/MaxZ defaults.)
 * shadow-point (added after the shared specification, same conventions): PointLight 'point' position (-6.5,3.5,2.5)
 *         (on the ground's far side of the sphere: the sphere shadows the box and the pillar, the box the pillar,
 *         all three the ground, radially), intensity 0.9, diffuse (1,1,1), specular (0,0,0),
 *         range Babylon default. ShadowGenerator(1024, point): filter FILTER_NONE (Babylon's default; hard compare
 *         against the cube map's stored normalised distance — Babylon turns PCF on a cube map into Poisson
 *         sampling, which Orrery does not have), bias/normalBias/darkness Babylon defaults. Same casters.
 * shadow-esm: the sun of shadow-dir-pcf. ShadowGenerator(1024, sun): useBlurExponentialShadowMap = true,
 *         useKernelBlur = true, blurKernel = 32, depthScale Babylon default (50). Same casters.
 *
 * ## shadow-csm (cascades over a long ground)
 *
 * Meshes: ground CreateGround('ground', {width: 30, height: 400}) position (0,0,-180), diffuse
 *   (0.85,0.85,0.85), receiveShadows; boxes CreateBox({size: 2}) named 'b<i>' at x = -4 and x = +4,
 *   z = 0, -15, -30, ..., -180 (13 rows, 26 boxes; for each z the x=-4 box first), y = 1,
 *   diffuse (0.9,0.35,0.25), caster + receiver.
 * Camera: UniversalCamera('cam', position (0,4,12)), setTarget((0,0,-60)), fov 0.8, minZ 0.5, maxZ 250.
 * Light: DirectionalLight 'sun' direction (-1,-1.5,-0.5), position (20,30,10), intensity 0.9,
 *   specular (0,0,0).
 * CascadedShadowGenerator(1024, sun): numCascades = 4, lambda = 0.7, stabilizeCascades = true,
 *   cascadeBlendPercentage = 0.1, shadowMaxZ = 200, usePercentageCloserFiltering = true,
 *   filteringQuality = QUALITY_MEDIUM, autoCalcDepthBounds = false, depthClamp Babylon default;
 *   every box a caster (getShadowMap().renderList or addShadowCaster).
 *   Record in the JSON: the cascade split distances and each cascade's view and projection matrix
 *   (getCascadeViewMatrix(i), getCascadeProjectionMatrix(i), getCascadeTransformMatrix(i)) and the
 *   frustum lengths.
 * *
 * ---- Implementation notes (this file) ----
 * Variants: NAME (origin), NAME-far (every position + (5e6, 0, 5e6), engine option useLargeWorldRendering: true,
 * reverse depth still off), NAME-rh (scene.useRightHandedSystem = true right after new Scene, before anything
 * else exists). Creation order: scene, clearColor, camera, hemi, the shadow light, meshes (+ materials), generator.
 * The JSON's computed block records (after the 3 frames): the camera's view/projection; the light's position,
 * direction, shadowMinZ/shadowMaxZ (undefined = Babylon uses the active camera's minZ/maxZ), getDepthMinZ/MaxZ,
 * the directional light's ortho extents (_orthoLeft/Right/Top/Bottom, computed by autoUpdateExtends from the casters),
 * the spot's shadowAngleScale; the generator's class, filter, filteringQuality, bias, normalBias, darkness,
 * frustumEdgeFalloff, depthScale, blur settings, map size, view/projection/transform (getTransformMatrix()) and the
 * eye-relative light matrix the shader gets under floating origin (lightMatrixEyeRelative = T(offset)·view·proj,
 * evaluated in JS doubles; equals transform at the origin); the PCF kernel's tap count read from the shader include
 * (pcfShader), and for CSM the split distances (viewSpaceFrustumsZ), frustum lengths, each cascade's
 * break distances and view/projection/transform matrices.
 */
(function () {
  const COMMON = {
    SOURCE: 'Orrery issue 12 (shadows); the shared scene specification in this file\'s header',
    WIDTH: 640, HEIGHT: 480, ANTIALIAS: true, FRAMES: 3, CLEAR_COLOR: [0.2, 0.2, 0.3, 1], REVERSE_DEPTH: false,
    FAR_OFFSET: 5e6, // added to x and z of every position in the -far variants
    HEMI: { name: 'hemi', direction: [0, 1, 0], intensity: 0.25, diffuse: [1, 1, 1], specular: [0, 0, 0], groundColor: [0, 0, 0] },
    MATERIAL: 'StandardMaterial, specularColor (0,0,0), diffuseColor per mesh, everything else Babylon default',
    IMAGE_PROCESSING: 'Babylon defaults (scene.imageProcessingConfiguration untouched)',
  };
  const SHADOW_SET = {
    MESHES: [
      { name: 'ground', kind: 'ground', options: { width: 30, height: 30 }, position: [0, 0, 0], diffuse: [0.85, 0.85, 0.85], receive: true, cast: false },
      { name: 'box', kind: 'box', options: { size: 2 }, position: [0, 1, 0], diffuse: [0.9, 0.35, 0.25], receive: true, cast: true },
      { name: 'sphere', kind: 'sphere', options: { diameter: 2, segments: 32 }, position: [-3.5, 2.5, 1.5], diffuse: [0.3, 0.6, 0.9], receive: true, cast: true },
      { name: 'pillar', kind: 'box', options: { width: 0.5, height: 5, depth: 0.5 }, position: [3, 2.5, -2], diffuse: [0.4, 0.8, 0.4], receive: true, cast: true },
    ],
    CAMERA: { type: 'ArcRotateCamera', name: 'cam', alpha: -2.2, beta: 1.0, radius: 22, target: [0, 0.5, 0], fov: 0.8, minZ: 0.5, maxZ: 200 },
  };
  const SUN = { type: 'DirectionalLight', name: 'sun', direction: [-1, -2, -1.5], position: [10, 20, 15], intensity: 0.9, diffuse: [1, 1, 1], specular: [0, 0, 0] };
  const SCENES = {
    'shadow-dir-pcf': {
      set: SHADOW_SET, light: SUN,
      generator: { class: 'ShadowGenerator', mapSize: 1024, usePercentageCloserFiltering: true /* filteringQuality, bias, normalBias, darkness: Babylon defaults */ },
    },
    'shadow-spot': {
      set: SHADOW_SET,
      light: { type: 'SpotLight', name: 'spot', position: [4, 9, -6], direction: [-4, -9, 6], angle: Math.PI / 2.5, exponent: 2, intensity: 1.2, diffuse: [1, 1, 1], specular: [0, 0, 0] },
      generator: { class: 'ShadowGenerator', mapSize: 1024, usePercentageCloserFiltering: true, filteringQuality: 'QUALITY_MEDIUM', bias: 0.0005 },
    },
    'shadow-point': {
      set: SHADOW_SET,
      light: { type: 'PointLight', name: 'point', position: [-6.5, 3.5, 2.5], intensity: 0.9, diffuse: [1, 1, 1], specular: [0, 0, 0] },
      generator: { class: 'ShadowGenerator', mapSize: 1024, filter: 'FILTER_NONE' /* bias, normalBias, darkness: Babylon defaults */ },
    },
    // Added 2026-12-03 (decision 72): Babylon's point-light filters. usePercentageCloserFiltering on a cube map becomes
    // usePoissonSampling (4 taps, bilinear map); useBlurExponentialShadowMap becomes useExponentialShadowMap (no blur).
    'shadow-point-pcf': {
      set: SHADOW_SET,
      light: { type: 'PointLight', name: 'point', position: [-6.5, 3.5, 2.5], intensity: 0.9, diffuse: [1, 1, 1], specular: [0, 0, 0] },
      generator: { class: 'ShadowGenerator', mapSize: 1024, usePercentageCloserFiltering: true },
    },
    'shadow-point-esm': {
      set: SHADOW_SET,
      light: { type: 'PointLight', name: 'point', position: [-6.5, 3.5, 2.5], intensity: 0.9, diffuse: [1, 1, 1], specular: [0, 0, 0] },
      generator: { class: 'ShadowGenerator', mapSize: 1024, useBlurExponentialShadowMap: true },
    },
    // Added 2026-12-03 (decision 73): soft transparent shadows. The sun and PCF of shadow-dir-pcf; the box at alpha 0.5
    // and the sphere at alpha 0.25 (blended, so they cast only with transparencyShadow), the pillar opaque.
    'shadow-soft': {
      set: {
        MESHES: SHADOW_SET.MESHES.map((M) => Object.assign({}, M, M.name === 'box' ? { alpha: 0.5 } : M.name === 'sphere' ? { alpha: 0.25 } : {})),
        CAMERA: SHADOW_SET.CAMERA,
      },
      light: SUN,
      generator: { class: 'ShadowGenerator', mapSize: 1024, usePercentageCloserFiltering: true, transparencyShadow: true, enableSoftTransparentShadow: true },
    },
    // Added 2026-12-03 (decision 74): ShadowDepthWrapper. shadow-dir-pcf with the box under a ShaderMaterial whose vertex
    // stage stretches x by 2 (magenta, unlit) and a ShadowDepthWrapper: its shadow is the stretched box's. Origin and rh only.
    'shadow-wrapper': {
      set: {
        MESHES: SHADOW_SET.MESHES.map((M) => Object.assign({}, M, M.name === 'box' ? { shader: 'wrapped', stretch: 2 } : {})),
        CAMERA: SHADOW_SET.CAMERA,
      },
      light: SUN,
      generator: { class: 'ShadowGenerator', mapSize: 1024, usePercentageCloserFiltering: true },
      variants: [null, 'rh'],
    },
    'shadow-esm': {
      set: SHADOW_SET, light: SUN,
      generator: { class: 'ShadowGenerator', mapSize: 1024, useBlurExponentialShadowMap: true, useKernelBlur: true, blurKernel: 32 /* depthScale: Babylon default */ },
    },
    'shadow-csm': {
      set: {
        MESHES: [{ name: 'ground', kind: 'ground', options: { width: 30, height: 400 }, position: [0, 0, -180], diffuse: [0.85, 0.85, 0.85], receive: true, cast: false }]
          .concat(csmBoxes()),
        CAMERA: { type: 'UniversalCamera', name: 'cam', position: [0, 4, 12], target: [0, 0, -60], fov: 0.8, minZ: 0.5, maxZ: 250 },
      },
      light: { type: 'DirectionalLight', name: 'sun', direction: [-1, -1.5, -0.5], position: [20, 30, 10], intensity: 0.9, diffuse: [1, 1, 1], specular: [0, 0, 0] },
      generator: {
        class: 'CascadedShadowGenerator', mapSize: 1024, numCascades: 4, lambda: 0.7, stabilizeCascades: true, cascadeBlendPercentage: 0.1,
        shadowMaxZ: 200, usePercentageCloserFiltering: true, filteringQuality: 'QUALITY_MEDIUM', autoCalcDepthBounds: false, /* depthClamp: Babylon default */
      },
    },
  };

  // 13 rows (z = 0, -15, ..., -180), x = -4 then +4, named b0..b25 in creation order.
  function csmBoxes() {
    const out = [];
    for (let r = 0; r < 13; r++) {
      for (const x of [-4, 4]) out.push({ name: 'b' + out.length, kind: 'box', options: { size: 2 }, position: [x, 1, -15 * r], diffuse: [0.9, 0.35, 0.25], receive: true, cast: true });
    }
    return out;
  }

  const OFF = (o, p) => new BABYLON.Vector3(o + p[0], p[1], o + p[2]);
  const mat = (m) => Array.from(m.m);

  // a·b for Babylon's row-major arrays (row vectors: v' = v·M), in JS doubles.
  function mul(a, b) {
    const r = new Array(16).fill(0);
    for (let i = 0; i < 4; i++) for (let j = 0; j < 4; j++) for (let k = 0; k < 4; k++) r[i * 4 + j] += a[i * 4 + k] * b[k * 4 + j];
    return r;
  }
  const translation = (o) => [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, o.x, o.y, o.z, 1];

  function makeCamera(scene, C, o) {
    let cam;
    if (C.type === 'ArcRotateCamera') {
      cam = new BABYLON.ArcRotateCamera(C.name, C.alpha, C.beta, C.radius, OFF(o, C.target), scene);
      cam.inertia = 0;
    } else {
      cam = new BABYLON.UniversalCamera(C.name, OFF(o, C.position), scene);
      cam.setTarget(OFF(o, C.target));
    }
    cam.fov = C.fov;
    cam.minZ = C.minZ;
    cam.maxZ = C.maxZ;
    return cam;
  }

  function makeHemi(scene, H) {
    const h = new BABYLON.HemisphericLight(H.name, V3(H.direction), scene);
    h.intensity = H.intensity;
    h.diffuse = C3(H.diffuse);
    h.specular = C3(H.specular);
    h.groundColor = C3(H.groundColor);
    return h;
  }

  function makeLight(scene, L, o) {
    let l;
    if (L.type === 'SpotLight') l = new BABYLON.SpotLight(L.name, OFF(o, L.position), V3(L.direction), L.angle, L.exponent, scene);
    else if (L.type === 'PointLight') l = new BABYLON.PointLight(L.name, OFF(o, L.position), scene);
    else {
      l = new BABYLON.DirectionalLight(L.name, V3(L.direction), scene);
      l.position = OFF(o, L.position);
    }
    l.intensity = L.intensity;
    l.diffuse = C3(L.diffuse);
    l.specular = C3(L.specular);
    return l;
  }

  // shadow-wrapper's ShaderMaterial (the same GLSL body as the C test's, in Babylon's conventions): x stretched by
  // `stretch`, flat magenta; `worldPos` is the name the wrapper's point-light metric reads (unused by a sun).
  const WRAPPED_VS = [
    'precision highp float;', 'attribute vec3 position;', 'uniform mat4 world;', 'uniform mat4 view;', 'uniform mat4 projection;',
    'uniform float stretch;', 'void main(void) {', '    vec4 worldPos = world * vec4(position * vec3(stretch, 1.0, 1.0), 1.0);',
    '    gl_Position = projection * view * worldPos;', '}'].join('\n');
  const WRAPPED_FS = ['precision highp float;', 'void main(void) { gl_FragColor = vec4(1.0, 0.0, 1.0, 1.0); }'].join('\n');

  function makeMesh(scene, M, o) {
    const mb = BABYLON.MeshBuilder;
    const m = M.kind === 'ground' ? mb.CreateGround(M.name, M.options, scene)
            : M.kind === 'sphere' ? mb.CreateSphere(M.name, M.options, scene) : mb.CreateBox(M.name, M.options, scene);
    m.position = OFF(o, M.position);
    m.receiveShadows = !!M.receive;
    if (M.shader === 'wrapped') {
      BABYLON.Effect.ShadersStore.orrWrappedVertexShader = WRAPPED_VS;
      BABYLON.Effect.ShadersStore.orrWrappedFragmentShader = WRAPPED_FS;
      const sm = new BABYLON.ShaderMaterial(M.name + 'Mat', scene, 'orrWrapped', { attributes: ['position'], uniforms: ['world', 'view', 'projection', 'stretch'] });
      sm.setFloat('stretch', M.stretch);
      sm.shadowDepthWrapper = new BABYLON.ShadowDepthWrapper(sm, scene);
      m.material = sm;
      return m;
    }
    const mat = new BABYLON.StandardMaterial(M.name + 'Mat', scene);
    mat.diffuseColor = C3(M.diffuse);
    mat.specularColor = new BABYLON.Color3(0, 0, 0);
    if (M.alpha !== undefined) mat.alpha = M.alpha;
    m.material = mat;
    m.receiveShadows = !!M.receive;
    return m;
  }

  function makeGenerator(G, light) {
    const Cls = BABYLON[G.class];
    const sg = new Cls(G.mapSize, light);
    for (const k of ['numCascades', 'lambda', 'stabilizeCascades', 'cascadeBlendPercentage', 'shadowMaxZ', 'autoCalcDepthBounds',
      'usePercentageCloserFiltering', 'useBlurExponentialShadowMap', 'useKernelBlur', 'blurKernel', 'bias', 'transparencyShadow',
      'enableSoftTransparentShadow']) {
      if (G[k] !== undefined) sg[k] = G[k];
    }
    if (G.filter) sg.filter = BABYLON.ShadowGenerator[G.filter];
    if (G.filteringQuality) sg.filteringQuality = BABYLON.ShadowGenerator[G.filteringQuality];
    return sg;
  }

  function build(engine, S, o, rightHanded) {
    const scene = new BABYLON.Scene(engine);
    if (rightHanded) scene.useRightHandedSystem = true; // before anything else exists
    scene.clearColor = C4(COMMON.CLEAR_COLOR);
    makeCamera(scene, S.set.CAMERA, o);
    makeHemi(scene, COMMON.HEMI);
    const light = makeLight(scene, S.light, o);
    const meshes = S.set.MESHES.map((M) => makeMesh(scene, M, o));
    const sg = makeGenerator(S.generator, light);
    S.set.MESHES.forEach((M, i) => { if (M.cast) sg.addShadowCaster(meshes[i], false); });
    scene.__shadow = { light, sg };
    return scene;
  }

  function nameOf(obj, prefix, v) {
    const k = Object.keys(obj).find((n) => n.startsWith(prefix) && obj[n] === v);
    return k || null;
  }

  // Texture taps of Babylon's PCF kernels, counted in the GLSL include the materials use.
  function pcfTaps() {
    const src = BABYLON.ShaderStore.IncludesShadersStore.shadowsFragmentFunctions || '';
    const out = {};
    for (const n of [1, 3, 5]) {
      const i = src.indexOf('float computeShadowWithPCF' + n + '(');
      if (i < 0) continue;
      const body = src.slice(i, src.indexOf('return computeFallOff', i));
      out['PCF' + n] = (body.match(/TEXTUREFUNC\(shadowSampler/g) || []).length;
    }
    return out;
  }

  function describe(scene) {
    const cam = scene.activeCamera;
    const { light, sg } = scene.__shadow;
    const off = scene.floatingOriginOffset || new BABYLON.Vector3(0, 0, 0);
    const SG = BABYLON.ShadowGenerator;
    const L = {
      name: light.name, type: light.getClassName(), position: v3arr(light.position), direction: light.direction ? v3arr(light.direction) : null,
      shadowMinZ: light.shadowMinZ === undefined ? 'undefined' : light.shadowMinZ,
      shadowMaxZ: light.shadowMaxZ === undefined ? 'undefined' : light.shadowMaxZ,
      depthMinZ: light.getDepthMinZ(cam), depthMaxZ: light.getDepthMaxZ(cam),
      // the near/far Babylon puts into the light projection: shadowMinZ/MaxZ, else the active camera's minZ/maxZ
      projectionNearUsed: light.shadowMinZ !== undefined ? light.shadowMinZ : cam.minZ || BABYLON.Constants.ShadowMinZ,
      projectionFarUsed: light.shadowMaxZ !== undefined ? light.shadowMaxZ : cam.maxZ || BABYLON.Constants.ShadowMaxZ,
    };
    if (sg.getClassName() === 'CascadedShadowGenerator') {
      L.note = 'the light\'s own ortho extents and near/far are not used: each cascade has its own (shadowGenerator.cascades)';
      delete L.projectionNearUsed;
      delete L.projectionFarUsed;
    } else if (light.getClassName() === 'DirectionalLight') {
      Object.assign(L, {
        autoUpdateExtends: light.autoUpdateExtends, autoCalcShadowZBounds: light.autoCalcShadowZBounds,
        shadowFrustumSize: light.shadowFrustumSize, shadowOrthoScale: light.shadowOrthoScale,
        orthoLeft: light._orthoLeft, orthoRight: light._orthoRight, orthoTop: light._orthoTop, orthoBottom: light._orthoBottom,
      });
      // extents of the casters' world bounding-box corners in light view space, widened by shadowOrthoScale per side
      // (OrthoOffCenterLH(left - w*s, right + w*s, bottom - h*s, top + h*s, near, far), w = right - left, h = top - bottom)
      const w = light._orthoRight - light._orthoLeft, h = light._orthoTop - light._orthoBottom, sc = light.shadowOrthoScale;
      L.orthoUsed = { left: light._orthoLeft - w * sc, right: light._orthoRight + w * sc, bottom: light._orthoBottom - h * sc, top: light._orthoTop + h * sc };
    } else if (light.getClassName() === 'SpotLight') {
      Object.assign(L, { angle: light.angle, exponent: light.exponent, shadowAngleScale: light.shadowAngleScale, innerAngle: light.innerAngle });
    } else if (light.getClassName() === 'PointLight') {
      // cube map: each texel stores (|p - light| + depthValues.x) / depthValues.y + bias, the receiver compares
      // (|p - light| + depthValues.x) / depthValues.y with it (computeShadowCube, direction y flipped)
      Object.assign(L, { range: light.range, shadowAngle: light.shadowAngle, needCube: light.needCube(),
        depthValues: [light.getDepthMinZ(cam), light.getDepthMinZ(cam) + light.getDepthMaxZ(cam)] });
    }
    const G = {
      className: sg.getClassName(), mapSize: sg.mapSize, shadowMapSize: sg.getShadowMap().getSize(),
      filter: sg.filter, filterName: nameOf(SG, 'FILTER_', sg.filter),
      filteringQuality: sg.filteringQuality, filteringQualityName: nameOf(SG, 'QUALITY_', sg.filteringQuality),
      bias: sg.bias, normalBias: sg.normalBias, darkness: sg.getDarkness(), frustumEdgeFalloff: sg.frustumEdgeFalloff,
      depthScale: sg.depthScale, blurScale: sg.blurScale, blurKernel: sg.blurKernel, useKernelBlur: sg.useKernelBlur,
      blurBoxOffset: sg.blurBoxOffset, transparencyShadow: sg.transparencyShadow, forceBackFacesOnly: sg.forceBackFacesOnly,
      enableSoftTransparentShadow: sg.enableSoftTransparentShadow, useOpacityTextureForTransparentShadow: sg.useOpacityTextureForTransparentShadow,
      contactHardeningLightSizeUVRatio: sg.contactHardeningLightSizeUVRatio,
      casters: sg.getShadowMap().renderList.map((m) => m.name),
      pcfShader: pcfTaps(),
    };
    if (G.className === 'CascadedShadowGenerator') {
      const n = sg.numCascades;
      Object.assign(G, {
        numCascades: n, lambda: sg.lambda, stabilizeCascades: sg.stabilizeCascades, cascadeBlendPercentage: sg.cascadeBlendPercentage,
        shadowMaxZ: sg.shadowMaxZ, autoCalcDepthBounds: sg.autoCalcDepthBounds, depthClamp: sg.depthClamp,
        freezeShadowCastersBoundingInfo: sg.freezeShadowCastersBoundingInfo,
        viewSpaceFrustumsZ: Array.from(sg._viewSpaceFrustumsZ), frustumLengths: Array.from(sg._frustumLengths),
        cascades: [],
      });
      for (let i = 0; i < n; i++) {
        const c = sg._cascades[i];
        const view = mat(sg.getCascadeViewMatrix(i)), proj = mat(sg.getCascadeProjectionMatrix(i));
        G.cascades.push({
          index: i, prevBreakDistance: c.prevBreakDistance, breakDistance: c.breakDistance,
          view, projection: proj, transform: mat(sg.getCascadeTransformMatrix(i)),
          lightMatrixEyeRelative: mul(translation(off), mul(view, proj)),
          minExtents: sg._cascadeMinExtents && v3arr(sg._cascadeMinExtents[i]), maxExtents: sg._cascadeMaxExtents && v3arr(sg._cascadeMaxExtents[i]),
        });
      }
    } else {
      const view = mat(sg.viewMatrix), proj = mat(sg.projectionMatrix);
      Object.assign(G, { view, projection: proj, transform: mat(sg.getTransformMatrix()), lightMatrixEyeRelative: mul(translation(off), mul(view, proj)) });
    }
    return {
      floatingOriginOffset: v3arr(off),
      camera: {
        position: v3arr(cam.position), target: cam.getTarget ? v3arr(cam.getTarget()) : null,
        viewMatrix: mat(cam.getViewMatrix()), projectionMatrix: mat(cam.getProjectionMatrix()),
      },
      light: L,
      shadowGenerator: G,
      activeMeshes: scene.getActiveMeshes().length,
    };
  }

  function register(name, S, variant) {
    const o = variant === 'far' ? COMMON.FAR_OFFSET : 0;
    const engineOptions = variant === 'far' ? { useLargeWorldRendering: true } : {};
    const full = variant ? name + '-' + variant : name;
    registerScene(full, {
      width: COMMON.WIDTH, height: COMMON.HEIGHT, antialias: COMMON.ANTIALIAS, frames: COMMON.FRAMES,
      engineOptions,
      constants: Object.assign({}, COMMON, {
        SCENE: name, VARIANT: variant || 'origin', OFFSET: o, ENGINE_OPTIONS: engineOptions, useRightHandedSystem: variant === 'rh',
        CAMERA: S.set.CAMERA, MESHES: S.set.MESHES, LIGHT: S.light, GENERATOR: S.generator,
      }),
      create: (engine) => build(engine, S, o, variant === 'rh'),
      describeAfterRender: describe,
    });
  }

  for (const [name, S] of Object.entries(SCENES)) for (const v of S.variants || [null, 'far', 'rh']) register(name, S, v);
  window.SHADOW_SCENES = { COMMON, SHADOW_SET, SCENES };
})();
