/* pbr_draw.c — PBR draws in the renderer: the material's texture set (set 2,
 * shared by materials with the same textures), the scene's IBL set (set 3),
 * the per-draw block (gpu_types.h ORRI_PBR_FIELDS, in the frame slot's
 * shader-block buffer, read through set 1: at the draw's dynamic offset, or
 * by object index in a multi-draw run, decision 83) and
 * the extra vertex streams (tangents, second UV set).
 *
 * Invariant: descriptor sets are written once, when allocated; a change of
 * texture (or of the environment) allocates a new set at the draw-list
 * rebuild and queues the old one for deletion, so nothing in flight ever
 * reads a set that changed. Texture changes reach the rebuild through the
 * structure key (the material's structure_version, the store's `destroyed`
 * counter, the scene's environment texture).
 *
 * IBL data comes from the texture module (orri_texture_ibl, orri_brdf_lut:
 * texture_int.h): pre-scaled harmonics evaluated as Babylon.js does, the
 * BRDF table in Babylon's layout, the cube sampled at Babylon's lod
 * log2(size · alphaG) · lodGenerationScale + offset (pbr_pack.c).
 */
#include <math.h>
#include <string.h>

#include "render/renderer_int.h"

typedef struct orri_pbr_gpu {
    uint32_t material; /* owner id; 0 = empty */
    uint64_t key;      /* the image views the set was written with */
    VkDescriptorSet set;
    uint32_t shared; /* its entry in sg->pbr_sets */
} orri_pbr_gpu;

/* Materials with the same textures (views and samplers) share one set 2
 * (decision 83): their draws then bind the same sets and merge into
 * multi-draw runs; what differs between them is in their PBR blocks. */
typedef struct orri_pbr_set {
    VkDescriptorSet set; /* VK_NULL_HANDLE: a free entry */
    VkImageView views[ORRI_PBR_SLOTS];
    VkSampler samplers[ORRI_PBR_SLOTS];
    uint32_t refs;
} orri_pbr_set;

static const orr_texture_slot *slot_of(const orr_pbr_material_desc *p, int k) {
    const orr_texture_slot *s[ORRI_PBR_SLOTS] = {&p->base_color_texture, &p->metallic_roughness_texture,
                                                 &p->normal_texture, &p->occlusion_texture, &p->emissive_texture};
    return s[k];
}

static void free_set(orr_engine *e, orri_scene_gpu *sg, VkDescriptorSet *set) {
    if (*set)
        orri_delete_push(&e->gpu, &(orri_delete_item){.kind = ORRI_DEL_DESCRIPTOR_SET, .u.set = {sg->desc_pool, *set}});
    *set = VK_NULL_HANDLE;
}

/* A new set of `layout`, its combined image samplers at binding 0 (array of
 * `count`) or bindings 0 .. count − 1 (`array` false). */
static orr_result write_new_set(orr_engine *e, orri_scene_gpu *sg, VkDescriptorSetLayout layout,
                                const VkDescriptorImageInfo *img, uint32_t count, bool array, VkDescriptorSet *out) {
    VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                      .descriptorPool = sg->desc_pool,
                                      .descriptorSetCount = 1,
                                      .pSetLayouts = &layout};
    orr_result r = orri_vk_check(&e->gpu, vkAllocateDescriptorSets(e->gpu.device, &ai, out), "PBR descriptor set");
    if (r != ORR_OK) return r;
    VkWriteDescriptorSet w[ORRI_PBR_SLOTS];
    for (uint32_t i = 0; i < count; i++)
        w[i] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                      .dstSet = *out,
                                      .dstBinding = array ? 0 : i,
                                      .dstArrayElement = array ? i : 0,
                                      .descriptorCount = 1,
                                      .descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
                                      .pImageInfo = &img[i]};
    vkUpdateDescriptorSets(e->gpu.device, count, w, 0, NULL);
    return ORR_OK;
}

static orr_result grow(orr_engine *e, orri_scene_gpu *sg, uint32_t need) {
    if (sg->pbr_cap >= need) return ORR_OK;
    uint32_t n = sg->pbr_cap ? sg->pbr_cap : 16;
    while (n < need) n *= 2;
    orri_pbr_gpu *p = orri_realloc(&e->host.ctx.allocator, sg->pbr, (size_t)n * sizeof *p);
    if (!p) return orri_fail(&e->host.ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "PBR material sets");
    memset(p + sg->pbr_cap, 0, (size_t)(n - sg->pbr_cap) * sizeof *p);
    sg->pbr = p, sg->pbr_cap = n;
    return ORR_OK;
}

/* A material's hold on its shared set ends; the set goes with the last. */
static void release_shared(orr_engine *e, orri_scene_gpu *sg, orri_pbr_gpu *g) {
    if (g->set) {
        orri_pbr_set *ps = &sg->pbr_sets[g->shared];
        if (--ps->refs == 0) free_set(e, sg, &ps->set);
    }
    g->set = VK_NULL_HANDLE;
}

/* The set of textures `t`: an existing one with the same views and samplers,
 * or a new one (in a free entry). */
static orr_result acquire_shared(orr_engine *e, orri_scene_gpu *sg, orri_texture *const *t, orri_pbr_gpu *g) {
    uint32_t free_at = UINT32_MAX;
    for (uint32_t i = 0; i < sg->pbr_set_count; i++) {
        orri_pbr_set *ps = &sg->pbr_sets[i];
        if (!ps->set) {
            if (free_at == UINT32_MAX) free_at = i;
            continue;
        }
        bool same = true;
        for (int k = 0; k < ORRI_PBR_SLOTS && same; k++)
            same = ps->views[k] == t[k]->image.view && ps->samplers[k] == t[k]->sampler;
        if (same) {
            ps->refs++, g->set = ps->set, g->shared = i;
            return ORR_OK;
        }
    }
    if (free_at == UINT32_MAX) {
        if (sg->pbr_set_count == sg->pbr_set_cap) {
            uint32_t n = sg->pbr_set_cap ? 2 * sg->pbr_set_cap : 16;
            orri_pbr_set *p = orri_realloc(&e->host.ctx.allocator, sg->pbr_sets, (size_t)n * sizeof *p);
            if (!p) return orri_fail(&e->host.ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "PBR texture sets");
            sg->pbr_sets = p, sg->pbr_set_cap = n;
        }
        free_at = sg->pbr_set_count;
    }
    orri_pbr_set ps = {.refs = 1};
    VkDescriptorImageInfo img[ORRI_PBR_SLOTS];
    for (int k = 0; k < ORRI_PBR_SLOTS; k++)
        img[k] = (VkDescriptorImageInfo){t[k]->sampler, t[k]->image.view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
    orr_result r = write_new_set(e, sg, e->pbr.tex_layout, img, ORRI_PBR_SLOTS, true, &ps.set);
    if (r != ORR_OK) return r;
    for (int k = 0; k < ORRI_PBR_SLOTS; k++) ps.views[k] = t[k]->image.view, ps.samplers[k] = t[k]->sampler;
    sg->pbr_sets[free_at] = ps;
    if (free_at == sg->pbr_set_count) sg->pbr_set_count++;
    g->set = ps.set, g->shared = free_at;
    return ORR_OK;
}

/* The material's set 2, (re)chosen when its textures changed. */
static orr_result material_set(orr_engine *e, orri_scene_gpu *sg, orr_scene *s, uint32_t id, orri_material *m,
                               VkDescriptorSet *out) {
    orr_result r = grow(e, sg, orri_scene_material_slots(s));
    if (r != ORR_OK) return r;
    orri_pbr_gpu *g = &sg->pbr[orri_scene_slot(id)];
    orri_texture *t[ORRI_PBR_SLOTS];
    uint64_t key = 1;
    for (int k = 0; k < ORRI_PBR_SLOTS; k++) {
        t[k] = orri_texture_get(e, slot_of(&m->pbr, k)->texture);
        if (!t[k] || t[k]->image.layers != 1) t[k] = orri_texture_fallback(e, false);
        key = orri_mix(orri_mix(key, (uint64_t)(uintptr_t)t[k]->image.view), (uint64_t)(uintptr_t)t[k]->sampler);
    }
    if (g->material == id && g->key == key && g->set) return *out = g->set, ORR_OK;
    release_shared(e, sg, g);
    g->material = 0;
    r = acquire_shared(e, sg, t, g);
    if (r != ORR_OK) return r;
    g->material = id, g->key = key;
    return *out = g->set, ORR_OK;
}

/* The scene's set 3: environment cube (white fallback) and BRDF table. The
 * cube is read through orri_sampler_cube_lod, not the texture's sampler:
 * every lookup in pbr.frag has an explicit lod (decision 84). */
static orr_result ibl_set(orr_engine *e, orri_scene_gpu *sg, orr_scene *s) {
    orri_ibl ibl;
    orr_result r = orri_texture_ibl(e, s->environment_texture, &ibl);
    if (r != ORR_OK) return r;
    orri_texture *cube = ibl.cube, *lut = orri_brdf_lut(e);
    if (!lut) lut = orri_texture_fallback(e, false);
    uint64_t key = orri_mix((uint64_t)(uintptr_t)cube->image.view, (uint64_t)(uintptr_t)lut->image.view);
    if (sg->ibl_set && sg->ibl_key == key) return ORR_OK;
    free_set(e, sg, &sg->ibl_set);
    VkSampler trilinear;
    r = orri_sampler_cube_lod(&e->gpu, &trilinear);
    if (r != ORR_OK) return r;
    const VkImageLayout ro = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
    VkDescriptorImageInfo img[2] = {{trilinear, cube->image.view, ro}, {lut->sampler, lut->image.view, ro}};
    r = write_new_set(e, sg, e->pbr.ibl_layout, img, 2, false, &sg->ibl_set);
    if (r != ORR_OK) return r;
    sg->ibl_key = key;
    return ORR_OK;
}

orr_result orri_pbr_add_draw(orr_engine *e, orri_scene_gpu *sg, orr_scene *s, orri_node *n, orri_material *m,
                             orri_draw *d) {
    (void)n;
    const orr_pbr_material_desc *p = &m->pbr;
    d->pbr = true;
    d->transparent = p->alpha_mode == ORR_ALPHA_BLEND;
    d->cull_back = !p->double_sided;
    d->layout = e->pbr.layout;
    orr_result r = material_set(e, sg, s, d->material, m, &d->texture_set);
    if (r == ORR_OK) r = ibl_set(e, sg, s);
    return r;
}

void orri_pbr_release_sets(orr_engine *e, orri_scene_gpu *sg, orr_scene *s, bool all) {
    for (uint32_t i = 0; i < sg->pbr_cap; i++) {
        orri_pbr_gpu *g = &sg->pbr[i];
        if (!g->material || (!all && orri_scene_material(s, g->material))) continue;
        release_shared(e, sg, g);
        memset(g, 0, sizeof *g);
    }
    if (all) {
        free_set(e, sg, &sg->ibl_set);
        orri_free(&e->host.ctx.allocator, sg->pbr);
        sg->pbr = NULL, sg->pbr_cap = 0;
        orri_free(&e->host.ctx.allocator, sg->pbr_sets);
        sg->pbr_sets = NULL, sg->pbr_set_count = sg->pbr_set_cap = 0;
    }
}
