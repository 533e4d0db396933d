/* shadow_blur.c — blurred ESM (Babylon.js useBlurExponentialShadowMap): the
 * ESM map (map size) is filtered into esm[1] at map size / blur scale, by the
 * kernel blur (useKernelBlur: horizontal into blur_tmp, then vertical) or
 * the box blur (one pass); receivers sample esm[1]. Babylon's kernel size is
 * its nearest "best" kernel: odd, with an even half, at least 3 (32 → 33). */
#include <math.h>
#include <string.h>

#include "shadow/shadow_int.h"

extern const uint32_t orri_spv_shadow_blur_vert[], orri_spv_shadow_blur_frag[];
extern const size_t orri_spv_shadow_blur_vert_size, orri_spv_shadow_blur_frag_size;

uint32_t orri_shadow_kernel_taps(uint32_t ideal) {
    int v = (int)(ideal < 1 ? 1 : ideal);
    int cand[] = {v, v - 1, v + 1, v - 2, v + 2};
    for (int i = 0; i < 5; i++)
        if (cand[i] > 0 && cand[i] % 2 != 0 && (cand[i] / 2) % 2 == 0) return (uint32_t)(cand[i] < 3 ? 3 : cand[i]);
    return (uint32_t)(v < 3 ? 3 : v);
}

static orr_result blur_image(orr_shadow_generator *g, const char *label, orri_image *out) {
    orri_image_desc d = {.width = g->gpu.blur_size,
                         .height = g->gpu.blur_size,
                         .layers = 1,
                         .format = VK_FORMAT_R16_SFLOAT,
                         .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT,
                         .aspect = VK_IMAGE_ASPECT_COLOR_BIT,
                         .array = true,
                         .label = label};
    return orri_image_create(&g->engine->gpu, &d, out);
}

static orr_result blur_sets(orr_shadow_generator *g) {
    orr_engine *e = g->engine;
    orri_shadow_gpu *s = &g->gpu;
    VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 2};
    VkDescriptorPoolCreateInfo pi = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 2, .poolSizeCount = 1, .pPoolSizes = &size};
    orr_result r = orri_vk_check(&e->gpu, vkCreateDescriptorPool(e->gpu.device, &pi, NULL, &s->blur_pool), "blur pool");
    VkDescriptorSetLayout layouts[] = {s->blur_set_layout, s->blur_set_layout};
    VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                      .descriptorPool = s->blur_pool,
                                      .descriptorSetCount = 2,
                                      .pSetLayouts = layouts};
    if (r == ORR_OK)
        r = orri_vk_check(&e->gpu, vkAllocateDescriptorSets(e->gpu.device, &ai, s->blur_sets), "blur sets");
    if (r != ORR_OK) return r;
    VkImageView src[2] = {s->esm[0].view, s->blur_tmp.view ? s->blur_tmp.view : s->esm[0].view};
    VkDescriptorImageInfo img[2];
    VkWriteDescriptorSet w[2];
    for (int i = 0; i < 2; i++) {
        img[i] = (VkDescriptorImageInfo){e->shadow_esm_sampler, src[i], VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
        w[i] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                      .dstSet = s->blur_sets[i],
                                      .descriptorCount = 1,
                                      .descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
                                      .pImageInfo = &img[i]};
    }
    vkUpdateDescriptorSets(e->gpu.device, 2, w, 0, NULL);
    return ORR_OK;
}

static orr_result blur_pipeline(orr_shadow_generator *g) {
    orri_gpu *gpu = &g->engine->gpu;
    orri_shadow_gpu *s = &g->gpu;
    VkDescriptorSetLayoutBinding b = {0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_FRAGMENT_BIT,
                                      NULL};
    orr_result r = orri_set_layout(gpu, &b, 1, "shadow blur set layout", &s->blur_set_layout);
    VkPushConstantRange push = {VK_SHADER_STAGE_FRAGMENT_BIT, 0, 16};
    if (r == ORR_OK)
        r = orri_pipeline_layout(gpu, &s->blur_set_layout, 1, &push, "shadow blur layout", &s->blur_layout);
    VkShaderModule v = VK_NULL_HANDLE, f = VK_NULL_HANDLE;
    if (r == ORR_OK)
        r = orri_shader_module(gpu, orri_spv_shadow_blur_vert, orri_spv_shadow_blur_vert_size, "shadow_blur.vert", &v);
    if (r == ORR_OK)
        r = orri_shader_module(gpu, orri_spv_shadow_blur_frag, orri_spv_shadow_blur_frag_size, "shadow_blur.frag", &f);
    orri_graphics_desc d = {.target = {VK_FORMAT_R16_SFLOAT, VK_FORMAT_UNDEFINED, VK_SAMPLE_COUNT_1_BIT},
                            .vert = v,
                            .frag = f,
                            .layout = s->blur_layout,
                            .cull = VK_CULL_MODE_NONE,
                            .front_face = VK_FRONT_FACE_COUNTER_CLOCKWISE,
                            .no_depth_write = true,
                            .label = "shadow ESM blur"};
    if (r == ORR_OK) r = orri_graphics_pipeline(gpu, &d, &s->blur_pipe);
    if (v) vkDestroyShaderModule(gpu->device, v, NULL);
    if (f) vkDestroyShaderModule(gpu->device, f, NULL);
    return r;
}

orr_result orri_shadow_blur_make(orr_shadow_generator *g) {
    orri_shadow_gpu *s = &g->gpu;
    uint32_t size = (uint32_t)floor(g->desc.map_size / g->desc.blur_scale.value);
    s->blur_size = size ? size : 1;
    orr_result r = blur_image(g, "shadow ESM blurred", &s->esm[1]);
    if (r == ORR_OK && g->desc.kernel_blur.value) r = blur_image(g, "shadow ESM blur (horizontal)", &s->blur_tmp);
    if (r == ORR_OK) r = blur_pipeline(g);
    if (r == ORR_OK) r = blur_sets(g);
    return r;
}

void orri_shadow_blur_release(orr_shadow_generator *g) {
    orri_gpu *gpu = &g->engine->gpu;
    orri_shadow_gpu *s = &g->gpu;
    if (s->blur_pool)
        orri_delete_push(gpu, &(orri_delete_item){.kind = ORRI_DEL_DESCRIPTOR_POOL, .u.pool = s->blur_pool});
    if (s->blur_layout) vkDestroyPipelineLayout(gpu->device, s->blur_layout, NULL);
    if (s->blur_set_layout) vkDestroyDescriptorSetLayout(gpu->device, s->blur_set_layout, NULL);
    s->blur_pool = VK_NULL_HANDLE, s->blur_layout = VK_NULL_HANDLE, s->blur_set_layout = VK_NULL_HANDLE;
}

/* One blur pass: `set` read, `dst` written (left readable by fragment shaders). */
static void blur_pass(orr_shadow_generator *g, VkCommandBuffer cmd, VkDescriptorSet set, orri_image *dst, float p[4]) {
    orri_shadow_gpu *s = &g->gpu;
    const VkPipelineStageFlags2 out = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT;
    orri_image_barrier(cmd, dst->image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
                       VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT, 0, out,
                       VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
    VkRenderingAttachmentInfo color = {.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
                                       .imageView = dst->view,
                                       .imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                                       .loadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                                       .storeOp = VK_ATTACHMENT_STORE_OP_STORE};
    VkRenderingInfo ri = {.sType = VK_STRUCTURE_TYPE_RENDERING_INFO,
                          .renderArea = {{0, 0}, {s->blur_size, s->blur_size}},
                          .layerCount = 1,
                          .colorAttachmentCount = 1,
                          .pColorAttachments = &color};
    vkCmdBeginRendering(cmd, &ri);
    vkCmdSetViewport(cmd, 0, 1, &(VkViewport){0, 0, (float)s->blur_size, (float)s->blur_size, 0, 1});
    vkCmdSetScissor(cmd, 0, 1, &(VkRect2D){{0, 0}, {s->blur_size, s->blur_size}});
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, s->blur_pipe);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, s->blur_layout, 0, 1, &set, 0, NULL);
    vkCmdPushConstants(cmd, s->blur_layout, VK_SHADER_STAGE_FRAGMENT_BIT, 0, 16, p);
    vkCmdDraw(cmd, 3, 1, 0, 0);
    vkCmdEndRendering(cmd);
    orri_image_barrier(cmd, dst->image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                       VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, out, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
                       VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
}

void orri_shadow_blur_record(orr_shadow_generator *g, VkCommandBuffer cmd) {
    orri_shadow_gpu *s = &g->gpu;
    if (!s->blur_pipe) return;
    float texel = 1.0f / (float)s->blur_size;
    if (!g->desc.kernel_blur.value) {
        float p[4] = {texel, texel, 0, (float)g->desc.blur_box_offset};
        blur_pass(g, cmd, s->blur_sets[0], &s->esm[1], p);
        return;
    }
    float taps = (float)orri_shadow_kernel_taps(g->desc.blur_kernel);
    float px[4] = {texel, 0, taps, 0}, py[4] = {0, texel, taps, 0};
    blur_pass(g, cmd, s->blur_sets[0], &s->blur_tmp, px);
    blur_pass(g, cmd, s->blur_sets[1], &s->esm[1], py);
}
