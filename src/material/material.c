/* material.c — the material records' one owner: creation in the scene's
 * pool, lookup, release (each record, and all of them with the scene), and
 * the standard material (Babylon.js StandardMaterial parameters; the shading
 * itself is shaders/standard.frag). Changing parameters bumps `version`
 * (data: re-upload, no re-record); changing culling or blending bumps
 * `structure_version` (a different pipeline: re-record). */
#include <stdio.h>
#include <string.h>

#include "material/material_int.h"

orri_material *orri_material_get(const orr_scene *s, uint32_t id, const char *what) {
    return orri_scene_lookup(s, s ? &s->materials : NULL, id, "material", what);
}

void orri_shader_material_free(orr_scene *s, orri_shader_material *sm) {
    if (!sm) return;
    orri_free(&s->ctx->allocator, sm->vert_spv);
    orri_free(&s->ctx->allocator, sm->frag_spv);
    orri_free(&s->ctx->allocator, sm->inst_vert_spv);
    orri_free(&s->ctx->allocator, sm->depth_vert_spv);
    orri_free(&s->ctx->allocator, sm->depth_inst_vert_spv);
    orri_free(&s->ctx->allocator, sm);
}

static void release(orr_scene *s, orri_material *m) {
    orri_shader_material_free(s, m->shader);
    m->shader = NULL;
}

/* With the scene (its materials_release hook): the records and the pool. */
static void release_all(orr_scene *s) {
    for (uint32_t i = 0; i < s->materials.capacity; i++)
        if (s->materials.live[i]) release(s, orri_pool_at(&s->materials, i));
    orri_pool_deinit(&s->materials, &s->ctx->allocator);
}

uint32_t orri_material_alloc(orr_scene *s, orri_material_kind kind, const char *label, orri_shader_material *shader) {
    if (!s->materials_release) { /* the first material: the pool starts here */
        orri_pool_init(&s->materials, sizeof(orri_material));
        s->materials_release = release_all;
    }
    orri_material *m;
    uint32_t id = orri_pool_alloc(&s->materials, &s->ctx->allocator, (void **)&m);
    if (!id) {
        orri_shader_material_free(s, shader);
        orri_fail(s->ctx, orri_pool_failure(&s->materials),
                  "material create: %u materials (at most 1 048 575 per scene)", s->materials.count);
        return 0;
    }
    m->kind = kind;
    snprintf(m->label, sizeof m->label, "%s", label);
    m->shader = shader;
    m->version = orri_scene_next_version(s);
    m->structure_version = s->structure_version = orri_scene_next_version(s);
    return id;
}

/* The one resolver of the desc: every optional set, Babylon.js defaults. */
orr_standard_material_desc orr_standard_material_desc_defaults(const orr_standard_material_desc *desc) {
    orr_standard_material_desc d = desc ? *desc : (orr_standard_material_desc){0};
    if (!d.diffuse.set) d.diffuse = ORR_RGB(1, 1, 1);
    if (!d.specular.set) d.specular = ORR_RGB(1, 1, 1);
    if (!d.alpha.set) d.alpha = ORR_F64(1);
    if (d.specular_power == 0) d.specular_power = 64;
    if (!d.back_face_culling.set) d.back_face_culling = ORR_ON;
    if (!d.fog.set) d.fog = ORR_ON;
    if (!d.alpha_cutoff.set) d.alpha_cutoff = ORR_F64(0.4);
    return d;
}

static orr_standard_material_desc resolve_standard(const orr_standard_material_desc *desc) {
    orr_standard_material_desc d = orr_standard_material_desc_defaults(desc);
    d.label = NULL;
    return d;
}

static bool structure_differs(const orr_standard_material_desc *a, const orr_standard_material_desc *b) {
    bool blend_a = a->alpha.value < 1, blend_b = b->alpha.value < 1;
    return a->back_face_culling.value != b->back_face_culling.value || blend_a != blend_b ||
           a->alpha_test != b->alpha_test || a->diffuse_texture.id != b->diffuse_texture.id;
}

orr_material orr_standard_material_create(orr_scene *s, const orr_standard_material_desc *desc) {
    if (!s) {
        orri_misuse(NULL, ORR_MSG_NULL_CONTEXT, "orr_standard_material_create: scene is NULL");
        return (orr_material){0};
    }
    uint32_t id =
        orri_material_alloc(s, ORRI_MATERIAL_STANDARD, desc && desc->label ? desc->label : "standard material", NULL);
    if (id) ((orri_material *)orri_pool_get(&s->materials, id))->standard = resolve_standard(desc);
    return (orr_material){id};
}

void orr_standard_material_set(orr_scene *s, orr_material mat, const orr_standard_material_desc *desc) {
    orri_material *m = orri_material_get(s, mat.id, "orr_standard_material_set");
    if (!m) return;
    if (m->kind != ORRI_MATERIAL_STANDARD) {
        orri_misuse(s->ctx, ORR_MSG_WRONG_KIND, "orr_standard_material_set: not a standard material");
        return;
    }
    orr_standard_material_desc d = resolve_standard(desc);
    if (structure_differs(&m->standard, &d)) m->structure_version = s->structure_version = orri_scene_next_version(s);
    m->standard = d;
    m->version = orri_scene_next_version(s);
}

orr_standard_material_desc orr_standard_material_get(const orr_scene *s, orr_material mat) {
    orri_material *m = orri_material_get(s, mat.id, "orr_standard_material_get");
    if (!m || m->kind != ORRI_MATERIAL_STANDARD) return (orr_standard_material_desc){0};
    return m->standard;
}

uint32_t orri_scene_default_material(orr_scene *s) {
    if (!orri_pool_get(&s->materials, s->default_material))
        s->default_material =
            orr_standard_material_create(s, &(orr_standard_material_desc){.label = "default material"}).id;
    return s->default_material;
}

void orr_material_destroy(orr_scene *s, orr_material mat) {
    orri_material *m = orri_material_get(s, mat.id, "orr_material_destroy");
    if (!m) return;
    /* Meshes that still name it draw with the scene's default material from
     * the next frame on (core.h: destroying what is still referenced). */
    release(s, m);
    orri_pool_free(&s->materials, mat.id);
    s->structure_version = orri_scene_next_version(s);
}

uint64_t orr_material_get_version(const orr_scene *s, orr_material mat) {
    orri_material *m = orri_material_get(s, mat.id, "orr_material_get_version");
    return m ? m->version : 0;
}
