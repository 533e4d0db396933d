/* shadow_gpu.c — a generator's GPU objects: the depth array map (reversed
 * depth, D32), the ESM colour map (R16F, cleared to 0) for the ESM filters,
 * the caster pipelines (plain and thin-instanced, one fragment stage per
 * filter path, and alpha-tested variants with the UV stream) and their
 * layout (set 0 = the renderer's scene set, for the per-draw worlds; set 1 =
 * a texture set as the standard material's, for alpha-tested casters; push
 * constants = light matrix, biases and the alpha cutoff).
 *
 * Destruction goes through the delete queue (images, pipelines): frames in
 * flight keep sampling the old map. */
#include <string.h>

#include "shadow/shadow_int.h"

extern const uint32_t orri_spv_shadow_depth_vert[], orri_spv_shadow_depth_instanced_vert[],
    orri_spv_shadow_depth_frag[], orri_spv_shadow_metric_frag[], orri_spv_shadow_esm_frag[],
    orri_spv_shadow_depth_alpha_vert[], orri_spv_shadow_depth_alpha_instanced_vert[],
    orri_spv_shadow_depth_alpha_frag[], orri_spv_shadow_metric_alpha_frag[], orri_spv_shadow_esm_alpha_frag[];
extern const size_t orri_spv_shadow_depth_vert_size, orri_spv_shadow_depth_instanced_vert_size,
    orri_spv_shadow_depth_frag_size, orri_spv_shadow_metric_frag_size, orri_spv_shadow_esm_frag_size,
    orri_spv_shadow_depth_alpha_vert_size, orri_spv_shadow_depth_alpha_instanced_vert_size,
    orri_spv_shadow_depth_alpha_frag_size, orri_spv_shadow_metric_alpha_frag_size, orri_spv_shadow_esm_alpha_frag_size;

#define ORRI_SHADOW_PUSH 124u /* mat4 + 3 vec4 + uint + 2 float (shaders/shadow_soft.glsl) */
_Static_assert(sizeof(orri_shadow_push) == ORRI_SHADOW_PUSH, "shadow push constants");

/* One 2D view per layer of an array image (cascades, a point light's faces);
 * none for a single layer. */
static orr_result layer_views(orri_gpu *gpu, const orri_image *img, VkFormat format, VkImageAspectFlags aspect,
                              uint32_t layers, VkImageView *views, const char *what) {
    orr_result r = ORR_OK;
    for (uint32_t k = 0; r == ORR_OK && layers > 1 && k < layers; k++) {
        VkImageViewCreateInfo vi = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
                                    .image = img->image,
                                    .viewType = VK_IMAGE_VIEW_TYPE_2D,
                                    .format = format,
                                    .subresourceRange = {aspect, 0, 1, k, 1}};
        r = orri_vk_check(gpu, vkCreateImageView(gpu->device, &vi, NULL, &views[k]), what);
    }
    return r;
}

static orr_result make_images(orr_shadow_generator *g) {
    orri_shadow_gpu *s = &g->gpu;
    orri_gpu *gpu = &g->engine->gpu;
    s->size = g->desc.map_size, s->layers = g->point ? 6 : g->desc.cascades ? g->desc.cascades : 1;
    orri_image_desc d = {.width = s->size,
                         .height = s->size,
                         .layers = s->layers,
                         .format = ORRI_DEPTH_FORMAT,
                         .usage = VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT,
                         .aspect = VK_IMAGE_ASPECT_DEPTH_BIT,
                         .array = true,
                         .label = "shadow map"};
    orr_result r = orri_image_create(gpu, &d, &s->depth);
    if (r == ORR_OK)
        r = layer_views(gpu, &s->depth, d.format, VK_IMAGE_ASPECT_DEPTH_BIT, s->layers, s->layer_views,
                        "shadow layer view");
    if (r != ORR_OK || s->filter_kind != ORRI_SHADOW_ESM) return r;
    d.format = VK_FORMAT_R16_SFLOAT;
    d.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT;
    d.aspect = VK_IMAGE_ASPECT_COLOR_BIT;
    d.label = "shadow ESM map";
    r = orri_image_create(gpu, &d, &s->esm[0]);
    if (r == ORR_OK) /* a point light's faces */
        r = layer_views(gpu, &s->esm[0], d.format, VK_IMAGE_ASPECT_COLOR_BIT, s->layers, s->esm_layer_views,
                        "ESM layer view");
    return r;
}

/* Vertex bindings: 0 position, 1 normal, 2 instance matrices (instanced);
 * alpha-tested variants add the UV stream as the next binding (2 plain, 3
 * instanced), location 2. */
static orr_result make_pipeline(orr_shadow_generator *g, VkShaderModule vert, VkShaderModule frag, bool instanced,
                                bool alpha, const VkSpecializationInfo *spec, VkPipeline *out) {
    VkVertexInputBindingDescription bindings[4] = {{0, 12, VK_VERTEX_INPUT_RATE_VERTEX},
                                                   {1, 12, VK_VERTEX_INPUT_RATE_VERTEX},
                                                   {2, 64, VK_VERTEX_INPUT_RATE_INSTANCE}};
    VkVertexInputAttributeDescription attrs[7] = {
        {0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0},     {1, 1, VK_FORMAT_R32G32B32_SFLOAT, 0},
        {4, 2, VK_FORMAT_R32G32B32A32_SFLOAT, 0},  {5, 2, VK_FORMAT_R32G32B32A32_SFLOAT, 16},
        {6, 2, VK_FORMAT_R32G32B32A32_SFLOAT, 32}, {7, 2, VK_FORMAT_R32G32B32A32_SFLOAT, 48},
    };
    uint32_t nb = instanced ? 3 : 2, na = instanced ? 6 : 2;
    if (alpha) {
        bindings[nb] = (VkVertexInputBindingDescription){nb, 8, VK_VERTEX_INPUT_RATE_VERTEX};
        attrs[na++] = (VkVertexInputAttributeDescription){2, nb, VK_FORMAT_R32G32_SFLOAT, 0};
        nb++;
    }
    bool esm = g->gpu.filter_kind == ORRI_SHADOW_ESM;
    orri_graphics_desc d = {
        .target = {esm ? VK_FORMAT_R16_SFLOAT : VK_FORMAT_UNDEFINED, ORRI_DEPTH_FORMAT, VK_SAMPLE_COUNT_1_BIT},
        .vert = vert,
        .frag = frag,
        .layout = g->gpu.layout,
        .bindings = bindings,
        .binding_count = nb,
        .attributes = attrs,
        .attribute_count = na,
        .cull = VK_CULL_MODE_NONE, /* both faces: the nearest surface is the caster's whatever its winding */
        .front_face = VK_FRONT_FACE_COUNTER_CLOCKWISE,
        .blend = ORRI_BLEND_NONE,
        .frag_spec = spec,
        .label = alpha ? (instanced ? "shadow casters (instanced, alpha-tested)" : "shadow casters (alpha-tested)")
                       : (instanced ? "shadow casters (instanced)" : "shadow casters"),
    };
    return orri_graphics_pipeline(&g->engine->gpu, &d, out);
}

/* The fragment stage of the filter's path: depth texture (PCF, PCSS),
 * metric as depth (hard, Poisson) or ESM colour; plain or alpha-tested. */
static void frag_code(uint32_t kind, bool alpha, const uint32_t **code, size_t *size) {
    if (kind == ORRI_SHADOW_ESM)
        *code = alpha ? orri_spv_shadow_esm_alpha_frag : orri_spv_shadow_esm_frag,
        *size = alpha ? orri_spv_shadow_esm_alpha_frag_size : orri_spv_shadow_esm_frag_size;
    else if (kind == ORRI_SHADOW_HARD || kind == ORRI_SHADOW_POISSON)
        *code = alpha ? orri_spv_shadow_metric_alpha_frag : orri_spv_shadow_metric_frag,
        *size = alpha ? orri_spv_shadow_metric_alpha_frag_size : orri_spv_shadow_metric_frag_size;
    else
        *code = alpha ? orri_spv_shadow_depth_alpha_frag : orri_spv_shadow_depth_frag,
        *size = alpha ? orri_spv_shadow_depth_alpha_frag_size : orri_spv_shadow_depth_frag_size;
}

/* Variant v's plain and instanced pipelines (nothing half-built on failure). */
static orr_result make_variant(orr_shadow_generator *g, uint32_t v, VkPipeline out[2]) {
    orri_gpu *gpu = &g->engine->gpu;
    bool alpha = v & ORRI_SHADOW_ALPHA;
    const uint32_t *fc;
    size_t fs;
    frag_code(g->gpu.filter_kind, alpha, &fc, &fs);
    VkShaderModule m[3] = {VK_NULL_HANDLE, VK_NULL_HANDLE, VK_NULL_HANDLE};
    orr_result r = alpha ? orri_shader_module(gpu, orri_spv_shadow_depth_alpha_vert,
                                              orri_spv_shadow_depth_alpha_vert_size, "shadow_depth_alpha.vert", &m[0])
                         : orri_shader_module(gpu, orri_spv_shadow_depth_vert, orri_spv_shadow_depth_vert_size,
                                              "shadow_depth.vert", &m[0]);
    if (r == ORR_OK)
        r = alpha ? orri_shader_module(gpu, orri_spv_shadow_depth_alpha_instanced_vert,
                                       orri_spv_shadow_depth_alpha_instanced_vert_size,
                                       "shadow_depth_alpha_instanced.vert", &m[1])
                  : orri_shader_module(gpu, orri_spv_shadow_depth_instanced_vert,
                                       orri_spv_shadow_depth_instanced_vert_size, "shadow_depth_instanced.vert", &m[1]);
    if (r == ORR_OK) r = orri_shader_module(gpu, fc, fs, "shadow caster frag", &m[2]);
    orri_spec_bool on; /* shaders/shadow_soft.glsl ORR_SOFT */
    const VkSpecializationInfo *sp = (v & ORRI_SHADOW_SOFT) ? orri_spec_bool_init(&on, true) : NULL;
    VkPipeline p[2] = {VK_NULL_HANDLE, VK_NULL_HANDLE};
    if (r == ORR_OK) r = make_pipeline(g, m[0], m[2], false, alpha, sp, &p[0]);
    if (r == ORR_OK) r = make_pipeline(g, m[1], m[2], true, alpha, sp, &p[1]);
    for (int i = 0; i < 3; i++)
        if (m[i]) vkDestroyShaderModule(gpu->device, m[i], NULL);
    if (r != ORR_OK) {
        if (p[0]) vkDestroyPipeline(gpu->device, p[0], NULL);
        return r;
    }
    out[0] = p[0], out[1] = p[1];
    return ORR_OK;
}

static orr_result make_pipelines(orr_shadow_generator *g) {
    orri_shadow_gpu *s = &g->gpu;
    VkPushConstantRange push = {VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, ORRI_SHADOW_PUSH};
    VkDescriptorSetLayout sets[] = {g->engine->scene_set_layout, g->engine->textures.set_layout};
    orr_result r = orri_pipeline_layout(&g->engine->gpu, sets, 2, &push, "shadow caster layout", &s->layout);
    return r == ORR_OK ? make_variant(g, 0, s->pipes[0]) : r;
}

/* Alpha-tested and soft transparent casters' pipelines, made when a frame
 * first draws such a caster (most generators never do); a failure is kept
 * and those casters then cast nothing. */
orr_result orri_shadow_variant_pipelines(orr_shadow_generator *g, uint32_t v) {
    orri_shadow_gpu *s = &g->gpu;
    if (s->pipes[v][0]) return ORR_OK;
    if (s->pipes_failed[v]) return ORR_ERROR_VULKAN;
    orr_result r = make_variant(g, v, s->pipes[v]);
    s->pipes_failed[v] = r != ORR_OK;
    return r;
}

/* A wrapped material's caster pipeline: the shader material's vertex
 * streams (position, normal, uv, colour; instance matrices at 4..7, no
 * instance colour: the depth stage reads none). */
static orr_result make_wrapped(orr_shadow_generator *g, VkPipelineLayout layout, const uint32_t *code, size_t size,
                               bool instanced, bool soft, VkPipeline *out) {
    orri_gpu *gpu = &g->engine->gpu;
    VkVertexInputBindingDescription bindings[5] = {{0, 12, VK_VERTEX_INPUT_RATE_VERTEX},
                                                   {1, 12, VK_VERTEX_INPUT_RATE_VERTEX},
                                                   {2, 8, VK_VERTEX_INPUT_RATE_VERTEX},
                                                   {3, 16, VK_VERTEX_INPUT_RATE_VERTEX},
                                                   {4, 64, VK_VERTEX_INPUT_RATE_INSTANCE}};
    VkVertexInputAttributeDescription attrs[8] = {
        {0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0},     {1, 1, VK_FORMAT_R32G32B32_SFLOAT, 0},
        {2, 2, VK_FORMAT_R32G32_SFLOAT, 0},        {3, 3, VK_FORMAT_R32G32B32A32_SFLOAT, 0},
        {4, 4, VK_FORMAT_R32G32B32A32_SFLOAT, 0},  {5, 4, VK_FORMAT_R32G32B32A32_SFLOAT, 16},
        {6, 4, VK_FORMAT_R32G32B32A32_SFLOAT, 32}, {7, 4, VK_FORMAT_R32G32B32A32_SFLOAT, 48},
    };
    const uint32_t *fc;
    size_t fs;
    frag_code(g->gpu.filter_kind, false, &fc, &fs);
    VkShaderModule v = VK_NULL_HANDLE, f = VK_NULL_HANDLE;
    orr_result r = orri_shader_module(gpu, code, size, "shadow depth wrapper", &v);
    if (r == ORR_OK) r = orri_shader_module(gpu, fc, fs, "shadow caster frag", &f);
    orri_spec_bool on; /* shaders/shadow_soft.glsl ORR_SOFT */
    const VkSpecializationInfo *spec = orri_spec_bool_init(&on, true);
    bool esm = g->gpu.filter_kind == ORRI_SHADOW_ESM;
    orri_graphics_desc d = {
        .target = {esm ? VK_FORMAT_R16_SFLOAT : VK_FORMAT_UNDEFINED, ORRI_DEPTH_FORMAT, VK_SAMPLE_COUNT_1_BIT},
        .vert = v,
        .frag = f,
        .layout = layout,
        .bindings = bindings,
        .binding_count = instanced ? 5 : 4,
        .attributes = attrs,
        .attribute_count = instanced ? 8 : 4,
        .cull = VK_CULL_MODE_NONE,
        .front_face = VK_FRONT_FACE_COUNTER_CLOCKWISE,
        .blend = ORRI_BLEND_NONE,
        .frag_spec = soft ? spec : NULL,
        .label = instanced ? "shadow casters (wrapped shader material, instanced)"
                           : "shadow casters (wrapped shader material)",
    };
    if (r == ORR_OK) r = orri_graphics_pipeline(gpu, &d, out);
    if (v) vkDestroyShaderModule(gpu->device, v, NULL);
    if (f) vkDestroyShaderModule(gpu->device, f, NULL);
    return r;
}

static void drop_wrapped(orri_gpu *gpu, orri_shadow_wrapped *w) {
    for (int s = 0; s < 2; s++)
        for (int k = 0; k < 2; k++)
            if (w->pipes[s][k])
                orri_delete_push(gpu, &(orri_delete_item){.kind = ORRI_DEL_PIPELINE, .u.pipeline = w->pipes[s][k]});
    if (w->layout) vkDestroyPipelineLayout(gpu->device, w->layout, NULL); /* pending work may still use it */
    memset(w, 0, sizeof *w);
}

const orri_shadow_wrapped *orri_shadow_wrapped_pipelines(orr_shadow_generator *g, uint32_t material,
                                                         const orri_material *m, const orri_shader_gpu *sg, bool soft) {
    if (!m || m->kind != ORRI_MATERIAL_SHADER || !m->shader || !m->shader->depth_vert_spv || !sg->user_layout)
        return NULL;
    orri_gpu *gpu = &g->engine->gpu;
    orri_shadow_wrapped *w = NULL, *free_slot = NULL;
    for (uint32_t i = 0; i < ORRI_SHADOW_WRAPPED; i++) {
        orri_shadow_wrapped *c = &g->gpu.wrapped[i];
        if (c->material == material) w = c;
        if (!c->material && !free_slot) free_slot = c;
    }
    if (w && (w->structure_version != m->structure_version || w->user_layout != sg->user_layout))
        drop_wrapped(gpu, w), free_slot = w, w = NULL; /* the material was rebuilt */
    if (!w) {
        if (!free_slot) return NULL;
        w = free_slot;
        w->material = material, w->structure_version = m->structure_version, w->user_layout = sg->user_layout;
        VkPushConstantRange push = {VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, ORRI_SHADOW_PUSH};
        VkDescriptorSetLayout sets[] = {g->engine->sys_set_layout, sg->user_layout};
        if (orri_pipeline_layout(gpu, sets, 2, &push, "shadow depth wrapper layout", &w->layout) != ORR_OK)
            w->failed[0] = w->failed[1] = true;
    }
    if (w->failed[soft]) return NULL;
    if (w->pipes[soft][0]) return w;
    const orri_shader_material *sm = m->shader;
    orr_result r = make_wrapped(g, w->layout, sm->depth_vert_spv, sm->depth_vert_size, false, soft, &w->pipes[soft][0]);
    if (r == ORR_OK && sm->depth_inst_vert_spv)
        r = make_wrapped(g, w->layout, sm->depth_inst_vert_spv, sm->depth_inst_vert_size, true, soft,
                         &w->pipes[soft][1]);
    if (r != ORR_OK) { /* reported; this material's casters cast by their geometry */
        if (w->pipes[soft][0]) vkDestroyPipeline(gpu->device, w->pipes[soft][0], NULL);
        w->pipes[soft][0] = VK_NULL_HANDLE;
        w->failed[soft] = true;
        return NULL;
    }
    return w;
}

orr_result orri_shadow_gpu_make(orr_shadow_generator *g) {
    memset(&g->gpu, 0, sizeof g->gpu);
    g->gpu.filter_kind = orri_shadow_filter_kind(&g->desc, g->point);
    orr_result r = make_images(g);
    if (r == ORR_OK) r = make_pipelines(g);
    if (r == ORR_OK && g->desc.filter == ORR_SHADOW_FILTER_BLUR_ESM && !g->point) r = orri_shadow_blur_make(g);
    if (r != ORR_OK) orri_shadow_gpu_release(g);
    return r;
}

static void drop_pipeline(orri_gpu *gpu, VkPipeline *p) {
    if (!*p) return;
    orri_delete_push(gpu, &(orri_delete_item){.kind = ORRI_DEL_PIPELINE, .u.pipeline = *p});
    *p = VK_NULL_HANDLE;
}

void orri_shadow_gpu_release(orr_shadow_generator *g) {
    orri_gpu *gpu = &g->engine->gpu;
    orri_shadow_gpu *s = &g->gpu;
    for (int v = 0; v < 4; v++)
        for (int k = 0; k < 2; k++) drop_pipeline(gpu, &s->pipes[v][k]);
    for (int i = 0; i < ORRI_SHADOW_WRAPPED; i++) drop_wrapped(gpu, &s->wrapped[i]);
    drop_pipeline(gpu, &s->blur_pipe);
    orri_shadow_cull_release(g);
    orri_shadow_blur_release(g);
    /* A pipeline layout may go while command buffers that used it are pending. */
    if (s->layout) vkDestroyPipelineLayout(gpu->device, s->layout, NULL);
    s->layout = VK_NULL_HANDLE;
    for (uint32_t k = 0; k < ORRI_SHADOW_LAYERS; k++) { /* views alone: the queue destroys the view, no image */
        VkImageView views[2] = {s->layer_views[k], s->esm_layer_views[k]};
        for (int j = 0; j < 2; j++)
            if (views[j])
                orri_delete_push(gpu, &(orri_delete_item){.kind = ORRI_DEL_IMAGE, .u.image = {.view = views[j]}});
    }
    memset(s->layer_views, 0, sizeof s->layer_views);
    memset(s->esm_layer_views, 0, sizeof s->esm_layer_views);
    orri_image *imgs[] = {&s->depth, &s->esm[0], &s->esm[1], &s->blur_tmp};
    for (int i = 0; i < 4; i++)
        if (imgs[i]->image) orri_image_destroy_deferred(gpu, imgs[i]);
}
