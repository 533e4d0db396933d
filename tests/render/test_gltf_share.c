/* test_gltf_share.c — copies of a model share its GPU geometry
 * (orr_gltf_instantiate, orr_mesh_desc.share_geometry; src/render/geometry_gpu.c).
 *
 * The scene's GPU state is read directly (render_int.h): the number of
 * geometry copies and their bytes must not grow with the number of glTF
 * copies, a frame after making 15 copies must upload less than one copy of
 * the geometry (only per-draw data), the original can be destroyed first
 * and its copy still draws the same image, and the GPU copy goes away with
 * its last mesh. Skinned copies share the source streams (skin joints and
 * weights included: no upload for a new copy) and get their own deformed
 * outputs. */
#include <math.h>
#include <stdio.h>

#include "harness.h"
#include "render/render_int.h" /* the scene's geometry table */
#include "support/test_support.h"

#include <orrery/gltf.h>

#define W 96
#define H 96
static orr_engine *engine;

static orr_gltf *load(orr_scene *s, const char *rel) {
    char err[512] = "";
    orr_gltf *g = NULL;
    orr_gltf_load_file(s, orr_test_asset_path(rel),
                       &(orr_gltf_desc){.error_buffer = err, .error_buffer_size = sizeof err}, &g);
    if (!g) fprintf(stderr, "  %s: %s\n", rel, err);
    return g;
}

static uint32_t geo_count(const orr_scene *s) {
    const orri_scene_gpu *sg = s->render_state;
    return sg ? sg->geo_count : 0;
}

static uint64_t geo_bytes(const orr_scene *s) {
    const orri_scene_gpu *sg = s->render_state;
    return sg ? sg->geo_bytes : 0;
}

static orr_scene *lit_scene(double radius) {
    orr_scene *s = NULL;
    CHECK(orr_scene_create(engine, &(orr_scene_desc){.clear_color = ORR_RGBA(0, 0, 0, 1)}, &s) == ORR_OK);
    if (!s) return NULL;
    orr_camera_create_arc_rotate(s, &(orr_arc_rotate_desc){.alpha = -1.2, .beta = 1.2, .radius = radius});
    orr_light_create(s, &(orr_light_desc){.type = ORR_LIGHT_HEMISPHERIC, .direction = {0.3, 1, 0.2}});
    return s;
}

/* The bytes uploaded by one frame (its picture replaces `img`'s). */
static uint64_t frame_upload(orr_scene *s, orr_image8 *img) {
    orr_test_image_free(img);
    uint64_t before = orr_query_stats(engine).bytes_uploaded_total;
    CHECK(orr_test_render(engine, s, 1, img));
    return orr_query_stats(engine).bytes_uploaded_total - before;
}

TEST(copies_share_gpu_geometry_and_outlive_the_original) {
    orr_scene *s = lit_scene(0.7);
    REQUIRE(s);
    orr_gltf *a = load(s, "gltf/WaterBottle/WaterBottle.gltf"), *copies[16] = {0};
    REQUIRE(a);
    orr_image8 one = {0}, alone = {0}, many = {0};
    uint64_t first = frame_upload(s, &one);
    uint32_t count = geo_count(s);
    uint64_t bytes = geo_bytes(s);
    fprintf(stderr, "  original: %u geometry copies, %llu bytes\n", count, (unsigned long long)bytes);
    CHECK(count == 1 && bytes > 100000); /* 2 549 vertices: positions, normals, uvs, colours, tangents, indices */
    CHECK(first >= bytes);               /* the counter sees geometry uploads */
    /* A copy in the same place, then the original goes: the same picture. */
    REQUIRE(orr_gltf_instantiate(s, a, (orr_node){0}, &copies[0]) == ORR_OK);
    orr_gltf_destroy(s, a);
    frame_upload(s, &alone);
    orr_diff d = orr_test_compare(&one, &alone);
    fprintf(stderr, "  copy without its original: MAD %.4f max %d\n", d.mad, d.max);
    CHECK(d.mad < 0.01 && d.max <= 1);
    CHECK(geo_count(s) == 1 && geo_bytes(s) == bytes);
    /* 15 more copies, made from the copy, side by side. */
    for (int i = 1; i < 16; i++) {
        orr_node holder = orr_node_create(s, &(orr_node_desc){.position = {0.12 * (i % 4) - 0.2, 0, 0.12 * (i / 4)}});
        REQUIRE(orr_gltf_instantiate(s, copies[i - 1], holder, &copies[i]) == ORR_OK);
    }
    uint64_t up = frame_upload(s, &many);
    fprintf(stderr, "  16 copies: %u geometry copies, %llu bytes; the frame after uploaded %llu bytes\n", geo_count(s),
            (unsigned long long)geo_bytes(s), (unsigned long long)up);
    CHECK(geo_count(s) == 1 && geo_bytes(s) == bytes);
    CHECK(up < bytes / 2);                          /* per-draw data only: no geometry upload */
    CHECK(orr_test_compare(&alone, &many).mad > 1); /* the copies are drawn */
    orr_test_save_png(orr_test_out_path("gltf_share_16.png"), &many);
    for (int i = 0; i < 16; i++) orr_gltf_destroy(s, copies[i]);
    frame_upload(s, &many);
    CHECK(geo_count(s) == 0 && geo_bytes(s) == 0);
    orr_test_image_free(&one), orr_test_image_free(&alone), orr_test_image_free(&many);
    orr_scene_destroy(s);
}

/* Skinned copies: one shared geometry, a deformed output per copy. */
TEST(skinned_copies_share_sources_not_outputs) {
    orr_scene *s = lit_scene(300);
    REQUIRE(s);
    orr_gltf *g[4] = {load(s, "gltf/Fox/Fox.glb")};
    REQUIRE(g[0]);
    orr_image8 img = {0};
    uint64_t first_up = frame_upload(s, &img);
    uint64_t bytes = geo_bytes(s);
    for (int i = 1; i < 4; i++) REQUIRE(orr_gltf_instantiate(s, g[0], (orr_node){0}, &g[i]) == ORR_OK);
    uint64_t up = frame_upload(s, &img);
    fprintf(stderr, "  Fox: geometry %llu bytes (first frame uploaded %llu); 3 copies uploaded %llu bytes\n",
            (unsigned long long)bytes, (unsigned long long)first_up, (unsigned long long)up);
    /* 1 728 vertices: base streams + joints (8 B) and weights (16 B) per vertex, shared */
    CHECK(geo_count(s) == 1 && geo_bytes(s) == bytes && bytes > 1728 * (12 + 12 + 8 + 16 + 8 + 16));
    CHECK(first_up >= bytes && up < bytes / 4); /* the skin sources are not uploaded again */
    const orri_scene_gpu *sg = s->render_state;
    const orri_mesh_gpu *first = NULL;
    for (int i = 0; i < 4; i++) {
        orr_mesh m;
        REQUIRE(orr_gltf_meshes(g[i], &m, 1) == 1);
        const orri_mesh_gpu *mg = &sg->meshes[orri_scene_slot(m.id)];
        CHECK(mg->node == m.id && mg->geo && mg->deform);
        if (!first) first = mg;
        CHECK(mg->geo == first->geo && mg->streams[0].buffer == first->streams[0].buffer);
        CHECK(mg == first || mg->deform != first->deform);
    }
    orr_gltf_destroy(s, g[0]); /* the original first */
    frame_upload(s, &img);
    CHECK(geo_count(s) == 1);
    for (int i = 1; i < 4; i++) orr_gltf_destroy(s, g[i]);
    orr_test_image_free(&img);
    orr_scene_destroy(s);
}

/* The public form: orr_mesh_desc.share_geometry. */
TEST(mesh_share_geometry) {
    orr_scene *s = lit_scene(6);
    REQUIRE(s);
    orr_geometry box;
    REQUIRE(orr_geometry_build_box(NULL, NULL, &box) == ORR_OK);
    orr_mesh a = orr_mesh_create(s, &(orr_mesh_desc){.geometry = &box});
    orr_geometry_free(&box);
    orr_mesh b = orr_mesh_create(s, &(orr_mesh_desc){.share_geometry = a, .position = {1.5, 0, 0}});
    REQUIRE(a.id && b.id);
    CHECK(orr_mesh_get_vertex_count(s, b) == 24);
    CHECK(orr_mesh_get_local_box(s, b).max.x == orr_mesh_get_local_box(s, a).max.x);
    orr_image8 img = {0};
    frame_upload(s, &img);
    CHECK(geo_count(s) == 1);
    orr_mesh_destroy(s, a);
    orr_mesh c = orr_mesh_create(s, &(orr_mesh_desc){.share_geometry = b, .position = {-1.5, 0, 0}});
    CHECK(c.id != 0);
    frame_upload(s, &img);
    CHECK(geo_count(s) == 1 && orr_mesh_get_vertex_count(s, c) == 24);
    /* Misuse: both, or a stale mesh. */
    orr_geometry other;
    REQUIRE(orr_geometry_build_box(NULL, NULL, &other) == ORR_OK);
    CHECK(orr_mesh_create(s, &(orr_mesh_desc){.geometry = &other, .share_geometry = b}).id == 0);
    CHECK(orr_mesh_create(s, &(orr_mesh_desc){.share_geometry = a}).id == 0);
    orr_geometry_free(&other);
    orr_test_image_free(&img);
    orr_scene_destroy(s); /* b and c still share: freed with the scene */
}

int main(int argc, char **argv) {
    orr_test_require_assets();
    engine = orr_test_engine(W, H, 1);
    orr_test_fail_on_validation();
    int r = RUN_TESTS(argc, argv);
    orr_engine_destroy(engine);
    return r;
}
