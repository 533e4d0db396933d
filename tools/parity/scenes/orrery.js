'use strict';
/*
 * Orrery's own parity scenes (Orrery: C11 Vulkan renderer that must match Babylon.js).
 *
 *   orr-grid-origin   the lite200/lite201 layout (scenes/lite.js LWR_GRID = shared/parity/README.md "Common to
 *                     scenes 200, 201, 204" + "Scene 200") with OFFSET = 0: everything at the world origin, no
 *                     useLargeWorldRendering (not needed at the origin). Reverse depth on.
 *   orr-shader-basic  one Babylon.js ShaderMaterial (GLSL given as strings in Effect.ShadersStore) on a sphere
 *                     and a box; no lights; reverse depth on. Output = (normalW * 0.5 + 0.5) * tint * mix(0.6, 1, uv.y).
 *
 * All: 1280x720, antialias (MSAA) requested, 3 frames, no animation, Babylon's default left-handed system.
 * ArcRotateCamera position = target + radius * (cos(alpha) sin(beta), cos(beta), sin(alpha) sin(beta)).
 * Babylon defaults that apply where a value is not set: camera fov 0.8 rad vertical (FOVMODE_VERTICAL_FIXED);
 * StandardMaterial specularPower 64, ambient 0; lights diffuse/specular (1,1,1), intensity 1;
 * HemisphericLight groundColor (0,0,0); ShaderMaterial backFaceCulling true, sideOrientation default.
 */
(function () {
  const COMMON = { WIDTH: 1280, HEIGHT: 720, ANTIALIAS: true, FRAMES: 3 };

  // ---------------------------------------------------------------------------------------------------------
  // orr-grid-origin: duplicated from scenes/lite.js LWR_GRID (lite200/lite201, Babylon Lite scene200.ts/scene201.ts)
  // with OFFSET changed from 5e6 to 0. Keep in sync with LWR_GRID apart from OFFSET.
  const GRID_ORIGIN = {
    SOURCE: 'scenes/lite.js LWR_GRID (lite200/lite201) with OFFSET = 0, engine option useLargeWorldRendering not set',
    OFFSET: 0,
    CLEAR_COLOR: [0.05, 0.05, 0.08, 1],
    REVERSE_DEPTH: true,
    CAMERA: { type: 'ArcRotateCamera', alpha: Math.PI / 4, beta: Math.PI / 3, radius: 25, target: [0, 1, 0] /* + OFFSET in x,z */, minZ: 0.5, maxZ: 500 /* fov 0.8 default */ },
    HEMI: { direction: [0, 1, 0], intensity: 0.4 /* diffuse/specular (1,1,1), groundColor (0,0,0) defaults */ },
    DIR: { direction: [-0.4, -1, -0.2], diffuse: [1, 1, 1], specular: [0.3, 0.3, 0.3] /* intensity 1 default */ },
    GROUND: { width: 40, height: 40, subdivisions: 1, position: [0, 0, 0], diffuse: [0.25, 0.25, 0.3] /* specular (1,1,1) default */ },
    // box (i,j), i,j = 0..4 (i outer, created in that order): size 1 at (OFFSET + (i-2)*4, 1, OFFSET + (j-2)*4),
    // diffuse (0.3+0.6*i/4, 0.4, 0.3+0.6*j/4), specular GRID.specular
    GRID: { n: 5, spacing: 4, y: 1, size: 1, specular: [0.4, 0.4, 0.4] },
    PILLAR: { size: 1, position: [0, 2, 0], scaling: [0.8, 4, 0.8], diffuse: [0.9, 0.5, 0.2], emissive: [0.1, 0.05, 0.02], specular: [0.6, 0.6, 0.6] },
    CREATION_ORDER: ['camera', 'hemi', 'dir', 'ground', 'box_i_j (i outer, j inner)', 'pillar'],
  };

  // ---------------------------------------------------------------------------------------------------------
  // orr-shader-basic: ShaderMaterial with GLSL strings (Orrery parity brief). No lights.
  const SHADER_BASIC = {
    CLEAR_COLOR: [0.2, 0.2, 0.3, 1],
    REVERSE_DEPTH: true,
    CAMERA: { type: 'ArcRotateCamera', alpha: -Math.PI / 3, beta: Math.PI / 3, radius: 6, target: [0, 0, 0], minZ: 0.1, maxZ: 100 /* fov 0.8 default */ },
    LIGHTS: [],
    // created in this order, both with the one ShaderMaterial 'shader'
    SPHERE: { name: 'sphere', segments: 32, diameter: 2, position: [-1.2, 0, 0] },
    BOX: { name: 'box', size: 1.5, position: [1.2, 0, 0], rotationY: Math.PI / 6 },
    MATERIAL: {
      name: 'shader',
      shaderName: 'orrBasic', // Effect.ShadersStore['orrBasicVertexShader'] / ['orrBasicFragmentShader']
      attributes: ['position', 'normal', 'uv'],
      uniforms: ['world', 'worldViewProjection', 'tint'],
      tint: [1.0, 0.85, 0.7], // setColor3('tint', ...)
      backFaceCulling: true, // Babylon default
    },
    VERTEX_SHADER: [
      'precision highp float;',
      'attribute vec3 position;',
      'attribute vec3 normal;',
      'attribute vec2 uv;',
      'uniform mat4 world;',
      'uniform mat4 worldViewProjection;',
      'varying vec3 vNormalW;',
      'varying vec2 vUV;',
      'void main(void) {',
      '  gl_Position = worldViewProjection * vec4(position, 1.0);',
      '  vNormalW = normalize(mat3(world) * normal);',
      '  vUV = uv;',
      '}',
    ].join('\n'),
    FRAGMENT_SHADER: [
      'precision highp float;',
      'varying vec3 vNormalW;',
      'varying vec2 vUV;',
      'uniform vec3 tint;',
      'void main(void) {',
      '  vec3 n = normalize(vNormalW);',
      '  float shade = mix(0.6, 1.0, vUV.y);',
      '  gl_FragColor = vec4((n * 0.5 + 0.5) * tint * shade, 1.0);',
      '}',
    ].join('\n'),
  };

  // orr-sphere-ground: the Blinn-Phong sphere on a ground under one directional light (issue 2's first
  // parity scene). Babylon defaults apply where not set (fov 0.8, scene clear colour (0.2, 0.2, 0.3)).
  const SPHERE_GROUND = {
    CAMERA: { type: 'ArcRotateCamera', alpha: -Math.PI / 3, beta: Math.PI / 3, radius: 8, target: [0, 0.8, 0], minZ: 0.5, maxZ: 200 },
    DIR: { direction: [-0.5, -1, 0.3], diffuse: [1, 1, 1], specular: [1, 1, 1] },
    SPHERE: { name: 'sphere', segments: 32, diameter: 2, position: [0, 1, 0], diffuse: [0.8, 0.3, 0.2], specular: [1, 1, 1], specularPower: 32 },
    GROUND: { width: 10, height: 10, subdivisions: 1, diffuse: [0.4, 0.5, 0.4], specular: [0.1, 0.1, 0.1] },
  };

  // ---------------------------------------------------------------------------------------------------------
  const OFF = (o, p) => new BABYLON.Vector3(o + p[0], p[1], o + p[2]); // OFFSET in x and z only

  function stdMat(name, scene, m) {
    const mat = new BABYLON.StandardMaterial(name, scene);
    if (m.diffuse) mat.diffuseColor = C3(m.diffuse);
    if (m.specular) mat.specularColor = C3(m.specular);
    if (m.emissive) mat.emissiveColor = C3(m.emissive);
    return mat;
  }

  function arcCamera(scene, c, offset) {
    const cam = new BABYLON.ArcRotateCamera('cam', c.alpha, c.beta, c.radius, OFF(offset, c.target), scene);
    cam.minZ = c.minZ;
    cam.maxZ = c.maxZ;
    return cam;
  }

  function buildGridOrigin(engine) {
    const P = GRID_ORIGIN;
    if (P.REVERSE_DEPTH) engine.useReverseDepthBuffer = true;
    const scene = new BABYLON.Scene(engine);
    scene.clearColor = C4(P.CLEAR_COLOR);
    arcCamera(scene, P.CAMERA, P.OFFSET);
    new BABYLON.HemisphericLight('hemi', V3(P.HEMI.direction), scene).intensity = P.HEMI.intensity;
    const dir = new BABYLON.DirectionalLight('dir', V3(P.DIR.direction), scene);
    dir.diffuse = C3(P.DIR.diffuse);
    dir.specular = C3(P.DIR.specular);
    const g = BABYLON.MeshBuilder.CreateGround('ground', { width: P.GROUND.width, height: P.GROUND.height, subdivisions: P.GROUND.subdivisions }, scene);
    g.material = stdMat('groundMat', scene, { diffuse: P.GROUND.diffuse });
    g.position = OFF(P.OFFSET, P.GROUND.position);
    const G = P.GRID;
    for (let i = 0; i < G.n; i++) {
      for (let j = 0; j < G.n; j++) {
        const box = BABYLON.MeshBuilder.CreateBox(`box_${i}_${j}`, { size: G.size }, scene);
        box.material = stdMat(`boxMat_${i}_${j}`, scene, { diffuse: [0.3 + (i / 4) * 0.6, 0.4, 0.3 + (j / 4) * 0.6], specular: G.specular });
        box.position = OFF(P.OFFSET, [(i - 2) * G.spacing, G.y, (j - 2) * G.spacing]);
      }
    }
    const Q = P.PILLAR;
    const pillar = BABYLON.MeshBuilder.CreateBox('pillar', { size: Q.size }, scene);
    pillar.material = stdMat('pillarMat', scene, { diffuse: Q.diffuse, emissive: Q.emissive, specular: Q.specular });
    pillar.position = OFF(P.OFFSET, Q.position);
    pillar.scaling = V3(Q.scaling);
    return scene;
  }

  function buildShaderBasic(engine) {
    const P = SHADER_BASIC;
    const M = P.MATERIAL;
    if (P.REVERSE_DEPTH) engine.useReverseDepthBuffer = true;
    BABYLON.Effect.ShadersStore[M.shaderName + 'VertexShader'] = P.VERTEX_SHADER;
    BABYLON.Effect.ShadersStore[M.shaderName + 'FragmentShader'] = P.FRAGMENT_SHADER;
    const scene = new BABYLON.Scene(engine);
    scene.clearColor = C4(P.CLEAR_COLOR);
    arcCamera(scene, P.CAMERA, 0);
    const mat = new BABYLON.ShaderMaterial(M.name, scene, M.shaderName, { attributes: M.attributes, uniforms: M.uniforms });
    mat.setColor3('tint', C3(M.tint));
    mat.backFaceCulling = M.backFaceCulling;
    const sphere = BABYLON.MeshBuilder.CreateSphere(P.SPHERE.name, { segments: P.SPHERE.segments, diameter: P.SPHERE.diameter }, scene);
    sphere.position = V3(P.SPHERE.position);
    sphere.material = mat;
    const box = BABYLON.MeshBuilder.CreateBox(P.BOX.name, { size: P.BOX.size }, scene);
    box.position = V3(P.BOX.position);
    box.rotation.y = P.BOX.rotationY;
    box.material = mat;
    return scene;
  }

  function buildSphereGround(engine) {
    const P = SPHERE_GROUND;
    const scene = new BABYLON.Scene(engine);
    arcCamera(scene, P.CAMERA, 0);
    const dir = new BABYLON.DirectionalLight('dir', V3(P.DIR.direction), scene);
    dir.diffuse = C3(P.DIR.diffuse);
    dir.specular = C3(P.DIR.specular);
    const g = BABYLON.MeshBuilder.CreateGround('ground', { width: P.GROUND.width, height: P.GROUND.height, subdivisions: P.GROUND.subdivisions }, scene);
    g.material = stdMat('groundMat', scene, { diffuse: P.GROUND.diffuse, specular: P.GROUND.specular });
    const S = P.SPHERE;
    const sphere = BABYLON.MeshBuilder.CreateSphere(S.name, { segments: S.segments, diameter: S.diameter }, scene);
    sphere.position = V3(S.position);
    const m = stdMat('sphereMat', scene, { diffuse: S.diffuse, specular: S.specular });
    m.specularPower = S.specularPower;
    sphere.material = m;
    return scene;
  }

  function describe(scene) {
    const cam = scene.activeCamera;
    const out = {
      cameraPosition: v3arr(cam.position),
      cameraTarget: cam.getTarget ? v3arr(cam.getTarget()) : null,
      cameraFov: cam.fov,
      viewMatrix: Array.from(cam.getViewMatrix().m),
      projectionMatrix: Array.from(cam.getProjectionMatrix().m),
      useReverseDepthBuffer: scene.getEngine().useReverseDepthBuffer,
      activeMeshes: scene.getActiveMeshes().length,
    };
    const worlds = {};
    for (const m of scene.meshes) if (m.name === 'sphere' || m.name === 'box' || m.name === 'pillar') worlds[m.name] = Array.from(m.getWorldMatrix().m);
    if (Object.keys(worlds).length) out.worldMatrices = worlds;
    return out;
  }

  function register(name, params, engineOptions, build) {
    registerScene(name, {
      width: COMMON.WIDTH,
      height: COMMON.HEIGHT,
      antialias: COMMON.ANTIALIAS,
      frames: COMMON.FRAMES,
      engineOptions,
      constants: Object.assign({ ENGINE_OPTIONS: engineOptions }, COMMON, params),
      create: build,
      describeAfterRender: describe,
    });
  }

  register('orr-grid-origin', GRID_ORIGIN, {}, buildGridOrigin);
  register('orr-shader-basic', SHADER_BASIC, {}, buildShaderBasic);
  register('orr-sphere-ground', SPHERE_GROUND, {}, buildSphereGround);
})();
