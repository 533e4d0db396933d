/* Double-single on the GPU: shaders/ds.glsl run in a compute shader on the
 * engine's device (lavapipe in CI, the H200 through the device tool) over a
 * buffer of test vectors, read back and compared with the CPU reference
 * (src/math/double_single.c), which performs the same float32 operations in
 * the same order. Vulkan requires correctly rounded float32 +, −, ×, and the
 * vectors stay clear of denormals, so the precise build must match bit for
 * bit. The same shader built with -DORR_DS_NO_PRECISE is the control: its
 * differences are printed, not asserted (a driver may legally leave it alone).
 *
 * Shaders: tests/shaders/ds_test.comp, compiled by tests/ds.cmake. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "orrery/double_single.h"
#include "render/render_int.h"
#include "support/test_support.h"

static const uint32_t spv_precise[] =
#include "ds_test_precise.comp.inc"
    ;
static const uint32_t spv_no_precise[] =
#include "ds_test_no_precise.comp.inc"
    ;

/* std430 layouts of ds_test.comp. */
typedef struct ds_case {
    orr_ds a, b;
} ds_case;
typedef struct ds_result {
    orr_ds add, sub, mul, plain;
} ds_result;
_Static_assert(sizeof(ds_case) == 16, "ds_case layout");
_Static_assert(sizeof(ds_result) == 32, "ds_result layout");

enum { RANDOM_CASES = 4000, MAX_CASES = 4096 };

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static double rand01(void) {
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (double)(rng >> 11) * 0x1p-53;
}
/* A random double with random sign and magnitude 10^[lo_exp, hi_exp). */
static double rand_value(double lo_exp, double hi_exp) {
    double m = pow(10.0, lo_exp + (hi_exp - lo_exp) * rand01());
    return rand01() < 0.5 ? -m : m;
}

/* The article's case first, then adversarial pairs, then random ones. */
static uint32_t make_cases(ds_case *c) {
    uint32_t n = 0;
    c[n++] = (ds_case){orr_ds_from_float(500000.0f), orr_ds_from_float(0.01f)};  /* 0: the centimetre */
    c[n++] = (ds_case){orr_ds_split(500000.01), orr_ds_split(500000.0)};         /* 1: recover it by sub */
    c[n++] = (ds_case){orr_ds_split(1.0 / 3.0), orr_ds_split(-1.0 / 3.0)};       /* exact cancellation */
    c[n++] = (ds_case){orr_ds_split(1.0 + 0x1p-40), orr_ds_from_float(-1.0f)};   /* residual only in lo */
    c[n++] = (ds_case){orr_ds_from_float(1e30f), orr_ds_from_float(1e-10f)};     /* all of b lost in hi */
    c[n++] = (ds_case){orr_ds_from_float(16777216.0f), orr_ds_from_float(1.0f)}; /* 2^24 + 1: tie */
    c[n++] = (ds_case){orr_ds_from_float(16777216.0f), orr_ds_from_float(3.0f)}; /* tie rounding up */
    c[n++] = (ds_case){orr_ds_from_float(1.0f + 0x1p-23f), orr_ds_from_float(1.0f - 0x1p-24f)}; /* mul error term */
    c[n++] = (ds_case){orr_ds_from_float(4095.0f), orr_ds_from_float(4097.0f)};                 /* split boundary */
    c[n++] = (ds_case){orr_ds_from_float(0x1.fffffep+40f), orr_ds_from_float(0x1.fffffep+40f)}; /* all bits set */
    c[n++] = (ds_case){orr_ds_split(6378137.123456789), orr_ds_split(-6378137.0)};              /* Earth radius, mm */
    c[n++] = (ds_case){orr_ds_split(1.4959787070e11), orr_ds_split(1.0000001)};                 /* 1 AU × almost 1 */
    c[n++] = (ds_case){orr_ds_split(9.42477796076937972), orr_ds_split(2.71828182845904524)};
    c[n++] = (ds_case){orr_ds_split(-123456.789), orr_ds_split(-0.000987654321)};
    while (n < MAX_CASES && n < 14 + RANDOM_CASES) {
        /* Magnitudes 10^±8: partial products of lows stay far above FLT_MIN. */
        double a = rand_value(-8, 8), b = (n % 3 == 0) ? -a * (1 + 1e-6 * rand01()) : rand_value(-8, 8);
        c[n++] = (ds_case){orr_ds_split(a), orr_ds_split(b)};
    }
    return n;
}

static bool same_bits(orr_ds a, orr_ds b) { return memcmp(&a, &b, sizeof a) == 0; }

typedef struct gpu_kernel {
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    VkPipeline pipeline[2]; /* precise, control */
    VkDescriptorPool pool;
    VkDescriptorSet set;
} gpu_kernel;

static VkPipeline make_pipeline(orri_gpu *gpu, VkPipelineLayout layout, const uint32_t *code, size_t size,
                                const char *label) {
    VkShaderModule module = VK_NULL_HANDLE;
    VkShaderModuleCreateInfo mi = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = size, .pCode = code};
    if (vkCreateShaderModule(gpu->device, &mi, NULL, &module) != VK_SUCCESS) return VK_NULL_HANDLE;
    VkComputePipelineCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                  .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                  .module = module,
                  .pName = "main"},
        .layout = layout,
    };
    VkPipeline p = VK_NULL_HANDLE;
    if (vkCreateComputePipelines(gpu->device, VK_NULL_HANDLE, 1, &ci, NULL, &p) != VK_SUCCESS)
        p = VK_NULL_HANDLE;
    else
        orri_gpu_name(gpu, VK_OBJECT_TYPE_PIPELINE, (uint64_t)p, "%s", label);
    vkDestroyShaderModule(gpu->device, module, NULL);
    return p;
}

static bool kernel_create(orri_gpu *gpu, orri_buffer *in, orri_buffer *out, gpu_kernel *k) {
    memset(k, 0, sizeof *k);
    VkDescriptorSetLayoutBinding b[] = {
        {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
        {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
    };
    VkDescriptorSetLayoutCreateInfo sli = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, .bindingCount = 2, .pBindings = b};
    if (vkCreateDescriptorSetLayout(gpu->device, &sli, NULL, &k->set_layout) != VK_SUCCESS) return false;
    VkPushConstantRange pc = {VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(uint32_t)};
    VkPipelineLayoutCreateInfo pli = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                      .setLayoutCount = 1,
                                      .pSetLayouts = &k->set_layout,
                                      .pushConstantRangeCount = 1,
                                      .pPushConstantRanges = &pc};
    if (vkCreatePipelineLayout(gpu->device, &pli, NULL, &k->layout) != VK_SUCCESS) return false;
    k->pipeline[0] = make_pipeline(gpu, k->layout, spv_precise, sizeof spv_precise, "ds_test precise");
    k->pipeline[1] = make_pipeline(gpu, k->layout, spv_no_precise, sizeof spv_no_precise, "ds_test no precise");
    if (!k->pipeline[0] || !k->pipeline[1]) return false;
    VkDescriptorPoolSize ps = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2};
    VkDescriptorPoolCreateInfo dpi = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 1, .poolSizeCount = 1, .pPoolSizes = &ps};
    if (vkCreateDescriptorPool(gpu->device, &dpi, NULL, &k->pool) != VK_SUCCESS) return false;
    VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                      .descriptorPool = k->pool,
                                      .descriptorSetCount = 1,
                                      .pSetLayouts = &k->set_layout};
    if (vkAllocateDescriptorSets(gpu->device, &ai, &k->set) != VK_SUCCESS) return false;
    VkDescriptorBufferInfo bi[2] = {{in->buffer, 0, VK_WHOLE_SIZE}, {out->buffer, 0, VK_WHOLE_SIZE}};
    VkWriteDescriptorSet w = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                              .dstSet = k->set,
                              .dstBinding = 0,
                              .descriptorCount = 2,
                              .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                              .pBufferInfo = bi};
    vkUpdateDescriptorSets(gpu->device, 1, &w, 0, NULL);
    return true;
}

static void kernel_destroy(orri_gpu *gpu, gpu_kernel *k) {
    for (int i = 0; i < 2; i++)
        if (k->pipeline[i]) vkDestroyPipeline(gpu->device, k->pipeline[i], NULL);
    if (k->pool) vkDestroyDescriptorPool(gpu->device, k->pool, NULL);
    if (k->layout) vkDestroyPipelineLayout(gpu->device, k->layout, NULL);
    if (k->set_layout) vkDestroyDescriptorSetLayout(gpu->device, k->set_layout, NULL);
}

/* Runs one pipeline over `n` cases; results land in `out` (host-visible). */
static bool dispatch(orri_gpu *gpu, gpu_kernel *k, int which, uint32_t n) {
    VkCommandBuffer cmd;
    if (orri_immediate_begin(gpu, &cmd) != ORR_OK) return false;
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, k->pipeline[which]);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, k->layout, 0, 1, &k->set, 0, NULL);
    vkCmdPushConstants(cmd, k->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof n, &n);
    vkCmdDispatch(cmd, (n + 63) / 64, 1, 1);
    orri_memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                        VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
    return orri_immediate_end(gpu, cmd) == ORR_OK;
}

typedef struct ds_stats {
    uint32_t mismatches[3];   /* add, sub, mul differing from the CPU in any bit */
    double max_rel[3];        /* vs the exact (float64) result, relative to the largest operand magnitude */
    bool keeps_centimetre;    /* case 0: lo of 500000 + 0.01 ≈ 0.01 */
    bool recovers_centimetre; /* case 1: sub gives back ≈ 0.01 */
} ds_stats;

static ds_stats compare(const ds_case *c, const ds_result *r, uint32_t n, int which) {
    ds_stats s = {0};
    for (uint32_t i = 0; i < n; i++) {
        orr_ds want[3] = {orr_ds_add(c[i].a, c[i].b), orr_ds_sub(c[i].a, c[i].b), orr_ds_mul(c[i].a, c[i].b)};
        orr_ds got[3] = {r[i].add, r[i].sub, r[i].mul};
        double a = orr_ds_to_double(c[i].a), b = orr_ds_to_double(c[i].b);
        double exact[3] = {a + b, a - b, a * b};
        double scale[3] = {fmax(fabs(a), fabs(b)), fmax(fabs(a), fabs(b)), fabs(a * b)};
        for (int op = 0; op < 3; op++) {
            if (!same_bits(want[op], got[op])) {
                if (s.mismatches[op] < 3 && which == 0)
                    fprintf(stderr, "case %u op %d: gpu (%a, %a) cpu (%a, %a)\n", i, op, got[op].hi, got[op].lo,
                            want[op].hi, want[op].lo);
                s.mismatches[op]++;
            }
            double rel = scale[op] > 0 ? fabs(orr_ds_to_double(got[op]) - exact[op]) / scale[op] : 0;
            if (rel > s.max_rel[op]) s.max_rel[op] = rel;
        }
    }
    s.keeps_centimetre = r[0].add.hi == 500000.0f && fabs(r[0].add.lo - 0.01) < 1e-9;
    s.recovers_centimetre = fabs(orr_ds_to_double(r[1].sub) - 0.01) < 1e-9;
    return s;
}

TEST(ds_gpu_matches_cpu_reference_and_keeps_the_centimetre) {
    orr_engine *engine = orr_test_engine(64, 64, 1);
    orri_gpu *gpu = &engine->gpu;
    static ds_case cases[MAX_CASES];
    uint32_t n = make_cases(cases);
    orri_buffer in, out;
    CHECK(orri_buffer_create(gpu, n * sizeof(ds_case), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, ORRI_MEM_HOST, "ds cases",
                             &in) == ORR_OK);
    CHECK(orri_buffer_create(gpu, n * sizeof(ds_result), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, ORRI_MEM_READBACK,
                             "ds results", &out) == ORR_OK);
    CHECK(in.mapped && out.mapped);
    memcpy(in.mapped, cases, n * sizeof(ds_case));
    gpu_kernel k;
    bool ok = kernel_create(gpu, &in, &out, &k);
    CHECK(ok);
    orr_device_info info = orr_engine_device_info(engine);
    const char *dev = info.name;
    for (int which = 0; ok && which < 2; which++) {
        memset(out.mapped, 0xff, n * sizeof(ds_result));
        CHECK(dispatch(gpu, &k, which, n));
        const ds_result *r = out.mapped;
        ds_stats s = compare(cases, r, n, which);
        printf("%s on %s, %u cases: bit mismatches vs CPU add %u sub %u mul %u; max error rel. add %.3g sub %.3g "
               "mul %.3g; 500000 + 0.01 -> (%.9g, %.9g) %s, plain float32 %.9g\n",
               which == 0 ? "precise   " : "no precise", dev, n, s.mismatches[0], s.mismatches[1], s.mismatches[2],
               s.max_rel[0], s.max_rel[1], s.max_rel[2], r[0].add.hi, r[0].add.lo,
               s.keeps_centimetre ? "keeps the centimetre" : "LOSES the centimetre", r[0].plain.hi);
        if (which == 0) {
            CHECK(s.mismatches[0] == 0 && s.mismatches[1] == 0 && s.mismatches[2] == 0);
            CHECK(s.keeps_centimetre);
            CHECK(s.recovers_centimetre);
            CHECK(s.max_rel[0] < 1e-13 && s.max_rel[1] < 1e-13 && s.max_rel[2] < 1e-13);
            CHECK(r[0].plain.hi == 500000.0f); /* control: plain float32 drops the 0.01 */
        } else {
            bool contracted = s.mismatches[0] + s.mismatches[1] + s.mismatches[2] > 0;
            printf("control: the driver %s the non-precise build (not asserted: it is allowed to do either)\n",
                   contracted ? "DID rewrite (contract/reassociate)" : "did not rewrite");
        }
    }
    kernel_destroy(gpu, &k);
    orri_buffer_destroy_now(gpu, &in);
    orri_buffer_destroy_now(gpu, &out);
    /* Checked here as well as by the after-each hook: harness.h's hook
     * variable is static, so the copy set by test_support.c is not this one. */
    CHECK(orr_test_validation_messages() == 0);
    orr_engine_destroy(engine);
    CHECK(orr_test_validation_messages() == 0); /* leaks are reported at destroy */
}

int main(int argc, char **argv) {
    orr_test_fail_on_validation();
    return RUN_TESTS(argc, argv);
}
