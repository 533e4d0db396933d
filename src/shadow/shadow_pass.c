/* shadow_pass.c — the generator's render-plugin update: which light slot the
 * light has this frame, the light matrices in the upload frame (cached,
 * keyed on the camera's identity + version under floating origin, the
 * light, the casters and the parameters: seeds/000's lightFoVersion rule),
 * the light slot's shadow record, and the caster pass.
 *
 * The upload frame: every position (light, caster box corners) goes through
 * the renderer's eye seam (orri_eye_point) in float64, so under floating
 * origin the view and projection are built eye-relative and match the
 * eye-relative per-draw worlds of casters and receivers; nothing large ever
 * reaches float32. The debug control (debug_absolute_matrices) builds them
 * from absolute positions and hands the eye to the GPU as a float32 offset
 * instead, as an engine without this path would. */
#include <math.h>
#include <string.h>

#include "orrery/instances.h"
#include "render/renderer_int.h"
#include "shadow/shadow_int.h"

/* The light's index in the scene block (the first four enabled lights), -1: none. */
int orri_shadow_light_slot(orr_scene *s, uint32_t light) {
    int k = 0;
    for (orri_node_iter it = orri_scene_lights(s); k < ORRI_MAX_LIGHTS && orri_node_next(&it);) {
        if (!orri_node_light(it.node)->enabled) continue;
        if (it.id == light) return k;
        k++;
    }
    return -1;
}

static orr_dvec3 frame_point(const orr_shadow_generator *g, orr_engine *e, const orri_view *v, orr_dvec3 p,
                             orr_cell3 cell) {
    if (!g->desc.debug_absolute_matrices) return orri_eye_point(e, v, p, cell);
    return orr_wpos_to_dvec3((orr_wpos){cell, p});
}

/* Babylon's shadowMinZ / shadowMaxZ defaults: the active camera's planes. */
static void depth_range(const orr_shadow_generator *g, const orri_view *v, double *n, double *f) {
    const orri_camera *c = orri_node_camera(v->camera);
    double cn = c->znear > 0 ? c->znear : 1.0, cf = c->zfar > 0 && isfinite(c->zfar) ? c->zfar : 10000.0;
    *n = g->desc.shadow_min_z.set ? g->desc.shadow_min_z.value : cn;
    *f = g->desc.shadow_max_z.set ? g->desc.shadow_max_z.value : cf;
}

static void extend_caster(orr_shadow_generator *g, orr_engine *e, const orri_view *v, uint32_t id) {
    orr_scene *s = g->scene;
    orri_node *n = orri_scene_node(s, id);
    if (!n) return;
    orri_mesh *m = orri_node_mesh(n);
    orri_thin_instances *t = orri_thin_of(n);
    /* Thin instances: the box of every instance (Babylon syncs a thin-instanced
     * mesh's bounding info with its instances by default). */
    orr_dbox box = t ? orri_thin_local_box(s, n) : m->local_box;
    orr_dmat4 w = *orri_node_world(s, n, NULL);
    if (orr_dbox_is_empty(box)) return;
    orr_cell3 cell = orri_node_cell(s, n);
    for (int k = 0; k < 8; k++) {
        orr_dvec3 c = {k & 1 ? box.max.x : box.min.x, k & 2 ? box.max.y : box.min.y, k & 4 ? box.max.z : box.min.z};
        orri_shadow_extend(&g->extents, &g->view, frame_point(g, e, v, orr_dmat4_transform_point(w, c), cell));
    }
}

/* Each caster's bounding sphere in the frame of the light matrices (thin
 * instances: the sphere of every instance's box); without memory, no culling. */
static void caster_spheres(orr_shadow_generator *g, orr_engine *e, const orri_view *v) {
    orr_scene *s = g->scene;
    if (g->sphere_cap < g->caster_count) {
        orr_dsphere *sp = orri_realloc(&e->host.ctx.allocator, g->spheres, g->caster_count * sizeof *sp);
        if (!sp) return;
        g->spheres = sp, g->sphere_cap = g->caster_count;
    }
    for (uint32_t i = 0; i < g->caster_count; i++) {
        orri_node *n = orri_scene_node(s, g->casters[i]);
        g->spheres[i] = (orr_dsphere){{0, 0, 0}, INFINITY}; /* unknown: never culled */
        if (!n) continue;
        orri_thin_instances *t = orri_thin_of(n);
        orr_dbox box = t ? orri_thin_local_box(s, n) : orri_node_mesh(n)->local_box;
        if (orr_dbox_is_empty(box)) continue;
        const orr_dmat4 *w = orri_node_world(s, n, NULL);
        orr_dvec3 c = orr_dvec3_scale(orr_dvec3_add(box.min, box.max), 0.5);
        double r = 0.5 * orr_dvec3_length(orr_dvec3_sub(box.max, box.min)) * orr_dmat4_max_scale(*w);
        g->spheres[i] = (orr_dsphere){frame_point(g, e, v, orr_dmat4_transform_point(*w, c), orri_node_cell(s, n)), r};
    }
}

static uint64_t matrix_key(orr_shadow_generator *g, const orri_view *v, orri_node *ln) {
    orr_scene *s = g->scene;
    uint64_t wv;
    orri_node_world(s, ln, &wv);
    bool eye = v->fo || g->desc.debug_absolute_matrices || g->desc.cascades; /* cascades follow the camera */
    uint64_t h = orri_mix(orri_mix(g->version, wv), orri_node_light(ln)->version);
    h = orri_mix(h, eye ? v->camera_version : 1);
    h = orri_mix(h, orri_camera_version(s, v->camera)); /* default depth range: the camera's planes */
    for (uint32_t i = 0; i < g->caster_count; i++) {
        orri_node *n = orri_scene_node(s, g->casters[i]);
        if (!n) continue;
        orri_node_world(s, n, &wv);
        orri_thin_instances *t = orri_thin_of(n);
        h = orri_mix(orri_mix(h, wv), t ? orri_mix(t->version, t->count) : 0);
    }
    if (g->desc.cascades && g->desc.auto_calc_depth_bounds.value && g->depth_from_gpu) { /* the reduction's */
        uint64_t b[2];
        memcpy(&b[0], &g->gpu_near, 8), memcpy(&b[1], &g->gpu_far, 8);
        h = orri_mix(orri_mix(h, b[0]), b[1]);
    } else if (g->desc.cascades && g->desc.auto_calc_depth_bounds.value) /* the CPU bound reads every mesh */
        for (orri_node_iter it = orri_scene_each_mesh(s); orri_node_next(&it);) {
            orri_thin_instances *t = orri_thin_of(it.node);
            orri_node_world(s, it.node, &wv);
            h = orri_mix(orri_mix(h, wv), t ? orri_mix(t->version, t->count) : 0);
        }
    return h;
}

/* View and projection in the upload frame (or absolute, the debug control). */
static void build_matrices(orr_shadow_generator *g, orr_engine *e, const orri_view *v, orri_node *ln) {
    if (g->desc.cascades) {
        orri_shadow_cascade_build(g, e, v, ln);
        return;
    }
    orr_scene *s = g->scene;
    const orr_light_desc *ld = &orri_node_light(ln)->desc;
    const orr_dmat4 *w = orri_node_world(s, ln, NULL);
    orr_dvec3 pos = frame_point(g, e, v, orr_dmat4_get_translation(*w), orri_node_cell(s, ln));
    g->frame_pos = pos;
    double n, f;
    depth_range(g, v, &n, &f);
    if (g->point) { /* Babylon's cube directions +X −X +Y −Y +Z −Z, 90° faces */
        static const orr_dvec3 faces[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
        for (int k = 0; k < 6; k++) g->views[k] = orri_shadow_light_view(pos, faces[k]);
        g->view = g->views[0];
        g->proj = orri_shadow_perspective_gl(1.5707963267948966, 1.0, n, f);
    } else if (ld->type == ORR_LIGHT_SPOT) {
        g->view = orri_shadow_light_view(pos, orr_dmat4_transform_dir(*w, ld->direction));
        g->proj = orri_shadow_perspective_gl(ld->angle, 1.0, n, f);
    } else {
        g->view = orri_shadow_light_view(pos, orr_dmat4_transform_dir(*w, ld->direction));
        if (g->desc.auto_update_extends.value || !g->extents.valid) {
            g->extents = (orri_shadow_extents){0};
            for (uint32_t i = 0; i < g->caster_count; i++) extend_caster(g, e, v, g->casters[i]);
        }
        g->proj = orri_shadow_directional_projection(&g->extents, g->desc.ortho_scale.value, n, f);
    }
    /* What the public getter reports: absolute (the frame's origin added back in float64). */
    orr_dvec3 o = orr_dvec3_sub(orr_wpos_to_dvec3(v->eye_w), v->eye);
    if (g->desc.debug_absolute_matrices) o = (orr_dvec3){0, 0, 0};
    orr_dmat4 view_abs = orr_dmat4_mul(g->view, orr_dmat4_translation(orr_dvec3_neg(o)));
    g->world = (orr_shadow_matrices){view_abs,
                                     g->proj,
                                     orr_dmat4_mul(g->proj, view_abs),
                                     g->extents.left,
                                     g->extents.right,
                                     g->extents.bottom,
                                     g->extents.top,
                                     n,
                                     f};
}

/* Layer k's light transform (projection · view) in the upload frame. */
static orr_dmat4 layer_transform(const orr_shadow_generator *g, uint32_t k) {
    if (g->desc.cascades) return g->transforms[k];
    return orr_dmat4_mul(g->proj, g->point ? g->views[k] : g->view);
}

static void fill_record(orr_shadow_generator *g, const orri_view *v, orr_light_type type, orri_gpu_shadow *r) {
    const orr_shadow_desc *d = &g->desc;
    memset(r, 0, sizeof *r);
    for (uint32_t k = 0; k < g->gpu.layers; k++) r->matrices[k] = orr_dmat4_to_f32(layer_transform(g, k));
    if (g->point) r->splits = orri_pack_position(g->frame_pos, 0); /* the receivers' face choice */
    if (d->cascades) {                                             /* the receivers' layer choice and blend band */
        r->splits =
            orr_dvec4_to_f32((orr_dvec4){g->cascade_far[0], g->cascade_far[1], g->cascade_far[2], g->cascade_far[3]});
        r->lengths = orr_dvec4_to_f32(
            (orr_dvec4){g->cascade_length[0], g->cascade_length[1], g->cascade_length[2], g->cascade_length[3]});
    }
    double size = g->gpu.size;
    r->params = orr_dvec4_to_f32((orr_dvec4){d->darkness.value, d->depth_scale.value, d->frustum_edge_falloff.value,
                                             d->contact_hardening_light_size_uv_ratio.value * size});
    r->map = orr_dvec4_to_f32((orr_dvec4){size, 1.0 / size, g->gpu.layers, d->blur_scale.value / size});
    double dv[2];
    orri_shadow_depth_values(type, g->world.min_z, g->world.max_z, dv);
    r->depth = orr_dvec4_to_f32((orr_dvec4){dv[0], dv[1], d->cascades ? g->blend_factor : 0, 0});
    if (d->debug_absolute_matrices && v->fo) r->origin = orri_pack_position(orr_wpos_to_dvec3(v->eye_w), 0);
    r->info = (orri_uvec4){g->gpu.filter_kind, (uint32_t)d->quality, (uint32_t)type, d->cascades && g->lit_past_last};
}

static orri_shadow_push caster_push(orr_shadow_generator *g, orr_engine *e, const orri_view *v, orri_node *ln,
                                    const orri_gpu_shadow *r) {
    const orr_light_desc *ld = &orri_node_light(ln)->desc;
    const orr_dmat4 *w = orri_node_world(g->scene, ln, NULL);
    orri_shadow_push p = {.light = r->matrices[0]};
    bool dir = ld->type == ORR_LIGHT_DIRECTIONAL;
    orr_dvec3 ldata = dir ? orr_dvec3_normalize(orr_dmat4_transform_dir(*w, ld->direction))
                          : frame_point(g, e, v, orr_dmat4_get_translation(*w), orri_node_cell(g->scene, ln));
    p.light_data = orri_pack_position(ldata, dir ? 1 : g->point ? -1 : 0); /* −1: radial metric (point) */
    p.bias = (orr_vec4f){(float)g->desc.bias.value, (float)g->desc.normal_bias.value, r->depth.x, r->depth.y};
    p.extra = (orr_vec4f){(float)g->desc.depth_scale.value, r->origin.x, r->origin.y, r->origin.z};
    return p;
}

/* Light slot changes are bound now and take effect from the slot's next frame. */
void orri_shadow_bind_slot(orr_shadow_generator *g, orr_engine *e, int slot) {
    if (slot == g->light_slot) return;
    if (g->light_slot >= 0)
        orri_scene_set_shadow_maps(e, g->scene, (uint32_t)g->light_slot, VK_NULL_HANDLE, VK_NULL_HANDLE);
    if (slot >= 0) {
        VkImageView raw = g->gpu.esm[1].view   ? g->gpu.esm[1].view /* blurred */
                          : g->gpu.esm[0].view ? g->gpu.esm[0].view
                                               : g->gpu.depth.view;
        orri_scene_set_shadow_maps(e, g->scene, (uint32_t)slot, g->gpu.depth.view, raw);
    }
    g->light_slot = slot;
}

orr_result orri_shadow_update(orr_engine *e, orr_scene *s, const orri_view *v, uint32_t slot, VkCommandBuffer primary,
                              void *state, bool *rerecord) {
    (void)rerecord;
    orr_shadow_generator *g = state;
    orri_scene_gpu *sg = s->render_state;
    if (!g->gpu.depth.image || !sg) return ORR_OK;
    orri_node *ln = orri_scene_node(s, g->light);
    int ls = ln ? orri_shadow_light_slot(s, g->light) : -1;
    orri_shadow_bind_slot(g, e, ls);
    orri_gpu_shadow rec = {0};
    orri_shadow_push p = {0};
    if (ln && g->desc.cascades && g->desc.auto_calc_depth_bounds.value) {
        /* This frame's pass is reduced for the slot's next frame; this one
         * reads the slot's last (decision 75). */
        g->depth_from_gpu = orri_depth_bounds_last(e, s, slot, v, &g->gpu_near, &g->gpu_far);
        orri_depth_bounds_request(s, slot);
    }
    if (ln) {
        uint64_t key = matrix_key(g, v, ln);
        if (key != g->matrix_key) {
            build_matrices(g, e, v, ln), caster_spheres(g, e, v);
            g->matrix_key = key;
        }
        fill_record(g, v, orri_node_light(ln)->desc.type, &rec);
        p = caster_push(g, e, v, ln, &rec);
    }
    orri_gpu_shadow *blk = orri_slot_shadow_block(s, slot);
    if (ls >= 0 && blk && sg->slots[slot].shadow_bind_written == sg->shadow_bind_version) blk[ls] = rec;
    g->drawn = 0;
    for (uint32_t k = 0; k < g->gpu.layers; k++) {
        orr_dmat4 m = layer_transform(g, k);
        orri_shadow_clip_planes(&m, g->layer_planes[k]);
    }
    orri_shadow_cull_record(g, sg, s, v, slot, primary, orri_shadow_casts);
    for (uint32_t k = 0; k < g->gpu.layers; k++) {
        p.light = rec.matrices[k];
        memcpy(g->planes, g->layer_planes[k], sizeof g->planes);
        orri_shadow_record_layer(g, sg, s, slot, primary, k, &p);
    }
    return ORR_OK;
}
