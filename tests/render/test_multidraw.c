/* Multi-draw runs (decision 68): consecutive standard (and PBR, decision 83) draws that would
 * record the same commands but for the object index become one
 * vkCmdDrawIndexedIndirect with drawCount = run length, the shaders reading
 * pc.object + gl_DrawID. The image must be exactly the image with merging off
 * (the ORR_MULTIDRAW=0 path, flipped here through orri_gpu.multi_draw), the
 * number of draw commands must be the number of runs, and CPU frustum culling
 * of a mesh inside a run (its instance count set to 0, nothing re-recorded)
 * must hide exactly that mesh. Meshes with their own geometries merge the
 * same way through the geometry arena (decision 80): their ranges are
 * disjoint, their uploads gathered, and freed ranges reused only once no
 * frame in flight reads them. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <orrery/pbr.h>

#include "harness.h"
#include "render/render_int.h"
#include "support/test_support.h"

static orr_engine *engine;
static orr_texture checker;

/* Run breakers among 64 boxes of one shared geometry (draw index = mesh
 * index): 10 has back-face culling off (another pipeline), 30 is mirrored
 * (front face), 40 is textured (another pipeline and texture set), 50 and 51
 * are transparent (the other pass). 20 is blue: another material of the same
 * pipeline and (fallback) texture set, so it does not break its run. */
enum { N = 64, NO_CULL = 10, BLUE = 20, MIRRORED = 30, TEXTURED = 40, GLASS = 50 };
#define OPAQUE_RUNS 8 /* 0-9, 10, 11-29, 30, 31-39, 40, 41-49, 52-63 */

typedef struct city {
    orr_scene *s;
    orr_mesh meshes[N];
} city;

/* Mesh i's own geometry (make_city with `own`): boxes of several sizes and
 * small spheres, so vertex and index counts differ from mesh to mesh. */
static void own_geometry(int i, orr_geometry *g) {
    if (i % 7 == 3)
        CHECK(orr_geometry_build_sphere(&(orr_sphere_desc){.segments = 3 + i % 4, .diameter = 1.2}, NULL, g) == ORR_OK);
    else
        CHECK(orr_geometry_build_box(&(orr_box_desc){.width = 1 + (i % 3) * 0.3, .height = 1, .depth = 0.6}, NULL, g) ==
              ORR_OK);
}

/* The five materials of a city: plain, two-sided, blue, textured, glass;
 * standard or (`pbr`) PBR. */
static void city_materials(orr_scene *s, bool pbr, orr_material m[5]) {
    if (!pbr) {
        m[0] = orr_standard_material_create(s, &(orr_standard_material_desc){.diffuse = {true, {0.9, 0.3, 0.2}}});
        m[1] = orr_standard_material_create(
            s, &(orr_standard_material_desc){.diffuse = {true, {0.2, 0.9, 0.3}}, .back_face_culling = {true, false}});
        m[2] = orr_standard_material_create(s, &(orr_standard_material_desc){.diffuse = {true, {0.2, 0.3, 0.9}}});
        m[3] = orr_standard_material_create(s, &(orr_standard_material_desc){.diffuse_texture = checker});
        m[4] = orr_standard_material_create(
            s, &(orr_standard_material_desc){.diffuse = {true, {0.3, 0.9, 0.9}}, .alpha = {true, 0.5}});
        return;
    }
    orr_pbr_material_desc metal = {
        .base_color = {true, {0.9, 0.4, 0.2, 1}}, .metallic = {true, 0.3}, .roughness = {true, 0.45}};
    m[0] = orr_pbr_material_create(s, &metal);
    metal.double_sided = true;
    m[1] = orr_pbr_material_create(s, &metal);
    m[2] = orr_pbr_material_create(
        s, &(orr_pbr_material_desc){.base_color = {true, {0.2, 0.3, 0.9, 1}}, .roughness = {true, 0.3}});
    m[3] = orr_pbr_material_create(
        s, &(orr_pbr_material_desc){.base_color_texture = {.texture = checker}, .metallic = {true, 0}});
    m[4] = orr_pbr_material_create(
        s, &(orr_pbr_material_desc){.base_color = {true, {0.3, 0.9, 0.9, 0.5}}, .alpha_mode = ORR_ALPHA_BLEND});
}

/* `hidden`: a mesh index (or -1) created hidden; `own`: every mesh has its
 * own geometry (else all share mesh 0's box); `pbr`: PBR materials. */
static city make_city_of(int hidden, bool own, bool pbr) {
    city c = {0};
    CHECK(orr_scene_create(engine, &(orr_scene_desc){.label = "multidraw city"}, &c.s) == ORR_OK);
    orr_light_create(c.s, &(orr_light_desc){.type = ORR_LIGHT_DIRECTIONAL, .direction = {0.3, -1, 0.5}});
    if (pbr)
        orr_light_create(
            c.s, &(orr_light_desc){.type = ORR_LIGHT_HEMISPHERIC, .direction = {0, 1, 0}, .intensity = {true, 0.4}});
    orr_material mats[5];
    city_materials(c.s, pbr, mats);
    orr_material red = mats[0], two_sided = mats[1], blue = mats[2], textured = mats[3], glass = mats[4];
    orr_geometry g;
    CHECK(orr_geometry_build_box(&(orr_box_desc){.width = 1.5, .height = 1, .depth = 0.6}, NULL, &g) == ORR_OK);
    for (int i = 0; i < N; i++) {
        orr_material m = i == NO_CULL                   ? two_sided
                         : i == BLUE                    ? blue
                         : i == TEXTURED                ? textured
                         : i == GLASS || i == GLASS + 1 ? glass
                                                        : red;
        orr_geometry mine;
        if (own) own_geometry(i, &mine);
        c.meshes[i] = orr_mesh_create(c.s, &(orr_mesh_desc){.geometry = own ? &mine
                                                                        : i ? NULL
                                                                            : &g,
                                                            .share_geometry = own || !i ? (orr_mesh){0} : c.meshes[0],
                                                            .material = m,
                                                            .position = {(i % 8 - 3.5) * 2.5, 0, (i / 8 - 3.5) * 2.5},
                                                            .rotation = {0, 0.4 * i, 0},
                                                            .scaling = {i == MIRRORED ? -1 : 1, 1 + (i % 5) * 0.4, 1}});
        if (own) orr_geometry_free(&mine);
        if (i == hidden) orr_mesh_set_visible(c.s, c.meshes[i], false);
    }
    orr_geometry_free(&g);
    orr_camera_create_free(
        c.s, &(orr_free_camera_desc){
                 .position = {4, 14, -18}, .target = ORR_DVEC3(0, 0, 0), .fov = 0.9, .near = 0.5, .far = 200});
    return c;
}

static city make_city(int hidden) { return make_city_of(hidden, false, false); }

static const orri_scene_gpu *gpu_of(orr_scene *s) { return s->render_state; }

/* Renders with merging on or off (read at record time: a new scene records). */
static void render(city *c, bool merge, orr_image8 *img) {
    bool was = engine->gpu.multi_draw;
    engine->gpu.multi_draw = merge;
    CHECK(orr_test_render(engine, c->s, 2, img));
    engine->gpu.multi_draw = was;
}

/* The slot of the frame just rendered (frame_index moves on at its end). */
static const orri_slot *last_slot(orr_scene *s) {
    const orri_scene_gpu *sg = gpu_of(s);
    return &sg->slots[(engine->gpu.frame_index + engine->gpu.frame_count - 1) % engine->gpu.frame_count];
}

static double mad(const orr_image8 *a, const orr_image8 *b) { return orr_test_compare(a, b).mad; }

TEST(runs_merge_and_draw_the_same_image) {
    CHECK(engine->gpu.multi_draw); /* lavapipe has multiDrawIndirect */
    city on = make_city(-1), off = make_city(-1);
    orr_image8 a, b;
    render(&on, true, &a);
    orr_stats st_on = orr_query_stats(engine);
    render(&off, false, &b);
    orr_stats st_off = orr_query_stats(engine);
    orr_test_save_png(orr_test_out_path("multidraw-merged.png"), &a);
    const orri_scene_gpu *sg = gpu_of(on.s);
    CHECK(sg->draw_count == N);
    for (uint32_t i = 0; i < sg->draw_count; i++) /* draw index = mesh index, as the expectations assume */
        CHECK(sg->draws[i].node == orr_mesh_node(on.meshes[i]).id);
    CHECK(sg->transparent_count == 2);
    /* The two transparent draws merge only when sorted in index order. */
    uint32_t glass_runs = sg->order[0] + 1 == sg->order[1] ? 1 : 2;
    const orri_slot *so = last_slot(on.s), *sf = last_slot(off.s);
    printf("draw commands merged: opaque %u transparent %u; unmerged: opaque %u transparent %u\n", so->draw_cmds[0],
           so->draw_cmds[2], sf->draw_cmds[0], sf->draw_cmds[2]);
    CHECK(so->draw_cmds[0] == OPAQUE_RUNS && so->draw_cmds[2] == glass_runs);
    CHECK(sf->draw_cmds[0] == N - 2 && sf->draw_cmds[2] == 2); /* control: one per draw */
    /* The statistics say the same (draws vs draw commands). */
    printf("stats: %u draws, %u draw commands merged, %u unmerged\n", st_on.draws, st_on.draw_commands,
           st_off.draw_commands);
    CHECK(st_on.draws == N && st_off.draws == N);
    CHECK(st_on.draw_commands == OPAQUE_RUNS + glass_runs && st_off.draw_commands == N);
    orr_diff d = orr_test_compare(&a, &b);
    printf("merged vs unmerged: MAD %.4f, max %d\n", d.mad, d.max);
    CHECK(d.mad == 0 && d.max == 0);
    orr_test_image_free(&a), orr_test_image_free(&b);
    orr_scene_destroy(on.s), orr_scene_destroy(off.s);
}

TEST(culling_a_mesh_inside_a_run_hides_exactly_that_mesh) {
    city c = make_city(-1), ref = make_city(15), plain = make_city(-1);
    orr_image8 a, b, p;
    render(&c, true, &a);
    orr_test_image_free(&a);
    const orri_scene_gpu *sg = gpu_of(c.s);
    uint64_t epoch = sg->epoch;
    /* mesh 15 (run 11-29) moves far out of the frustum: a world change, not
     * a structural one; the recorded multi-draw stays and reads 0 instances */
    orr_node_set_position(c.s, orr_mesh_node(c.meshes[15]), (orr_dvec3){0, 10000, 0});
    for (int i = 0; i < 2; i++) {
        CHECK(orr_engine_render(engine, c.s) == ORR_OK);
        CHECK(orr_query_stats(engine).records == 0 && sg->epoch == epoch);
        const orri_slot *sl = last_slot(c.s);
        CHECK(sl->written[15] == 0 && sl->written[14] == 1 && sl->written[16] == 1);
        CHECK(sl->draw_cmds[0] == OPAQUE_RUNS);
    }
    render(&c, true, &a);
    render(&ref, false, &b); /* built without mesh 15, one draw per mesh */
    render(&plain, false, &p);
    double m = mad(&a, &b), control = mad(&a, &p);
    orr_test_save_png(orr_test_out_path("multidraw-culled.png"), &a);
    printf("culled inside a run vs built hidden (unmerged): MAD %.4f; vs all visible (control) %.4f\n", m, control);
    CHECK(m == 0 && control > 0.01);
    orr_test_image_free(&a), orr_test_image_free(&b), orr_test_image_free(&p);
    orr_scene_destroy(c.s), orr_scene_destroy(ref.s), orr_scene_destroy(plain.s);
}

/* ---- the geometry arena (decision 80) ---- */

/* Renders as render() with the arena on or off for the geometries uploaded
 * by this render (read at upload: a new scene's first render). */
static void render_arena(city *c, bool merge, bool arena, orr_image8 *img) {
    bool was = engine->gpu.geometry_arena;
    engine->gpu.geometry_arena = arena;
    render(c, merge, img);
    engine->gpu.geometry_arena = was;
}

static const orri_mesh_gpu *mesh_gpu(orr_scene *s, orr_mesh m) {
    return &gpu_of(s)->meshes[orri_scene_slot(orr_mesh_node(m).id)];
}

/* Whether the vertex ranges [vertex_offset, + vertex_count) and the index
 * ranges of `n` meshes of one chunk are pairwise disjoint. */
static bool ranges_disjoint(orr_scene *s, const orr_mesh *m, int n) {
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            const orri_geometry_gpu *a = mesh_gpu(s, m[i])->geo, *b = mesh_gpu(s, m[j])->geo;
            if (a == b) return false;
            int64_t va = a->vertex_offset, vb = b->vertex_offset;
            if (va < vb + b->vertex_count && vb < va + a->vertex_count) return false;
            if (a->first_index < b->first_index + b->index_count && b->first_index < a->first_index + a->index_count)
                return false;
        }
    return true;
}

TEST(own_geometries_share_an_arena_chunk_and_merge) {
    city on = make_city_of(-1, true, false), off = make_city_of(-1, true, false), shared = make_city(-1);
    orr_image8 a, b, c;
    render_arena(&on, true, true, &a);
    render_arena(&off, true, false, &b); /* control: own buffers per mesh, merging allowed */
    render(&shared, true, &c);
    orr_test_save_png(orr_test_out_path("multidraw-own-geometries.png"), &a);
    const orri_mesh_gpu *m0 = mesh_gpu(on.s, on.meshes[0]);
    CHECK(m0->geo->chunk != NULL && m0->index_type == VK_INDEX_TYPE_UINT16);
    uint32_t spheres = 0;
    for (int i = 0; i < N; i++) {
        const orri_mesh_gpu *mg = mesh_gpu(on.s, on.meshes[i]), *mo = mesh_gpu(off.s, off.meshes[i]);
        CHECK(mg->geo->chunk == m0->geo->chunk && mg->streams[0].buffer == m0->streams[0].buffer &&
              mg->indices.buffer == m0->indices.buffer);
        CHECK(mg->first_index == mg->geo->first_index && mg->vertex_offset == mg->geo->vertex_offset);
        CHECK(mo->geo->chunk == NULL && mo->first_index == 0 && mo->vertex_offset == 0);
        CHECK(mg->index_count == mo->index_count);
        spheres += i % 7 == 3;
    }
    CHECK(spheres == 9 && ranges_disjoint(on.s, on.meshes, N));
    /* The 64 geometries filled consecutive ranges: one copy per stream and
     * one for the indices (absent colours are filled white, so four streams). */
    printf("arena copy commands for %d geometries: %llu\n", N, (unsigned long long)gpu_of(on.s)->arena_copies);
    CHECK(gpu_of(on.s)->arena_copies == 5);
    const orri_slot *so = last_slot(on.s), *sf = last_slot(off.s);
    printf("own geometries, draw commands: arena %u, own buffers %u (runs %d)\n", so->draw_cmds[0], sf->draw_cmds[0],
           OPAQUE_RUNS);
    CHECK(so->draw_cmds[0] == OPAQUE_RUNS && sf->draw_cmds[0] == N - 2);
    orr_diff d = orr_test_compare(&a, &b);
    double control = mad(&a, &c);
    printf("arena + runs vs own buffers: MAD %.4f, max %d; vs the shared-box city (control) %.4f\n", d.mad, d.max,
           control);
    CHECK(d.mad == 0 && d.max == 0 && control > 0.01);
    orr_test_image_free(&a), orr_test_image_free(&b), orr_test_image_free(&c);
    orr_scene_destroy(on.s), orr_scene_destroy(off.s), orr_scene_destroy(shared.s);
}

/* The highest vertex a mesh of `c` uses, plus one. */
static uint32_t vertex_end(city *c) {
    uint32_t end = 0;
    for (int i = 0; i < N; i++) {
        if (!c->meshes[i].id) continue;
        const orri_geometry_gpu *g = mesh_gpu(c->s, c->meshes[i])->geo;
        if (g->chunk && (uint32_t)g->vertex_offset + g->vertex_count > end) end = g->vertex_offset + g->vertex_count;
    }
    return end;
}

/* Meshes 1..8 replaced by new geometries (ids `base` + k). */
static void replace_meshes(city *c, int base) {
    orr_material red = orr_mesh_get_material(c->s, c->meshes[11]);
    for (int i = 1; i <= 8; i++) {
        orr_mesh_destroy(c->s, c->meshes[i]);
        orr_geometry g;
        own_geometry(base + i, &g);
        c->meshes[i] = orr_mesh_create(
            c->s, &(orr_mesh_desc){
                      .geometry = &g, .material = red, .position = {(i % 8 - 3.5) * 2.5, 0.5 * base / 100, -8.75}});
        orr_geometry_free(&g);
    }
}

TEST(freed_arena_ranges_are_reused_once_no_frame_reads_them) {
    city c = make_city_of(-1, true, false), ref = make_city_of(-1, true, false);
    orr_image8 a, b;
    render_arena(&c, true, true, &a);
    render_arena(&ref, true, false, &b);
    orr_test_image_free(&a), orr_test_image_free(&b);
    const orri_geo_chunk *chunk = mesh_gpu(c.s, c.meshes[0])->geo->chunk;
    uint32_t end = vertex_end(&c), freed_at = (uint32_t)mesh_gpu(c.s, c.meshes[1])->vertex_offset;
    /* Removed and added in one frame while a frame in flight still reads the
     * removed ranges: the new geometries go past the end. */
    CHECK(orr_engine_render(engine, c.s) == ORR_OK);
    replace_meshes(&c, 100), replace_meshes(&ref, 100);
    CHECK(orr_engine_render(engine, c.s) == ORR_OK);
    for (int i = 1; i <= 8; i++) {
        const orri_geometry_gpu *g = mesh_gpu(c.s, c.meshes[i])->geo;
        CHECK(g->chunk == chunk && (uint32_t)g->vertex_offset >= end);
    }
    uint32_t end2 = vertex_end(&c);
    /* Once those frames completed, the next geometries take the lowest free
     * ranges: those of the first removal. */
    render(&c, true, &a);
    orr_test_image_free(&a);
    replace_meshes(&c, 200);
    render_arena(&ref, true, false, &b);
    orr_test_image_free(&b);
    replace_meshes(&ref, 200);
    /* A geometry of more than 65 536 vertices keeps its own buffers (32-bit indices). */
    orr_geometry big;
    CHECK(orr_geometry_build_sphere(&(orr_sphere_desc){.segments = 200, .diameter = 3}, NULL, &big) == ORR_OK);
    CHECK(big.vertex_count > 65536);
    orr_mesh_desc bd = {.geometry = &big, .material = orr_mesh_get_material(c.s, c.meshes[11]), .position = {0, 3, 0}};
    orr_mesh big_mesh = orr_mesh_create(c.s, &bd);
    bd.material = orr_mesh_get_material(ref.s, ref.meshes[11]);
    orr_mesh_create(ref.s, &bd);
    orr_geometry_free(&big);
    render(&c, true, &a);
    render_arena(&ref, true, false, &b);
    bool reused = true;
    for (int i = 1; i <= 8; i++) {
        const orri_geometry_gpu *g = mesh_gpu(c.s, c.meshes[i])->geo;
        reused &= g->chunk == chunk && (uint32_t)g->vertex_offset >= freed_at && (uint32_t)g->vertex_offset < end;
    }
    const orri_mesh_gpu *bg = mesh_gpu(c.s, big_mesh);
    printf("arena: first end %u, after the same-frame replacement %u, after reuse %u; big sphere in its own "
           "buffers: %d\n",
           end, end2, vertex_end(&c), bg->geo->chunk == NULL);
    CHECK(reused && end2 > end && vertex_end(&c) <= end);
    CHECK(bg->geo->chunk == NULL && bg->index_type == VK_INDEX_TYPE_UINT32 && bg->vertex_offset == 0);
    CHECK(ranges_disjoint(c.s, c.meshes, N));
    orr_test_save_png(orr_test_out_path("multidraw-arena-reused.png"), &a);
    orr_diff d = orr_test_compare(&a, &b);
    printf("reused ranges vs own buffers, same meshes: MAD %.4f, max %d\n", d.mad, d.max);
    CHECK(d.mad == 0 && d.max == 0);
    orr_test_image_free(&a), orr_test_image_free(&b);
    orr_scene_destroy(c.s), orr_scene_destroy(ref.s);
}

/* PBR draws merge too (decision 83): their blocks are read by object index,
 * and materials with the same textures share one texture set. The same 64
 * meshes with their own geometries (arena) under PBR materials: 10
 * double-sided (another pipeline), 20 another material without textures (the
 * same set: no break), 30 mirrored, 40 textured (another set), 50 and 51
 * blended. */
TEST(pbr_draws_merge_and_draw_the_same_image) {
    city on = make_city_of(-1, true, true), off = make_city_of(-1, true, true);
    orr_image8 a, b;
    render(&on, true, &a);
    render(&off, false, &b);
    orr_test_save_png(orr_test_out_path("multidraw-pbr.png"), &a);
    const orri_scene_gpu *sg = gpu_of(on.s);
    CHECK(sg->draw_count == N);
    for (uint32_t i = 0; i < sg->draw_count; i++)
        CHECK(sg->draws[i].pbr && sg->draws[i].node == orr_mesh_node(on.meshes[i]).id);
    /* materials without textures share one texture set; the textured one has its own */
    CHECK(sg->draws[BLUE].texture_set == sg->draws[0].texture_set &&
          sg->draws[TEXTURED].texture_set != sg->draws[0].texture_set);
    const orri_slot *so = last_slot(on.s), *sf = last_slot(off.s);
    printf("PBR draw commands: merged %u (runs %d), unmerged %u\n", so->draw_cmds[0], OPAQUE_RUNS, sf->draw_cmds[0]);
    CHECK(so->draw_cmds[0] == OPAQUE_RUNS && sf->draw_cmds[0] == N - 2);
    orr_diff d = orr_test_compare(&a, &b);
    printf("PBR merged vs unmerged: MAD %.4f, max %d\n", d.mad, d.max);
    CHECK(d.mad == 0 && d.max == 0);
    orr_test_image_free(&a), orr_test_image_free(&b);
    orr_scene_destroy(on.s), orr_scene_destroy(off.s);
}

int main(int argc, char **argv) {
    orr_engine_desc d = {.width = 320, .height = 200, .msaa = 1};
    orr_test_validation_hook(&d);
    if (orr_engine_create(&d, &engine) != ORR_OK) {
        fprintf(stderr, "%s\n", orr_engine_last_error(NULL));
        return 1;
    }
    orr_test_fail_on_validation();
    uint8_t px[4 * 4 * 4];
    for (int k = 0; k < 16; k++) {
        bool on = (k % 4 + k / 4) % 2;
        memcpy(px + 4 * k, on ? (uint8_t[]){250, 250, 240, 255} : (uint8_t[]){30, 60, 200, 255}, 4);
    }
    CHECK(orr_texture_create(
              engine,
              &(orr_texture_desc){
                  .width = 4, .height = 4, .rgba = px, .sampler = {.filter = ORR_FILTER_NEAREST}, .label = "checker"},
              &checker) == ORR_OK);
    int rc = RUN_TESTS(argc, argv);
    orr_texture_destroy(engine, checker);
    orr_engine_destroy(engine);
    return rc;
}
