/* engine.c — engine lifetime and the scenes created on it, the offscreen
 * target, readback and PNG output.
 *
 * Target: colour RGBA8 UNORM (Babylon.js writes shader output to an 8-bit
 * UNORM canvas with no sRGB encode; so do we) and depth D32 float with
 * reverse-Z, both with `msaa` samples; with MSAA the colour resolves (average)
 * into a single-sample image, which is what readback and presentation read.
 */
#include <ctype.h>
#include <stb_image_write.h> /* Debian libstb */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/render_int.h"

static _Thread_local char create_error[1024];

const char *orr_engine_last_error(const orr_engine *e) {
    if (!e) return create_error;
    return e->host.ctx.last_error;
}

static bool env_on(const char *name) {
    const char *v = getenv(name);
    return v && *v && strcmp(v, "0") != 0;
}

orr_result orri_target_create(orr_engine *e) {
    orri_gpu *gpu = &e->gpu;
    VkSampleCountFlagBits samples = e->msaa == 4 ? VK_SAMPLE_COUNT_4_BIT : VK_SAMPLE_COUNT_1_BIT;
    VkImageUsageFlags single =
        VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_SAMPLED_BIT;
    orr_result r =
        orri_image_create(gpu,
                          &(orri_image_desc){.width = e->width,
                                             .height = e->height,
                                             .format = ORRI_COLOR_FORMAT,
                                             .samples = samples,
                                             .usage = e->msaa > 1 ? VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT : single,
                                             .label = "target colour"},
                          &e->color);
    if (r == ORR_OK)
        r = orri_image_create(
            gpu,
            &(orri_image_desc){.width = e->width,
                               .height = e->height,
                               .format = ORRI_DEPTH_FORMAT,
                               .samples = samples,
                               /* sampled: the occlusion depth pyramid */
                               .usage = VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT,
                               .aspect = VK_IMAGE_ASPECT_DEPTH_BIT,
                               .label = "target depth"},
            &e->depth);
    if (r == ORR_OK && e->msaa > 1)
        r = orri_image_create(gpu,
                              &(orri_image_desc){.width = e->width,
                                                 .height = e->height,
                                                 .format = ORRI_COLOR_FORMAT,
                                                 .usage = single,
                                                 .label = "target resolve"},
                              &e->resolve);
    if (r == ORR_OK)
        r = orri_buffer_create(gpu, (VkDeviceSize)e->width * e->height * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                               ORRI_MEM_READBACK, "readback", &e->readback);
    e->final_layout = VK_IMAGE_LAYOUT_UNDEFINED;
    return r;
}

/* Resize (orrery/engine.h): the new target is built beside the old one and
 * swapped in only when all of it exists, so a failure leaves the engine as it
 * was. The scenes' structure keys include the size (draw_list.c), so their
 * secondaries (viewport, scissor) are recorded again at the next render. */
orr_result orr_engine_resize(orr_engine *e, uint32_t width, uint32_t height) {
    if (!e) {
        orri_misuse(NULL, ORR_MSG_NULL_CONTEXT, "orr_engine_resize: engine is NULL");
        return ORR_ERROR_INVALID_HANDLE;
    }
    if (width == 0 || height == 0 || width > 16384 || height > 16384)
        return orri_fail(&e->host.ctx, ORR_ERROR_INVALID_ARGUMENT,
                         "orr_engine_resize: render size %ux%u is not within 1..16384", width, height);
    if (e->gpu.device_lost)
        return orri_fail(&e->host.ctx, ORR_ERROR_DEVICE_LOST, "orr_engine_resize: the device was lost");
    if (width == e->width && height == e->height) return ORR_OK;
    orr_result r = orri_gpu_wait_idle(&e->gpu); /* nothing may still use the old target: */
    if (r != ORR_OK) return r;
    vkQueueWaitIdle(e->gpu.queue); /* a window's blits too (they have their own fences) */
    orri_image color = e->color, depth = e->depth, resolve = e->resolve;
    orri_buffer readback = e->readback;
    uint32_t old_w = e->width, old_h = e->height;
    VkImageLayout old_layout = e->final_layout;
    e->color = (orri_image){0}, e->depth = (orri_image){0}, e->resolve = (orri_image){0};
    e->readback = (orri_buffer){0};
    e->width = width, e->height = height;
    r = orri_target_create(e);
    if (r != ORR_OK) {
        orri_buffer_destroy_now(&e->gpu, &e->readback);
        orri_image_destroy_now(&e->gpu, &e->resolve);
        orri_image_destroy_now(&e->gpu, &e->depth);
        orri_image_destroy_now(&e->gpu, &e->color);
        e->color = color, e->depth = depth, e->resolve = resolve, e->readback = readback;
        e->width = old_w, e->height = old_h, e->final_layout = old_layout;
        return r;
    }
    orri_buffer_destroy_now(&e->gpu, &readback);
    orri_image_destroy_now(&e->gpu, &resolve);
    orri_image_destroy_now(&e->gpu, &depth);
    orri_image_destroy_now(&e->gpu, &color);
    e->frame_valid = false; /* the new target holds no frame yet */
    return ORR_OK;
}

/* The texture module's one way to the engine (src/texture/texture_int.h). */
orri_texture_store *orri_engine_textures(orr_engine *e) { return &e->textures; }

static orr_result validate_desc(const orr_engine_desc *d, orri_ctx *ctx) {
    if (d->msaa != 0 && d->msaa != 1 && d->msaa != 4)
        return orri_fail(ctx, ORR_ERROR_INVALID_ARGUMENT, "msaa must be 1 or 4 (got %u)", d->msaa);
    if (d->width > 16384 || d->height > 16384)
        return orri_fail(ctx, ORR_ERROR_INVALID_ARGUMENT, "render size %ux%u is larger than 16384", d->width,
                         d->height);
    if (d->floating_origin && d->floating_origin->magic != ORRI_LARGE_WORLD_MAGIC)
        return orri_fail(ctx, ORR_ERROR_INVALID_ARGUMENT, "floating_origin must be &orr_floating_origin");
    if (d->floating_origin && d->matrix_precision != ORR_MATRIX_FLOAT64)
        return orri_fail(ctx, ORR_ERROR_INVALID_ARGUMENT,
                         "floating origin requires float64 matrices (matrix_precision = ORR_MATRIX_FLOAT64): "
                         "subtracting the eye from float32-degraded world matrices recovers nothing");
    if ((unsigned)d->matrix_precision > ORR_MATRIX_FLOAT32)
        return orri_fail(ctx, ORR_ERROR_INVALID_ARGUMENT, "unknown matrix_precision %d", (int)d->matrix_precision);
    if (d->frames_in_flight > ORRI_MAX_FRAMES)
        return orri_fail(ctx, ORR_ERROR_INVALID_ARGUMENT, "frames_in_flight %u is more than %d", d->frames_in_flight,
                         ORRI_MAX_FRAMES);
    return ORR_OK;
}

/* Thin instances per mesh: each instance is a 64-byte matrix in a storage
 * buffer read by the culling pass (one invocation each) and, whole, in one
 * allocation, so the smallest of maxStorageBufferRange / 64,
 * maxComputeWorkGroupCount[0] × 64 and maxMemoryAllocationSize / 64 (lavapipe:
 * 2 097 152; the H200: 33 554 432 would be the allocation bound). Past it a
 * mesh could never be drawn, so orr_instances_* refuse it up front. */
static uint32_t max_instances(const orri_gpu *gpu) {
    VkPhysicalDeviceVulkan11Properties p11 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES};
    VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &p11};
    vkGetPhysicalDeviceProperties2(gpu->physical, &p2);
    uint64_t n = gpu->props.limits.maxStorageBufferRange / 64u;
    uint64_t groups = (uint64_t)gpu->props.limits.maxComputeWorkGroupCount[0] * ORRI_CULL_GROUP;
    if (groups < n) n = groups;
    if (p11.maxMemoryAllocationSize && p11.maxMemoryAllocationSize / 64u < n) n = p11.maxMemoryAllocationSize / 64u;
    return n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
}

orr_result orr_engine_create(const orr_engine_desc *desc, orr_engine **out) {
    if (!out) return ORR_ERROR_INVALID_ARGUMENT;
    *out = NULL;
    orr_engine_desc d = desc ? *desc : (orr_engine_desc){0};
    orr_allocator al = orri_allocator_resolve(&d.allocator);
    orr_engine *e = orri_alloc(&al, sizeof *e);
    if (!e) {
        snprintf(create_error, sizeof create_error, "ORR_ERROR_OUT_OF_HOST_MEMORY: engine");
        return ORR_ERROR_OUT_OF_HOST_MEMORY;
    }
    orri_ctx_init(&e->host.ctx, &d.allocator, &d.logger);
    e->stats.instances_visible_frame = ORR_FRAME_NONE;
    orr_result r = validate_desc(&d, &e->host.ctx);
    e->width = d.width ? d.width : 1280;
    e->height = d.height ? d.height : 720;
    e->msaa = d.msaa ? d.msaa : 4;
    e->lw = d.floating_origin;
    e->host.engine = e;
    e->host.matrix_f32 = d.matrix_precision == ORR_MATRIX_FLOAT32;
    bool validation =
        d.validation == ORR_VALIDATION_ON || (d.validation == ORR_VALIDATION_DEFAULT && env_on("ORR_VALIDATION"));
    orri_gpu_desc gd = {
        .validation = validation,
        .device_name = d.device_name,
        .frames_in_flight = d.frames_in_flight,
        .on_validation = d.on_validation_message,
        .validation_user = d.validation_user,
    };
    if (r == ORR_OK) r = orri_gpu_init(&e->gpu, &e->host.ctx, &gd);
    if (r == ORR_OK) e->host.max_instances = max_instances(&e->gpu);
    if (r == ORR_OK) r = orri_target_create(e);
    if (r == ORR_OK) r = orri_textures_init(e, &e->gpu, &e->host.ctx);
    if (r == ORR_OK) r = orri_pipelines_init(e);
    if (r == ORR_OK && d.gpu_timing) r = orri_frame_timing_init(&e->gpu);
    if (r != ORR_OK) {
        memcpy(create_error, e->host.ctx.last_error, sizeof create_error);
        orr_engine_destroy(e);
        return r;
    }
    *out = e;
    return ORR_OK;
}

void orr_engine_destroy(orr_engine *e) {
    if (!e) return;
    if (e->gpu.device) vkDeviceWaitIdle(e->gpu.device);
    while (e->host.scenes) orr_scene_destroy(e->host.scenes);
    if (e->gpu.device) {
        orri_textures_deinit(e);
        orri_pipelines_deinit(e);
        orri_buffer_destroy_now(&e->gpu, &e->readback);
        orri_image_destroy_now(&e->gpu, &e->resolve);
        orri_image_destroy_now(&e->gpu, &e->depth);
        orri_image_destroy_now(&e->gpu, &e->color);
    }
    orri_gpu_deinit(&e->gpu);
    orr_allocator al = e->host.ctx.allocator;
    orri_free(&al, e);
}

orr_result orr_scene_create(orr_engine *engine, const orr_scene_desc *desc, orr_scene **out) {
    if (!out) return ORR_ERROR_INVALID_ARGUMENT;
    *out = NULL;
    if (!engine) {
        orri_misuse(NULL, ORR_MSG_NULL_CONTEXT, "orr_scene_create: engine is NULL");
        return ORR_ERROR_INVALID_HANDLE;
    }
    return orri_scene_create(&engine->host, desc, out);
}

orr_device_info orr_engine_device_info(const orr_engine *e) {
    orr_device_info info = {0};
    if (!e) return info;
    snprintf(info.name, sizeof info.name, "%s", e->gpu.props.deviceName);
    info.vendor_id = e->gpu.props.vendorID;
    info.device_id = e->gpu.props.deviceID;
    info.api_version = e->gpu.props.apiVersion;
    info.is_cpu = e->gpu.props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
    info.validation = e->gpu.validation;
    info.msaa = e->msaa, info.width = e->width, info.height = e->height;
    info.max_instances_per_mesh = e->host.max_instances;
    return info;
}

orr_result orr_engine_wait_idle(orr_engine *e) {
    if (!e) return ORR_ERROR_INVALID_HANDLE;
    return orri_gpu_wait_idle(&e->gpu);
}

orr_stats orr_query_stats(const orr_engine *e) {
    if (!e) return (orr_stats){0};
    orr_stats s = e->stats;
    s.bytes_uploaded_total = e->gpu.bytes_uploaded_total;
    s.device_memory = e->gpu.device_memory;
    s.pipelines = e->pipeline_count;
    return s;
}

orr_result orr_engine_render(orr_engine *e, orr_scene *s) {
    if (!e || !s) {
        orri_misuse(e ? &e->host.ctx : NULL, ORR_MSG_NULL_CONTEXT, "orr_engine_render: engine or scene is NULL");
        return ORR_ERROR_INVALID_HANDLE;
    }
    if (s->host != &e->host) {
        orri_misuse(&e->host.ctx, ORR_MSG_INVALID_HANDLE, "orr_engine_render: scene '%s' belongs to another engine",
                    s->label);
        return ORR_ERROR_INVALID_HANDLE;
    }
    VkCommandBuffer cmd;
    orr_result r = orri_frame_begin(&e->gpu, &cmd);
    if (r != ORR_OK) return r;
    if (e->gpu.timing.frame) { /* GPU timing: cull, then plugin passes + render */
        e->stats.gpu_cull_ms = e->gpu.timing.ms[0];
        e->stats.gpu_plugins_ms = e->gpu.timing.ms[1];
        e->stats.gpu_render_ms = e->gpu.timing.ms[1] + e->gpu.timing.ms[2];
        e->stats.gpu_timed_frame = e->gpu.timing.frame;
    }
    if (e->scatter_pool[e->gpu.frame_index])
        vkResetDescriptorPool(e->gpu.device, e->scatter_pool[e->gpu.frame_index], 0);
    r = orri_render_scene(e, s, cmd);
    if (r != ORR_OK) {
        /* Close and submit nothing: end the buffer so the slot can be reused. */
        vkEndCommandBuffer(cmd);
        e->gpu.recording = false;
        return r;
    }
    r = orri_frame_submit(&e->gpu);
    if (r == ORR_OK) e->frame_valid = true;
    e->stats.frames++;
    e->stats.bytes_uploaded = e->gpu.bytes_uploaded;
    return r;
}

orr_result orr_engine_read_pixels(orr_engine *e, uint8_t *rgba, uint64_t size) {
    if (!e || !rgba) return ORR_ERROR_INVALID_ARGUMENT;
    uint64_t need = (uint64_t)e->width * e->height * 4;
    if (size < need)
        return orri_fail(&e->host.ctx, ORR_ERROR_INVALID_ARGUMENT, "read_pixels: need %llu bytes",
                         (unsigned long long)need);
    if (e->gpu.device_lost) return orri_fail(&e->host.ctx, ORR_ERROR_DEVICE_LOST, "read_pixels: the device was lost");
    if (!e->frame_valid)
        return orri_fail(&e->host.ctx, ORR_ERROR_INVALID_ARGUMENT, "read_pixels: nothing rendered yet");
    orr_result r = orri_gpu_wait_idle(&e->gpu);
    if (r != ORR_OK) return r;
    VkCommandBuffer cmd;
    r = orri_immediate_begin(&e->gpu, &cmd);
    if (r != ORR_OK) return r;
    orri_image *src = e->msaa > 1 ? &e->resolve : &e->color;
    orri_image_barrier(cmd, src->image, VK_IMAGE_ASPECT_COLOR_BIT, e->final_layout,
                       VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                       VK_ACCESS_2_MEMORY_WRITE_BIT, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
    VkBufferImageCopy region = {
        .imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
        .imageExtent = {e->width, e->height, 1},
    };
    vkCmdCopyImageToBuffer(cmd, src->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, e->readback.buffer, 1, &region);
    orri_memory_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT,
                        VK_ACCESS_2_HOST_READ_BIT);
    e->final_layout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    r = orri_immediate_end(&e->gpu, cmd);
    if (r != ORR_OK) return r;
    VkMappedMemoryRange range = {.sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE,
                                 .memory = e->readback.mem.block->memory,
                                 .offset = 0,
                                 .size = VK_WHOLE_SIZE};
    vkInvalidateMappedMemoryRanges(e->gpu.device, 1, &range);
    memcpy(rgba, e->readback.mapped, need);
    return ORR_OK;
}

/* True when `path` ends in ".png" (any case). */
static bool png_name(const char *path) {
    size_t len = strlen(path);
    return len > 4 && path[len - 4] == '.' && tolower((unsigned char)path[len - 3]) == 'p' &&
           tolower((unsigned char)path[len - 2]) == 'n' && tolower((unsigned char)path[len - 1]) == 'g';
}

orr_result orr_engine_save_png(orr_engine *e, const char *path) {
    if (!e) return orri_fail_free(ORR_ERROR_INVALID_ARGUMENT, "orr_engine_save_png: engine is NULL");
    if (!path) return orri_fail(&e->host.ctx, ORR_ERROR_INVALID_ARGUMENT, "orr_engine_save_png: path is NULL");
    /* It writes PNG and nothing else: a name that says otherwise is refused
     * rather than filled with bytes of another format. */
    if (!png_name(path))
        return orri_fail(&e->host.ctx, ORR_ERROR_INVALID_ARGUMENT,
                         "orr_engine_save_png: '%s' does not end in .png (only PNG is written)", path);
    size_t n = (size_t)e->width * e->height;
    uint8_t *rgba = orri_alloc(&e->host.ctx.allocator, n * 4);
    if (!rgba) return orri_fail(&e->host.ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "save_png");
    orr_result r = orr_engine_read_pixels(e, rgba, n * 4);
    if (r == ORR_OK) {
        for (size_t i = 0; i < n; i++) memmove(rgba + i * 3, rgba + i * 4, 3); /* drop alpha, in place */
        if (!stbi_write_png(path, (int)e->width, (int)e->height, 3, rgba, (int)e->width * 3))
            r = orri_fail(&e->host.ctx, ORR_ERROR_IO, "cannot write %s", path);
    }
    orri_free(&e->host.ctx.allocator, rgba);
    return r;
}
