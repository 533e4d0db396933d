'use strict';
/*
 * Cameras that fly (Orrery issue 9, items 3 and 4): Babylon.js's view, projection and world matrices of free
 * (UniversalCamera) and arc-rotate cameras with a rotation, a rotationQuaternion, an upVector, a parent that is
 * rotated, translated and scaled, a parent 1e7 m from the origin, and an infinite far plane (maxZ 0).
 * Nothing here is about pixels: the image is a box under a hemispheric light, seen by the first camera.
 * tests/render/test_camera_fly.c reads the cameras back from "constants"."CAMERAS" and compares its own
 * matrices with "computed"."cameras".
 *
 *   orr-cameras-fly          Babylon.js defaults: Float32Array matrices (what a Babylon.js app gets)
 *   orr-cameras-fly-f64      the same with engine option useHighPrecisionMatrix (Float64Array matrices), for
 *                            a sharp check, and for the 1e7 m parent where float32 rounds the eye to a metre
 *   <name>-rh                the same with scene.useRightHandedSystem = true, set before any camera exists
 *
 * Every camera is built as follows (the C test builds the same one from the same constants):
 *   type 'free': new UniversalCamera(name, position); then, if given: upVector = up; rotation = rotation;
 *                rotationQuaternion = RotationAxis(quatAxis, quatAngle); parent = a TransformNode
 *                (parentPosition, parentRotation or RotationAxis(parentQuatAxis, parentQuatAngle), parentScaling); setTarget(target) last.
 *   type 'arc':  new ArcRotateCamera(name, alpha, beta, radius, target); then upVector = up (the setter
 *                normalises it and builds the Y-to-up matrix), parent as above.
 *   all:         fov, minZ, maxZ when given (Babylon.js defaults 0.8, 1, 10000; maxZ 0 = infinite far plane).
 * Parents are TransformNodes created in the same order; position and target of a parented camera are in
 * the parent's space (Babylon.js: view = LookAt(local) · parentWorld⁻¹).
 * Babylon.js quirk kept in mind when choosing the numbers: setTarget moves the camera by 0.001 in z when
 * position.z === target.z, so no case has equal z.
 */
(function () {
  const COMMON = { WIDTH: 320, HEIGHT: 180, FRAMES: 3, REVERSE_DEPTH: true };
  const CAMERAS = [
    { name: 'free-euler', type: 'free', position: [1, 2, -8], rotation: [0.3, -0.6, 0], fov: 0.9, minZ: 0.2, maxZ: 500 },
    { name: 'free-euler-roll', type: 'free', position: [-2, 3, 4], rotation: [-0.2, 2.5, 0.7] },
    { name: 'free-quat', type: 'free', position: [2, -1, 3], quatAxis: [0.3, 0.8, -0.5], quatAngle: 1.1, up: [0.3, 1, 0.2] },
    { name: 'free-euler-up', type: 'free', position: [0.5, 1.5, -3], rotation: [0.25, 0.9, 0], up: [0.3, 1, 0.1] },
    { name: 'free-target-up', type: 'free', position: [4, 1, -6], target: [0.5, 0.8, 1], up: [0.2, 1, -0.3] },
    {
      name: 'free-parent', type: 'free', position: [0.5, 1.2, -0.3], rotation: [0.1, -0.2, 0.05],
      parentPosition: [10, -3, 25], parentRotation: [0.2, 0.7, -0.4], parentScaling: [2, 2, 2],
    },
    {
      name: 'free-parent-target', type: 'free', position: [1, 0.5, 2], target: [3, 1, 9], up: [0, 1, 0.2],
      parentPosition: [-4, 6, 1], parentQuatAxis: [-0.4, 0.5, 0.6], parentQuatAngle: 0.9, parentScaling: [1.5, 0.75, 1.25],
    },
    {
      name: 'free-far', type: 'free', position: [2, 1, 5], rotation: [0.05, 0.2, 0], minZ: 0.1, maxZ: 2000,
      parentPosition: [1e7, 50, -3e6], parentRotation: [0, 0.4, 0.1],
    },
    { name: 'free-infinite', type: 'free', position: [0, 1, -5], target: [0, 0.5, 0], minZ: 0.5, maxZ: 0 },
    { name: 'arc-up', type: 'arc', alpha: 0.7, beta: 1.1, radius: 12, target: [1, 2, 3], up: [0.3, 0.9, -0.2] },
    {
      name: 'arc-up-parent', type: 'arc', alpha: -1.2, beta: 0.8, radius: 7, target: [0, 1, 0.5], up: [-0.2, 1, 0.4],
      parentPosition: [3, 1, -2], parentRotation: [0.3, -0.5, 0.2], parentScaling: [1, 1, 1],
    },
    { name: 'arc-up-down', type: 'arc', alpha: 2.0, beta: 0.9, radius: 5, target: [0, 0, 0.25], up: [0.01, -1, 0.02] },
  ];
  const P = Object.assign({}, COMMON, {
    SOURCE: 'Orrery issue 9 items 3-4 (cameras that fly, far plane); tests/render/test_camera_fly.c',
    CLEAR_COLOR: [0.2, 0.2, 0.3, 1],
    HEMI: { direction: [0, 1, 0], intensity: 0.7 },
    BOX: { size: 1, position: [0, 0.5, 0] },
    CAMERAS,
  });

  const mat = (m) => Array.from(m.m);
  // Quaternion.RotationAxis normalises the axis: q = (axis · sin(angle / 2), cos(angle / 2)).
  const quat = (axis, angle) => BABYLON.Quaternion.RotationAxis(V3(axis), angle);

  function buildCamera(c, scene) {
    let parent = null;
    if (c.parentPosition) {
      parent = new BABYLON.TransformNode('parent-' + c.name, scene);
      parent.position = V3(c.parentPosition);
      if (c.parentQuatAxis) parent.rotationQuaternion = quat(c.parentQuatAxis, c.parentQuatAngle);
      if (c.parentRotation) parent.rotation = V3(c.parentRotation);
      if (c.parentScaling) parent.scaling = V3(c.parentScaling);
    }
    let cam;
    if (c.type === 'arc') {
      cam = new BABYLON.ArcRotateCamera(c.name, c.alpha, c.beta, c.radius, V3(c.target), scene);
      if (c.up) cam.upVector = V3(c.up);
      if (parent) cam.parent = parent;
    } else {
      cam = new BABYLON.UniversalCamera(c.name, V3(c.position), scene);
      if (c.up) cam.upVector = V3(c.up);
      if (c.rotation) cam.rotation = V3(c.rotation);
      if (c.quatAxis) cam.rotationQuaternion = quat(c.quatAxis, c.quatAngle);
      if (parent) cam.parent = parent;
      if (c.target) cam.setTarget(V3(c.target));
    }
    if (c.fov !== undefined) cam.fov = c.fov;
    if (c.minZ !== undefined) cam.minZ = c.minZ;
    if (c.maxZ !== undefined) cam.maxZ = c.maxZ;
    return cam;
  }

  function describe(scene) {
    const out = {};
    for (const c of CAMERAS) {
      const cam = scene.getCameraByName(c.name);
      const view = cam.getViewMatrix(true);
      const r = {
        viewMatrix: mat(view),
        projectionMatrix: mat(cam.getProjectionMatrix(true)),
        worldMatrix: mat(cam.getWorldMatrix()),
        globalPosition: v3arr(cam.globalPosition),
        localPosition: v3arr(cam.position),
        upVector: v3arr(cam.upVector),
      };
      if (cam.rotation) r.rotation = v3arr(cam.rotation);
      if (cam.rotationQuaternion) r.rotationQuaternion = cam.rotationQuaternion.asArray();
      out[c.name] = r;
    }
    return { cameras: out, aspect: scene.getEngine().getAspectRatio(scene.activeCamera) };
  }

  function register(name, rightHanded, highPrecision) {
    registerScene(name, {
      width: COMMON.WIDTH, height: COMMON.HEIGHT, antialias: false, frames: COMMON.FRAMES,
      engineOptions: highPrecision ? { useHighPrecisionMatrix: true } : {},
      constants: Object.assign({ useRightHandedSystem: rightHanded, useHighPrecisionMatrix: highPrecision }, P),
      create(engine) {
        engine.useReverseDepthBuffer = P.REVERSE_DEPTH;
        const scene = new BABYLON.Scene(engine);
        scene.useRightHandedSystem = rightHanded; // before any camera, light, mesh or material exists
        scene.clearColor = C4(P.CLEAR_COLOR);
        for (const c of CAMERAS) buildCamera(c, scene);
        scene.activeCamera = scene.getCameraByName('free-infinite'); // aims at the box in both handednesses
        new BABYLON.HemisphericLight('hemi', V3(P.HEMI.direction), scene).intensity = P.HEMI.intensity;
        const box = BABYLON.MeshBuilder.CreateBox('box', { size: P.BOX.size }, scene);
        box.position = V3(P.BOX.position);
        return scene;
      },
      describeAfterRender: describe,
    });
  }

  register('orr-cameras-fly', false, false);
  register('orr-cameras-fly-rh', true, false);
  register('orr-cameras-fly-f64', false, true);
  register('orr-cameras-fly-f64-rh', true, true);
})();
