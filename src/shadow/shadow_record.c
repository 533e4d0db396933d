/* shadow_record.c — the caster pass of one map layer, recorded into the
 * frame's primary command buffer before the main pass (dynamic rendering
 * into the generator's own map, docs/architecture.md "How a new pass plugs
 * in"). Casters are the draws of the renderer's draw list whose mesh is in
 * the generator's list: their per-draw world (already uploaded for this
 * slot, eye-relative under floating origin), their vertex streams (deformed
 * ones included) and, for thin instances, every instance of the stable
 * matrix buffer, culled per draw by bounding sphere against the layer's clip
 * planes (shadow_pass.c computes the spheres). Shader-material draws cast by
 * their geometry through this depth shader (Babylon.js's default: the custom
 * material is ignored but for its world; the renderer writes their world
 * into the objects buffer too, decision 65); a blended one only with
 * transparency_shadow, as any blended caster.
 *
 * Transparency (Babylon.js _renderForShadowMap and isReady): a blended draw
 * casts only when the generator's transparency_shadow is on; a caster whose
 * material needs alpha testing — a standard material whose diffuse texture
 * has alpha (blended from it, or transparencyMode ALPHATEST), a PBR MASK
 * material with a base colour texture — draws with the alpha-tested
 * pipelines: the texture's alpha alone below the material's cutoff casts
 * nothing (Babylon's ALPHATEXTURE + ALPHATESTVALUE; the base colour factor,
 * vertex colours and PBR's texture transform are not applied, as there). */
#include <math.h>

#include "render/renderer_int.h"
#include "shadow/shadow_int.h"

static int caster_of(const orr_shadow_generator *g, uint32_t id) {
    for (uint32_t i = 0; i < g->caster_count; i++)
        if (g->casters[i] == id) return (int)i;
    return -1;
}

/* A LOD partner does not cast by itself: its source's caster draws it for
 * the instances at its level (decision 70). */
bool orri_shadow_casts(const orr_shadow_generator *g, const orri_draw *d) {
    if (d->planet || d->lod_from >= 0 || (d->transparent && !g->desc.transparency_shadow)) return false;
    return caster_of(g, d->node) >= 0;
}

/* Per-light culling, per draw: the caster's sphere against the layer's clip planes. */
static bool in_light(const orr_shadow_generator *g, int caster) {
    if (!g->spheres || (uint32_t)caster >= g->sphere_cap) return true;
    orr_dsphere sp = g->spheres[caster];
    for (int k = 0; k < 6; k++) {
        const double *p = g->planes[k];
        double len = sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
        if (p[0] * sp.center.x + p[1] * sp.center.y + p[2] * sp.center.z + p[3] < -sp.radius * len) return false;
    }
    return true;
}

/* The whole map (every layer) becomes writable before layer 0 is drawn. */
static void open_map(orr_shadow_generator *g, VkCommandBuffer cmd) {
    orri_shadow_gpu *m = &g->gpu;
    orri_memory_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
                        VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT | VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT,
                        VK_ACCESS_2_VERTEX_ATTRIBUTE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
    orri_barriers b = {.cmd = cmd};
    orri_barriers_image(
        &b, orri_barrier_image(
                m->depth.image, VK_IMAGE_ASPECT_DEPTH_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
                VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT, 0,
                VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
                VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT));
    if (m->esm[0].image)
        orri_barriers_image(&b, orri_barrier_image(m->esm[0].image, VK_IMAGE_ASPECT_COLOR_BIT,
                                                   VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                                                   VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT, 0,
                                                   VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                                                   VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT));
    orri_barriers_flush(&b);
}

static void begin_map(orr_shadow_generator *g, VkCommandBuffer cmd, uint32_t layer) {
    orri_shadow_gpu *m = &g->gpu;
    VkRenderingAttachmentInfo color = {.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
                                       .imageView = m->layers > 1 && m->esm_layer_views[layer]
                                                        ? m->esm_layer_views[layer]
                                                        : m->esm[0].view, /* none: no colour output */
                                       .imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                                       .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                       .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
                                       .clearValue.color = {{0, 0, 0, 0}}}; /* Babylon's ESM clear */
    VkRenderingAttachmentInfo depth = {.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
                                       .imageView = m->layers > 1 ? m->layer_views[layer] : m->depth.view,
                                       .imageLayout = VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
                                       .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                       .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
                                       .clearValue.depthStencil = {0.0f, 0}}; /* reversed: far */
    VkRenderingInfo ri = {.sType = VK_STRUCTURE_TYPE_RENDERING_INFO,
                          .renderArea = {{0, 0}, {m->size, m->size}},
                          .layerCount = 1,
                          .colorAttachmentCount = 1,
                          .pColorAttachments = &color,
                          .pDepthAttachment = &depth};
    vkCmdBeginRendering(cmd, &ri);
    /* Positive height: v = 0.5 · clip y + 0.5 is the texel row, as the receivers read it. */
    vkCmdSetViewport(cmd, 0, 1, &(VkViewport){0, 0, (float)m->size, (float)m->size, 0, 1});
    vkCmdSetScissor(cmd, 0, 1, &(VkRect2D){{0, 0}, {m->size, m->size}});
}

/* After the last layer: the map becomes readable by the receivers. */
static void close_map(orr_shadow_generator *g, VkCommandBuffer cmd) {
    orri_shadow_gpu *m = &g->gpu;
    orri_barriers b = {.cmd = cmd};
    orri_barriers_image(
        &b, orri_barrier_image(m->depth.image, VK_IMAGE_ASPECT_DEPTH_BIT, VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
                               VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
                               VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
                               VK_ACCESS_2_SHADER_SAMPLED_READ_BIT));
    if (m->esm[0].image)
        orri_barriers_image(
            &b,
            orri_barrier_image(m->esm[0].image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                               VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                               VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
                               VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT));
    orri_barriers_flush(&b);
}

/* The alpha-test texture and cutoff of a draw's material (NULL: casts whole). */
static orri_texture *alpha_texture(orr_engine *e, orr_scene *s, const orri_draw *d, float *cutoff) {
    orri_material *m = orri_scene_material(s, d->material);
    if (!m) return NULL;
    orri_texture *t = NULL;
    if (m->kind == ORRI_MATERIAL_STANDARD) {
        t = orri_texture_get(e, m->standard.diffuse_texture);
        if (!t || !t->has_alpha) return NULL;
        *cutoff = (float)m->standard.alpha_cutoff.value;
    } else if (m->kind == ORRI_MATERIAL_PBR && m->pbr.alpha_mode == ORR_ALPHA_MASK) {
        t = orri_texture_get(e, m->pbr.base_color_texture.texture);
        *cutoff = (float)m->pbr.alpha_cutoff.value;
    }
    return t && t->set ? t : NULL;
}

/* A soft transparent caster's alpha (Babylon.js mesh.visibility × material.alpha;
 * Orrery has no mesh visibility): the standard material's alpha, PBR's base
 * colour alpha; 1 for others. */
static float soft_alpha(orr_scene *s, const orri_draw *d) {
    orri_material *m = orri_scene_material(s, d->material);
    if (!m) return 1.0f;
    if (m->kind == ORRI_MATERIAL_STANDARD) return m->standard.alpha.set ? (float)m->standard.alpha.value : 1.0f;
    if (m->kind == ORRI_MATERIAL_PBR && m->pbr.base_color.set) return (float)m->pbr.base_color.value.a;
    return 1.0f;
}

/* One layer's recording state: what is bound. */
typedef struct layer_rec {
    orr_shadow_generator *g;
    orri_scene_gpu *sg;
    orr_scene *s;
    uint32_t slot, layer;
    VkCommandBuffer cmd;
    orri_shadow_push *p;
    VkPipeline bound;
    bool scene_set; /* set 0 is the renderer's scene set (a wrapped draw binds its own) */
} layer_rec;

/* A caster whose shader material has a ShadowDepthWrapper stage: its own
 * vertex stage, system block and user set, as the camera pass binds them
 * (the world is the camera pass's upload; instance colours are not read). */
static bool draw_wrapped(layer_rec *r, const orri_draw *ld, uint32_t li, bool soft, VkBuffer vbs[4],
                         VkDeviceSize offs[4], uint32_t nb) {
    orr_shadow_generator *g = r->g;
    orri_material *m = orri_scene_material(r->s, ld->material);
    orri_shader_gpu *sgpu = &r->sg->shaders[orri_scene_slot(ld->material)];
    const orri_shadow_wrapped *w = orri_shadow_wrapped_pipelines(g, ld->material, m, sgpu, soft);
    if (!w) return false;
    bool instanced = nb > 2;
    if (instanced && !w->pipes[soft][1]) return false;
    orri_slot *sl = &r->sg->slots[r->slot];
    VkDescriptorSet user;
    if (orri_shader_user_set(g->engine, r->sg, r->s, sl, r->slot, m, sgpu, &user) != ORR_OK) return false;
    orri_mesh_gpu *mg = &r->sg->meshes[orri_scene_slot(ld->node)];
    VkBuffer b[5] = {vbs[0], vbs[1], mg->streams[2].buffer, mg->streams[3].buffer, instanced ? vbs[2] : VK_NULL_HANDLE};
    VkDeviceSize o[5] = {0, 0, 0, 0, instanced ? offs[2] : 0};
    VkPipeline pipe = w->pipes[soft][instanced];
    if (r->bound != pipe) vkCmdBindPipeline(r->cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe), r->bound = pipe;
    uint32_t off0 = li * ORRI_SHADER_STRIDE, off1 = off0 + ORRI_SYS_BLOCK;
    vkCmdBindDescriptorSets(r->cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, w->layout, 0, 1, &sl->sys_set, 1, &off0);
    vkCmdBindDescriptorSets(r->cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, w->layout, 1, 1, &user, 1, &off1);
    r->scene_set = false;
    vkCmdPushConstants(r->cmd, w->layout, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof *r->p,
                       r->p);
    vkCmdBindVertexBuffers(r->cmd, 0, instanced ? 5 : 4, b, o);
    return true;
}

/* Draws caster `i` into the layer: its own mesh, or level `level` of it, the
 * mesh of draw `li` (its LOD partner: its geometry, material and world) over
 * the instances the culling pass placed for that level (shadow_cull.c). */
static void draw_level(layer_rec *r, uint32_t i, uint32_t li, uint32_t level) {
    orr_shadow_generator *g = r->g;
    orri_scene_gpu *sg = r->sg;
    orr_scene *s = r->s;
    orri_draw *d = &sg->draws[i], *ld = &sg->draws[li];
    orri_mesh_gpu *mg = &sg->meshes[orri_scene_slot(ld->node)];
    VkBuffer vbs[4] = {VK_NULL_HANDLE, VK_NULL_HANDLE, VK_NULL_HANDLE, VK_NULL_HANDLE};
    orri_deform_streams(mg, &vbs[0], &vbs[1]);
    uint32_t instances = 1, nb = 2, ce_index = 0;
    VkDeviceSize offs[4] = {0};
    const orri_shadow_cull_entry *ce = NULL;
    float cutoff = 0;
    orri_texture *at = ld->shader ? NULL : alpha_texture(g->engine, s, ld, &cutoff);
    bool soft = ld->transparent && g->desc.soft_transparent_shadow;
    uint32_t variant = (at ? ORRI_SHADOW_ALPHA : 0) | (soft ? ORRI_SHADOW_SOFT : 0);
    if (d->thin) {
        orri_thin_instances *t = orri_thin_of(orri_scene_node(s, d->node));
        instances = t ? t->count : 0;
        vbs[nb++] = d->thin->matrices.buffer;
        ce = orri_shadow_cull_entry_of(g, i, &ce_index);
        if (ce) vbs[nb - 1] = ce->matrices.buffer, offs[nb - 1] = (VkDeviceSize)r->layer * ce->capacity * 64;
    }
    if (!instances || !mg->index_count) return;
    r->p->object = li;
    r->p->cutoff = cutoff;
    r->p->soft = soft ? soft_alpha(s, ld) : 1.0f;
    if (!(ld->shader && draw_wrapped(r, ld, li, soft, vbs, offs, nb))) {
        if (orri_shadow_variant_pipelines(g, variant) != ORR_OK) return; /* reported when it failed */
        VkPipeline pipe = g->gpu.pipes[variant][d->thin ? 1 : 0];
        if (at) vbs[nb++] = mg->streams[2].buffer; /* UVs */
        if (r->bound != pipe) vkCmdBindPipeline(r->cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe), r->bound = pipe;
        if (!r->scene_set) {
            vkCmdBindDescriptorSets(r->cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, g->gpu.layout, 0, 1,
                                    &sg->slots[r->slot].scene_set, 0, NULL);
            r->scene_set = true;
        }
        if (at)
            vkCmdBindDescriptorSets(r->cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, g->gpu.layout, 1, 1, &at->set, 0, NULL);
        vkCmdPushConstants(r->cmd, g->gpu.layout, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0,
                           sizeof *r->p, r->p);
        vkCmdBindVertexBuffers(r->cmd, 0, nb, vbs, offs);
    }
    vkCmdBindIndexBuffer(r->cmd, mg->indices.buffer, 0, mg->index_type);
    if (ce) /* the instances culled against this layer, at this level (shadow_cull.c) */
        vkCmdDrawIndexedIndirect(r->cmd, g->gpu.cull[g->cull_slot].args.buffer,
                                 (VkDeviceSize)ORRI_SHADOW_ARG(ce_index, r->layer, level) *
                                     sizeof(VkDrawIndexedIndirectCommand),
                                 1, sizeof(VkDrawIndexedIndirectCommand));
    else
        vkCmdDrawIndexed(r->cmd, mg->index_count, instances, mg->first_index, mg->vertex_offset, 0);
}

static void draw_caster(layer_rec *r, uint32_t i) {
    uint32_t ce_index;
    const orri_shadow_cull_entry *ce = r->sg->draws[i].thin ? orri_shadow_cull_entry_of(r->g, i, &ce_index) : NULL;
    uint32_t levels = ce ? ce->levels : 1;
    for (uint32_t l = 0; l < levels; l++) draw_level(r, i, l ? ce->level_draw[l] : i, l);
}

void orri_shadow_record_layer(orr_shadow_generator *g, orri_scene_gpu *sg, orr_scene *s, uint32_t slot,
                              VkCommandBuffer cmd, uint32_t layer, orri_shadow_push *p) {
    orri_cmd_label_begin(&g->engine->gpu, cmd, "shadow map");
    if (layer == 0) open_map(g, cmd);
    begin_map(g, cmd, layer);
    layer_rec r = {.g = g, .sg = sg, .s = s, .slot = slot, .layer = layer, .cmd = cmd, .p = p};
    for (uint32_t i = 0; i < sg->draw_count; i++) {
        orri_draw *d = &sg->draws[i];
        int c = orri_shadow_casts(g, d) ? caster_of(g, d->node) : -1;
        if (c < 0 || !in_light(g, c)) continue;
        g->drawn++;
        draw_caster(&r, i);
    }
    vkCmdEndRendering(cmd);
    if (layer + 1 == g->gpu.layers) {
        close_map(g, cmd);
        orri_shadow_blur_record(g, cmd); /* blurred ESM */
    }
    orri_cmd_label_end(&g->engine->gpu, cmd);
}
