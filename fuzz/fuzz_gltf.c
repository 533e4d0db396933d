/* fuzz_gltf.c — libFuzzer target for the glTF parse layer (src/gltf/
 * parse_*.c: JSON, GLB, data: URIs, accessors, primitives into geometry,
 * flat normals and tangents, materials, cameras, lights, skins, animations,
 * embedded PNG/JPEG images through the image module). No base folder, so
 * external URIs are refused and no file is read; a 64 MiB decode budget so
 * the fuzzer's RSS limit is never the finding. A parsed document must hold
 * together: geometry valid (orr_geometry_validate), node links in range. */
#include <stdlib.h>

#include "fuzz_common.h"
#include "gltf/gltf_int.h"

#ifndef ORR_FUZZ_ENTRY
#define ORR_FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

static void orr_fuzz_gltf_check(const orri_gltf_doc *d) {
    for (uint32_t i = 0; i < d->mesh_count; i++)
        for (uint32_t k = 0; k < d->meshes[i].prim_count; k++) {
            const orr_geometry *g = &d->meshes[i].prims[k].geometry;
            if (g->vertex_count && orr_geometry_validate(g) != ORR_OK) abort();
        }
    for (uint32_t i = 0; i < d->node_count; i++) {
        const orri_gltf_node *n = &d->nodes[i];
        if (n->parent >= (int32_t)d->node_count || n->mesh >= (int32_t)d->mesh_count) abort();
        for (uint32_t k = 0; k < n->child_count; k++)
            if (n->children[k] >= d->node_count || d->nodes[n->children[k]].parent != (int32_t)i) abort();
    }
    for (uint32_t i = 0; i < d->scene_root_count; i++)
        if (d->scene_roots[i] >= d->node_count) abort();
}

int ORR_FUZZ_ENTRY(const uint8_t *data, size_t size) {
    char err[512];
    orri_gltf_ctx c;
    orri_gltf_ctx_init(&c, NULL, NULL, err, sizeof err, "fuzz.glb", NULL, ORR_FUZZ_MAX_BYTES);
    orri_gltf_doc doc;
    if (orri_gltf_parse(&c, data, size, &doc) == ORR_OK) {
        orr_fuzz_gltf_check(&doc);
        orri_gltf_doc_free(&c, &doc);
    }
    return 0;
}
