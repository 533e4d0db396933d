/* scene_build.c — one copy of a model in the scene: `__root__`, the default
 * scene's nodes (depth first, parents before children), a mesh per drawn
 * primitive, cameras, lights and EXT_mesh_gpu_instancing thin instances.
 * On failure everything made so far is destroyed.
 *
 * Handedness (seeds/001 "glTF", docs/handedness.md): the left-handed build
 * gives `__root__` Babylon.js's conversion, rotation 180° about Y and
 * scaling (1, 1, −1), i.e. the world diag(−1, 1, 1): the model is seen as in
 * a right-handed viewer, and the root's negative determinant makes the
 * renderer flip the front face (the mirrored-mesh rule), which turns glTF's
 * counter-clockwise front faces into the faces it culls against correctly.
 * The right-handed build keeps glTF's native space: `__root__` is the
 * identity, and the right-handed front-face rule already matches glTF. */
#include <math.h>
#include <stdio.h>

#include "core/core_int.h"
#include "gltf_scene.h"
#include "scene/scene_int.h"
#include "orrery/handedness.h"
#include "orrery/instances.h"

static void root_conversion(orr_scene *s, orr_node root) {
#if ORR_RIGHT_HANDED
    (void)s, (void)root; /* glTF's right-handed space as it is */
#else
    orr_node_set_rotation_quaternion(s, root, (orr_dquat){0, 1, 0, 0}); /* 180° about Y */
    orr_node_set_scaling(s, root, (orr_dvec3){1, 1, -1});
#endif
}

static orr_result make_node(orri_gltf_asset *a, orr_gltf *g, uint32_t i, orr_node parent) {
    const orri_gltf_node *n = &a->doc.nodes[i];
    char label[32];
    snprintf(label, sizeof label, "node%u", i);
    orr_node node = orr_node_create(a->scene, &(orr_node_desc){.parent = parent, .label = n->name ? n->name : label});
    if (!node.id) return orri_gltf_fail(&a->ctx, orr_last_result(), "nodes[%u]: %s", i, orr_last_error());
    g->nodes[i] = node;
    orr_node_set_position(a->scene, node, (orr_dvec3){n->translation[0], n->translation[1], n->translation[2]});
    orr_node_set_rotation_quaternion(a->scene, node,
                                     (orr_dquat){n->rotation[0], n->rotation[1], n->rotation[2], n->rotation[3]});
    orr_node_set_scaling(a->scene, node, (orr_dvec3){n->scale[0], n->scale[1], n->scale[2]});
    return ORR_OK;
}

/* Parents before children, iteratively (the depth is bounded by parse_node.c). */
static orr_result make_nodes(orri_gltf_asset *a, orr_gltf *g) {
    const orri_gltf_doc *doc = &a->doc;
    uint32_t *stack = orri_gltf_alloc(&a->ctx, doc->node_count + 1, sizeof(uint32_t), "node stack");
    if (!stack) return orr_last_result();
    uint32_t top = 0;
    orr_result r = ORR_OK;
    for (uint32_t k = doc->scene_root_count; k-- > 0;) stack[top++] = doc->scene_roots[k];
    while (top && r == ORR_OK) {
        uint32_t i = stack[--top];
        if (g->nodes[i].id) continue; /* listed twice in the scene */
        const orri_gltf_node *n = &doc->nodes[i];
        r = make_node(a, g, i, n->parent >= 0 ? g->nodes[n->parent] : g->root);
        for (uint32_t k = n->child_count; r == ORR_OK && k-- > 0;) stack[top++] = n->children[k];
    }
    orri_gltf_free(&a->ctx, stack);
    return r;
}

orr_result orri_gltf_make_shares(orri_gltf_asset *a) {
    const orri_gltf_doc *doc = &a->doc;
    a->prim_base = orri_gltf_alloc(&a->ctx, doc->mesh_count + 1, sizeof(uint32_t), "primitives");
    if (!a->prim_base) return orr_last_result();
    for (uint32_t m = 0; m < doc->mesh_count; m++) a->prim_base[m + 1] = a->prim_base[m] + doc->meshes[m].prim_count;
    a->shares = orri_gltf_alloc(&a->ctx, a->prim_base[doc->mesh_count] + 1, sizeof *a->shares, "primitives");
    if (!a->shares) return orr_last_result();
    for (uint32_t m = 0; m < doc->mesh_count; m++)
        for (uint32_t k = 0; k < doc->meshes[m].prim_count; k++) {
            orr_geometry *geo = &doc->meshes[m].prims[k].geometry;
            if (!geo->vertex_count || !geo->index_count) continue; /* not drawn */
            if (orr_geometry_validate(geo) != ORR_OK)
                return orri_gltf_fail(&a->ctx, ORR_ERROR_INVALID_ARGUMENT, "meshes[%u].primitives[%u]: bad indices", m,
                                      k);
            /* Blended primitives keep the file's triangle order (decision 56). */
            int32_t mat = doc->meshes[m].prims[k].material;
            bool blend =
                mat >= 0 && (uint32_t)mat < doc->material_count && doc->materials[mat].alpha_mode == ORRI_GLTF_BLEND;
            a->shares[a->prim_base[m] + k] =
                orri_geometry_share_adopt(a->scene, geo, blend ? ORR_OPTIMIZE_KEEP_TRIANGLE_ORDER : 0);
            if (!a->shares[a->prim_base[m] + k])
                return orri_gltf_fail(&a->ctx, orr_last_result(), "meshes[%u]: %s", m, orr_last_error());
        }
    return ORR_OK;
}

void orri_gltf_release_shares(orri_gltf_asset *a) {
    for (uint32_t i = 0; a->shares && i < a->prim_base[a->doc.mesh_count]; i++)
        orri_geometry_share_release(a->scene, a->shares[i]);
    orri_gltf_free(&a->ctx, a->shares), orri_gltf_free(&a->ctx, a->prim_base);
    a->shares = NULL, a->prim_base = NULL;
}

const orr_geometry *orri_gltf_prim_geometry(const orri_gltf_asset *a, uint32_t mesh, uint32_t prim) {
    const orri_geometry_share *sh = a->shares ? a->shares[a->prim_base[mesh] + prim] : NULL;
    return sh ? &sh->geometry : NULL;
}

/* Node i's primitives as meshes on the asset's shared geometries: a copy
 * uploads nothing new (src/render/geometry_gpu.c). */
static orr_result make_meshes(orri_gltf_asset *a, orr_gltf *g, uint32_t i) {
    const orri_gltf_node *n = &a->doc.nodes[i];
    g->mesh_from[i] = g->mesh_total;
    if (n->mesh < 0 || !g->nodes[i].id) return ORR_OK;
    const orri_gltf_mesh *m = &a->doc.meshes[n->mesh];
    for (uint32_t k = 0; k < m->prim_count; k++) {
        orri_geometry_share *sh = a->shares[a->prim_base[n->mesh] + k];
        if (!sh) continue;
        orr_material mat;
        orr_result r = orri_gltf_material_for(a, m->prims[k].material, &mat);
        if (r != ORR_OK) return r;
        orr_mesh mesh = orri_mesh_create_shared(
            a->scene,
            &(orr_mesh_desc){.material = mat, .parent = g->nodes[i], .label = m->name ? m->name : "primitive"}, sh);
        if (!mesh.id) return orri_gltf_fail(&a->ctx, orr_last_result(), "meshes[%d]: %s", n->mesh, orr_last_error());
        g->meshes[g->mesh_total++] = mesh;
        if (n->instance_count) {
            r = orr_instances_set(a->scene, mesh, n->instances, n->instance_count);
            if (r != ORR_OK) return orri_gltf_fail(&a->ctx, r, "nodes[%u] instances: %s", i, orr_last_error());
            orr_instances_enable_world_bounds(a->scene, mesh);
        }
    }
    return ORR_OK;
}

static orr_result make_camera(orri_gltf_asset *a, orr_gltf *g, uint32_t i) {
    const orri_gltf_camera *c = &a->doc.cameras[a->doc.nodes[i].camera];
    if (c->type == ORRI_GLTF_ORTHOGRAPHIC) {
        orri_gltf_warn(&a->ctx, "nodes[%u]: orthographic cameras are not supported; skipped", i);
        return ORR_OK;
    }
    /* Looks down the node's −Z in both builds: the free camera aims at its target. */
    orr_camera cam =
        orr_camera_create_free(a->scene, &(orr_free_camera_desc){.target = {true, {0, 0, -1}},
                                                                 .parent = g->nodes[i],
                                                                 .fov = c->yfov,
                                                                 .near = c->znear,
                                                                 .far = c->zfar > 0 ? c->zfar : ORR_FAR_INFINITE,
                                                                 .label = c->name});
    if (!cam.id)
        return orri_gltf_fail(&a->ctx, orr_last_result(), "cameras[%d]: %s", a->doc.nodes[i].camera, orr_last_error());
    g->cameras[g->camera_count++] = cam;
    return ORR_OK;
}

/* KHR_lights_punctual as Babylon.js's loader makes it: diffuse = colour,
 * intensity and range as given (range absent: infinite), spot angle =
 * 2 × outerConeAngle; the light shines down its node's −Z. Orrery's lights
 * have no glTF falloff mode (Babylon.js FALLOFF_GLTF) or spot inner angle
 * yet: the spot uses exponent 1 (Babylon.js's constructor default). */
static orr_result make_light(orri_gltf_asset *a, orr_gltf *g, uint32_t i) {
    const orri_gltf_light *l = &a->doc.lights[a->doc.nodes[i].light];
    static const orr_light_type types[3] = {ORR_LIGHT_DIRECTIONAL, ORR_LIGHT_POINT, ORR_LIGHT_SPOT};
    orr_light light =
        orr_light_create(a->scene, &(orr_light_desc){.type = types[l->type],
                                                     .direction = {0, 0, -1},
                                                     .diffuse = ORR_RGB(l->color[0], l->color[1], l->color[2]),
                                                     .intensity = ORR_F64(l->intensity),
                                                     .range = l->range,
                                                     .angle = 2 * l->outer_cone,
                                                     .exponent = 1,
                                                     .label = l->name});
    if (!light.id)
        return orri_gltf_fail(&a->ctx, orr_last_result(), "lights[%d]: %s", a->doc.nodes[i].light, orr_last_error());
    g->lights[g->light_count++] = light;
    orr_node_set_parent(a->scene, orr_light_node(light), g->nodes[i]);
    return ORR_OK;
}

static orr_result alloc_copy(orri_gltf_asset *a, orr_gltf *g) {
    const orri_gltf_doc *doc = &a->doc;
    uint32_t prims = 0;
    for (uint32_t i = 0; i < doc->node_count; i++)
        if (doc->nodes[i].mesh >= 0) prims += doc->meshes[doc->nodes[i].mesh].prim_count;
    g->nodes = orri_gltf_alloc(&a->ctx, doc->node_count + 1, sizeof(orr_node), "nodes");
    g->mesh_from = orri_gltf_alloc(&a->ctx, doc->node_count + 1, sizeof(uint32_t), "nodes");
    g->meshes = orri_gltf_alloc(&a->ctx, prims + 1, sizeof(orr_mesh), "meshes");
    g->cameras = orri_gltf_alloc(&a->ctx, doc->node_count + 1, sizeof(orr_camera), "cameras");
    g->lights = orri_gltf_alloc(&a->ctx, doc->node_count + 1, sizeof(orr_light), "lights");
    return g->nodes && g->mesh_from && g->meshes && g->cameras && g->lights ? ORR_OK : orr_last_result();
}

orr_result orri_gltf_build(orri_gltf_asset *a, orr_node parent, orr_gltf *g) {
    g->asset = a;
    orr_result r = alloc_copy(a, g);
    if (r != ORR_OK) return r;
    g->root = orr_node_create(a->scene, &(orr_node_desc){.parent = parent, .label = "__root__"});
    if (!g->root.id) return orri_gltf_fail(&a->ctx, orr_last_result(), "__root__: %s", orr_last_error());
    root_conversion(a->scene, g->root);
    r = make_nodes(a, g);
    for (uint32_t i = 0; r == ORR_OK && i < a->doc.node_count; i++) {
        const orri_gltf_node *n = &a->doc.nodes[i];
        r = make_meshes(a, g, i);
        if (r == ORR_OK && g->nodes[i].id && n->camera >= 0 && g->with_cameras) r = make_camera(a, g, i);
        if (r == ORR_OK && g->nodes[i].id && n->light >= 0 && g->with_lights) r = make_light(a, g, i);
    }
    g->mesh_from[a->doc.node_count] = g->mesh_total;
    return r == ORR_OK ? orri_gltf_animate(a, g, g->play_first) : r;
}

void orri_gltf_unbuild(orr_scene *scene, orr_gltf *g) {
    orri_gltf_ctx *c = &g->asset->ctx;
    for (uint32_t i = 0; g->meshes && i < g->mesh_total; i++) orr_mesh_destroy(scene, g->meshes[i]);
    for (uint32_t i = 0; g->cameras && i < g->camera_count; i++) orr_camera_destroy(scene, g->cameras[i]);
    for (uint32_t i = 0; g->lights && i < g->light_count; i++) orr_light_destroy(scene, g->lights[i]);
    orri_gltf_unanimate(scene, g); /* groups and skins, after the meshes using them */
    /* Any order: a destroyed node's children move to its parent, destroyed in turn. */
    for (uint32_t i = 0; g->nodes && i < g->asset->doc.node_count; i++)
        if (g->nodes[i].id) orr_node_destroy(scene, g->nodes[i]);
    if (g->root.id) orr_node_destroy(scene, g->root);
    orri_gltf_free(c, g->nodes), orri_gltf_free(c, g->mesh_from), orri_gltf_free(c, g->meshes);
    orri_gltf_free(c, g->cameras), orri_gltf_free(c, g->lights);
}
