/* generator.c — orrery/shadow.h: descs, creation, casters, receivers. */
#include <math.h>
#include <string.h>

#include "shadow/shadow_int.h"

orr_shadow_desc orr_shadow_desc_defaults(const orr_shadow_desc *desc) {
    orr_shadow_desc d = desc ? *desc : (orr_shadow_desc){0};
    if (!d.map_size) d.map_size = ORRI_SHADOW_DEFAULT_MAP;
    if (!d.bias.set) d.bias = ORR_F64(ORRI_SHADOW_DEFAULT_BIAS);
    if (!d.normal_bias.set) d.normal_bias = ORR_F64(0);
    if (!d.darkness.set) d.darkness = ORR_F64(0);
    if (!d.depth_scale.set) d.depth_scale = ORR_F64(ORRI_SHADOW_DEFAULT_DEPTH_SCALE);
    if (!d.frustum_edge_falloff.set) d.frustum_edge_falloff = ORR_F64(0);
    if (!d.kernel_blur.set) d.kernel_blur = ORR_OFF;
    if (!d.blur_kernel) d.blur_kernel = 1;
    if (!d.blur_box_offset) d.blur_box_offset = 1;
    if (!d.blur_scale.set) d.blur_scale = ORR_F64(2);
    if (!d.ortho_scale.set) d.ortho_scale = ORR_F64(ORRI_SHADOW_DEFAULT_ORTHO_SCALE);
    if (!d.auto_update_extends.set) d.auto_update_extends = ORR_ON;
    if (!d.contact_hardening_light_size_uv_ratio.set) d.contact_hardening_light_size_uv_ratio = ORR_F64(0.1);
    if (!d.cascade_lambda.set) d.cascade_lambda = ORR_F64(0.5);
    if (!d.stabilize_cascades.set) d.stabilize_cascades = ORR_OFF;
    if (!d.cascade_blend_percentage.set) d.cascade_blend_percentage = ORR_F64(0.1);
    if (!d.auto_calc_depth_bounds.set) d.auto_calc_depth_bounds = ORR_OFF;
    return d;
}

/* The receivers' filter. A point light's map is a cube of radial distances,
 * filtered as Babylon.js's ShadowGenerator.filter setter leaves it: PCF and
 * PCSS become Poisson sampling, blurred ESM plain ESM (decision 72). */
uint32_t orri_shadow_filter_kind(const orr_shadow_desc *d, bool point) {
    switch (d->filter) {
    case ORR_SHADOW_FILTER_HARD: return ORRI_SHADOW_HARD;
    case ORR_SHADOW_FILTER_ESM:
    case ORR_SHADOW_FILTER_BLUR_ESM: return ORRI_SHADOW_ESM;
    case ORR_SHADOW_FILTER_PCSS: return point ? ORRI_SHADOW_POISSON : ORRI_SHADOW_PCSS;
    default: return point ? ORRI_SHADOW_POISSON : ORRI_SHADOW_PCF;
    }
}

static bool finite_opt(orr_opt_f64 v) { return !v.set || isfinite(v.value); }

/* Misuse of a resolved desc, reported; true when it is usable. */
static bool check_desc(orri_ctx *ctx, const orr_shadow_desc *d, const char *what) {
    uint32_t m = d->map_size;
    if (m > 8192 || (m & (m - 1)) != 0) {
        orri_misuse(ctx, ORR_MSG_OUT_OF_RANGE, "%s: map_size %u is not a power of two in 1..8192", what, m);
        return false;
    }
    if ((unsigned)d->filter > ORR_SHADOW_FILTER_PCSS || (unsigned)d->quality > ORR_SHADOW_QUALITY_LOW) {
        orri_misuse(ctx, ORR_MSG_UNKNOWN_ENUM, "%s: unknown filter %d or quality %d", what, (int)d->filter,
                    (int)d->quality);
        return false;
    }
    orr_opt_f64 f[] = {
        d->bias,       d->normal_bias,  d->darkness,     d->depth_scale, d->frustum_edge_falloff,
        d->blur_scale, d->shadow_min_z, d->shadow_max_z, d->ortho_scale, d->contact_hardening_light_size_uv_ratio};
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        if (!finite_opt(f[i])) {
            orri_misuse(ctx, ORR_MSG_NOT_FINITE, "%s: a parameter is NaN or infinite", what);
            return false;
        }
    double blend = d->cascade_blend_percentage.value;
    if (d->cascades == 1 || d->cascades > 4 || !(d->cascade_lambda.value >= 0 && d->cascade_lambda.value <= 1) ||
        !(blend >= 0 && blend <= 1)) {
        orri_misuse(ctx, ORR_MSG_OUT_OF_RANGE,
                    "%s: cascades %u not 0 or 2..4, or cascade_lambda / cascade_blend_percentage outside 0..1", what,
                    d->cascades);
        return false;
    }
    if (d->darkness.value < 0 || d->darkness.value > 1 || !(d->blur_scale.value >= 1) ||
        (d->shadow_min_z.set && d->shadow_max_z.set && !(d->shadow_max_z.value > d->shadow_min_z.value))) {
        orri_misuse(ctx, ORR_MSG_OUT_OF_RANGE, "%s: darkness outside 0..1, blur_scale below 1 or max_z <= min_z", what);
        return false;
    }
    return true;
}

/* Cascades take the depth-map filters only and need a directional light
 * (point lights take every filter: orri_shadow_filter_kind). */
static bool check_point(orri_ctx *ctx, orr_light_type type, const orr_shadow_desc *d, const char *what) {
    bool depth_filter = d->filter == ORR_SHADOW_FILTER_PCF || d->filter == ORR_SHADOW_FILTER_HARD;
    if (d->cascades && (type != ORR_LIGHT_DIRECTIONAL || !depth_filter)) {
        orri_misuse(ctx, ORR_MSG_IMPOSSIBLE_OPTION, "%s: cascades need a directional light and the PCF or HARD filter",
                    what);
        return false;
    }
    return true;
}

static orri_node *shadow_light(orr_scene *s, orr_light light, const char *what) {
    orri_node *n = orri_node_get_kind(s, light.id, ORRI_NODE_LIGHT, what);
    if (!n) return NULL;
    orr_light_type t = orri_node_light(n)->desc.type;
    if (t == ORR_LIGHT_HEMISPHERIC) {
        orri_misuse(s->ctx, ORR_MSG_WRONG_KIND, "%s: light %u is hemispheric (no shadows)", what, light.id);
        return NULL;
    }
    return n;
}

static void plugin_release(orr_engine *e, orr_scene *s, void *state) {
    orr_shadow_generator *g = state;
    if (g->light_slot >= 0) orri_scene_set_shadow_maps(e, s, (uint32_t)g->light_slot, VK_NULL_HANDLE, VK_NULL_HANDLE);
    orri_shadow_gpu_release(g);
    orri_free(&e->host.ctx.allocator, g->casters);
    orri_free(&e->host.ctx.allocator, g->spheres);
    orri_free(&e->host.ctx.allocator, g);
}

static bool light_taken(orri_scene_gpu *sg, uint32_t light) {
    for (uint32_t i = 0; sg && i < sg->plugin_count; i++)
        if (sg->plugins[i]->update == orri_shadow_update &&
            ((orr_shadow_generator *)sg->plugins[i]->state)->light == light)
            return true;
    return false;
}

orr_result orr_shadow_generator_create(orr_scene *s, orr_light light, const orr_shadow_desc *desc,
                                       orr_shadow_generator **out) {
    const char *what = "orr_shadow_generator_create";
    if (out) *out = NULL;
    if (!s || !out) {
        orri_misuse(s ? s->ctx : NULL, s ? ORR_MSG_NULL_ARGUMENT : ORR_MSG_NULL_CONTEXT, "%s: %s is NULL", what,
                    s ? "out" : "scene");
        return ORR_ERROR_INVALID_ARGUMENT;
    }
    orr_shadow_desc d = orr_shadow_desc_defaults(desc);
    orr_engine *e = orr_scene_engine(s);
    if (!e) {
        orri_misuse(s->ctx, ORR_MSG_BAD_STATE, "%s: the scene has no engine", what);
        return ORR_ERROR_INVALID_ARGUMENT;
    }
    orri_node *ln = shadow_light(s, light, what);
    if (!ln) return orr_last_result(); /* INVALID_HANDLE: stale or wrong kind */
    bool point = orri_node_light(ln)->desc.type == ORR_LIGHT_POINT;
    if (!check_desc(s->ctx, &d, what) || !check_point(s->ctx, orri_node_light(ln)->desc.type, &d, what))
        return ORR_ERROR_INVALID_ARGUMENT;
    if (light_taken(s->render_state, light.id)) {
        orri_misuse(s->ctx, ORR_MSG_IN_USE, "%s: light %u has a shadow generator already", what, light.id);
        return ORR_ERROR_INVALID_ARGUMENT;
    }
    orr_shadow_generator *g = orri_alloc(&e->host.ctx.allocator, sizeof *g);
    if (!g) return orri_fail(&e->host.ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "shadow generator");
    memset(g, 0, sizeof *g);
    g->scene = s, g->engine = e, g->light = light.id, g->desc = d, g->version = 1, g->light_slot = -1;
    g->point = point, g->light_type = orri_node_light(ln)->desc.type;
    orr_result r = orri_shadow_gpu_make(g);
    if (r == ORR_OK)
        r = orri_scene_add_plugin(e, s,
                                  &(orri_render_plugin){.name = what,
                                                        .state = g,
                                                        .update = orri_shadow_update,
                                                        .release = plugin_release,
                                                        .casts_shadows = true},
                                  &g->plugin);
    if (r != ORR_OK) {
        plugin_release(e, s, g);
        return r;
    }
    orri_shadow_bind_slot(g, e, orri_shadow_light_slot(s, light.id)); /* bound from the first frame */
    *out = g;
    return ORR_OK;
}

void orr_shadow_generator_destroy(orr_shadow_generator *g) {
    if (g) orri_scene_remove_plugin(g->engine, g->scene, g->plugin); /* releases and frees g */
}

orr_result orr_shadow_generator_set(orr_shadow_generator *g, const orr_shadow_desc *desc) {
    if (!g) {
        orri_misuse(NULL, ORR_MSG_NULL_CONTEXT, "orr_shadow_generator_set: generator is NULL");
        return ORR_ERROR_INVALID_ARGUMENT;
    }
    orr_shadow_desc d = orr_shadow_desc_defaults(desc);
    if (!check_desc(g->scene->ctx, &d, "orr_shadow_generator_set") ||
        !check_point(g->scene->ctx, g->light_type, &d, "orr_shadow_generator_set"))
        return ORR_ERROR_INVALID_ARGUMENT;
    bool remake = d.map_size != g->desc.map_size || d.filter != g->desc.filter ||
                  d.blur_scale.value != g->desc.blur_scale.value || d.cascades != g->desc.cascades;
    orr_shadow_desc old = g->desc;
    g->desc = d, g->version++;
    if (!remake) return ORR_OK;
    orri_shadow_gpu_release(g); /* deferred: frames in flight keep theirs */
    orr_result r = orri_shadow_gpu_make(g);
    if (r != ORR_OK) { /* keep a working generator with the old parameters */
        g->desc = old;
        if (orri_shadow_gpu_make(g) != ORR_OK) memset(&g->gpu, 0, sizeof g->gpu);
    }
    int slot = g->light_slot;
    g->light_slot = -1; /* the new maps are bound now */
    orri_shadow_bind_slot(g, g->engine, slot);
    return r;
}

orr_shadow_desc orr_shadow_generator_get(const orr_shadow_generator *g) {
    return g ? g->desc : orr_shadow_desc_defaults(NULL);
}

orr_shadow_matrices orr_shadow_generator_get_matrices(const orr_shadow_generator *g) {
    return g ? g->world : (orr_shadow_matrices){0};
}

int orr_shadow_light_index(orr_scene *s, orr_light light) {
    if (!s) {
        orri_misuse(NULL, ORR_MSG_NULL_CONTEXT, "orr_shadow_light_index: scene is NULL");
        return -1;
    }
    if (!orri_node_get_kind(s, light.id, ORRI_NODE_LIGHT, "orr_shadow_light_index")) return -1;
    return orri_shadow_light_slot(s, light.id);
}

orr_shadow_depth_range orr_shadow_generator_get_depth_range(const orr_shadow_generator *g) {
    if (!g || !g->desc.cascades) return (orr_shadow_depth_range){0, 1, false, 0, 0};
    return (orr_shadow_depth_range){g->min_distance, g->max_distance, g->depth_from_gpu,
                                    g->depth_from_gpu ? g->gpu_near : 0, g->depth_from_gpu ? g->gpu_far : 0};
}

/* ---- casters and receivers ------------------------------------------------------------- */

static orri_node *caster_mesh(const orr_shadow_generator *g, orr_mesh mesh, const char *what) {
    if (!g) {
        orri_misuse(NULL, ORR_MSG_NULL_CONTEXT, "%s: generator is NULL", what);
        return NULL;
    }
    return orri_node_get_kind(g->scene, mesh.id, ORRI_NODE_MESH, what);
}

static int caster_index(const orr_shadow_generator *g, uint32_t id) {
    for (uint32_t i = 0; i < g->caster_count; i++)
        if (g->casters[i] == id) return (int)i;
    return -1;
}

void orr_shadow_add_caster(orr_shadow_generator *g, orr_mesh mesh) {
    if (!caster_mesh(g, mesh, "orr_shadow_add_caster") || caster_index(g, mesh.id) >= 0) return;
    if (g->caster_count == g->caster_cap) {
        uint32_t cap = g->caster_cap ? g->caster_cap * 2 : 16;
        uint32_t *c = orri_realloc(&g->engine->host.ctx.allocator, g->casters, cap * sizeof *c);
        if (!c) {
            orri_fail(&g->engine->host.ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "shadow casters");
            return;
        }
        g->casters = c, g->caster_cap = cap;
    }
    g->casters[g->caster_count++] = mesh.id;
    g->version++;
}

void orr_shadow_remove_caster(orr_shadow_generator *g, orr_mesh mesh) {
    if (!caster_mesh(g, mesh, "orr_shadow_remove_caster")) return;
    int i = caster_index(g, mesh.id);
    if (i < 0) return;
    g->casters[i] = g->casters[--g->caster_count];
    g->version++;
}

bool orr_shadow_is_caster(const orr_shadow_generator *g, orr_mesh mesh) {
    return caster_mesh(g, mesh, "orr_shadow_is_caster") && caster_index(g, mesh.id) >= 0;
}

void orr_shadow_set_receiver(orr_scene *s, orr_mesh mesh, bool receive) {
    if (!s) {
        orri_misuse(NULL, ORR_MSG_NULL_CONTEXT, "orr_shadow_set_receiver: scene is NULL");
        return;
    }
    orri_node *n = orri_node_get_kind(s, mesh.id, ORRI_NODE_MESH, "orr_shadow_set_receiver");
    if (!n || n->u.mesh.receive_shadows == receive) return;
    n->u.mesh.receive_shadows = receive;
    orri_mesh_changed(s, n); /* the per-draw flags are re-uploaded */
}

bool orr_shadow_get_receiver(const orr_scene *s, orr_mesh mesh) {
    if (!s) {
        orri_misuse(NULL, ORR_MSG_NULL_CONTEXT, "orr_shadow_get_receiver: scene is NULL");
        return false;
    }
    orri_node *n = orri_node_get_kind(s, mesh.id, ORRI_NODE_MESH, "orr_shadow_get_receiver");
    return n && n->u.mesh.receive_shadows;
}
