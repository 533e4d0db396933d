/* shadow_recv.c — what every receiver samples when a light has no shadow
 * generator: a 1×1 one-layer depth array (never read: the light's shadow
 * record says none), and the two shared samplers of set 0's shadow bindings.
 * Shadow maps themselves belong to src/shadow (orri_scene_set_shadow_maps).
 *
 * Samplers (Babylon.js shadow textures: clamp to edge, bilinear): the
 * comparison one tests reference ≥ stored, because maps store reversed
 * depth (1 − window depth), so "lit" is the receiver's reversed depth not
 * below the nearest caster's; the raw one reads depth (nearest), the ESM one
 * the filtered ESM map (bilinear, half float as Babylon's).
 */
#include <string.h>

#include "render/render_int.h"

orr_result orri_shadow_recv_init(orr_engine *e) {
    orri_gpu *gpu = &e->gpu;
    orri_sampler_desc cmp = {.filter = VK_FILTER_LINEAR,
                             .mip = VK_SAMPLER_MIPMAP_MODE_NEAREST,
                             .address = {VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                                         VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE},
                             .compare = true,
                             .compare_op = VK_COMPARE_OP_GREATER_OR_EQUAL};
    orri_sampler_desc esm = cmp;
    esm.compare = false, esm.compare_op = VK_COMPARE_OP_NEVER;
    orri_sampler_desc raw = esm;
    raw.filter = VK_FILTER_NEAREST; /* depth formats need not filter linearly; Babylon's hard filter is nearest */
    orr_result r = orri_sampler_get(gpu, &cmp, &e->shadow_cmp_sampler);
    if (r == ORR_OK) r = orri_sampler_get(gpu, &raw, &e->shadow_raw_sampler);
    if (r == ORR_OK) r = orri_sampler_get(gpu, &esm, &e->shadow_esm_sampler);
    if (r != ORR_OK) return r;
    orri_image_desc d = {.width = 1,
                         .height = 1,
                         .layers = 1,
                         .format = ORRI_DEPTH_FORMAT,
                         .usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                         .aspect = VK_IMAGE_ASPECT_DEPTH_BIT,
                         .array = true,
                         .label = "shadow fallback"};
    r = orri_image_create(gpu, &d, &e->shadow_fallback);
    if (r != ORR_OK) return r;
    VkCommandBuffer cmd;
    r = orri_immediate_begin(gpu, &cmd);
    if (r != ORR_OK) return r;
    const VkImageAspectFlags da = VK_IMAGE_ASPECT_DEPTH_BIT;
    orri_image_barrier(cmd, e->shadow_fallback.image, da, VK_IMAGE_LAYOUT_UNDEFINED,
                       VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_2_NONE, 0, VK_PIPELINE_STAGE_2_CLEAR_BIT,
                       VK_ACCESS_2_TRANSFER_WRITE_BIT);
    VkClearDepthStencilValue zero = {0.0f, 0};
    vkCmdClearDepthStencilImage(cmd, e->shadow_fallback.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &zero, 1,
                                &(VkImageSubresourceRange){da, 0, 1, 0, 1});
    orri_image_barrier(cmd, e->shadow_fallback.image, da, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                       VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_PIPELINE_STAGE_2_CLEAR_BIT,
                       VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
                       VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
    return orri_immediate_end(gpu, cmd);
}

void orri_shadow_recv_deinit(orr_engine *e) {
    if (e->shadow_fallback.image) orri_image_destroy_now(&e->gpu, &e->shadow_fallback);
    /* the samplers belong to the gpu module's cache */
}
