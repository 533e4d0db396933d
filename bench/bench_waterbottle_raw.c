/* bench_waterbottle_raw — the WaterBottle under IBL (issue 11, "frame time of
 * the WaterBottle with IBL against a raw baseline of the same draw"): Orrery
 * against a raw Vulkan baseline in the same binary, run and VkDevice, as
 * bench_instances does for thin instances.
 *
 * Orrery: the scene of bench_gltf_frame --waterbottle (environmentSpecular.env
 * as the scene's environment, one hemispheric light, the glTF loaded in one
 * call, arc-rotate camera at 0.3 m).
 * Baseline: one indexed draw per frame with minimal Vulkan: its own command
 * pool, two command buffers and fences (two frames in flight, as Orrery), its
 * own descriptor set layouts, pool and sets, its own pipeline layout and
 * pipeline, its own vertex, index and uniform buffers, dynamic rendering into
 * the engine's colour / depth / resolve images (same size and MSAA).
 * Shading: the engine's compiled PBR SPIR-V (shaders/pbr.vert, pbr.frag), so
 * the shading cost is the same by construction; the same data: the vertex
 * streams from the mesh's geometry, the material's five textures, the IBL
 * cube and BRDF table (the engine's images and samplers, bound through the
 * baseline's own sets), and the uniform blocks (scene, object, PBR, shadow)
 * copied byte for byte from what Orrery uploaded for the same view; set 0
 * has every binding pbr.frag declares (the shadow maps are the engine's
 * fallback), and the fragment stage takes Orrery's specialisation for the
 * mesh (ORRI_RECEIVER, decision 78; ORR_BENCH_RECEIVER=1 forces the receiver
 * variant in the baseline only, to show the cost of the shadow code). The
 * two images are compared (MAD) to show that it is the same draw; ctest's
 * bench_waterbottle_same_draw requires MAD 0 with validation on.
 *
 *     bench_waterbottle_raw [--size WxH] [--msaa 1|4] [--frames F] [--png PREFIX]
 * Defaults: 1920×1080, MSAA 4, 200 frames per block; blocks interleaved
 * (Orrery, baseline, twice). Output: one line per block in bench_gltf_frame's
 * format (medians: CPU ms in orr_scene_animate / orr_engine_render or the
 * baseline's record + submit, GPU ms of Orrery's pre-pass stage and render
 * pass; the baseline's whole command buffer under "GPU pass"), then the
 * image MAD and `BENCH name value unit` lines. Assets from ORR_ASSETS
 * (default ./assets); validation with ORR_VALIDATION=1. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <orrery/orrery.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_frame.h"
#include "render/render_int.h"

extern const uint32_t orri_spv_pbr_vert[], orri_spv_pbr_frag[];
extern const size_t orri_spv_pbr_vert_size, orri_spv_pbr_frag_size;

typedef struct raw {
    orr_engine *e;
    orri_gpu *gpu;
    bool cull, blend, mirrored, receiver;
    float clear[4];
    orri_buffer streams[6], indices, scene_ubo, object, pbr, shadow_ubo;
    VkIndexType index_type;
    uint32_t index_count;
    VkDescriptorSetLayout set_layouts[4];
    VkDescriptorPool pool;
    VkDescriptorSet sets[4];
    VkShaderModule vs, fs;
    VkPipelineLayout layout;
    VkPipeline pipe;
    VkCommandPool cmd_pool;
    VkCommandBuffer cmd[2];
    VkFence fence[2];
    VkQueryPool qp[2];
    bool pending[2];
    uint32_t slot;
} raw;

static void die(const char *what, orr_engine *e) {
    fprintf(stderr, "bench_waterbottle_raw: %s: %s\n", what, e ? orr_engine_last_error(e) : "");
    exit(1);
}

static void vkok(VkResult r, const char *what) {
    if (r != VK_SUCCESS) {
        fprintf(stderr, "bench_waterbottle_raw: baseline: %s failed (%d)\n", what, (int)r);
        exit(1);
    }
}

static const char *asset(const char *rel) {
    static char buf[1024];
    const char *root = getenv("ORR_ASSETS");
    snprintf(buf, sizeof buf, "%s/%s", root ? root : "assets", rel);
    return buf;
}

static void print(const char *what, bench_figures f) {
    printf("%-34s animate %8.3f ms  render(CPU) %8.3f ms  GPU pre-pass %8.3f ms  GPU pass %8.3f ms\n", what, f.animate,
           f.render, f.gpu_pre, f.gpu_pass);
}

/* ---- Orrery's scene (bench_gltf_frame --waterbottle) ----------------------------------- */

static orr_scene *bottle_scene(orr_engine *e, orr_texture *env) {
    orr_scene *s;
    if (orr_scene_create(e, &(orr_scene_desc){0}, &s) != ORR_OK) die("scene", e);
    if (orr_texture_load_file(e, asset("bjs/environmentSpecular.env"), NULL, env) != ORR_OK) die("env", e);
    orr_scene_set_environment_texture(s, *env);
    orr_camera cam = orr_camera_create_arc_rotate(
        s, &(orr_arc_rotate_desc){.alpha = -1.5707963, .beta = 1.5707963, .radius = 0.3, .near = 0.01, .far = 10});
    orr_scene_set_active_camera(s, cam);
    orr_light_create(s, &(orr_light_desc){.type = ORR_LIGHT_HEMISPHERIC, .direction = {0, 1, 0}});
    orr_gltf *g = NULL;
    if (orr_gltf_load_file(s, asset("gltf/WaterBottle/WaterBottle.gltf"), NULL, &g) != ORR_OK) die("WaterBottle", e);
    return s;
}

/* ---- baseline: data ------------------------------------------------------------------------ */

static void buffer(raw *b, orri_buffer *buf, VkBufferUsageFlags usage, orri_mem_kind kind, const void *data,
                   size_t size, const char *label) {
    if (orri_buffer_create(b->gpu, size, usage, kind, label, buf) != ORR_OK) die(label, b->e);
    if (orri_buffer_upload(b->gpu, VK_NULL_HANDLE, buf, 0, data, size) != ORR_OK) die(label, b->e);
}

/* The six streams of the PBR vertex stage (absent ones as Orrery fills or
 * substitutes them) and 16-bit indices when every vertex index fits. */
static void upload_geometry(raw *b, const orr_geometry *g) {
    size_t v = g->vertex_count;
    float *white = malloc(v * 16);
    for (size_t i = 0; white && i < v * 4; i++) white[i] = 1.0f;
    float *zero = calloc(v, 12);
    if (!white || !zero) die("memory", NULL);
    const void *data[6] = {g->positions,
                           g->normals ? g->normals : zero,
                           g->uvs ? g->uvs : zero,
                           g->colors ? g->colors : white,
                           g->tangents,
                           g->uvs2};
    const size_t stride[6] = {12, 12, 8, 16, 16, 8};
    const VkBufferUsageFlags vb = VK_BUFFER_USAGE_VERTEX_BUFFER_BIT;
    for (int i = 0; i < 6; i++)
        if (data[i]) buffer(b, &b->streams[i], vb, ORRI_MEM_DEVICE, data[i], stride[i] * v, "baseline vertices");
    if (!g->tangents) b->streams[4] = b->streams[3]; /* the colour stream in its place, unread */
    if (!g->uvs2) b->streams[5] = b->streams[2];
    free(white), free(zero);
    bool small = v <= 65536;
    b->index_type = small ? VK_INDEX_TYPE_UINT16 : VK_INDEX_TYPE_UINT32;
    b->index_count = g->index_count;
    uint16_t *i16 = small ? malloc((size_t)g->index_count * 2) : NULL;
    for (uint32_t k = 0; i16 && k < g->index_count; k++) i16[k] = (uint16_t)g->indices[k];
    buffer(b, &b->indices, VK_BUFFER_USAGE_INDEX_BUFFER_BIT, ORRI_MEM_DEVICE, small ? (void *)i16 : g->indices,
           (size_t)g->index_count * (small ? 2 : 4), "baseline indices");
    free(i16);
}

/* The uniform blocks Orrery wrote for draw `d` in frame slot 0 (the scene is
 * static, so every slot holds the same), copied into the baseline's own
 * host-visible buffers. */
static void copy_blocks(raw *b, const orri_scene_gpu *sg, const orri_draw *d) {
    const orri_slot *sl = &sg->slots[0];
    const VkBufferUsageFlags ubo = VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT;
    buffer(b, &b->scene_ubo, ubo, ORRI_MEM_HOST, sl->scene_ubo.mapped, sizeof(orri_gpu_scene), "baseline scene");
    buffer(b, &b->object, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, ORRI_MEM_HOST,
           (const orri_gpu_object *)sl->objects.mapped + d->index, sizeof(orri_gpu_object), "baseline object");
    /* A draw alone reads its block as a uniform buffer (set 1 binding 0);
     * binding 1, the array of ORRI_SHADER_STRIDE-byte blocks multi-draw runs
     * read (decision 83), is declared too: the same buffer, one block. */
    buffer(b, &b->pbr, ubo | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, ORRI_MEM_HOST,
           (const uint8_t *)sl->sys.mapped + (size_t)d->index * ORRI_SHADER_STRIDE, ORRI_SHADER_STRIDE,
           "baseline PBR block");
    buffer(b, &b->shadow_ubo, ubo, ORRI_MEM_HOST, sl->shadow_ubo.mapped, ORRI_MAX_LIGHTS * sizeof(orri_gpu_shadow),
           "baseline shadow block");
}

/* ---- baseline: descriptors and pipeline ------------------------------------------------------ */

static void make_layouts(raw *b) {
    VkDevice dev = b->gpu->device;
    const VkShaderStageFlags vf = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
    const VkDescriptorType cis = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    const VkShaderStageFlags f = VK_SHADER_STAGE_FRAGMENT_BIT;
    /* set 0 as the engine's scene set: scene block, objects, shadow block and
     * each light slot's compare and raw shadow maps (pbr.frag reads them all) */
    VkDescriptorSetLayoutBinding s0[] = {{0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, vf, NULL},
                                         {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, vf, NULL},
                                         {2, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, f, NULL},
                                         {3, cis, ORRI_MAX_LIGHTS, f, NULL},
                                         {4, cis, ORRI_MAX_LIGHTS, f, NULL}};
    VkDescriptorSetLayoutBinding s1[] = {{0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, vf, NULL},
                                         {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, vf, NULL}};
    VkDescriptorSetLayoutBinding s2[] = {{0, cis, ORRI_PBR_SLOTS, VK_SHADER_STAGE_FRAGMENT_BIT, NULL}};
    VkDescriptorSetLayoutBinding s3[] = {{0, cis, 1, VK_SHADER_STAGE_FRAGMENT_BIT, NULL},
                                         {1, cis, 1, VK_SHADER_STAGE_FRAGMENT_BIT, NULL}};
    const VkDescriptorSetLayoutBinding *bind[4] = {s0, s1, s2, s3};
    const uint32_t count[4] = {5, 2, 1, 2};
    for (int i = 0; i < 4; i++) {
        VkDescriptorSetLayoutCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                              .bindingCount = count[i],
                                              .pBindings = bind[i]};
        vkok(vkCreateDescriptorSetLayout(dev, &ci, NULL, &b->set_layouts[i]), "set layout");
    }
    VkPipelineLayoutCreateInfo li = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                     .setLayoutCount = 4,
                                     .pSetLayouts = b->set_layouts,
                                     .pushConstantRangeCount = 1,
                                     .pPushConstantRanges =
                                         &(VkPushConstantRange){VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof(uint32_t)}};
    vkok(vkCreatePipelineLayout(dev, &li, NULL, &b->layout), "pipeline layout");
}

static VkDescriptorImageInfo image_info(const orri_texture *t) {
    return (VkDescriptorImageInfo){t->sampler, t->image.view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
}

/* Set 2: the material's five textures (white fallback for an empty slot, as
 * Orrery binds); set 3: the environment cube and the BRDF table. */
static void texture_infos(raw *b, orr_scene *s, const orri_material *m, VkDescriptorImageInfo tex[ORRI_PBR_SLOTS],
                          VkDescriptorImageInfo ibl[2]) {
    const orr_pbr_material_desc *p = &m->pbr;
    const orr_texture_slot *slot[ORRI_PBR_SLOTS] = {&p->base_color_texture, &p->metallic_roughness_texture,
                                                    &p->normal_texture, &p->occlusion_texture, &p->emissive_texture};
    for (int k = 0; k < ORRI_PBR_SLOTS; k++) {
        orri_texture *t = orri_texture_get(b->e, slot[k]->texture);
        tex[k] = image_info(t && t->image.layers == 1 ? t : orri_texture_fallback(b->e, false));
    }
    orri_ibl info;
    if (orri_texture_ibl(b->e, s->environment_texture, &info) != ORR_OK || !orri_brdf_lut(b->e)) die("IBL", b->e);
    ibl[0] = image_info(info.cube), ibl[1] = image_info(orri_brdf_lut(b->e));
}

/* One descriptor write: `count` buffers or images at (set, binding). */
static VkWriteDescriptorSet desc_write(VkDescriptorSet set, uint32_t binding, uint32_t count, VkDescriptorType type,
                                       const VkDescriptorBufferInfo *buf, const VkDescriptorImageInfo *img) {
    return (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                  .dstSet = set,
                                  .dstBinding = binding,
                                  .descriptorCount = count,
                                  .descriptorType = type,
                                  .pBufferInfo = buf,
                                  .pImageInfo = img};
}
static void make_sets(raw *b, orr_scene *s, const orri_material *m) {
    VkDevice dev = b->gpu->device;
    VkDescriptorPoolSize sizes[] = {
        {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 3},
        {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2},
        {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, ORRI_PBR_SLOTS + 2 + 2 * ORRI_MAX_LIGHTS}};
    VkDescriptorPoolCreateInfo pi = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 4, .poolSizeCount = 3, .pPoolSizes = sizes};
    vkok(vkCreateDescriptorPool(dev, &pi, NULL, &b->pool), "descriptor pool");
    VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                      .descriptorPool = b->pool,
                                      .descriptorSetCount = 4,
                                      .pSetLayouts = b->set_layouts};
    vkok(vkAllocateDescriptorSets(dev, &ai, b->sets), "descriptor sets");
    VkDescriptorBufferInfo bufs[4] = {{b->scene_ubo.buffer, 0, VK_WHOLE_SIZE},
                                      {b->object.buffer, 0, VK_WHOLE_SIZE},
                                      {b->pbr.buffer, 0, VK_WHOLE_SIZE},
                                      {b->shadow_ubo.buffer, 0, VK_WHOLE_SIZE}};
    VkDescriptorImageInfo tex[ORRI_PBR_SLOTS], ibl[2], cmp[ORRI_MAX_LIGHTS], rawm[ORRI_MAX_LIGHTS];
    texture_infos(b, s, m, tex, ibl);
    /* no shadow generator in this scene: every slot holds the engine's fallback map */
    for (int i = 0; i < ORRI_MAX_LIGHTS; i++) {
        VkImageView fb = b->e->shadow_fallback.view;
        cmp[i] = (VkDescriptorImageInfo){b->e->shadow_cmp_sampler, fb, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
        rawm[i] = (VkDescriptorImageInfo){b->e->shadow_raw_sampler, fb, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
    }
    const VkDescriptorType ubo = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, ssbo = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                           cis = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    VkWriteDescriptorSet writes[] = {
        desc_write(b->sets[0], 0, 1, ubo, &bufs[0], NULL),
        desc_write(b->sets[0], 1, 1, ssbo, &bufs[1], NULL),
        desc_write(b->sets[0], 2, 1, ubo, &bufs[3], NULL),
        desc_write(b->sets[0], 3, ORRI_MAX_LIGHTS, cis, NULL, cmp),
        desc_write(b->sets[0], 4, ORRI_MAX_LIGHTS, cis, NULL, rawm),
        desc_write(b->sets[1], 0, 1, ubo, &bufs[2], NULL),
        desc_write(b->sets[1], 1, 1, ssbo, &bufs[2], NULL),
        desc_write(b->sets[2], 0, ORRI_PBR_SLOTS, cis, NULL, tex),
        desc_write(b->sets[3], 0, 1, cis, NULL, &ibl[0]),
        desc_write(b->sets[3], 1, 1, cis, NULL, &ibl[1]),
    };
    vkUpdateDescriptorSets(dev, sizeof writes / sizeof writes[0], writes, 0, NULL);
}

static VkShaderModule module(raw *b, const uint32_t *code, size_t size) {
    VkShaderModule m;
    VkShaderModuleCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = size, .pCode = code};
    vkok(vkCreateShaderModule(b->gpu->device, &ci, NULL, &m), "shader module");
    return m;
}

/* The state of Orrery's PBR pipeline for this draw: six vertex streams,
 * reverse-Z depth test and write, back-face culling unless double-sided,
 * alpha blending only for BLEND, front face per draw (dynamic). */
static void make_pipeline(raw *b) {
    static const VkVertexInputBindingDescription bindings[] = {
        {0, 12, VK_VERTEX_INPUT_RATE_VERTEX}, {1, 12, VK_VERTEX_INPUT_RATE_VERTEX},
        {2, 8, VK_VERTEX_INPUT_RATE_VERTEX},  {3, 16, VK_VERTEX_INPUT_RATE_VERTEX},
        {4, 16, VK_VERTEX_INPUT_RATE_VERTEX}, {5, 8, VK_VERTEX_INPUT_RATE_VERTEX}};
    static const VkVertexInputAttributeDescription attrs[] = {
        {0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0},    {1, 1, VK_FORMAT_R32G32B32_SFLOAT, 0},
        {2, 2, VK_FORMAT_R32G32_SFLOAT, 0},       {3, 3, VK_FORMAT_R32G32B32A32_SFLOAT, 0},
        {4, 4, VK_FORMAT_R32G32B32A32_SFLOAT, 0}, {5, 5, VK_FORMAT_R32G32_SFLOAT, 0}};
    b->vs = module(b, orri_spv_pbr_vert, orri_spv_pbr_vert_size);
    b->fs = module(b, orri_spv_pbr_frag, orri_spv_pbr_frag_size);
    /* pbr.frag's constant 0 as Orrery sets it for this mesh (decision 78) */
    orri_spec_bool recv;
    const VkSpecializationInfo *spec = orri_spec_bool_init(&recv, b->receiver);
    VkPipelineShaderStageCreateInfo stages[] = {{.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                                                 .stage = VK_SHADER_STAGE_VERTEX_BIT,
                                                 .module = b->vs,
                                                 .pName = "main"},
                                                {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                                                 .stage = VK_SHADER_STAGE_FRAGMENT_BIT,
                                                 .module = b->fs,
                                                 .pName = "main",
                                                 .pSpecializationInfo = spec}};
    VkPipelineColorBlendAttachmentState blend = {.colorWriteMask = 0xf};
    if (b->blend)
        blend = (VkPipelineColorBlendAttachmentState){VK_TRUE,
                                                      VK_BLEND_FACTOR_SRC_ALPHA,
                                                      VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA,
                                                      VK_BLEND_OP_ADD,
                                                      VK_BLEND_FACTOR_ONE,
                                                      VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA,
                                                      VK_BLEND_OP_ADD,
                                                      0xf};
    VkDynamicState dyn[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR, VK_DYNAMIC_STATE_FRONT_FACE};
    VkFormat cf = ORRI_COLOR_FORMAT;
    VkGraphicsPipelineCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
        .pNext = &(VkPipelineRenderingCreateInfo){.sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO,
                                                  .colorAttachmentCount = 1,
                                                  .pColorAttachmentFormats = &cf,
                                                  .depthAttachmentFormat = ORRI_DEPTH_FORMAT},
        .stageCount = 2,
        .pStages = stages,
        .pVertexInputState =
            &(VkPipelineVertexInputStateCreateInfo){.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO,
                                                    .vertexBindingDescriptionCount = 6,
                                                    .pVertexBindingDescriptions = bindings,
                                                    .vertexAttributeDescriptionCount = 6,
                                                    .pVertexAttributeDescriptions = attrs},
        .pInputAssemblyState =
            &(VkPipelineInputAssemblyStateCreateInfo){.sType =
                                                          VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
                                                      .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST},
        .pViewportState =
            &(VkPipelineViewportStateCreateInfo){
                .sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO, .viewportCount = 1, .scissorCount = 1},
        .pRasterizationState = &(
            VkPipelineRasterizationStateCreateInfo){.sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
                                                    .polygonMode = VK_POLYGON_MODE_FILL,
                                                    .cullMode = b->cull ? VK_CULL_MODE_BACK_BIT : VK_CULL_MODE_NONE,
                                                    .frontFace = orri_front_face(false),
                                                    .lineWidth = 1.0f},
        .pMultisampleState =
            &(VkPipelineMultisampleStateCreateInfo){.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
                                                    .rasterizationSamples = b->e->msaa == 4 ? VK_SAMPLE_COUNT_4_BIT
                                                                                            : VK_SAMPLE_COUNT_1_BIT},
        .pDepthStencilState = &(
            VkPipelineDepthStencilStateCreateInfo){.sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO,
                                                   .depthTestEnable = VK_TRUE,
                                                   .depthWriteEnable = !b->blend,
                                                   .depthCompareOp = VK_COMPARE_OP_GREATER_OR_EQUAL},
        .pColorBlendState =
            &(VkPipelineColorBlendStateCreateInfo){.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
                                                   .attachmentCount = 1,
                                                   .pAttachments = &blend},
        .pDynamicState =
            &(VkPipelineDynamicStateCreateInfo){.sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO,
                                                .dynamicStateCount = 3,
                                                .pDynamicStates = dyn},
        .layout = b->layout,
    };
    vkok(vkCreateGraphicsPipelines(b->gpu->device, VK_NULL_HANDLE, 1, &ci, NULL, &b->pipe), "pipeline");
}

static void make_frames(raw *b) {
    VkDevice dev = b->gpu->device;
    VkCommandPoolCreateInfo pi = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                  .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                  .queueFamilyIndex = b->gpu->queue_family};
    vkok(vkCreateCommandPool(dev, &pi, NULL, &b->cmd_pool), "command pool");
    VkCommandBufferAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                      .commandPool = b->cmd_pool,
                                      .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                      .commandBufferCount = 2};
    vkok(vkAllocateCommandBuffers(dev, &ai, b->cmd), "command buffers");
    for (int i = 0; i < 2; i++) {
        VkFenceCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO, .flags = VK_FENCE_CREATE_SIGNALED_BIT};
        vkok(vkCreateFence(dev, &fi, NULL, &b->fence[i]), "fence");
        VkQueryPoolCreateInfo qi = {
            .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO, .queryType = VK_QUERY_TYPE_TIMESTAMP, .queryCount = 2};
        vkok(vkCreateQueryPool(dev, &qi, NULL, &b->qp[i]), "query pool");
    }
}

/* Everything from Orrery's draw of the bottle (the scene has rendered and
 * its GPU work has finished). */
static void raw_create(raw *b, orr_engine *e, orr_scene *s) {
    memset(b, 0, sizeof *b);
    b->e = e, b->gpu = &e->gpu;
    const orri_scene_gpu *sg = s->render_state;
    if (!sg || sg->draw_count != 1 || !sg->draws[0].pbr) die("expected one PBR draw", e);
    const orri_draw *d = &sg->draws[0];
    orri_node *n = orri_scene_node(s, d->node);
    const orri_material *m = orri_scene_material(s, d->material);
    b->cull = d->cull_back, b->blend = d->transparent, b->mirrored = d->mirrored;
    b->receiver = orri_node_mesh(n)->receive_shadows || getenv("ORR_BENCH_RECEIVER");
    orr_color4 c = s->clear_color; /* quantised as Orrery does */
    const double q[4] = {c.r, c.g, c.b, c.a};
    for (int i = 0; i < 4; i++) b->clear[i] = (float)(floor(q[i] * 255.0 + 0.5) / 255.0);
    upload_geometry(b, &orri_node_mesh(n)->geometry);
    copy_blocks(b, sg, d);
    make_layouts(b);
    make_sets(b, s, m);
    make_pipeline(b);
    make_frames(b);
}

/* ---- baseline: a frame ------------------------------------------------------------------------ */

static void begin_target(raw *b, VkCommandBuffer cmd) {
    orr_engine *e = b->e;
    const VkPipelineStageFlags2 all = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                                out = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT;
    const VkImageLayout cl = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    orri_barriers br = {.cmd = cmd};
    orri_barriers_image(&br, orri_barrier_image(e->color.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
                                                cl, all, 0, out, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT));
    orri_barriers_image(&br, orri_barrier_image(e->depth.image, VK_IMAGE_ASPECT_DEPTH_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
                                                VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL, all, 0,
                                                VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT |
                                                    VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
                                                VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT |
                                                    VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT));
    if (e->msaa > 1)
        orri_barriers_image(&br,
                            orri_barrier_image(e->resolve.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
                                               cl, all, 0, out, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT));
    orri_barriers_flush(&br);
    VkRenderingAttachmentInfo color = {
        .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
        .imageView = e->color.view,
        .imageLayout = cl,
        .resolveMode = e->msaa > 1 ? VK_RESOLVE_MODE_AVERAGE_BIT : VK_RESOLVE_MODE_NONE,
        .resolveImageView = e->msaa > 1 ? e->resolve.view : VK_NULL_HANDLE,
        .resolveImageLayout = cl,
        .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
        .storeOp = e->msaa > 1 ? VK_ATTACHMENT_STORE_OP_DONT_CARE : VK_ATTACHMENT_STORE_OP_STORE,
        .clearValue.color = {{b->clear[0], b->clear[1], b->clear[2], b->clear[3]}},
    };
    VkRenderingAttachmentInfo depth = {.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
                                       .imageView = e->depth.view,
                                       .imageLayout = VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
                                       .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                       .storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
                                       .clearValue.depthStencil = {0.0f, 0}};
    VkRenderingInfo ri = {.sType = VK_STRUCTURE_TYPE_RENDERING_INFO,
                          .renderArea = {{0, 0}, {e->width, e->height}},
                          .layerCount = 1,
                          .colorAttachmentCount = 1,
                          .pColorAttachments = &color,
                          .pDepthAttachment = &depth};
    vkCmdBeginRendering(cmd, &ri);
}

static void draw(raw *b, VkCommandBuffer cmd) {
    orr_engine *e = b->e;
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, b->pipe);
    VkViewport vp = {0, (float)e->height, (float)e->width, -(float)e->height, 0, 1};
    vkCmdSetViewport(cmd, 0, 1, &vp);
    vkCmdSetScissor(cmd, 0, 1, &(VkRect2D){{0, 0}, {e->width, e->height}});
    vkCmdSetFrontFace(cmd, orri_front_face(b->mirrored));
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, b->layout, 0, 4, b->sets, 0, NULL);
    uint32_t object = 0;
    vkCmdPushConstants(cmd, b->layout, VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof object, &object);
    VkBuffer vbs[6];
    VkDeviceSize offs[6] = {0};
    for (int i = 0; i < 6; i++) vbs[i] = b->streams[i].buffer;
    vkCmdBindVertexBuffers(cmd, 0, 6, vbs, offs);
    vkCmdBindIndexBuffer(cmd, b->indices.buffer, 0, b->index_type);
    vkCmdDrawIndexed(cmd, b->index_count, 1, 0, 0, 0);
}

/* One frame: wait for the slot, read its last timestamps, record, submit.
 * Returns the GPU ms of the slot's previous frame, or -1. */
static double raw_frame(raw *b) {
    VkDevice dev = b->gpu->device;
    uint32_t s = b->slot;
    b->slot ^= 1u;
    double gpu_ms = -1;
    vkok(vkWaitForFences(dev, 1, &b->fence[s], VK_TRUE, UINT64_MAX), "wait fence");
    uint64_t t[2];
    if (b->pending[s] &&
        vkGetQueryPoolResults(dev, b->qp[s], 0, 2, sizeof t, t, sizeof t[0], VK_QUERY_RESULT_64_BIT) == VK_SUCCESS)
        gpu_ms = (double)(t[1] - t[0]) * b->gpu->props.limits.timestampPeriod * 1e-6;
    vkok(vkResetFences(dev, 1, &b->fence[s]), "reset fence");
    VkCommandBuffer cmd = b->cmd[s];
    vkok(vkResetCommandBuffer(cmd, 0), "reset cmd");
    VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                   .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
    vkok(vkBeginCommandBuffer(cmd, &bi), "begin cmd");
    vkCmdResetQueryPool(cmd, b->qp[s], 0, 2);
    vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT, b->qp[s], 0);
    begin_target(b, cmd);
    draw(b, cmd);
    vkCmdEndRendering(cmd);
    vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, b->qp[s], 1);
    vkok(vkEndCommandBuffer(cmd), "end cmd");
    VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cmd};
    vkok(vkQueueSubmit(b->gpu->queue, 1, &si, b->fence[s]), "submit");
    b->pending[s] = true;
    return gpu_ms;
}

static void raw_idle(raw *b) { vkok(vkWaitForFences(b->gpu->device, 2, b->fence, VK_TRUE, UINT64_MAX), "wait idle"); }

static void raw_destroy(raw *b) {
    VkDevice dev = b->gpu->device;
    vkDeviceWaitIdle(dev);
    for (int i = 0; i < 2; i++) vkDestroyFence(dev, b->fence[i], NULL), vkDestroyQueryPool(dev, b->qp[i], NULL);
    vkDestroyCommandPool(dev, b->cmd_pool, NULL);
    vkDestroyPipeline(dev, b->pipe, NULL);
    vkDestroyPipelineLayout(dev, b->layout, NULL);
    vkDestroyShaderModule(dev, b->vs, NULL), vkDestroyShaderModule(dev, b->fs, NULL);
    vkDestroyDescriptorPool(dev, b->pool, NULL);
    for (int i = 0; i < 4; i++) vkDestroyDescriptorSetLayout(dev, b->set_layouts[i], NULL);
    bool own4 = b->streams[4].buffer != b->streams[3].buffer, own5 = b->streams[5].buffer != b->streams[2].buffer;
    for (int i = 0; i < 6; i++) /* 4 and 5 alias 3 and 2 when the mesh has no tangents / second UVs */
        if (i < 4 || (i == 4 && own4) || (i == 5 && own5)) orri_buffer_destroy_now(b->gpu, &b->streams[i]);
    orri_buffer *own[] = {&b->indices, &b->scene_ubo, &b->object, &b->pbr, &b->shadow_ubo};
    for (int i = 0; i < 5; i++) orri_buffer_destroy_now(b->gpu, own[i]);
}

/* Medians over `frames` baseline frames, in bench_figures' fields (the
 * baseline's whole command buffer as the pass). */
static bench_figures raw_measure(raw *b, int frames) {
    for (int i = 0; i < 5; i++) raw_frame(b); /* warm-up */
    raw_idle(b);
    double *cpu = malloc(sizeof(double) * (size_t)frames * 2), *gpu = cpu + frames;
    int ng = 0;
    for (int f = 0; f < frames; f++) {
        double c0 = bench_thread_ms();
        double g = raw_frame(b);
        cpu[f] = bench_thread_ms() - c0;
        if (g >= 0 && f >= 2) gpu[ng++] = g; /* the first two read warm-up frames */
    }
    raw_idle(b);
    qsort(cpu, (size_t)frames, sizeof *cpu, bench_cmp_double);
    qsort(gpu, (size_t)ng, sizeof *gpu, bench_cmp_double);
    bench_figures r = {.render = cpu[frames / 2], .gpu_pass = ng ? gpu[ng / 2] : NAN};
    free(cpu);
    return r;
}

/* ---- the same picture -------------------------------------------------------------------------- */

static uint8_t *pixels(orr_engine *e) {
    size_t n = (size_t)e->width * e->height * 4;
    uint8_t *p = malloc(n);
    if (!p || orr_engine_read_pixels(e, p, n) != ORR_OK) die("read pixels", e);
    return p;
}

/* Mean over pixels of the mean RGB difference, 0..255. */
static double mad(const uint8_t *a, const uint8_t *b, size_t count) {
    double sum = 0;
    for (size_t i = 0; i < count; i++)
        for (int k = 0; k < 3; k++) sum += abs((int)a[i * 4 + k] - (int)b[i * 4 + k]);
    return sum / (3.0 * (double)count);
}

static double compare(orr_engine *e, orr_scene *s, raw *b, const char *png) {
    orr_engine_render(e, s);
    uint8_t *ours = pixels(e);
    raw_frame(b);
    raw_idle(b);
    e->final_layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL; /* what the baseline left */
    uint8_t *base = pixels(e);
    double d = mad(ours, base, (size_t)e->width * e->height);
    if (png) {
        char path[1024];
        snprintf(path, sizeof path, "%s_raw.png", png);
        orr_engine_save_png(e, path); /* the baseline's picture (still in the target) */
        orr_engine_render(e, s);
        snprintf(path, sizeof path, "%s_orrery.png", png);
        orr_engine_save_png(e, path);
    }
    free(ours), free(base);
    return d;
}

/* ---- main ---------------------------------------------------------------------------------------- */

static int usage(const char *prog) {
    fprintf(stderr, "usage: %s [--size WxH] [--msaa 1|4] [--frames F] [--png PREFIX]\n", prog);
    return 2;
}

int main(int argc, char **argv) {
    uint32_t w = 1920, h = 1080, msaa = 4;
    int frames = 200;
    const char *png = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--size") && i + 1 < argc && sscanf(argv[i + 1], "%ux%u", &w, &h) == 2)
            i++;
        else if (!strcmp(argv[i], "--msaa") && i + 1 < argc)
            msaa = (uint32_t)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--frames") && i + 1 < argc)
            frames = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--png") && i + 1 < argc)
            png = argv[++i];
        else
            return usage(argv[0]);
    }
    if (frames < 3 || !w || !h || (msaa != 1 && msaa != 4)) return usage(argv[0]);
    orr_engine *e;
    orr_engine_desc d = {.width = w, .height = h, .msaa = msaa, .frames_in_flight = 2, .gpu_timing = true};
    if (orr_engine_create(&d, &e) != ORR_OK) die("engine", NULL);
    printf("device: %s, %ux%u, MSAA %u, %d frames per block\n", orr_engine_device_info(e).name, w, h, msaa, frames);
    orr_texture env;
    orr_scene *s = bottle_scene(e, &env);
    bench_measure(e, s, 5, false); /* pipelines, uploads, IBL sets */
    orr_engine_wait_idle(e);
    raw b;
    raw_create(&b, e, s);
    double diff = compare(e, s, &b, png);
    bench_figures o[2], r[2];
    for (int k = 0; k < 2; k++) {
        o[k] = bench_measure(e, s, frames, false);
        orr_engine_wait_idle(e);
        print("WaterBottle, PBR + IBL", o[k]);
        r[k] = raw_measure(&b, frames);
        print("WaterBottle, raw Vulkan baseline", r[k]);
    }
    double ocpu = 0.5 * (o[0].render + o[1].render), rcpu = 0.5 * (r[0].render + r[1].render);
    double ogpu = 0.5 * (o[0].gpu_pre + o[0].gpu_pass + o[1].gpu_pre + o[1].gpu_pass);
    double rgpu = 0.5 * (r[0].gpu_pass + r[1].gpu_pass);
    printf("images: MAD %.3f (0..255) between Orrery's and the baseline's frame\n", diff);
    printf("BENCH waterbottle_orrery_cpu %.4f ms\nBENCH waterbottle_raw_cpu %.4f ms\n", ocpu, rcpu);
    printf("BENCH waterbottle_orrery_gpu %.4f ms\nBENCH waterbottle_raw_gpu %.4f ms\n", ogpu, rgpu);
    printf("BENCH waterbottle_gpu_ratio %.3f x\nBENCH waterbottle_cpu_ratio %.3f x\nBENCH waterbottle_image_mad %.4f\n",
           ogpu / rgpu, ocpu / rcpu, diff);
    raw_destroy(&b);
    orr_scene_destroy(s);
    orr_texture_destroy(e, env);
    orr_engine_destroy(e);
    return 0;
}
