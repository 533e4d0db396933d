/* cpu_scene.h — the one fixture for scene tests without a GPU.
 *
 * A scene lives on a host (orri_scene_host: context, scene list, precision,
 * limits; src/scene/scene_int.h), which the engine owns. A test builds a bare
 * one and creates scenes on it with orri_scene_create, which also proves that
 * the scene module never touches the GPU:
 *
 *     static orr_cpu_host host;
 *     orr_scene *s = orr_cpu_scene(&host, NULL, &(orr_logger){capture, NULL}, "unit");
 */
#ifndef ORR_TEST_CPU_SCENE_H
#define ORR_TEST_CPU_SCENE_H

#include <string.h>

#include "scene/scene_int.h"

typedef struct orr_cpu_host {
    orri_scene_host host;
} orr_cpu_host;

/* Resets `host` (allocator, logger: NULL for the defaults) and creates a scene
 * on it; NULL when that fails. Destroy scenes with orr_scene_destroy. */
static inline orr_scene *orr_cpu_scene(orr_cpu_host *host, const orr_allocator *allocator, const orr_logger *logger,
                                       const char *label) {
    memset(host, 0, sizeof *host);
    orri_ctx_init(&host->host.ctx, allocator, logger);
    orr_scene *s = NULL;
    if (orri_scene_create(&host->host, &(orr_scene_desc){.label = label}, &s) != ORR_OK) return NULL;
    return s;
}

#endif
