/* pipelines.c — descriptor/pipeline layouts and graphics pipelines.
 *
 * Every pipeline: dynamic rendering into the engine target (RGBA8 + D32,
 * msaa samples), reverse-Z depth (GREATER_OR_EQUAL, clear 0), viewport with a
 * negative height so clip-space +Y is up as in Babylon.js, four vertex
 * streams (position, normal, uv, colour). Front faces are clockwise on
 * screen: Babylon.js meshes wind front faces clockwise (left-handed).
 * Variants differ in culling and blending only; they come from the engine's
 * pipeline cache.
 */
#include <string.h>

#include "orrery/handedness.h"
#include "render/render_int.h"

extern const uint32_t orri_spv_standard_vert[], orri_spv_standard_frag[], orri_spv_standard_instanced_vert[];
extern const size_t orri_spv_standard_vert_size, orri_spv_standard_frag_size, orri_spv_standard_instanced_vert_size;
extern const uint32_t orri_spv_standard_lean_vert[], orri_spv_standard_lean_frag[],
    orri_spv_standard_lean_instanced_vert[], orri_spv_standard_lean_instanced_frag[];
extern const size_t orri_spv_standard_lean_vert_size, orri_spv_standard_lean_frag_size,
    orri_spv_standard_lean_instanced_vert_size, orri_spv_standard_lean_instanced_frag_size;
extern const uint32_t orri_spv_standard_lean_instanced_nc_vert[], orri_spv_standard_lean_instanced_nc_frag[];
extern const size_t orri_spv_standard_lean_instanced_nc_vert_size, orri_spv_standard_lean_instanced_nc_frag_size;
extern const uint32_t orri_spv_cull_comp[], orri_spv_cull_planet_comp[], orri_spv_scatter_comp[];
extern const size_t orri_spv_scatter_comp_size;
extern const size_t orri_spv_cull_comp_size, orri_spv_cull_planet_comp_size;

/* A compute pipeline of the engine (counted in pipeline_count). */
static orr_result compute_pipeline(orr_engine *e, VkPipelineLayout layout, const uint32_t *code, size_t size,
                                   const char *label, VkPipeline *out) {
    orr_result r = orri_compute_pipeline(&e->gpu, layout, code, size, label, out);
    if (r == ORR_OK) e->pipeline_count++;
    return r;
}

/* The thin-instance culling passes (shaders/cull.comp, cull_planet.comp). */
static orr_result cull_pipeline(orr_engine *e) {
    orri_gpu *gpu = &e->gpu;
    VkDescriptorSetLayoutBinding b[9];
    for (uint32_t i = 0; i < 9; i++)
        b[i] = (VkDescriptorSetLayoutBinding){
            i, i == 0 ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
            VK_SHADER_STAGE_COMPUTE_BIT, NULL};
    orr_result r = orri_set_layout(gpu, b, 9, "cull set layout", &e->cull_set_layout);
    if (r != ORR_OK) return r;
    r = orri_pipeline_layout(gpu, &e->cull_set_layout, 1, NULL, "cull pipeline layout", &e->cull_layout);
    if (r == ORR_OK)
        r = compute_pipeline(e, e->cull_layout, orri_spv_cull_comp, orri_spv_cull_comp_size, "thin-instance culling",
                             &e->cull_pipeline);
    if (r == ORR_OK)
        r = compute_pipeline(e, e->cull_layout, orri_spv_cull_planet_comp, orri_spv_cull_planet_comp_size,
                             "planetary instance culling", &e->cull_planet_pipeline);
    return r;
}

/* The dirty-row scatter (shaders/scatter.comp) and one descriptor pool per
 * frame slot for its sets, reset when the slot is reused. */
static orr_result scatter_pipeline(orr_engine *e) {
    orri_gpu *gpu = &e->gpu;
    VkDescriptorSetLayoutBinding b[3];
    for (uint32_t i = 0; i < 3; i++)
        b[i] =
            (VkDescriptorSetLayoutBinding){i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL};
    orr_result r = orri_set_layout(gpu, b, 3, "scatter set layout", &e->scatter_set_layout);
    if (r != ORR_OK) return r;
    r = orri_pipeline_layout(gpu, &e->scatter_set_layout, 1, &(VkPushConstantRange){VK_SHADER_STAGE_COMPUTE_BIT, 0, 16},
                             "scatter layout", &e->scatter_layout);
    if (r == ORR_OK)
        r = compute_pipeline(e, e->scatter_layout, orri_spv_scatter_comp, orri_spv_scatter_comp_size,
                             "instance row scatter", &e->scatter_pipeline);
    VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 3 * 256};
    VkDescriptorPoolCreateInfo pi = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                     .maxSets = 256,
                                     .poolSizeCount = 1,
                                     .pPoolSizes = &size};
    for (uint32_t i = 0; r == ORR_OK && i < gpu->frame_count; i++)
        r = orri_vk_check(gpu, vkCreateDescriptorPool(gpu->device, &pi, NULL, &e->scatter_pool[i]), "scatter pool");
    return r;
}

orr_result orri_pipelines_init(orr_engine *e) {
    orri_gpu *gpu = &e->gpu;
    const VkShaderStageFlags vf = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
    VkDescriptorSetLayoutBinding scene_b[] = {
        {0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, vf, NULL},
        {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, vf, NULL},
        {2, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, NULL}, /* shadows (src/shadow) */
        {3, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, ORRI_MAX_LIGHTS, VK_SHADER_STAGE_FRAGMENT_BIT, NULL},
        {4, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, ORRI_MAX_LIGHTS, VK_SHADER_STAGE_FRAGMENT_BIT, NULL},
    };
    VkDescriptorSetLayoutBinding sys_b[] = {{0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 1, vf, NULL}};
    orr_result r = orri_set_layout(gpu, scene_b, 5, "scene set layout", &e->scene_set_layout);
    if (r == ORR_OK) r = orri_set_layout(gpu, sys_b, 1, "shader system set layout", &e->sys_set_layout);
    if (r != ORR_OK) return r;
    VkDescriptorSetLayout sets[] = {e->scene_set_layout, e->textures.set_layout};
    r = orri_pipeline_layout(gpu, sets, 2, &(VkPushConstantRange){vf, 0, sizeof(uint32_t)}, "standard pipeline layout",
                             &e->std_layout);
    if (r != ORR_OK) return r;
    r = orri_shader_module(gpu, orri_spv_standard_vert, orri_spv_standard_vert_size, "standard.vert", &e->std_vert);
    if (r == ORR_OK)
        r = orri_shader_module(gpu, orri_spv_standard_frag, orri_spv_standard_frag_size, "standard.frag", &e->std_frag);
    if (r == ORR_OK)
        r = orri_shader_module(gpu, orri_spv_standard_instanced_vert, orri_spv_standard_instanced_vert_size,
                               "standard_instanced.vert", &e->std_inst_vert);
#define LEAN(name, field) \
    if (r == ORR_OK) r = orri_shader_module(gpu, orri_spv_##name, orri_spv_##name##_size, #name, &e->field)
    LEAN(standard_lean_vert, std_lean_vert);
    LEAN(standard_lean_frag, std_lean_frag);
    LEAN(standard_lean_instanced_vert, std_lean_inst_vert);
    LEAN(standard_lean_instanced_frag, std_lean_inst_frag);
    LEAN(standard_lean_instanced_nc_vert, std_lean_inst_nc_vert);
    LEAN(standard_lean_instanced_nc_frag, std_lean_inst_nc_frag);
#undef LEAN
    if (r == ORR_OK) r = cull_pipeline(e);
    if (r == ORR_OK) r = scatter_pipeline(e);
    if (r == ORR_OK) r = orri_pbr_pipelines_init(e);
    if (r == ORR_OK) r = orri_shadow_recv_init(e);
    return r;
}

void orri_pipelines_deinit(orr_engine *e) {
    VkDevice d = e->gpu.device;
    orri_pbr_pipelines_deinit(e);
    orri_shadow_recv_deinit(e);
    for (uint32_t i = 0; i < e->std_pipeline_count; i++) vkDestroyPipeline(d, e->std_pipelines[i].pipeline, NULL);
    e->std_pipeline_count = 0;
    if (e->std_vert) vkDestroyShaderModule(d, e->std_vert, NULL);
    if (e->std_frag) vkDestroyShaderModule(d, e->std_frag, NULL);
    if (e->std_inst_vert) vkDestroyShaderModule(d, e->std_inst_vert, NULL);
    VkShaderModule lean[] = {e->std_lean_vert,      e->std_lean_frag,         e->std_lean_inst_vert,
                             e->std_lean_inst_frag, e->std_lean_inst_nc_vert, e->std_lean_inst_nc_frag};
    for (int i = 0; i < 6; i++)
        if (lean[i]) vkDestroyShaderModule(d, lean[i], NULL);
    orri_deform_pipeline_deinit(e);
    orri_crowd_pipeline_deinit(e);
    orri_occlusion_deinit(e);
    orri_depth_bounds_deinit(e);
    if (e->cull_pipeline) vkDestroyPipeline(d, e->cull_pipeline, NULL);
    if (e->cull_planet_pipeline) vkDestroyPipeline(d, e->cull_planet_pipeline, NULL);
    if (e->scatter_pipeline) vkDestroyPipeline(d, e->scatter_pipeline, NULL);
    if (e->scatter_layout) vkDestroyPipelineLayout(d, e->scatter_layout, NULL);
    if (e->scatter_set_layout) vkDestroyDescriptorSetLayout(d, e->scatter_set_layout, NULL);
    for (uint32_t i = 0; i < ORRI_MAX_FRAMES; i++)
        if (e->scatter_pool[i]) vkDestroyDescriptorPool(d, e->scatter_pool[i], NULL);
    orri_free(&e->host.ctx.allocator, e->scatter_rows);
    e->scatter_rows = NULL, e->scatter_rows_cap = 0;
    if (e->cull_layout) vkDestroyPipelineLayout(d, e->cull_layout, NULL);
    if (e->cull_set_layout) vkDestroyDescriptorSetLayout(d, e->cull_set_layout, NULL);
    if (e->std_layout) vkDestroyPipelineLayout(d, e->std_layout, NULL);
    if (e->scene_set_layout) vkDestroyDescriptorSetLayout(d, e->scene_set_layout, NULL);
    if (e->sys_set_layout) vkDestroyDescriptorSetLayout(d, e->sys_set_layout, NULL);
}

typedef struct pipeline_desc {
    VkShaderModule vert, frag;
    VkPipelineLayout layout;
    bool cull, blend;
    bool instanced;         /* + world0..3 (4..7) and instanceColor (8), per instance */
    bool no_instance_color; /* instanced without location 8 */
    bool lean;              /* without UV (2) and vertex colour (3) */
    bool standard;          /* the engine's standard fragment stage: specialise its ORRI_RECEIVER */
    bool receiver;          /* ... to true (shadow code compiled in) */
    const char *label;
} pipeline_desc;

/* The standard vertex streams: position, normal, uv, colour per vertex;
 * world matrix and colour per instance. */
static orr_result build_pipeline(orr_engine *e, const pipeline_desc *p, VkPipeline *out) {
    static const VkVertexInputBindingDescription bindings[] = {
        {0, 12, VK_VERTEX_INPUT_RATE_VERTEX},   {1, 12, VK_VERTEX_INPUT_RATE_VERTEX},
        {2, 8, VK_VERTEX_INPUT_RATE_VERTEX},    {3, 16, VK_VERTEX_INPUT_RATE_VERTEX},
        {4, 64, VK_VERTEX_INPUT_RATE_INSTANCE}, {5, 16, VK_VERTEX_INPUT_RATE_INSTANCE},
    };
    static const VkVertexInputAttributeDescription all[] = {
        {0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0},     {1, 1, VK_FORMAT_R32G32B32_SFLOAT, 0},
        {2, 2, VK_FORMAT_R32G32_SFLOAT, 0},        {3, 3, VK_FORMAT_R32G32B32A32_SFLOAT, 0},
        {4, 4, VK_FORMAT_R32G32B32A32_SFLOAT, 0},  {5, 4, VK_FORMAT_R32G32B32A32_SFLOAT, 16},
        {6, 4, VK_FORMAT_R32G32B32A32_SFLOAT, 32}, {7, 4, VK_FORMAT_R32G32B32A32_SFLOAT, 48},
        {8, 5, VK_FORMAT_R32G32B32A32_SFLOAT, 0},
    };
    /* Only the locations the shaders consume. */
    VkVertexInputAttributeDescription attrs[9];
    uint32_t nattrs = 0;
    for (uint32_t i = 0; i < 9; i++) {
        if (p->lean && (i == 2 || i == 3)) continue;
        if (!p->instanced && i >= 4) continue;
        if (p->no_instance_color && i == 8) continue;
        attrs[nattrs++] = all[i];
    }
    orri_spec_bool recv; /* standard_frag.glsl's ORRI_RECEIVER */
    orri_graphics_desc d = {
        .target = orri_target_info_of(e),
        .vert = p->vert,
        .frag = p->frag,
        .frag_spec = p->standard ? orri_spec_bool_init(&recv, p->receiver) : NULL, /* a shader material's are its own */
        .layout = p->layout,
        .bindings = bindings,
        .binding_count = p->instanced ? 6 : 4,
        .attributes = attrs,
        .attribute_count = nattrs,
        .cull = p->cull ? VK_CULL_MODE_BACK_BIT : VK_CULL_MODE_NONE,
        .front_face = orri_front_face(false), /* dynamic: mirrored meshes flip it per draw */
        .dynamic_front_face = true,
        .blend = p->blend ? ORRI_BLEND_ALPHA : ORRI_BLEND_NONE,
        .label = p->label,
    };
    orr_result r = orri_graphics_pipeline(&e->gpu, &d, out);
    if (r == ORR_OK) e->pipeline_count++;
    return r;
}

/* Front face of camera passes. Babylon.js winds front faces clockwise on
 * screen (left-handed); our negative viewport height mirrors framebuffer y,
 * so that is VK_FRONT_FACE_COUNTER_CLOCKWISE here. The right-handed build
 * mirrors the view (seeds/001), which reverses winding again. A mesh whose
 * world matrix has a negative determinant is mirrored itself: its front face
 * flips too (Babylon.js's mirrored-mesh rule), in both builds. */
VkFrontFace orri_front_face(bool mirrored) {
#if ORR_RIGHT_HANDED
    bool ccw = false;
#else
    bool ccw = true;
#endif
    if (mirrored) ccw = !ccw;
    return ccw ? VK_FRONT_FACE_COUNTER_CLOCKWISE : VK_FRONT_FACE_CLOCKWISE;
}

orr_result orri_std_pipeline(orr_engine *e, bool cull, bool blend, bool instanced, bool lean, bool no_icolor,
                             bool receiver, VkPipeline *out) {
    no_icolor = no_icolor && lean && instanced;
    uint32_t key = (cull ? 1u : 0u) | (blend ? 2u : 0u) | (instanced ? 4u : 0u) | (lean ? 8u : 0u) |
                   (no_icolor ? 16u : 0u) | (receiver ? 32u : 0u);
    for (uint32_t i = 0; i < e->std_pipeline_count; i++)
        if (e->std_pipelines[i].key == key) return *out = e->std_pipelines[i].pipeline, ORR_OK;
    VkShaderModule lean_inst_vert = no_icolor ? e->std_lean_inst_nc_vert : e->std_lean_inst_vert;
    VkShaderModule lean_inst_frag = no_icolor ? e->std_lean_inst_nc_frag : e->std_lean_inst_frag;
    VkShaderModule vert =
        lean ? (instanced ? lean_inst_vert : e->std_lean_vert) : (instanced ? e->std_inst_vert : e->std_vert);
    VkShaderModule frag = lean ? (instanced ? lean_inst_frag : e->std_lean_frag) : e->std_frag;
    pipeline_desc p = {.vert = vert,
                       .frag = frag,
                       .layout = e->std_layout,
                       .cull = cull,
                       .blend = blend,
                       .instanced = instanced,
                       .no_instance_color = no_icolor,
                       .lean = lean,
                       .standard = true,
                       .receiver = receiver,
                       .label =
                           instanced ? "standard material pipeline (thin instances)" : "standard material pipeline"};
    orr_result r = build_pipeline(e, &p, out);
    if (r == ORR_OK) e->std_pipelines[e->std_pipeline_count++] = (orri_std_variant){key, *out};
    return r;
}

void orri_shader_gpu_release(orr_engine *e, orri_shader_gpu *g) {
    VkDevice d = e->gpu.device;
    if (g->pipeline) {
        orri_delete_push(&e->gpu, &(orri_delete_item){.kind = ORRI_DEL_PIPELINE, .u.pipeline = g->pipeline});
        e->pipeline_count--;
    }
    if (g->pipeline_inst) {
        orri_delete_push(&e->gpu, &(orri_delete_item){.kind = ORRI_DEL_PIPELINE, .u.pipeline = g->pipeline_inst});
        e->pipeline_count--;
    }
    /* Called while the scene's GPU state (and so the sets' pool) lives. */
    for (int i = 0; i < ORRI_MAX_FRAMES; i++)
        if (g->user_sets[i])
            orri_delete_push(&e->gpu, &(orri_delete_item){.kind = ORRI_DEL_DESCRIPTOR_SET,
                                                          .u.set = {g->user_pool, g->user_sets[i]}});
    /* Layouts are not used by pending work once their pipelines are gone. */
    if (g->layout) vkDestroyPipelineLayout(d, g->layout, NULL);
    if (g->user_layout) vkDestroyDescriptorSetLayout(d, g->user_layout, NULL);
    memset(g, 0, sizeof *g);
}

static orr_result shader_layouts(orr_engine *e, const orri_shader_material *sm, orri_shader_gpu *g) {
    VkDescriptorSetLayoutBinding b[1 + ORR_SHADER_MAX_TEXTURES];
    const VkShaderStageFlags vf = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
    b[0] = (VkDescriptorSetLayoutBinding){0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 1, vf, NULL};
    for (uint32_t i = 0; i < sm->texture_count; i++)
        b[1 + i] = (VkDescriptorSetLayoutBinding){1 + i, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, vf, NULL};
    orr_result r = orri_set_layout(&e->gpu, b, 1 + sm->texture_count, "shader user set layout", &g->user_layout);
    if (r != ORR_OK) return r;
    /* A receiver reads the scene set (shadow records and maps) at set 2. */
    VkDescriptorSetLayout sets[] = {e->sys_set_layout, g->user_layout, e->scene_set_layout};
    return orri_pipeline_layout(&e->gpu, sets, sm->shadow_receiver ? 3 : 2, NULL, "shader pipeline layout", &g->layout);
}

orr_result orri_shader_pipeline(orr_engine *e, orri_scene_gpu *sg, uint32_t material, orri_material *m,
                                orri_shader_gpu **out) {
    orri_shader_gpu *g = &sg->shaders[orri_scene_slot(material)];
    if (g->material && g->structure_version == m->structure_version && g->pipeline) return *out = g, ORR_OK;
    if (g->material) orri_shader_gpu_release(e, g);
    const orri_shader_material *sm = m->shader;
    orr_result r = shader_layouts(e, sm, g);
    VkShaderModule vert = VK_NULL_HANDLE, frag = VK_NULL_HANDLE, ivert = VK_NULL_HANDLE;
    if (r == ORR_OK) r = orri_shader_module(&e->gpu, sm->vert_spv, sm->vert_size, m->label, &vert);
    if (r == ORR_OK) r = orri_shader_module(&e->gpu, sm->frag_spv, sm->frag_size, m->label, &frag);
    if (r == ORR_OK) {
        pipeline_desc p = {.vert = vert,
                           .frag = frag,
                           .layout = g->layout,
                           .cull = sm->back_face_culling,
                           .blend = sm->alpha_blend,
                           .label = m->label};
        r = build_pipeline(e, &p, &g->pipeline);
    }
    if (r == ORR_OK && sm->inst_vert_spv) {
        r = orri_shader_module(&e->gpu, sm->inst_vert_spv, sm->inst_vert_size, m->label, &ivert);
        pipeline_desc p = {.vert = ivert,
                           .frag = frag,
                           .layout = g->layout,
                           .cull = sm->back_face_culling,
                           .blend = sm->alpha_blend,
                           .instanced = true,
                           .no_instance_color = sm->ignore_instance_colors,
                           .label = m->label};
        if (r == ORR_OK) r = build_pipeline(e, &p, &g->pipeline_inst);
    }
    if (ivert) vkDestroyShaderModule(e->gpu.device, ivert, NULL);
    if (vert) vkDestroyShaderModule(e->gpu.device, vert, NULL);
    if (frag) vkDestroyShaderModule(e->gpu.device, frag, NULL);
    if (r != ORR_OK) {
        orri_shader_gpu_release(e, g);
        return r;
    }
    g->material = 1; /* set by the caller to the real id */
    g->structure_version = m->structure_version;
    *out = g;
    return ORR_OK;
}
