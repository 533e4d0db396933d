/* orrery/engine.h — the engine: Vulkan device, render target, frames, readback.
 *
 * Usage:
 *     orr_engine *engine;
 *     if (orr_engine_create(&(orr_engine_desc){ .width = 1280, .height = 720, .msaa = 4 },
 *                           &engine) != ORR_OK) { puts(orr_engine_last_error(NULL)); return 1; }
 *     orr_scene *scene = ...;                    // orrery/scene.h
 *     orr_engine_render(engine, scene);          // one frame into the offscreen target
 *     orr_engine_save_png(engine, "frame.png");  // waits for the frame, reads back
 *     orr_engine_destroy(engine);
 *
 * The engine is headless by default: it renders into an offscreen colour
 * (RGBA8 UNORM, values written as Babylon.js writes them: no sRGB encode) and
 * reverse-Z depth (D32 float, clear 0, GREATER) target, with 4× MSAA resolved
 * when msaa = 4. A window (orrery/window.h) is optional and presents the same
 * target. Vulkan 1.3 with dynamic rendering and synchronization2 is required.
 *
 * Device choice: discrete > integrated > virtual > CPU (lavapipe), unless the
 * environment variable ORR_DEVICE names a device index ("0") or a substring of
 * the device name ("llvmpipe"), or the desc's device_name does.
 *
 * Errors: every call that can fail at run time returns orr_result; the text of
 * the last error is orr_engine_last_error(engine) (or of a failed create with
 * NULL). Device loss and out-of-memory come back as ORR_ERROR_DEVICE_LOST /
 * ORR_ERROR_OUT_OF_DEVICE_MEMORY; after device loss every render call returns
 * ORR_ERROR_DEVICE_LOST until the engine is destroyed.
 */
#ifndef ORRERY_ENGINE_H
#define ORRERY_ENGINE_H

#include <stdbool.h>
#include <stdint.h>

#include "orrery/core.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct orr_engine orr_engine;
typedef struct orr_scene orr_scene;

typedef enum orr_validation {
    ORR_VALIDATION_DEFAULT = 0, /* on when ORR_VALIDATION=1 in the environment */
    ORR_VALIDATION_ON,
    ORR_VALIDATION_OFF,
} orr_validation;

/* Precision of world and view matrices on the CPU. FLOAT64 is Orrery's
 * (docs/architecture.md, "Precision rule"). FLOAT32 rounds every world and view matrix to float32 as
 * Babylon.js does without useHighPrecisionMatrix: for comparisons only. */
typedef enum orr_matrix_precision {
    ORR_MATRIX_FLOAT64 = 0,
    ORR_MATRIX_FLOAT32 = 1,
} orr_matrix_precision;

/* The large-world module (orrery/large_world.h). An engine that never names
 * it links none of its code. */
typedef struct orr_large_world_module orr_large_world_module;

typedef struct orr_engine_desc {
    uint32_t width, height;    /* render size; default 1280 × 720 */
    uint32_t msaa;             /* 1 or 4; default 4 */
    orr_validation validation; /* Khronos validation layer */
    /* Called for every validation message (after it is logged as an error).
     * Tests use it to fail on any message. */
    void (*on_validation_message)(const char *message, void *user);
    void *validation_user;
    const char *device_name;   /* substring or index; overrides ORR_DEVICE */
    uint32_t frames_in_flight; /* default 2, at most 3 */
    /* Floating origin for every scene of this engine: set to
     * &orr_floating_origin (orrery/large_world.h). NULL: off. Requires
     * ORR_MATRIX_FLOAT64 (creation fails otherwise). */
    const orr_large_world_module *floating_origin;
    orr_matrix_precision matrix_precision;
    /* GPU timestamps around the culling pass and the render pass, reported in
     * orr_stats (for benchmarks; off by default). */
    bool gpu_timing;
    orr_allocator allocator;
    orr_logger logger;
    const char *label; /* debug name prefix for Vulkan objects */
} orr_engine_desc;

orr_result orr_engine_create(const orr_engine_desc *desc, orr_engine **out);
/* Waits for the device to go idle, destroys everything the engine owns,
 * scenes included. NULL is ignored. */
void orr_engine_destroy(orr_engine *engine);
/* Text of the last error of `engine`, or of the last failed orr_engine_create
 * in this thread when engine is NULL. Never NULL. */
const char *orr_engine_last_error(const orr_engine *engine);

typedef struct orr_device_info {
    char name[256];
    uint32_t vendor_id, device_id;
    uint32_t api_version;
    bool is_cpu;     /* lavapipe / llvmpipe */
    bool validation; /* validation layer active */
    uint32_t msaa;
    uint32_t width, height;
    /* Thin instances one mesh can hold on this device (the smallest of its
     * storage-buffer range, dispatch size and allocation size over 64 bytes
     * per instance); orr_instances_* refuse more with ORR_ERROR_LIMIT_REACHED. */
    uint32_t max_instances_per_mesh;
} orr_device_info;
orr_device_info orr_engine_device_info(const orr_engine *engine);

/* Renders one frame of `scene` (created by this engine) into the offscreen
 * target: runs the scene's before-render callbacks, updates renderables,
 * replays or re-records command buffers, submits. Does not wait for the GPU
 * unless all frames in flight are busy. */
orr_result orr_engine_render(orr_engine *engine, orr_scene *scene);
/* Changes the render size (1..16384 each way): waits for the GPU, builds
 * the new colour, depth, resolve and readback targets, then frees the old
 * ones; scenes re-record their passes at the next render, and cameras use the
 * new aspect. On failure (ORR_ERROR_INVALID_ARGUMENT, out of memory) the
 * engine keeps its old size and target unchanged. The same size is a no-op.
 * After a resize nothing is rendered yet: render before reading pixels or
 * presenting. A window (orrery/window.h) calls this itself as it resizes. */
orr_result orr_engine_resize(orr_engine *engine, uint32_t width, uint32_t height);
/* Waits until every submitted frame has finished. */
orr_result orr_engine_wait_idle(orr_engine *engine);

/* Reads the last rendered frame as tightly packed RGBA8, top row first.
 * `rgba` holds width × height × 4 bytes. Waits for the frame. */
orr_result orr_engine_read_pixels(orr_engine *engine, uint8_t *rgba, uint64_t size);
/* Reads back and writes an RGB PNG (alpha dropped, as the parity tool does).
 * `path` must end in ".png" (any case): ORR_ERROR_INVALID_ARGUMENT otherwise,
 * and nothing is written. ORR_ERROR_IO when the file cannot be written. */
orr_result orr_engine_save_png(orr_engine *engine, const char *path);

typedef struct orr_stats {
    uint64_t frames;
    /* Draws in the last frame's draw list: one per drawn mesh (a
     * thin-instanced mesh is one draw), frustum- or occlusion-culled ones
     * included. */
    uint32_t draws;
    /* Draw commands those draws recorded (opaque, occlusion late and
     * transparent passes; backgrounds, sprites and other plugin passes not
     * counted): a run of consecutive compatible standard draws is one
     * multi-draw command (decision 68), so this can be far below `draws`. */
    uint32_t draw_commands;
    /* Instances submitted in the last frame: every instance of a thin-instanced
     * mesh (before culling), 1 for a plain mesh; a LOD partner adds nothing
     * (it draws its source's far instances, counted with the source). */
    uint64_t instances_submitted;
    /* Triangles of those instances (index count / 3 × instances submitted),
     * before culling; LOD partners add nothing, as above. */
    uint64_t triangles_submitted;
    /* Instances that passed culling (frustum, whole-cloud, GPU) and were drawn,
     * in frame `instances_visible_frame` (numbered from 0; the last rendered is
     * frames − 1). Without GPU-culled meshes that is the last frame. With them
     * the count comes back from the GPU without a stall, so it describes the
     * last frame whose GPU work had finished when the latest frame began:
     * frames_in_flight frames before the last (frames − 3 with the default 2).
     * ORR_FRAME_NONE until a count is known. Near and far (LOD partner)
     * buckets both count. */
    uint64_t instances_visible;
    uint64_t instances_visible_frame;
    uint64_t bytes_uploaded; /* host → device bytes in the last frame */
    uint64_t bytes_uploaded_total;
    uint64_t bytes_uploaded_instances; /* thin-instance data (matrices, colours, positions) in the last frame */
    uint32_t records;                  /* secondary command buffers recorded last frame */
    uint32_t replays;                  /* secondary command buffers replayed last frame */
    uint32_t pipelines;                /* graphics + compute pipelines alive */
    uint64_t device_memory;            /* bytes of device memory allocated */
    /* With orr_engine_desc.gpu_timing: GPU milliseconds of the most recent
     * frame whose results are available (that frame is `gpu_timed_frame`). */
    double gpu_cull_ms;   /* uploads + thin-instance culling pass + morph and skin pre-pass */
    double gpu_render_ms; /* the render pass (all draws), gpu_plugins_ms included */
    /* Of gpu_render_ms: the render plugins' passes recorded before the draws
     * (shadow generators: their light culling and every map layer). */
    double gpu_plugins_ms;
    uint64_t gpu_timed_frame;
} orr_stats;
#define ORR_FRAME_NONE UINT64_MAX
orr_stats orr_query_stats(const orr_engine *engine);

#ifdef __cplusplus
}
#endif
#endif
