/* parse_tangent.c — what the glTF spec asks of a primitive without NORMAL
 * (flat normals) or without TANGENT under a normal map (generated tangents).
 *
 * Flat normals: the spec says flat; a vertex shared by faces of different
 * normals cannot carry one normal, so the primitive is unwelded first (one
 * vertex per index, every stream copied, morph targets included) and each
 * triangle's three vertices get its face normal, cross(p1 − p0, p2 − p0)
 * normalized: counter-clockwise front faces in glTF's right-handed space.
 *
 * Tangents: the spec names MikkTSpace. This is NOT full MikkTSpace (no
 * angle weighting, no splitting of vertices whose tangent frames disagree):
 * per-triangle tangents from the UV derivatives, accumulated per vertex
 * (area weighted, as the unnormalized cross products are), Gram-Schmidt
 * against the vertex normal, and the handedness sign w so that the glTF
 * bitangent cross(N, T)·w points up in the texture (towards decreasing v,
 * glTF's v axis runs down the image). Models made with MikkTSpace tangents
 * should ship them (the TANGENT attribute is then used as is). */
#include <math.h>
#include <string.h>

#include "gltf_int.h"
#include "orrery/handedness.h"

static uint32_t streams_of(const orr_geometry *g) {
    return (g->normals ? ORR_GEOMETRY_NORMALS : 0) | (g->uvs ? ORR_GEOMETRY_UVS : 0) |
           (g->colors ? ORR_GEOMETRY_COLORS : 0) | (g->tangents ? ORR_GEOMETRY_TANGENTS : 0) |
           (g->uvs2 ? ORR_GEOMETRY_UVS2 : 0) | (g->joints ? ORR_GEOMETRY_SKIN : 0);
}

#define COPY(field, n)                                                                                       \
    do {                                                                                                     \
        if (g->field) memcpy(u.field + (size_t)i * (n), g->field + (size_t)v * (n), (n) * sizeof *g->field); \
    } while (0)

static orr_result unweld(orri_gltf_ctx *c, orr_geometry *g) {
    orr_geometry u;
    if (!orri_gltf_charge(c, (size_t)g->index_count * 96, "flat normals")) return orr_last_result();
    orr_result r =
        orr_geometry_alloc(g->index_count, g->index_count, streams_of(g) | ORR_GEOMETRY_NORMALS, &g->allocator, &u);
    if (r == ORR_OK && g->morph_count) r = orr_geometry_alloc_morph(&u, g->morph_count, g->morph_normals != NULL);
    if (r != ORR_OK) {
        orr_geometry_free(&u);
        return orri_gltf_fail(c, r, "flat normals: cannot allocate %u vertices", g->index_count);
    }
    for (uint32_t i = 0; i < g->index_count; i++) {
        uint32_t v = g->indices[i];
        u.indices[i] = i;
        COPY(positions, 3);
        COPY(uvs, 2);
        COPY(colors, 4);
        COPY(tangents, 4);
        COPY(uvs2, 2);
        COPY(joints, 4);
        COPY(weights, 4);
        for (uint32_t t = 0; t < g->morph_count; t++) {
            size_t dst = ((size_t)t * u.vertex_count + i) * 3, src = ((size_t)t * g->vertex_count + v) * 3;
            memcpy(u.morph_positions + dst, g->morph_positions + src, 12);
            if (g->morph_normals) memcpy(u.morph_normals + dst, g->morph_normals + src, 12);
        }
    }
    orr_geometry_free(g);
    *g = u;
    return ORR_OK;
}

static void sub3(const float *a, const float *b, double *o) {
    for (int k = 0; k < 3; k++) o[k] = (double)a[k] - b[k];
}

static void cross3(const double *a, const double *b, double *o) {
    o[0] = a[1] * b[2] - a[2] * b[1], o[1] = a[2] * b[0] - a[0] * b[2], o[2] = a[0] * b[1] - a[1] * b[0];
}

static double norm3(double *v) {
    double l = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (l > 0)
        for (int k = 0; k < 3; k++) v[k] /= l;
    return l;
}

orr_result orri_gltf_flat_normals(orri_gltf_ctx *c, orr_geometry *g) {
    orr_result r = unweld(c, g);
    if (r != ORR_OK) return r;
    for (uint32_t t = 0; t + 2 < g->vertex_count; t += 3) {
        double e1[3], e2[3], n[3];
        sub3(g->positions + (size_t)(t + 1) * 3, g->positions + (size_t)t * 3, e1);
        sub3(g->positions + (size_t)(t + 2) * 3, g->positions + (size_t)t * 3, e2);
        cross3(e1, e2, n);
        if (norm3(n) == 0) n[1] = 1; /* degenerate: any unit normal */
        for (int v = 0; v < 3; v++)
            for (int k = 0; k < 3; k++) g->normals[(size_t)(t + v) * 3 + k] = (float)n[k];
    }
    return ORR_OK;
}

/* Accumulates one triangle's dP/du (s) and −dP/dv (b) into its vertices. */
static void accumulate(const orr_geometry *g, const float *uv, const uint32_t *tri, double *s, double *b) {
    double e1[3], e2[3];
    sub3(g->positions + (size_t)tri[1] * 3, g->positions + (size_t)tri[0] * 3, e1);
    sub3(g->positions + (size_t)tri[2] * 3, g->positions + (size_t)tri[0] * 3, e2);
    const float *t0 = uv + (size_t)tri[0] * 2, *t1 = uv + (size_t)tri[1] * 2, *t2 = uv + (size_t)tri[2] * 2;
    double du1 = t1[0] - t0[0], dv1 = t1[1] - t0[1], du2 = t2[0] - t0[0], dv2 = t2[1] - t0[1];
    double det = du1 * dv2 - du2 * dv1;
    if (fabs(det) < 1e-20) return;
    double inv = 1.0 / det;
    for (int v = 0; v < 3; v++)
        for (int k = 0; k < 3; k++) {
            s[(size_t)tri[v] * 3 + k] += (e1[k] * dv2 - e2[k] * dv1) * inv;
            b[(size_t)tri[v] * 3 + k] -= (e2[k] * du1 - e1[k] * du2) * inv;
        }
}

/* Gram-Schmidt of s against the normal, and the sign of the bitangent. */
static void finish(const float *nf, const double *s, const double *b, float *out) {
    double n[3] = {nf[0], nf[1], nf[2]}, t[3], nt[3];
    double d = n[0] * s[0] + n[1] * s[1] + n[2] * s[2];
    for (int k = 0; k < 3; k++) t[k] = s[k] - n[k] * d;
    if (norm3(t) == 0) { /* no UV gradient: any vector perpendicular to n */
        double a[3] = {fabs(n[0]) < 0.9 ? 1 : 0, fabs(n[0]) < 0.9 ? 0 : 1, 0};
        cross3(n, a, t);
        cross3(t, n, t);
        norm3(t);
    }
    cross3(n, t, nt);
    double w = nt[0] * b[0] + nt[1] * b[1] + nt[2] * b[2] < 0 ? -1.0 : 1.0;
    out[0] = (float)t[0], out[1] = (float)t[1], out[2] = (float)t[2], out[3] = (float)w;
}

orr_result orri_gltf_tangents(orri_gltf_ctx *c, orr_geometry *g, bool uv1) {
    size_t n = (size_t)g->vertex_count * 3;
    double *s = orri_gltf_alloc(c, n * 2, sizeof(double), "tangents");
    if (!s) return orr_last_result();
    if (!orri_gltf_charge(c, (size_t)g->vertex_count * 16, "tangents")) {
        orri_gltf_free(c, s);
        return orr_last_result();
    }
    /* the geometry's allocator is the context's (resolved, all hooks set) */
    g->tangents = g->allocator.alloc((size_t)g->vertex_count * 16 + 1, g->allocator.user);
    if (!g->tangents) {
        orri_gltf_free(c, s);
        return orri_gltf_fail(c, ORR_ERROR_OUT_OF_HOST_MEMORY, "tangents: out of memory");
    }
    const float *uv = uv1 ? g->uvs2 : g->uvs;
    for (uint32_t i = 0; i + 2 < g->index_count; i += 3) accumulate(g, uv, g->indices + i, s, s + n);
    for (uint32_t v = 0; v < g->vertex_count; v++)
        finish(g->normals + (size_t)v * 3, s + (size_t)v * 3, s + n + (size_t)v * 3, g->tangents + (size_t)v * 4);
    orri_gltf_free(c, s);
    return ORR_OK;
}
