/* test_gltf_scene.c — what a load makes in the scene (orrery/gltf.h), both
 * builds, no rendering: copies sharing materials (orr_gltf_instantiate),
 * nodes by index and name, EXT_mesh_gpu_instancing thin instances with
 * world bounds, a glTF camera looking down its node's −Z, a
 * KHR_lights_punctual spot light with Babylon.js's conventions, and a
 * failed load that leaves nothing and names the file. */
#include <math.h>

#include "harness.h"
#include "support/test_support.h"

#include <orrery/gltf.h>

static orr_engine *engine;

static orr_gltf *load(orr_scene *s, const char *rel) {
    char err[512] = "";
    orr_gltf *g = NULL;
    orr_gltf_load_file(s, orr_test_asset_path(rel),
                       &(orr_gltf_desc){.error_buffer = err, .error_buffer_size = sizeof err}, &g);
    if (!g) fprintf(stderr, "  %s: %s\n", rel, err);
    return g;
}

TEST(copies_share_materials_not_nodes) {
    orr_scene *s;
    REQUIRE(orr_scene_create(engine, NULL, &s) == ORR_OK);
    orr_gltf *a = load(s, "gltf/Fox/Fox.glb"), *b = NULL;
    REQUIRE(a);
    CHECK(orr_gltf_node_count(a) == 26 && orr_gltf_mesh_count(a) == 1 && orr_gltf_primitive_count(a, 0) == 1);
    CHECK(orr_gltf_find_node(a, "b_Hip_01").id == orr_gltf_node(a, 4).id && orr_gltf_find_node(a, "nope").id == 0);
    CHECK(strcmp(orr_gltf_node_name(a, 1), "fox") == 0);
    CHECK(orr_gltf_animation_count(a) == 3 && strcmp(orr_gltf_animation_name(a, 1), "Walk") == 0);
    CHECK(orr_gltf_skin_count(a) == 1);
    REQUIRE(orr_gltf_instantiate(s, a, (orr_node){0}, &b) == ORR_OK);
    orr_mesh ma, mb;
    CHECK(orr_gltf_meshes(a, &ma, 1) == 1 && orr_gltf_meshes(b, &mb, 1) == 1);
    CHECK(ma.id != mb.id && orr_gltf_root(a).id != orr_gltf_root(b).id);
    CHECK(orr_mesh_get_material(s, ma).id == orr_mesh_get_material(s, mb).id);
    CHECK(orr_gltf_material(a, 0).id == orr_mesh_get_material(s, ma).id);
    CHECK(orr_gltf_texture(a, 0).id == orr_gltf_texture(b, 0).id && orr_gltf_texture(a, 0).id != 0);
    orr_node root_a = orr_gltf_root(a);
    orr_gltf_destroy(s, a); /* the copy keeps the shared part alive */
    CHECK(!orr_node_is_valid(s, root_a) && orr_node_is_valid(s, orr_gltf_root(b)));
    CHECK(orr_mesh_get_material(s, mb).id == orr_gltf_material(b, 0).id);
    CHECK(orr_mesh_get_vertex_count(s, mb) > 0);
    orr_gltf_destroy(s, b);
    orr_scene_destroy(s);
}

TEST(instancing_makes_thin_instances_with_bounds) {
    orr_scene *s;
    REQUIRE(orr_scene_create(engine, NULL, &s) == ORR_OK);
    orr_gltf *g = load(s, "gltf/SimpleInstancing/SimpleInstancing.glb");
    REQUIRE(g);
    orr_mesh m;
    REQUIRE(orr_gltf_meshes(g, &m, 1) == 1);
    orr_dbox box = orr_instances_query_world_box(s, m);
    REQUIRE(!orr_dbox_is_empty(box));
    /* translations 0..10 on every axis, unit cubes scaled up to 2: the grid spans about 0..12; the
     * left-handed root mirrors X */
    double xmin = ORR_RIGHT_HANDED ? box.min.x : -box.max.x, xmax = ORR_RIGHT_HANDED ? box.max.x : -box.min.x;
    fprintf(stderr, "  instances x %.2f..%.2f y %.2f..%.2f z %.2f..%.2f\n", box.min.x, box.max.x, box.min.y, box.max.y,
            box.min.z, box.max.z);
    CHECK(xmin > -3 && xmin < 1 && xmax > 10 && xmax < 14);
    CHECK(box.min.y > -3 && box.max.y > 10 && box.max.y < 14);
    orr_gltf_destroy(s, g);
    orr_scene_destroy(s);
}

static const char *camera_light_json =
    "{\"asset\":{\"version\":\"2.0\"},\"extensionsUsed\":[\"KHR_lights_punctual\"],"
    "\"extensions\":{\"KHR_lights_punctual\":{\"lights\":[{\"type\":\"spot\",\"color\":[1,0.5,0.25],"
    "\"intensity\":3,\"range\":20,\"spot\":{\"innerConeAngle\":0.2,\"outerConeAngle\":0.5}}]}},"
    "\"cameras\":[{\"type\":\"perspective\",\"perspective\":{\"yfov\":0.7,\"znear\":0.05,\"zfar\":500}}],"
    "\"nodes\":[{\"name\":\"cam\",\"camera\":0,\"translation\":[1,2,3],\"rotation\":[0,0.7071068,0,0.7071068]},"
    "{\"name\":\"spot\",\"extensions\":{\"KHR_lights_punctual\":{\"light\":0}},\"translation\":[0,4,0]}],"
    "\"scenes\":[{\"nodes\":[0,1]}]}";

TEST(camera_and_spot_light) {
    orr_scene *s;
    REQUIRE(orr_scene_create(engine, NULL, &s) == ORR_OK);
    orr_gltf *g = NULL;
    char err[256];
    REQUIRE(orr_gltf_load_memory(
                s, camera_light_json, strlen(camera_light_json), NULL,
                &(orr_gltf_desc){.label = "inline.gltf", .error_buffer = err, .error_buffer_size = sizeof err},
                &g) == ORR_OK);
    REQUIRE(orr_gltf_camera_count(g) == 1 && orr_gltf_light_count(g) == 1);
    orr_camera cam = orr_gltf_camera(g, 0);
    CHECK(orr_node_get_parent(s, orr_camera_node(cam)).id == orr_gltf_find_node(g, "cam").id);
    /* the node turns −Z to −X (glTF space): a point 5 along the node's −Z is straight ahead */
    orr_dmat4 node_w = orr_node_get_world_matrix(s, orr_gltf_find_node(g, "cam"));
    orr_dvec3 ahead = orr_dmat4_transform_point(node_w, (orr_dvec3){0, 0, -5});
    orr_dvec3 v = orr_dmat4_transform_point(orr_camera_get_view_matrix(s, cam), ahead);
    CHECK_NEAR(v.x, 0, 1e-6);
    CHECK_NEAR(v.y, 0, 1e-6);
    CHECK_NEAR(v.z, 5, 1e-6); /* in front: view z is the positive distance in both builds */
    orr_light l = orr_gltf_light(g, 0);
    orr_light_desc d = orr_light_get(s, l);
    CHECK(d.type == ORR_LIGHT_SPOT && d.range == 20 && d.intensity.value == 3);
    CHECK_NEAR(d.angle, 1.0, 1e-12); /* 2 × outerConeAngle */
    CHECK(d.diffuse.value.g == 0.5 && d.diffuse.value.b == 0.25);
    CHECK(orr_node_get_parent(s, orr_light_node(l)).id == orr_gltf_find_node(g, "spot").id);
    orr_gltf_destroy(s, g);
    orr_scene_destroy(s);
}

TEST(failed_load_leaves_nothing) {
    orr_scene *s;
    REQUIRE(orr_scene_create(engine, NULL, &s) == ORR_OK);
    orr_gltf *g = (orr_gltf *)1;
    char err[256];
    const char *bad = "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"children\":[0]}]}";
    CHECK(orr_gltf_load_memory(
              s, bad, strlen(bad), NULL,
              &(orr_gltf_desc){.label = "bad.gltf", .error_buffer = err, .error_buffer_size = sizeof err},
              &g) == ORR_ERROR_MALFORMED);
    CHECK(g == NULL && strncmp(err, "bad.gltf: nodes[0].children[0]", 30) == 0);
    CHECK(orr_gltf_load_file(s, "/nonexistent/x.glb",
                             &(orr_gltf_desc){.error_buffer = err, .error_buffer_size = sizeof err},
                             &g) == ORR_ERROR_IO);
    CHECK(g == NULL && strstr(err, "/nonexistent/x.glb") != NULL);
    orr_scene_destroy(s);
}

int main(int argc, char **argv) {
    orr_test_require_assets();
    engine = orr_test_engine(64, 64, 1);
    orr_test_fail_on_validation();
    int r = RUN_TESTS(argc, argv);
    orr_engine_destroy(engine);
    return r;
}
