/* pbr.c — the PBR material records (orrery/pbr.h): Babylon.js PBRMaterial in
 * the metallic-roughness workflow, as its glTF loader configures it. The
 * shading is shaders/pbr.frag; the renderer side is src/render/pbr_*.c.
 *
 * Versions: every set bumps `version` (the per-draw block is re-uploaded);
 * what changes the pipeline or the descriptor sets (textures, alpha mode,
 * double-sided) also bumps `structure_version` (the draw list is rebuilt and
 * re-recorded). */
#include <math.h>
#include <string.h>

#include "material/material_int.h"

orr_pbr_material_desc orr_pbr_material_desc_defaults(const orr_pbr_material_desc *desc) {
    orr_pbr_material_desc d = desc ? *desc : (orr_pbr_material_desc){0};
    if (!d.base_color.set) d.base_color = ORR_RGBA(1, 1, 1, 1);
    if (!d.metallic.set) d.metallic = ORR_F64(1);
    if (!d.roughness.set) d.roughness = ORR_F64(1);
    if (!d.normal_scale.set) d.normal_scale = ORR_F64(1);
    if (!d.occlusion_strength.set) d.occlusion_strength = ORR_F64(1);
    if (!d.emissive_strength.set) d.emissive_strength = ORR_F64(1);
    if (!d.alpha_cutoff.set) d.alpha_cutoff = ORR_F64(0.5);
    if (!d.vertex_colors.set) d.vertex_colors = ORR_ON;
    if (!d.environment_intensity.set) d.environment_intensity = ORR_F64(1);
    if (!d.specular_anti_aliasing.set) d.specular_anti_aliasing = ORR_ON;
    orr_texture_slot *slots[] = {&d.base_color_texture, &d.metallic_roughness_texture, &d.normal_texture,
                                 &d.occlusion_texture, &d.emissive_texture};
    for (int i = 0; i < 5; i++)
        if (slots[i]->scale.x == 0 && slots[i]->scale.y == 0) slots[i]->scale = (orr_dvec2){1, 1};
    return d;
}

/* Misuse: what the desc may not hold. Reports and returns false. */
static bool check(orri_ctx *ctx, const orr_pbr_material_desc *d, const char *what) {
    if ((unsigned)d->alpha_mode > ORR_ALPHA_BLEND) {
        orri_misuse(ctx, ORR_MSG_UNKNOWN_ENUM, "%s: unknown alpha mode %d", what, (int)d->alpha_mode);
        return false;
    }
    const orr_texture_slot *slots[] = {&d->base_color_texture, &d->metallic_roughness_texture, &d->normal_texture,
                                       &d->occlusion_texture, &d->emissive_texture};
    for (int i = 0; i < 5; i++)
        if (slots[i]->uv_set > 1) {
            orri_misuse(ctx, ORR_MSG_OUT_OF_RANGE, "%s: texture slot %d reads uv_set %u (0 or 1)", what, i,
                        slots[i]->uv_set);
            return false;
        }
    double v[] = {
        d->metallic.value,           d->roughness.value,         d->alpha_cutoff.value,         d->normal_scale.value,
        d->occlusion_strength.value, d->emissive_strength.value, d->environment_intensity.value};
    for (int i = 0; i < 7; i++)
        if (!isfinite(v[i])) {
            orri_misuse(ctx, ORR_MSG_NOT_FINITE, "%s: a factor is not finite", what);
            return false;
        }
    return true;
}

static bool structure_differs(const orr_pbr_material_desc *a, const orr_pbr_material_desc *b) {
    return a->base_color_texture.texture.id != b->base_color_texture.texture.id ||
           a->metallic_roughness_texture.texture.id != b->metallic_roughness_texture.texture.id ||
           a->normal_texture.texture.id != b->normal_texture.texture.id ||
           a->occlusion_texture.texture.id != b->occlusion_texture.texture.id ||
           a->emissive_texture.texture.id != b->emissive_texture.texture.id || a->alpha_mode != b->alpha_mode ||
           a->double_sided != b->double_sided;
}

orr_material orr_pbr_material_create(orr_scene *s, const orr_pbr_material_desc *desc) {
    if (!s) {
        orri_misuse(NULL, ORR_MSG_NULL_CONTEXT, "orr_pbr_material_create: scene is NULL");
        return (orr_material){0};
    }
    orr_pbr_material_desc d = orr_pbr_material_desc_defaults(desc);
    if (!check(s->ctx, &d, "orr_pbr_material_create")) {
        return (orr_material){0};
    }
    uint32_t id = orri_material_alloc(s, ORRI_MATERIAL_PBR, d.label ? d.label : "pbr material", NULL);
    if (id) {
        d.label = NULL;
        ((orri_material *)orri_pool_get(&s->materials, id))->pbr = d;
    }
    return (orr_material){id};
}

void orr_pbr_material_set(orr_scene *s, orr_material mat, const orr_pbr_material_desc *desc) {
    orri_material *m = orri_material_get(s, mat.id, "orr_pbr_material_set");
    if (!m) return;
    if (m->kind != ORRI_MATERIAL_PBR) {
        orri_misuse(s->ctx, ORR_MSG_WRONG_KIND, "orr_pbr_material_set: '%s' is not a PBR material", m->label);
        return;
    }
    orr_pbr_material_desc d = orr_pbr_material_desc_defaults(desc);
    if (!check(s->ctx, &d, "orr_pbr_material_set")) return;
    d.label = NULL;
    if (structure_differs(&m->pbr, &d)) m->structure_version = s->structure_version = orri_scene_next_version(s);
    m->pbr = d;
    m->version = orri_scene_next_version(s);
}

orr_pbr_material_desc orr_pbr_material_get(const orr_scene *s, orr_material mat) {
    orri_material *m = orri_material_get(s, mat.id, "orr_pbr_material_get");
    if (!m || m->kind != ORRI_MATERIAL_PBR) return orr_pbr_material_desc_defaults(NULL);
    return m->pbr;
}
