/* orrery/orrery.h — everything public in one include.
 *
 * Orrery: a C11 real-time renderer on Vulkan 1.3 for worlds of any size.
 *     orr_engine_create → orr_scene_create → cameras, lights, meshes,
 *     materials → orr_engine_render → orr_engine_save_png.
 * See each header's usage block; README.md for the feature table. README.md
 * and the docs/<name>.md files the headers cite are installed in
 * <prefix>/share/doc/orrery.
 *
 * Every public header is included here, window.h too: its functions exist in
 * every build (without GLFW, orr_window_create returns ORR_ERROR_UNSUPPORTED;
 * without ODE, orr_physics_create does)
 * and no header pulls in Vulkan, GLFW or any other third-party header.
 */
#ifndef ORRERY_ORRERY_H
#define ORRERY_ORRERY_H

#include "orrery/controls.h"
#include "orrery/core.h"
#include "orrery/double_single.h"
#include "orrery/engine.h"
#include "orrery/environment.h"
#include "orrery/geometry.h"
#include "orrery/gltf.h"
#include "orrery/handedness.h"
#include "orrery/image.h"
#include "orrery/image_processing.h"
#include "orrery/input.h"
#include "orrery/instances.h"
#include "orrery/large_world.h"
#include "orrery/material.h"
#include "orrery/pbr.h"
#include "orrery/physics.h"
#include "orrery/animation.h"
#include "orrery/math.h"
#include "orrery/rebase.h"
#include "orrery/scene.h"
#include "orrery/shadow.h"
#include "orrery/sprite.h"
#include "orrery/text.h"
#include "orrery/texture.h"
#include "orrery/window.h"
#include "orrery/wpos.h"

#endif
