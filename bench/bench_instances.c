/* bench_instances — thin-instance benchmarks (issue 4, "Benchmarks"):
 *
 *  1. throughput: Orrery against a raw Vulkan baseline in the same binary,
 *     run and VkDevice (same Babylon.js box geometry, same instance count and
 *     matrices, same target: the engine's own colour/depth/resolve images,
 *     same view-projection, one instanced indexed draw per frame, 2 frames in
 *     flight for both). Shading: Orrery's standard material lit by one
 *     directional light (diffuse N·L + Blinn-Phong specular, power 64); the
 *     baseline's fragment shader computes the same two terms. Orrery's vertex
 *     shader does more (object SSBO read, uv and instance-colour streams,
 *     cofactor normal matrix): that cost is part of what is measured.
 *     Instances/s = N × frames / wall time (GPU-bound: the frames are waited
 *     for at the end of each block). Blocks are interleaved (baseline, Orrery,
 *     Orrery culled, twice) and summed.
 *  2. culling: a ground field of N instances (1000 × 1000 grid for 10^6), the
 *     camera placed by bisection so that 10 % of the instances' bounding
 *     spheres are inside its frustum (counted on the CPU with
 *     orr_frustum_from_matrix, the test the GPU culler makes); the same scene
 *     with culling off and on, interleaved: GPU time of the culling pass
 *     (orr_stats.gpu_cull_ms) per million instances and whole-frame speed-up.
 *  3. updates: the culled field with 1 % of its instances moved every frame
 *     (orr_instances_set_matrix on N/100 random indices) against no updates:
 *     bytes uploaded per frame and frame time.
 *  5. occlusion: the culling benchmark's field and camera (10 % in view) with
 *     a slab halfway between the eye and the ground, its size bisected so
 *     that 90 % of the frustum-visible instances are hidden (CPU estimate by
 *     lines of sight; the drawn counts read back from the GPU are reported;
 *     ORR_BENCH_PNG=file saves the occlusion scene's image); the same scene with frustum culling only and with
 * two-phase occlusion culling (orr_instances_enable_occlusion_culling), interleaved: GPU time (uploads + culling +
 * render pass, which includes the depth pyramid and phase 2) and wall time per frame.
 *  6. LOD: a dense ground field of N spheres (--lod N; 10^6, --quick 10^3)
 *     with a generated LOD chain, camera near the ground: no culling,
 *     frustum culling (level 0 only), frustum + LOD chain (decision 62),
 *     and the chain with occlusion culling: triangles drawn and frame times.
 *     --sloppy: the chain with decision 64's sloppy tail. --no-raw: skip the
 *     no-culling variant of the lod and city modes (its row reads nan);
 *     --chain-only the frustum-only one too. The lod mode also prints the
 *     culled copies' memory per frame slot (decision 82).
 *  7. city: N towers of 1 082 triangles (--city N; 10^4) on a grid of
 *     blocks and streets with a ground plane, random footprints, heights and
 *     quarter turns, camera 2 m up in a street looking 45° across blocks:
 *     the LOD benchmark's four variants (no culling, frustum, frustum + LOD
 *     chain with the sloppy tail, + occlusion); instances and triangles drawn,
 *     GPU ms, fps, a RESULT line, and the image MAD between the chain with
 *     and without occlusion (ORR_BENCH_PNG=file saves the occlusion image).
 *     --city-view F narrows the field of view until F (e.g. 0.1) of the
 *     towers' bounding spheres are in the frustum (CPU count, bisection).
 *  4. CPU: a static scene of M instanced meshes (K thin instances each): the
 *     calling thread's CPU time per orr_engine_render (CLOCK_THREAD_CPUTIME_ID)
 *     and orr_stats.records / replays after warm-up.
 *
 *     bench_instances [--quick] [--sizes N1,N2] [--cull N] [--lod N] [--sloppy] [--no-raw] [--chain-only]
 *                     [--city N] [--city-view F] [--cpu MxK] [--frames F] [--warm W] [--size WxH]
 *                     [--msaa 1|4] [--only throughput,cull,update,cpu,occlusion,lod,city] [--unlit]
 * Full defaults: 10^5 and 10^6 instances, 1920×1080, MSAA 4, 150 frames per
 * block, culling field 10^6, CPU scene 1000 × 100. --quick (lavapipe):
 * 10^4 and 10^5, 640×360, 8 frames per block, field 10^5, CPU scene 1000 × 10.
 * Output: tables, then lines `BENCH name value unit` for machines. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <orrery/orrery.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "render/render_int.h"

static const uint32_t baseline_vert_spv[] =
#include "baseline_vert.inc"
    ;
static const uint32_t baseline_frag_spv[] =
#include "baseline_frag.inc"
    ;

/* ---- options, clocks, statistics ---------------------------------------------------- */

typedef struct opts {
    uint32_t sizes[2];
    uint32_t cull_n;
    uint32_t lod_n, city_n;
    double city_view; /* --city-view F: fov narrowed to F of the towers in the frustum; 0: fov 0.8 */
    bool sloppy;      /* --sloppy: the lod mode's chain with decision 64's sloppy tail */
    bool no_raw;      /* --no-raw: the lod and city modes skip the no-culling variant (minutes at 10^7) */
    bool chain_only;  /* --chain-only: they skip the frustum-only variant too (the chain's variants only) */
    uint32_t cpu_meshes, cpu_inst;
    int frames, warm;
    uint32_t w, h, msaa;
    char only[128];
} opts;

static bool unlit; /* --unlit: flat colour in both (Orrery disable_lighting + emissive) */

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static double thread_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
    if (n <= 0) return NAN;
    qsort(v, n, sizeof *v, cmp);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint32_t rng(void) {
    rng_state ^= rng_state << 13, rng_state ^= rng_state >> 7, rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 11);
}

static void die(const char *what, orr_engine *e) {
    fprintf(stderr, "bench_instances: %s: %s\n", what, orr_engine_last_error(e));
    exit(1);
}

static const char *device_name = "";
static char device_buf[256];

static orr_engine *make_engine(const opts *o) {
    orr_engine *e;
    orr_engine_desc d = {.width = o->w,
                         .height = o->h,
                         .msaa = o->msaa, /* validation: ORR_VALIDATION=1 */
                         .frames_in_flight = 2,
                         .gpu_timing = true};
    if (orr_engine_create(&d, &e) != ORR_OK) die("engine", NULL);
    snprintf(device_buf, sizeof device_buf, "%s", orr_engine_device_info(e).name);
    device_name = device_buf;
    return e;
}

/* ---- scenes --------------------------------------------------------------------------- */

static const orr_dvec3 light_dir = {0.3, -1.0, 0.5};
static const orr_color3 diffuse = {0.8, 0.5, 0.3};

typedef struct bench_scene {
    orr_scene *s;
    orr_mesh mesh;
    orr_camera cam;
} bench_scene;

/* One box mesh carrying `n` thin instances (`mats`), one directional light,
 * a lit standard material, a free camera. */
static bench_scene make_scene(orr_engine *e, const float *mats, uint32_t n, bool culled) {
    bench_scene b = {0};
    if (orr_scene_create(e, NULL, &b.s) != ORR_OK) die("scene", e);
    orr_light_create(b.s, &(orr_light_desc){.type = ORR_LIGHT_DIRECTIONAL, .direction = light_dir});
    orr_geometry g;
    orr_geometry_build_box(NULL, NULL, &g);
    orr_material m = orr_standard_material_create(
        b.s, &(orr_standard_material_desc){.diffuse = {true, diffuse},
                                           .disable_lighting = unlit,
                                           .emissive = unlit ? diffuse : (orr_color3){0, 0, 0}});
    b.mesh = orr_mesh_create(b.s, &(orr_mesh_desc){.geometry = &g, .material = m});
    orr_geometry_free(&g);
    if (orr_instances_set(b.s, b.mesh, mats, n) != ORR_OK) die("instances", e);
    orr_instances_enable_gpu_culling(b.s, b.mesh, culled);
    b.cam = orr_camera_create_free(
        b.s, &(orr_free_camera_desc){
                 .position = {0, 0, -10}, .target = ORR_DVEC3(0, 0, 0), .fov = 0.8, .near = 1, .far = 1e5});
    return b;
}

static void place_camera(bench_scene *b, orr_dvec3 pos, orr_dvec3 target, double near, double far) {
    orr_node_set_position(b->s, orr_camera_node(b->cam), pos);
    orr_camera_set_target(b->s, b->cam, target);
    orr_camera_set_clip(b->s, b->cam, near, far);
}

/* The local bounding sphere moved and scaled by instance matrix m (column-major):
 * the centre transformed, the radius times the largest column's length. */
static orr_dsphere instance_sphere(const float *m, orr_dsphere local) {
    orr_dvec3 c = local.center;
    double s2 = 0;
    for (int k = 0; k < 3; k++)
        s2 = fmax(s2, m[4 * k] * m[4 * k] + m[4 * k + 1] * m[4 * k + 1] + m[4 * k + 2] * m[4 * k + 2]);
    return (orr_dsphere){{m[0] * c.x + m[4] * c.y + m[8] * c.z + m[12], m[1] * c.x + m[5] * c.y + m[9] * c.z + m[13],
                          m[2] * c.x + m[6] * c.y + m[10] * c.z + m[14]},
                         local.radius * sqrt(s2)};
}

/* Fraction of instance bounding spheres (moved and scaled by each matrix)
 * inside the camera frustum (the GPU culler's test, conservative: touching
 * counts). */
static double fraction_in_view(bench_scene *b, const float *mats, uint32_t n, double aspect) {
    orr_dmat4 vp =
        orr_dmat4_mul(orr_camera_get_projection_matrix(b->s, b->cam, aspect), orr_camera_get_view_matrix(b->s, b->cam));
    orr_frustum f = orr_frustum_from_matrix(vp);
    orr_dsphere local = orr_mesh_get_local_sphere(b->s, b->mesh);
    uint32_t in = 0;
    for (uint32_t i = 0; i < n; i++) {
        orr_dsphere sp = instance_sphere(mats + (size_t)i * 16, local);
        in += orr_frustum_test_sphere(&f, sp);
    }
    return (double)in / n;
}

static float *identity_mats(uint32_t n) {
    float *m = calloc((size_t)n * 16, sizeof(float));
    if (!m) die("out of memory", NULL);
    for (uint32_t i = 0; i < n; i++) m[i * 16 + 0] = m[i * 16 + 5] = m[i * 16 + 10] = m[i * 16 + 15] = 1.0f;
    return m;
}

/* A cube of n instances on a 3D grid with spacing 2, centred on the origin. */
static float *grid3d(uint32_t n, double *extent) {
    uint32_t side = 1;
    while ((uint64_t)side * side * side < n) side++;
    float *m = identity_mats(n);
    double c = (side - 1) * 0.5;
    for (uint32_t i = 0; i < n; i++) {
        m[i * 16 + 12] = (float)((i % side - c) * 2.0);
        m[i * 16 + 13] = (float)((i / side % side - c) * 2.0);
        m[i * 16 + 14] = (float)((i / side / side - c) * 2.0);
    }
    *extent = side * 2.0;
    return m;
}

/* A square ground field of n instances (spacing 2, y = 0), centred. */
static float *grid2d(uint32_t n, double *extent) {
    uint32_t side = 1;
    while ((uint64_t)side * side < n) side++;
    float *m = identity_mats(n);
    double c = (side - 1) * 0.5;
    for (uint32_t i = 0; i < n; i++) {
        m[i * 16 + 12] = (float)((i % side - c) * 2.0);
        m[i * 16 + 14] = (float)((i / side - c) * 2.0);
    }
    *extent = side * 2.0;
    return m;
}

/* Camera that sees the whole 3D grid (bounding sphere inside the vertical fov). */
static void frame_whole_grid(bench_scene *b, double extent) {
    double r = extent * 0.8660254 + 1.0, dist = r / sin(0.4) * 1.05;
    orr_dvec3 dir = orr_dvec3_normalize((orr_dvec3){0.6, 0.5, -1.0});
    place_camera(b, orr_dvec3_scale(dir, dist), (orr_dvec3){0, 0, 0}, 1.0, dist + 2 * r);
}

/* ---- the raw Vulkan baseline ------------------------------------------------------------ */

typedef struct push {
    orr_mat4f view_proj;
    float eye[4], light[4], diffuse[4];
} push;

typedef struct baseline {
    orr_engine *e;
    orri_gpu *gpu;
    VkShaderModule vs, fs;
    VkPipelineLayout layout;
    VkPipeline pipe;
    orri_buffer pos, nrm, idx, inst;
    uint32_t index_count, n;
    VkCommandPool pool;
    VkCommandBuffer cmd[2];
    VkFence fence[2];
    VkQueryPool qp[2];
    bool pending[2];
    uint32_t slot;
    push pc;
} baseline;

static void vkok(VkResult r, const char *what) {
    if (r != VK_SUCCESS) {
        fprintf(stderr, "bench_instances: baseline: %s failed (%d)\n", what, (int)r);
        exit(1);
    }
}

static void upload(baseline *b, orri_buffer *buf, VkBufferUsageFlags usage, const void *data, size_t size,
                   const char *label) {
    if (orri_buffer_create(b->gpu, size, usage, ORRI_MEM_DEVICE, label, buf) != ORR_OK) die(label, b->e);
    if (orri_buffer_upload(b->gpu, VK_NULL_HANDLE, buf, 0, data, size) != ORR_OK) die(label, b->e);
}

static void baseline_create(baseline *b, orr_engine *e, bench_scene *sc, const float *mats, uint32_t n) {
    memset(b, 0, sizeof *b);
    b->e = e, b->gpu = &e->gpu, b->n = n;
    VkDevice dev = b->gpu->device;
    orr_geometry g;
    orr_geometry_build_box(NULL, NULL, &g);
    upload(b, &b->pos, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, g.positions, g.vertex_count * 12, "baseline positions");
    upload(b, &b->nrm, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, g.normals, g.vertex_count * 12, "baseline normals");
    upload(b, &b->idx, VK_BUFFER_USAGE_INDEX_BUFFER_BIT, g.indices, g.index_count * 4, "baseline indices");
    b->index_count = g.index_count;
    orr_geometry_free(&g);
    upload(b, &b->inst, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, mats, (size_t)n * 64, "baseline instances");

    VkShaderModuleCreateInfo mi = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                   .codeSize = sizeof baseline_vert_spv,
                                   .pCode = baseline_vert_spv};
    vkok(vkCreateShaderModule(dev, &mi, NULL, &b->vs), "vertex module");
    mi.codeSize = sizeof baseline_frag_spv, mi.pCode = baseline_frag_spv;
    vkok(vkCreateShaderModule(dev, &mi, NULL, &b->fs), "fragment module");
    VkPushConstantRange pr = {VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof(push)};
    VkPipelineLayoutCreateInfo li = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                     .pushConstantRangeCount = 1,
                                     .pPushConstantRanges = &pr};
    vkok(vkCreatePipelineLayout(dev, &li, NULL, &b->layout), "pipeline layout");

    VkPipelineShaderStageCreateInfo stages[] = {
        {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
         .stage = VK_SHADER_STAGE_VERTEX_BIT,
         .module = b->vs,
         .pName = "main"},
        {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
         .stage = VK_SHADER_STAGE_FRAGMENT_BIT,
         .module = b->fs,
         .pName = "main"},
    };
    VkVertexInputBindingDescription bindings[] = {{0, 12, VK_VERTEX_INPUT_RATE_VERTEX},
                                                  {1, 12, VK_VERTEX_INPUT_RATE_VERTEX},
                                                  {2, 64, VK_VERTEX_INPUT_RATE_INSTANCE}};
    VkVertexInputAttributeDescription attrs[] = {
        {0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0},     {1, 1, VK_FORMAT_R32G32B32_SFLOAT, 0},
        {2, 2, VK_FORMAT_R32G32B32A32_SFLOAT, 0},  {3, 2, VK_FORMAT_R32G32B32A32_SFLOAT, 16},
        {4, 2, VK_FORMAT_R32G32B32A32_SFLOAT, 32}, {5, 2, VK_FORMAT_R32G32B32A32_SFLOAT, 48}};
    VkPipelineColorBlendAttachmentState blend = {.colorWriteMask = 0xf};
    VkDynamicState dyn[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
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
                                                    .vertexBindingDescriptionCount = 3,
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
                                                    .cullMode = VK_CULL_MODE_BACK_BIT,
                                                    .frontFace = orri_front_face(false),
                                                    .lineWidth = 1.0f},
        .pMultisampleState =
            &(VkPipelineMultisampleStateCreateInfo){.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
                                                    .rasterizationSamples =
                                                        e->msaa == 4 ? VK_SAMPLE_COUNT_4_BIT : VK_SAMPLE_COUNT_1_BIT},
        .pDepthStencilState = &(
            VkPipelineDepthStencilStateCreateInfo){.sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO,
                                                   .depthTestEnable = VK_TRUE,
                                                   .depthWriteEnable = VK_TRUE,
                                                   .depthCompareOp = VK_COMPARE_OP_GREATER_OR_EQUAL},
        .pColorBlendState =
            &(VkPipelineColorBlendStateCreateInfo){.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
                                                   .attachmentCount = 1,
                                                   .pAttachments = &blend},
        .pDynamicState =
            &(VkPipelineDynamicStateCreateInfo){.sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO,
                                                .dynamicStateCount = 2,
                                                .pDynamicStates = dyn},
        .layout = b->layout,
    };
    vkok(vkCreateGraphicsPipelines(dev, VK_NULL_HANDLE, 1, &ci, NULL, &b->pipe), "pipeline");

    VkCommandPoolCreateInfo pi = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                  .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                  .queueFamilyIndex = b->gpu->queue_family};
    vkok(vkCreateCommandPool(dev, &pi, NULL, &b->pool), "command pool");
    VkCommandBufferAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                      .commandPool = b->pool,
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
    /* The same view-projection, eye and light as the Orrery scene. */
    double aspect = (double)e->width / e->height;
    orr_dmat4 vp = orr_dmat4_mul(orr_camera_get_projection_matrix(sc->s, sc->cam, aspect),
                                 orr_camera_get_view_matrix(sc->s, sc->cam));
    b->pc.view_proj = orr_dmat4_to_f32(vp);
    orr_dvec3 eye = orr_camera_get_position(sc->s, sc->cam);
    b->pc.eye[0] = (float)eye.x, b->pc.eye[1] = (float)eye.y, b->pc.eye[2] = (float)eye.z;
    b->pc.light[0] = (float)light_dir.x, b->pc.light[1] = (float)light_dir.y, b->pc.light[2] = (float)light_dir.z;
    b->pc.light[3] = unlit ? 1.0f : 0.0f;
    b->pc.diffuse[0] = (float)diffuse.r, b->pc.diffuse[1] = (float)diffuse.g, b->pc.diffuse[2] = (float)diffuse.b;
}

/* One frame: wait for the slot, read its last timestamps, record, submit.
 * Returns the GPU ms of the slot's previous frame, or -1. */
static double baseline_frame(baseline *b) {
    VkDevice dev = b->gpu->device;
    orr_engine *e = b->e;
    uint32_t s = b->slot;
    b->slot ^= 1u;
    double gpu_ms = -1;
    vkok(vkWaitForFences(dev, 1, &b->fence[s], VK_TRUE, UINT64_MAX), "wait fence");
    if (b->pending[s]) {
        uint64_t t[2];
        if (vkGetQueryPoolResults(dev, b->qp[s], 0, 2, sizeof t, t, sizeof t[0], VK_QUERY_RESULT_64_BIT) == VK_SUCCESS)
            gpu_ms = (double)(t[1] - t[0]) * b->gpu->props.limits.timestampPeriod * 1e-6;
    }
    vkok(vkResetFences(dev, 1, &b->fence[s]), "reset fence");
    VkCommandBuffer cmd = b->cmd[s];
    vkok(vkResetCommandBuffer(cmd, 0), "reset cmd");
    VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                   .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
    vkok(vkBeginCommandBuffer(cmd, &bi), "begin cmd");
    vkCmdResetQueryPool(cmd, b->qp[s], 0, 2);
    vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT, b->qp[s], 0);
    orri_image_barrier(cmd, e->color.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
                       VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, 0,
                       VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
    orri_image_barrier(cmd, e->depth.image, VK_IMAGE_ASPECT_DEPTH_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
                       VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, 0,
                       VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
                       VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT);
    if (e->msaa > 1)
        orri_image_barrier(cmd, e->resolve.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
                           VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, 0,
                           VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
    VkRenderingAttachmentInfo color = {
        .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
        .imageView = e->color.view,
        .imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
        .resolveMode = e->msaa > 1 ? VK_RESOLVE_MODE_AVERAGE_BIT : VK_RESOLVE_MODE_NONE,
        .resolveImageView = e->msaa > 1 ? e->resolve.view : VK_NULL_HANDLE,
        .resolveImageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
        .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
        .storeOp = e->msaa > 1 ? VK_ATTACHMENT_STORE_OP_DONT_CARE : VK_ATTACHMENT_STORE_OP_STORE,
        .clearValue.color = {{51 / 255.0f, 51 / 255.0f, 77 / 255.0f, 1.0f}}, /* as Orrery quantises (0.2, 0.2, 0.3) */
    };
    VkRenderingAttachmentInfo depth = {
        .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
        .imageView = e->depth.view,
        .imageLayout = VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
        .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
        .storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
        .clearValue.depthStencil = {0.0f, 0},
    };
    VkRenderingInfo ri = {.sType = VK_STRUCTURE_TYPE_RENDERING_INFO,
                          .renderArea = {{0, 0}, {e->width, e->height}},
                          .layerCount = 1,
                          .colorAttachmentCount = 1,
                          .pColorAttachments = &color,
                          .pDepthAttachment = &depth};
    vkCmdBeginRendering(cmd, &ri);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, b->pipe);
    VkViewport vp = {0, (float)e->height, (float)e->width, -(float)e->height, 0, 1};
    vkCmdSetViewport(cmd, 0, 1, &vp);
    vkCmdSetScissor(cmd, 0, 1, &(VkRect2D){{0, 0}, {e->width, e->height}});
    vkCmdPushConstants(cmd, b->layout, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof(push),
                       &b->pc);
    VkBuffer vbs[3] = {b->pos.buffer, b->nrm.buffer, b->inst.buffer};
    VkDeviceSize offs[3] = {0, 0, 0};
    vkCmdBindVertexBuffers(cmd, 0, 3, vbs, offs);
    vkCmdBindIndexBuffer(cmd, b->idx.buffer, 0, VK_INDEX_TYPE_UINT32);
    vkCmdDrawIndexed(cmd, b->index_count, b->n, 0, 0, 0);
    vkCmdEndRendering(cmd);
    vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, b->qp[s], 1);
    vkok(vkEndCommandBuffer(cmd), "end cmd");
    VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cmd};
    vkok(vkQueueSubmit(b->gpu->queue, 1, &si, b->fence[s]), "submit");
    b->pending[s] = true;
    return gpu_ms;
}

static void baseline_idle(baseline *b) {
    vkok(vkWaitForFences(b->gpu->device, 2, b->fence, VK_TRUE, UINT64_MAX), "wait idle");
}

static void baseline_destroy(baseline *b) {
    VkDevice dev = b->gpu->device;
    vkDeviceWaitIdle(dev);
    for (int i = 0; i < 2; i++) vkDestroyFence(dev, b->fence[i], NULL), vkDestroyQueryPool(dev, b->qp[i], NULL);
    vkDestroyCommandPool(dev, b->pool, NULL);
    vkDestroyPipeline(dev, b->pipe, NULL);
    vkDestroyPipelineLayout(dev, b->layout, NULL);
    vkDestroyShaderModule(dev, b->vs, NULL);
    vkDestroyShaderModule(dev, b->fs, NULL);
    orri_buffer_destroy_now(b->gpu, &b->pos);
    orri_buffer_destroy_now(b->gpu, &b->nrm);
    orri_buffer_destroy_now(b->gpu, &b->idx);
    orri_buffer_destroy_now(b->gpu, &b->inst);
}

/* ---- measured blocks ---------------------------------------------------------------------- */

typedef struct block {
    int frames;
    double wall_ms;    /* whole block, frames waited for */
    double cpu_ms;     /* median thread CPU per orr_engine_render */
    double pre_cpu_ms; /* median thread CPU of the per-frame hook */
    double gpu_a_ms;   /* median: cull pass (Orrery) */
    double gpu_b_ms;   /* median: render pass (Orrery) / whole frame (baseline) */
    double bytes_inst; /* mean orr_stats.bytes_uploaded_instances per frame */
    double bytes;      /* mean orr_stats.bytes_uploaded per frame */
    uint32_t records, replays;
} block;

typedef void (*pre_fn)(void *user, int frame);

static block run_orrery(orr_engine *e, orr_scene *s, int warm, int frames, pre_fn pre, void *user) {
    block r = {.frames = frames};
    for (int i = 0; i < warm; i++) {
        if (pre) pre(user, -1 - i);
        if (orr_engine_render(e, s) != ORR_OK) die("render", e);
    }
    orr_engine_wait_idle(e);
    double *cpu = malloc(sizeof(double) * frames * 4), *pc = cpu + frames, *ga = pc + frames, *gb = ga + frames;
    int ng = 0;
    uint64_t last = orr_query_stats(e).gpu_timed_frame, first_frame = orr_query_stats(e).frames;
    double t0 = now_ms();
    for (int f = 0; f < frames; f++) {
        double c0 = thread_ms();
        if (pre) pre(user, f);
        double c1 = thread_ms();
        if (orr_engine_render(e, s) != ORR_OK) die("render", e);
        double c2 = thread_ms();
        cpu[f] = c2 - c1, pc[f] = c1 - c0;
        orr_stats st = orr_query_stats(e);
        r.bytes_inst += st.bytes_uploaded_instances, r.bytes += st.bytes_uploaded;
        r.records = st.records, r.replays = st.replays;
        if (st.gpu_timed_frame != last && st.gpu_timed_frame > first_frame) {
            ga[ng] = st.gpu_cull_ms, gb[ng] = st.gpu_render_ms, ng++;
            last = st.gpu_timed_frame;
        }
    }
    orr_engine_wait_idle(e);
    r.wall_ms = now_ms() - t0;
    r.cpu_ms = median(cpu, frames), r.pre_cpu_ms = median(pc, frames);
    r.gpu_a_ms = median(ga, ng), r.gpu_b_ms = median(gb, ng);
    r.bytes_inst /= frames, r.bytes /= frames;
    free(cpu);
    return r;
}

static block run_baseline(baseline *b, int warm, int frames) {
    block r = {.frames = frames, .gpu_a_ms = NAN};
    for (int i = 0; i < warm; i++) baseline_frame(b);
    baseline_idle(b);
    double *cpu = malloc(sizeof(double) * frames * 2), *gb = cpu + frames;
    int ng = 0;
    double t0 = now_ms();
    for (int f = 0; f < frames; f++) {
        double c0 = thread_ms();
        double g = baseline_frame(b);
        cpu[f] = thread_ms() - c0;
        if (g >= 0 && f >= 2) gb[ng++] = g; /* the first two read warm-up frames */
    }
    baseline_idle(b);
    r.wall_ms = now_ms() - t0;
    r.cpu_ms = median(cpu, frames);
    r.gpu_b_ms = median(gb, ng);
    free(cpu);
    return r;
}

static void add(block *acc, block x) {
    /* Frames and wall time summed; medians and means averaged over the blocks. */
    if (!acc->frames) {
        *acc = x;
        return;
    }
    acc->frames += x.frames, acc->wall_ms += x.wall_ms;
    acc->cpu_ms = 0.5 * (acc->cpu_ms + x.cpu_ms), acc->pre_cpu_ms = 0.5 * (acc->pre_cpu_ms + x.pre_cpu_ms);
    acc->gpu_a_ms = 0.5 * (acc->gpu_a_ms + x.gpu_a_ms), acc->gpu_b_ms = 0.5 * (acc->gpu_b_ms + x.gpu_b_ms);
    acc->bytes_inst = 0.5 * (acc->bytes_inst + x.bytes_inst), acc->bytes = 0.5 * (acc->bytes + x.bytes);
    acc->records = x.records, acc->replays = x.replays;
}

static double ms_per_frame(block b) { return b.wall_ms / b.frames; }

/* ---- 1. throughput ------------------------------------------------------------------------- */

static void bench_throughput(const opts *o) {
    orr_engine *e = make_engine(o);
    double aspect = (double)o->w / o->h;
    printf("\n## Throughput: Orrery vs raw Vulkan baseline (%ux%u, MSAA %u, %d frames x 2 blocks each, device %s)\n\n",
           o->w, o->h, o->msaa, o->frames, device_name);
    printf("| instances | in view | baseline M inst/s | Orrery M inst/s | Orrery / baseline | baseline GPU ms/frame |"
           " Orrery GPU render ms | Orrery culled (all in view) M inst/s | culled: cull ms, render ms |\n");
    printf("|---|---|---|---|---|---|---|---|---|\n");
    char lines[2][1024];
    double pixel_notes[2][2];
    for (int k = 0; k < 2; k++) {
        uint32_t n = o->sizes[k];
        double extent;
        float *mats = grid3d(n, &extent);
        bench_scene plain = make_scene(e, mats, n, false), culled = make_scene(e, mats, n, true);
        frame_whole_grid(&plain, extent);
        frame_whole_grid(&culled, extent);
        double frac = fraction_in_view(&plain, mats, n, aspect);
        baseline b;
        baseline_create(&b, e, &plain, mats, n);
        block B = {0}, O = {0}, C = {0};
        for (int rep = 0; rep < 2; rep++) {
            orr_engine_wait_idle(e);
            add(&B, run_baseline(&b, o->warm, o->frames));
            add(&O, run_orrery(e, plain.s, o->warm, o->frames, NULL, NULL));
            add(&C, run_orrery(e, culled.s, o->warm, o->frames, NULL, NULL));
        }
        /* Same picture? One frame of each, read back from the shared target. */
        size_t px = (size_t)o->w * o->h;
        uint8_t *img_o = malloc(px * 8), *img_b = img_o + px * 4;
        orr_engine_render(e, plain.s);
        if (orr_engine_read_pixels(e, img_o, px * 4) != ORR_OK) die("read pixels", e);
        baseline_frame(&b);
        baseline_idle(&b);
        e->final_layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL; /* what the baseline frame left */
        if (orr_engine_read_pixels(e, img_b, px * 4) != ORR_OK) die("read pixels", e);
        size_t differ = 0, background = 0;
        for (size_t i = 0; i < px; i++) {
            int d = 0;
            for (int c = 0; c < 3; c++) d = fmax(d, abs((int)img_o[i * 4 + c] - (int)img_b[i * 4 + c]));
            differ += d > 2;
            background += img_o[i * 4] == 51 && img_o[i * 4 + 1] == 51 && img_o[i * 4 + 2] == 77;
        }
        free(img_o);
        baseline_destroy(&b);
        pixel_notes[k][0] = 100.0 * differ / px, pixel_notes[k][1] = 100.0 - 100.0 * background / px;
        double ib = n * 1e3 / ms_per_frame(B), io = n * 1e3 / ms_per_frame(O), ic = n * 1e3 / ms_per_frame(C);
        printf("| %u | %.1f %% | %.2f | %.2f | %.3f | %.3f | %.3f | %.2f | %.3f, %.3f |\n", n, frac * 100, ib / 1e6,
               io / 1e6, io / ib, B.gpu_b_ms, O.gpu_b_ms, ic / 1e6, C.gpu_a_ms, C.gpu_b_ms);
        snprintf(lines[k], sizeof lines[k],
                 "BENCH throughput_%u_baseline %.0f inst/s\nBENCH throughput_%u_orrery %.0f inst/s\n"
                 "BENCH throughput_%u_ratio %.4f x\nBENCH throughput_%u_baseline_gpu_ms %.4f ms\n"
                 "BENCH throughput_%u_orrery_gpu_render_ms %.4f ms\nBENCH throughput_%u_orrery_culled %.0f inst/s\n"
                 "BENCH throughput_%u_orrery_culled_cull_ms %.4f ms\n",
                 n, ib, n, io, n, io / ib, n, B.gpu_b_ms, n, O.gpu_b_ms, n, ic, n, C.gpu_a_ms);
        orr_engine_wait_idle(e);
        orr_scene_destroy(plain.s);
        orr_scene_destroy(culled.s);
        free(mats);
    }
    for (int k = 0; k < 2; k++)
        printf("\n%u instances: pixels differing by more than 2/255 between Orrery and baseline: %.3f %%; pixels "
               "covered by cubes: %.1f %%",
               o->sizes[k], pixel_notes[k][0], pixel_notes[k][1]);
    printf("\n\n%s%s", lines[0], lines[1]);
    orr_engine_destroy(e);
}

/* ---- 2. culling and 3. updates --------------------------------------------------------------- */

typedef struct mover {
    orr_scene *s;
    orr_mesh mesh;
    const float *mats;
    uint32_t n, k;
} mover;

static void move_some(void *user, int frame) {
    mover *m = user;
    for (uint32_t j = 0; j < m->k; j++) {
        uint32_t i = rng() % m->n;
        orr_mat4f x;
        memcpy(x.m, m->mats + (size_t)i * 16, sizeof x.m);
        x.m[13] += 0.25f * (float)((frame + (int)j) % 4);
        orr_instances_set_matrix(m->s, m->mesh, i, x);
    }
}

/* Camera above the field looking down at 60°-ish, height bisected so that
 * `target` of the instances are in view. */
static double aim_at_fraction(bench_scene *b, const float *mats, uint32_t n, double extent, double aspect,
                              double target) {
    double lo = 1.0, hi = extent * 4, frac = 0;
    for (int it = 0; it < 40; it++) {
        double h = 0.5 * (lo + hi);
        place_camera(b, (orr_dvec3){0, h, -0.6 * h}, (orr_dvec3){0, 0, 0}, 1.0, 1e5);
        frac = fraction_in_view(b, mats, n, aspect);
        if (fabs(frac - target) < 0.002) break;
        if (frac < target)
            lo = h;
        else
            hi = h;
    }
    return frac;
}

static void bench_cull_update(const opts *o, bool do_cull, bool do_update) {
    orr_engine *e = make_engine(o);
    double aspect = (double)o->w / o->h, extent;
    uint32_t n = o->cull_n;
    float *mats = grid2d(n, &extent);
    bench_scene off = make_scene(e, mats, n, false), on = make_scene(e, mats, n, true);
    double frac = aim_at_fraction(&off, mats, n, extent, aspect, 0.10);
    orr_dvec3 p = orr_camera_get_position(off.s, off.cam);
    place_camera(&on, p, (orr_dvec3){0, 0, 0}, 1.0, 1e5);
    double frac_on = fraction_in_view(&on, mats, n, aspect);
    if (do_cull) {
        block Off = {0}, On = {0};
        for (int rep = 0; rep < 2; rep++) {
            add(&Off, run_orrery(e, off.s, o->warm, o->frames, NULL, NULL));
            add(&On, run_orrery(e, on.s, o->warm, o->frames, NULL, NULL));
        }
        double su = ms_per_frame(Off) / ms_per_frame(On);
        double gpu_off = Off.gpu_a_ms + Off.gpu_b_ms, gpu_on = On.gpu_a_ms + On.gpu_b_ms;
        double per_m = On.gpu_a_ms * 1e6 / n;
        printf(
            "\n## Culling: %u instances on a ground field, camera height %.1f, %.2f %% in view (CPU count; %.2f %% for "
            "the culled scene's camera), %ux%u, MSAA %u, %d frames x 2 blocks, device %s\n\n",
            n, p.y, frac * 100, frac_on * 100, o->w, o->h, o->msaa, o->frames, device_name);
        printf("| culling | ms/frame (wall) | GPU cull pass ms | GPU render ms | GPU cull + render ms "
               "|\n|---|---|---|---|---|\n");
        printf("| off | %.3f | %.3f | %.3f | %.3f |\n", ms_per_frame(Off), Off.gpu_a_ms, Off.gpu_b_ms, gpu_off);
        printf("| on | %.3f | %.3f | %.3f | %.3f |\n", ms_per_frame(On), On.gpu_a_ms, On.gpu_b_ms, gpu_on);
        printf("\nspeed-up (wall) %.2fx, speed-up (GPU timestamps) %.2fx, cull pass %.4f ms per million instances\n\n",
               su, gpu_off / gpu_on, per_m);
        printf("BENCH cull_fraction_in_view %.4f x\nBENCH cull_pass_ms_per_million %.4f ms\n", frac, per_m);
        printf("BENCH cull_frame_ms_off %.4f ms\nBENCH cull_frame_ms_on %.4f ms\n", ms_per_frame(Off),
               ms_per_frame(On));
        printf("BENCH cull_speedup_wall %.3f x\nBENCH cull_speedup_gpu %.3f x\n", su, gpu_off / gpu_on);
    }
    if (do_update) {
        mover mv = {on.s, on.mesh, mats, n, n / 100};
        block St = {0}, Mv = {0};
        for (int rep = 0; rep < 2; rep++) {
            add(&St, run_orrery(e, on.s, o->warm, o->frames, NULL, NULL));
            add(&Mv, run_orrery(e, on.s, o->warm, o->frames, move_some, &mv));
        }
        printf(
            "\n## Updates: %u of %u instances moved per frame (orr_instances_set_matrix, random indices), culled field "
            "as above, %d frames x 2 blocks, device %s\n\n",
            mv.k, n, o->frames, device_name);
        printf(
            "| frame | instance bytes/frame | all bytes/frame | ms/frame (wall) | CPU ms set_matrix | CPU ms render |"
            " GPU uploads + cull ms | GPU render ms |\n|---|---|---|---|---|---|---|---|\n");
        printf("| no updates | %.0f | %.0f | %.3f | %.3f | %.3f | %.3f | %.3f |\n", St.bytes_inst, St.bytes,
               ms_per_frame(St), St.pre_cpu_ms, St.cpu_ms, St.gpu_a_ms, St.gpu_b_ms);
        printf("| 1 %% moved | %.0f | %.0f | %.3f | %.3f | %.3f | %.3f | %.3f |\n", Mv.bytes_inst, Mv.bytes,
               ms_per_frame(Mv), Mv.pre_cpu_ms, Mv.cpu_ms, Mv.gpu_a_ms, Mv.gpu_b_ms);
        printf("\nBENCH update_bytes_per_frame %.0f B\nBENCH update_bytes_per_frame_static %.0f B\n", Mv.bytes_inst,
               St.bytes_inst);
        printf("BENCH update_frame_ms %.4f ms\nBENCH update_frame_ms_static %.4f ms\n", ms_per_frame(Mv),
               ms_per_frame(St));
        printf("BENCH update_cpu_render_ms %.4f ms\nBENCH update_cpu_set_matrix_ms %.4f ms\n", Mv.cpu_ms,
               Mv.pre_cpu_ms);
        printf("BENCH update_gpu_upload_cull_ms %.4f ms\nBENCH update_gpu_upload_cull_ms_static %.4f ms\n", Mv.gpu_a_ms,
               St.gpu_a_ms);
    }
    orr_engine_wait_idle(e);
    free(mats);
    orr_engine_destroy(e);
}

/* ---- 5. occlusion culling --------------------------------------------------------------------- */

/* A horizontal slab (the "wall") halfway between the eye and the ground field:
 * an instance is hidden when the lines of sight from the eye to the 8 corners
 * of its bounding sphere's cube all cross the slab's top face (a square of half
 * size `half` around `mid` at height `top`). Returns the hidden fraction of the
 * frustum-visible instances. */
static double hidden_fraction(bench_scene *b, const float *mats, uint32_t n, double aspect, orr_dvec3 eye,
                              orr_dvec3 mid, double top, double half) {
    orr_dmat4 vp =
        orr_dmat4_mul(orr_camera_get_projection_matrix(b->s, b->cam, aspect), orr_camera_get_view_matrix(b->s, b->cam));
    orr_frustum f = orr_frustum_from_matrix(vp);
    orr_dsphere local = orr_mesh_get_local_sphere(b->s, b->mesh);
    uint32_t in = 0, hidden = 0;
    for (uint32_t i = 0; i < n; i++) {
        orr_dsphere sp = instance_sphere(mats + (size_t)i * 16, local);
        if (!orr_frustum_test_sphere(&f, sp)) continue;
        in++;
        bool all = true;
        for (int k = 0; k < 8 && all; k++) {
            orr_dvec3 q = {sp.center.x + (k & 1 ? sp.radius : -sp.radius),
                           sp.center.y + (k & 2 ? sp.radius : -sp.radius),
                           sp.center.z + (k & 4 ? sp.radius : -sp.radius)};
            double t = (top - eye.y) / (q.y - eye.y);
            double x = eye.x + t * (q.x - eye.x), z = eye.z + t * (q.z - eye.z);
            all = fabs(x - mid.x) < half && fabs(z - mid.z) < half;
        }
        hidden += all;
    }
    return in ? (double)hidden / in : 0;
}

static void bench_occlusion(const opts *o) {
    orr_engine *e = make_engine(o);
    double aspect = (double)o->w / o->h, extent;
    uint32_t n = o->cull_n;
    float *mats = grid2d(n, &extent);
    bench_scene fr = make_scene(e, mats, n, true), oc = make_scene(e, mats, n, true);
    orr_instances_enable_occlusion_culling(oc.s, oc.mesh, true);
    double in_view = aim_at_fraction(&fr, mats, n, extent, aspect, 0.10); /* the culling benchmark's camera */
    orr_dvec3 eye = orr_camera_get_position(fr.s, fr.cam);
    place_camera(&oc, eye, (orr_dvec3){0, 0, 0}, 1.0, 1e5);
    /* The slab: its top face halfway up, under the line of sight to the
     * field's centre; half size bisected for 90 % hidden. */
    double top = eye.y * 0.5, lo = 0, hi = extent, frac = 0, half = 0;
    orr_dvec3 mid = orr_dvec3_scale(eye, 0.5);
    for (int it = 0; it < 40; it++) {
        half = 0.5 * (lo + hi);
        frac = hidden_fraction(&fr, mats, n, aspect, eye, mid, top, half);
        if (fabs(frac - 0.9) < 0.002) break;
        if (frac < 0.9)
            lo = half;
        else
            hi = half;
    }
    bench_scene *both[2] = {&fr, &oc};
    for (int k = 0; k < 2; k++) {
        orr_geometry g;
        orr_geometry_build_box(NULL, NULL, &g);
        orr_mesh wall =
            orr_mesh_create(both[k]->s, &(orr_mesh_desc){.geometry = &g, .position = {mid.x, top - 0.1, mid.z}});
        orr_node_set_scaling(both[k]->s, orr_mesh_node(wall), (orr_dvec3){2 * half, 0.2, 2 * half});
        orr_geometry_free(&g);
    }
    block Fr = {0}, Oc = {0};
    uint64_t vis[2];
    for (int rep = 0; rep < 2; rep++) {
        add(&Fr, run_orrery(e, fr.s, o->warm, o->frames, NULL, NULL));
        vis[0] = orr_query_stats(e).instances_visible;
        add(&Oc, run_orrery(e, oc.s, o->warm, o->frames, NULL, NULL));
        vis[1] = orr_query_stats(e).instances_visible;
    }
    if (getenv("ORR_BENCH_PNG")) { /* look at the scene */
        orr_engine_render(e, oc.s);
        orr_engine_save_png(e, getenv("ORR_BENCH_PNG"));
    }
    double gfr = Fr.gpu_a_ms + Fr.gpu_b_ms, goc = Oc.gpu_a_ms + Oc.gpu_b_ms;
    printf("\n## Occlusion: %u instances on a ground field (%.1f %% in the frustum) under a slab hiding %.1f %% of the "
           "frustum-visible (CPU estimate), %ux%u, MSAA %u, %d frames x 2 blocks, device %s\n\n",
           n, in_view * 100, frac * 100, o->w, o->h, o->msaa, o->frames, device_name);
    printf("| culling | instances drawn (GPU) | ms/frame (wall) | GPU uploads + cull ms | GPU render ms (with pyramid "
           "and phase 2) | GPU total ms |\n|---|---|---|---|---|---|\n");
    printf("| frustum | %llu | %.3f | %.3f | %.3f | %.3f |\n", (unsigned long long)vis[0], ms_per_frame(Fr),
           Fr.gpu_a_ms, Fr.gpu_b_ms, gfr);
    printf("| frustum + occlusion | %llu | %.3f | %.3f | %.3f | %.3f |\n", (unsigned long long)vis[1], ms_per_frame(Oc),
           Oc.gpu_a_ms, Oc.gpu_b_ms, goc);
    double hidden = vis[0] ? 1.0 - (double)vis[1] / vis[0] : 0;
    printf("\nhidden by occlusion culling %.1f %% of the frustum-visible; speed-up (GPU timestamps) %.2fx, (wall) "
           "%.2fx\n\n",
           hidden * 100, gfr / goc, ms_per_frame(Fr) / ms_per_frame(Oc));
    printf("BENCH occl_hidden_fraction %.4f x\nBENCH occl_gpu_ms_frustum %.4f ms\nBENCH occl_gpu_ms_occlusion %.4f "
           "ms\n",
           hidden, gfr, goc);
    printf("BENCH occl_speedup_gpu %.3f x\nBENCH occl_speedup_wall %.3f x\n", gfr / goc,
           ms_per_frame(Fr) / ms_per_frame(Oc));
    orr_engine_wait_idle(e);
    free(mats);
    orr_engine_destroy(e);
}

/* ---- 4. CPU time, many instanced meshes -------------------------------------------------------- */

static void bench_cpu(const opts *o) {
    orr_engine *e = make_engine(o);
    orr_scene *s;
    if (orr_scene_create(e, NULL, &s) != ORR_OK) die("scene", e);
    orr_light_create(s, &(orr_light_desc){.type = ORR_LIGHT_DIRECTIONAL, .direction = light_dir});
    orr_geometry g;
    orr_geometry_build_box(NULL, NULL, &g);
    orr_material m = orr_standard_material_create(s, &(orr_standard_material_desc){.diffuse = {true, diffuse}});
    uint32_t M = o->cpu_meshes, K = o->cpu_inst, side = 1, ks = 1;
    while (side * side < M) side++;
    while (ks * ks < K) ks++;
    double cell = ks * 2.0 + 2.0;
    float *mats = grid2d(K, &(double){0});
    for (uint32_t i = 0; i < M; i++) {
        orr_mesh mesh = orr_mesh_create(
            s, &(orr_mesh_desc){.geometry = &g,
                                .material = m,
                                .position = {(i % side - side * 0.5) * cell, 0, (i / side - side * 0.5) * cell}});
        if (orr_instances_set(s, mesh, mats, K) != ORR_OK) die("instances", e);
    }
    orr_geometry_free(&g);
    double ext = side * cell;
    orr_camera_create_free(
        s,
        &(orr_free_camera_desc){
            .position = {0, ext * 0.9, -ext * 0.9}, .target = ORR_DVEC3(0, 0, 0), .fov = 0.8, .near = 1, .far = 1e5});
    block b = run_orrery(e, s, o->warm, o->frames, NULL, NULL);
    orr_stats st = orr_query_stats(e);
    printf("\n## CPU: static scene of %u instanced meshes x %u thin instances, %d frames, device %s\n\n", M, K,
           o->frames, device_name);
    printf("| CPU ms per orr_engine_render (median, thread time) | ms/frame (wall) | draws | records | replays |"
           " GPU render ms |\n|---|---|---|---|---|---|\n");
    printf("| %.4f | %.3f | %u | %u | %u | %.3f |\n", b.cpu_ms, ms_per_frame(b), st.draws, b.records, b.replays,
           b.gpu_b_ms);
    printf("\nBENCH cpu_render_ms %.4f ms\nBENCH cpu_records %u n\nBENCH cpu_replays %u n\n", b.cpu_ms, b.records,
           b.replays);
    free(mats);
    orr_engine_destroy(e);
}

/* ---- 6. levels of detail ----------------------------------------------------------------------- */

/* The four variants of the LOD and city benchmarks, on one instanced mesh
 * with one LOD chain: every instance drawn at level 0 (no culling), frustum
 * culling at level 0, frustum culling with the LOD chain (decision 62,
 * 1 pixel, band 0.1), and the chain with occlusion culling too. */
enum { VARIANTS = 4 };
static const char *variant_names[VARIANTS] = {"no culling (level 0)", "frustum (level 0)", "frustum + LOD chain",
                                              "frustum + LOD chain + occlusion"};
static const char *variant_keys[VARIANTS] = {"none", "frustum", "lod", "lod_occl"};

typedef struct variant_setup {
    const float *mats;
    uint32_t n;
    const orr_geometry *g;
    const orr_lod_chain *chain;
    orr_dvec3 eye, target;
    double far;
    const orr_geometry *ground; /* a grey ground mesh under the instances, or NULL */
    orr_color3 color;           /* of the instanced mesh's material */
} variant_setup;

typedef struct variant_runs {
    bench_scene sc[VARIANTS];
    block b[VARIANTS];
    uint64_t vis[VARIANTS], tri[VARIANTS]; /* the instanced mesh's only (the ground not counted) */
} variant_runs;

static bench_scene variant_scene(orr_engine *e, const variant_setup *vs, int variant) {
    bench_scene b = {0};
    if (orr_scene_create(e, NULL, &b.s) != ORR_OK) die("scene", e);
    orr_light_create(b.s, &(orr_light_desc){.type = ORR_LIGHT_DIRECTIONAL, .direction = light_dir});
    orr_material m = orr_standard_material_create(b.s, &(orr_standard_material_desc){.diffuse = {true, vs->color}});
    b.mesh = orr_mesh_create(b.s, &(orr_mesh_desc){.geometry = vs->g, .material = m});
    if (orr_instances_set(b.s, b.mesh, vs->mats, vs->n) != ORR_OK) die("instances", e);
    if (variant == 3)
        orr_instances_enable_occlusion_culling(b.s, b.mesh, true);
    else
        orr_instances_enable_gpu_culling(b.s, b.mesh, variant > 0);
    if (variant >= 2 &&
        orr_instances_set_lod_chain(b.s, b.mesh, vs->chain,
                                    &(orr_instances_lod_chain_desc){.max_pixel_error = 1, .band = 0.1}) != ORR_OK)
        die("LOD chain", e);
    if (vs->ground) {
        orr_material gm = orr_standard_material_create(
            b.s, &(orr_standard_material_desc){.diffuse = {true, {0.35, 0.36, 0.38}}, .label = "ground"});
        orr_mesh_create(b.s, &(orr_mesh_desc){.geometry = vs->ground, .material = gm, .label = "ground"});
    }
    b.cam = orr_camera_create_free(b.s, &(orr_free_camera_desc){.position = vs->eye,
                                                                .target = {true, vs->target},
                                                                .fov = 0.8,
                                                                .near = 0.5,
                                                                .far = vs->far > 0 ? vs->far : 1e5});
    return b;
}

/* Triangles of the instanced mesh drawn in the last frame: per level, its
 * GPU count × its triangles (the chain variants), or visible × level 0. */
static uint64_t triangles_drawn(orr_engine *e, const variant_setup *vs, const bench_scene *sc, int variant,
                                uint64_t vis) {
    if (variant < 2) return vis * (vs->g->index_count / 3);
    orri_scene_gpu *sg = sc->s->render_state;
    uint32_t slot = (e->gpu.frame_index + e->gpu.frame_count - 1) % e->gpu.frame_count;
    const VkDrawIndexedIndirectCommand *args = sg->slots[slot].indirect.mapped;
    uint64_t tri = 0, ground = vs->ground ? vs->ground->index_count / 3 : 0;
    for (uint32_t i = 0; i < sg->draw_count; i++) tri += (uint64_t)args[i].instanceCount * args[i].indexCount / 3;
    return tri - ground; /* the ground is one instance of its own draw */
}

static void make_variants(orr_engine *e, const variant_setup *vs, variant_runs *r) {
    memset(r, 0, sizeof *r);
    for (int v = 0; v < VARIANTS; v++) r->sc[v] = variant_scene(e, vs, v);
}

/* Runs the four scenes in interleaved blocks (twice). */
static void run_variants(orr_engine *e, const opts *o, const variant_setup *vs, variant_runs *r) {
    for (int rep = 0; rep < 2; rep++)
        for (int v = 0; v < VARIANTS; v++) {
            if ((v == 0 && o->no_raw) || (v < 2 && o->chain_only)) continue; /* reported as nan */
            add(&r->b[v], run_orrery(e, r->sc[v].s, o->warm, o->frames, NULL, NULL));
            r->vis[v] = orr_query_stats(e).instances_visible - (vs->ground != NULL);
            r->tri[v] = triangles_drawn(e, vs, &r->sc[v], v, r->vis[v]);
        }
}

static double gpu_ms(block b) { return b.gpu_a_ms + b.gpu_b_ms; }

/* The table, and BENCH lines named <prefix>_ms_<variant> and so on. */
static void print_variants(const variant_runs *r, const char *prefix) {
    printf("| variant | instances drawn | triangles drawn | ms/frame (wall) | GPU uploads + cull ms | GPU render ms | "
           "GPU total ms | fps (GPU) |\n|---|---|---|---|---|---|---|---|\n");
    for (int v = 0; v < VARIANTS; v++)
        printf("| %s | %llu | %llu | %.3f | %.3f | %.3f | %.3f | %.1f |\n", variant_names[v],
               (unsigned long long)r->vis[v], (unsigned long long)r->tri[v], ms_per_frame(r->b[v]), r->b[v].gpu_a_ms,
               r->b[v].gpu_b_ms, gpu_ms(r->b[v]), 1e3 / gpu_ms(r->b[v]));
    printf("\n");
    for (int v = 0; v < VARIANTS; v++)
        printf("BENCH %s_ms_%s %.4f ms\nBENCH %s_gpu_ms_%s %.4f ms\nBENCH %s_triangles_%s %llu n\n"
               "BENCH %s_instances_%s %llu n\n",
               prefix, variant_keys[v], ms_per_frame(r->b[v]), prefix, variant_keys[v], gpu_ms(r->b[v]), prefix,
               variant_keys[v], (unsigned long long)r->tri[v], prefix, variant_keys[v], (unsigned long long)r->vis[v]);
    printf("BENCH %s_speedup_vs_frustum %.3f x\n", prefix, ms_per_frame(r->b[1]) / ms_per_frame(r->b[2]));
}

static void print_chain(const orr_lod_chain *chain) {
    printf("chain of %u levels:", chain->level_count);
    for (uint32_t k = 0; k < chain->level_count; k++) printf(" %u", chain->triangles[k]);
}

/* Decision 82: the device memory of the chain variants' culled copies per
 * frame slot (level 0's bucket and the far buckets), and their layout. */
static void print_bucket_memory(orr_engine *e, const variant_runs *r) {
    for (int v = 2; v < VARIANTS; v++) {
        orri_scene_gpu *sg = r->sc[v].s->render_state;
        for (uint32_t i = 0; i < sg->draw_count; i++) {
            const orri_thin_gpu *g = sg->draws[i].thin;
            if (!g || !sg->draws[i].culled) continue;
            const char *knob = getenv("ORR_LOD_BUCKETS");
            double near = (double)(g->cull[0].matrices.size + g->cull[0].colors.size) / (1 << 20);
            double far = (double)(g->cull[0].far_matrices.size + g->cull[0].far_colors.size) / (1 << 20);
            printf("%s: culled copies per frame slot: level 0 %.1f MiB, far buckets %.1f MiB (%s, %u coarser levels; "
                   "ORR_LOD_BUCKETS=%s), %u slots\n",
                   variant_names[v], near, far, g->cull[0].shared ? "shared" : "one per level", g->cull[0].segments,
                   knob ? knob : "auto", e->gpu.frame_count);
            printf("BENCH lod_bucket_mib_%s %.1f MiB\n", variant_keys[v], near + far);
        }
    }
}

static void destroy_variants(orr_engine *e, variant_runs *r) {
    orr_engine_wait_idle(e);
    for (int v = 0; v < VARIANTS; v++) orr_scene_destroy(r->sc[v].s);
}

/* A dense ground field of N spheres (~1 300 triangles, 16 segments; a chain
 * from orr_geometry_build_lod_chain) seen from near the ground across the
 * field: the four variants above. */
static void bench_lod(const opts *o) {
    orr_engine *e = make_engine(o);
    double extent;
    uint32_t n = o->lod_n;
    float *mats = grid2d(n, &extent);
    orr_geometry g;
    orr_geometry_build_sphere(&(orr_sphere_desc){.segments = 16, .diameter = 1.6}, NULL, &g);
    orr_lod_chain chain;
    if (orr_geometry_build_lod_chain(&g, &(orr_lod_chain_desc){.levels = 8, .max_error = 0.2, .sloppy_tail = o->sloppy},
                                     &chain) != ORR_OK)
        die("chain", e);
    /* Near the ground at one edge, looking across the field's centre. */
    variant_setup vs = {mats, n, &g, &chain, {0, 4, -extent * 0.5 - 2}, {0, 0, 0}, 1e5, NULL, diffuse};
    variant_runs r;
    make_variants(e, &vs, &r);
    run_variants(e, o, &vs, &r);
    printf("\n## LOD: %u spheres (%u triangles; ", n, g.index_count / 3);
    print_chain(&chain);
    printf(") on a dense ground field, camera near the ground, %ux%u, MSAA %u, %d frames x 2 blocks, device %s\n\n",
           o->w, o->h, o->msaa, o->frames, device_name);
    print_variants(&r, "lod");
    print_bucket_memory(e, &r);
    destroy_variants(e, &r);
    orr_lod_chain_free(&chain);
    orr_geometry_free(&g);
    free(mats);
    orr_engine_destroy(e);
}

/* ---- 7. a city: real occluders -------------------------------------------------------------- */

/* A tower of unit footprint ([-0.5, 0.5]² in x and z, y from 0 to 1): on
 * each side FLOORS × COLS window cells, each a frame of 4 quads around a
 * window set back by WIN_DEPTH (4 reveal quads and the pane), plus a roof:
 * 4 × 15 × 9 quads + 1 = 1 082 triangles. Flat shading, vertex colours
 * (concrete, darker reveals, blue-grey panes). Instances scale it to size. */
enum { FLOORS = 5, COLS = 3, CITY_QUADS = 4 * FLOORS * COLS * 9 + 1 };
#define WIN_DEPTH 0.02

typedef struct quad_builder {
    orr_geometry *g;
    uint32_t v, i;
    bool ccw; /* the builders' front faces: (b − a) × (c − a) along the normal */
} quad_builder;

static void quad(quad_builder *q, const double p[4][3], const double nrm[3], const float rgb[3]) {
    orr_geometry *g = q->g;
    for (int k = 0; k < 4; k++) {
        for (int a = 0; a < 3; a++) {
            g->positions[3 * (q->v + k) + a] = (float)p[k][a];
            g->normals[3 * (q->v + k) + a] = (float)nrm[a];
            g->colors[4 * (q->v + k) + a] = rgb[a];
        }
        g->colors[4 * (q->v + k) + 3] = 1;
    }
    /* Each quad wound as the builders wind theirs, whatever order its corners came in. */
    double u[3], w[3];
    for (int a = 0; a < 3; a++) u[a] = p[1][a] - p[0][a], w[a] = p[2][a] - p[0][a];
    double along = (u[1] * w[2] - u[2] * w[1]) * nrm[0] + (u[2] * w[0] - u[0] * w[2]) * nrm[1] +
                   (u[0] * w[1] - u[1] * w[0]) * nrm[2];
    static const uint32_t order[2][6] = {{0, 1, 2, 0, 2, 3}, {0, 2, 1, 0, 3, 2}};
    for (int k = 0; k < 6; k++) g->indices[q->i++] = q->v + order[(along > 0) != q->ccw][k];
    q->v += 4;
}

/* Whether the builders' triangles have (b − a) × (c − a) along their
 * normal: the first triangle of a box says. */
static bool builders_wind_ccw(void) {
    orr_geometry b;
    orr_geometry_build_box(NULL, NULL, &b);
    double p[3][3];
    for (int k = 0; k < 3; k++)
        for (int a = 0; a < 3; a++) p[k][a] = b.positions[3 * b.indices[k] + a];
    double u[3] = {p[1][0] - p[0][0], p[1][1] - p[0][1], p[1][2] - p[0][2]};
    double w[3] = {p[2][0] - p[0][0], p[2][1] - p[0][1], p[2][2] - p[0][2]};
    double c[3] = {u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]};
    double dn = c[0] * b.normals[0] + c[1] * b.normals[1] + c[2] * b.normals[2];
    orr_geometry_free(&b);
    return dn > 0;
}

/* A point on a side: origin o, along u (0..1), up v (0..1), set back by depth along −n. */
static void side_point(const double o[3], const double u[3], const double n[3], double a, double b, double depth,
                       double out[3]) {
    for (int k = 0; k < 3; k++) out[k] = o[k] + u[k] * a + (k == 1 ? b : 0) - n[k] * depth;
}

static void window_cell(quad_builder *q, const double o[3], const double u[3], const double n[3], double u0, double u1,
                        double v0, double v1) {
    static const float concrete[3] = {0.78f, 0.74f, 0.68f}, reveal[3] = {0.55f, 0.52f, 0.48f},
                       pane[3] = {0.22f, 0.28f, 0.38f};
    double mu = (u1 - u0) * 0.2, mv = (v1 - v0) * 0.25;
    double a0 = u0 + mu, a1 = u1 - mu, b0 = v0 + mv, b1 = v1 - mv, d = WIN_DEPTH;
    double up[3] = {0, 1, 0}, down[3] = {0, -1, 0}, mu3[3] = {-u[0], -u[1], -u[2]};
    /* [u from, u to, v from, v to] of the frame's four strips */
    const double strips[4][4] = {{u0, u1, v0, b0}, {u0, u1, b1, v1}, {u0, a0, b0, b1}, {a1, u1, b0, b1}};
    double p[4][3];
    for (int s = 0; s < 4; s++) {
        side_point(o, u, n, strips[s][0], strips[s][2], 0, p[0]),
            side_point(o, u, n, strips[s][1], strips[s][2], 0, p[1]);
        side_point(o, u, n, strips[s][1], strips[s][3], 0, p[2]),
            side_point(o, u, n, strips[s][0], strips[s][3], 0, p[3]);
        quad(q, p, n, concrete);
    }
    /* The reveals: sill (faces up), lintel (down), left jamb (faces +u), right (−u). */
    side_point(o, u, n, a0, b0, 0, p[0]), side_point(o, u, n, a0, b0, d, p[1]);
    side_point(o, u, n, a1, b0, d, p[2]), side_point(o, u, n, a1, b0, 0, p[3]);
    quad(q, p, up, reveal);
    side_point(o, u, n, a0, b1, 0, p[0]), side_point(o, u, n, a1, b1, 0, p[1]);
    side_point(o, u, n, a1, b1, d, p[2]), side_point(o, u, n, a0, b1, d, p[3]);
    quad(q, p, down, reveal);
    side_point(o, u, n, a0, b0, 0, p[0]), side_point(o, u, n, a0, b1, 0, p[1]);
    side_point(o, u, n, a0, b1, d, p[2]), side_point(o, u, n, a0, b0, d, p[3]);
    quad(q, p, u, reveal);
    side_point(o, u, n, a1, b0, 0, p[0]), side_point(o, u, n, a1, b0, d, p[1]);
    side_point(o, u, n, a1, b1, d, p[2]), side_point(o, u, n, a1, b1, 0, p[3]);
    quad(q, p, mu3, reveal);
    side_point(o, u, n, a0, b0, d, p[0]), side_point(o, u, n, a1, b0, d, p[1]);
    side_point(o, u, n, a1, b1, d, p[2]), side_point(o, u, n, a0, b1, d, p[3]);
    quad(q, p, n, pane);
}

/* Merges vertices equal in every stream (the frame strips of one side and
 * their neighbours'), so a side is one sheet and simplification can move
 * along it; vertex_count shrinks, the arrays keep their size. */
static void weld(orr_geometry *g) {
    uint32_t *to = malloc(g->vertex_count * sizeof *to), kept = 0;
    if (!to) die("out of memory", NULL);
    for (uint32_t v = 0; v < g->vertex_count; v++) {
        uint32_t k = 0;
        while (k < kept &&
               (memcmp(g->positions + 3 * k, g->positions + 3 * v, 12) ||
                memcmp(g->normals + 3 * k, g->normals + 3 * v, 12) || memcmp(g->colors + 4 * k, g->colors + 4 * v, 16)))
            k++;
        if (k == kept) {
            memmove(g->positions + 3 * k, g->positions + 3 * v, 12);
            memmove(g->normals + 3 * k, g->normals + 3 * v, 12);
            memmove(g->colors + 4 * k, g->colors + 4 * v, 16);
            kept++;
        }
        to[v] = k;
    }
    for (uint32_t i = 0; i < g->index_count; i++) g->indices[i] = to[g->indices[i]];
    g->vertex_count = kept;
    free(to);
}

static orr_geometry build_tower(void) {
    orr_geometry g;
    if (orr_geometry_alloc(4 * CITY_QUADS, 6 * CITY_QUADS, ORR_GEOMETRY_NORMALS | ORR_GEOMETRY_COLORS, NULL, &g) !=
        ORR_OK)
        die("tower geometry", NULL);
    quad_builder q = {&g, 0, 0, builders_wind_ccw()};
    /* Each side seen from outside: origin at its left foot, u to the right, n outwards. */
    static const double sides[4][3][3] = {{{-0.5, 0, -0.5}, {1, 0, 0}, {0, 0, -1}},
                                          {{0.5, 0, -0.5}, {0, 0, 1}, {1, 0, 0}},
                                          {{0.5, 0, 0.5}, {-1, 0, 0}, {0, 0, 1}},
                                          {{-0.5, 0, 0.5}, {0, 0, -1}, {-1, 0, 0}}};
    for (int s = 0; s < 4; s++)
        for (int f = 0; f < FLOORS; f++)
            for (int c = 0; c < COLS; c++)
                window_cell(&q, sides[s][0], sides[s][1], sides[s][2], (double)c / COLS, (double)(c + 1) / COLS,
                            (double)f / FLOORS, (double)(f + 1) / FLOORS);
    static const float roof[3] = {0.45f, 0.43f, 0.42f};
    const double top[4][3] = {{-0.5, 1, -0.5}, {-0.5, 1, 0.5}, {0.5, 1, 0.5}, {0.5, 1, -0.5}};
    quad(&q, top, (double[3]){0, 1, 0}, roof);
    weld(&g);
    return g;
}

/* The city's lots: blocks of CITY_LOTS × CITY_LOTS lots of CITY_LOT m,
 * streets of CITY_STREET m between blocks. Lot (col, row) → its centre. */
enum { CITY_LOTS = 4 };
#define CITY_LOT 22.0
#define CITY_STREET 16.0
#define CITY_PITCH (CITY_LOTS * CITY_LOT + CITY_STREET)

static double lot_centre(uint32_t k) { return (k / CITY_LOTS) * CITY_PITCH + (k % CITY_LOTS + 0.5) * CITY_LOT; }

/* n towers on a square grid of lots, each scaled to a random footprint
 * (12 .. 20 m a side) and height (8 .. 60 m, more low ones than high), turned
 * by a random multiple of 90° about y. *side: lots per row. */
static float *city_mats(uint32_t n, uint32_t *side) {
    uint32_t sd = 1;
    while ((uint64_t)sd * sd < n) sd++;
    float *m = calloc((size_t)n * 16, sizeof(float));
    if (!m) die("out of memory", NULL);
    rng_state = 0x243F6A8885A308D3ull;
    for (uint32_t i = 0; i < n; i++) {
        float *t = m + (size_t)i * 16;
        double u = rng() / 4294967296.0, sx = 12 + 8 * (rng() % 1024) / 1023.0, sz = 12 + 8 * (rng() % 1024) / 1023.0;
        double h = 8 + 52 * u * u, c = 0, sn = 0;
        switch (rng() % 4) {
        case 0: c = 1; break;
        case 1: sn = 1; break;
        case 2: c = -1; break;
        default: sn = -1; break;
        }
        t[0] = (float)(c * sx), t[2] = (float)(-sn * sx);
        t[5] = (float)h;
        t[8] = (float)(sn * sz), t[10] = (float)(c * sz);
        t[12] = (float)lot_centre(i % sd), t[14] = (float)lot_centre(i / sd), t[15] = 1;
    }
    *side = sd;
    return m;
}

/* Mean absolute difference (0..255) between the last frames of two scenes
 * and the number of pixels that differ at all. */
static double frames_mad(orr_engine *e, orr_scene *a, orr_scene *b, const opts *o, uint64_t *differ) {
    uint64_t size = (uint64_t)o->w * o->h * 4;
    uint8_t *pa = malloc(size), *pb = malloc(size);
    if (!pa || !pb) die("out of memory", e);
    orr_engine_render(e, a), orr_engine_render(e, a);
    if (orr_engine_read_pixels(e, pa, size) != ORR_OK) die("read pixels", e);
    orr_engine_render(e, b), orr_engine_render(e, b);
    if (orr_engine_read_pixels(e, pb, size) != ORR_OK) die("read pixels", e);
    double sum = 0;
    *differ = 0;
    for (uint64_t p = 0; p < size; p += 4) {
        int d = 0;
        for (int k = 0; k < 3; k++) d += abs((int)pa[p + k] - (int)pb[p + k]);
        sum += d / 3.0, *differ += d != 0;
    }
    free(pa), free(pb);
    return sum / (size / 4);
}

/* A city of N towers (--city N) on a grid of blocks and streets, a ground
 * plane, the camera 2 m up in a street halfway along a block, looking 45°
 * across the blocks (down no street, so near towers hide most of the city):
 * the four variants of the LOD benchmark. The chain is generated with the
 * sloppy tail (decision 64) so the far levels reach a few tens of triangles. */
static void bench_city(const opts *o) {
    orr_engine *e = make_engine(o);
    uint32_t n = o->city_n, side;
    float *mats = city_mats(n, &side);
    orr_geometry g = build_tower();
    orr_lod_chain chain;
    if (orr_geometry_build_lod_chain(&g, &(orr_lod_chain_desc){.levels = 8, .max_error = 0.1, .sloppy_tail = true},
                                     &chain) != ORR_OK)
        die("chain", e);
    double extent = (side + CITY_LOTS - 1) / CITY_LOTS * CITY_PITCH;
    orr_geometry ground;
    orr_geometry_build_ground(&(orr_ground_desc){.width = 2 * extent + 400, .height = 2 * extent + 400}, NULL, &ground);
    /* The street east of the middle block column, halfway along its block. */
    uint32_t mid = side / 2 / CITY_LOTS;
    orr_dvec3 eye = {mid * CITY_PITCH + CITY_LOTS * CITY_LOT + CITY_STREET * 0.5, 2.0,
                     mid * CITY_PITCH + CITY_LOTS * CITY_LOT * 0.5};
    orr_dvec3 target = {eye.x + 100, eye.y + 6, eye.z + 100};
    variant_setup vs = {mats, n, &g, &chain, eye, target, 3 * extent + 1000, &ground, {0.9, 0.9, 0.9}};
    variant_runs r;
    make_variants(e, &vs, &r);
    double aspect = (double)o->w / o->h, fov = 0.8;
    if (o->city_view > 0) { /* --city-view F: narrow the field of view until F of the towers are in the frustum */
        double lo = 0.01, hi = 0.8;
        for (int it = 0; it < 30; it++) {
            fov = 0.5 * (lo + hi);
            orr_camera_set_fov(r.sc[1].s, r.sc[1].cam, fov);
            double f = fraction_in_view(&r.sc[1], mats, n, aspect);
            if (fabs(f - o->city_view) < 0.001) break;
            if (f < o->city_view)
                lo = fov;
            else
                hi = fov;
        }
        for (int v = 0; v < VARIANTS; v++) orr_camera_set_fov(r.sc[v].s, r.sc[v].cam, fov);
    }
    run_variants(e, o, &vs, &r);
    double in_view = fraction_in_view(&r.sc[1], mats, n, aspect);
    uint64_t differ = 0;
    double mad = frames_mad(e, r.sc[2].s, r.sc[3].s, o, &differ);
    if (getenv("ORR_BENCH_PNG")) { /* the occlusion variant, to look at */
        orr_engine_render(e, r.sc[3].s);
        if (orr_engine_save_png(e, getenv("ORR_BENCH_PNG")) != ORR_OK) die("png", e);
    }
    printf("\n## City: %u towers (%u triangles; ", n, g.index_count / 3);
    print_chain(&chain);
    printf(", errors");
    for (uint32_t k = 1; k < chain.level_count; k++) printf(" %.3g", chain.error[k]);
    printf(" of a unit tower) on %u x %u lots in blocks of %u x %u, a ground plane, camera 2 m up in a street "
           "looking 45 deg across blocks, fov %.3f rad, %.1f %% of the towers in the frustum, %ux%u, MSAA %u, %d "
           "frames x 2 "
           "blocks, device %s\n\n",
           side, (n + side - 1) / side, CITY_LOTS, CITY_LOTS, fov, in_view * 100, o->w, o->h, o->msaa, o->frames,
           device_name);
    print_variants(&r, "city");
    print_bucket_memory(e, &r);
    printf("BENCH city_in_frustum_fraction %.4f x\nBENCH city_occl_vs_lod_mad %.4f x\n", in_view, mad);
    printf("\nocclusion check: frustum + LOD chain vs the same with occlusion: MAD %.4f (0..255), %llu of %u pixels "
           "differ\n",
           mad, (unsigned long long)differ, o->w * o->h);
    printf("RESULT city %u towers, fov %.3f, %.1f %% in the frustum: fps (GPU | wall) no culling %.1f | %.1f, frustum "
           "%.1f | %.1f, "
           "frustum + LOD %.1f | %.1f, frustum + LOD + occlusion %.1f | %.1f (%llu drawn of %llu in the frustum, %llu "
           "triangles); occlusion image MAD %.4f\n",
           n, fov, in_view * 100, 1e3 / gpu_ms(r.b[0]), 1e3 / ms_per_frame(r.b[0]), 1e3 / gpu_ms(r.b[1]),
           1e3 / ms_per_frame(r.b[1]), 1e3 / gpu_ms(r.b[2]), 1e3 / ms_per_frame(r.b[2]), 1e3 / gpu_ms(r.b[3]),
           1e3 / ms_per_frame(r.b[3]), (unsigned long long)r.vis[3], (unsigned long long)r.vis[1],
           (unsigned long long)r.tri[3], mad);
    destroy_variants(e, &r);
    orr_lod_chain_free(&chain);
    orr_geometry_free(&ground);
    orr_geometry_free(&g);
    free(mats);
    orr_engine_destroy(e);
}

/* ---- main ---------------------------------------------------------------------------------------- */

static int usage(FILE *f, const char *prog, const char *bad, int status) {
    if (bad) fprintf(f, "%s: unknown option or bad value: %s\n", prog, bad);
    fprintf(f,
            "usage: %s [--quick] [--sizes N1,N2] [--cull N] [--lod N] [--sloppy] [--no-raw] [--chain-only] [--city N]\n"
            "       [--city-view F]\n"
            "       [--cpu MxK] [--frames F] [--warm W] [--size WxH] [--msaa 1|4]\n"
            "       [--only throughput,cull,update,cpu,occlusion,lod,city] [--unlit]\n",
            prog);
    return status;
}

int main(int argc, char **argv) {
    opts o = {.sizes = {100000, 1000000},
              .cull_n = 1000000,
              .lod_n = 1000000,
              .city_n = 10000,
              .cpu_meshes = 1000,
              .cpu_inst = 100,
              .frames = 150,
              .warm = 10,
              .w = 1920,
              .h = 1080,
              .msaa = 4,
              .only = "throughput,cull,update,cpu,occlusion,lod,city"};
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--quick")) {
            o.sizes[0] = 10000, o.sizes[1] = 100000, o.cull_n = 100000, o.cpu_inst = 10, o.lod_n = 1000;
            o.frames = 8, o.warm = 2, o.w = 640, o.h = 360;
        } else if (!strcmp(argv[i], "--unlit")) {
            unlit = true;
        } else if (!strcmp(argv[i], "--sloppy")) {
            o.sloppy = true;
        } else if (!strcmp(argv[i], "--no-raw")) {
            o.no_raw = true;
        } else if (!strcmp(argv[i], "--chain-only")) {
            o.chain_only = true;
        }
    /* Every option is known and well formed, or nothing runs: a benchmark
     * that silently ignored a typo would measure the wrong thing for minutes. */
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) return usage(stdout, argv[0], NULL, 0);
        if (!strcmp(a, "--quick") || !strcmp(a, "--unlit") || !strcmp(a, "--sloppy") || !strcmp(a, "--no-raw") ||
            !strcmp(a, "--chain-only"))
            continue;
        bool ok = v != NULL;
        char tail;
        if (!strcmp(a, "--sizes"))
            ok = ok && sscanf(v, "%u,%u%c", &o.sizes[0], &o.sizes[1], &tail) == 2 && o.sizes[0] && o.sizes[1];
        else if (!strcmp(a, "--cull"))
            ok = ok && sscanf(v, "%u%c", &o.cull_n, &tail) == 1 && o.cull_n;
        else if (!strcmp(a, "--lod"))
            ok = ok && sscanf(v, "%u%c", &o.lod_n, &tail) == 1 && o.lod_n;
        else if (!strcmp(a, "--city"))
            ok = ok && sscanf(v, "%u%c", &o.city_n, &tail) == 1 && o.city_n;
        else if (!strcmp(a, "--city-view"))
            ok = ok && sscanf(v, "%lf%c", &o.city_view, &tail) == 1 && o.city_view > 0 && o.city_view < 1;
        else if (!strcmp(a, "--cpu"))
            ok = ok && sscanf(v, "%ux%u%c", &o.cpu_meshes, &o.cpu_inst, &tail) == 2 && o.cpu_meshes && o.cpu_inst;
        else if (!strcmp(a, "--frames"))
            ok = ok && sscanf(v, "%d%c", &o.frames, &tail) == 1 && o.frames > 0;
        else if (!strcmp(a, "--warm"))
            ok = ok && sscanf(v, "%d%c", &o.warm, &tail) == 1 && o.warm >= 0;
        else if (!strcmp(a, "--size"))
            ok = ok && sscanf(v, "%ux%u%c", &o.w, &o.h, &tail) == 2 && o.w && o.h;
        else if (!strcmp(a, "--msaa"))
            ok = ok && sscanf(v, "%u%c", &o.msaa, &tail) == 1 && (o.msaa == 1 || o.msaa == 4);
        else if (!strcmp(a, "--only"))
            ok = ok && snprintf(o.only, sizeof o.only, "%s", v) < (int)sizeof o.only;
        else
            return usage(stderr, argv[0], a, 2);
        if (!ok) return usage(stderr, argv[0], a, 2);
        i++;
    }
    printf("# bench_instances: sizes %u, %u; field %u; CPU scene %u x %u; %ux%u MSAA %u; %d frames, %d warm-up; %s\n",
           o.sizes[0], o.sizes[1], o.cull_n, o.cpu_meshes, o.cpu_inst, o.w, o.h, o.msaa, o.frames, o.warm,
           unlit ? "unlit (flat colour)" : "lit (one directional light, diffuse + specular)");
    fflush(stdout);
    if (strstr(o.only, "throughput")) bench_throughput(&o), fflush(stdout);
    bool c = strstr(o.only, "cull") != NULL, u = strstr(o.only, "update") != NULL;
    if (c || u) bench_cull_update(&o, c, u), fflush(stdout);
    if (strstr(o.only, "cpu")) bench_cpu(&o), fflush(stdout);
    if (strstr(o.only, "occlusion")) bench_occlusion(&o), fflush(stdout);
    if (strstr(o.only, "lod")) bench_lod(&o), fflush(stdout);
    if (strstr(o.only, "city")) bench_city(&o), fflush(stdout);
    return 0;
}
