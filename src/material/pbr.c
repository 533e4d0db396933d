/* pbr.c — the PBR material (orrery/pbr.h).
 * STUB while issue 11 is in progress: records the desc and draws as a
 * standard material with the base colour (and its texture) as diffuse. The
 * PBR material family replaces this file. */
#include <string.h>

#include "material/material_int.h"
#include "orrery/pbr.h"

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
    return d;
}

static orr_standard_material_desc as_standard(const orr_pbr_material_desc *p) {
    orr_color4 c = p->base_color.value;
    return orr_standard_material_desc_defaults(
        &(orr_standard_material_desc){.diffuse = ORR_RGB(c.r, c.g, c.b),
                                      .specular = ORR_RGB(0, 0, 0),
                                      .alpha = ORR_F64(p->alpha_mode == ORR_ALPHA_BLEND ? c.a : 1),
                                      .diffuse_texture = p->base_color_texture.texture,
                                      .disable_lighting = p->unlit,
                                      .back_face_culling = p->double_sided ? ORR_OFF : ORR_ON,
                                      .emissive = p->emissive,
                                      .label = p->label});
}

orr_material orr_pbr_material_create(orr_scene *s, const orr_pbr_material_desc *desc) {
    if (!s) {
        orri_misuse(NULL, ORR_MSG_NULL_CONTEXT, "orr_pbr_material_create: scene is NULL");
        return (orr_material){0};
    }
    orr_pbr_material_desc d = orr_pbr_material_desc_defaults(desc);
    orr_material m = orr_standard_material_create(s, &(orr_standard_material_desc){.label = "pbr material"});
    if (m.id) {
        orr_standard_material_desc st = as_standard(&d);
        orr_standard_material_set(s, m, &st);
    }
    return m;
}

void orr_pbr_material_set(orr_scene *s, orr_material m, const orr_pbr_material_desc *desc) {
    orr_pbr_material_desc d = orr_pbr_material_desc_defaults(desc);
    orr_standard_material_desc st = as_standard(&d);
    orr_standard_material_set(s, m, &st);
}

orr_pbr_material_desc orr_pbr_material_get(const orr_scene *s, orr_material m) {
    orr_standard_material_desc st = orr_standard_material_get(s, m);
    return orr_pbr_material_desc_defaults(
        &(orr_pbr_material_desc){.base_color = ORR_RGBA(st.diffuse.value.r, st.diffuse.value.g, st.diffuse.value.b, 1),
                                 .base_color_texture = {.texture = st.diffuse_texture}});
}

void orr_scene_set_environment_texture(orr_scene *s, orr_texture cube) {
    (void)s;
    (void)cube;
}

orr_texture orr_scene_get_environment_texture(const orr_scene *s) {
    (void)s;
    return (orr_texture){0};
}
