/* parse_mesh.c — meshes (glTF 2.0 spec 3.7.2): each primitive decoded by
 * parse_prim.c, the default morph weights. */
#include <cJSON.h>
#include <stdio.h>

#include "gltf_int.h"
#include "orrery/handedness.h"

/* A float array member (weights) of at most max numbers. */
static orr_result read_weights(orri_gltf_ctx *c, const cJSON *obj, const char *path, float **out, uint32_t *count) {
    int64_t n = orri_json_array(c, obj, "weights", path);
    if (n <= 0) return n < 0 ? orr_last_result() : ORR_OK;
    float *w = orri_gltf_alloc(c, (size_t)n, sizeof(float), path);
    if (!w) return orr_last_result();
    uint32_t i = 0;
    for (const cJSON *e = orri_json_member(obj, "weights")->child; e; e = e->next, i++) {
        if (!cJSON_IsNumber(e)) {
            orri_gltf_free(c, w);
            return orri_gltf_fail(c, ORR_ERROR_MALFORMED, "%s.weights[%u] is not a number", path, i);
        }
        w[i] = (float)e->valuedouble;
    }
    *out = w, *count = (uint32_t)n;
    return ORR_OK;
}

orr_result orri_gltf_read_weights(orri_gltf_ctx *c, const cJSON *obj, const char *path, float **out, uint32_t *count) {
    return read_weights(c, obj, path, out, count);
}

static orr_result parse_mesh(orri_gltf_ctx *c, const cJSON *j, uint32_t i, orri_gltf_doc *doc) {
    char path[64];
    snprintf(path, sizeof path, "meshes[%u]", i);
    orri_gltf_mesh *m = &doc->meshes[i];
    m->name = orri_gltf_strdup(c, orri_json_str(j, "name"));
    int64_t n = orri_json_array(c, j, "primitives", path);
    if (n < 0) return orr_last_result();
    if (n == 0) return orri_gltf_fail(c, ORR_ERROR_MALFORMED, "%s.primitives is missing or empty", path);
    if (!(m->prims = orri_gltf_alloc(c, (size_t)n, sizeof *m->prims, path))) return orr_last_result();
    m->prim_count = (uint32_t)n;
    uint32_t k = 0;
    for (const cJSON *p = orri_json_member(j, "primitives")->child; p; p = p->next, k++) {
        char pp[96];
        snprintf(pp, sizeof pp, "%s.primitives[%u]", path, k);
        orr_result r = orri_gltf_parse_prim(c, doc, p, pp, &m->prims[k]);
        if (r != ORR_OK) return r;
    }
    return read_weights(c, j, path, &m->weights, &m->weight_count);
}

orr_result orri_gltf_parse_meshes(orri_gltf_ctx *c, const cJSON *root, orri_gltf_doc *doc) {
    int64_t n = orri_json_array(c, root, "meshes", "");
    if (n < 0) return orr_last_result();
    if (n && !(doc->meshes = orri_gltf_alloc(c, (size_t)n, sizeof *doc->meshes, "meshes"))) return orr_last_result();
    doc->mesh_count = (uint32_t)n;
    uint32_t i = 0;
    for (const cJSON *m = n ? orri_json_member(root, "meshes")->child : NULL; m; m = m->next, i++) {
        orr_result r = parse_mesh(c, m, i, doc);
        if (r == ORR_OK) r = orri_gltf_progress(c, 0.5 + 0.2 * (i + 1) / (double)n); /* 50 % to 70 % */
        if (r != ORR_OK) return r;
    }
    return ORR_OK;
}
