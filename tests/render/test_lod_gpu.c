/* Level of detail chosen per instance on the GPU (issue 15 item 2, decision
 * 62): the level each instance is drawn with equals the CPU reference
 * orr_lod_select over a sweep of distances (outside the dither bands), every
 * instance inside a band is drawn by exactly one level, an 8-level chain
 * looks like level 0 alone, and the choice holds with occlusion culling and
 * 10¹² m from the origin under floating origin; a shadow caster casts each
 * instance at the level the camera draws it (decision 70). Small sizes (160 × 120). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <orrery/large_world.h>

#include "harness.h"
#include "render/render_int.h"
#include "render/gpu_types_cull.h"
#include "shadow/shadow_int.h"
#include "support/test_support.h"

static const double PI = 3.14159265358979323846;
static orr_engine *engine, *fo_engine;
#define W 160
#define H 120

static orr_engine *make_engine(bool fo) {
    orr_engine *e = NULL;
    orr_engine_desc d = {.width = W, .height = H, .msaa = 1, .floating_origin = fo ? &orr_floating_origin : NULL};
    orr_test_validation_hook(&d);
    if (orr_engine_create(&d, &e) != ORR_OK) {
        fprintf(stderr, "%s\n", orr_engine_last_error(NULL));
        exit(1);
    }
    return e;
}

static orr_mat4f translation(double x, double y, double z) {
    return orr_dmat4_to_f32(orr_dmat4_translation((orr_dvec3){x, y, z}));
}

/* A ~1 200-triangle sphere and an 8-level chain of it. */
static orr_geometry source;
static orr_lod_chain chain;

/* Instances the last frame drew with draw of `mesh` (waits for the GPU). */
static uint32_t drawn(orr_engine *e, orr_scene *s, orr_mesh mesh) {
    orr_engine_wait_idle(e);
    orri_scene_gpu *sg = s->render_state;
    uint32_t slot = (e->gpu.frame_index + e->gpu.frame_count - 1) % e->gpu.frame_count;
    const VkDrawIndexedIndirectCommand *args = sg->slots[slot].indirect.mapped;
    for (uint32_t i = 0; i < sg->draw_count; i++)
        if (sg->draws[i].node == mesh.id) return args[i].instanceCount;
    return UINT32_MAX;
}

/* Per level: instances drawn; returns the total. */
static uint32_t drawn_levels(orr_engine *e, orr_scene *s, orr_mesh mesh, uint32_t *per_level) {
    uint32_t total = 0;
    for (uint32_t k = 0; k < chain.level_count; k++) {
        orr_mesh m = orr_instances_get_lod_level(s, mesh, k);
        per_level[k] = m.id ? drawn(e, s, m) : UINT32_MAX;
        total += per_level[k];
    }
    return total;
}

static double ppr_of(orr_scene *s) {
    orr_dmat4 p = orr_camera_get_projection_matrix(s, orr_scene_get_active_camera(s), (double)W / H);
    return orr_lod_pixels_per_radian(2 * atan(1 / p.m[5]), H);
}

static orr_scene *chain_scene(orr_engine *e, orr_dvec3 offset, orr_mesh *out) {
    orr_scene *s;
    orr_scene_create(e, &(orr_scene_desc){.label = "lod chain"}, &s);
    orr_camera_create_arc_rotate(s, &(orr_arc_rotate_desc){.alpha = -PI / 2, .beta = PI / 2, .radius = 1});
    orr_camera_set_arc_target(s, orr_scene_get_active_camera(s), offset);
    orr_light_create(s, &(orr_light_desc){.type = ORR_LIGHT_HEMISPHERIC, .direction = {0.3, 1, -0.2}});
    orr_mesh m = orr_mesh_create(s, &(orr_mesh_desc){.geometry = &source, .label = "ball"});
    orr_node_set_position(s, orr_mesh_node(m), offset);
    orr_instances_set(s, m, NULL, 0);
    *out = m;
    return s;
}

/* One instance at a time along the view axis: its level, read back per level
 * draw, equals orr_lod_select outside the bands and is one of the two
 * neighbours inside; it is always drawn exactly once. */
TEST(level_per_instance_matches_cpu_reference) {
    CHECK(chain.level_count == ORR_LOD_MAX_LEVELS);
    orr_mesh m;
    orr_scene *s = chain_scene(engine, (orr_dvec3){0}, &m);
    orr_instances_add(s, m, translation(0, 0, 0), NULL);
    orr_instances_enable_gpu_culling(s, m, true);
    const double px = 0.5, band = 0.2;
    CHECK(orr_instances_set_lod_chain(s, m, &chain,
                                      &(orr_instances_lod_chain_desc){.max_pixel_error = px, .band = band}) == ORR_OK);
    CHECK(orr_instances_set_lod_chain(s, m, &chain, NULL) == ORR_ERROR_INVALID_ARGUMENT); /* already has one */
    CHECK(orr_instances_get_lod_level(s, m, chain.level_count).id == 0);
    orr_dvec3 eye = orr_camera_get_position(s, orr_scene_get_active_camera(s));
    orr_dvec3 dir = orr_dvec3_normalize(orr_dvec3_sub((orr_dvec3){0, 0, 0}, eye));
    double ppr = ppr_of(s);
    int exact = 0, in_band = 0, levels_seen = 0;
    uint32_t seen = 0;
    for (int j = 0; j < 48; j++) {
        double want = 0.6 * pow(1.13, j); /* 0.6 .. 190 m */
        orr_dvec3 p = orr_dvec3_add(eye, orr_dvec3_scale(dir, want));
        orr_mat4f t = translation(p.x, p.y, p.z);
        orr_instances_set_matrix(s, m, 0, t);
        orr_image8 img;
        CHECK(orr_test_render(engine, s, 1, &img));
        orr_test_image_free(&img);
        uint32_t per[ORR_LOD_MAX_LEVELS], gpu_level = UINT32_MAX;
        CHECK(drawn_levels(engine, s, m, per) == 1); /* exactly once */
        for (uint32_t k = 0; k < chain.level_count; k++)
            if (per[k] == 1) gpu_level = k;
        /* The distance the GPU sees: the float32 placement to the eye. */
        double d = orr_dvec3_distance((orr_dvec3){t.m[12], t.m[13], t.m[14]}, eye);
        uint32_t ref = orr_lod_select(chain.error, chain.level_count, d, ppr, px);
        bool near_switch = false;
        for (uint32_t k = 1; k < chain.level_count; k++) {
            double sw = chain.error[k] * ppr / px;
            if (fabs(d - sw) <= (band / 2 + 1e-4) * d) near_switch = true;
        }
        if (near_switch) {
            in_band++;
            CHECK(gpu_level + 1 >= ref && gpu_level <= ref + 1);
        } else {
            exact++;
            CHECK(gpu_level == ref);
            if (gpu_level != ref) printf("distance %.3f: GPU level %u, CPU %u\n", d, gpu_level, ref);
        }
        seen |= 1u << gpu_level;
    }
    for (uint32_t k = 0; k < chain.level_count; k++) levels_seen += (seen >> k) & 1u;
    printf("sweep: %d distances outside the bands equal to the CPU reference, %d inside; %d of %u levels used\n", exact,
           in_band, levels_seen, chain.level_count);
    CHECK(exact >= 24 && levels_seen + 1 >= (int)chain.level_count);
    orr_scene_destroy(s);
}

/* A field across every switch distance with a wide band: the levels' counts
 * are the CPU's (same hash, same float rule) and add up to the visible count. */
TEST(dither_band_draws_each_instance_once) {
    orr_mesh m;
    orr_scene *s = chain_scene(engine, (orr_dvec3){0}, &m);
    orr_camera_set_arc(s, orr_scene_get_active_camera(s), -PI / 2, 1.3, 1);
    const int n = 30;
    for (int x = 0; x < n; x++)
        for (int z = 0; z < n; z++) orr_instances_add(s, m, translation((x - n / 2) * 0.8, -1, z * z * 0.08), NULL);
    orr_instances_enable_gpu_culling(s, m, true);
    const double px = 0.5, band = 0.4;
    CHECK(orr_instances_set_lod_chain(s, m, &chain,
                                      &(orr_instances_lod_chain_desc){.max_pixel_error = px, .band = band}) == ORR_OK);
    orr_image8 img;
    CHECK(orr_test_render(engine, s, 1, &img));
    orr_test_save_png(orr_test_out_path("lod-band-field.png"), &img);
    orr_test_image_free(&img);
    uint32_t per[ORR_LOD_MAX_LEVELS], total = drawn_levels(engine, s, m, per);
    /* CPU reference: the frustum test and the shader's dithered rule. */
    orr_camera cam = orr_scene_get_active_camera(s);
    orr_frustum f = orr_frustum_from_matrix(
        orr_dmat4_mul(orr_camera_get_projection_matrix(s, cam, (double)W / H), orr_camera_get_view_matrix(s, cam)));
    orr_dvec3 eye = orr_camera_get_position(s, cam);
    orr_dsphere ls = orr_mesh_get_local_sphere(s, m);
    const float *mat = orr_instances_get_matrices(s, m);
    double ppr = ppr_of(s);
    uint32_t cpu[ORR_LOD_MAX_LEVELS] = {0}, visible = 0, banded = 0;
    for (uint32_t i = 0; i < (uint32_t)(n * n); i++) {
        orr_dsphere ws = {
            {ls.center.x + mat[16 * i + 12], ls.center.y + mat[16 * i + 13], ls.center.z + mat[16 * i + 14]},
            ls.radius};
#if ORR_RIGHT_HANDED
        if (!orr_test_mirror_disabled) ws.center.z = -ws.center.z; /* the right-handed run mirrors the scene in Z */
#endif
        if (!orr_frustum_test_sphere(&f, ws)) continue;
        visible++;
        uint32_t h;
        ORRI_LOD_HASH(i, h)
        float dither = (float)h * (1.0f / 4294967296.0f) - 0.5f;
        float d = (float)orr_dvec3_distance(ws.center, eye), off = dither * (float)band * d;
        uint32_t level = 0;
        for (uint32_t k = 1; k < chain.level_count; k++) {
            float sw = (float)(chain.error[k] * ppr / px);
            if (d >= sw + off) level = k;
            banded += fabsf(d - sw) <= (float)band / 2 * d;
        }
        cpu[level]++;
    }
    printf("levels drawn (GPU / CPU):");
    for (uint32_t k = 0; k < chain.level_count; k++) printf(" %u/%u", per[k], cpu[k]);
    printf("; total %u, visible %u, %u instances in a band\n", total, visible, banded);
    CHECK(total == visible); /* nothing drawn twice, nothing dropped */
    CHECK(banded > 50);      /* control: the bands are really crossed */
    for (uint32_t k = 0; k < chain.level_count; k++) CHECK(abs((int)per[k] - (int)cpu[k]) <= 2);
    orr_scene_destroy(s);
}

/* A field of balls seen low over the ground; `levels` 1 = level 0 only. */
static orr_scene *field(orr_engine *e, orr_dvec3 offset, uint32_t levels, bool occlusion, orr_mesh *out) {
    orr_mesh m;
    orr_scene *s = chain_scene(e, offset, &m);
    orr_camera_set_arc(s, orr_scene_get_active_camera(s), -PI / 2 + 0.3, 1.2, 6);
    orr_standard_material_desc md = {.diffuse = ORR_RGB(0.8, 0.5, 0.3)};
    orr_mesh_set_material(s, m, orr_standard_material_create(s, &md));
    for (int x = 0; x < 24; x++)
        for (int z = 0; z < 24; z++) orr_instances_add(s, m, translation((x - 12) * 1.5, 0, (z - 4) * 1.5), NULL);
    if (occlusion)
        orr_instances_enable_occlusion_culling(s, m, true);
    else
        orr_instances_enable_gpu_culling(s, m, true);
    if (levels > 1) {
        orr_lod_chain c = chain;
        c.level_count = levels;
        CHECK(orr_instances_set_lod_chain(
                  s, m, &c, &(orr_instances_lod_chain_desc){.max_pixel_error = 1, .band = 0.1}) == ORR_OK);
    }
    *out = m;
    return s;
}

static orr_image8 shot(orr_engine *e, orr_scene *s, const char *png) {
    orr_image8 img;
    CHECK(orr_test_render(e, s, 2, &img));
    if (png) orr_test_save_png(orr_test_out_path(png), &img);
    return img;
}

TEST(chain_looks_like_level_zero_with_and_without_occlusion) {
    orr_mesh a, b, c;
    orr_scene *full = field(engine, (orr_dvec3){0}, 1, false, &a);
    orr_scene *lod = field(engine, (orr_dvec3){0}, chain.level_count, false, &b);
    orr_scene *occl = field(engine, (orr_dvec3){0}, chain.level_count, true, &c);
    orr_image8 i0 = shot(engine, full, "lod-level0.png"), i1 = shot(engine, lod, "lod-chain.png");
    uint32_t per[ORR_LOD_MAX_LEVELS], total = drawn_levels(engine, lod, b, per), coarse = total - per[0];
    orr_image8 i2 = shot(engine, occl, "lod-chain-occlusion.png");
    uint32_t per_o[ORR_LOD_MAX_LEVELS], total_o = drawn_levels(engine, occl, c, per_o);
    orr_diff dl = orr_test_compare(&i0, &i1), dox = orr_test_compare(&i1, &i2);
    printf("8-level chain vs level 0: MAD %.4f max %d (%u of %u drawn coarser than level 0); occlusion vs not: MAD "
           "%.4f max %d (%u drawn)\n",
           dl.mad, dl.max, coarse, total, dox.mad, dox.max, total_o);
    CHECK(coarse * 2 > total); /* control: most of the field uses coarser levels */
    CHECK(dl.mad < 4);
    CHECK(dox.mad == 0 && total_o <= total);
    orr_test_image_free(&i0);
    orr_test_image_free(&i1);
    orr_test_image_free(&i2);
    orr_scene_destroy(full);
    orr_scene_destroy(lod);
    orr_scene_destroy(occl);
}

TEST(chain_far_from_origin_under_floating_origin) {
    orr_mesh a, b;
    orr_scene *near = field(fo_engine, (orr_dvec3){0}, chain.level_count, true, &a);
    orr_scene *far = field(fo_engine, (orr_dvec3){1e12, 0, -1e12}, chain.level_count, true, &b);
    /* 20 m back: a pixel is ~0.15 m there, so the eye's float64 rounding at
     * 10¹² m (2.4·10⁻⁴ m) moves no edge; at 6 m it flips a few edge pixels
     * with or without LOD (MAD ~0.01, measured). */
    orr_camera_set_arc(near, orr_scene_get_active_camera(near), -PI / 2 + 0.3, 1.2, 20);
    orr_camera_set_arc(far, orr_scene_get_active_camera(far), -PI / 2 + 0.3, 1.2, 20);
    orr_image8 i0 = shot(fo_engine, near, "lod-fo-origin.png"), i1 = shot(fo_engine, far, "lod-fo-1e12.png");
    uint32_t pa[ORR_LOD_MAX_LEVELS], pb[ORR_LOD_MAX_LEVELS];
    uint32_t ta = drawn_levels(fo_engine, near, a, pa), tb = drawn_levels(fo_engine, far, b, pb);
    orr_diff d = orr_test_compare(&i0, &i1);
    printf("10^12 m vs origin (floating origin, occlusion on): MAD %.4f max %d; drawn %u vs %u, level 0: %u vs %u\n",
           d.mad, d.max, ta, tb, pa[0], pb[0]);
    CHECK(d.mad <= 0.01);
    CHECK(ta == tb && pa[0] < ta); /* control: coarser levels in use */
    for (uint32_t k = 0; k < chain.level_count; k++) CHECK(abs((int)pa[k] - (int)pb[k]) <= 2);
    orr_test_image_free(&i0);
    orr_test_image_free(&i1);
    orr_scene_destroy(near);
    orr_scene_destroy(far);
}

/* Decision 82: the GPU copy of `mesh`'s instances (a GPU-culled draw). */
static orri_thin_gpu *thin_gpu(orr_scene *s, orr_mesh mesh) {
    orri_scene_gpu *sg = s->render_state;
    for (uint32_t i = 0; i < sg->draw_count; i++)
        if (sg->draws[i].node == mesh.id) return sg->draws[i].thin;
    return NULL;
}

static uint32_t last_slot(orr_engine *e) { return (e->gpu.frame_index + e->gpu.frame_count - 1) % e->gpu.frame_count; }

/* Shared buckets (decision 82), forced on a small field: the levels split one
 * bucket of one row per instance instead of a bucket each. The first frame
 * knows no counts and splits it in equal parts: a level past its part draws
 * the rest at level 0 (nothing lost, nothing twice). The next frames split by
 * the last counts and draw exactly what a bucket per level draws (MAD 0). */
TEST(shared_buckets_fall_back_to_level_zero_then_match) {
    orr_mesh a, b;
    engine->gpu.lod_buckets = 1; /* a bucket per level */
    orr_scene *ref = field(engine, (orr_dvec3){0}, chain.level_count, false, &a);
    orr_image8 i_ref = shot(engine, ref, NULL);
    uint32_t want[ORR_LOD_MAX_LEVELS], total = drawn_levels(engine, ref, a, want);
    engine->gpu.lod_buckets = 2;
    orr_scene *sh = field(engine, (orr_dvec3){0}, chain.level_count, false, &b);
    orr_image8 img;
    CHECK(orr_test_render(engine, sh, 1, &img));
    orr_test_image_free(&img);
    uint32_t per[ORR_LOD_MAX_LEVELS], t1 = drawn_levels(engine, sh, b, per), slot = last_slot(engine);
    const orri_thin_gpu *gr = thin_gpu(ref, a), *gs = thin_gpu(sh, b);
    const uint32_t rows = gs->cull[slot].capacity, partners = chain.level_count - 1;
    CHECK(!gr->cull[slot].shared && gr->cull[slot].far_matrices.size == (VkDeviceSize)partners * rows * 64);
    CHECK(gs->cull[slot].shared && gs->cull[slot].far_matrices.size == (VkDeviceSize)rows * 64);
    uint32_t full_levels = 0, sent = 0;
    for (uint32_t k = 1; k < chain.level_count; k++) {
        CHECK(per[k] <= want[k] && per[k] <= gs->cull[slot].lod_cap[k - 1]);
        full_levels += per[k] < want[k];
        sent += want[k] - per[k];
    }
    printf("first frame, equal parts of %u rows: %u levels full, %u instances drawn at level 0 instead (%u vs %u); "
           "total %u vs %u\n",
           rows / partners, full_levels, sent, per[0], want[0], t1, total);
    CHECK(full_levels > 0);                         /* control: the fallback ran */
    CHECK(t1 == total && per[0] == want[0] + sent); /* every overflowing instance drawn once, at level 0 */
    orr_image8 i_sh = shot(engine, sh, "lod-shared-buckets.png");
    drawn_levels(engine, sh, b, per);
    slot = last_slot(engine);
    for (uint32_t k = 0; k < chain.level_count; k++) CHECK(per[k] == want[k]);
    for (uint32_t k = 1; k < chain.level_count; k++) CHECK(gs->cull[slot].lod_cap[k - 1] >= want[k]);
    orr_diff d = orr_test_compare(&i_ref, &i_sh);
    printf("after the first frame: levels as with a bucket each, MAD %.4f max %d\n", d.mad, d.max);
    CHECK(d.mad == 0 && d.max == 0);
    orr_test_image_free(&i_ref);
    orr_test_image_free(&i_sh);
    orr_scene_destroy(ref);
    orr_scene_destroy(sh);
    engine->gpu.lod_buckets = 0;
}

/* Shared buckets with occlusion culling: in the first frame every instance
 * is newly visible, so each level draws from its late arguments, whose
 * firstInstance the culling pass moves to the level's first row; the next
 * frame draws from the early ones. Three levels, whose equal parts hold the
 * first frame's counts (checked), both equal the bucket-per-level image. */
TEST(shared_buckets_with_occlusion_late_pass) {
    orr_mesh a, b;
    engine->gpu.lod_buckets = 1;
    orr_scene *ref = field(engine, (orr_dvec3){0}, 3, false, &a);
    orr_image8 i_ref = shot(engine, ref, NULL);
    uint32_t want[ORR_LOD_MAX_LEVELS], total = drawn_levels(engine, ref, a, want);
    engine->gpu.lod_buckets = 2;
    orr_scene *sh = field(engine, (orr_dvec3){0}, 3, true, &b);
    orr_image8 i1, i2;
    CHECK(orr_test_render(engine, sh, 1, &i1));
    orri_scene_gpu *sg = sh->render_state;
    uint32_t slot = last_slot(engine), late = sg->slots[slot].draw_cmds[1];
    const orri_thin_gpu *gs = thin_gpu(sh, b);
    CHECK(gs->cull[slot].shared && gs->cull[slot].lod_base[1] > 0);
    for (uint32_t k = 1; k < 3; k++) CHECK(gs->cull[slot].lod_cap[k - 1] >= want[k]); /* no fallback */
    CHECK(orr_test_render(engine, sh, 1, &i2));
    uint32_t per[ORR_LOD_MAX_LEVELS];
    CHECK(drawn_levels(engine, sh, b, per) == total);
    orr_diff d1 = orr_test_compare(&i_ref, &i1), d2 = orr_test_compare(&i_ref, &i2);
    printf("3 levels, occlusion, shared bucket: %u late draw commands; first frame MAD %.4f max %d, second %.4f max "
           "%d; levels %u %u %u (want %u %u %u)\n",
           late, d1.mad, d1.max, d2.mad, d2.max, per[0], per[1], per[2], want[0], want[1], want[2]);
    CHECK(late >= 3 && want[1] > 0 && want[2] > 0);
    CHECK(d1.mad == 0 && d1.max == 0 && d2.mad == 0 && d2.max == 0);
    orr_test_image_free(&i_ref);
    orr_test_image_free(&i1);
    orr_test_image_free(&i2);
    orr_scene_destroy(ref);
    orr_scene_destroy(sh);
    engine->gpu.lod_buckets = 0;
}

/* Decision 70 over a whole chain: a sun-shadow caster with the 8-level chain
 * casts each instance at the level the camera draws it. Per level, the
 * shadow pass's counts equal the main view's (every instance is in both),
 * and the image equals a scene where each instance sits on its level's own
 * mesh, the level given by orr_lod_select (band 0, no instance within 3 % of
 * a switch). The control (level 0 casts) differs. */
static orr_scene *shadow_chain_scene(bool chained, double px, orr_mesh *src, orr_shadow_generator **gen,
                                     uint32_t *per_level) {
    orr_scene *s;
    orr_scene_create(engine, &(orr_scene_desc){.clear_color = ORR_RGBA(0.2, 0.2, 0.3, 1), .label = "shadow chain"}, &s);
    orr_camera_create_arc_rotate(
        s, &(orr_arc_rotate_desc){
               .alpha = -PI / 2, .beta = 1.3, .radius = 22, .target = {0, 0, 20}, .near = 0.1, .far = 400});
    orr_light_create(
        s, &(orr_light_desc){.type = ORR_LIGHT_HEMISPHERIC, .direction = {0, 1, 0}, .intensity = ORR_F64(0.3)});
    orr_light sun = orr_light_create(s, &(orr_light_desc){.type = ORR_LIGHT_DIRECTIONAL,
                                                          .position = {20, 40, 0},
                                                          .direction = {-1, -2, 0.4},
                                                          .intensity = ORR_F64(0.9)});
    orr_geometry g;
    orr_geometry_build_ground(&(orr_ground_desc){.width = 40, .height = 260}, NULL, &g);
    orr_mesh ground = orr_mesh_create(s, &(orr_mesh_desc){.geometry = &g, .position = {0, -0.5, 120}});
    orr_geometry_free(&g);
    orr_mesh levels[ORR_LOD_MAX_LEVELS];
    levels[0] = orr_mesh_create(s, &(orr_mesh_desc){.geometry = &source, .label = "ball"});
    for (uint32_t k = 1; k < chain.level_count; k++)
        levels[k] = chained ? levels[0] : orr_mesh_create(s, &(orr_mesh_desc){.geometry = &chain.levels[k]});
    orr_dvec3 eye = orr_camera_get_position(s, orr_scene_get_active_camera(s));
    double ppr = ppr_of(s);
    for (uint32_t k = 0; k < chain.level_count; k++) per_level[k] = 0;
    for (int j = 0; j < 60; j++)
        for (int x = -1; x <= 1; x++) {
            orr_mat4f t = translation(x * 2.5, 1.0, 6 + j * 2.5); /* floating: shadows fall clear of the balls */
            double d = orr_dvec3_distance((orr_dvec3){t.m[12], t.m[13], t.m[14]}, eye);
            bool near_switch = false;
            for (uint32_t k = 1; k < chain.level_count; k++)
                if (fabs(d - chain.error[k] * ppr / px) < 0.03 * d) near_switch = true;
            if (near_switch) continue;
            uint32_t level = orr_lod_select(chain.error, chain.level_count, d, ppr, px);
            per_level[level]++;
            orr_instances_add(s, levels[level], t, NULL);
        }
    orr_shadow_set_receiver(s, ground, true);
    *gen = NULL;
    CHECK(orr_shadow_generator_create(s, sun, &(orr_shadow_desc){.map_size = 1024}, gen) == ORR_OK);
    for (uint32_t k = 0; k < chain.level_count; k++) {
        if (!orr_instances_get_count(s, levels[k])) orr_instances_set(s, levels[k], NULL, 0); /* thin state */
        orr_instances_enable_gpu_culling(s, levels[k], true);
        if (*gen && (k == 0 || !chained)) orr_shadow_add_caster(*gen, levels[k]);
    }
    if (chained)
        CHECK(orr_instances_set_lod_chain(s, levels[0], &chain,
                                          &(orr_instances_lod_chain_desc){.max_pixel_error = px}) == ORR_OK);
    *src = levels[0];
    return s;
}

TEST(shadow_casts_each_chain_level) {
    const double px = 0.25;
    orr_mesh m, m_ref;
    orr_shadow_generator *gen, *ref_gen;
    uint32_t want[ORR_LOD_MAX_LEVELS], want_ref[ORR_LOD_MAX_LEVELS];
    orr_scene *s = shadow_chain_scene(true, px, &m, &gen, want);
    orr_scene *ref = shadow_chain_scene(false, px, &m_ref, &ref_gen, want_ref);
    REQUIRE(gen && ref_gen);
    orr_image8 lod, explicit_img, control;
    REQUIRE(orr_test_render(engine, s, 1, &lod));
    orr_test_save_png(orr_test_out_path("lod-chain-shadow.png"), &lod);
    uint32_t per[ORR_LOD_MAX_LEVELS], used = 0;
    drawn_levels(engine, s, m, per);
    for (uint32_t k = 0; k < chain.level_count; k++) {
        uint32_t sh = orri_shadow_instances_drawn_level(gen, 0, k);
        printf("level %u: CPU %u, camera %u, shadow pass %u\n", k, want[k], per[k], sh);
        CHECK(per[k] == want[k] && sh == want[k]);
        used += want[k] > 0;
    }
    CHECK(used == chain.level_count); /* every level casts */
    REQUIRE(orr_test_render(engine, ref, 1, &explicit_img));
    orr_test_save_png(orr_test_out_path("lod-chain-shadow-explicit.png"), &explicit_img);
    gen->no_shadow_lod = true;
    REQUIRE(orr_test_render(engine, s, 1, &control));
    orr_test_save_png(orr_test_out_path("lod-chain-shadow-control.png"), &control);
    orr_diff d = orr_test_compare(&lod, &explicit_img), c = orr_test_compare(&control, &explicit_img);
    printf("chain casters vs each level's own mesh: MAD %.4f max %d; control (level 0 casts) MAD %.4f max %d\n", d.mad,
           d.max, c.mad, c.max);
    CHECK(d.mad == 0 && d.max == 0);
    CHECK(c.max > 0); /* the levels' shadows differ from level 0's: the test can fail */
    orr_test_image_free(&lod);
    orr_test_image_free(&explicit_img);
    orr_test_image_free(&control);
    orr_scene_destroy(s);
    orr_scene_destroy(ref);
}

int main(int argc, char **argv) {
    orr_test_fail_on_validation();
    /* orr_geometry_build_lod_chain stops a sphere's chain at 6 levels (each
     * must save a tenth within the bound); the GPU's choice among all 8 is
     * tested on a chain of coarser tessellations with their sagitta as the
     * error (r (1 − cos(π / segments))). */
    static const int segs[ORR_LOD_MAX_LEVELS] = {16, 12, 10, 8, 7, 6, 5, 4};
    chain.level_count = ORR_LOD_MAX_LEVELS;
    for (uint32_t k = 0; k < ORR_LOD_MAX_LEVELS; k++) {
        orr_geometry_build_sphere(&(orr_sphere_desc){.segments = segs[k]}, NULL, &chain.levels[k]);
        chain.error[k] = k ? 0.5 * (1 - cos(PI / segs[k])) : 0;
        chain.triangles[k] = chain.levels[k].index_count / 3;
    }
    orr_geometry_build_sphere(&(orr_sphere_desc){.segments = 16}, NULL, &source);
    printf("chain: %u levels, triangles", chain.level_count);
    for (uint32_t k = 0; k < chain.level_count; k++) printf(" %u (error %.4f)", chain.triangles[k], chain.error[k]);
    printf("\n");
    engine = make_engine(false);
    fo_engine = make_engine(true);
    int rc = RUN_TESTS(argc, argv);
    orr_engine_destroy(engine);
    orr_engine_destroy(fo_engine);
    for (uint32_t k = 0; k < ORR_LOD_MAX_LEVELS; k++) orr_geometry_free(&chain.levels[k]);
    orr_geometry_free(&source);
    return rc;
}
