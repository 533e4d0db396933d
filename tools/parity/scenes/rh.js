'use strict';
/*
 * Right-handed twins of existing parity scenes (Orrery issue 6, seeds/001 "Model").
 *
 * `<name>-rh` is the scene `<name>` re-run with `scene.useRightHandedSystem = true`: it calls the source
 * scene's own create() with `BABYLON.Scene` temporarily replaced by a subclass whose constructor sets the
 * flag, so it is set before any camera, light, mesh or material exists (a Material reads it in its
 * constructor to pick its side orientation: setting the flag after creation leaves counter-clockwise
 * materials and renders back faces). Every constant, the creation order and the engine flags stay those of
 * the source scene. The GLSL of
 * orr-shader-basic is the same. The JSON's `computed` holds Babylon.js's right-handed view/projection
 * (getViewMatrix = LookAtRH, getProjectionMatrix = PerspectiveFovRH), which Orrery's right-handed build
 * hands to shader materials as their `view`/`projection` uniforms.
 *
 * Orrery renders these with its right-handed library variant (tests/render/test_parity_rh.c).
 */
(function () {
  const TWINS = ['lite2', 'lite15', 'lite3', 'orr-grid-origin', 'orr-shader-basic', 'orr-sphere-ground', 'lite201', 'lite204'];
  for (const name of TWINS) {
    const src = window.SCENES[name];
    if (!src) throw new Error('rh.js: source scene ' + name + ' is not registered (load rh.js after its file)');
    registerScene(name + '-rh', Object.assign({}, src, {
      constants: Object.assign({ RIGHT_HANDED_TWIN_OF: name, useRightHandedSystem: true }, src.constants),
      async create(engine, canvas) {
        const Scene = BABYLON.Scene;
        BABYLON.Scene = class RightHandedScene extends Scene {
          constructor(...args) {
            super(...args);
            this.useRightHandedSystem = true;
          }
        };
        try {
          const scene = await src.create(engine, canvas);
          if (!scene.useRightHandedSystem) throw new Error(name + '-rh: the scene is not right-handed');
          return scene;
        } finally {
          BABYLON.Scene = Scene;
        }
      },
    }));
  }
})();
