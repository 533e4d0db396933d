/* sprite_gpu.c — the sprites' render plugin: one per scene (installed with
 * the scene's first manager, removed with its last), drawing every manager
 * at ORRI_STAGE_AFTER_OPAQUE (after opaque meshes, before transparent ones,
 * as Babylon.js renders sprites).
 *
 * Per manager and frame slot: a host-visible storage buffer of packed sprites
 * (orri_gpu_sprite, grown to a power of two), the indirect draw arguments
 * (instance count written by the upload, so the secondary is recorded only
 * when a buffer or the sheet changes) and a descriptor set (frame block,
 * sprites, sheet). Default (Babylon.js's creation order): the records are
 * camera-independent (pack.c; the vertex shader subtracts the eye), one per
 * slot, and a frame slot rewrites only the sprites changed since it was last
 * written (a dirty range), so a camera move uploads nothing but the frame
 * block. depth_sort (opt-in) re-packs every visible sprite back to front
 * whenever the camera moves (orri_sprite_pack_sorted: anchors through the eye
 * seam for the key).
 *
 * GPU culling (gpu_culling, default on; decision 53): before the render pass
 * sprite_cull.comp tests every record against the frustum and compacts the
 * visible ones' indices in the buffer's order (slot order, or back to front
 * with depth_sort), writing the draw's instance count; the draws then read
 * sprites[visible[instance]]. Off: every record is drawn and off-screen
 * quads are left to the rasterizer's clipping.
 *
 * Draws: FACING managers record a depth pre-pass (alpha test at the cutoff,
 * no colour writes) and a blended colour pass (ALPHA_COMBINE, no depth
 * writes, depth test GREATER_OR_EQUAL: Babylon.js's LEQUAL in reverse-Z);
 * CUTOUT managers one opaque pass with the alpha test and depth writes.
 * Pipelines live in sprite_pipe.c.
 */
#include <string.h>

#include "orrery/handedness.h"
#include "sprite/sprite_gpu_int.h"

/* Babylon.js flips invertU in right-handed scenes; right-handed views look down −z (pack.c). */
static const bool RIGHT_HANDED = ORR_RIGHT_HANDED != 0;

static orri_sprite_shared *shared_of(orr_scene *s) {
    for (orr_sprite_manager *m = s->sprites; m; m = m->next)
        if (m->gpu) return m->gpu->sh;
    return NULL;
}

static orr_result plugin_update(orr_engine *e, orr_scene *s, const orri_view *v, uint32_t slot, VkCommandBuffer primary,
                                void *state, bool *rerecord);
static orr_result plugin_record(orr_engine *e, orr_scene *s, const orri_view *v, uint32_t slot, int stage,
                                VkCommandBuffer cmd, void *state);

static void plugin_release(orr_engine *e, orr_scene *s, void *state) {
    (void)s;
    orri_sprite_shared_release(e, state);
}

static orr_result shared_get(orr_sprite_manager *m, orri_sprite_shared **out) {
    orr_scene *s = m->scene;
    orr_engine *e = orr_scene_engine(s);
    *out = shared_of(s);
    if (*out) return ORR_OK;
    orri_sprite_shared *sh = NULL;
    orr_result r = orri_sprite_shared_create(e, &sh);
    orri_render_plugin p = {
        .name = "sprites", .state = sh, .update = plugin_update, .record = plugin_record, .release = plugin_release};
    if (r == ORR_OK) r = orri_scene_add_plugin(e, s, &p, &sh->plugin);
    if (r != ORR_OK) {
        if (sh) orri_sprite_shared_release(e, sh);
        return r;
    }
    *out = sh;
    return ORR_OK;
}

static orr_result manager_pool(orr_engine *e, orri_sprite_gpu *g) {
    uint32_t n = ORRI_MAX_FRAMES;
    VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, n},
                                    {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 5 * n},
                                    {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, n}};
    VkDescriptorPoolCreateInfo pi = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = n, .poolSizeCount = 3, .pPoolSizes = sizes};
    orr_result r = orri_vk_check(&e->gpu, vkCreateDescriptorPool(e->gpu.device, &pi, NULL, &g->pool), "sprite pool");
    for (uint32_t i = 0; r == ORR_OK && i < e->gpu.frame_count; i++) {
        VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                          .descriptorPool = g->pool,
                                          .descriptorSetCount = 1,
                                          .pSetLayouts = &g->sh->set_layout};
        r = orri_vk_check(&e->gpu, vkAllocateDescriptorSets(e->gpu.device, &ai, &g->sets[i]), "sprite set");
        if (r == ORR_OK)
            r = orri_buffer_create(&e->gpu, sizeof(VkDrawIndirectCommand),
                                   VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                   ORRI_MEM_HOST, "sprite draw arguments", &g->indirect[i]);
        if (r == ORR_OK) memcpy(g->indirect[i].mapped, &(VkDrawIndirectCommand){6, 0, 0, 0}, 16);
    }
    return r;
}

orr_result orri_sprite_gpu_attach(orr_sprite_manager *m) {
    orr_engine *e = orr_scene_engine(m->scene);
    orri_sprite_gpu *g = orri_alloc(&e->host.ctx.allocator, sizeof *g);
    if (!g) return orri_fail(&e->host.ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "sprites '%s'", m->label);
    orr_result r = shared_get(m, &g->sh);
    if (r == ORR_OK) r = manager_pool(e, g);
    if (r == ORR_OK) {
        g->sh->users++;
        g->attached = true;
        m->gpu = g;
        return ORR_OK;
    }
    m->gpu = g;
    orri_sprite_gpu_detach(m);
    return r;
}

void orri_sprite_gpu_detach(orr_sprite_manager *m) {
    orr_engine *e = orr_scene_engine(m->scene);
    orri_sprite_gpu *g = m->gpu;
    m->gpu = NULL;
    for (uint32_t i = 0; i < ORRI_MAX_FRAMES; i++) {
        orri_buffer_destroy_deferred(&e->gpu, &g->sprites[i]);
        orri_buffer_destroy_deferred(&e->gpu, &g->indirect[i]);
        orri_buffer_destroy_deferred(&e->gpu, &g->visible[i]);
        orri_buffer_destroy_deferred(&e->gpu, &g->ranks[i]);
        orri_buffer_destroy_deferred(&e->gpu, &g->sums[i]);
    }
    if (g->pool) orri_delete_push(&e->gpu, &(orri_delete_item){.kind = ORRI_DEL_DESCRIPTOR_POOL, .u.pool = g->pool});
    orri_sprite_shared *sh = g->sh;
    bool counted = g->attached;
    orri_free(&e->host.ctx.allocator, g);
    if (!sh) return;
    if (counted) sh->users--;
    /* The last manager of the scene takes the plugin away (its release frees sh). */
    if (!shared_of(m->scene) && sh->users == 0) orri_scene_remove_plugin(e, m->scene, sh->plugin);
}

uint32_t orri_sprite_gpu_visible_count(const orr_sprite_manager *m) { return m->gpu ? m->gpu->visible_count : 0; }

/* ---- per frame ------------------------------------------------------------------ */

typedef struct anchor_ctx {
    const orr_engine *e;
    const orri_view *v;
} anchor_ctx;

static orr_dvec3 anchor(const void *user, orr_wpos p) {
    const anchor_ctx *a = user;
    return orri_eye_wpos(a->e, a->v, p); /* the one eye seam */
}

/* Sprites buffer of slot `i` for at least `n` sprites; true when replaced. */
static orr_result ensure_buffer(orr_engine *e, orri_sprite_gpu *g, uint32_t i, uint32_t n, bool *replaced) {
    if (g->sprites[i].buffer && g->capacity[i] >= n) return ORR_OK;
    uint32_t cap = 64;
    while (cap < n) cap *= 2;
    orri_buffer_destroy_deferred(&e->gpu, &g->sprites[i]);
    orr_result r = orri_buffer_create(&e->gpu, (VkDeviceSize)cap * sizeof(orri_gpu_sprite),
                                      VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, ORRI_MEM_HOST, "sprites", &g->sprites[i]);
    if (r != ORR_OK) return r;
    g->capacity[i] = cap;
    *replaced = true;
    return ORR_OK;
}

/* The cull pass's buffers of slot `i`, sized as its sprites buffer; true when replaced. */
static orr_result ensure_cull_buffers(orr_engine *e, orri_sprite_gpu *g, uint32_t i, bool *replaced) {
    uint32_t cap = g->capacity[i];
    if (g->visible[i].buffer && g->cull_capacity[i] == cap) return ORR_OK;
    orri_buffer b[3] = {0};
    VkDeviceSize size[3] = {(VkDeviceSize)cap * 4, (VkDeviceSize)cap * 4,
                            (VkDeviceSize)((cap + ORRI_SPRITE_CULL_GROUP - 1) / ORRI_SPRITE_CULL_GROUP) * 4};
    const char *label[3] = {"visible sprites", "sprite cull ranks", "sprite cull group sums"};
    orr_result r = ORR_OK;
    for (int k = 0; k < 3 && r == ORR_OK; k++)
        r = orri_buffer_create(&e->gpu, size[k], VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, ORRI_MEM_DEVICE, label[k], &b[k]);
    if (r != ORR_OK) {
        for (int k = 0; k < 3; k++) orri_buffer_destroy_now(&e->gpu, &b[k]);
        return r;
    }
    orri_buffer *dst[3] = {&g->visible[i], &g->ranks[i], &g->sums[i]};
    for (int k = 0; k < 3; k++) orri_buffer_destroy_deferred(&e->gpu, dst[k]), *dst[k] = b[k];
    g->cull_capacity[i] = cap;
    *replaced = true;
    return ORR_OK;
}

static void write_set(orr_engine *e, orr_sprite_manager *m, uint32_t i, bool culled) {
    orri_sprite_gpu *g = m->gpu;
    orri_texture *t = orri_texture_get(e, m->desc.texture);
    if (!t) t = orri_texture_fallback(e, false);
    VkDescriptorBufferInfo ub = {g->sh->ubo[i].buffer, 0, sizeof(orri_sprite_frame_block)};
    VkDescriptorBufferInfo sb = {g->sprites[i].buffer, 0, VK_WHOLE_SIZE};
    VkDescriptorImageInfo im = {t->sampler, t->image.view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
    /* The cull bindings; without culling nothing reads them: the sprites buffer stands in. */
    VkBuffer cb[4] = {g->sprites[i].buffer, g->sprites[i].buffer, g->sprites[i].buffer, g->sprites[i].buffer};
    if (culled) cb[0] = g->visible[i].buffer, cb[1] = g->ranks[i].buffer, cb[2] = g->sums[i].buffer;
    if (culled) cb[3] = g->indirect[i].buffer;
    VkDescriptorBufferInfo cbi[4];
    VkWriteDescriptorSet w[7] = {
        {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
         .dstSet = g->sets[i],
         .dstBinding = 0,
         .descriptorCount = 1,
         .descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
         .pBufferInfo = &ub},
        {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
         .dstSet = g->sets[i],
         .dstBinding = 1,
         .descriptorCount = 1,
         .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
         .pBufferInfo = &sb},
        {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
         .dstSet = g->sets[i],
         .dstBinding = 2,
         .descriptorCount = 1,
         .descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
         .pImageInfo = &im},
    };
    for (uint32_t k = 0; k < 4; k++) {
        cbi[k] = (VkDescriptorBufferInfo){cb[k], 0, VK_WHOLE_SIZE};
        w[3 + k] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                          .dstSet = g->sets[i],
                                          .dstBinding = 3 + k,
                                          .descriptorCount = 1,
                                          .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                          .pBufferInfo = &cbi[k]};
    }
    vkUpdateDescriptorSets(e->gpu.device, 7, w, 0, NULL);
    g->written_image[i] = t->image.image;
    g->written_buffer[i] = g->sprites[i].buffer;
    g->culled[i] = culled;
}

static void widen(orri_sprite_range *r, orri_sprite_range d) {
    if (r->lo >= r->hi) {
        *r = d;
        return;
    }
    if (d.lo < r->lo) r->lo = d.lo;
    if (d.hi > r->hi) r->hi = d.hi;
}

/* depth_sort (opt-in): every visible sprite re-packed back to front when the
 * camera, a sprite or the floating-origin mode changed. */
static orr_result update_sorted(orr_engine *e, orr_sprite_manager *m, const orri_view *v, uint32_t slot,
                                bool replaced) {
    orri_sprite_gpu *g = m->gpu;
    uint64_t key = orri_sprite_mix(orri_sprite_mix(v->camera_version, m->version), (uint64_t)v->fo + 1);
    if (!replaced && g->key[slot] == key) return ORR_OK; /* records[slot] stands */
    anchor_ctx ac = {e, v};
    orri_sprite_frame f = {anchor, &ac, v->view, RIGHT_HANDED};
    uint32_t n = 0;
    orr_result r = orri_sprite_pack_sorted(m, &f, g->sprites[slot].mapped, &n);
    if (r != ORR_OK) return r;
    g->records[slot] = n;
    g->key[slot] = key;
    e->gpu.bytes_uploaded += (uint64_t)n * sizeof(orri_gpu_sprite);
    return ORR_OK;
}

/* The draw's instance count: the cull pass writes it (GPU culling), else
 * every record is drawn. */
static void set_count(orri_sprite_gpu *g, uint32_t slot) {
    if (!g->culled[slot]) {
        ((VkDrawIndirectCommand *)g->indirect[slot].mapped)->instanceCount = g->records[slot];
        g->visible_count = g->records[slot];
    }
    g->counted[slot] = g->culled[slot];
}

static orr_result update_manager(orr_engine *e, orr_sprite_manager *m, const orri_view *v, uint32_t slot,
                                 bool *rerecord) {
    orri_sprite_gpu *g = m->gpu;
    /* The slot's fence has signalled: its last culled count is readable (decision 19's pattern). */
    if (g->counted[slot]) g->visible_count = ((const VkDrawIndirectCommand *)g->indirect[slot].mapped)->instanceCount;
    if (m->dirty.lo < m->dirty.hi) { /* every frame slot takes the changed slots once */
        for (uint32_t i = 0; i < e->gpu.frame_count; i++) widen(&g->dirty[i], m->dirty);
        m->dirty = (orri_sprite_range){0, 0};
    }
    bool replaced = false, cull_replaced = false, cull = m->desc.gpu_culling.value;
    orr_result r = ensure_buffer(e, g, slot, m->count, &replaced);
    if (r == ORR_OK && cull) r = ensure_cull_buffers(e, g, slot, &cull_replaced);
    if (r != ORR_OK) return r;
    orri_texture *t = orri_texture_get(e, m->desc.texture);
    VkImage img = (t ? t : orri_texture_fallback(e, false))->image.image;
    if (replaced || cull_replaced || cull != g->culled[slot] || img != g->written_image[slot] ||
        g->written_buffer[slot] != g->sprites[slot].buffer) {
        write_set(e, m, slot, cull);
        *rerecord = true;
    }
    if (m->desc.kind == ORR_SPRITE_FACING && m->desc.depth_sort.value) {
        r = update_sorted(e, m, v, slot, replaced);
        if (r == ORR_OK) set_count(g, slot);
        return r;
    }
    /* Default: camera-independent records in slot order; only changed slots are written. */
    orri_sprite_range d = replaced ? (orri_sprite_range){0, m->count} : g->dirty[slot];
    if (d.hi > m->count) d.hi = m->count;
    if (d.lo < d.hi) {
        orri_sprite_write_range(m, RIGHT_HANDED, g->sprites[slot].mapped, d.lo, d.hi);
        e->gpu.bytes_uploaded += (uint64_t)(d.hi - d.lo) * sizeof(orri_gpu_sprite);
    }
    g->dirty[slot] = (orri_sprite_range){0, 0};
    g->records[slot] = m->count;
    set_count(g, slot);
    return ORR_OK;
}

static orr_result plugin_update(orr_engine *e, orr_scene *s, const orri_view *v, uint32_t slot, VkCommandBuffer primary,
                                void *state, bool *rerecord) {
    orri_sprite_shared_frame(e, state, s, v, slot);
    for (orr_sprite_manager *m = s->sprites; m; m = m->next) {
        if (!m->gpu) continue;
        orr_result r = update_manager(e, m, v, slot, rerecord);
        if (r != ORR_OK) return r;
    }
    orri_sprite_cull_dispatch(e, state, s, slot, primary);
    return ORR_OK;
}

static orr_result plugin_record(orr_engine *e, orr_scene *s, const orri_view *v, uint32_t slot, int stage,
                                VkCommandBuffer cmd, void *state) {
    (void)v;
    if (stage != ORRI_STAGE_AFTER_OPAQUE) return ORR_OK;
    orri_cmd_label_begin(&e->gpu, cmd, "sprites");
    for (orr_sprite_manager *m = s->sprites; m; m = m->next)
        if (m->gpu) orri_sprite_record_manager(e, state, m, slot, cmd);
    orri_cmd_label_end(&e->gpu, cmd);
    return ORR_OK;
}
