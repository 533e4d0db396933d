/* gpu_int.h — the Vulkan layer: device, memory sub-allocation, buffers,
 * images, staging uploads, frames in flight with deferred destruction,
 * pipeline cache, debug labels, barriers.
 *
 * Invariants:
 * - Every VkResult of a call that can fail goes through orri_vk_check, which
 *   maps device loss / out of memory to orr_result and latches device loss.
 * - Objects that submitted or still-open work may use are destroyed through
 *   the delete queue (delete.c; sokol's _sg_vk_delete_queue): each item
 *   carries the serial of the newest frame that may use it and is destroyed
 *   only once every frame up to that serial has completed. Host memory
 *   failures never make it destroy early: every live buffer and image holds
 *   a reserved place in it.
 * - Every object gets a debug name (VK_EXT_debug_utils when present).
 */
#ifndef ORRI_GPU_INT_H
#define ORRI_GPU_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <vulkan/vulkan.h>

#include "core/core_int.h"

#define ORRI_MAX_FRAMES 3
#define ORRI_BLOCK_SIZE (32ull << 20)

typedef struct orri_mem_range {
    VkDeviceSize offset, size;
} orri_mem_range;

typedef struct orri_mem_block {
    VkDeviceMemory memory;
    VkDeviceSize size;
    uint32_t type_index;
    void *mapped;         /* host-visible blocks stay mapped */
    orri_mem_range *free; /* sorted by offset, coalesced */
    uint32_t free_count, free_cap;
    bool dedicated;
} orri_mem_block;

typedef struct orri_mem {
    orri_mem_block *block; /* NULL: empty */
    VkDeviceSize offset, size;
} orri_mem;

typedef struct orri_buffer {
    VkBuffer buffer;
    orri_mem mem;
    VkDeviceSize size;
    void *mapped; /* host-visible buffers only */
} orri_buffer;

typedef struct orri_image {
    VkImage image;
    VkImageView view;
    orri_mem mem;
    VkFormat format;
    uint32_t width, height, mips, layers;
    VkSampleCountFlagBits samples;
} orri_image;

typedef enum orri_delete_kind {
    ORRI_DEL_BUFFER,
    ORRI_DEL_IMAGE,
    ORRI_DEL_PIPELINE,
    ORRI_DEL_SAMPLER,
    ORRI_DEL_DESCRIPTOR_POOL,
    ORRI_DEL_CMD_BUFFERS,
    ORRI_DEL_DESCRIPTOR_SET, /* from a pool created with FREE_DESCRIPTOR_SET; queued only while the pool lives */
} orri_delete_kind;

typedef struct orri_delete_item {
    orri_delete_kind kind;
    uint64_t serial; /* set by orri_delete_push: the newest frame that may use it */
    union {
        orri_buffer buffer;
        orri_image image;
        VkPipeline pipeline;
        VkSampler sampler;
        VkDescriptorPool pool;
        struct {
            VkDescriptorPool pool;
            VkDescriptorSet set;
            uint32_t *counter; /* may be NULL: decremented once the set is freed */
        } set;
        struct {
            VkCommandPool pool;
            VkCommandBuffer cmds[2 * ORRI_MAX_FRAMES];
            uint32_t count;
        } cmd;
    } u;
} orri_delete_item;

typedef struct orri_frame {
    VkCommandPool cmd_pool;
    VkCommandBuffer cmd;
    VkFence fence;
    bool submitted;
    uint64_t serial;     /* frame_number of the frame last submitted in this slot */
    orri_buffer staging; /* per-frame staging ring, host-visible */
    VkDeviceSize staging_used;
    /* Part of the delete queue's storage (delete.c): retired by serial, not
     * by slot. */
    orri_delete_item *deletes;
    uint32_t delete_count, delete_cap;
    /* GPU timing (orri_frame_timing_init): the slot's timestamps, read back
     * when the slot is reused. */
    VkQueryPool timing;
    uint64_t timing_serial; /* frame number the timestamps were written for, 0 = none */
} orri_frame;

#define ORRI_TIMESTAMPS 4 /* frame start, pre-pass end, plugin passes end, frame end */

/* The intervals between a frame's timestamps, of the latest frame whose
 * results were available when its slot was reused. */
typedef struct orri_frame_timing {
    double ms[ORRI_TIMESTAMPS - 1];
    uint64_t frame; /* 0: none yet */
} orri_frame_timing;

/* Deletes of objects other than buffers and images that found no room
 * because host memory failed (delete.c). */
#define ORRI_DELETE_OVERFLOW 64

typedef struct orri_gpu {
    orri_ctx *ctx;
    VkInstance instance;
    VkDebugUtilsMessengerEXT messenger;
    bool debug_utils;
    bool validation;
    uint32_t validation_messages;
    void (*on_validation)(const char *message, void *user);
    void *validation_user;
    VkPhysicalDevice physical;
    VkPhysicalDeviceProperties props;
    /* Merge runs of plain draws into one multi-draw (record.c, decision 68):
     * the device has multiDrawIndirect (shaderDrawParameters is required) and
     * ORR_MULTIDRAW is not "0". Read at record time only, so tests may flip it. */
    bool multi_draw;
    /* Static geometries of up to 65 536 vertices share a scene's arena
     * chunks (geometry_arena.c, decision 80) unless ORR_GEOMETRY_ARENA is
     * "0". Read when a geometry is uploaded, so tests may flip it. */
    bool geometry_arena;
    /* LOD buckets of a GPU-culled draw (decision 82): 0 auto (shared when
     * a bucket per level would pass ORRI_LOD_FULL_BYTES), 1 one bucket per
     * level, 2 shared; ORR_LOD_BUCKETS = "full" or "shared". Read when a
     * slot's buckets are created, so tests may flip it. */
    int lod_buckets;
    /* drawIndirectFirstInstance is enabled: indirect draws may start past
     * instance 0 (the shadow passes' LOD levels, decision 70). */
    bool first_instance;
    VkPhysicalDeviceMemoryProperties mem_props;
    VkDevice device;
    uint32_t queue_family;
    VkQueue queue;
    VkPipelineCache pipeline_cache;
    bool device_lost;
    /* Fault injection for tests (never set by the library itself): the next
     * submit reports device loss; device allocations fail after `n` more. */
    bool inject_device_lost;
    int64_t inject_oom_after; /* < 0: off */

    orri_mem_block **blocks;
    uint32_t block_count, block_cap;
    uint64_t device_memory;

    orri_frame frames[ORRI_MAX_FRAMES];
    uint32_t frame_count;     /* frames in flight */
    uint32_t frame_index;     /* current slot */
    uint64_t frame_number;    /* frames submitted; the next one gets frame_number + 1 */
    uint64_t frame_done;      /* every frame up to this serial has completed */
    bool recording;           /* the current slot's cmd is open */
    uint32_t immediate_open;  /* one-shot command buffers begun and not yet ended */
    uint64_t delete_reserved; /* free delete-queue places held by live buffers and images */
    orri_delete_item delete_overflow[ORRI_DELETE_OVERFLOW];
    uint32_t delete_overflow_count;

    uint64_t bytes_uploaded; /* this frame */
    uint64_t bytes_uploaded_total;
    orri_frame_timing timing;

    struct orri_sampler_entry *samplers; /* sampler.c: one VkSampler per distinct description */
    uint32_t sampler_count, sampler_cap;

    PFN_vkSetDebugUtilsObjectNameEXT set_name;
    PFN_vkCmdBeginDebugUtilsLabelEXT begin_label;
    PFN_vkCmdEndDebugUtilsLabelEXT end_label;
} orri_gpu;

typedef struct orri_gpu_desc {
    bool validation;
    const char *device_name; /* substring or index */
    uint32_t frames_in_flight;
    void (*on_validation)(const char *message, void *user);
    void *validation_user;
} orri_gpu_desc;

orr_result orri_gpu_init(orri_gpu *gpu, orri_ctx *ctx, const orri_gpu_desc *desc);
void orri_gpu_deinit(orri_gpu *gpu);
/* Engines now holding one of the process-wide VkInstances (device.c). */
uint32_t orri_gpu_instance_users(void);
orr_result orri_vk_check(orri_gpu *gpu, VkResult r, const char *what);
void orri_gpu_name(orri_gpu *gpu, VkObjectType type, uint64_t handle, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void orri_cmd_label_begin(orri_gpu *gpu, VkCommandBuffer cmd, const char *name);
void orri_cmd_label_end(orri_gpu *gpu, VkCommandBuffer cmd);

/* memory.c */
orr_result orri_mem_alloc(orri_gpu *gpu, VkMemoryRequirements req, VkMemoryPropertyFlags want,
                          VkMemoryPropertyFlags prefer, orri_mem *out);
void orri_mem_free(orri_gpu *gpu, orri_mem *a);
void orri_mem_deinit(orri_gpu *gpu);

/* buffer.c */
typedef enum orri_mem_kind { ORRI_MEM_DEVICE, ORRI_MEM_HOST, ORRI_MEM_READBACK } orri_mem_kind;
orr_result orri_buffer_create(orri_gpu *gpu, VkDeviceSize size, VkBufferUsageFlags usage, orri_mem_kind kind,
                              const char *label, orri_buffer *out);
void orri_buffer_destroy_now(orri_gpu *gpu, orri_buffer *b);
void orri_buffer_destroy_deferred(orri_gpu *gpu, orri_buffer *b);
void orri_buffer_destroy_queued(orri_gpu *gpu, orri_buffer *b); /* delete.c only: its place was used */
/* Copies `size` bytes into `dst` at `offset`: directly when host-visible,
 * else through the frame's staging ring with a copy recorded in `cmd`
 * (the caller adds the barrier before use; see orri_barrier_upload). */
orr_result orri_buffer_upload(orri_gpu *gpu, VkCommandBuffer cmd, orri_buffer *dst, VkDeviceSize offset,
                              const void *data, VkDeviceSize size);
/* One-shot: records, submits and waits (resource creation outside frames). */
orr_result orri_immediate_begin(orri_gpu *gpu, VkCommandBuffer *cmd);
orr_result orri_immediate_end(orri_gpu *gpu, VkCommandBuffer cmd);

/* image.c */
typedef struct orri_image_desc {
    uint32_t width, height, mips, layers;
    VkFormat format;
    VkSampleCountFlagBits samples;
    VkImageUsageFlags usage;
    VkImageAspectFlags aspect;
    bool cube;
    bool array; /* view type 2D_ARRAY (shadow maps: one layer per cascade) */
    const char *label;
} orri_image_desc;
orr_result orri_image_create(orri_gpu *gpu, const orri_image_desc *desc, orri_image *out);
void orri_image_destroy_now(orri_gpu *gpu, orri_image *img);
void orri_image_destroy_deferred(orri_gpu *gpu, orri_image *img);
void orri_image_destroy_queued(orri_gpu *gpu, orri_image *img); /* delete.c only: its place was used */

/* barrier.c — synchronization2 barriers. The makers return a barrier (the
 * whole image: every mip and layer; a buffer range); a batch records what it
 * collected in one vkCmdPipelineBarrier2 at orri_barriers_flush (and when
 * full). The two single-barrier calls record at once. */
#define ORRI_BARRIER_BATCH 8
typedef struct orri_barriers {
    VkCommandBuffer cmd;
    VkImageMemoryBarrier2 images[ORRI_BARRIER_BATCH];
    VkBufferMemoryBarrier2 buffers[ORRI_BARRIER_BATCH];
    uint32_t image_count, buffer_count;
} orri_barriers;
VkImageMemoryBarrier2 orri_barrier_image(VkImage image, VkImageAspectFlags aspect, VkImageLayout from, VkImageLayout to,
                                         VkPipelineStageFlags2 src_stage, VkAccessFlags2 src_access,
                                         VkPipelineStageFlags2 dst_stage, VkAccessFlags2 dst_access);
VkBufferMemoryBarrier2 orri_barrier_buffer(VkBuffer buffer, VkDeviceSize offset, VkDeviceSize size,
                                           VkPipelineStageFlags2 src_stage, VkAccessFlags2 src_access,
                                           VkPipelineStageFlags2 dst_stage, VkAccessFlags2 dst_access);
void orri_barriers_image(orri_barriers *b, VkImageMemoryBarrier2 barrier);
void orri_barriers_buffer(orri_barriers *b, VkBufferMemoryBarrier2 barrier);
void orri_barriers_flush(orri_barriers *b);
void orri_image_barrier(VkCommandBuffer cmd, VkImage image, VkImageAspectFlags aspect, VkImageLayout from,
                        VkImageLayout to, VkPipelineStageFlags2 src_stage, VkAccessFlags2 src_access,
                        VkPipelineStageFlags2 dst_stage, VkAccessFlags2 dst_access);
void orri_memory_barrier(VkCommandBuffer cmd, VkPipelineStageFlags2 src_stage, VkAccessFlags2 src_access,
                         VkPipelineStageFlags2 dst_stage, VkAccessFlags2 dst_access);

/* frame.c */
/* Waits for the slot's previous use, destroys the deletes of every frame
 * that has completed, opens the slot's cmd. */
orr_result orri_frame_begin(orri_gpu *gpu, VkCommandBuffer *cmd);
orr_result orri_frame_submit(orri_gpu *gpu);
/* Waits for every submitted frame, then destroys every delete that no open
 * command buffer may use. */
orr_result orri_gpu_wait_idle(orri_gpu *gpu);
/* GPU timing: ORRI_TIMESTAMPS timestamp queries per frame slot (fails with
 * UNSUPPORTED when the device has none). Timestamp `index` of the current
 * frame is written at `stage`; index 0 resets the slot's queries. Without
 * timing_init the writes do nothing. */
orr_result orri_frame_timing_init(orri_gpu *gpu);
void orri_frame_timestamp(orri_gpu *gpu, VkCommandBuffer cmd, uint32_t index, VkPipelineStageFlags2 stage);
/* Staging space in the current frame (grows the ring when needed). */
orr_result orri_staging_alloc(orri_gpu *gpu, VkDeviceSize size, VkDeviceSize *offset, void **ptr);

/* delete.c */
/* A command buffer is open: the current frame's, or a one-shot one. */
static inline bool orri_gpu_work_open(const orri_gpu *gpu) { return gpu->recording || gpu->immediate_open > 0; }
/* The newest frame that may use an object given up now: the last submitted
 * one, or the next one while a command buffer is open. */
static inline uint64_t orri_gpu_use_serial(const orri_gpu *gpu) {
    return gpu->frame_number + (orri_gpu_work_open(gpu) ? 1 : 0);
}
/* Queues `item` for destruction once every frame that may use it has
 * completed: the frames submitted so far and, while a command buffer is
 * open, the next one. Never destroys in use, even when host memory fails;
 * in the last resort (no memory, overflow full, the object possibly used by
 * an open command buffer) it leaks the object and logs an error. */
void orri_delete_push(orri_gpu *gpu, const orri_delete_item *item);
/* Destroys what every frame up to serial `done` used (UINT64_MAX: all). */
void orri_delete_retire(orri_gpu *gpu, uint64_t done);
/* Destroys everything `f` holds, and the overflow, now: only for callers that
 * made the device idle and have no command buffer open (teardown). */
void orri_delete_run(orri_gpu *gpu, orri_frame *f);
/* Buffers and images (buffer.c, image.c): a place in the queue is reserved
 * when one is created (fails only with OUT_OF_HOST_MEMORY), returned when it
 * is destroyed now, used when it is deferred (never allocates). */
orr_result orri_delete_reserve(orri_gpu *gpu);
void orri_delete_unreserve(orri_gpu *gpu);
void orri_delete_push_reserved(orri_gpu *gpu, const orri_delete_item *item);

/* sampler.c — sampler descriptions. One place turns a description into a
 * VkSampler; samplers are shared: equal descriptions get the same VkSampler,
 * which lives until the device does (orri_gpu_deinit), so no texture owns or
 * destroys one. */
typedef struct orri_sampler_desc {
    VkFilter filter;                 /* magnification and minification */
    bool min_nearest;                /* minification NEAREST whatever filter says */
    VkSamplerMipmapMode mip;         /* between levels */
    VkSamplerAddressMode address[3]; /* u, v, w */
    uint32_t max_anisotropy;         /* 0 or 1: off; clamped to the device; off without samplerAnisotropy */
    bool compare;                    /* depth comparison (shadow maps) with compare_op */
    VkCompareOp compare_op;
} orri_sampler_desc;
/* The shared sampler of `d` (created on first use). Fails only when Vulkan or
 * host memory does. */
orr_result orri_sampler_get(orri_gpu *gpu, const orri_sampler_desc *d, VkSampler *out);
/* The sampler of cube lookups at an explicit lod (PBR image-based lighting):
 * trilinear, clamped, no anisotropy. A texture's own sampler may carry
 * anisotropy, which llvmpipe applied even there, from the screen derivatives
 * of the face coordinates: blurred reflections and a line of wrong texels on
 * every cube edge (decision 84). */
orr_result orri_sampler_cube_lod(orri_gpu *gpu, VkSampler *out);
void orri_samplers_deinit(orri_gpu *gpu);

/* pipeline.c — the Vulkan toolkit every pass builds with: shader modules, set
 * and pipeline layouts, compute pipelines, and one graphics-pipeline builder.
 * Every graphics pipeline renders with dynamic rendering, has a dynamic
 * viewport and scissor, reverse-Z depth (test GREATER_OR_EQUAL) and one
 * colour attachment; a pass states only what differs (its shaders, vertex
 * input, culling, winding, blending, depth writes). Each call names what it
 * creates (debug utils). */
orr_result orri_shader_module(orri_gpu *gpu, const uint32_t *code, size_t size, const char *label, VkShaderModule *out);
orr_result orri_set_layout(orri_gpu *gpu, const VkDescriptorSetLayoutBinding *bindings, uint32_t count,
                           const char *label, VkDescriptorSetLayout *out);
orr_result orri_pipeline_layout(orri_gpu *gpu, const VkDescriptorSetLayout *sets, uint32_t count,
                                const VkPushConstantRange *push, const char *label, VkPipelineLayout *out);
/* From SPIR-V: the module lives only for the call. */
orr_result orri_compute_pipeline(orri_gpu *gpu, VkPipelineLayout layout, const uint32_t *code, size_t size,
                                 const char *label, VkPipeline *out);

typedef enum orri_blend {
    ORRI_BLEND_NONE,
    ORRI_BLEND_ALPHA,         /* Babylon.js ALPHA_COMBINE: rgb src·a + dst·(1 − a), alpha src + dst */
    ORRI_BLEND_PREMULTIPLIED, /* Babylon.js ALPHA_PREMULTIPLIED_PORTERDUFF: ONE, ONE − src.a */
} orri_blend;

/* The render target a pipeline draws into (the engine's: render_int.h). */
typedef struct orri_target_info {
    VkFormat color, depth;
    VkSampleCountFlagBits samples;
} orri_target_info;

typedef struct orri_graphics_desc {
    orri_target_info target;
    VkShaderModule vert, frag;
    VkPipelineLayout layout;
    const VkVertexInputBindingDescription *bindings; /* none: vertices from gl_VertexIndex */
    uint32_t binding_count;
    const VkVertexInputAttributeDescription *attributes;
    uint32_t attribute_count;
    VkCullModeFlags cull;
    VkFrontFace front_face;
    bool dynamic_front_face; /* set per draw (mirrored meshes) */
    orri_blend blend;
    bool no_depth_write;
    bool no_color_write; /* depth-only pass (colour write mask 0): sprite depth pre-pass, shadow casters */
    const VkSpecializationInfo *frag_spec; /* the fragment stage's specialisation constants (NULL: none) */
    const VkSpecializationInfo *vert_spec; /* the vertex stage's (NULL: none) */
    const char *label;
} orri_graphics_desc;
/* One boolean specialisation constant (constant_id 0), for frag_spec: the
 * struct holds the value its info points at, so it must outlive the call. */
typedef struct orri_spec_bool {
    VkBool32 value;
    VkSpecializationMapEntry entry;
    VkSpecializationInfo info;
} orri_spec_bool;
static inline const VkSpecializationInfo *orri_spec_bool_init(orri_spec_bool *s, bool value) {
    s->value = value ? VK_TRUE : VK_FALSE;
    s->entry = (VkSpecializationMapEntry){0, 0, sizeof s->value};
    s->info = (VkSpecializationInfo){1, &s->entry, sizeof s->value, &s->value};
    return &s->info;
}
/* Two boolean specialisation constants (constant_id 0 and 1), for either
 * stage (an id a stage does not declare is ignored). */
typedef struct orri_spec_bools {
    VkBool32 value[2];
    VkSpecializationMapEntry entry[2];
    VkSpecializationInfo info;
} orri_spec_bools;
static inline const VkSpecializationInfo *orri_spec_bools_init(orri_spec_bools *s, bool v0, bool v1) {
    s->value[0] = v0 ? VK_TRUE : VK_FALSE, s->value[1] = v1 ? VK_TRUE : VK_FALSE;
    s->entry[0] = (VkSpecializationMapEntry){0, 0, sizeof(VkBool32)};
    s->entry[1] = (VkSpecializationMapEntry){1, sizeof(VkBool32), sizeof(VkBool32)};
    s->info = (VkSpecializationInfo){2, s->entry, sizeof s->value, s->value};
    return &s->info;
}
orr_result orri_graphics_pipeline(orri_gpu *gpu, const orri_graphics_desc *d, VkPipeline *out);

#endif
