/* environment_gpu.c — the environment's pipelines, per-slot uniform blocks and
 * draws (shaders/background_sky.*, background_ground.*).
 *
 * Draws have no vertex buffers: the box and the quad come from gl_VertexIndex.
 * Set 0: binding 0 the background block (dynamic offset: sky at 0, ground at
 * ORRI_BG_STRIDE), 1 the skybox cube, 2 the ground texture. Blocks are written
 * in `update` when the camera, the scene settings (fog) or the environment
 * changed; the secondaries are recorded only when the scene's epoch moves.
 *
 * Floating origin (beyond Babylon.js): the skybox's translation is zero (it
 * is centred on the eye), the ground's is root − eye and its fresnel centre is
 * root − eye, both in float64 from cells (orr_wpos_sub), so nothing depends on
 * the magnitude of the world position.
 */
#include <stdio.h>
#include <string.h>

#include "background/background_int.h"
#include "orrery/handedness.h"

extern const uint32_t orri_spv_background_sky_vert[], orri_spv_background_sky_frag[];
extern const uint32_t orri_spv_background_ground_vert[], orri_spv_background_ground_frag[];
extern const size_t orri_spv_background_sky_vert_size, orri_spv_background_sky_frag_size;
extern const size_t orri_spv_background_ground_vert_size, orri_spv_background_ground_frag_size;

typedef struct bg_pipeline_desc {
    const uint32_t *vert, *frag;
    size_t vert_size, frag_size;
    bool depth_write, blend;
    const char *label;
} bg_pipeline_desc;

static orr_result pipeline(orr_environment *env, const bg_pipeline_desc *p, VkPipeline *out) {
    orr_engine *e = env->engine;
    VkShaderModule vs = VK_NULL_HANDLE, fs = VK_NULL_HANDLE;
    orr_result r = orri_shader_module(&e->gpu, p->vert, p->vert_size, p->label, &vs);
    if (r == ORR_OK) r = orri_shader_module(&e->gpu, p->frag, p->frag_size, p->label, &fs);
    char label[300];
    snprintf(label, sizeof label, "%s: %s", env->desc.label, p->label);
    /* No vertex streams (positions from gl_VertexIndex). Both seen from one
     * side only (inside of the box; the ground's underside has fade 0): no
     * culling, no winding dependence. Premultiplied blending for the ground. */
    orri_graphics_desc d = {
        .target = orri_target_info_of(e),
        .vert = vs,
        .frag = fs,
        .layout = env->layout,
        .cull = VK_CULL_MODE_NONE,
        .front_face = VK_FRONT_FACE_COUNTER_CLOCKWISE,
        .blend = p->blend ? ORRI_BLEND_PREMULTIPLIED : ORRI_BLEND_NONE,
        .no_depth_write = !p->depth_write,
        .label = label,
    };
    if (r == ORR_OK) r = orri_graphics_pipeline(&e->gpu, &d, out);
    if (r == ORR_OK) e->pipeline_count++;
    if (vs) vkDestroyShaderModule(e->gpu.device, vs, NULL);
    if (fs) vkDestroyShaderModule(e->gpu.device, fs, NULL);
    return r;
}

static orr_result layouts(orr_environment *env) {
    orri_gpu *gpu = &env->engine->gpu;
    const VkShaderStageFlags vf = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
    VkDescriptorSetLayoutBinding b[] = {
        {0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 1, vf, NULL},
        {1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, NULL},
        {2, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, NULL},
    };
    orr_result r = orri_set_layout(gpu, b, 3, "background set layout", &env->set_layout);
    if (r == ORR_OK) r = orri_pipeline_layout(gpu, &env->set_layout, 1, NULL, "background layout", &env->layout);
    VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, ORRI_MAX_FRAMES},
                                    {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 2 * ORRI_MAX_FRAMES}};
    VkDescriptorPoolCreateInfo dpi = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                      .maxSets = ORRI_MAX_FRAMES,
                                      .poolSizeCount = 2,
                                      .pPoolSizes = sizes};
    if (r == ORR_OK)
        r = orri_vk_check(gpu, vkCreateDescriptorPool(gpu->device, &dpi, NULL, &env->pool), "background pool");
    return r;
}

/* What the environment samples now: its textures while they live, else the
 * white fallbacks (orrery/texture.h: a destroyed texture samples white). */
static orri_texture *live_or_white(orr_engine *e, orr_texture t, bool cube) {
    orri_texture *x = orri_texture_get(e, t);
    return x ? x : orri_texture_fallback(e, cube);
}

/* Points set `i` at the textures sampled now and remembers which. */
static void write_textures(orr_environment *env, uint32_t i) {
    orr_engine *e = env->engine;
    orri_texture *sky = live_or_white(e, env->desc.skybox_texture, true);
    orri_texture *ground = live_or_white(e, env->desc.ground_texture, false);
    VkDescriptorImageInfo img[2] = {
        {sky->sampler, sky->image.view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL},
        {ground->sampler, ground->image.view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL},
    };
    VkWriteDescriptorSet w[2];
    for (uint32_t k = 0; k < 2; k++)
        w[k] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                      .dstSet = env->sets[i],
                                      .dstBinding = 1 + k,
                                      .descriptorCount = 1,
                                      .descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
                                      .pImageInfo = &img[k]};
    vkUpdateDescriptorSets(e->gpu.device, 2, w, 0, NULL);
    env->written_sky[i] = sky->image.image, env->written_ground[i] = ground->image.image;
}

static orr_result sets(orr_environment *env) {
    orr_engine *e = env->engine;
    for (uint32_t i = 0; i < e->gpu.frame_count; i++) {
        orr_result r = orri_buffer_create(&e->gpu, 2 * ORRI_BG_STRIDE, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT,
                                          ORRI_MEM_HOST, "background uniforms", &env->ubo[i]);
        VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                          .descriptorPool = env->pool,
                                          .descriptorSetCount = 1,
                                          .pSetLayouts = &env->set_layout};
        if (r == ORR_OK)
            r = orri_vk_check(&e->gpu, vkAllocateDescriptorSets(e->gpu.device, &ai, &env->sets[i]), "background set");
        if (r != ORR_OK) return r;
        VkWriteDescriptorSet w = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                  .dstSet = env->sets[i],
                                  .dstBinding = 0,
                                  .descriptorCount = 1,
                                  .descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC,
                                  .pBufferInfo =
                                      &(VkDescriptorBufferInfo){env->ubo[i].buffer, 0, sizeof(orri_gpu_background)}};
        vkUpdateDescriptorSets(e->gpu.device, 1, &w, 0, NULL);
        write_textures(env, i);
    }
    return ORR_OK;
}

orr_result orri_environment_gpu_init(orr_environment *env) {
    orr_result r = layouts(env);
    if (r == ORR_OK) r = sets(env);
    if (r == ORR_OK && env->desc.skybox.value)
        r = pipeline(env,
                     &(bg_pipeline_desc){orri_spv_background_sky_vert, orri_spv_background_sky_frag,
                                         orri_spv_background_sky_vert_size, orri_spv_background_sky_frag_size,
                                         !env->desc.skybox_infinite, false, "skybox"},
                     &env->sky_pipeline);
    if (r == ORR_OK && env->desc.ground.value)
        r = pipeline(env,
                     &(bg_pipeline_desc){orri_spv_background_ground_vert, orri_spv_background_ground_frag,
                                         orri_spv_background_ground_vert_size, orri_spv_background_ground_frag_size,
                                         true, true, "ground"},
                     &env->ground_pipeline);
    return r;
}

void orri_environment_gpu_release(orr_environment *env) {
    orr_engine *e = env->engine;
    VkDevice d = e->gpu.device;
    /* Frames in flight may still draw with these: pipelines, uniform buffers
     * and the descriptor pool wait in the delete queue. Layouts are only read
     * while recording, so they go now. */
    VkPipeline pipes[2] = {env->sky_pipeline, env->ground_pipeline};
    for (int i = 0; i < 2; i++)
        if (pipes[i])
            orri_delete_push(&e->gpu, &(orri_delete_item){.kind = ORRI_DEL_PIPELINE, .u.pipeline = pipes[i]}),
                e->pipeline_count--;
    for (uint32_t i = 0; i < ORRI_MAX_FRAMES; i++) orri_buffer_destroy_deferred(&e->gpu, &env->ubo[i]);
    if (env->pool)
        orri_delete_push(&e->gpu, &(orri_delete_item){.kind = ORRI_DEL_DESCRIPTOR_POOL, .u.pool = env->pool});
    if (env->layout) vkDestroyPipelineLayout(d, env->layout, NULL);
    if (env->set_layout) vkDestroyDescriptorSetLayout(d, env->set_layout, NULL);
}

/* ---- per frame ------------------------------------------------------------------------ */

static orr_vec4f vec4f(orr_dvec3 v, double w) { return orr_dvec4_to_f32((orr_dvec4){v.x, v.y, v.z, w}); }

/* A world position in the frame of the uploads: the renderer's eye seam
 * (eye-relative, cells first, under floating origin; absolute otherwise). */
static orr_dvec3 in_upload_frame(const orr_environment *env, const orri_view *v, orr_wpos p) {
    return orri_eye_wpos(env->engine, v, p);
}

static void common_block(orr_environment *env, orr_scene *s, const orri_view *v, orri_gpu_background *b) {
    const orr_image_processing *ip = &env->desc.image_processing;
    b->view_proj = orr_dmat4_to_f32(v->view_proj);
    b->view = orr_dmat4_to_f32(v->view);
    b->ip = orr_dvec4_to_f32((orr_dvec4){ip->exposure.value, ip->contrast.value,
                                         (double)(ip->tone_mapping - ORR_TONE_MAPPING_NONE),
                                         env->desc.noise.value ? 0.5 : 0});
    b->eye = vec4f(v->eye, 1);
    b->fog_color = vec4f((orr_dvec3){s->fog.color.value.r, s->fog.color.value.g, s->fog.color.value.b}, 1);
    b->fog_info = orr_dvec4_to_f32((orr_dvec4){s->fog.mode, s->fog.start, s->fog.end, s->fog.density.value});
}

static void sky_block(orr_environment *env, orr_scene *s, const orri_view *v, orri_gpu_background *b) {
    common_block(env, s, v, b);
    /* Under floating origin the skybox follows the eye (translation 0). */
    orr_dvec3 t = v->fo ? (orr_dvec3){0, 0, 0} : in_upload_frame(env, v, env->root);
    double h = env->sizes.skybox_size * 0.5;
    b->world = orr_dmat4_to_f32(orr_dmat4_mul(orr_dmat4_translation(t), orr_dmat4_scaling((orr_dvec3){h, h, h})));
    uint32_t f = env->desc.skybox_infinite ? ORRI_BG_INFINITE : 0;
    /* seeds/001: the right-handed engine renders the Z-mirrored world, so cube
     * directions mirror too (Babylon.js REFLECTIONMAP_OPPOSITEZ). */
    if (ORR_RIGHT_HANDED) f |= ORRI_BG_OPPOSITE_Z;
    orr_color3 c = env->desc.skybox_color.value;
    switch (env->desc.skybox_kind) {
    case ORR_SKYBOX_BACKGROUND: f |= ORRI_BG_IMAGE_PROCESSING; break;
    case ORR_SKYBOX_HDR: f |= ORRI_BG_IMAGE_PROCESSING | ORRI_BG_LOD0, c = (orr_color3){1, 1, 1}; break;
    case ORR_SKYBOX_STANDARD: f |= ORRI_BG_FOG, c = (orr_color3){1, 1, 1}; break;
    }
    if (env->desc.skybox_kind != ORR_SKYBOX_BACKGROUND) b->ip.w = 0; /* noise is BackgroundMaterial's */
    b->primary = vec4f((orr_dvec3){c.r, c.g, c.b}, 1);
    b->flags = (orri_uvec4){f, 0, 0, 0};
}

static void ground_block(orr_environment *env, orr_scene *s, const orri_view *v, orri_gpu_background *b) {
    common_block(env, s, v, b);
    orr_dvec3 t = in_upload_frame(env, v, env->root);
    double g = env->sizes.ground_size;
    b->world = orr_dmat4_to_f32(orr_dmat4_mul(orr_dmat4_translation(t), orr_dmat4_scaling((orr_dvec3){g, 1, g})));
    /* Babylon.js leaves BackgroundMaterial.sceneCenter at the world origin. */
    orr_dvec3 center = env->desc.babylon_ground_center ? in_upload_frame(env, v, (orr_wpos){{0, 0, 0}, {0, 0, 0}}) : t;
    b->center = vec4f(center, 1);
    orr_color3 c = env->desc.ground_color.value;
    b->primary = vec4f((orr_dvec3){c.r, c.g, c.b}, env->desc.ground_opacity.value);
    b->flags = (orri_uvec4){ORRI_BG_IMAGE_PROCESSING | ORRI_BG_PREMULTIPLY | ORRI_BG_FRESNEL, 0, 0, 0};
}

static uint64_t mix64(uint64_t h, uint64_t v) {
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h * 0x100000001b3ull;
}

orr_result orri_environment_update(orr_engine *e, orr_scene *s, const orri_view *v, uint32_t slot,
                                   VkCommandBuffer primary, void *state, bool *rerecord) {
    orr_environment *env = state;
    (void)primary;
    /* A texture destroyed since this slot's set was written: the set now
     * points at its fallback, and the slot's secondary (recorded with the
     * old set) is recorded again. This slot's previous frame has completed. */
    if (live_or_white(e, env->desc.skybox_texture, true)->image.image != env->written_sky[slot] ||
        live_or_white(e, env->desc.ground_texture, false)->image.image != env->written_ground[slot]) {
        write_textures(env, slot);
        *rerecord = true;
    }
    uint64_t key = mix64(mix64(mix64(v->camera_version, s->settings_version), env->version), (uint64_t)v->fo + 1);
    key = mix64(key, ((uint64_t)e->width << 32) | e->height);
    if (env->uploaded_key[slot] == key) return ORR_OK;
    env->uploaded_key[slot] = key;
    orri_gpu_background blocks[2];
    memset(blocks, 0, sizeof blocks);
    sky_block(env, s, v, &blocks[0]);
    ground_block(env, s, v, &blocks[1]);
    uint8_t *dst = env->ubo[slot].mapped;
    memcpy(dst, &blocks[0], sizeof blocks[0]);
    memcpy(dst + ORRI_BG_STRIDE, &blocks[1], sizeof blocks[1]);
    e->gpu.bytes_uploaded += 2 * sizeof blocks[0];
    return ORR_OK;
}

orr_result orri_environment_record(orr_engine *e, orr_scene *s, const orri_view *v, uint32_t slot, int stage,
                                   VkCommandBuffer cmd, void *state) {
    orr_environment *env = state;
    (void)s, (void)v;
    VkPipeline p = stage == ORRI_STAGE_BEFORE_OPAQUE  ? env->sky_pipeline
                   : stage == ORRI_STAGE_AFTER_OPAQUE ? env->ground_pipeline
                                                      : VK_NULL_HANDLE;
    if (!p) return ORR_OK;
    uint32_t offset = stage == ORRI_STAGE_BEFORE_OPAQUE ? 0 : ORRI_BG_STRIDE;
    orri_cmd_label_begin(&e->gpu, cmd, stage == ORRI_STAGE_BEFORE_OPAQUE ? "skybox" : "background ground");
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, p);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, env->layout, 0, 1, &env->sets[slot], 1, &offset);
    vkCmdDraw(cmd, stage == ORRI_STAGE_BEFORE_OPAQUE ? 36 : 6, 1, 0, 0);
    orri_cmd_label_end(&e->gpu, cmd);
    return ORR_OK;
}
