/* parse_prim.c — one mesh primitive into an orr_geometry (glTF 2.0 spec
 * 3.7.2): POSITION (required), NORMAL, TANGENT, TEXCOORD_0/1, COLOR_0 (vec3
 * or vec4, float or normalized), JOINTS_0/WEIGHTS_0, morph targets
 * (POSITION and NORMAL deltas; at most ORR_GEOMETRY_MAX_MORPH_TARGETS, the
 * rest dropped with a warning). Integer attributes (KHR_mesh_quantization)
 * read as their (normalized) values.
 *
 * Modes: TRIANGLES as they are; TRIANGLE_STRIP and TRIANGLE_FAN become
 * triangle lists with the spec's vertex order (so glTF's counter-clockwise
 * front faces stay front faces). Decision: POINTS, LINES, LINE_LOOP and
 * LINE_STRIP are skipped with a warning (Orrery draws triangles only); the
 * primitive stays in the document with an empty geometry so indices hold.
 *
 * The data stays in glTF's right-handed space (the scene's `__root__` node
 * converts, scene_build.c); the triangles are rewound (to_orrery_winding). Missing normals: flat normals
 * (the spec), by unwelding. Missing tangents with a normal map: generated
 * (parse_tangent.c). */
#include <cJSON.h>
#include <stdio.h>
#include <string.h>

#include "gltf_int.h"
#include "orrery/handedness.h"

#define M(n) (1u << (n))

typedef struct prim_streams {
    float *pos, *nrm, *tan, *uv0, *uv1, *col;
    uint32_t col_comps;
    uint32_t *joints, *idx;
    float *weights;
    uint32_t vcount, icount;
} prim_streams;

static void free_streams(orri_gltf_ctx *c, prim_streams *s) {
    void *all[] = {s->pos, s->nrm, s->tan, s->uv0, s->uv1, s->col, s->joints, s->idx, s->weights};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) orri_gltf_free(c, all[i]);
}

/* An optional float attribute of exactly vcount elements. */
static orr_result attr_f(orri_gltf_ctx *c, const orri_gltf_doc *doc, const cJSON *attrs, const char *name,
                         uint32_t mask, const char *path, uint32_t vcount, float **out, uint32_t *comps) {
    const cJSON *j = orri_json_member(attrs, name);
    if (!j) return ORR_OK;
    char p[160];
    snprintf(p, sizeof p, "%s.attributes.%s", path, name);
    if (!cJSON_IsNumber(j)) return orri_gltf_fail(c, ORR_ERROR_MALFORMED, "%s is not an accessor index", p);
    uint32_t n, k;
    orr_result r = orri_gltf_read_floats(c, doc, (int64_t)j->valuedouble, mask, p, out, &n, comps ? comps : &k);
    if (r == ORR_OK && vcount != UINT32_MAX && n != vcount) {
        orri_gltf_free(c, *out);
        *out = NULL;
        return orri_gltf_fail(c, ORR_ERROR_MALFORMED, "%s has %u elements, POSITION has %u", p, n, vcount);
    }
    return r;
}

static orr_result read_indices(orri_gltf_ctx *c, const orri_gltf_doc *doc, const cJSON *p, const char *path,
                               prim_streams *s) {
    const cJSON *j = orri_json_member(p, "indices");
    char ip[160];
    snprintf(ip, sizeof ip, "%s.indices", path);
    if (!j) {
        s->idx = orri_gltf_alloc(c, s->vcount, sizeof(uint32_t), ip);
        if (!s->idx) return orr_last_result();
        for (uint32_t i = 0; i < s->vcount; i++) s->idx[i] = i;
        s->icount = s->vcount;
        return ORR_OK;
    }
    if (!cJSON_IsNumber(j)) return orri_gltf_fail(c, ORR_ERROR_MALFORMED, "%s is not an accessor index", ip);
    uint32_t comps;
    orr_result r = orri_gltf_read_uints(c, doc, (int64_t)j->valuedouble, M(1), ip, &s->idx, &s->icount, &comps);
    if (r != ORR_OK) return r;
    for (uint32_t i = 0; i < s->icount; i++)
        if (s->idx[i] >= s->vcount)
            return orri_gltf_fail(c, ORR_ERROR_MALFORMED, "%s[%u] = %u is not below the vertex count %u", ip, i,
                                  s->idx[i], s->vcount);
    return ORR_OK;
}

/* Strips and fans into triangle lists (spec 3.7.2.1 vertex order). */
static orr_result to_triangles(orri_gltf_ctx *c, prim_streams *s, int64_t mode, const char *path) {
    if (mode == 4) {
        s->icount -= s->icount % 3;
        return ORR_OK;
    }
    uint32_t tris = s->icount >= 3 ? s->icount - 2 : 0;
    uint32_t *t = orri_gltf_alloc(c, (size_t)tris * 3, sizeof(uint32_t), path);
    if (!t) return orr_last_result();
    for (uint32_t i = 0; i < tris; i++) {
        uint32_t *o = t + (size_t)i * 3;
        if (mode == 5) { /* strip: {v_i, v_(i + 1 + i % 2), v_(i + 2 − i % 2)} */
            o[0] = s->idx[i], o[1] = s->idx[i + 1 + (i & 1u)], o[2] = s->idx[i + 2 - (i & 1u)];
        } else { /* fan: {v_(i + 1), v_(i + 2), v_0} */
            o[0] = s->idx[i + 1], o[1] = s->idx[i + 2], o[2] = s->idx[0];
        }
    }
    orri_gltf_free(c, s->idx);
    s->idx = t, s->icount = tris * 3;
    return ORR_OK;
}

static orr_result read_streams(orri_gltf_ctx *c, const orri_gltf_doc *doc, const cJSON *a, const char *path,
                               prim_streams *s) {
    uint32_t v = s->vcount;
    orr_result r = attr_f(c, doc, a, "NORMAL", M(3), path, v, &s->nrm, NULL);
    if (r == ORR_OK) r = attr_f(c, doc, a, "TANGENT", M(4), path, v, &s->tan, NULL);
    if (r == ORR_OK) r = attr_f(c, doc, a, "TEXCOORD_0", M(2), path, v, &s->uv0, NULL);
    if (r == ORR_OK) r = attr_f(c, doc, a, "TEXCOORD_1", M(2), path, v, &s->uv1, NULL);
    if (r == ORR_OK) r = attr_f(c, doc, a, "COLOR_0", M(3) | M(4), path, v, &s->col, &s->col_comps);
    if (r == ORR_OK) r = attr_f(c, doc, a, "WEIGHTS_0", M(4), path, v, &s->weights, NULL);
    const cJSON *jj = orri_json_member(a, "JOINTS_0");
    if (r == ORR_OK && jj && s->weights) {
        char p[160];
        snprintf(p, sizeof p, "%s.attributes.JOINTS_0", path);
        uint32_t n, k;
        r = cJSON_IsNumber(jj) ? orri_gltf_read_uints(c, doc, (int64_t)jj->valuedouble, M(4), p, &s->joints, &n, &k)
                               : orri_gltf_fail(c, ORR_ERROR_MALFORMED, "%s is not an accessor index", p);
        if (r == ORR_OK && n != v) r = orri_gltf_fail(c, ORR_ERROR_MALFORMED, "%s has %u elements, not %u", p, n, v);
        for (uint32_t i = 0; r == ORR_OK && i < n * 4; i++)
            if (s->joints[i] > 65535u) r = orri_gltf_fail(c, ORR_ERROR_MALFORMED, "%s[%u] is over 65535", p, i / 4);
    }
    return r;
}

static void fill_geometry(const prim_streams *s, orr_geometry *g) {
    size_t v = s->vcount;
    memcpy(g->positions, s->pos, v * 12);
    if (s->nrm) memcpy(g->normals, s->nrm, v * 12);
    if (s->tan) memcpy(g->tangents, s->tan, v * 16);
    if (s->uv0) memcpy(g->uvs, s->uv0, v * 8);
    if (s->uv1) memcpy(g->uvs2, s->uv1, v * 8);
    for (size_t i = 0; s->col && i < v; i++)
        for (uint32_t k = 0; k < 4; k++) g->colors[i * 4 + k] = k < s->col_comps ? s->col[i * s->col_comps + k] : 1.0f;
    if (s->joints) {
        for (size_t i = 0; i < v * 4; i++) g->joints[i] = (uint16_t)s->joints[i];
        memcpy(g->weights, s->weights, v * 16);
    }
    memcpy(g->indices, s->idx, (size_t)s->icount * 4);
}

/* Morph targets: POSITION (required by orr_geometry) and NORMAL deltas. */
static orr_result read_targets(orri_gltf_ctx *c, const orri_gltf_doc *doc, const cJSON *p, const char *path,
                               orr_geometry *g) {
    int64_t n = orri_json_array(c, p, "targets", path);
    if (n <= 0) return n < 0 ? orr_last_result() : ORR_OK;
    if (n > ORR_GEOMETRY_MAX_MORPH_TARGETS) {
        orri_gltf_warn(c, "%s.targets: %lld morph targets, the first %u are kept", path, (long long)n,
                       ORR_GEOMETRY_MAX_MORPH_TARGETS);
        n = ORR_GEOMETRY_MAX_MORPH_TARGETS;
    }
    const cJSON *t = orri_json_member(p, "targets")->child;
    bool normals = orri_json_member(t, "NORMAL") != NULL;
    if (!orri_gltf_charge(c, (size_t)n * g->vertex_count * 24, path)) return orr_last_result();
    orr_result r = orr_geometry_alloc_morph(g, (uint32_t)n, normals);
    if (r != ORR_OK) return orri_gltf_fail(c, r, "%s.targets: cannot allocate", path);
    for (uint32_t i = 0; i < n && r == ORR_OK; i++, t = t->next) {
        char tp[160];
        snprintf(tp, sizeof tp, "%s.targets[%u]", path, i);
        float *d = NULL;
        size_t off = (size_t)i * g->vertex_count * 3;
        r = attr_f(c, doc, t, "POSITION", M(3), tp, g->vertex_count, &d, NULL);
        if (r == ORR_OK && d) memcpy(g->morph_positions + off, d, (size_t)g->vertex_count * 12);
        orri_gltf_free(c, d), d = NULL;
        if (r == ORR_OK && normals) r = attr_f(c, doc, t, "NORMAL", M(3), tp, g->vertex_count, &d, NULL);
        if (r == ORR_OK && d) memcpy(g->morph_normals + off, d, (size_t)g->vertex_count * 12);
        orri_gltf_free(c, d);
    }
    return r;
}

/* glTF's front faces are counter-clockwise where Orrery's builders (as
 * Babylon.js's) wind the other way: each triangle's last two indices swap.
 * This is what Babylon.js's loader gets by giving glTF materials
 * CounterClockWiseSideOrientation (seeds/001: glTF meshes keep "ccw"), done
 * once in the data so every material and pass agrees: left-handed, the
 * `__root__` mirror then flips the front face back (the mirrored-mesh rule)
 * and the model is not inside out; right-handed, there is no root mirror
 * and the swapped order is the "ccw" of seeds/001. Checked by
 * test_gltf_load (a lit front face in both builds). Flat normals and
 * tangents are computed before, from glTF's order. */
static void to_orrery_winding(orr_geometry *g) {
    for (uint32_t i = 0; i + 2 < g->index_count; i += 3) {
        uint32_t t = g->indices[i + 1];
        g->indices[i + 1] = g->indices[i + 2], g->indices[i + 2] = t;
    }
}

static orr_result build(orri_gltf_ctx *c, const orri_gltf_doc *doc, const cJSON *p, const char *path, prim_streams *s,
                        orri_gltf_prim *out) {
    uint32_t with = (s->nrm ? ORR_GEOMETRY_NORMALS : 0) | (s->uv0 ? ORR_GEOMETRY_UVS : 0) |
                    (s->col ? ORR_GEOMETRY_COLORS : 0) | (s->tan ? ORR_GEOMETRY_TANGENTS : 0) |
                    (s->uv1 ? ORR_GEOMETRY_UVS2 : 0) | (s->joints ? ORR_GEOMETRY_SKIN : 0);
    if (!orri_gltf_charge(c, (size_t)s->vcount * 96 + (size_t)s->icount * 4, path)) return orr_last_result();
    orr_result r = orr_geometry_alloc(s->vcount, s->icount, with, &c->allocator, &out->geometry);
    if (r != ORR_OK) return orri_gltf_fail(c, r, "%s: cannot allocate the geometry", path);
    fill_geometry(s, &out->geometry);
    r = read_targets(c, doc, p, path, &out->geometry);
    if (r == ORR_OK && !s->nrm) r = orri_gltf_flat_normals(c, &out->geometry);
    const orri_gltf_material *m = out->material >= 0 ? &doc->materials[out->material] : NULL;
    if (r == ORR_OK && m && m->normal_tex.texture >= 0 && !out->geometry.tangents) {
        bool uv1 = m->normal_tex.uv_set == 1;
        if (uv1 ? out->geometry.uvs2 != NULL : out->geometry.uvs != NULL)
            r = orri_gltf_tangents(c, &out->geometry, uv1);
        else
            orri_gltf_warn(c, "%s: a normal map without its TEXCOORD_%u: no tangents", path, uv1 ? 1u : 0u);
    }
    if (r == ORR_OK) to_orrery_winding(&out->geometry);
    return r;
}

orr_result orri_gltf_parse_prim(orri_gltf_ctx *c, const orri_gltf_doc *doc, const cJSON *p, const char *path,
                                orri_gltf_prim *out) {
    int64_t mode, material;
    if (!orri_json_int(c, p, "mode", 0, 6, 4, &mode, path) ||
        !orri_json_int(c, p, "material", 0, (int64_t)doc->material_count - 1, -1, &material, path))
        return ORR_ERROR_MALFORMED;
    out->material = (int32_t)material;
    const cJSON *a = orri_json_member(p, "attributes");
    if (!cJSON_IsObject(a)) return orri_gltf_fail(c, ORR_ERROR_MALFORMED, "%s.attributes is missing", path);
    if (mode < 4) {
        orri_gltf_warn(c, "%s: mode %lld (points or lines) is not drawn; skipped", path, (long long)mode);
        return ORR_OK;
    }
    prim_streams s = {0};
    if (!orri_json_member(a, "POSITION"))
        return orri_gltf_fail(c, ORR_ERROR_MALFORMED, "%s.attributes.POSITION is missing", path);
    orr_result r = attr_f(c, doc, a, "POSITION", M(3), path, UINT32_MAX, &s.pos, NULL);
    if (r == ORR_OK) s.vcount = doc->accessors[(int64_t)orri_json_member(a, "POSITION")->valuedouble].count;
    if (r == ORR_OK) r = read_streams(c, doc, a, path, &s);
    if (r == ORR_OK) r = read_indices(c, doc, p, path, &s);
    if (r == ORR_OK) r = to_triangles(c, &s, mode, path);
    if (r == ORR_OK) r = build(c, doc, p, path, &s, out);
    free_streams(c, &s);
    if (r != ORR_OK) orr_geometry_free(&out->geometry);
    return r;
}
