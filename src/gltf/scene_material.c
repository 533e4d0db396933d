/* scene_material.c — glTF materials into PBR materials (orrery/pbr.h) and
 * glTF textures into orr_textures, shared by every copy of a model.
 *
 * A texture is created per colour space it is used in: base colour and
 * emissive sample with sRGB decode (their texels are sRGB-encoded colour,
 * the PBR shader works in linear light), metallic-roughness, normal and
 * occlusion without (they are data). invert_y is off: glTF's UV (0, 0) is
 * the image's top-left texel, the first row the image module decodes (as
 * Babylon.js's loader creates its textures with invertY = false). The
 * sampler comes from the glTF sampler (default: linear, trilinear mips,
 * repeat). A texture whose image was not decoded is left out (slot empty). */
#include <stdio.h>

#include "core/core_int.h"
#include "gltf_scene.h"
#include "orrery/handedness.h"
#include "orrery/pbr.h"

static orr_result texture_for(orri_gltf_asset *a, const orri_gltf_texref *t, bool srgb, orr_texture_slot *slot) {
    *slot = (orr_texture_slot){0};
    if (t->texture < 0) return ORR_OK;
    orr_texture *cache = &a->textures[t->texture * 2 + (srgb ? 1 : 0)];
    const orri_gltf_texture *tex = &a->doc.textures[t->texture];
    const orr_image_data *img = tex->image >= 0 ? &a->doc.images[tex->image].image : NULL;
    if (!img || !img->pixels) return ORR_OK;
    if (!cache->id) {
        orri_gltf_sampler s = {.mips = true};
        if (tex->sampler >= 0) s = a->doc.samplers[tex->sampler];
        char label[96];
        snprintf(label, sizeof label, "%s textures[%d]", a->ctx.label, t->texture);
        orr_texture_desc d = {.image = img,
                              .srgb = srgb ? ORR_ON : ORR_OFF,
                              .mips = s.mips ? ORR_ON : ORR_OFF,
                              .invert_y = ORR_OFF,
                              .sampler = s.desc,
                              .label = label};
        orr_result r = orr_texture_create(orr_scene_engine(a->scene), &d, cache);
        if (r != ORR_OK) return orri_gltf_fail(&a->ctx, r, "textures[%d]: %s", t->texture, orr_last_error());
    }
    *slot = (orr_texture_slot){.texture = *cache,
                               .uv_set = t->uv_set,
                               .offset = {t->offset[0], t->offset[1]},
                               .rotation = t->rotation,
                               .scale = {t->scale[0], t->scale[1]}};
    return ORR_OK;
}

static orr_result make_material(orri_gltf_asset *a, uint32_t i) {
    const orri_gltf_material *m = &a->doc.materials[i];
    const double *bc = m->base_color;
    orr_pbr_material_desc d = {.base_color = ORR_RGBA(bc[0], bc[1], bc[2], bc[3]),
                               .metallic = ORR_F64(m->metallic),
                               .roughness = ORR_F64(m->roughness),
                               .normal_scale = ORR_F64(m->normal_tex.scalar),
                               .occlusion_strength = ORR_F64(m->occlusion_tex.scalar),
                               .emissive = {m->emissive[0], m->emissive[1], m->emissive[2]},
                               .emissive_strength = ORR_F64(m->emissive_strength),
                               .alpha_mode = (orr_alpha_mode)m->alpha_mode,
                               .alpha_cutoff = ORR_F64(m->alpha_cutoff),
                               .double_sided = m->double_sided,
                               .unlit = m->unlit,
                               .label = m->name};
    orr_result r = texture_for(a, &m->base_tex, true, &d.base_color_texture);
    if (r == ORR_OK) r = texture_for(a, &m->mr_tex, false, &d.metallic_roughness_texture);
    if (r == ORR_OK) r = texture_for(a, &m->normal_tex, false, &d.normal_texture);
    if (r == ORR_OK) r = texture_for(a, &m->occlusion_tex, false, &d.occlusion_texture);
    if (r == ORR_OK) r = texture_for(a, &m->emissive_tex, true, &d.emissive_texture);
    if (r != ORR_OK) return r;
    a->materials[i] = orr_pbr_material_create(a->scene, &d);
    if (!a->materials[i].id)
        return orri_gltf_fail(&a->ctx, orr_last_result(), "materials[%u]: %s", i, orr_last_error());
    return ORR_OK;
}

orr_result orri_gltf_make_materials(orri_gltf_asset *a) {
    const orri_gltf_doc *doc = &a->doc;
    if (doc->texture_count &&
        !(a->textures = orri_gltf_alloc(&a->ctx, (size_t)doc->texture_count * 2, sizeof(orr_texture), "textures")))
        return orr_last_result();
    if (doc->material_count &&
        !(a->materials = orri_gltf_alloc(&a->ctx, doc->material_count, sizeof(orr_material), "materials")))
        return orr_last_result();
    for (uint32_t i = 0; i < doc->material_count; i++) {
        orr_result r = make_material(a, i); /* its textures' uploads and mips */
        if (r == ORR_OK) r = orri_gltf_progress(&a->ctx, 0.7 + 0.2 * (i + 1) / doc->material_count); /* to 90 % */
        if (r != ORR_OK) return r;
    }
    return ORR_OK;
}

orr_result orri_gltf_material_for(orri_gltf_asset *a, int32_t index, orr_material *out) {
    if (index >= 0) return *out = a->materials[index], ORR_OK;
    if (!a->default_material.id) {
        /* glTF's default material: white, metallic 1, roughness 1 (the desc's defaults). */
        a->default_material = orr_pbr_material_create(a->scene, &(orr_pbr_material_desc){.label = "glTF default"});
        if (!a->default_material.id)
            return orri_gltf_fail(&a->ctx, orr_last_result(), "the default material: %s", orr_last_error());
    }
    *out = a->default_material;
    return ORR_OK;
}

void orri_gltf_release_materials(orri_gltf_asset *a) {
    for (uint32_t i = 0; a->materials && i < a->doc.material_count; i++)
        if (a->materials[i].id) orr_material_destroy(a->scene, a->materials[i]);
    if (a->default_material.id) orr_material_destroy(a->scene, a->default_material);
    for (uint32_t i = 0; a->textures && i < a->doc.texture_count * 2; i++)
        if (a->textures[i].id) orr_texture_destroy(orr_scene_engine(a->scene), a->textures[i]);
    orri_gltf_free(&a->ctx, a->materials), orri_gltf_free(&a->ctx, a->textures);
    a->materials = NULL, a->textures = NULL, a->default_material = (orr_material){0};
}
