/* scene_crowd.c — orr_gltf_create_crowd: a skinned crowd (orrery/gltf.h,
 * src/anim/crowd.c) baked from a loaded model.
 *
 * The bake goes through the model's own animation groups and skin, so a
 * crowd instance at a baked frame's time has exactly the joint matrices a
 * copy made by orr_gltf_instantiate has at that time: a private copy is made
 * (its `__root__` at the scene origin), each clip is posed with go_to at
 * every baked time, and joint world · inverse bind is kept per joint (the
 * crowd frame: `__root__`'s handedness conversion included; the mesh node's
 * own transform cancels out, as glTF skinning says). A fresh copy per clip,
 * so a clip never inherits what the previous one left on paths it does not
 * animate. The copy is destroyed before the call returns.
 *
 * Handedness: the baked matrices include `__root__`'s conversion (left-handed
 * build: an X mirror, determinant −1). The crowd mesh itself is not
 * mirrored, so the renderer's mirrored-mesh rule does not flip its front
 * face; the crowd's replicated indices are rewound instead (`mirrored`,
 * src/render/crowd_gpu.c), which is what the rule does for a copy. The
 * right-handed build bakes glTF's native space, unmirrored. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "anim/anim_int.h"
#include "core/core_int.h"
#include "gltf_scene.h"
#include "orrery/handedness.h" /* the private copy's `__root__` carries the build's conversion into the bake */

/* The first mesh of the copy (node order) with a live skin; 0 when none. */
static uint32_t skinned_mesh(orr_scene *s, const orr_gltf *g) {
    for (uint32_t i = 0; i < g->mesh_total; i++) {
        orri_node *n = orri_scene_node(s, g->meshes[i].id);
        if (n && n->kind == ORRI_NODE_MESH && orri_skin_get(s, orri_node_mesh(n)->skin) &&
            orri_node_mesh(n)->geometry.joints && orri_node_mesh(n)->geometry.weights)
            return g->meshes[i].id;
    }
    return 0;
}

/* A private copy with every group stopped, not looping. */
static orr_result private_copy(orr_scene *s, const orr_gltf *src, orr_gltf **out) {
    orr_result r = orr_gltf_instantiate(s, src, (orr_node){0}, out);
    for (uint32_t i = 0; r == ORR_OK && i < orr_gltf_animation_count(*out); i++) {
        orr_animation_group *grp = orr_gltf_animation(*out, i);
        orr_animation_group_play(grp, false);
        orr_animation_group_stop(grp);
    }
    return r;
}

static uint32_t frames_of(double duration, double rate) {
    return duration > 0 ? (uint32_t)ceil(duration * rate - 1e-9) + 1 : 1;
}

/* Frame k of the clip on the copy: joint world · inverse bind per joint. */
static void bake_frame(orr_scene *s, orr_crowd *c, uint32_t mesh, orr_animation_group *grp, uint32_t clip, uint32_t k,
                       float *out) {
    orr_animation_group_go_to(grp, fmin(k / c->rate, c->clip_duration[clip]));
    orri_skin *sk = orri_skin_get(s, orri_node_mesh(orri_scene_node(s, mesh))->skin);
    for (uint32_t j = 0; j < c->joints; j++) {
        orri_node *jn = orri_scene_node(s, sk->joints[j]);
        orr_dmat4 m = jn ? orr_dmat4_mul(*orri_node_world(s, jn, NULL), sk->inv_bind[j]) : orr_dmat4_identity();
        for (int r = 0; r < 3; r++)
            for (int q = 0; q < 4; q++) out[j * 12 + r * 4 + q] = (float)m.m[q * 4 + r];
    }
}

/* Every clip, each on a fresh private copy. */
static orr_result bake(orr_scene *s, const orr_gltf *src, orr_crowd *c) {
    orr_result r = ORR_OK;
    for (uint32_t clip = 0; r == ORR_OK && clip < c->clips; clip++) {
        orr_gltf *tmp = NULL;
        r = private_copy(s, src, &tmp);
        uint32_t mesh = r == ORR_OK ? skinned_mesh(s, tmp) : 0;
        for (uint32_t k = 0; mesh && k < c->clip_frames[clip]; k++)
            bake_frame(s, c, mesh, orr_gltf_animation(tmp, clip), clip, k,
                       c->palettes + ((size_t)c->clip_first[clip] + k) * c->joints * 12);
        if (clip == 0 && mesh)
            c->mirrored = orr_dmat4_determinant(*orri_node_world(s, orri_scene_node(s, tmp->root.id), NULL)) < 0;
        orr_gltf_destroy(s, tmp);
    }
    return r;
}

/* A sphere around every vertex in every baked pose (crowd frame). */
static void bound(orr_crowd *c, const orr_geometry *g) {
    orr_dbox box = orr_dbox_empty();
    for (uint32_t f = 0; f < c->frame_total; f++) {
        const float *pal = c->palettes + (size_t)f * c->joints * 12;
        for (uint32_t v = 0; v < g->vertex_count; v++) {
            const float *p = &g->positions[v * 3];
            double q[3] = {0, 0, 0};
            for (int i = 0; i < 4; i++) {
                float w = g->weights[v * 4 + i];
                if (w == 0 || g->joints[v * 4 + i] >= c->joints) continue;
                const float *m = pal + (size_t)g->joints[v * 4 + i] * 12;
                for (int r = 0; r < 3; r++)
                    q[r] += w * (m[r * 4] * p[0] + m[r * 4 + 1] * p[1] + m[r * 4 + 2] * p[2] + m[r * 4 + 3]);
            }
            box = orr_dbox_extend(box, (orr_dvec3){q[0], q[1], q[2]});
        }
    }
    c->sphere = orr_dsphere_from_box(box);
}

static bool validate(orr_scene *s, const orr_gltf *g, const orr_crowd_desc *d, orr_crowd **out) {
    const char *why = NULL;
    if (!s || !g || !d || !out || g->asset->scene != s)
        why = "scene, gltf (of this scene), desc and out are required";
    else if (d->capacity < 1 || d->capacity > ORR_CROWD_MAX_INSTANCES)
        why = "capacity is 0 or over ORR_CROWD_MAX_INSTANCES";
    else if (d->bake_rate.set && !(d->bake_rate.value >= 1 && d->bake_rate.value <= 1000))
        why = "bake_rate is not within 1 .. 1000";
    else if (!orr_wpos_is_valid(d->anchor))
        why = "anchor is not a valid world position";
    if (!why) return true;
    orri_misuse(s ? s->ctx : NULL, s ? ORR_MSG_OUT_OF_RANGE : ORR_MSG_NULL_CONTEXT, "orr_gltf_create_crowd: %s", why);
    return false;
}

/* The crowd's mesh: the skinned primitive's geometry (shared with the model's
 * copies, on the CPU and the GPU) and material, at the anchor. */
static orr_result make_mesh(orr_scene *s, const orr_gltf *src, orr_crowd *c, const orr_crowd_desc *d) {
    orr_gltf *tmp = NULL;
    orr_result r = private_copy(s, src, &tmp);
    uint32_t id = r == ORR_OK ? skinned_mesh(s, tmp) : 0;
    if (r == ORR_OK && !id) r = orri_fail(s->ctx, ORR_ERROR_UNSUPPORTED, "orr_gltf_create_crowd: no skinned mesh");
    if (r == ORR_OK) {
        orri_mesh *m = orri_node_mesh(orri_scene_node(s, id));
        uint64_t idx = (uint64_t)m->geometry.index_count * c->capacity;
        c->joints = orri_skin_get(s, m->skin)->joint_count; /* the bake's stride from here on */
        /* The largest buffer the GPU passes bind (skinned tangents or positions) must fit the device's storage
         * range, which max_instances (thin instances of 64 bytes) stands for: refused here, not every frame. */
        uint32_t stride = m->geometry.tangents ? 16 : 12;
        uint64_t bind = (uint64_t)c->capacity * m->geometry.vertex_count * stride;
        uint64_t range = (uint64_t)s->host->max_instances * 64;
        if (idx >= (1ull << 31) || (range && bind > range))
            r = orri_fail(s->ctx, ORR_ERROR_LIMIT_REACHED,
                          "orr_gltf_create_crowd: %u instances × %u vertices (%u indices) exceed this device's "
                          "buffers (at most %llu instances of this mesh)",
                          c->capacity, m->geometry.vertex_count, m->geometry.index_count,
                          (unsigned long long)(range / ((uint64_t)m->geometry.vertex_count * stride)));
        orr_mesh mesh =
            r == ORR_OK
                ? orr_mesh_create(s, &(orr_mesh_desc){.share_geometry = {id}, /* the model's vertex data, shared */
                                                      .material = orr_mesh_get_material(s, (orr_mesh){id}),
                                                      .label = c->label})
                : (orr_mesh){0};
        if (r == ORR_OK && !mesh.id) r = orr_last_result();
        c->mesh = mesh.id;
    }
    orr_gltf_destroy(s, tmp);
    if (r == ORR_OK) orr_node_set_world_position(s, (orr_node){c->mesh}, d->anchor);
    return r;
}

static orr_crowd *alloc_for(orr_scene *s, const orr_gltf *g, const orr_crowd_desc *d) {
    uint32_t clips = orr_gltf_animation_count(g), total = 0;
    double rate = d->bake_rate.set ? d->bake_rate.value : 60;
    for (uint32_t i = 0; i < clips; i++)
        total += frames_of(orr_animation_group_duration(orr_gltf_animation(g, i)), rate);
    uint32_t joints = ORR_MAX_SKIN_JOINTS; /* room for any skin; make_mesh sets the real count (the stride) */
    orr_crowd *c = orri_crowd_alloc(s, d->capacity, joints, clips, total);
    if (!c) return NULL;
    c->rate = rate, c->anchor = d->anchor;
    snprintf(c->label, sizeof c->label, "%s", d->label ? d->label : "crowd");
    for (uint32_t i = 0, first = 0; i < clips; i++) {
        c->clip_duration[i] = orr_animation_group_duration(orr_gltf_animation(g, i));
        c->clip_frames[i] = frames_of(c->clip_duration[i], rate);
        c->clip_first[i] = first;
        first += c->clip_frames[i];
    }
    return c;
}

orr_result orr_gltf_create_crowd(orr_scene *s, const orr_gltf *g, const orr_crowd_desc *d, orr_crowd **out) {
    if (out) *out = NULL;
    if (!validate(s, g, d, out)) return ORR_ERROR_INVALID_ARGUMENT;
    if (!orr_gltf_animation_count(g))
        return orri_fail(s->ctx, ORR_ERROR_UNSUPPORTED, "orr_gltf_create_crowd: the model has no animation");
    orr_crowd *c = alloc_for(s, g, d);
    if (!c) return orr_last_result();
    orr_result r = make_mesh(s, g, c, d);
    if (r == ORR_OK) r = bake(s, g, c);
    orri_node *n = c->mesh ? orri_scene_node(s, c->mesh) : NULL;
    if (r == ORR_OK) {
        bound(c, &orri_node_mesh(n)->geometry);
        r = orri_crowd_link(c);
    }
    if (r != ORR_OK) {
        if (c->mesh) orr_mesh_destroy(s, (orr_mesh){c->mesh});
        orri_crowd_free(c);
        return r;
    }
    orri_node_mesh(n)->crowd = c;
    orri_mesh_changed(s, n); /* drawn as a crowd from now on */
    *out = c;
    return ORR_OK;
}
