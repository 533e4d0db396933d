/* mesh.c — mesh nodes: a reference to shared geometry (geometry_share.c), a
 * material, bounds.
 * The GPU copy is made by the renderer on first use (version-gated). */
#include <string.h>

#include "material/material_int.h"
#include "scene/scene_int.h"
#include "scene/thin_int.h"

/* Whether `material` (0: the default, opaque) may blend as created: its
 * triangles are then drawn in the user's order, so the upload keeps that
 * order (decision 56). A standard material with a diffuse texture counts as
 * blending: whether the texture has alpha is the renderer's knowledge, and
 * the scene module does not see the engine. */
static bool blends_at_creation(orr_scene *s, orr_material material) {
    const orri_material *m = material.id ? orri_scene_material(s, material.id) : NULL;
    if (!m) return false;
    if (m->kind == ORRI_MATERIAL_SHADER) return m->shader && m->shader->alpha_blend;
    if (m->kind == ORRI_MATERIAL_PBR) return m->pbr.alpha_mode == ORR_ALPHA_BLEND;
    if (m->standard.alpha.set && m->standard.alpha.value < 1.0) return true;
    return m->standard.diffuse_texture.id != 0;
}

/* The share a desc asks for: `share_geometry`'s (a reference taken) or a
 * new copy of `geometry`. NULL after a misuse report or failure. */
static orri_geometry_share *share_of(orr_scene *s, const orr_mesh_desc *desc) {
    if (desc->share_geometry.id) {
        orri_node *src =
            orri_node_get_kind(s, desc->share_geometry.id, ORRI_NODE_MESH, "orr_mesh_create (share_geometry)");
        if (!src) return NULL;
        if (desc->geometry) {
            orri_misuse(s->ctx, ORR_MSG_IMPOSSIBLE_OPTION,
                        "orr_mesh_create: geometry and share_geometry are exclusive");
            return NULL;
        }
        orri_geometry_share_retain(src->u.mesh.shared);
        return src->u.mesh.shared;
    }
    if (!desc->geometry) {
        orri_misuse(s->ctx, ORR_MSG_NULL_ARGUMENT, "orr_mesh_create: desc.geometry is required");
        return NULL;
    }
    if (orr_geometry_validate(desc->geometry) != ORR_OK || !desc->geometry->vertex_count) {
        orri_misuse(s->ctx, ORR_MSG_OUT_OF_RANGE, "orr_mesh_create: geometry is empty or has indices out of range");
        return NULL;
    }
    bool keep = desc->keep_triangle_order || blends_at_creation(s, desc->material);
    return orri_geometry_share_create(s, desc->geometry, keep ? ORR_OPTIMIZE_KEEP_TRIANGLE_ORDER : 0);
}

orr_mesh orr_mesh_create(orr_scene *s, const orr_mesh_desc *desc) {
    if (!s) {
        orri_misuse(NULL, ORR_MSG_NULL_CONTEXT, "orr_mesh_create: scene is NULL");
        return (orr_mesh){0};
    }
    if (!desc) {
        orri_misuse(s->ctx, ORR_MSG_NULL_ARGUMENT, "orr_mesh_create: desc.geometry is required");
        return (orr_mesh){0};
    }
    if (desc->material.id &&
        !orri_scene_lookup(s, &s->materials, desc->material.id, "material", "orr_mesh_create (material)"))
        return (orr_mesh){0};
    orri_geometry_share *sh = share_of(s, desc);
    if (!sh) return (orr_mesh){0};
    orr_mesh m = orri_mesh_create_shared(s, desc, sh);
    orri_geometry_share_release(s, sh); /* the mesh holds its own reference */
    return m;
}

orr_mesh orri_mesh_create_shared(orr_scene *s, const orr_mesh_desc *desc, orri_geometry_share *sh) {
    orri_node *n;
    orr_node_desc nd = {.position = desc->position,
                        .rotation = desc->rotation,
                        .scaling = desc->scaling,
                        .parent = desc->parent,
                        .label = desc->label ? desc->label : "mesh"};
    uint32_t id = orri_node_alloc(s, ORRI_NODE_MESH, &nd, &n);
    if (!id) return (orr_mesh){0};
    orri_mesh *m = &n->u.mesh;
    orri_geometry_share_retain(sh);
    m->shared = sh;
    m->geometry = sh->geometry;
    m->material = desc->material.id;
    m->visible = true;
    m->local_box = sh->box;
    m->local_sphere = orr_dsphere_from_box(m->local_box);
    m->version = orri_scene_next_version(s);
    return (orr_mesh){id};
}

void orri_mesh_release(orr_scene *s, orri_node *n) {
    if (n->kind != ORRI_NODE_MESH) return;
    orri_thin_release(s, n);
    orri_geometry_share_release(s, n->u.mesh.shared);
    n->u.mesh.shared = NULL;
    memset(&n->u.mesh.geometry, 0, sizeof n->u.mesh.geometry);
}

orr_node orr_mesh_node(orr_mesh mesh) { return (orr_node){mesh.id}; }

void orr_mesh_destroy(orr_scene *s, orr_mesh mesh) {
    if (!s || !mesh.id) return;
    if (orri_node_get_kind(s, mesh.id, ORRI_NODE_MESH, "orr_mesh_destroy")) orr_node_destroy(s, orr_mesh_node(mesh));
}

orr_mesh orr_mesh_from_node(const orr_scene *s, orr_node node) {
    orri_node *n = s ? orri_pool_get(&s->nodes, node.id) : NULL;
    return (orr_mesh){n && n->kind == ORRI_NODE_MESH ? node.id : 0};
}

static orri_node *mesh(const orr_scene *s, orr_mesh m, const char *what) {
    return orri_node_get_kind(s, m.id, ORRI_NODE_MESH, what);
}

void orr_mesh_set_material(orr_scene *s, orr_mesh mesh_h, orr_material material) {
    orri_node *n = mesh(s, mesh_h, "orr_mesh_set_material");
    if (!n || (material.id &&
               !orri_scene_lookup(s, &s->materials, material.id, "material", "orr_mesh_set_material (material)")))
        return;
    n->u.mesh.material = material.id;
    orri_mesh_changed(s, n);
}

orr_material orr_mesh_get_material(const orr_scene *s, orr_mesh mesh_h) {
    orri_node *n = mesh(s, mesh_h, "orr_mesh_get_material");
    return (orr_material){n ? n->u.mesh.material : 0};
}

void orr_mesh_set_visible(orr_scene *s, orr_mesh mesh_h, bool visible) {
    orri_node *n = mesh(s, mesh_h, "orr_mesh_set_visible");
    if (!n || n->u.mesh.visible == visible) return;
    n->u.mesh.visible = visible;
    orri_mesh_changed(s, n);
}

void orr_mesh_enable_occlusion_culling(orr_scene *s, orr_mesh mesh_h, bool enabled) {
    orri_node *n = mesh(s, mesh_h, "orr_mesh_enable_occlusion_culling");
    if (!n || n->u.mesh.occlusion_culling == enabled) return;
    n->u.mesh.occlusion_culling = enabled;
    orri_mesh_changed(s, n); /* a different draw: the mesh pass owns its count */
}

bool orr_mesh_get_occlusion_culling(const orr_scene *s, orr_mesh mesh_h) {
    orri_node *n = mesh(s, mesh_h, "orr_mesh_get_occlusion_culling");
    return n && n->u.mesh.occlusion_culling;
}

bool orr_mesh_get_visible(const orr_scene *s, orr_mesh mesh_h) {
    orri_node *n = mesh(s, mesh_h, "orr_mesh_get_visible");
    return n && n->u.mesh.visible;
}

orr_dbox orr_mesh_get_local_box(const orr_scene *s, orr_mesh mesh_h) {
    orri_node *n = mesh(s, mesh_h, "orr_mesh_get_local_box");
    return n ? n->u.mesh.local_box : orr_dbox_empty();
}

orr_dsphere orr_mesh_get_local_sphere(const orr_scene *s, orr_mesh mesh_h) {
    orri_node *n = mesh(s, mesh_h, "orr_mesh_get_local_sphere");
    return n ? n->u.mesh.local_sphere : (orr_dsphere){{0, 0, 0}, 0};
}

orr_dbox orr_mesh_get_world_box(orr_scene *s, orr_mesh mesh_h) {
    orri_node *n = mesh(s, mesh_h, "orr_mesh_get_world_box");
    return n ? orr_dbox_transform(n->u.mesh.local_box, *orri_node_world(s, n, NULL)) : orr_dbox_empty();
}

orr_dsphere orr_mesh_get_world_sphere(orr_scene *s, orr_mesh mesh_h) {
    orri_node *n = mesh(s, mesh_h, "orr_mesh_get_world_sphere");
    return n ? orr_dsphere_transform(n->u.mesh.local_sphere, *orri_node_world(s, n, NULL))
             : (orr_dsphere){{0, 0, 0}, 0};
}

uint32_t orr_mesh_get_vertex_count(const orr_scene *s, orr_mesh mesh_h) {
    orri_node *n = mesh(s, mesh_h, "orr_mesh_get_vertex_count");
    return n ? n->u.mesh.geometry.vertex_count : 0;
}
