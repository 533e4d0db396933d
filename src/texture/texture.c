/* texture.c — the engine's texture store: pool entries, the live-texture
 * limit, the standard material's descriptor sets, fallbacks, and deferred
 * destruction.
 *
 * Invariants:
 * - At most ORR_MAX_TEXTURES counted (non-internal) entries are live; the
 *   descriptor pool holds ORRI_TEXTURE_SETS sets, enough for those, the
 *   fallback and as many destroyed sets still waiting for their frames.
 * - A destroyed texture's pool slot is freed at once (its handle is stale),
 *   while its image and descriptor set go through the gpu module's delete
 *   queue (src/gpu/delete.c): they are destroyed once every frame that may
 *   use them has completed. `sets` counts the pool's sets until they are
 *   really freed (the queue counts them down); nothing here waits for the
 *   device, except make_set when the pool is full of destroyed sets.
 * - Samplers are the gpu module's shared ones: no entry destroys its sampler.
 * - Readers that find a stale handle (draw lists, shader-material sets, the
 *   environment) use orri_texture_fallback: the structure key of a scene
 *   includes the liveness of every texture its materials name, so the draws
 *   that bound a destroyed texture are re-recorded before the next submit.
 */
#include <stdio.h>
#include <string.h>

#include "texture/texture_int.h"

orri_texture *orri_texture_get(orr_engine *e, orr_texture t) {
    return orri_pool_get(&orri_engine_textures(e)->pool, t.id);
}

orri_texture *orri_texture_fallback(orr_engine *e, bool cube) {
    orri_texture_store *ts = orri_engine_textures(e);
    return orri_pool_get(&ts->pool, cube ? ts->white_cube.id : ts->white.id);
}

static orr_result sampler_of(orri_gpu *gpu, const orr_sampler_desc *s, bool cube, VkSampler *out) {
    VkFilter f = s->filter == ORR_FILTER_NEAREST ? VK_FILTER_NEAREST : VK_FILTER_LINEAR;
    VkSamplerMipmapMode mip =
        s->mip_filter == ORR_FILTER_NEAREST ? VK_SAMPLER_MIPMAP_MODE_NEAREST : VK_SAMPLER_MIPMAP_MODE_LINEAR;
    VkSamplerAddressMode a[3];
    orr_wrap w[3] = {s->wrap_u, s->wrap_v, s->wrap_u};
    for (int i = 0; i < 3; i++)
        a[i] = w[i] == ORR_WRAP_MIRROR   ? VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT
               : w[i] == ORR_WRAP_CLAMP  ? VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE
               : w[i] == ORR_WRAP_REPEAT ? VK_SAMPLER_ADDRESS_MODE_REPEAT
               : cube                    ? VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE
                                         : VK_SAMPLER_ADDRESS_MODE_REPEAT;
    bool min_nearest = s->min_filter == ORR_FILTER_NEAREST;
    uint32_t aniso = f == VK_FILTER_NEAREST || min_nearest ? 0 : s->max_anisotropy ? s->max_anisotropy : cube ? 1 : 4;
    return orri_sampler_get(gpu,
                            &(orri_sampler_desc){.filter = f,
                                                 .min_nearest = min_nearest,
                                                 .mip = mip,
                                                 .address = {a[0], a[1], a[2]},
                                                 .max_anisotropy = aniso},
                            out);
}

orr_result orri_texture_entry_new(orr_engine *e, const orri_entry_desc *d, uint32_t *id_out, orri_texture **out) {
    orri_texture_store *ts = orri_engine_textures(e);
    if (!d->internal && ts->live >= ORR_MAX_TEXTURES)
        return orri_fail(ts->ctx, ORR_ERROR_LIMIT_REACHED,
                         "orr_texture_create: %u live textures, the limit (ORR_MAX_TEXTURES); destroy one first",
                         ts->live);
    orri_texture *t;
    uint32_t id = orri_pool_alloc(&ts->pool, &ts->ctx->allocator, (void **)&t);
    if (!id) return orri_fail(ts->ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "texture pool");
    snprintf(t->label, sizeof t->label, "%s", d->desc->label ? d->desc->label : "texture");
    t->has_alpha = d->desc->has_alpha;
    t->internal = d->internal;
    if (!d->internal) ts->live++;
    orr_result r = orri_image_create(
        ts->gpu,
        &(orri_image_desc){.width = d->width,
                           .height = d->height,
                           .mips = d->mips,
                           .layers = d->cube ? 6 : 1,
                           .cube = d->cube,
                           .format = d->format,
                           .usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT |
                                    VK_IMAGE_USAGE_TRANSFER_SRC_BIT | (d->storage ? VK_IMAGE_USAGE_STORAGE_BIT : 0),
                           .label = t->label},
        &t->image);
    if (r == ORR_OK) r = sampler_of(ts->gpu, &d->desc->sampler, d->cube, &t->sampler);
    if (r != ORR_OK) {
        orri_texture_entry_free(e, id, false);
        return r;
    }
    *id_out = id, *out = t;
    return ORR_OK;
}

orr_result orri_texture_make_set(orr_engine *e, orri_texture *t) {
    orri_texture_store *ts = orri_engine_textures(e);
    if (ts->sets >= ORRI_TEXTURE_SETS) {
        /* The pool is full of destroyed textures' sets waiting for their
         * frames (live ones are fewer: ORR_MAX_TEXTURES): let those frames
         * finish, once; the delete queue frees the sets and counts them down. */
        orr_result r = orri_gpu_wait_idle(ts->gpu);
        if (r != ORR_OK) return r;
        if (ts->sets >= ORRI_TEXTURE_SETS) /* still used by the frame being recorded (a callback) */
            return orri_fail(ts->ctx, ORR_ERROR_LIMIT_REACHED,
                             "orr_texture_create: %u texture sets in use or waiting (ORR_MAX_TEXTURES live, as many "
                             "destroyed); render a frame first",
                             ts->sets);
    }
    VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                      .descriptorPool = ts->set_pool,
                                      .descriptorSetCount = 1,
                                      .pSetLayouts = &ts->set_layout};
    orr_result r =
        orri_vk_check(ts->gpu, vkAllocateDescriptorSets(ts->gpu->device, &ai, &t->set), "texture descriptor set");
    if (r != ORR_OK) return t->set = VK_NULL_HANDLE, r;
    ts->sets++;
    VkWriteDescriptorSet w = {
        .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
        .dstSet = t->set,
        .dstBinding = 0,
        .descriptorCount = 1,
        .descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
        .pImageInfo = &(VkDescriptorImageInfo){t->sampler, t->image.view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL},
    };
    vkUpdateDescriptorSets(ts->gpu->device, 1, &w, 0, NULL);
    return ORR_OK;
}

void orri_texture_entry_free(orr_engine *e, uint32_t id, bool deferred) {
    orri_texture_store *ts = orri_engine_textures(e);
    orri_texture *t = orri_pool_get(&ts->pool, id);
    if (!t) return;
    if (deferred) {
        if (t->set)
            orri_delete_push(ts->gpu,
                             &(orri_delete_item){.kind = ORRI_DEL_DESCRIPTOR_SET,
                                                 .u.set = {.pool = ts->set_pool, .set = t->set, .counter = &ts->sets}});
        orri_image_destroy_deferred(ts->gpu, &t->image);
    } else {
        if (t->set) vkFreeDescriptorSets(ts->gpu->device, ts->set_pool, 1, &t->set), ts->sets--;
        orri_image_destroy_now(ts->gpu, &t->image);
    }
    if (!t->internal) ts->live--;
    ts->destroyed++;
    memset(t, 0, sizeof *t);
    orri_pool_free(&ts->pool, id);
}

orr_result orri_texture_null_args(orr_engine *e, const char *what, const char *args) {
    orri_misuse(e ? orri_engine_textures(e)->ctx : NULL, e ? ORR_MSG_NULL_ARGUMENT : ORR_MSG_NULL_CONTEXT,
                "%s: %s is NULL", what, e ? args : "engine");
    return ORR_ERROR_INVALID_ARGUMENT;
}

void orr_texture_destroy(orr_engine *e, orr_texture texture) {
    if (!e || !texture.id) return; /* core.h: NULL and the null handle are ignored */
    orri_texture *t = orri_texture_get(e, texture);
    if (!t || t->internal) {
        orri_misuse(orri_engine_textures(e)->ctx, ORR_MSG_INVALID_HANDLE,
                    "orr_texture_destroy: texture 0x%08x is null or stale", texture.id);
        return;
    }
    /* Frames in flight and recorded command buffers may still use it: the
     * delete queue frees it after them; readers fall back to white. */
    orri_texture_entry_free(e, texture.id, true);
}

static orr_result make_fallbacks(orr_engine *e, orri_texture_store *ts) {
    static const uint8_t white[6 * 4] = {255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
                                         255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255};
    orr_image_data img = {.format = ORR_PIXEL_RGBA8,
                          .width = 1,
                          .height = 1,
                          .faces = 1,
                          .mips = 1,
                          .size = 4,
                          .pixels = (uint8_t *)white,
                          .level_size = {4}};
    orr_texture_desc d = orr_texture_desc_defaults(&(orr_texture_desc){.image = &img, .label = "white"});
    orr_result r = orri_texture_make(e, &d, &img, true, &ts->white);
    img.faces = 6, img.is_cube = true, img.size = sizeof white;
    for (uint32_t f = 0; f < 6; f++) img.level_offset[f][0] = 4 * f;
    d = orr_texture_desc_defaults(&(orr_texture_desc){.image = &img, .label = "white cube"});
    if (r == ORR_OK) r = orri_texture_make(e, &d, &img, true, &ts->white_cube);
    return r;
}

orr_result orri_textures_init(orr_engine *e, orri_gpu *gpu, orri_ctx *ctx) {
    orri_texture_store *ts = orri_engine_textures(e);
    *ts = (orri_texture_store){.gpu = gpu, .ctx = ctx};
    orri_pool_init(&ts->pool, sizeof(orri_texture));
    VkDescriptorSetLayoutBinding b = {0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_FRAGMENT_BIT,
                                      NULL};
    orr_result r = orri_set_layout(gpu, &b, 1, "texture set layout", &ts->set_layout);
    VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, ORRI_TEXTURE_SETS};
    VkDescriptorPoolCreateInfo pi = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                     .flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT,
                                     .maxSets = ORRI_TEXTURE_SETS,
                                     .poolSizeCount = 1,
                                     .pPoolSizes = &size};
    if (r == ORR_OK)
        r = orri_vk_check(gpu, vkCreateDescriptorPool(gpu->device, &pi, NULL, &ts->set_pool), "texture set pool");
    if (r == ORR_OK) r = make_fallbacks(e, ts);
    return r;
}

void orri_textures_deinit(orr_engine *e) {
    orri_texture_store *ts = orri_engine_textures(e);
    if (!ts->gpu) return;
    /* Queued sets must be freed while their pool lives. */
    orri_gpu_wait_idle(ts->gpu);
    for (uint32_t i = 0; i < ts->pool.capacity; i++)
        if (ts->pool.live[i]) orri_texture_entry_free(e, orri_pool_id_at(&ts->pool, i), false);
    VkDevice d = ts->gpu->device;
    if (ts->set_pool) vkDestroyDescriptorPool(d, ts->set_pool, NULL);
    if (ts->set_layout) vkDestroyDescriptorSetLayout(d, ts->set_layout, NULL);
    orri_pool_deinit(&ts->pool, &ts->ctx->allocator);
    *ts = (orri_texture_store){0};
}
