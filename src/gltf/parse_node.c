/* parse_node.c — nodes (glTF 2.0 spec 3.5): TRS or matrix (decomposed into
 * TRS, as Babylon.js does, so the scene's nodes can be animated), mesh,
 * camera, skin, morph weights, KHR_lights_punctual's light and
 * EXT_mesh_gpu_instancing's per-instance TRS (as column-major matrices).
 * Refused: a child index out of range, a node that is its own child or the
 * child of two parents, a cycle, a hierarchy deeper than ORRI_GLTF_MAX_DEPTH,
 * a scene root that has a parent. */
#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gltf_int.h"
#include "orrery/handedness.h"

void orri_gltf_decompose(const double m[16], double t[3], double r[4], double s[3]) {
    double a[3][3];
    for (int k = 0; k < 3; k++) {
        t[k] = m[12 + k];
        s[k] = sqrt(m[k * 4] * m[k * 4] + m[k * 4 + 1] * m[k * 4 + 1] + m[k * 4 + 2] * m[k * 4 + 2]);
    }
    double det =
        m[0] * (m[5] * m[10] - m[9] * m[6]) - m[4] * (m[1] * m[10] - m[9] * m[2]) + m[8] * (m[1] * m[6] - m[5] * m[2]);
    if (det < 0) s[0] = -s[0];
    for (int col = 0; col < 3; col++)
        for (int row = 0; row < 3; row++) a[row][col] = s[col] != 0 ? m[col * 4 + row] / s[col] : (row == col);
    double tr = a[0][0] + a[1][1] + a[2][2];
    if (tr > 0) {
        double q = sqrt(tr + 1.0) * 2;
        r[3] = 0.25 * q, r[0] = (a[2][1] - a[1][2]) / q, r[1] = (a[0][2] - a[2][0]) / q, r[2] = (a[1][0] - a[0][1]) / q;
    } else if (a[0][0] > a[1][1] && a[0][0] > a[2][2]) {
        double q = sqrt(1.0 + a[0][0] - a[1][1] - a[2][2]) * 2;
        r[3] = (a[2][1] - a[1][2]) / q, r[0] = 0.25 * q, r[1] = (a[0][1] + a[1][0]) / q, r[2] = (a[0][2] + a[2][0]) / q;
    } else if (a[1][1] > a[2][2]) {
        double q = sqrt(1.0 + a[1][1] - a[0][0] - a[2][2]) * 2;
        r[3] = (a[0][2] - a[2][0]) / q, r[0] = (a[0][1] + a[1][0]) / q, r[1] = 0.25 * q, r[2] = (a[1][2] + a[2][1]) / q;
    } else {
        double q = sqrt(1.0 + a[2][2] - a[0][0] - a[1][1]) * 2;
        r[3] = (a[1][0] - a[0][1]) / q, r[0] = (a[0][2] + a[2][0]) / q, r[1] = (a[1][2] + a[2][1]) / q, r[2] = 0.25 * q;
    }
}

/* Column-major T·R·S of an instance. */
static void compose(const float *t, const float *q, const float *s, float *m) {
    double x = q[0], y = q[1], z = q[2], w = q[3];
    double l = sqrt(x * x + y * y + z * z + w * w);
    if (l > 0) x /= l, y /= l, z /= l, w /= l;
    double rm[9] = {1 - 2 * (y * y + z * z), 2 * (x * y + z * w),     2 * (x * z - y * w),
                    2 * (x * y - z * w),     1 - 2 * (x * x + z * z), 2 * (y * z + x * w),
                    2 * (x * z + y * w),     2 * (y * z - x * w),     1 - 2 * (x * x + y * y)};
    for (int col = 0; col < 3; col++) {
        for (int row = 0; row < 3; row++) m[col * 4 + row] = (float)(rm[col * 3 + row] * s[col]);
        m[col * 4 + 3] = 0;
    }
    m[12] = t[0], m[13] = t[1], m[14] = t[2], m[15] = 1;
}

static orr_result parse_instancing(orri_gltf_ctx *c, const orri_gltf_doc *doc, const cJSON *ext, const char *path,
                                   orri_gltf_node *n) {
    const cJSON *attrs = orri_json_member(ext, "attributes");
    static const char *const names[3] = {"TRANSLATION", "ROTATION", "SCALE"};
    static const uint32_t masks[3] = {1u << 3, 1u << 4, 1u << 3};
    float *v[3] = {0};
    uint32_t count = 0, comps;
    orr_result r = ORR_OK;
    for (int k = 0; k < 3 && r == ORR_OK; k++) {
        const cJSON *j = orri_json_member(attrs, names[k]);
        if (!j) continue;
        char p[160];
        snprintf(p, sizeof p, "%s.extensions.EXT_mesh_gpu_instancing.attributes.%s", path, names[k]);
        uint32_t n_k = 0;
        r = cJSON_IsNumber(j) ? orri_gltf_read_floats(c, doc, (int64_t)j->valuedouble, masks[k], p, &v[k], &n_k, &comps)
                              : orri_gltf_fail(c, ORR_ERROR_MALFORMED, "%s is not an accessor index", p);
        if (r == ORR_OK && count && n_k != count)
            r = orri_gltf_fail(c, ORR_ERROR_MALFORMED, "%s has %u elements, another attribute %u", p, n_k, count);
        count = n_k;
    }
    if (r == ORR_OK && count && (n->instances = orri_gltf_alloc(c, count, 16 * sizeof(float), path))) {
        static const float zero[3] = {0, 0, 0}, one[3] = {1, 1, 1}, ident[4] = {0, 0, 0, 1};
        for (uint32_t i = 0; i < count; i++)
            compose(v[0] ? v[0] + i * 3 : zero, v[1] ? v[1] + i * 4 : ident, v[2] ? v[2] + i * 3 : one,
                    n->instances + (size_t)i * 16);
        n->instance_count = count;
    } else if (r == ORR_OK && count) {
        r = orr_last_result();
    }
    for (int k = 0; k < 3; k++) orri_gltf_free(c, v[k]);
    return r;
}

static orr_result parse_transform(orri_gltf_ctx *c, const cJSON *j, const char *path, orri_gltf_node *n) {
    double m[16];
    n->rotation[3] = 1, n->scale[0] = n->scale[1] = n->scale[2] = 1;
    if (orri_json_member(j, "matrix")) {
        if (!orri_json_nums(c, j, "matrix", 16, m, path)) return ORR_ERROR_MALFORMED;
        n->has_matrix = true;
        orri_gltf_decompose(m, n->translation, n->rotation, n->scale);
        return ORR_OK;
    }
    if (!orri_json_nums(c, j, "translation", 3, n->translation, path) ||
        !orri_json_nums(c, j, "rotation", 4, n->rotation, path) || !orri_json_nums(c, j, "scale", 3, n->scale, path))
        return ORR_ERROR_MALFORMED;
    const double *q = n->rotation;
    if (!(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3] > 1e-12))
        return orri_gltf_fail(c, ORR_ERROR_MALFORMED, "%s.rotation is not a unit quaternion", path);
    return ORR_OK;
}

static orr_result parse_node(orri_gltf_ctx *c, const cJSON *j, uint32_t i, orri_gltf_doc *doc) {
    char path[64];
    snprintf(path, sizeof path, "nodes[%u]", i);
    orri_gltf_node *n = &doc->nodes[i];
    n->name = orri_gltf_strdup(c, orri_json_str(j, "name"));
    n->parent = -1;
    int64_t mesh, cam, skin, light = -1;
    const cJSON *ext = orri_json_member(j, "extensions");
    const cJSON *lp = orri_json_member(ext, "KHR_lights_punctual");
    if (!orri_json_int(c, j, "mesh", 0, (int64_t)doc->mesh_count - 1, -1, &mesh, path) ||
        !orri_json_int(c, j, "camera", 0, (int64_t)doc->camera_count - 1, -1, &cam, path) ||
        !orri_json_int(c, j, "skin", 0, INT32_MAX, -1, &skin, path) ||
        (lp && !orri_json_int(c, lp, "light", 0, (int64_t)doc->light_count - 1, -1, &light, path)))
        return ORR_ERROR_MALFORMED;
    n->mesh = (int32_t)mesh, n->camera = (int32_t)cam, n->skin = (int32_t)skin, n->light = (int32_t)light;
    orr_result r = parse_transform(c, j, path, n);
    if (r == ORR_OK) r = orri_gltf_read_weights(c, j, path, &n->weights, &n->weight_count);
    const cJSON *inst = orri_json_member(ext, "EXT_mesh_gpu_instancing");
    if (r == ORR_OK && inst) r = parse_instancing(c, doc, inst, path, n);
    int64_t kids = r == ORR_OK ? orri_json_array(c, j, "children", path) : 0;
    if (kids < 0) return orr_last_result();
    if (r != ORR_OK || kids == 0) return r;
    if (!(n->children = orri_gltf_alloc(c, (size_t)kids, sizeof(uint32_t), path))) return orr_last_result();
    uint32_t k = 0;
    for (const cJSON *e = orri_json_member(j, "children")->child; e; e = e->next, k++) {
        double d = cJSON_IsNumber(e) ? e->valuedouble : -1;
        if (!(d >= 0 && d < doc->node_count) || d != floor(d))
            return orri_gltf_fail(c, ORR_ERROR_MALFORMED, "%s.children[%u] is not a node index (%u nodes)", path, k,
                                  doc->node_count);
        n->children[k] = (uint32_t)d;
    }
    n->child_count = (uint32_t)kids;
    return ORR_OK;
}

/* A node's skin exists and every JOINTS_0 index of its mesh is below the
 * skin's joint count (the spec; orr_mesh_set_skin would refuse it). */
static orr_result check_skin(orri_gltf_ctx *c, const orri_gltf_doc *doc, uint32_t i) {
    const orri_gltf_node *n = &doc->nodes[i];
    if (n->skin < 0) return ORR_OK;
    if (n->skin >= (int32_t)doc->skin_count)
        return orri_gltf_fail(c, ORR_ERROR_MALFORMED, "nodes[%u].skin %d does not exist", i, n->skin);
    uint32_t joints = doc->skins[n->skin].joint_count;
    for (uint32_t p = 0; n->mesh >= 0 && p < doc->meshes[n->mesh].prim_count; p++) {
        const orr_geometry *g = &doc->meshes[n->mesh].prims[p].geometry;
        for (uint32_t v = 0; g->joints && v < g->vertex_count * 4; v++)
            if (g->joints[v] >= joints && g->weights[v] != 0)
                return orri_gltf_fail(c, ORR_ERROR_MALFORMED,
                                      "meshes[%d].primitives[%u].attributes.JOINTS_0[%u] = %u, skins[%d] (nodes[%u]) "
                                      "has %u joints",
                                      n->mesh, p, v / 4, g->joints[v], n->skin, i, joints);
    }
    return ORR_OK;
}

/* Parents from children; cycles and depth. */
static orr_result link(orri_gltf_ctx *c, orri_gltf_doc *doc) {
    for (uint32_t i = 0; i < doc->node_count; i++)
        for (uint32_t k = 0; k < doc->nodes[i].child_count; k++) {
            uint32_t ch = doc->nodes[i].children[k];
            if (doc->nodes[ch].parent >= 0 || ch == i)
                return orri_gltf_fail(c, ORR_ERROR_MALFORMED,
                                      "nodes[%u].children[%u]: node %u already has a parent (node %d): a node has one "
                                      "parent",
                                      i, k, ch, ch == i ? (int)i : doc->nodes[ch].parent);
            doc->nodes[ch].parent = (int32_t)i;
        }
    for (uint32_t i = 0; i < doc->node_count; i++) {
        uint32_t depth = 0;
        for (int32_t p = doc->nodes[i].parent; p >= 0; p = doc->nodes[p].parent)
            if (++depth > ORRI_GLTF_MAX_DEPTH || depth > doc->node_count)
                return orri_gltf_fail(c, ORR_ERROR_MALFORMED,
                                      depth > doc->node_count ? "nodes[%u]: the hierarchy has a cycle"
                                                              : "nodes[%u] is deeper than the limit of 256",
                                      i);
    }
    for (uint32_t i = 0; i < doc->node_count; i++) {
        orr_result r = check_skin(c, doc, i);
        if (r != ORR_OK) return r;
    }
    return ORR_OK;
}

/* The default scene's roots (scene, else scenes[0], else every parentless node). */
static orr_result parse_scene(orri_gltf_ctx *c, const cJSON *root, orri_gltf_doc *doc) {
    int64_t ns = orri_json_array(c, root, "scenes", ""), s;
    if (ns < 0 || !orri_json_int(c, root, "scene", 0, ns - 1, 0, &s, "")) return ORR_ERROR_MALFORMED;
    const cJSON *scene = ns ? cJSON_GetArrayItem(orri_json_member(root, "scenes"), (int)s) : NULL;
    char path[64];
    snprintf(path, sizeof path, "scenes[%lld]", (long long)s);
    int64_t n = scene ? orri_json_array(c, scene, "nodes", path) : 0;
    if (n < 0) return orr_last_result();
    doc->scene_roots = orri_gltf_alloc(c, scene ? (size_t)n : doc->node_count, sizeof(uint32_t), "scene roots");
    if (!doc->scene_roots) return orr_last_result();
    if (!scene) {
        for (uint32_t i = 0; i < doc->node_count; i++)
            if (doc->nodes[i].parent < 0) doc->scene_roots[doc->scene_root_count++] = i;
        return ORR_OK;
    }
    uint32_t k = 0;
    for (const cJSON *e = n ? orri_json_member(scene, "nodes")->child : NULL; e; e = e->next, k++) {
        double d = cJSON_IsNumber(e) ? e->valuedouble : -1;
        if (!(d >= 0 && d < doc->node_count) || d != floor(d) || doc->nodes[(uint32_t)d].parent >= 0)
            return orri_gltf_fail(c, ORR_ERROR_MALFORMED, "%s.nodes[%u] is not the index of a root node", path, k);
        doc->scene_roots[doc->scene_root_count++] = (uint32_t)d;
    }
    return ORR_OK;
}

orr_result orri_gltf_parse_nodes(orri_gltf_ctx *c, const cJSON *root, orri_gltf_doc *doc) {
    int64_t n = orri_json_array(c, root, "nodes", "");
    if (n < 0) return orr_last_result();
    if (n && !(doc->nodes = orri_gltf_alloc(c, (size_t)n, sizeof *doc->nodes, "nodes"))) return orr_last_result();
    doc->node_count = (uint32_t)n;
    uint32_t i = 0;
    for (const cJSON *j = n ? orri_json_member(root, "nodes")->child : NULL; j; j = j->next, i++) {
        orr_result r = parse_node(c, j, i, doc);
        if (r != ORR_OK) return r;
    }
    orr_result r = link(c, doc);
    return r == ORR_OK ? parse_scene(c, root, doc) : r;
}
