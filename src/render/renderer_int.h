/* renderer_int.h — the renderer's stages, shared by its files (src/render):
 *
 *   scene_gpu.c   per-scene GPU state: frame slots, mesh records, release
 *   geometry_gpu.c  shared geometries' GPU copies (one per share, reference counted)
 *   draw_list.c   the structure key and the draw list rebuilt when it changes
 *   update.c      version-gated uploads into the frame slot (scene block,
 *                 per-draw objects, shader blocks), visible counts
 *   cull.c        thin instances on the GPU: uploads, the culling pass
 *   record.c      secondary command buffers, re-recorded or replayed
 *   pbr_*.c       the PBR material kind: pipelines, descriptor sets, per-draw
 *                 block and vertex streams (declared in render_int.h)
 *   crowd_gpu.c   skinned crowds: culling and skinning passes, their one draw
 *                 (declared in render_int.h)
 *   renderer.c    render plugins and the primary pass (orri_render_scene)
 *
 * A frame runs them in that order (render_int.h has the flow). Only these
 * files include this header. */
#ifndef ORRI_RENDERER_INT_H
#define ORRI_RENDERER_INT_H

#include "render/render_int.h"

static inline uint64_t orri_mix(uint64_t h, uint64_t v) {
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h * 0x100000001b3ull;
}

/* scene_gpu.c */
/* Drops the record's deformation state and its geometry reference. */
void orri_mesh_gpu_release(orr_engine *e, orri_scene_gpu *sg, orri_mesh_gpu *m);
orr_result orri_scene_gpu_get(orr_engine *e, orr_scene *s, orri_scene_gpu **out);

/* geometry_gpu.c: the GPU copy of mesh `n`'s shared geometry for record
 * `mg` (uploaded into `batch` unless another record already has it). */
orr_result orri_geometry_gpu_acquire(orr_engine *e, VkCommandBuffer batch, orri_scene_gpu *sg, orri_node *n,
                                     orri_mesh_gpu *mg);
void orri_geometry_gpu_drop(orr_engine *e, orri_scene_gpu *sg, orri_mesh_gpu *mg);
void orri_geometry_gpu_deinit(orr_engine *e, orri_scene_gpu *sg); /* scene release: the table itself */

/* draw_list.c */
uint64_t orri_structure_key(orr_engine *e, orr_scene *s);
orr_result orri_draw_list_rebuild(orr_engine *e, orri_scene_gpu *sg, orr_scene *s);

/* update.c */
void orri_update_scene_ubo(orr_engine *e, orr_scene *s, orri_slot *sl, const orri_view *fv);
orr_result orri_slot_ensure_capacity(orr_engine *e, orri_scene_gpu *sg, orri_slot *sl);
/* Rewrites the slot's shadow bindings when a generator changed them (the slot re-records). */
void orri_sync_shadow_bindings(orr_engine *e, orri_scene_gpu *sg, orri_slot *sl);
orr_result orri_shader_user_set(orr_engine *e, orri_scene_gpu *sg, orr_scene *s, orri_slot *sl, uint32_t slot_index,
                                orri_material *m, orri_shader_gpu *g, VkDescriptorSet *out);
void orri_update_draws(orr_engine *e, orri_scene_gpu *sg, orr_scene *s, orri_slot *sl, const orri_view *fv);
void orri_collect_visible(orr_engine *e, const orri_slot *sl);
/* Decision 82: the last counts of shared LOD buckets (cull.c); with
 * orri_collect_visible, before the slot's buffers may be replaced. */
void orri_collect_lod_counts(orr_engine *e, orri_scene_gpu *sg);

/* cull.c */
uint32_t orri_cull_lod_params(const orr_engine *e, const orri_view *fv, const orri_draw *d,
                              const orri_thin_instances *t, orri_gpu_cull *c);
orr_result orri_sync_instances(orr_engine *e, orri_scene_gpu *sg, orr_scene *s, orri_slot *sl, uint32_t slot,
                               const orri_view *fv, VkCommandBuffer cmd);

/* occlusion.c — two-phase occlusion culling of thin instances and meshes. */
bool orri_draw_occludes(orr_scene *s, const orri_draw *d); /* an occlusion-culled draw (or its LOD partner) */
/* Per draw, before phase 1: pipelines, visibility words, late arguments, the
 * draw's set bindings 9-11 (its culling set was made with the occlusion layout). */
orr_result orri_occlusion_prepare(orr_engine *e, orri_scene_gpu *sg, orri_slot *sl, uint32_t slot, orri_thin_gpu *g,
                                  orri_thin_instances *t, VkCommandBuffer cmd);
/* The layout and pool of an occlusion-culled draw's culling sets (makes the
 * engine's occlusion state on first use). */
orr_result orri_occlusion_set_source(orr_engine *e, VkDescriptorSetLayout *layout, VkDescriptorPool *pool);
void orri_occlusion_dispatch(orr_engine *e, orri_scene_gpu *sg, orr_scene *s, uint32_t slot, uint32_t draw,
                             uint32_t phase, const orri_view *fv, VkCommandBuffer cmd);
/* Between the two render passes: the pyramid from the depth target, the late
 * arguments, phase 2, barriers back to rendering. */
orr_result orri_occlusion_late(orr_engine *e, orri_scene_gpu *sg, orr_scene *s, orri_slot *sl, uint32_t slot,
                               const orri_view *fv, VkCommandBuffer cmd);
/* Individual meshes (decision 69): the slot's set, late arguments and the
 * scene's words before phase 1 (counts the draws into sl->occl_draws); one
 * dispatch of shaders/mesh_occlusion.comp over the draws (phase 1 or 2); the
 * scene's sets and buffers through the delete queue. */
orr_result orri_mesh_occlusion_prepare(orr_engine *e, orri_scene_gpu *sg, orri_slot *sl, VkCommandBuffer cmd);
void orri_mesh_occlusion_dispatch(orr_engine *e, orri_scene_gpu *sg, orri_slot *sl, uint32_t phase, const orri_view *fv,
                                  VkCommandBuffer cmd);
void orri_mesh_occlusion_release(orr_engine *e, orri_scene_gpu *sg);
orr_result orri_occlusion_late_cmd(orr_engine *e, orri_scene_gpu *sg, orri_slot *sl); /* the late secondary */

/* occlusion.c: binding 0 of `set` the depth target (nearest), binding 1 `buffer`. */
orr_result orri_write_depth_set(orr_engine *e, VkDescriptorSet set, VkBuffer buffer);
/* depth_bounds.c: after the scene's last pass (depth stored, still an
 * attachment), when a plugin asked: the reduction into the slot's entry. */
orr_result orri_depth_bounds_dispatch(orr_engine *e, orri_slot *sl, uint32_t slot, const orri_view *fv,
                                      VkCommandBuffer cmd);

/* record.c */
void orri_sort_transparent(orri_scene_gpu *sg);
orr_result orri_prepare_passes(orr_engine *e, orri_scene_gpu *sg, orr_scene *s, orri_slot *sl, uint32_t slot_index);

#endif
