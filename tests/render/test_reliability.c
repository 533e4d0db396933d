/* Issue 16 on the GPU path (docs/reliability.md):
 * - D3: allocations over 16 MiB whose size is not a multiple of the
 *   allocation granularity (a raw 16 MiB + 1, a buffer of that size with its
 *   data, a 1.4 M-vertex mesh, a 2049² texture) succeed and leak nothing;
 *   they used to fail with a false ORR_ERROR_OUT_OF_HOST_MEMORY and keep the
 *   dedicated block.
 * - D4: with host memory failing, the delete queue never destroys what an
 *   open command buffer still uses (it used to wait for the device and
 *   destroy at once, invalidating the pending upload).
 * - D2: planetary instances grown past their capacity render (ASan: the
 *   upload used to read past the positions array).
 * - Engines recreated 40 times in one process each get a device and render:
 *   NVIDIA's driver refuses the 31st VkInstance of a process, so engines share
 *   one instance per configuration (src/gpu/device.c). Lavapipe has no such
 *   limit; here the test shows the sharing (one instance, counted users).
 * Every test runs with the validation layer on; any message fails it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "render/render_int.h"
#include "support/test_support.h"

/* ---- an engine whose host allocations can be made to fail --------------------------- */
static bool host_fails;      /* every allocation through the engine's hooks fails */
static long fail_at = -1;    /* or: allocations left before one fails (-1: off) */
static bool fail_persistent; /* ... and every one after it too */
static long host_calls;      /* allocations attempted through the hooks */
static bool host_ok(void) {
    host_calls++;
    if (host_fails) return false;
    if (fail_at < 0) return true;
    if (fail_at > 0) return fail_at--, true;
    if (fail_persistent)
        host_fails = true;
    else
        fail_at = -1;
    return false;
}
static void *f_alloc(size_t n, void *u) { return (void)u, host_ok() ? malloc(n) : NULL; }
static void *f_realloc(void *p, size_t n, void *u) { return (void)u, host_ok() ? realloc(p, n) : NULL; }
static void f_free(void *p, void *u) { (void)u, free(p); }

/* The delete queue's last-resort message is counted, injected host OOM is
 * expected: neither is printed. */
static int leak_logs;
static void on_log(orr_log_level level, orr_msg id, const char *message, void *user) {
    (void)user;
    if (strstr(message, "leaked rather than destroyed in use"))
        leak_logs++;
    else if (level <= ORR_LOG_WARNING && !strstr(message, "ORR_ERROR_OUT_OF_HOST_MEMORY")) /* the sweep's */
        fprintf(stderr, "orrery: %s\n", message);
}

static orr_engine *make_engine(uint32_t size) {
    orr_engine_desc d = {.width = size,
                         .height = size,
                         .msaa = 1,
                         .allocator = {f_alloc, f_realloc, f_free, NULL},
                         .logger = {on_log, NULL}};
    orr_test_validation_hook(&d);
    orr_engine *e = NULL;
    if (orr_engine_create(&d, &e) != ORR_OK) {
        fprintf(stderr, "cannot create an engine: %s\n", orr_engine_last_error(NULL));
        exit(1);
    }
    host_fails = false;
    leak_logs = 0;
    return e;
}

static orr_scene *lit_scene(orr_engine *e) {
    orr_scene *s = NULL;
    CHECK(orr_scene_create(e, NULL, &s) == ORR_OK);
    orr_camera_create_free(s, &(orr_free_camera_desc){.position = {0, 0, -5}, .target = ORR_DVEC3(0, 0, 0)});
    orr_light_create(s, &(orr_light_desc){.type = ORR_LIGHT_HEMISPHERIC, .direction = {0, 1, 0}});
    orr_scene_set_clear_color(s, (orr_color4){0, 0, 0, 1});
    return s;
}

static void centre_rgb(orr_engine *e, orr_scene *s, double rgb[3]) {
    orr_image8 img;
    rgb[0] = rgb[1] = rgb[2] = -1;
    CHECK(orr_test_render(e, s, 2, &img));
    if (!img.rgb) return;
    orr_test_mean_rgb(&img, img.width / 2 - 2, img.height / 2 - 2, img.width / 2 + 2, img.height / 2 + 2, rgb);
    orr_test_image_free(&img);
}

/* ---- D3 ------------------------------------------------------------------------------ */
#define OVER_16MIB ((VkDeviceSize)(16u << 20) + 1)

/* Three at once, so that whatever room shared blocks have, some request
 * needs a block of its own (before the fix: a false OUT_OF_HOST_MEMORY and
 * the block kept). All freed, the device memory is back where it was. */
TEST(d3_raw_allocation_of_16mib_plus_1) {
    orr_engine *e = make_engine(64);
    orri_gpu *gpu = &e->gpu;
    uint64_t memory = gpu->device_memory;
    uint32_t blocks = gpu->block_count;
    VkMemoryRequirements req = {.size = OVER_16MIB, .alignment = 256, .memoryTypeBits = ~0u};
    orri_mem m[3] = {{0}};
    for (int i = 0; i < 3; i++) {
        CHECK(orri_mem_alloc(gpu, req, 0, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, &m[i]) == ORR_OK);
        CHECK(m[i].block && m[i].size >= OVER_16MIB);
    }
    CHECK(gpu->device_memory >= memory + 3 * OVER_16MIB); /* over half a block: dedicated */
    for (int i = 0; i < 3; i++) orri_mem_free(gpu, &m[i]);
    CHECK(gpu->device_memory == memory && gpu->block_count == blocks);
    orr_engine_destroy(e);
}

/* A device buffer of 16 MiB + 1 filled through a host staging buffer of the
 * same size (both dedicated), then copied back: the last byte arrives. */
TEST(d3_buffer_of_16mib_plus_1_holds_its_data) {
    orr_engine *e = make_engine(64);
    orri_gpu *gpu = &e->gpu;
    uint64_t memory = gpu->device_memory;
    uint8_t *data = malloc(OVER_16MIB);
    for (VkDeviceSize i = 0; i < OVER_16MIB; i++) data[i] = (uint8_t)(i * 7 + 3);
    orri_buffer dev = {0}, back = {0};
    CHECK(orri_buffer_create(gpu, OVER_16MIB, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, ORRI_MEM_DEVICE, "16 MiB + 1", &dev) ==
          ORR_OK);
    CHECK(orri_buffer_create(gpu, 64, VK_BUFFER_USAGE_TRANSFER_DST_BIT, ORRI_MEM_READBACK, "tail", &back) == ORR_OK);
    if (dev.buffer && back.buffer) {
        CHECK(orri_buffer_upload(gpu, VK_NULL_HANDLE, &dev, 0, data, OVER_16MIB) == ORR_OK);
        VkCommandBuffer cmd;
        CHECK(orri_immediate_begin(gpu, &cmd) == ORR_OK);
        vkCmdCopyBuffer(cmd, dev.buffer, back.buffer, 1, &(VkBufferCopy){OVER_16MIB - 64, 0, 64});
        CHECK(orri_immediate_end(gpu, cmd) == ORR_OK);
        CHECK(memcmp(back.mapped, data + OVER_16MIB - 64, 64) == 0);
    }
    orri_buffer_destroy_now(gpu, &dev);
    orri_buffer_destroy_now(gpu, &back);
    CHECK(gpu->device_memory == memory);
    free(data);
    orr_engine_destroy(e);
}

/* 1 400 001 vertices: 16 800 012 bytes of positions and of normals, neither
 * a multiple of 64. Three of them make a triangle over the view. */
TEST(d3_mesh_of_1_4_million_vertices) {
    orr_engine *e = make_engine(64);
    orr_scene *s = lit_scene(e);
    orr_geometry g;
    const uint32_t n = 1400001;
    CHECK(orr_geometry_alloc(n, 3, ORR_GEOMETRY_NORMALS, NULL, &g) == ORR_OK);
    const float tri[9] = {-4, -4, 0, 0, 4, 0, 4, -4, 0};
    memcpy(g.positions, tri, sizeof tri);
    for (uint32_t i = 0; i < n; i++) g.normals[3 * i + 2] = -1; /* facing the camera (−Z) */
    g.indices[0] = 0, g.indices[1] = 1, g.indices[2] = 2;
    orr_mesh m = orr_mesh_create(s, &(orr_mesh_desc){.geometry = &g,
                                                     .material = orr_standard_material_create(
                                                         s, &(orr_standard_material_desc){.back_face_culling = ORR_OFF,
                                                                                          .disable_lighting = true,
                                                                                          .emissive = {0, 1, 0}})});
    orr_geometry_free(&g);
    CHECK(orr_mesh_get_vertex_count(s, m) == n);
    double rgb[3];
    centre_rgb(e, s, rgb);
    CHECK(rgb[1] > 200 && rgb[0] < 30); /* green: the mesh was uploaded and drawn */
    orr_engine_destroy(e);
}

/* 2049² RGBA: 16 793 604 bytes of staging, not a multiple of 64. */
TEST(d3_texture_of_2049_squared) {
    orr_engine *e = make_engine(64);
    orr_scene *s = lit_scene(e);
    const uint32_t w = 2049;
    uint8_t *rgba = malloc((size_t)w * w * 4);
    for (size_t i = 0; i < (size_t)w * w; i++) memcpy(rgba + 4 * i, (uint8_t[4]){255, 0, 255, 255}, 4);
    orr_texture tex = {0};
    CHECK(orr_texture_create(e, &(orr_texture_desc){.width = w, .height = w, .rgba = rgba, .label = "2049"}, &tex) ==
          ORR_OK);
    free(rgba);
    orr_geometry g;
    CHECK(orr_geometry_build_plane(&(orr_plane_desc){.size = 8}, NULL, &g) == ORR_OK);
    orr_mesh_create(s, &(orr_mesh_desc){.geometry = &g,
                                        .material = orr_standard_material_create(
                                            s, &(orr_standard_material_desc){.diffuse_texture = tex,
                                                                             .disable_lighting = true,
                                                                             .back_face_culling = ORR_OFF,
                                                                             .emissive = {1, 1, 1}})});
    orr_geometry_free(&g);
    double rgb[3];
    centre_rgb(e, s, rgb);
    CHECK(rgb[0] > 200 && rgb[1] < 30 && rgb[2] > 200); /* magenta: the texture's pixels */
    orr_engine_destroy(e);
}

/* ---- D4 ------------------------------------------------------------------------------ */
static uint32_t queued(const orri_gpu *gpu, VkBuffer b) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < gpu->frame_count; i++)
        for (uint32_t k = 0; k < gpu->frames[i].delete_count; k++)
            n += gpu->frames[i].deletes[k].kind == ORRI_DEL_BUFFER && gpu->frames[i].deletes[k].u.buffer.buffer == b;
    for (uint32_t k = 0; k < gpu->delete_overflow_count; k++)
        n += gpu->delete_overflow[k].kind == ORRI_DEL_BUFFER && gpu->delete_overflow[k].u.buffer.buffer == b;
    return n;
}

/* Host memory fails for good, the delete queue is full (300 deletes
 * were pushed since), and a buffer that an open one-shot upload reads is
 * deleted: it must outlive the upload. Before the fix it was destroyed at
 * once and the submit of the upload was invalid. */
TEST(d4_host_oom_never_destroys_what_an_open_upload_uses) {
    orr_engine *e = make_engine(64);
    orr_scene *s = lit_scene(e);
    orr_geometry g;
    CHECK(orr_geometry_build_box(NULL, NULL, &g) == ORR_OK);
    orr_mesh_create(s, &(orr_mesh_desc){.geometry = &g});
    orr_geometry_free(&g);
    CHECK(orr_engine_render(e, s) == ORR_OK);
    orri_gpu *gpu = &e->gpu;
    orri_buffer src = {0}, dst = {0};
    CHECK(orri_buffer_create(gpu, 4096, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, ORRI_MEM_DEVICE, "oom src", &src) == ORR_OK);
    CHECK(orri_buffer_create(gpu, 4096, 0, ORRI_MEM_DEVICE, "oom dst", &dst) == ORR_OK);
    VkBuffer src_handle = src.buffer;
    host_fails = true;
    for (int i = 0; i < 300; i++) orri_delete_push(gpu, &(orri_delete_item){.kind = ORRI_DEL_BUFFER});
    VkCommandBuffer cmd;
    CHECK(orri_immediate_begin(gpu, &cmd) == ORR_OK);
    vkCmdCopyBuffer(cmd, src.buffer, dst.buffer, 1, &(VkBufferCopy){0, 0, 4096});
    orri_buffer_destroy_deferred(gpu, &src);
    CHECK(queued(gpu, src_handle) == 1); /* kept, not destroyed, not leaked */
    CHECK(orri_immediate_end(gpu, cmd) == ORR_OK);
    host_fails = false;
    orri_buffer_destroy_now(gpu, &dst);
    /* Frames go on; once the device is idle with nothing open it is gone. */
    CHECK(orr_engine_render(e, s) == ORR_OK);
    CHECK(orr_engine_wait_idle(e) == ORR_OK);
    CHECK(queued(gpu, src_handle) == 0);
    orr_engine_destroy(e);
}

/* The same inside a frame: while the frame's command buffer is being
 * recorded, nothing deleted is destroyed before that frame completes, even
 * with the queue full and host memory failing. */
TEST(d4_host_oom_inside_a_frame_waits_for_that_frame) {
    orr_engine *e = make_engine(64);
    orri_gpu *gpu = &e->gpu;
    orri_buffer a = {0}, b = {0};
    CHECK(orri_buffer_create(gpu, 256, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, ORRI_MEM_DEVICE, "frame src", &a) == ORR_OK);
    CHECK(orri_buffer_create(gpu, 256, 0, ORRI_MEM_DEVICE, "frame dst", &b) == ORR_OK);
    VkBuffer a_handle = a.buffer;
    VkCommandBuffer cmd;
    CHECK(orri_frame_begin(gpu, &cmd) == ORR_OK);
    vkCmdCopyBuffer(cmd, a.buffer, b.buffer, 1, &(VkBufferCopy){0, 0, 256});
    host_fails = true;
    for (int i = 0; i < 300; i++) orri_delete_push(gpu, &(orri_delete_item){.kind = ORRI_DEL_BUFFER});
    /* The filler (null handles) ran out of places: kept rather than destroyed, and said so. */
    CHECK(leak_logs > 0);
    orri_buffer_destroy_deferred(gpu, &a); /* a buffer's place was reserved when it was created */
    CHECK(queued(gpu, a_handle) == 1);
    CHECK(orri_frame_submit(gpu) == ORR_OK);
    host_fails = false;
    orri_buffer_destroy_deferred(gpu, &b);
    CHECK(orr_engine_wait_idle(e) == ORR_OK);
    CHECK(queued(gpu, a_handle) == 0);
    orr_engine_destroy(e);
}

/* Host-OOM sweep: the N-th host allocation of an engine's first frame fails,
 * once or for good, for every N. That frame uploads two meshes of about 3 MiB
 * each in one batched command buffer, so the 4 MiB staging ring grows in the
 * middle of it and the old ring, which the batch still reads, is deleted (the
 * D4 path: before the fix, the failing growth of the delete queue destroyed
 * it at once). The render fails cleanly or succeeds, the next one (memory
 * back) succeeds, and nothing is destroyed in use or left half-built (no
 * validation message; LeakSanitizer in the ASan build). */
static orr_scene *sweep_scene(orr_engine *e) {
    orr_scene *s = lit_scene(e);
    orr_geometry g;
    CHECK(orr_geometry_build_sphere(&(orr_sphere_desc){.segments = 160}, NULL, &g) == ORR_OK);
    orr_mesh_create(s, &(orr_mesh_desc){.geometry = &g});
    orr_mesh m =
        orr_mesh_create(s, &(orr_mesh_desc){.geometry = &g, .material = orr_standard_material_create(s, NULL)});
    orr_geometry_free(&g);
    for (int i = 0; i < 40; i++)
        CHECK(orr_instances_add(s, m, orr_dmat4_to_f32(orr_dmat4_translation((orr_dvec3){i * 0.1, 0, 0})), NULL) ==
              ORR_OK);
    orr_instances_enable_gpu_culling(s, m, true);
    return s;
}

TEST(d4_host_oom_sweep_over_a_first_frame) {
    for (int persistent = 0; persistent < 2; persistent++) {
        int points = 0, failed = 0;
        for (long n = 0; n < 10000; n++) {
            orr_engine *e = make_engine(64);
            orr_scene *s = sweep_scene(e);
            host_calls = 0, fail_at = n, fail_persistent = persistent;
            orr_result r = orr_engine_render(e, s);
            bool reached = host_calls > n; /* the N-th allocation happened (and failed) */
            host_fails = false, fail_at = -1;
            failed += r != ORR_OK;
            CHECK(r == ORR_OK || r == ORR_ERROR_OUT_OF_HOST_MEMORY);
            CHECK(orr_engine_render(e, s) == ORR_OK);
            orr_engine_destroy(e);
            uint32_t v = orr_test_validation_messages();
            if (v)
                printf("allocation %ld failing (%s): %u validation messages\n", n, persistent ? "for good" : "once", v);
            CHECK(v == 0);
            if (!reached) break;
            points++;
        }
        printf("host-OOM sweep (%s): %d allocation points in the first frame, %d renders failed cleanly\n",
               persistent ? "for good" : "once", points, failed);
        CHECK(points > 0 && failed > 0); /* control: the sweep did fail allocations */
    }
}

/* ---- D2 ------------------------------------------------------------------------------ */
/* Planetary instances grown past their capacity between two frames. */
TEST(d2_planetary_instances_grown_after_positions_render) {
    orr_engine *e = make_engine(64);
    orr_scene *s = lit_scene(e);
    orr_geometry g;
    CHECK(orr_geometry_build_box(&(orr_box_desc){.size = 0.2}, NULL, &g) == ORR_OK);
    orr_mesh m = orr_mesh_create(s, &(orr_mesh_desc){.geometry = &g});
    orr_geometry_free(&g);
    orr_dvec3 p[16];
    for (int i = 0; i < 16; i++) {
        CHECK(orr_instances_add(s, m, orr_dmat4_to_f32(orr_dmat4_identity()), NULL) == ORR_OK);
        p[i] = (orr_dvec3){(i % 4) * 0.5 - 0.75, (i / 4) * 0.5 - 0.75, 0};
    }
    CHECK(orr_instances_set_positions(s, m, p, 16) == ORR_OK);
    CHECK(orr_engine_render(e, s) == ORR_OK);
    for (int i = 0; i < 100; i++)
        CHECK(orr_instances_add(s, m, orr_dmat4_to_f32(orr_dmat4_identity()), NULL) == ORR_OK);
    CHECK(orr_instances_get_capacity(s, m) == 128);
    CHECK(orr_engine_render(e, s) == ORR_OK);
    CHECK(orr_engine_render(e, s) == ORR_OK);
    CHECK(orr_engine_wait_idle(e) == ORR_OK);
    orr_engine_destroy(e);
}

/* ---- engines recreated --------------------------------------------------------------- */
TEST(engine_recreated_40_times_renders_each_time) {
    uint32_t users_before = orri_gpu_instance_users();
    VkInstance first = VK_NULL_HANDLE;
    int rendered = 0;
    for (int i = 0; i < 40; i++) {
        orr_engine *e = make_engine(16);
        if (!first) first = e->gpu.instance;
        CHECK(e->gpu.instance == first);
        CHECK(orri_gpu_instance_users() == users_before + 1);
        orr_scene *s = lit_scene(e);
        float red = (float)(i % 8) / 8.0f;
        orr_scene_set_clear_color(s, (orr_color4){red, 0, 1, 1});
        double rgb[3];
        centre_rgb(e, s, rgb);
        if (fabs(rgb[0] - red * 255.0) < 3 && fabs(rgb[2] - 255.0) < 3) rendered++;
        orr_scene_destroy(s);
        orr_engine_destroy(e);
    }
    CHECK(rendered == 40);
    /* Two alive at once share it too, and both let go. */
    orr_engine *a = make_engine(16), *b = make_engine(16);
    CHECK(a->gpu.instance == b->gpu.instance && a->gpu.device != b->gpu.device);
    CHECK(orri_gpu_instance_users() == users_before + 2);
    orr_engine_destroy(a);
    orr_engine_destroy(b);
    CHECK(orri_gpu_instance_users() == users_before);
}

int main(int argc, char **argv) {
    orr_test_fail_on_validation();
    return RUN_TESTS(argc, argv);
}
