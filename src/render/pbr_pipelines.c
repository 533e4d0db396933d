/* pbr_pipelines.c — the PBR material's layouts, shader modules and pipeline
 * variants (shaders/pbr*.vert, pbr.frag).
 *
 * Vertex streams: position, normal, uv, colour (as standard materials),
 * tangent (16 bytes) and second uv set (8 bytes); a mesh without them binds
 * its colour and uv streams there and the shader ignores them. Thin
 * instances add the world matrix and colour per instance (bindings 6, 7).
 * Set 0 scene block + objects, set 1 the PBR blocks (the frame slot's
 * shader-block buffer, a block per draw at ORRI_SHADER_STRIDE: binding 0 this
 * draw's as a uniform buffer at a dynamic offset, binding 1 all of them as a
 * storage buffer indexed by object, read by the run variant: decision 83),
 * set 2 the five material
 * textures (one array binding), set 3 environment cube + BRDF table.
 */
#include <string.h>

#include "render/render_int.h"

extern const uint32_t orri_spv_pbr_vert[], orri_spv_pbr_instanced_vert[], orri_spv_pbr_instanced_nc_vert[],
    orri_spv_pbr_frag[];
extern const size_t orri_spv_pbr_vert_size, orri_spv_pbr_instanced_vert_size, orri_spv_pbr_instanced_nc_vert_size,
    orri_spv_pbr_frag_size;

_Static_assert(sizeof(orri_gpu_pbr) == 26 * 16, "PBR block layout");
_Static_assert(sizeof(orri_gpu_pbr) <= ORRI_SYS_BLOCK, "the PBR block lives in a draw's system block");
_Static_assert(ORRI_SHADER_STRIDE % 16 == 0 && ORRI_SHADER_STRIDE / 16 > 26, "pbr.frag pads its blocks to the stride");

static orr_result layouts(orr_engine *e) {
    orri_gpu *gpu = &e->gpu;
    orri_pbr_engine *p = &e->pbr;
    const VkShaderStageFlags f = VK_SHADER_STAGE_FRAGMENT_BIT;
    VkDescriptorSetLayoutBinding tex = {0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, ORRI_PBR_SLOTS, f, NULL};
    VkDescriptorSetLayoutBinding ibl[] = {{0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, f, NULL},
                                          {1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, f, NULL}};
    /* binding 0: this draw's block (dynamic offset), binding 1: every block (runs) */
    const VkShaderStageFlags vf = VK_SHADER_STAGE_VERTEX_BIT | f;
    VkDescriptorSetLayoutBinding blocks[] = {{0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 1, vf, NULL},
                                             {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, vf, NULL}};
    orr_result r = orri_set_layout(gpu, &tex, 1, "PBR texture set layout", &p->tex_layout);
    if (r == ORR_OK) r = orri_set_layout(gpu, ibl, 2, "PBR IBL set layout", &p->ibl_layout);
    if (r == ORR_OK) r = orri_set_layout(gpu, blocks, 2, "PBR block set layout", &p->block_layout);
    if (r != ORR_OK) return r;
    VkDescriptorSetLayout sets[] = {e->scene_set_layout, p->block_layout, p->tex_layout, p->ibl_layout};
    return orri_pipeline_layout(gpu, sets, 4, &(VkPushConstantRange){VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof(uint32_t)},
                                "PBR pipeline layout", &p->layout);
}

orr_result orri_pbr_pipelines_init(orr_engine *e) {
    orri_gpu *gpu = &e->gpu;
    orri_pbr_engine *p = &e->pbr;
    orr_result r = layouts(e);
    if (r == ORR_OK) r = orri_shader_module(gpu, orri_spv_pbr_vert, orri_spv_pbr_vert_size, "pbr.vert", &p->vert);
    if (r == ORR_OK)
        r = orri_shader_module(gpu, orri_spv_pbr_instanced_vert, orri_spv_pbr_instanced_vert_size, "pbr_instanced.vert",
                               &p->inst_vert);
    if (r == ORR_OK)
        r = orri_shader_module(gpu, orri_spv_pbr_instanced_nc_vert, orri_spv_pbr_instanced_nc_vert_size,
                               "pbr_instanced_nc.vert", &p->inst_nc_vert);
    if (r == ORR_OK) r = orri_shader_module(gpu, orri_spv_pbr_frag, orri_spv_pbr_frag_size, "pbr.frag", &p->frag);
    return r;
}

void orri_pbr_pipelines_deinit(orr_engine *e) {
    VkDevice d = e->gpu.device;
    orri_pbr_engine *p = &e->pbr;
    for (uint32_t i = 0; i < p->pipeline_count; i++) vkDestroyPipeline(d, p->pipelines[i].pipeline, NULL);
    VkShaderModule mods[] = {p->vert, p->inst_vert, p->inst_nc_vert, p->frag};
    for (int i = 0; i < 4; i++)
        if (mods[i]) vkDestroyShaderModule(d, mods[i], NULL);
    if (p->layout) vkDestroyPipelineLayout(d, p->layout, NULL);
    if (p->tex_layout) vkDestroyDescriptorSetLayout(d, p->tex_layout, NULL);
    if (p->ibl_layout) vkDestroyDescriptorSetLayout(d, p->ibl_layout, NULL);
    if (p->block_layout) vkDestroyDescriptorSetLayout(d, p->block_layout, NULL);
    memset(p, 0, sizeof *p);
}

static orr_result build(orr_engine *e, bool cull, bool blend, bool instanced, bool no_icolor, bool receiver, bool run,
                        VkPipeline *out) {
    static const VkVertexInputBindingDescription bindings[] = {
        {0, 12, VK_VERTEX_INPUT_RATE_VERTEX},   {1, 12, VK_VERTEX_INPUT_RATE_VERTEX},
        {2, 8, VK_VERTEX_INPUT_RATE_VERTEX},    {3, 16, VK_VERTEX_INPUT_RATE_VERTEX},
        {4, 16, VK_VERTEX_INPUT_RATE_VERTEX},   {5, 8, VK_VERTEX_INPUT_RATE_VERTEX},
        {6, 64, VK_VERTEX_INPUT_RATE_INSTANCE}, {7, 16, VK_VERTEX_INPUT_RATE_INSTANCE},
    };
    static const VkVertexInputAttributeDescription attrs[] = {
        {0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0},     {1, 1, VK_FORMAT_R32G32B32_SFLOAT, 0},
        {2, 2, VK_FORMAT_R32G32_SFLOAT, 0},        {3, 3, VK_FORMAT_R32G32B32A32_SFLOAT, 0},
        {4, 4, VK_FORMAT_R32G32B32A32_SFLOAT, 0},  {5, 5, VK_FORMAT_R32G32_SFLOAT, 0},
        {6, 6, VK_FORMAT_R32G32B32A32_SFLOAT, 0},  {7, 6, VK_FORMAT_R32G32B32A32_SFLOAT, 16},
        {8, 6, VK_FORMAT_R32G32B32A32_SFLOAT, 32}, {9, 6, VK_FORMAT_R32G32B32A32_SFLOAT, 48},
        {10, 7, VK_FORMAT_R32G32B32A32_SFLOAT, 0},
    };
    orri_pbr_engine *p = &e->pbr;
    /* pbr.frag's constant 0 (ORRI_RECEIVER): the shadow code only where the mesh receives. */
    orri_spec_bools spec; /* 0: ORRI_RECEIVER (pbr.frag), 1: ORRI_PBR_RUN (both stages) */
    uint32_t nattrs = instanced ? (no_icolor ? 10 : 11) : 6;
    orri_graphics_desc d = {
        .target = orri_target_info_of(e),
        .vert = instanced ? (no_icolor ? p->inst_nc_vert : p->inst_vert) : p->vert,
        .frag = p->frag,
        .frag_spec = orri_spec_bools_init(&spec, receiver, run),
        .vert_spec = &spec.info,
        .layout = p->layout,
        .bindings = bindings,
        .binding_count = instanced ? (no_icolor ? 7 : 8) : 6,
        .attributes = attrs,
        .attribute_count = nattrs,
        .cull = cull ? VK_CULL_MODE_BACK_BIT : VK_CULL_MODE_NONE,
        .front_face = orri_front_face(false), /* dynamic: mirrored meshes flip it per draw */
        .dynamic_front_face = true,
        .blend = blend ? ORRI_BLEND_ALPHA : ORRI_BLEND_NONE,
        .label = instanced ? "PBR material pipeline (thin instances)" : "PBR material pipeline",
    };
    orr_result r = orri_graphics_pipeline(&e->gpu, &d, out);
    if (r == ORR_OK) e->pipeline_count++;
    return r;
}

orr_result orri_pbr_pipeline(orr_engine *e, bool cull, bool blend, bool instanced, bool no_icolor, bool receiver,
                             bool run, VkPipeline *out) {
    no_icolor = no_icolor && instanced;
    run = run && !instanced;
    uint32_t key = (cull ? 1u : 0u) | (blend ? 2u : 0u) | (instanced ? 4u : 0u) | (no_icolor ? 8u : 0u) |
                   (receiver ? 16u : 0u) | (run ? 32u : 0u);
    orri_pbr_engine *p = &e->pbr;
    for (uint32_t i = 0; i < p->pipeline_count; i++)
        if (p->pipelines[i].key == key) return *out = p->pipelines[i].pipeline, ORR_OK;
    orr_result r = build(e, cull, blend, instanced, no_icolor, receiver, run, out);
    if (r == ORR_OK) p->pipelines[p->pipeline_count++] = (orri_std_variant){key, *out};
    return r;
}
