'use strict';
/*
 * glTF 2.0 parity scenes (Orrery issue 11, "Tests that must exist"): Khronos sample models loaded by Babylon.js's
 * glTF loader (npm `babylonjs-loaders`, UMD bundle `babylonjs.loaders.js`) and rendered by the core bundle the
 * harness loads. The model files are the repository's assets/gltf/<Model>/ (provenance and licences:
 * assets/SOURCES.md), served to the page as `shared-assets/gltf/<Model>/<file>`.
 *
 *   gltf-waterbottle      WaterBottle.gltf, image-based lighting only (no light)
 *   gltf-boxtextured      BoxTextured.gltf, hemispheric + directional light
 *   gltf-texcoord         TextureCoordinateTest.gltf, front view, lights
 *   gltf-texsettings      TextureSettingsTest.glb, front view, lights
 *   gltf-normaltangent    NormalTangentTest.glb, image-based lighting only
 *   gltf-simpleinstancing SimpleInstancing.glb (EXT_mesh_gpu_instancing, 125 instances), lights
 *   gltf-fox              Fox.glb, skinned, animation group "Survey" paused at t = 1.0 s, lights
 *   gltf-boxvertexcolors  BoxVertexColors.glb, lights
 *   gltf-waterbottle-dbgN gltf-waterbottle with every material's debugMode = N (Babylon's PBR debug views: 41
 *                         radiance, 54 irradiance, 60 albedo, 64 alphaG, ...; decision 77); its JSON adds each
 *                         mesh's effect defines. A diagnostic, not a reference.
 *   gltf-normaltangent-dbgN the same for gltf-normaltangent (N = 2, 5, 41, 54, 64, 65; decision 84)
 *   <name>-rh             the same with scene.useRightHandedSystem = true, set in the Scene constructor (before the
 *                         camera, lights and the import exist), every constant unchanged (as scenes/rh.js does)
 *
 * Every scene, in this order:
 *   scene = new Scene(engine); clearColor = COMMON.CLEAR_COLOR (no skybox, no ground)
 *   camera = new ArcRotateCamera('cam', alpha, beta, radius, target); fov (vertical), minZ, maxZ; activeCamera.
 *     Fixed numbers, no auto-framing. Babylon: position = target + radius * (cos(alpha) sin(beta), cos(beta),
 *     sin(alpha) sin(beta)), in either handedness.
 *   lighting 'ibl':    scene.environmentTexture = CubeTexture.CreateFromPrefilteredData(IBL.url, scene); no light,
 *                      no skybox; environmentIntensity and the texture's rotation at Babylon defaults (1, 0).
 *   lighting 'direct': the lights of DIRECT_LIGHTS, created in that order; no environment texture.
 *   SceneLoader.ImportMeshAsync('', rootUrl, file, scene) with the glTF loader's defaults (it creates the
 *     '__root__' node: in a left-handed scene rotation (0, PI, 0) and scaling (1, 1, -1); in a right-handed one
 *     none of that; the loader's animationStartMode FIRST starts the first animation group).
 *   every animation group is stopped; gltf-fox then starts ANIMATION.group, pauses it and calls goToFrame(t*60)
 *     (the loader keys animations at 60 frames per second). The harness sets scene.animationsEnabled = false,
 *     so that pose stays; the JSON's computed.animatedNodes holds the local TRS Babylon applied (they equal
 *     tests/data/parity/gltf-anim-fox.json at t = 1.0).
 * Image processing: Babylon's defaults (exposure 1, contrast 1, tone mapping off, no vignette/curves/dithering;
 * applied in the material shaders, no post-process); the JSON's computed.imageProcessing records them.
 *
 * window.GLTF_SCENES exposes the constants and the loader helpers (anim-export.js uses exportAnimations).
 */
(function () {
  const COMMON = {
    SOURCE: 'Orrery issue 11 (glTF parity); models from assets/gltf (assets/SOURCES.md)',
    WIDTH: 640,
    HEIGHT: 480,
    ANTIALIAS: true,
    FRAMES: 3,
    CLEAR_COLOR: [0.2, 0.2, 0.3, 1],
    LOADER: 'BABYLON.SceneLoader.ImportMeshAsync("", rootUrl, file, scene), glTF loader defaults (targetFps 60, animationStartMode FIRST, compileMaterials false, transparencyAsCoverage false, createInstances true)',
    IMAGE_PROCESSING: 'Babylon defaults (scene.imageProcessingConfiguration untouched)',
  };
  const IBL = {
    url: 'shared-assets/bjs/environmentSpecular.env',
    create: 'BABYLON.CubeTexture.CreateFromPrefilteredData(url, scene)',
    skybox: false,
    environmentIntensity: 1, // PBRMaterial default, not set
  };
  // Lights of the 'direct' scenes. x = 0 in every direction, so the lighting is symmetric under the x mirror that
  // the left-handed '__root__' applies to glTF content.
  const DIRECT_LIGHTS = [
    { type: 'HemisphericLight', name: 'hemi', direction: [0, 1, 0], intensity: 0.6, diffuse: [1, 1, 1], specular: [1, 1, 1], groundColor: [0.1, 0.1, 0.1] },
    { type: 'DirectionalLight', name: 'dir', direction: [0, -0.5, 1], intensity: 0.9, diffuse: [1, 1, 1], specular: [1, 1, 1] },
  ];
  const CAM = (alpha, beta, radius, target, minZ, maxZ) => ({ type: 'ArcRotateCamera', alpha, beta, radius, target, fov: 0.8, minZ, maxZ });
  const SCENES = {
    'gltf-waterbottle': {
      model: 'WaterBottle', file: 'WaterBottle.gltf', lighting: 'ibl',
      camera: CAM(-Math.PI / 2, Math.PI / 2, 0.4, [0, 0, 0], 0.01, 10),
    },
    'gltf-boxtextured': {
      model: 'BoxTextured', file: 'BoxTextured.gltf', lighting: 'direct',
      camera: CAM(-Math.PI / 3, Math.PI / 3, 2.6, [0, 0, 0], 0.1, 100),
    },
    'gltf-texcoord': {
      model: 'TextureCoordinateTest', file: 'TextureCoordinateTest.gltf', lighting: 'direct',
      camera: CAM(-Math.PI / 2, Math.PI / 2, 3, [0, 0, 0], 0.1, 100),
    },
    'gltf-texsettings': {
      model: 'TextureSettingsTest', file: 'TextureSettingsTest.glb', lighting: 'direct',
      camera: CAM(Math.PI / 2, Math.PI / 2, 14, [0, -0.58, 0], 0.1, 100),
    },
    'gltf-normaltangent': {
      model: 'NormalTangentTest', file: 'NormalTangentTest.glb', lighting: 'ibl',
      camera: CAM(Math.PI / 2, Math.PI / 2, 3, [0, -0.125, 0], 0.1, 100),
    },
    'gltf-simpleinstancing': {
      model: 'SimpleInstancing', file: 'SimpleInstancing.glb', lighting: 'direct',
      camera: CAM(Math.PI, 1.25, 40, [0, 4.5, 5.5], 0.1, 200),
    },
    'gltf-fox': {
      model: 'Fox', file: 'Fox.glb', lighting: 'direct',
      camera: CAM(Math.PI / 3, 1.3, 170, [0, 38, -11], 1, 2000),
      animation: { group: 'Survey', timeSeconds: 1.0, framesPerSecond: 60 },
    },
    'gltf-boxvertexcolors': {
      model: 'BoxVertexColors', file: 'BoxVertexColors.glb', lighting: 'direct',
      camera: CAM(-Math.PI / 3, Math.PI / 3, 2.6, [0, 0, 0], 0.1, 100),
    },
  };

  const rootUrl = (model) => 'shared-assets/gltf/' + model + '/';

  // The glTF node index of a Babylon node the loader made ('/nodes/<i>' pointer), or null.
  function gltfNodeIndex(node) {
    const m = node._internalMetadata && node._internalMetadata.gltf;
    const p = m && m.pointers && m.pointers.find((s) => /^\/nodes\/\d+$/.test(s));
    return p ? +p.slice(7) : null;
  }

  // Nodes targeted by an animation group, in first-target order: { node, index, name, paths }.
  function animatedNodes(group) {
    const out = new Map();
    for (const ta of group.targetedAnimations) {
      const n = ta.target;
      if (!out.has(n)) out.set(n, { node: n, index: gltfNodeIndex(n), name: n.name, paths: [] });
      const e = out.get(n);
      if (!e.paths.includes(ta.animation.targetProperty)) e.paths.push(ta.animation.targetProperty);
    }
    return Array.from(out.values());
  }

  const trs = (n) => ({
    translation: v3arr(n.position),
    rotation: n.rotationQuaternion ? [n.rotationQuaternion.x, n.rotationQuaternion.y, n.rotationQuaternion.z, n.rotationQuaternion.w] : null,
    rotationEuler: n.rotationQuaternion ? null : v3arr(n.rotation),
    scale: v3arr(n.scaling),
  });

  // Stops every group, then (if name given) starts that group paused at time t seconds.
  function poseAt(scene, name, t, fps) {
    for (const g of scene.animationGroups) g.stop();
    if (name === undefined) return null;
    const group = scene.animationGroups.find((g) => g.name === name);
    if (!group) throw new Error('no animation group ' + name + '; have ' + scene.animationGroups.map((g) => g.name).join(', '));
    group.start(false, 1, group.from, group.to);
    group.pause();
    group.goToFrame(t * fps);
    return group;
  }

  async function build(engine, S, rightHanded) {
    const scene = new BABYLON.Scene(engine);
    if (rightHanded) scene.useRightHandedSystem = true; // before anything is created
    scene.clearColor = C4(COMMON.CLEAR_COLOR);
    const c = S.camera;
    const cam = new BABYLON.ArcRotateCamera('cam', c.alpha, c.beta, c.radius, V3(c.target), scene);
    cam.fov = c.fov;
    cam.minZ = c.minZ;
    cam.maxZ = c.maxZ;
    cam.inertia = 0;
    if (S.lighting === 'ibl') {
      scene.environmentTexture = BABYLON.CubeTexture.CreateFromPrefilteredData(IBL.url, scene);
    } else {
      for (const L of DIRECT_LIGHTS) {
        const light = L.type === 'HemisphericLight' ? new BABYLON.HemisphericLight(L.name, V3(L.direction), scene)
                                                     : new BABYLON.DirectionalLight(L.name, V3(L.direction), scene);
        light.intensity = L.intensity;
        light.diffuse = C3(L.diffuse);
        light.specular = C3(L.specular);
        if (L.groundColor) light.groundColor = C3(L.groundColor);
      }
    }
    const res = await BABYLON.SceneLoader.ImportMeshAsync('', rootUrl(S.model), S.file, scene);
    scene.activeCamera = cam;
    if (S.debugMode) { scene.__debugDefines = true; for (const m of scene.materials) if ('debugMode' in m) m.debugMode = S.debugMode; }
    const A = S.animation;
    scene.__gltf = { res, group: poseAt(scene, A && A.group, A && A.timeSeconds, A && A.framesPerSecond) };
    return scene;
  }

  function describe(scene) {
    const g = scene.__gltf;
    const root = g.res.meshes[0];
    const bounds = root.getHierarchyBoundingVectors(true);
    const ipc = scene.imageProcessingConfiguration;
    const cam = scene.activeCamera;
    const out = {
      root: { name: root.name, position: v3arr(root.position), rotationQuaternion: root.rotationQuaternion && root.rotationQuaternion.asArray(), scaling: v3arr(root.scaling) },
      worldBounds: { min: v3arr(bounds.min), max: v3arr(bounds.max) },
      meshes: g.res.meshes.map((m) => ({ name: m.name, vertices: m.getTotalVertices(), material: m.material && m.material.getClassName(), thinInstances: m.thinInstanceCount || 0 })),
      animationGroups: scene.animationGroups.map((a) => ({ name: a.name, from: a.from, to: a.to, isPlaying: !!a.isPlaying, isStarted: !!a.isStarted })),
      imageProcessing: {
        exposure: ipc.exposure, contrast: ipc.contrast, toneMappingEnabled: ipc.toneMappingEnabled, toneMappingType: ipc.toneMappingType,
        vignetteEnabled: ipc.vignetteEnabled, colorCurvesEnabled: ipc.colorCurvesEnabled, colorGradingEnabled: ipc.colorGradingEnabled,
        ditheringEnabled: ipc.ditheringEnabled, applyByPostProcess: ipc.applyByPostProcess, isEnabled: ipc.isEnabled,
      },
      environmentTexture: scene.environmentTexture && { name: scene.environmentTexture.name, size: scene.environmentTexture.getSize(), lodGenerationScale: scene.environmentTexture.lodGenerationScale },
      lights: scene.lights.map((l) => ({ name: l.name, type: l.getClassName(), intensity: l.intensity, direction: l.direction && v3arr(l.direction) })),
      cameraPosition: v3arr(cam.position),
      viewMatrix: Array.from(cam.getViewMatrix().m),
      projectionMatrix: Array.from(cam.getProjectionMatrix().m),
    };
    if (scene.__debugDefines) out.defines = g.res.meshes.map((m) => m.subMeshes && m.subMeshes[0] && m.subMeshes[0].materialDefines ? m.subMeshes[0].materialDefines.toString() : null);
    if (g.group) {
      out.animatedGroup = { name: g.group.name, frame: g.group.animatables[0] && g.group.animatables[0].masterFrame, from: g.group.from, to: g.group.to };
      out.animatedNodes = animatedNodes(g.group).map((e) => Object.assign({ index: e.index, name: e.name, paths: e.paths }, trs(e.node)));
    }
    return out;
  }

  function register(name, S, rightHanded) {
    registerScene(name, {
      width: COMMON.WIDTH,
      height: COMMON.HEIGHT,
      antialias: COMMON.ANTIALIAS,
      frames: COMMON.FRAMES,
      engineOptions: {},
      usesGltfLoader: true,
      constants: Object.assign({}, COMMON, {
        MODEL: 'assets/gltf/' + S.model + '/' + S.file,
        URL: rootUrl(S.model) + S.file,
        LIGHTING: S.lighting,
        IBL: S.lighting === 'ibl' ? IBL : null,
        LIGHTS: S.lighting === 'direct' ? DIRECT_LIGHTS : [],
        CAMERA: S.camera,
        ANIMATION: S.animation || null,
        useRightHandedSystem: !!rightHanded,
      }, rightHanded ? { RIGHT_HANDED_TWIN_OF: name.replace(/-rh$/, '') } : {}),
      create: (engine) => build(engine, S, rightHanded),
      describeAfterRender: describe,
    });
  }

  for (const [name, S] of Object.entries(SCENES)) register(name, S, false);
  for (const [name, S] of Object.entries(SCENES)) register(name + '-rh', S, true);
  for (const d of [2, 5, 41, 54, 60, 62, 63, 64, 65, 80, 83, 89])
    register('gltf-waterbottle-dbg' + d, Object.assign({}, SCENES['gltf-waterbottle'], { debugMode: d }), false);
  for (const d of [2, 5, 41, 54, 64, 65])
    register('gltf-normaltangent-dbg' + d, Object.assign({}, SCENES['gltf-normaltangent'], { debugMode: d }), false);

  /*
   * Animation export (anim-export.js): loads shared-assets/gltf/<model>/<file> into a fresh scene (handedness as
   * given), and for every animation group samples the local TRS of every node the group animates at each time in
   * `times` (seconds): stop all groups, start this one, pause, goToFrame(t * 60), read position /
   * rotationQuaternion / scaling.
   */
  async function exportAnimations(model, file, times, rightHanded) {
    const canvas = document.getElementById('c');
    const engine = new BABYLON.Engine(canvas, false, { preserveDrawingBuffer: true, audioEngine: false }, false);
    const scene = new BABYLON.Scene(engine);
    if (rightHanded) scene.useRightHandedSystem = true;
    new BABYLON.ArcRotateCamera('cam', 0, 1, 10, BABYLON.Vector3.Zero(), scene);
    await BABYLON.SceneLoader.ImportMeshAsync('', rootUrl(model), file, scene);
    scene.animationsEnabled = false;
    const groups = [];
    for (let gi = 0; gi < scene.animationGroups.length; gi++) {
      const name = scene.animationGroups[gi].name;
      const group = poseAt(scene, name, 0, 60);
      const nodes = animatedNodes(group);
      const samples = times.map((t) => {
        group.goToFrame(t * 60);
        return { t, nodes: nodes.map((e) => Object.assign({ index: e.index, name: e.name }, trs(e.node))) };
      });
      groups.push({
        index: gi, name, fromFrame: group.from, toFrame: group.to, durationSeconds: (group.to - group.from) / 60,
        nodes: nodes.map((e) => ({ index: e.index, name: e.name, paths: e.paths })), samples,
      });
      group.stop();
    }
    const result = { babylonVersion: BABYLON.Engine.Version, useRightHandedSystem: scene.useRightHandedSystem, groups };
    scene.dispose();
    engine.dispose();
    return result;
  }

  window.GLTF_SCENES = { COMMON, IBL, DIRECT_LIGHTS, SCENES, exportAnimations };
})();
