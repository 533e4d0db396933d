/* parse_material.c — materials (glTF 2.0 spec 3.9: pbrMetallicRoughness,
 * normal / occlusion / emissive textures, alphaMode and alphaCutoff,
 * doubleSided; KHR_materials_unlit, KHR_materials_emissive_strength,
 * KHR_texture_transform on every texture slot, its texCoord override
 * included), textures and samplers (3.8; magFilter / minFilter / wrapS /
 * wrapT into orr_sampler_desc). */
#include <cJSON.h>
#include <stdio.h>
#include <string.h>

#include "gltf_int.h"
#include "orrery/handedness.h"

static orr_result texref(orri_gltf_ctx *c, const orri_gltf_doc *doc, const cJSON *obj, const char *key,
                         const char *path, const char *scalar_key, orri_gltf_texref *t) {
    *t = (orri_gltf_texref){.texture = -1, .scale = {1, 1}, .scalar = 1};
    const cJSON *j = orri_json_member(obj, key);
    if (!j) return ORR_OK;
    char p[128];
    snprintf(p, sizeof p, "%s.%s", path, key);
    int64_t tex, uv;
    if (!orri_json_int(c, j, "index", 0, (int64_t)doc->texture_count - 1, -1, &tex, p) ||
        !orri_json_int(c, j, "texCoord", 0, 1, 0, &uv, p) ||
        (scalar_key && !orri_json_num(c, j, scalar_key, 1, &t->scalar, p)))
        return ORR_ERROR_MALFORMED;
    if (tex < 0) return orri_gltf_fail(c, ORR_ERROR_MALFORMED, "%s.index is missing", p);
    t->texture = (int32_t)tex, t->uv_set = (uint32_t)uv;
    const cJSON *tt = orri_json_member(orri_json_member(j, "extensions"), "KHR_texture_transform");
    if (!tt) return ORR_OK;
    char tp[192];
    snprintf(tp, sizeof tp, "%s.extensions.KHR_texture_transform", p);
    if (!orri_json_nums(c, tt, "offset", 2, t->offset, tp) || !orri_json_num(c, tt, "rotation", 0, &t->rotation, tp) ||
        !orri_json_nums(c, tt, "scale", 2, t->scale, tp) || !orri_json_int(c, tt, "texCoord", 0, 1, uv, &uv, tp))
        return ORR_ERROR_MALFORMED;
    t->uv_set = (uint32_t)uv;
    return ORR_OK;
}

static orr_result pbr(orri_gltf_ctx *c, const orri_gltf_doc *doc, const cJSON *j, const char *path,
                      orri_gltf_material *m) {
    const cJSON *p = orri_json_member(j, "pbrMetallicRoughness");
    char pp[96];
    snprintf(pp, sizeof pp, "%s.pbrMetallicRoughness", path);
    m->base_color[0] = m->base_color[1] = m->base_color[2] = m->base_color[3] = 1;
    if (!orri_json_nums(c, p, "baseColorFactor", 4, m->base_color, pp) ||
        !orri_json_num(c, p, "metallicFactor", 1, &m->metallic, pp) ||
        !orri_json_num(c, p, "roughnessFactor", 1, &m->roughness, pp))
        return ORR_ERROR_MALFORMED;
    orr_result r = texref(c, doc, p, "baseColorTexture", pp, NULL, &m->base_tex);
    if (r == ORR_OK) r = texref(c, doc, p, "metallicRoughnessTexture", pp, NULL, &m->mr_tex);
    return r;
}

static orr_result parse_material(orri_gltf_ctx *c, const cJSON *j, uint32_t i, orri_gltf_doc *doc) {
    char path[64];
    snprintf(path, sizeof path, "materials[%u]", i);
    orri_gltf_material *m = &doc->materials[i];
    m->name = orri_gltf_strdup(c, orri_json_str(j, "name"));
    orr_result r = pbr(c, doc, j, path, m);
    if (r == ORR_OK) r = texref(c, doc, j, "normalTexture", path, "scale", &m->normal_tex);
    if (r == ORR_OK) r = texref(c, doc, j, "occlusionTexture", path, "strength", &m->occlusion_tex);
    if (r == ORR_OK) r = texref(c, doc, j, "emissiveTexture", path, NULL, &m->emissive_tex);
    if (r != ORR_OK) return r;
    const char *mode = orri_json_str(j, "alphaMode");
    m->alpha_mode = !mode || strcmp(mode, "OPAQUE") == 0 ? ORRI_GLTF_OPAQUE
                    : strcmp(mode, "MASK") == 0          ? ORRI_GLTF_MASK
                    : strcmp(mode, "BLEND") == 0         ? ORRI_GLTF_BLEND
                                                         : (orri_gltf_alpha)-1;
    if ((int)m->alpha_mode < 0) return orri_gltf_fail(c, ORR_ERROR_MALFORMED, "%s.alphaMode \"%s\"", path, mode);
    m->double_sided = cJSON_IsTrue(orri_json_member(j, "doubleSided"));
    const cJSON *ext = orri_json_member(j, "extensions");
    m->unlit = orri_json_member(ext, "KHR_materials_unlit") != NULL;
    if (!orri_json_nums(c, j, "emissiveFactor", 3, m->emissive, path) ||
        !orri_json_num(c, j, "alphaCutoff", 0.5, &m->alpha_cutoff, path) ||
        !orri_json_num(c, orri_json_member(ext, "KHR_materials_emissive_strength"), "emissiveStrength", 1,
                       &m->emissive_strength, path))
        return ORR_ERROR_MALFORMED;
    return ORR_OK;
}

static orr_wrap wrap_of(int64_t w) {
    return w == 33071 ? ORR_WRAP_CLAMP : w == 33648 ? ORR_WRAP_MIRROR : ORR_WRAP_REPEAT;
}

static orr_result parse_sampler(orri_gltf_ctx *c, const cJSON *j, uint32_t i, orri_gltf_sampler *s) {
    char path[64];
    snprintf(path, sizeof path, "samplers[%u]", i);
    int64_t mag, min, ws, wt;
    if (!orri_json_int(c, j, "magFilter", 9728, 9729, 9729, &mag, path) ||
        !orri_json_int(c, j, "minFilter", 9728, 9987, 9987, &min, path) ||
        !orri_json_int(c, j, "wrapS", 0, 65535, 10497, &ws, path) ||
        !orri_json_int(c, j, "wrapT", 0, 65535, 10497, &wt, path))
        return ORR_ERROR_MALFORMED;
    if ((min > 9729 && min < 9984) || (ws != 10497 && ws != 33071 && ws != 33648) ||
        (wt != 10497 && wt != 33071 && wt != 33648))
        return orri_gltf_fail(c, ORR_ERROR_MALFORMED, "%s: an unknown filter or wrap value", path);
    /* 9984 NEAREST_MIPMAP_NEAREST, 9985 LINEAR_MIPMAP_NEAREST, 9986 NEAREST_MIPMAP_LINEAR, 9987 LINEAR_MIPMAP_LINEAR */
    s->desc.filter = mag == 9728 ? ORR_FILTER_NEAREST : ORR_FILTER_LINEAR;
    s->desc.mip_filter = min == 9984 || min == 9985 ? ORR_FILTER_NEAREST : ORR_FILTER_LINEAR;
    s->desc.min_filter = min == 9728 || min == 9984 || min == 9986 ? ORR_FILTER_NEAREST : ORR_FILTER_LINEAR;
    s->mips = min >= 9984;
    s->desc.wrap_u = wrap_of(ws), s->desc.wrap_v = wrap_of(wt);
    return ORR_OK;
}

static orr_result parse_texture(orri_gltf_ctx *c, const cJSON *j, uint32_t i, orri_gltf_doc *doc) {
    char path[64];
    snprintf(path, sizeof path, "textures[%u]", i);
    int64_t src, sampler;
    if (!orri_json_int(c, j, "source", 0, (int64_t)doc->image_count - 1, -1, &src, path) ||
        !orri_json_int(c, j, "sampler", 0, (int64_t)doc->sampler_count - 1, -1, &sampler, path))
        return ORR_ERROR_MALFORMED;
    doc->textures[i] = (orri_gltf_texture){(int32_t)src, (int32_t)sampler};
    return ORR_OK;
}

orr_result orri_gltf_parse_textures(orri_gltf_ctx *c, const cJSON *root, orri_gltf_doc *doc) {
    PARSE_ARRAY("samplers", samplers, sampler_count, parse_sampler(c, j_, i_, &doc->samplers[i_]));
    PARSE_ARRAY("textures", textures, texture_count, parse_texture(c, j_, i_, doc));
    return ORR_OK;
}

orr_result orri_gltf_parse_materials(orri_gltf_ctx *c, const cJSON *root, orri_gltf_doc *doc) {
    PARSE_ARRAY("materials", materials, material_count, parse_material(c, j_, i_, doc));
    return ORR_OK;
}
