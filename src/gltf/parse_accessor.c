/* parse_accessor.c — accessors (glTF 2.0 spec 3.6.2): every componentType
 * (5120 BYTE .. 5126 FLOAT) and type (SCALAR .. MAT4, with the column padding
 * of 1- and 2-byte matrices), byteStride, normalized integers, sparse
 * substitution, accessors without a bufferView (zeros). Bounds are checked
 * in 64-bit before reading: the last element must end inside its view, the
 * view inside its buffer (parse_buffer.c), sparse indices below count.
 * Elements are read with memcpy (no alignment is assumed). Integer types
 * that are not normalized read as their value (KHR_mesh_quantization). */
#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gltf_int.h"
#include "orrery/handedness.h"

static uint32_t comp_size(uint32_t ct) { return ct == 5120 || ct == 5121 ? 1u : ct == 5122 || ct == 5123 ? 2u : 4u; }

static uint32_t type_comps(const char *t) {
    static const char *const names[] = {"SCALAR", "VEC2", "VEC3", "VEC4", "MAT2", "MAT3", "MAT4"};
    static const uint32_t comps[] = {1, 2, 3, 4, 4, 9, 16};
    for (int i = 0; t && i < 7; i++)
        if (strcmp(t, names[i]) == 0) return comps[i];
    return 0;
}

/* Bytes of one element: matrix columns start on 4-byte boundaries. */
static uint32_t elem_size(const orri_gltf_accessor *a) {
    uint32_t cs = comp_size(a->component);
    uint32_t rows = a->comps == 4 && a->is_mat ? 2u : a->comps == 9 ? 3u : a->comps == 16 ? 4u : 0u;
    if (!rows) return a->comps * cs;
    return rows * ((rows * cs + 3u) & ~3u);
}

/* The byte offset of component k of an element. */
static uint32_t comp_offset(const orri_gltf_accessor *a, uint32_t k) {
    uint32_t cs = comp_size(a->component);
    uint32_t rows = a->comps == 4 && a->is_mat ? 2u : a->comps == 9 ? 3u : a->comps == 16 ? 4u : 0u;
    if (!rows) return k * cs;
    return (k / rows) * ((rows * cs + 3u) & ~3u) + (k % rows) * cs;
}

static double read_comp(const uint8_t *p, uint32_t ct, bool normalized) {
    switch (ct) {
    case 5120: {
        int8_t v;
        memcpy(&v, p, 1);
        return normalized ? fmax(v / 127.0, -1.0) : v;
    }
    case 5121: return normalized ? p[0] / 255.0 : p[0];
    case 5122: {
        int16_t v;
        memcpy(&v, p, 2);
        return normalized ? fmax(v / 32767.0, -1.0) : v;
    }
    case 5123: {
        uint16_t v;
        memcpy(&v, p, 2);
        return normalized ? v / 65535.0 : v;
    }
    case 5125: {
        uint32_t v;
        memcpy(&v, p, 4);
        return v;
    }
    default: {
        float v;
        memcpy(&v, p, 4);
        return v;
    }
    }
}

/* Checks that `count` elements of `size` bytes at `offset` with `stride` fit in view `vi`. */
static orr_result check_range(orri_gltf_ctx *c, const orri_gltf_doc *doc, int64_t vi, size_t offset, uint32_t stride,
                              uint32_t size, uint32_t count, const char *path) {
    if (vi < 0 || count == 0) return ORR_OK;
    const orri_gltf_view *v = &doc->views[vi];
    uint64_t end = (uint64_t)offset + (uint64_t)stride * (count - 1u) + size;
    if (end > v->length)
        return orri_gltf_fail(c, ORR_ERROR_MALFORMED,
                              "%s: %u elements of %u bytes (stride %u) from byte %zu end at byte %llu, past "
                              "bufferViews[%lld]'s %zu bytes",
                              path, count, size, stride, offset, (unsigned long long)end, (long long)vi, v->length);
    return ORR_OK;
}

static orr_result parse_sparse(orri_gltf_ctx *c, const cJSON *s, const orri_gltf_doc *doc, orri_gltf_accessor *a,
                               const char *path) {
    char p[96];
    snprintf(p, sizeof p, "%s.sparse", path);
    int64_t count, iv, io, ict, vv, vo;
    const cJSON *ix = orri_json_member(s, "indices"), *vals = orri_json_member(s, "values");
    int64_t maxv = (int64_t)doc->view_count - 1;
    if (!orri_json_int(c, s, "count", 1, a->count, -1, &count, p) || !ix || !vals ||
        !orri_json_int(c, ix, "bufferView", 0, maxv, -1, &iv, p) ||
        !orri_json_int(c, ix, "byteOffset", 0, INT64_C(1) << 52, 0, &io, p) ||
        !orri_json_int(c, ix, "componentType", 5121, 5125, -1, &ict, p) ||
        !orri_json_int(c, vals, "bufferView", 0, maxv, -1, &vv, p) ||
        !orri_json_int(c, vals, "byteOffset", 0, INT64_C(1) << 52, 0, &vo, p))
        return orri_gltf_fail(c, ORR_ERROR_MALFORMED, "%s is incomplete or malformed", p);
    if (count < 0 || iv < 0 || vv < 0 || (ict != 5121 && ict != 5123 && ict != 5125))
        return orri_gltf_fail(c, ORR_ERROR_MALFORMED, "%s needs count, indices (unsigned type) and values", p);
    a->sparse_count = (uint32_t)count;
    a->sparse_index_view = (int32_t)iv, a->sparse_value_view = (int32_t)vv;
    a->sparse_index_offset = (size_t)io, a->sparse_value_offset = (size_t)vo;
    a->sparse_index_component = (uint32_t)ict;
    orr_result r =
        check_range(c, doc, iv, (size_t)io, comp_size((uint32_t)ict), comp_size((uint32_t)ict), (uint32_t)count, p);
    if (r == ORR_OK) r = check_range(c, doc, vv, (size_t)vo, elem_size(a), elem_size(a), (uint32_t)count, p);
    return r;
}

static orr_result parse_accessor(orri_gltf_ctx *c, const cJSON *j, uint32_t i, orri_gltf_doc *doc) {
    char path[64];
    snprintf(path, sizeof path, "accessors[%u]", i);
    orri_gltf_accessor *a = &doc->accessors[i];
    int64_t view, offset, ct, count;
    if (!orri_json_int(c, j, "bufferView", 0, (int64_t)doc->view_count - 1, -1, &view, path) ||
        !orri_json_int(c, j, "byteOffset", 0, INT64_C(1) << 52, 0, &offset, path) ||
        !orri_json_int(c, j, "componentType", 5120, 5126, -1, &ct, path) ||
        !orri_json_int(c, j, "count", 1, INT64_C(1) << 40, -1, &count, path))
        return ORR_ERROR_MALFORMED;
    const char *type = orri_json_str(j, "type");
    a->comps = type_comps(type);
    a->is_mat = type && type[0] == 'M';
    if (ct < 0 || ct == 5124 || count < 0 || !a->comps)
        return orri_gltf_fail(c, ORR_ERROR_MALFORMED, "%s needs a componentType (5120..5126 but 5124), count and type",
                              path);
    if (count > ORRI_GLTF_MAX_ELEMENTS)
        return orri_gltf_fail(c, ORR_ERROR_LIMIT_REACHED, "%s.count %lld is over the limit of %u", path,
                              (long long)count, ORRI_GLTF_MAX_ELEMENTS);
    a->view = (int32_t)view, a->offset = (size_t)offset, a->component = (uint32_t)ct, a->count = (uint32_t)count;
    const cJSON *norm = orri_json_member(j, "normalized");
    a->normalized = cJSON_IsTrue(norm);
    if (a->normalized && (ct == 5125 || ct == 5126))
        return orri_gltf_fail(c, ORR_ERROR_MALFORMED, "%s.normalized on a %s accessor", path,
                              ct == 5126 ? "FLOAT" : "UNSIGNED_INT");
    a->sparse_index_view = a->sparse_value_view = -1;
    uint32_t size = elem_size(a);
    uint32_t stride = view >= 0 && doc->views[view].stride ? doc->views[view].stride : size;
    if (stride < size)
        return orri_gltf_fail(c, ORR_ERROR_MALFORMED, "%s: byteStride %u is smaller than an element (%u bytes)", path,
                              stride, size);
    orr_result r = check_range(c, doc, view, a->offset, stride, size, a->count, path);
    const cJSON *sparse = orri_json_member(j, "sparse");
    if (r == ORR_OK && sparse) r = parse_sparse(c, sparse, doc, a, path);
    return r;
}

orr_result orri_gltf_parse_accessors(orri_gltf_ctx *c, const cJSON *root, orri_gltf_doc *doc) {
    int64_t n = orri_json_array(c, root, "accessors", "");
    if (n < 0) return orr_last_result();
    if (n && !(doc->accessors = orri_gltf_alloc(c, (size_t)n, sizeof *doc->accessors, "accessors")))
        return orr_last_result();
    doc->accessor_count = (uint32_t)n;
    uint32_t i = 0;
    for (const cJSON *a = n ? orri_json_member(root, "accessors")->child : NULL; a; a = a->next, i++) {
        orr_result r = parse_accessor(c, a, i, doc);
        if (r != ORR_OK) return r;
    }
    return ORR_OK;
}

static const uint8_t *view_bytes(const orri_gltf_doc *doc, int32_t vi, size_t offset) {
    const orri_gltf_view *v = &doc->views[vi];
    return doc->buffers[v->buffer].data + v->offset + offset;
}

/* count × comps doubles of accessor a (dense, then sparse). */
static void read_all(const orri_gltf_doc *doc, const orri_gltf_accessor *a, double *out) {
    uint32_t size = elem_size(a), n = a->comps;
    if (a->view >= 0) {
        uint32_t stride = doc->views[a->view].stride ? doc->views[a->view].stride : size;
        const uint8_t *base = view_bytes(doc, a->view, a->offset);
        for (uint32_t e = 0; e < a->count; e++)
            for (uint32_t k = 0; k < n; k++)
                out[(size_t)e * n + k] =
                    read_comp(base + (size_t)e * stride + comp_offset(a, k), a->component, a->normalized);
    }
    if (!a->sparse_count) return;
    const uint8_t *ix = view_bytes(doc, a->sparse_index_view, a->sparse_index_offset);
    const uint8_t *vals = view_bytes(doc, a->sparse_value_view, a->sparse_value_offset);
    uint32_t ics = comp_size(a->sparse_index_component);
    for (uint32_t s = 0; s < a->sparse_count; s++) {
        double target = read_comp(ix + (size_t)s * ics, a->sparse_index_component, false);
        if (target >= a->count) continue; /* checked by read_checked */
        for (uint32_t k = 0; k < n; k++)
            out[(size_t)target * n + k] =
                read_comp(vals + (size_t)s * size + comp_offset(a, k), a->component, a->normalized);
    }
}

/* Checks the reference, the type and the sparse indices; returns the doubles. */
static orr_result read_checked(orri_gltf_ctx *c, const orri_gltf_doc *doc, int64_t index, uint32_t comps_mask,
                               const char *path, double **out, const orri_gltf_accessor **acc) {
    if (index < 0 || index >= doc->accessor_count)
        return orri_gltf_fail(c, ORR_ERROR_MALFORMED, "%s: accessor %lld does not exist (%u accessors)", path,
                              (long long)index, doc->accessor_count);
    const orri_gltf_accessor *a = &doc->accessors[index];
    if (!(comps_mask & (1u << a->comps)))
        return orri_gltf_fail(c, ORR_ERROR_MALFORMED, "%s: accessors[%lld] has %u components, not what it is used for",
                              path, (long long)index, a->comps);
    if (a->sparse_count) {
        const uint8_t *ix = view_bytes(doc, a->sparse_index_view, a->sparse_index_offset);
        uint32_t ics = comp_size(a->sparse_index_component);
        for (uint32_t s = 0; s < a->sparse_count; s++)
            if (read_comp(ix + (size_t)s * ics, a->sparse_index_component, false) >= a->count)
                return orri_gltf_fail(c, ORR_ERROR_MALFORMED, "accessors[%lld].sparse.indices[%u] is past count %u",
                                      (long long)index, s, a->count);
    }
    *out = orri_gltf_alloc(c, (size_t)a->count * a->comps, sizeof(double), path);
    if (!*out) return orr_last_result();
    c->used -= (size_t)a->count * a->comps * sizeof(double); /* scratch: not kept */
    read_all(doc, a, *out);
    *acc = a;
    return ORR_OK;
}

orr_result orri_gltf_read_floats(orri_gltf_ctx *c, const orri_gltf_doc *doc, int64_t index, uint32_t comps_mask,
                                 const char *path, float **out, uint32_t *count, uint32_t *comps) {
    double *d;
    const orri_gltf_accessor *a;
    orr_result r = read_checked(c, doc, index, comps_mask, path, &d, &a);
    if (r != ORR_OK) return r;
    size_t n = (size_t)a->count * a->comps;
    float *f = orri_gltf_alloc(c, n, sizeof(float), path);
    if (f)
        for (size_t i = 0; i < n; i++) {
            f[i] = (float)d[i];
            if (!isfinite(f[i])) f[i] = 0; /* NaN/inf from FLOAT data never reach the GPU */
        }
    orri_gltf_free(c, d);
    if (!f) return orr_last_result();
    *out = f, *count = a->count, *comps = a->comps;
    return ORR_OK;
}

orr_result orri_gltf_read_uints(orri_gltf_ctx *c, const orri_gltf_doc *doc, int64_t index, uint32_t comps_mask,
                                const char *path, uint32_t **out, uint32_t *count, uint32_t *comps) {
    if (index >= 0 && index < doc->accessor_count) {
        uint32_t ct = doc->accessors[index].component;
        if ((ct != 5121 && ct != 5123 && ct != 5125) || doc->accessors[index].normalized)
            return orri_gltf_fail(c, ORR_ERROR_MALFORMED, "%s: accessors[%lld] is not of an unsigned integer type",
                                  path, (long long)index);
    }
    double *d;
    const orri_gltf_accessor *a;
    orr_result r = read_checked(c, doc, index, comps_mask, path, &d, &a);
    if (r != ORR_OK) return r;
    size_t n = (size_t)a->count * a->comps;
    uint32_t *u = orri_gltf_alloc(c, n, sizeof(uint32_t), path);
    if (u)
        for (size_t i = 0; i < n; i++) u[i] = (uint32_t)d[i];
    orri_gltf_free(c, d);
    if (!u) return orr_last_result();
    *out = u, *count = a->count, *comps = a->comps;
    return ORR_OK;
}
