/* create.c — the texture desc's defaults and the one creation path.
 *
 * Every texture — rgba bytes, a decoded image, a file (load.c), six faces, a
 * panorama (equirect.c), the engine's fallbacks (texture.c) — is made by
 * orri_texture_make from a resolved desc and an orr_image_data: the image is
 * checked (check.c), a pool entry made (texture.c), the levels uploaded and
 * the chain completed (upload.c), and a 2D texture gets the standard
 * material's descriptor set. A failure leaves nothing behind.
 */
#include "texture/texture_int.h"

static orr_filter filter_or(orr_filter f, orr_filter fallback) { return f ? f : fallback; }

orr_texture_desc orr_texture_desc_defaults(const orr_texture_desc *desc) {
    orr_texture_desc d = desc ? *desc : (orr_texture_desc){0};
    bool known = d.image || d.rgba, cube = d.equirect || (d.image && !d.rgba && d.image->faces == 6);
    if (!d.srgb.set && known) d.srgb = (orr_opt_bool){true, d.image && !d.rgba ? d.image->srgb : false};
    if (!d.mips.set) d.mips = ORR_ON;
    if (!d.invert_y.set) d.invert_y = ORR_ON;
    orr_sampler_desc *s = &d.sampler;
    s->filter = filter_or(s->filter, ORR_FILTER_LINEAR);
    s->mip_filter = filter_or(s->mip_filter, s->filter);
    s->min_filter = filter_or(s->min_filter, s->filter);
    bool nearest = s->filter == ORR_FILTER_NEAREST || s->min_filter == ORR_FILTER_NEAREST;
    if (known || d.equirect) {
        orr_wrap w = cube ? ORR_WRAP_CLAMP : ORR_WRAP_REPEAT;
        s->wrap_u = s->wrap_u ? s->wrap_u : w;
        s->wrap_v = s->wrap_v ? s->wrap_v : w;
        /* Cubes: off (decision 84). Their lookups are along directions;
         * llvmpipe filtered anisotropically with derivatives of the face
         * coordinates, which jump where a 2x2 quad straddles a face edge: a
         * line of wrong texels on every cube edge of a skybox. Unknown kind
         * (a file still to be read, a cube made by the prefilter): left to
         * the texture's creation, which knows it (texture.c sampler_of). */
        if (!s->max_anisotropy) s->max_anisotropy = nearest || cube ? 1 : 4;
    }
    if (!d.label) d.label = cube ? "cube texture" : "texture";
    return d;
}

static VkFormat vk_format(const orr_image_data *img, bool srgb) {
    switch (img->format) {
    case ORR_PIXEL_RGBA8: return srgb ? VK_FORMAT_R8G8B8A8_SRGB : VK_FORMAT_R8G8B8A8_UNORM;
    case ORR_PIXEL_RGBA16F: return VK_FORMAT_R16G16B16A16_SFLOAT;
    case ORR_PIXEL_RGBA32F: return VK_FORMAT_R32G32B32A32_SFLOAT;
    default: return VK_FORMAT_UNDEFINED;
    }
}

orr_result orri_texture_make(orr_engine *e, const orr_texture_desc *d, const orr_image_data *img, bool internal,
                             orr_texture *out) {
    *out = (orr_texture){0};
    if (d->equirect) return orri_texture_equirect(e, d, img, internal, out);
    VkFormat format = vk_format(img, d->srgb.value);
    bool cube = img->faces == 6;
    uint32_t mips = !d->mips.value || img->mips > 1 ? img->mips : orri_mip_chain(img->width, img->height);
    orr_result r = orri_texture_check_image(e, img, format, mips);
    if (r != ORR_OK) return r;
    orri_texture *t;
    uint32_t id;
    r = orri_texture_entry_new(e,
                               &(orri_entry_desc){.desc = d,
                                                  .width = img->width,
                                                  .height = img->height,
                                                  .mips = mips,
                                                  .cube = cube,
                                                  .format = format,
                                                  .internal = internal},
                               &id, &t);
    if (r != ORR_OK) return r;
    r = orri_texture_upload(e, img, !cube && d->invert_y.value, &t->image, img->mips);
    if (r == ORR_OK && !cube) r = orri_texture_make_set(e, t);
    if (r != ORR_OK) {
        orri_texture_entry_free(e, id, false);
        return r;
    }
    *out = (orr_texture){id};
    return ORR_OK;
}

/* desc.rgba as a one-level 2D image (no copy). */
static orr_result rgba_image(orri_ctx *ctx, const orr_texture_desc *d, orr_image_data *img) {
    if (!d->rgba || d->width < 1 || d->height < 1 || d->width > ORR_IMAGE_MAX_DIMENSION ||
        d->height > ORR_IMAGE_MAX_DIMENSION)
        return orri_fail(ctx, ORR_ERROR_INVALID_ARGUMENT,
                         "orr_texture_create: desc.rgba needs desc.width and desc.height in 1..%u (%ux%u)",
                         ORR_IMAGE_MAX_DIMENSION, d->width, d->height);
    size_t size = (size_t)d->width * d->height * 4;
    *img = (orr_image_data){.format = ORR_PIXEL_RGBA8,
                            .width = d->width,
                            .height = d->height,
                            .faces = 1,
                            .mips = 1,
                            .size = size,
                            .level_size = {size},
                            .pixels = (uint8_t *)d->rgba};
    return ORR_OK;
}

orr_result orr_texture_create(orr_engine *e, const orr_texture_desc *desc, orr_texture *out) {
    if (out) *out = (orr_texture){0};
    if (!e || !desc || !out) return orri_texture_null_args(e, "orr_texture_create", "engine, desc or out");
    return orri_texture_create_env(e, desc, NULL, out);
}

orr_result orri_texture_create_env(orr_engine *e, const orr_texture_desc *desc, const orr_env_info *env,
                                   orr_texture *out) {
    orri_ctx *ctx = orri_engine_textures(e)->ctx;
    if (!desc->image == !desc->rgba)
        return orri_fail(ctx, ORR_ERROR_INVALID_ARGUMENT,
                         "orr_texture_create: set one of desc.image and desc.rgba (%s)",
                         desc->image ? "both are set" : "neither is set");
    orr_texture_desc d = orr_texture_desc_defaults(desc);
    orr_image_data rgba;
    if (d.rgba) {
        orr_result r = rgba_image(ctx, &d, &rgba);
        if (r != ORR_OK) return r;
    }
    orr_result r = orri_texture_make(e, &d, d.rgba ? &rgba : d.image, false, out);
    /* A cube's harmonics, and its prefilter when asked (ibl.c). */
    return r == ORR_OK ? orri_texture_ibl_finish(e, &d, env, out) : r;
}
