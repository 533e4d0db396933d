/* geometry_share.c — geometry shared by meshes: one owned copy of the vertex
 * data with a reference count, so copies of a model (orr_gltf_instantiate,
 * orr_mesh_desc.share_geometry) hold it once on the CPU and once on the GPU.
 *
 * Invariants:
 * - A share's geometry never changes after creation: the renderer keys its
 *   GPU buffers by `key` (src/render/geometry_gpu.c) and uploads them once.
 * - `key` comes from the scene's version counter, so it is never reused in
 *   the scene, even after the share is freed.
 * - The mesh that holds a share reads it through a shallow view
 *   (orri_mesh.geometry); only the last release frees the arrays. The GPU
 *   buffers live as long as a drawn mesh uses them, independently of this
 *   record (they go through the delete queue when the last draw is gone). */
#include <string.h>

#include "scene/scene_int.h"

static orri_geometry_share *alloc_share(orr_scene *s) {
    orri_geometry_share *sh = orri_alloc(&s->ctx->allocator, sizeof *sh);
    if (!sh) {
        orri_fail(s->ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "geometry: out of memory");
        return NULL;
    }
    sh->refs = 1;
    sh->key = orri_scene_next_version(s);
    sh->gpu_hint = UINT32_MAX;
    return sh;
}

orri_geometry_share *orri_geometry_share_create(orr_scene *s, const orr_geometry *g, uint32_t optimize_flags) {
    orri_geometry_share *sh = alloc_share(s);
    if (!sh) return NULL;
    orr_result r = orr_geometry_copy(g, &s->ctx->allocator, &sh->geometry);
    if (r == ORR_OK) r = orr_geometry_optimize(&sh->geometry, optimize_flags);
    if (r != ORR_OK) {
        orr_geometry_free(&sh->geometry);
        orri_free(&s->ctx->allocator, sh);
        orri_fail(s->ctx, r, "geometry: copying the vertex data");
        return NULL;
    }
    sh->box = orr_geometry_bounds(&sh->geometry);
    return sh;
}

orri_geometry_share *orri_geometry_share_adopt(orr_scene *s, orr_geometry *g, uint32_t optimize_flags) {
    orri_geometry_share *sh = alloc_share(s);
    if (!sh) return NULL;
    orr_result r = orr_geometry_optimize(g, optimize_flags);
    if (r != ORR_OK) {
        orri_free(&s->ctx->allocator, sh);
        orri_fail(s->ctx, r, "geometry: optimising the vertex order");
        return NULL;
    }
    sh->geometry = *g; /* its arrays keep their own allocator */
    memset(g, 0, sizeof *g);
    sh->box = orr_geometry_bounds(&sh->geometry);
    return sh;
}

void orri_geometry_share_retain(orri_geometry_share *sh) {
    if (sh) sh->refs++;
}

void orri_geometry_share_release(orr_scene *s, orri_geometry_share *sh) {
    if (!sh || --sh->refs) return;
    orr_geometry_free(&sh->geometry);
    orri_free(&s->ctx->allocator, sh);
}
