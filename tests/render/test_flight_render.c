/* The flight controller (orrery/controls.h) driving a real camera over a
 * planet 10^13 m from the origin (integer cells, floating origin): the
 * runway view 1 m above the surface, a climb to 10^8 m and a descent back,
 * rendered. Checks: the runway image after the round trip equals the one
 * before (the pose comes back to 10^-9 m); looking straight down on the way
 * up, the planet's disc has the angular radius asin(R / (R + h)) at 3·10^7 m
 * and 10^8 m; no validation message. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <orrery/controls.h>
#include <orrery/large_world.h>

#include "harness.h"
#include "support/test_support.h"

#define W 192
#define H 192
static const double FOV = 0.8, R = 6.371e6;

static orr_engine *make_engine(void) {
    orr_engine_desc d = {.width = W, .height = H, .msaa = 4, .floating_origin = &orr_floating_origin};
    orr_test_validation_hook(&d);
    orr_engine *e = NULL;
    if (orr_engine_create(&d, &e) != ORR_OK) {
        fprintf(stderr, "no engine: %s\n", orr_engine_last_error(NULL));
        exit(1);
    }
    return e;
}

static bool grab(orr_engine *e, orr_scene *s, orr_image8 *out) {
    uint8_t *rgba = malloc(W * H * 4);
    bool ok = orr_engine_render(e, s) == ORR_OK && orr_engine_read_pixels(e, rgba, W * H * 4) == ORR_OK;
    out->width = W, out->height = H, out->rgb = malloc(W * H * 3);
    for (int i = 0; i < W * H; i++)
        for (int c = 0; c < 3; c++) out->rgb[i * 3 + c] = rgba[i * 4 + c];
    free(rgba);
    return ok;
}

/* Pixels of the planet's colour (green dominant) and the disc radius they make. */
static double disc_radius_px(const orr_image8 *img) {
    int n = 0;
    for (int i = 0; i < W * H; i++) {
        const uint8_t *p = img->rgb + i * 3;
        n += p[1] > 40 && p[1] > p[0] + 20 && p[1] > p[2] + 20;
    }
    return sqrt(n / 3.14159265358979323846);
}

TEST(flight_round_trip_and_planet_disc) {
    orr_engine *e = make_engine();
    orr_scene *s = NULL;
    REQUIRE(orr_scene_create(e, &(orr_scene_desc){.clear_color = ORR_RGBA(0, 0, 0, 1)}, &s) == ORR_OK);
    orr_flight_controls fc = {.centre = orr_wpos_make((orr_cell3){9536743, -4000000, 2000}, (orr_dvec3){1234.5, 0, 7}),
                              .radius = R};
    orr_dvec3 v0 = orr_dvec3_normalize((orr_dvec3){1, 2, 3});
    orr_dvec3 tangent = orr_dvec3_normalize(orr_dvec3_cross(v0, (orr_dvec3){0, 0, 1}));
    orr_light_create(s, &(orr_light_desc){.type = ORR_LIGHT_HEMISPHERIC, .direction = v0});
    /* The planet: a sphere of radius R (its facets lie below the true surface). */
    orr_geometry g;
    REQUIRE(orr_geometry_build_sphere(&(orr_sphere_desc){.diameter = 2 * R, .segments = 64}, NULL, &g) == ORR_OK);
    orr_material green = orr_standard_material_create(
        s, &(orr_standard_material_desc){.diffuse = ORR_RGB(0.2, 0.8, 0.3), .specular = ORR_RGB(0, 0, 0)});
    orr_mesh planet = orr_mesh_create(s, &(orr_mesh_desc){.geometry = &g, .material = green, .label = "planet"});
    orr_geometry_free(&g);
    orr_node_set_world_position(s, orr_mesh_node(planet), fc.centre);
    /* A runway marker 20 m ahead of the eye on the surface. */
    REQUIRE(orr_geometry_build_box(&(orr_box_desc){.size = 2}, NULL, &g) == ORR_OK);
    orr_material red =
        orr_standard_material_create(s, &(orr_standard_material_desc){.diffuse = ORR_RGB(0.9, 0.2, 0.1)});
    orr_mesh marker = orr_mesh_create(s, &(orr_mesh_desc){.geometry = &g, .material = red, .label = "marker"});
    orr_geometry_free(&g);
    orr_node_set_world_position(
        s, orr_mesh_node(marker),
        orr_wpos_add(fc.centre, orr_dvec3_add(orr_dvec3_scale(v0, R), orr_dvec3_scale(tangent, 20))));
    orr_node_set_rotation_quaternion(s, orr_mesh_node(marker), orr_controls_look_rotation(tangent, v0));
    /* The flying camera and a nadir camera that follows it. */
    orr_camera cam = orr_camera_create_free(
        s, &(orr_free_camera_desc){.fov = FOV, .near = 0.05, .far = ORR_FAR_INFINITE, .label = "flight"});
    orr_camera nadir = orr_camera_create_free(
        s, &(orr_free_camera_desc){.fov = FOV, .near = 0.05, .far = ORR_FAR_INFINITE, .label = "nadir"});
    REQUIRE(cam.id && nadir.id);
    orr_wpos start = orr_wpos_add(fc.centre, orr_dvec3_scale(v0, R + 1));
    orr_node_set_world_position(s, orr_camera_node(cam), start);
    orr_node_set_rotation_quaternion(s, orr_camera_node(cam), orr_controls_look_rotation(tangent, v0));
    orr_scene_set_active_camera(s, cam);
    orr_image8 before, after;
    REQUIRE(grab(e, s, &before));
    orr_test_save_png(orr_test_out_path("flight_runway.png"), &before);

    orr_input_state in = {0};
    in.keys[ORR_KEY_SPACE] = true;
    const double dt = 1.0 / 60;
    const double checks[] = {3e7, 1e8};
    int n = 0, next = 0;
    while (orr_flight_altitude(&fc, orr_node_get_world_position(s, orr_camera_node(cam))) < 1e8) {
        orr_flight_controls_apply(&fc, &in, dt, s, cam);
        n++;
        orr_wpos p = orr_node_get_world_position(s, orr_camera_node(cam));
        double h = orr_flight_altitude(&fc, p);
        if (next < 2 && h >= checks[next]) {
            orr_node_set_world_position(s, orr_camera_node(nadir), p);
            orr_node_set_rotation_quaternion(s, orr_camera_node(nadir),
                                             orr_controls_look_rotation(orr_dvec3_neg(v0), tangent));
            orr_scene_set_active_camera(s, nadir);
            orr_image8 img;
            REQUIRE(grab(e, s, &img));
            double want = tan(asin(R / (R + h))) / tan(FOV / 2) * (H / 2.0), got = disc_radius_px(&img);
            printf("flight render: at %.3g m the disc is %.2f px in radius (expected %.2f)\n", h, got, want);
            CHECK(fabs(got - want) < 0.04 * want + 1);
            char name[64];
            snprintf(name, sizeof name, "flight_nadir_%d.png", next);
            orr_test_save_png(orr_test_out_path(name), &img);
            orr_test_image_free(&img);
            orr_scene_set_active_camera(s, cam);
            next++;
        }
    }
    CHECK(next == 2);
    in.keys[ORR_KEY_SPACE] = false;
    in.keys[ORR_KEY_LEFT_CONTROL] = true;
    for (int i = 0; i < n; i++) orr_flight_controls_apply(&fc, &in, dt, s, cam);
    orr_wpos end = orr_node_get_world_position(s, orr_camera_node(cam));
    double drift = orr_dvec3_length(orr_wpos_sub(end, start));
    REQUIRE(grab(e, s, &after));
    orr_test_save_png(orr_test_out_path("flight_runway_after.png"), &after);
    orr_diff d = orr_test_compare(&before, &after);
    printf("flight render: %d frames up, %d down; back %.3g m from the start; runway image MAD %.4f, max %d\n", n, n,
           drift, d.mad, d.max);
    CHECK(drift < 1e-6);
    CHECK(d.mad == 0 && d.max == 0);
    /* A control: the eye half a metre back changes the runway image. */
    orr_node_set_world_position(s, orr_camera_node(cam), orr_wpos_add(end, orr_dvec3_scale(tangent, -0.5)));
    orr_image8 moved;
    REQUIRE(grab(e, s, &moved));
    CHECK(orr_test_compare(&before, &moved).mad > 0);
    orr_test_image_free(&before), orr_test_image_free(&after), orr_test_image_free(&moved);
    orr_engine_destroy(e);
}

int main(int argc, char **argv) {
    orr_test_fail_on_validation();
    return RUN_TESTS(argc, argv);
}
