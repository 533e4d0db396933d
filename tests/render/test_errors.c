/* Error paths (STYLE.md's three tiers): impossible options and runtime
 * failures come back as orr_result with a readable last error and nothing
 * half-built; API misuse (null, stale, wrong-kind handles, unknown names) is
 * logged by name and the call does nothing. Every check of a failure has its
 * control: the same call done right succeeds and logs nothing. */
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "support/test_support.h"

static orr_engine *engine;
static orr_scene *scene;

/* ---- capture: logger, validation, allocator --------------------------------------------- */

static char last_log[2048];
static int log_count;
static int validation_count;

static orr_msg last_id;
static void capture(orr_log_level level, orr_msg id, const char *message, void *user) {
    (void)user;
    if (level > ORR_LOG_WARNING) return;
    snprintf(last_log, sizeof last_log, "%s", message);
    last_id = id;
    log_count++;
}

static void on_validation(const char *message, void *user) {
    (void)user;
    validation_count++;
    fprintf(stderr, "VALIDATION: %s\n", message);
}

static int after_each(void) {
    int n = validation_count;
    validation_count = 0;
    return n ? 1 : 0;
}

static long live_allocs, total_allocs;
static void *c_alloc(size_t n, void *u) {
    (void)u;
    live_allocs++, total_allocs++;
    return malloc(n);
}
static void *c_realloc(void *p, size_t n, void *u) {
    (void)u;
    if (!p) live_allocs++, total_allocs++;
    return realloc(p, n);
}
static void c_free(void *p, void *u) {
    (void)u;
    if (p) live_allocs--;
    free(p);
}

/* One new log line containing `a` (and `b` when given). */
static bool logged(int before, const char *a, const char *b) {
    bool ok = log_count == before + 1 && strstr(last_log, a) && (!b || strstr(last_log, b));
    if (!ok)
        fprintf(stderr, "expected one message with '%s' '%s'; got %d: %s\n", a, b ? b : "", log_count - before,
                last_log);
    return ok;
}

#define MISUSE(stmt, name)                                                        \
    do {                                                                          \
        int before_ = log_count;                                                  \
        stmt;                                                                     \
        CHECK(logged(before_, "API misuse", name) && orr_msg_is_misuse(last_id)); \
    } while (0)

/* ---- engine creation -------------------------------------------------------------------- */

TEST(engine_msaa_3_is_rejected_and_leaks_nothing) {
    live_allocs = total_allocs = 0;
    orr_engine *e = (orr_engine *)&e; /* must be reset to NULL */
    int before = log_count;
    orr_result r = orr_engine_create(&(orr_engine_desc){.msaa = 3,
                                                        .validation = ORR_VALIDATION_ON,
                                                        .allocator = {c_alloc, c_realloc, c_free, NULL},
                                                        .logger = {.log = capture}},
                                     &e);
    CHECK(r == ORR_ERROR_INVALID_ARGUMENT);
    CHECK(e == NULL);
    CHECK(strstr(orr_engine_last_error(NULL), "msaa") != NULL);
    CHECK(strstr(orr_engine_last_error(NULL), "ORR_ERROR_INVALID_ARGUMENT") != NULL);
    CHECK(logged(before, "msaa", NULL)); /* through the desc's logger */
    CHECK(total_allocs > 0);             /* the allocator hook was used ... */
    CHECK(live_allocs == 0);             /* ... and everything was given back */
    /* Other impossible options name themselves too. */
    r = orr_engine_create(&(orr_engine_desc){.width = 20000, .logger = {.log = capture}}, &e);
    CHECK(r == ORR_ERROR_INVALID_ARGUMENT && e == NULL && strstr(orr_engine_last_error(NULL), "16384"));
    r = orr_engine_create(&(orr_engine_desc){.frames_in_flight = 9, .logger = {.log = capture}}, &e);
    CHECK(r == ORR_ERROR_INVALID_ARGUMENT && e == NULL && strstr(orr_engine_last_error(NULL), "frames_in_flight"));
    CHECK(orr_engine_create(NULL, NULL) == ORR_ERROR_INVALID_ARGUMENT);
    /* Control: the shared engine (msaa 1) was created with the same path. */
    CHECK(engine != NULL && orr_engine_device_info(engine).msaa == 1);
}

/* A device choice that matches nothing names the devices there are. */
TEST(device_choice_matching_nothing_lists_the_devices) {
    orr_engine *e = NULL;
    orr_result r = orr_engine_create(
        &(orr_engine_desc){.device_name = "no-such-gpu-9z", .msaa = 1, .logger = {.log = capture}}, &e);
    const char *msg = orr_engine_last_error(NULL);
    printf("device choice message: %s\n", msg);
    CHECK(r == ORR_ERROR_NO_DEVICE && e == NULL);
    CHECK(strstr(msg, "'no-such-gpu-9z'") != NULL);
    CHECK(strstr(msg, "devices: 0: ") != NULL);
    CHECK(strstr(msg, orr_engine_device_info(engine).name) != NULL); /* the one the test engine runs on */
    /* Control: the name the message lists does select that device. */
    r = orr_engine_create(&(orr_engine_desc){.device_name = orr_engine_device_info(engine).name,
                                             .width = 16,
                                             .height = 16,
                                             .msaa = 1,
                                             .logger = {.log = capture}},
                          &e);
    CHECK(r == ORR_OK && e != NULL);
    orr_engine_destroy(e);
}

/* orr_engine_save_png writes PNG only, so any other name is refused and no file appears. */
TEST(save_png_refuses_a_name_that_is_not_png) {
    orr_scene *s;
    CHECK(orr_scene_create(engine, &(orr_scene_desc){.label = "png"}, &s) == ORR_OK);
    orr_camera_create_free(s, &(orr_free_camera_desc){.position = {0, 0, -5}, .label = "png"});
    CHECK(orr_engine_render(engine, s) == ORR_OK);
    const char *jpg = orr_test_out_path("not-a-png.jpg"), *png = orr_test_out_path("a-png.PNG");
    remove(jpg);
    int before = log_count;
    CHECK(orr_engine_save_png(engine, jpg) == ORR_ERROR_INVALID_ARGUMENT);
    CHECK(logged(before, "does not end in .png", "not-a-png.jpg"));
    FILE *f = fopen(jpg, "rb");
    CHECK(f == NULL);
    if (f) fclose(f);
    CHECK(orr_engine_save_png(engine, orr_test_out_path("png")) == ORR_ERROR_INVALID_ARGUMENT);
    CHECK(orr_engine_save_png(engine, NULL) == ORR_ERROR_INVALID_ARGUMENT);
    log_count = before; /* the two refusals above logged too */
    /* Control: a .png name (any case) is written. */
    CHECK(orr_engine_save_png(engine, png) == ORR_OK);
    f = fopen(png, "rb");
    unsigned char sig[8] = {0};
    CHECK(f && fread(sig, 1, 8, f) == 8 && sig[1] == 'P' && sig[2] == 'N' && sig[3] == 'G');
    if (f) fclose(f);
    orr_scene_destroy(s);
}

/* Geometry builders take no engine: their failures say why in orr_last_error(). */
TEST(geometry_builders_say_why_they_fail) {
    orr_geometry g;
    CHECK(orr_geometry_build_box(&(orr_box_desc){.size = -1}, NULL, &g) == ORR_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(orr_last_error(), "orr_geometry_build_box") && strstr(orr_last_error(), "ORR_ERROR_INVALID_ARGUMENT"));
    CHECK(orr_geometry_build_sphere(&(orr_sphere_desc){.segments = 100000}, NULL, &g) == ORR_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(orr_last_error(), "2^24 vertices") != NULL);
    CHECK(orr_geometry_build_torus(&(orr_torus_desc){.diameter = NAN}, NULL, &g) == ORR_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(orr_last_error(), "orr_geometry_build_torus") != NULL);
    CHECK(orr_geometry_build_ground(&(orr_ground_desc){.subdivisions = -2}, NULL, &g) == ORR_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(orr_last_error(), "orr_geometry_build_ground") != NULL);
    CHECK(orr_geometry_build_cylinder(&(orr_cylinder_desc){.height = INFINITY}, NULL, &g) ==
          ORR_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(orr_last_error(), "orr_geometry_build_cylinder") != NULL);
    CHECK(orr_geometry_build_plane(&(orr_plane_desc){.width = -3}, NULL, &g) == ORR_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(orr_last_error(), "orr_geometry_build_plane") != NULL);
    CHECK(orr_geometry_alloc(3, 3, 1u << 9, NULL, &g) == ORR_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(orr_last_error(), "unknown stream flags 0x200") != NULL);
    CHECK(orr_geometry_alloc(3, 3, 0, NULL, &g) == ORR_OK);
    g.indices[2] = 7;
    CHECK(orr_geometry_validate(&g) == ORR_ERROR_MALFORMED);
    CHECK(strstr(orr_last_error(), "index 2 is 7, past the 3 vertices") != NULL);
    orr_geometry_free(&g);
    /* Engine calls leave theirs there too (and in orr_engine_last_error). */
    MISUSE(orr_mesh_create(scene, &(orr_mesh_desc){.geometry = NULL}), NULL);
    CHECK(strstr(orr_last_error(), "API misuse") != NULL);
}

/* ---- invalid handles, family by family ---------------------------------------------------- */

/* Each family: make X, destroy it, make Y (it reuses X's slot with a new
 * generation), then use X: every call must log and must not touch Y. */
TEST(stale_node_and_mesh_handles) {
    orr_geometry g;
    CHECK(orr_geometry_build_box(NULL, NULL, &g) == ORR_OK);
    orr_mesh x = orr_mesh_create(scene, &(orr_mesh_desc){.geometry = &g});
    orr_node_destroy(scene, orr_mesh_node(x));
    orr_mesh y = orr_mesh_create(scene, &(orr_mesh_desc){.geometry = &g, .position = {1, 2, 3}});
    orr_geometry_free(&g);
    CHECK(x.id != y.id && (x.id & 0xfffff) == (y.id & 0xfffff)); /* same 20-bit slot, new generation */
    orr_node xn = orr_mesh_node(x), yn = orr_mesh_node(y);
    orr_material m = orr_standard_material_create(scene, NULL);
    uint64_t v = orr_node_get_world_version(scene, yn);
    MISUSE(orr_node_set_position(scene, xn, (orr_dvec3){9, 9, 9}), "orr_node_set_position");
    MISUSE(orr_node_set_rotation(scene, xn, (orr_dvec3){1, 0, 0}), "orr_node_set_rotation");
    MISUSE(orr_node_set_scaling(scene, xn, (orr_dvec3){5, 5, 5}), "orr_node_set_scaling");
    MISUSE(orr_node_set_rotation_quaternion(scene, xn, orr_dquat_identity()), "orr_node_set_rotation_quaternion");
    MISUSE(orr_node_set_parent(scene, xn, (orr_node){0}), "orr_node_set_parent");
    MISUSE(orr_node_set_parent(scene, yn, xn), "orr_node_set_parent");
    MISUSE(orr_mesh_set_material(scene, x, m), "orr_mesh_set_material");
    MISUSE(orr_mesh_set_visible(scene, x, false), "orr_mesh_set_visible");
    MISUSE(orr_node_destroy(scene, xn), "orr_node_destroy");
    MISUSE(orr_node_set_position(scene, (orr_node){0}, (orr_dvec3){1, 1, 1}), "INVALID_HANDLE");
    CHECK(orr_node_get_world_version(scene, yn) == v);
    orr_dvec3 p = orr_node_get_position(scene, yn);
    CHECK(p.x == 1 && p.y == 2 && p.z == 3);
    CHECK(orr_node_get_parent(scene, yn).id == 0);
    CHECK(orr_mesh_get_material(scene, y).id == 0 && orr_mesh_get_visible(scene, y));
    CHECK(orr_node_is_valid(scene, yn) && !orr_node_is_valid(scene, xn));
    /* A mesh call on a light names the wrong kind. */
    orr_light l = orr_light_create(scene, NULL);
    MISUSE(orr_mesh_set_visible(scene, (orr_mesh){l.id}, false), "WRONG_KIND");
    /* Control: valid calls log nothing. */
    int before = log_count;
    orr_mesh_set_material(scene, y, m);
    orr_node_set_position(scene, yn, (orr_dvec3){0, 0, 0});
    CHECK(log_count == before && orr_mesh_get_material(scene, y).id == m.id);
    orr_node_destroy(scene, yn);
    orr_node_destroy(scene, orr_light_node(l));
    orr_material_destroy(scene, m);
}

TEST(stale_camera_and_light_handles) {
    orr_camera x = orr_camera_create_arc_rotate(scene, &(orr_arc_rotate_desc){.radius = 5});
    orr_node_destroy(scene, orr_camera_node(x));
    orr_camera y = orr_camera_create_arc_rotate(scene, &(orr_arc_rotate_desc){.alpha = 1, .beta = 1, .radius = 7});
    uint64_t v = orr_camera_get_version(scene, y);
    MISUSE(orr_camera_set_fov(scene, x, 1.0), "orr_camera_set_fov");
    MISUSE(orr_camera_set_clip(scene, x, 1, 10), "orr_camera_set_clip");
    MISUSE(orr_camera_set_arc(scene, x, 0, 1, 3), "orr_camera_set_arc");
    MISUSE(orr_camera_set_target(scene, x, (orr_dvec3){1, 1, 1}), "orr_camera_set_target");
    MISUSE(orr_camera_set_arc_target(scene, x, (orr_dvec3){1, 1, 1}), "INVALID_HANDLE");
    MISUSE(orr_scene_set_active_camera(scene, x), "orr_scene_set_active_camera");
    CHECK(orr_camera_get_version(scene, y) == v);
    CHECK(orr_scene_get_active_camera(scene).id == y.id);
    double r = 0;
    orr_camera_get_arc(scene, y, NULL, NULL, &r);
    CHECK(r == 7);

    orr_light lx = orr_light_create(scene, &(orr_light_desc){.type = ORR_LIGHT_POINT});
    orr_node_destroy(scene, orr_light_node(lx));
    orr_light ly = orr_light_create(scene, &(orr_light_desc){.type = ORR_LIGHT_POINT, .intensity = ORR_F64(0.5)});
    MISUSE(orr_light_set(scene, lx, &(orr_light_desc){.intensity = ORR_F64(3)}), "orr_light_set");
    MISUSE(orr_light_set_enabled(scene, lx, false), "orr_light_set_enabled");
    CHECK(orr_light_get(scene, ly).intensity.value == 0.5);
    /* A camera call on a light, a light call on a camera. */
    MISUSE(orr_camera_set_fov(scene, (orr_camera){ly.id}, 1.0), "WRONG_KIND");
    MISUSE(orr_light_set_enabled(scene, (orr_light){y.id}, false), "WRONG_KIND");
    int before = log_count;
    orr_camera_set_fov(scene, y, 0.9);
    orr_light_set_enabled(scene, ly, true);
    CHECK(log_count == before && orr_camera_get_version(scene, y) != v);
    orr_node_destroy(scene, orr_camera_node(y));
    orr_node_destroy(scene, orr_light_node(ly));
}

TEST(stale_material_and_texture_handles) {
    orr_material x = orr_standard_material_create(scene, NULL);
    orr_material_destroy(scene, x);
    orr_material y = orr_standard_material_create(scene, &(orr_standard_material_desc){.diffuse = ORR_RGB(0, 1, 0)});
    uint64_t v = orr_material_get_version(scene, y);
    MISUSE(orr_standard_material_set(scene, x, &(orr_standard_material_desc){.diffuse = ORR_RGB(1, 0, 0)}),
           "orr_standard_material_set");
    MISUSE(orr_shader_material_set_uniform(scene, x, "tint", (double[]){1, 1, 1}, 3),
           "orr_shader_material_set_uniform");
    MISUSE(orr_shader_material_set_texture(scene, x, "tex", (orr_texture){0}), "orr_shader_material_set_texture");
    MISUSE(orr_material_destroy(scene, x), "orr_material_destroy");
    CHECK(orr_material_get_version(scene, y) == v);
    CHECK(orr_standard_material_get(scene, y).diffuse.value.g == 1 &&
          orr_standard_material_get(scene, y).diffuse.value.r == 0);
    /* Shader calls on a standard material name the kind. */
    MISUSE(orr_shader_material_set_uniform(scene, y, "tint", (double[]){1, 1, 1}, 3), "WRONG_KIND");
    /* A material in use is destroyed silently (the mesh falls back to the
     * default material: test_features); its handle is stale afterwards. */
    orr_geometry g;
    orr_geometry_build_box(NULL, NULL, &g);
    orr_mesh mesh = orr_mesh_create(scene, &(orr_mesh_desc){.geometry = &g, .material = y});
    orr_geometry_free(&g);
    int before = log_count;
    orr_material_destroy(scene, y);
    CHECK(log_count == before);
    MISUSE(orr_material_get_version(scene, y), "orr_material_get_version");
    /* Typed destroys: a null handle is ignored, a wrong kind is named. */
    before = log_count;
    orr_mesh_destroy(scene, (orr_mesh){0});
    orr_light_destroy(scene, (orr_light){0});
    orr_camera_destroy(scene, (orr_camera){0});
    CHECK(log_count == before);
    MISUSE(orr_light_destroy(scene, (orr_light){mesh.id}), "orr_light_destroy");
    MISUSE(orr_camera_destroy(scene, (orr_camera){mesh.id}), "orr_camera_destroy");
    CHECK(orr_node_is_valid(scene, orr_mesh_node(mesh)));
    orr_mesh_destroy(scene, mesh);
    CHECK(!orr_node_is_valid(scene, orr_mesh_node(mesh)));
    MISUSE(orr_mesh_destroy(scene, mesh), "orr_mesh_destroy");

    uint8_t px[4] = {255, 0, 0, 255};
    orr_texture t;
    MISUSE(CHECK(orr_texture_create(engine, NULL, &t) == ORR_ERROR_INVALID_ARGUMENT), "orr_texture_create");
    MISUSE(CHECK(orr_texture_load_file(engine, NULL, NULL, &t) == ORR_ERROR_INVALID_ARGUMENT), "orr_texture_load_file");
    CHECK(orr_texture_create(engine, &(orr_texture_desc){.width = 1, .height = 1, .rgba = px}, &t) == ORR_OK);
    orr_texture_destroy(engine, t);
    MISUSE(orr_texture_destroy(engine, t), "orr_texture_destroy");
    CHECK(orr_texture_create(engine, &(orr_texture_desc){.width = 0, .height = 1, .rgba = px}, &t) ==
          ORR_ERROR_INVALID_ARGUMENT);
    CHECK(t.id == 0);
}

/* ---- render without a camera ---------------------------------------------------------------- */

TEST(render_without_camera_fails_with_a_message) {
    orr_scene *s;
    CHECK(orr_scene_create(engine, &(orr_scene_desc){.label = "camera-less"}, &s) == ORR_OK);
    orr_geometry g;
    orr_geometry_build_box(NULL, NULL, &g);
    orr_mesh_create(s, &(orr_mesh_desc){.geometry = &g});
    orr_geometry_free(&g);
    orr_result r = orr_engine_render(engine, s);
    CHECK(r != ORR_OK);
    CHECK(strstr(orr_engine_last_error(engine), "camera") && strstr(orr_engine_last_error(engine), "camera-less"));
    /* Control: with a camera the same scene renders (and the failed frame left
     * the engine usable, twice over to cycle both frame slots). */
    orr_camera_create_arc_rotate(s, &(orr_arc_rotate_desc){.alpha = 1, .beta = 1, .radius = 4});
    CHECK(orr_engine_render(engine, s) == ORR_OK);
    CHECK(orr_engine_render(engine, s) == ORR_OK);
    CHECK(orr_engine_render(engine, s) == ORR_OK);
    uint8_t rgba[64 * 64 * 4];
    CHECK(orr_engine_read_pixels(engine, rgba, sizeof rgba) == ORR_OK);
    CHECK(rgba[(32 * 64 + 32) * 4] != 51 || rgba[(32 * 64 + 32) * 4 + 2] != 77); /* the box covers the centre */
    /* A scene of another engine, or none, is refused. */
    CHECK(orr_engine_render(engine, NULL) == ORR_ERROR_INVALID_HANDLE);
    orr_scene_destroy(s);
}

/* ---- shader materials -------------------------------------------------------------------- */

static const char *VS = "void main() { gl_Position = worldViewProjection * vec4(position, 1.0); }\n";

TEST(shader_compile_error_names_the_users_line) {
    orr_result r = ORR_OK;
    orr_material m = orr_shader_material_create(
        scene, &(orr_shader_material_desc){.vertex_source = VS,
                                           .fragment_source = "layout(location = 0) out vec4 fragColor;\n"
                                                              "void main() {\n"
                                                              "    fragColor = vec4(1.0) +;\n" /* line 3 */
                                                              "}\n",
                                           .label = "broken"});
    r = orr_last_result();
    CHECK(r == ORR_ERROR_SHADER_COMPILE);
    CHECK(m.id == 0);
    const char *msg = orr_engine_last_error(engine);
    printf("compile error: %s\n", msg);
    CHECK(strstr(msg, ":3:") != NULL);
    CHECK(strstr(msg, "ORR_ERROR_SHADER_COMPILE") != NULL);
    CHECK(strstr(msg, "broken") != NULL); /* the label names the stage file */
    CHECK(strchr(msg, '\n') == NULL);     /* one line, as the logger contract says */
    CHECK(strchr(last_log, '\n') == NULL);
    /* A vertex error on line 2 says :2: (control: the line follows the source). */
    m = orr_shader_material_create(
        scene, &(orr_shader_material_desc){.vertex_source = "void main() {\n  gl_Position = undefined_thing;\n}\n",
                                           .fragment_source = "void main() {}\n"});
    r = orr_last_result();
    CHECK(r == ORR_ERROR_SHADER_COMPILE && m.id == 0);
    CHECK(strstr(orr_engine_last_error(engine), ":2:") != NULL);
    CHECK(strstr(orr_engine_last_error(engine), "undefined_thing") != NULL);
    /* result may be NULL. */
    CHECK(orr_shader_material_create(scene, &(orr_shader_material_desc){.vertex_source = VS, .fragment_source = "x"})
              .id == 0);
}

TEST(shader_unknown_uniform_is_misuse) {
    orr_material m = orr_shader_material_create(
        scene,
        &(orr_shader_material_desc){
            .vertex_source = VS,
            .fragment_source =
                "layout(location = 0) out vec4 o;\nvoid main() { o = vec4(tint, 1.0) * texture(tex, vec2(0.5)); }\n",
            .uniforms = {{"tint", ORR_UNIFORM_VEC3}},
            .textures = {"tex"}});
    CHECK(m.id != 0);
    uint64_t v = orr_material_get_version(scene, m);
    MISUSE(orr_shader_material_set_uniform(scene, m, "tnit", (double[]){1, 0, 0}, 3), "tnit");
    MISUSE(orr_shader_material_set_uniform(scene, m, "tint", (double[]){1, 0, 0, 1}, 4), "takes 3 values");
    MISUSE(orr_shader_material_set_texture(scene, m, "texx", (orr_texture){0}), "texx");
    CHECK(orr_material_get_version(scene, m) == v);
    int before = log_count;
    orr_shader_material_set_uniform(scene, m, "tint", (double[]){1, 0, 0}, 3);
    CHECK(log_count == before && orr_material_get_version(scene, m) != v);
    orr_material_destroy(scene, m);
}

/* ---- texture files ---------------------------------------------------------------------- */

static bool write_file(const char *path, const void *data, size_t n) {
    FILE *f = fopen(path, "wb");
    if (!f) return false;
    bool ok = fwrite(data, 1, n, f) == n;
    return fclose(f) == 0 && ok;
}

TEST(texture_files_missing_truncated_random) {
    orr_texture t = {123};
    CHECK(orr_texture_load_file(engine, orr_test_out_path("no-such-file.png"), NULL, &t) == ORR_ERROR_IO);
    CHECK(t.id == 0 && strstr(orr_engine_last_error(engine), "no-such-file.png"));

    FILE *f = fopen(orr_test_data_path("parity/lite2.png"), "rb");
    CHECK(f != NULL);
    if (!f) return;
    static uint8_t png[4 << 20];
    size_t n = fread(png, 1, sizeof png, f);
    fclose(f);
    CHECK(n > 1000 && n < sizeof png);
    const char *half = orr_test_out_path("errors-truncated.png");
    CHECK(write_file(half, png, n / 2));
    t.id = 123;
    CHECK(orr_texture_load_file(engine, half, NULL, &t) == ORR_ERROR_MALFORMED);
    CHECK(t.id == 0 && strstr(orr_engine_last_error(engine), "ORR_ERROR_MALFORMED"));

    uint8_t noise[4096];
    uint32_t x = 12345;
    for (size_t i = 0; i < sizeof noise; i++) x = x * 1664525u + 1013904223u, noise[i] = (uint8_t)(x >> 24);
    const char *rnd = orr_test_out_path("errors-random.bin");
    CHECK(write_file(rnd, noise, sizeof noise));
    CHECK(orr_texture_load_file(engine, rnd, NULL, &t) == ORR_ERROR_MALFORMED);
    /* PNG signature then garbage, and an empty file. */
    memcpy(noise, png, 16);
    CHECK(write_file(rnd, noise, sizeof noise));
    CHECK(orr_texture_load_file(engine, rnd, NULL, &t) == ORR_ERROR_MALFORMED);
    CHECK(write_file(rnd, noise, 0));
    CHECK(orr_texture_load_file(engine, rnd, NULL, &t) == ORR_ERROR_MALFORMED);
    CHECK(t.id == 0);
    /* Control: the whole file loads. */
    const char *whole = orr_test_out_path("errors-whole.png");
    CHECK(write_file(whole, png, n));
    CHECK(orr_texture_load_file(engine, whole, NULL, &t) == ORR_OK && t.id != 0);
    orr_texture_destroy(engine, t);
}

/* ---- issue 16, D11-D15: misuse that used to pass silently or be misreported ------------ */

static int calls[3];
static orr_before_render_fn self_remover;
static void cb_count(orr_scene *s, void *user) { calls[(intptr_t)user]++, (void)s; }
static void cb_remove_self(orr_scene *s, void *user) {
    calls[(intptr_t)user]++;
    orr_scene_remove_before_render(s, self_remover, user);
}
static void cb_remove_next(orr_scene *s, void *user) {
    calls[(intptr_t)user]++;
    orr_scene_remove_before_render(s, cb_count, (void *)(intptr_t)2);
}

static orr_scene *small_scene(const char *label) {
    orr_scene *s = NULL;
    CHECK(orr_scene_create(engine, &(orr_scene_desc){.label = label}, &s) == ORR_OK);
    orr_camera_create_free(s, &(orr_free_camera_desc){.position = {0, 0, -5}});
    return s;
}

/* A callback removing itself used to make the pass skip the next one (the
 * list compacted under the loop). A removed callback that has not run yet is
 * not called. */
TEST(before_render_callback_removing_itself_skips_nothing) {
    orr_scene *s = small_scene("callbacks");
    self_remover = cb_remove_self;
    memset(calls, 0, sizeof calls);
    CHECK(orr_scene_add_before_render(s, cb_remove_self, (void *)0));
    CHECK(orr_scene_add_before_render(s, cb_count, (void *)1));
    CHECK(orr_engine_render(engine, s) == ORR_OK);
    CHECK(calls[0] == 1 && calls[1] == 1); /* before the fix: calls[1] == 0 */
    CHECK(orr_engine_render(engine, s) == ORR_OK);
    CHECK(calls[0] == 1 && calls[1] == 2);
    /* one that removes a later one: that one is not called in this pass */
    memset(calls, 0, sizeof calls);
    orr_scene_remove_before_render(s, cb_count, (void *)1);
    CHECK(orr_scene_add_before_render(s, cb_remove_next, (void *)0));
    CHECK(orr_scene_add_before_render(s, cb_count, (void *)2));
    CHECK(orr_scene_add_before_render(s, cb_count, (void *)1));
    CHECK(orr_engine_render(engine, s) == ORR_OK);
    CHECK(calls[0] == 1 && calls[2] == 0 && calls[1] == 1);
    CHECK(orr_engine_wait_idle(engine) == ORR_OK);
    orr_scene_destroy(s);
}

/* Moving a camera to its own scene used to destroy it there and leave no
 * active camera. Now nothing moves. */
TEST(camera_moved_to_its_own_scene_stays) {
    orr_scene *s = NULL;
    CHECK(orr_scene_create(engine, NULL, &s) == ORR_OK);
    orr_camera c = orr_camera_create_free(s, &(orr_free_camera_desc){.position = {0, 0, -5}});
    CHECK(orr_camera_move_to_scene(s, c, s).id == c.id);
    CHECK(orr_scene_get_active_camera(s).id == c.id && orr_node_is_valid(s, orr_camera_node(c)));
    CHECK(orr_engine_render(engine, s) == ORR_OK);
    CHECK(orr_engine_wait_idle(engine) == ORR_OK);
    orr_scene_destroy(s);
}

/* NaN and infinities in nodes and lights used to pass and poison every
 * matrix under them. Each is refused and leaves the value as it was. */
TEST(non_finite_transforms_and_lights_are_refused) {
    orr_node n = orr_node_create(scene, &(orr_node_desc){.position = {1, 2, 3}});
    CHECK(n.id != 0);
    MISUSE(orr_node_set_position(scene, n, (orr_dvec3){NAN, 0, 0}), "not finite");
    MISUSE(orr_node_set_position(scene, n, (orr_dvec3){0, INFINITY, 0}), "not finite");
    CHECK(orr_node_get_position(scene, n).x == 1 && orr_node_get_position(scene, n).y == 2);
    MISUSE(orr_node_set_scaling(scene, n, (orr_dvec3){1, NAN, 1}), "not finite");
    CHECK(orr_node_get_scaling(scene, n).y == 1);
    MISUSE(orr_node_set_rotation(scene, n, (orr_dvec3){0, 0, -INFINITY}), "not finite");
    CHECK(orr_node_get_rotation(scene, n).z == 0);
    MISUSE(orr_node_set_rotation_quaternion(scene, n, (orr_dquat){NAN, 0, 0, 1}), "not finite");
    MISUSE(orr_node_set_rotation_quaternion(scene, n, (orr_dquat){0, 0, 0, 0}), "no length");
    orr_dmat4 w = orr_node_get_world_matrix(scene, n);
    bool finite = true;
    for (int i = 0; i < 16; i++) finite = finite && isfinite(w.m[i]);
    CHECK(finite && w.m[12] == 1);
    orr_node_set_rotation_quaternion(scene, n, (orr_dquat){0, 0, 0, 2}); /* control: normalised, accepted */
    CHECK(orr_node_get_rotation_quaternion(scene, n).w == 1);
    MISUSE(CHECK(orr_node_create(scene, &(orr_node_desc){.scaling = {NAN, 1, 1}}).id == 0), "not finite");
    orr_node_destroy(scene, n);

    MISUSE(
        CHECK(orr_light_create(scene, &(orr_light_desc){.type = ORR_LIGHT_POINT, .intensity = ORR_F64(NAN)}).id == 0),
        "not finite");
    MISUSE(CHECK(orr_light_create(scene, &(orr_light_desc){.type = ORR_LIGHT_SPOT, .angle = INFINITY}).id == 0),
           "not finite");
    MISUSE(CHECK(orr_light_create(scene, &(orr_light_desc){.diffuse = ORR_RGB(0, NAN, 0)}).id == 0), "not finite");
    orr_light l = orr_light_create(scene, &(orr_light_desc){.type = ORR_LIGHT_POINT, .range = INFINITY});
    CHECK(l.id != 0); /* an infinite range is allowed: no falloff */
    MISUSE(orr_light_set(scene, l, &(orr_light_desc){.position = {0, NAN, 0}}), "not finite");
    MISUSE(orr_light_set(scene, l, &(orr_light_desc){.range = NAN}), "not finite");
    CHECK(isinf(orr_light_get(scene, l).range) && orr_light_get(scene, l).intensity.value == 1);
    orr_node_destroy(scene, orr_light_node(l));
}

/* A fifth environment used to fail as ORR_ERROR_OUT_OF_HOST_MEMORY. */
TEST(environment_limit_is_a_limit_not_out_of_memory) {
    orr_scene *s = small_scene("environments");
    orr_environment *env[5] = {0};
    for (int i = 0; i < 4; i++) CHECK(orr_environment_create(s, NULL, &env[i]) == ORR_OK);
    CHECK(orr_environment_create(s, NULL, &env[4]) == ORR_ERROR_LIMIT_REACHED && env[4] == NULL);
    CHECK(strstr(orr_engine_last_error(engine), "4 render passes") != NULL);
    orr_environment_destroy(env[0]);
    CHECK(orr_environment_create(s, NULL, &env[0]) == ORR_OK); /* room again */
    CHECK(orr_engine_render(engine, s) == ORR_OK);
    CHECK(orr_engine_wait_idle(engine) == ORR_OK);
    for (int i = 0; i < 4; i++) orr_environment_destroy(env[i]);
    orr_scene_destroy(s);
}

/* A directory used to be read as a file of 2^63 - 1 bytes. */
TEST(texture_file_that_is_a_directory) {
    orr_texture t = {123};
    CHECK(orr_texture_load_file(engine, orr_test_data_path("parity"), NULL, &t) == ORR_ERROR_IO);
    CHECK(t.id == 0 && strstr(orr_engine_last_error(engine), "not a regular file (a directory)"));
    CHECK(!strstr(orr_engine_last_error(engine), "bytes"));
}

/* set_uniform / set_texture with NULL used to return silently. */
TEST(shader_uniform_null_is_misuse) {
    orr_material m = orr_shader_material_create(
        scene, &(orr_shader_material_desc){
                   .vertex_source = VS,
                   .fragment_source = "layout(location = 0) out vec4 o;\nvoid main() { o = vec4(tint, 1.0); }\n",
                   .uniforms = {{"tint", ORR_UNIFORM_VEC3}}});
    CHECK(m.id != 0);
    uint64_t v = orr_material_get_version(scene, m);
    MISUSE(orr_shader_material_set_uniform(scene, m, "tint", NULL, 3), "values is NULL");
    MISUSE(orr_shader_material_set_uniform(scene, m, NULL, (double[]){1, 0, 0}, 3), "the name is NULL");
    MISUSE(orr_shader_material_set_texture(scene, m, NULL, (orr_texture){0}), "the name is NULL");
    CHECK(orr_material_get_version(scene, m) == v);
    orr_material_destroy(scene, m);
}

/* A mesh reserving 2^26 instances (4 GiB of matrices) used to be accepted and
 * then make every render of its scene fail. The device's limit is now
 * checked when instances are reserved; the limit itself renders. */
TEST(instances_past_the_device_limit_are_refused) {
    uint32_t max = orr_engine_device_info(engine).max_instances_per_mesh;
    CHECK(max >= (1u << 20) && max <= (1u << 26)); /* lavapipe 2^21; 64-byte matrices in 4 GiB at most */
    orr_scene *s = small_scene("instance limit");
    orr_geometry g;
    CHECK(orr_geometry_build_box(&(orr_box_desc){.size = 1}, NULL, &g) == ORR_OK);
    orr_mesh m = orr_mesh_create(s, &(orr_mesh_desc){.geometry = &g});
    orr_geometry_free(&g);
    CHECK(orr_instances_reserve(s, m, 1u << 26) == ORR_ERROR_LIMIT_REACHED);
    CHECK(strstr(orr_engine_last_error(engine), "this device can draw") != NULL);
    CHECK(orr_instances_reserve(s, m, max + 1) == ORR_ERROR_LIMIT_REACHED);
    CHECK(orr_instances_get_capacity(s, m) == 0);
    CHECK(orr_engine_render(engine, s) == ORR_OK); /* the scene still renders */
    CHECK(orr_instances_reserve(s, m, max) == ORR_OK && orr_instances_get_capacity(s, m) == max);
    orr_instances_set_count(s, m, 1);
    CHECK(orr_engine_render(engine, s) == ORR_OK);
    CHECK(orr_engine_wait_idle(engine) == ORR_OK);
    orr_scene_destroy(s);
}

int main(int argc, char **argv) {
    /* Keep the driver and layer mapped for LeakSanitizer (see test_support.c). */
    dlopen("libvulkan_lvp.so", RTLD_NOW | RTLD_NODELETE);
    dlopen("libVkLayer_khronos_validation.so", RTLD_NOW | RTLD_NODELETE);
    orr_result r = orr_engine_create(&(orr_engine_desc){.width = 64,
                                                        .height = 64,
                                                        .msaa = 1,
                                                        .validation = ORR_VALIDATION_ON,
                                                        .on_validation_message = on_validation,
                                                        .logger = {.log = capture},
                                                        .label = "errors"},
                                     &engine);
    if (r != ORR_OK) {
        fprintf(stderr, "no engine: %s\n", orr_engine_last_error(NULL));
        return 1;
    }
    orr_scene_create(engine, &(orr_scene_desc){.label = "errors"}, &scene);
    orr_test_after_each_ = after_each;
    int rc = RUN_TESTS(argc, argv);
    orr_engine_destroy(engine);
    return rc;
}
