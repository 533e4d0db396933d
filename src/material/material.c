/* material.c — material pool entries common to every family, and the
 * standard material (Babylon.js StandardMaterial parameters; the shading
 * itself is shaders/standard.frag). Changing parameters bumps `version`
 * (data: re-upload, no re-record); changing culling or blending bumps
 * `structure_version` (a different pipeline: re-record). */
#include <stdio.h>
#include <string.h>

#include "scene/scene_int.h"

orri_material *orri_material_get(const orr_scene *s, uint32_t id, const char *what) {
    return orri_scene_lookup(s, s ? &s->materials : NULL, id, "material", what);
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
           a->diffuse_texture.id != b->diffuse_texture.id;
}

orr_material orr_standard_material_create(orr_scene *s, const orr_standard_material_desc *desc) {
    if (!s) {
        orri_misuse(NULL, ORR_MSG_NULL_CONTEXT, "orr_standard_material_create: scene is NULL");
        return (orr_material){0};
    }
    orri_material *m;
    uint32_t id = orri_pool_alloc(&s->materials, &s->ctx->allocator, (void **)&m);
    if (!id) {
        orri_fail(s->ctx, orri_pool_failure(&s->materials), "material create: %u materials (at most 65 535 per scene)",
                  s->materials.count);
        return (orr_material){0};
    }
    m->kind = ORRI_MATERIAL_STANDARD;
    snprintf(m->label, sizeof m->label, "%s", desc && desc->label ? desc->label : "standard material");
    m->standard = resolve_standard(desc);
    m->version = orri_scene_next_version(s);
    m->structure_version = orri_scene_next_version(s);
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
    if (structure_differs(&m->standard, &d)) m->structure_version = orri_scene_next_version(s);
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

void orri_material_release(orr_scene *s, orri_material *m) {
    if (!m->shader) return;
    orri_free(&s->ctx->allocator, m->shader->vert_spv);
    orri_free(&s->ctx->allocator, m->shader->frag_spv);
    orri_free(&s->ctx->allocator, m->shader->inst_vert_spv);
    orri_free(&s->ctx->allocator, m->shader);
    m->shader = NULL;
}

void orr_material_destroy(orr_scene *s, orr_material mat) {
    orri_material *m = orri_material_get(s, mat.id, "orr_material_destroy");
    if (!m) return;
    /* Meshes that still name it draw with the scene's default material from
     * the next frame on (core.h: destroying what is still referenced). */
    orri_material_release(s, m);
    orri_pool_free(&s->materials, mat.id);
    s->structure_version = orri_scene_next_version(s);
}

uint64_t orr_material_get_version(const orr_scene *s, orr_material mat) {
    orri_material *m = orri_material_get(s, mat.id, "orr_material_get_version");
    return m ? m->version : 0;
}
