/* scene_query.c — read access to a loaded copy (orrery/gltf.h): nodes by
 * index and name, meshes per node, materials, textures, cameras, lights and
 * the decoded animation clips. Out-of-range indices and NULL return zero. */
#include <string.h>

#include "core/core_int.h"

#include "gltf_scene.h"
#include "orrery/instances.h"
#include "orrery/handedness.h"

orr_node orr_gltf_root(const orr_gltf *g) { return g ? g->root : (orr_node){0}; }
uint32_t orr_gltf_node_count(const orr_gltf *g) { return g ? g->asset->doc.node_count : 0; }

orr_node orr_gltf_node(const orr_gltf *g, uint32_t index) {
    return g && index < g->asset->doc.node_count ? g->nodes[index] : (orr_node){0};
}

const char *orr_gltf_node_name(const orr_gltf *g, uint32_t index) {
    return g && index < g->asset->doc.node_count ? g->asset->doc.nodes[index].name : NULL;
}

orr_node orr_gltf_find_node(const orr_gltf *g, const char *name) {
    for (uint32_t i = 0; g && name && i < g->asset->doc.node_count; i++) {
        const char *n = g->asset->doc.nodes[i].name;
        if (n && strcmp(n, name) == 0) return g->nodes[i];
    }
    return (orr_node){0};
}

uint32_t orr_gltf_mesh_count(const orr_gltf *g) { return g ? g->asset->doc.mesh_count : 0; }

uint32_t orr_gltf_primitive_count(const orr_gltf *g, uint32_t mesh) {
    return g && mesh < g->asset->doc.mesh_count ? g->asset->doc.meshes[mesh].prim_count : 0;
}

static uint32_t copy_out(const orr_mesh *from, uint32_t n, orr_mesh *out, uint32_t capacity) {
    for (uint32_t i = 0; out && i < n && i < capacity; i++) out[i] = from[i];
    return n;
}

uint32_t orr_gltf_node_meshes(const orr_gltf *g, uint32_t node, orr_mesh *out, uint32_t capacity) {
    if (!g || node >= g->asset->doc.node_count) return 0;
    return copy_out(g->meshes + g->mesh_from[node], g->mesh_from[node + 1] - g->mesh_from[node], out, capacity);
}

uint32_t orr_gltf_meshes(const orr_gltf *g, orr_mesh *out, uint32_t capacity) {
    return g ? copy_out(g->meshes, g->mesh_total, out, capacity) : 0;
}

uint32_t orr_gltf_material_count(const orr_gltf *g) { return g ? g->asset->doc.material_count : 0; }

orr_material orr_gltf_material(const orr_gltf *g, uint32_t index) {
    return g && index < g->asset->doc.material_count ? g->asset->materials[index] : (orr_material){0};
}

uint32_t orr_gltf_texture_count(const orr_gltf *g) { return g ? g->asset->doc.texture_count : 0; }

orr_texture orr_gltf_texture(const orr_gltf *g, uint32_t index) {
    if (!g || index >= g->asset->doc.texture_count) return (orr_texture){0};
    orr_texture srgb = g->asset->textures[index * 2 + 1], linear = g->asset->textures[index * 2];
    return srgb.id ? srgb : linear;
}

uint32_t orr_gltf_camera_count(const orr_gltf *g) { return g ? g->camera_count : 0; }
orr_camera orr_gltf_camera(const orr_gltf *g, uint32_t i) {
    return g && i < g->camera_count ? g->cameras[i] : (orr_camera){0};
}
uint32_t orr_gltf_light_count(const orr_gltf *g) { return g ? g->light_count : 0; }
orr_light orr_gltf_light(const orr_gltf *g, uint32_t i) {
    return g && i < g->light_count ? g->lights[i] : (orr_light){0};
}

uint32_t orr_gltf_animation_count(const orr_gltf *g) { return g ? g->asset->doc.animation_count : 0; }
const char *orr_gltf_animation_name(const orr_gltf *g, uint32_t i) {
    if (!g || i >= g->asset->doc.animation_count) return NULL;
    if (g->asset->doc.animations[i].name) return g->asset->doc.animations[i].name;
    /* Unnamed: the group's label, "animation<i>" as Babylon.js names it. */
    return g->groups[i] ? orr_animation_group_label(g->groups[i]) : NULL;
}
orr_animation_group *orr_gltf_animation(const orr_gltf *g, uint32_t i) {
    return g && i < g->asset->doc.animation_count ? g->groups[i] : NULL;
}
uint32_t orr_gltf_skin_count(const orr_gltf *g) { return g ? g->asset->doc.skin_count : 0; }

orr_result orr_gltf_create_instance_pool(orr_scene *scene, const orr_gltf *g, uint32_t capacity,
                                         orr_instance_pool **out) {
    if (out) *out = NULL;
    if (!g || !scene || g->asset->scene != scene)
        return orri_fail_free(ORR_ERROR_INVALID_ARGUMENT, "orr_gltf_create_instance_pool: not a model of this scene");
    /* the root is the template: its handedness conversion stays in every instance (seeds/003) */
    return orr_instance_pool_create(
        scene, &(orr_instance_pool_desc){.root = g->root, .capacity = capacity, .label = "glTF pool"}, out);
}
