/* orrery-demo — renders the showcase scene to a PNG and says where it went,
 * or shows it in a window with the camera slowly orbiting.
 *
 *     orrery-demo [--out PATH] [--width W --height H] [--msaa 1|4]
 *                 [--simple] [--window [--frames N] [--no-vsync]]
 *
 * --simple leaves out the instance field, the sky and the glTF content (the
 * window input test uses it: fast enough on a CPU device to orbit).
 * In the window the camera orbits on its own until the first input; from
 * then on the orbit controller (orrery/controls.h, Babylon.js
 * ArcRotateCamera behaviour) has it: left drag rotates, right drag pans,
 * wheel and + / − zoom, arrows rotate. P prints the camera pose (so does
 * the frame where the controller comes to rest), Escape or
 * the close button ends the program. The window is resizable; the render
 * size follows it.
 *
 * --window opens a window when there is a display (and this build has GLFW);
 * otherwise it says why and writes the PNG instead. --frames N closes the
 * window after N frames (tests). ORR_VALIDATION_FATAL=1 makes the exit status
 * non-zero (3) when the validation layer reported anything.
 *
 * The showcase holds what Orrery can do so far, 8 000 km from the origin with
 * floating origin on: Babylon.js standard materials under hemispheric,
 * directional, point and spot lights, a box grid, primitives from every
 * builder, a transparent mesh, fog, and a field of 40 000 thin instances with
 * GPU culling and a low-detail LOD partner beyond 90 m; and glTF content
 * under the PBR material with image-based light from environmentSpecular.env:
 * the Fox (skinned, posed mid-walk in the PNG, walking in the window) and
 * the WaterBottle (textured, normal mapped) on the plaza, beside a row of PBR
 * spheres from rough to polished.
 */
#include <orrery/animation.h>
#include <orrery/controls.h>
#include <orrery/environment.h>
#include <orrery/gltf.h>
#include <orrery/large_world.h>
#include <orrery/pbr.h>
#include <orrery/orrery.h>
#include <orrery/window.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/* Where the showcase stands: far enough that float32 alone would shred it. */
static const orr_dvec3 ORIGIN = {5.2e6, 0, -6.1e6};
static orr_dvec3 at(double x, double y, double z) { return (orr_dvec3){ORIGIN.x + x, ORIGIN.y + y, ORIGIN.z + z}; }

static orr_mesh add(orr_scene *s, orr_result (*build)(const void *, const orr_allocator *, orr_geometry *),
                    const void *desc, orr_dvec3 pos, orr_material m, const char *label) {
    orr_geometry g;
    if (build(desc, NULL, &g) != ORR_OK) return (orr_mesh){0};
    orr_mesh mesh = orr_mesh_create(
        s, &(orr_mesh_desc){.geometry = &g, .material = m, .position = at(pos.x, pos.y, pos.z), .label = label});
    orr_geometry_free(&g);
    return mesh;
}
#define BUILD(fn) ((orr_result(*)(const void *, const orr_allocator *, orr_geometry *))(fn))

static orr_material std_mat(orr_scene *s, orr_color3 diffuse, orr_color3 specular, const char *label) {
    return orr_standard_material_create(
        s, &(orr_standard_material_desc){.diffuse = {true, diffuse}, .specular = {true, specular}, .label = label});
}

/* 200 × 200 thin instances around the plaza, culled on the GPU; beyond 90 m
 * (dithered over 20 m) a coarse sphere stands in for the box. */
static void add_instance_field(orr_scene *s) {
    orr_material m = orr_standard_material_create(
        s, &(orr_standard_material_desc){.specular = ORR_RGB(0.2, 0.2, 0.2), .label = "field"});
    orr_mesh box =
        add(s, BUILD(orr_geometry_build_box), &(orr_box_desc){.size = 0.8}, (orr_dvec3){0, 0.4, 0}, m, "field box");
    orr_mesh far = add(s, BUILD(orr_geometry_build_sphere), &(orr_sphere_desc){.segments = 3, .diameter = 0.9},
                       (orr_dvec3){0, 0.4, 0}, m, "field lod");
    const int n = 200;
    float *mats = malloc(sizeof(float) * 16 * n * n), *cols = malloc(sizeof(float) * 4 * n * n);
    int k = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double x = (i - n / 2) * 2.0, z = (j - n / 2) * 2.0;
            if (x > -24 && x < 24 && z > -24 && z < 24) continue; /* keep the plaza free */
            double h = 0.5 + 0.5 * sin(i * 0.21) * cos(j * 0.17);
            orr_mat4f t = orr_dmat4_to_f32(orr_dmat4_compose((orr_dvec3){1, 0.5 + 2.5 * h, 1}, orr_dquat_identity(),
                                                             (orr_dvec3){x, (0.5 + 2.5 * h) * 0.4 - 0.4, z}));
            memcpy(mats + 16 * k, t.m, sizeof t.m);
            float c[4] = {(float)(0.3 + 0.6 * i / n), (float)(0.35 + 0.5 * h), (float)(0.9 - 0.6 * j / n), 1};
            memcpy(cols + 4 * k, c, sizeof c);
            k++;
        }
    orr_instances_set(s, box, mats, (uint32_t)k);
    orr_instances_set_colors(s, box, cols, (uint32_t)k);
    orr_instances_add(s, far, orr_dmat4_to_f32(orr_dmat4_identity()), NULL); /* thin state for pairing */
    orr_instances_enable_occlusion_culling(s, box, true); /* GPU culling: frustum, then occlusion (two phases) */
    orr_instances_set_lod_partner(s, box, far, &(orr_instances_lod_desc){.distance = 90, .band = 20});
    free(mats);
    free(cols);
}

static bool simple_scene; /* --simple: no instance field, sky or glTF (fast on a CPU device) */

static orr_camera build_showcase(orr_scene *s) {
    orr_camera camera = orr_camera_create_arc_rotate(s, &(orr_arc_rotate_desc){.alpha = 0.785398,
                                                                               .beta = 1.28,
                                                                               .radius = 36,
                                                                               .target = at(0, 3, 0),
                                                                               .near = 0.5,
                                                                               .far = 1000,
                                                                               .label = "camera"});
    orr_light_create(s, &(orr_light_desc){.type = ORR_LIGHT_HEMISPHERIC,
                                          .direction = {0, 1, 0},
                                          .intensity = ORR_F64(0.4),
                                          .ground_color = {0.05, 0.05, 0.1},
                                          .label = "sky"});
    orr_light_create(s, &(orr_light_desc){.type = ORR_LIGHT_DIRECTIONAL,
                                          .direction = {-0.4, -1, -0.2},
                                          .specular = ORR_RGB(0.3, 0.3, 0.3),
                                          .label = "sun"});
    orr_light_create(s, &(orr_light_desc){.type = ORR_LIGHT_POINT,
                                          .position = at(-8, 3, -8),
                                          .diffuse = ORR_RGB(1, 0.6, 0.2),
                                          .range = 14,
                                          .label = "lamp"});
    orr_light_create(s, &(orr_light_desc){.type = ORR_LIGHT_SPOT,
                                          .position = at(8, 6, 8),
                                          .direction = {0, -1, 0},
                                          .angle = 1.2,
                                          .exponent = 4,
                                          .diffuse = ORR_RGB(0.3, 0.5, 1),
                                          .label = "spot"});
    add(s, BUILD(orr_geometry_build_ground), &(orr_ground_desc){.width = 40, .height = 40, .subdivisions = 8},
        (orr_dvec3){0, 0, 0}, std_mat(s, (orr_color3){0.25, 0.25, 0.3}, (orr_color3){0.2, 0.2, 0.2}, "ground"),
        "ground");
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 5; j++) {
            orr_material m = std_mat(s, (orr_color3){0.3 + 0.6 * i / 4.0, 0.4, 0.3 + 0.6 * j / 4.0},
                                     (orr_color3){0.4, 0.4, 0.4}, "box");
            if ((i + j) % 2)
                add(s, BUILD(orr_geometry_build_box), NULL, (orr_dvec3){(i - 2) * 4.0, 1, (j - 2) * 4.0}, m, "box");
            else
                add(s, BUILD(orr_geometry_build_sphere), &(orr_sphere_desc){.diameter = 1.4},
                    (orr_dvec3){(i - 2) * 4.0, 1, (j - 2) * 4.0}, m, "sphere");
        }
    orr_material pillar = orr_standard_material_create(
        s, &(orr_standard_material_desc){
               .diffuse = ORR_RGB(0.9, 0.5, 0.2), .emissive = {0.1, 0.05, 0.02}, .specular = ORR_RGB(0.6, 0.6, 0.6)});
    orr_mesh p = add(s, BUILD(orr_geometry_build_box), NULL, (orr_dvec3){0, 2, 0}, pillar, "pillar");
    orr_node_set_scaling(s, orr_mesh_node(p), (orr_dvec3){0.8, 4, 0.8});
    orr_mesh torus =
        add(s, BUILD(orr_geometry_build_torus), &(orr_torus_desc){.diameter = 3, .thickness = 0.6, .tessellation = 48},
            (orr_dvec3){0, 4.5, 0}, std_mat(s, (orr_color3){0.2, 0.8, 0.9}, (orr_color3){1, 1, 1}, "torus"), "torus");
    orr_node_set_rotation(s, orr_mesh_node(torus), (orr_dvec3){0.5, 0, 0.3});
    orr_material glass = orr_standard_material_create(
        s, &(orr_standard_material_desc){.diffuse = ORR_RGB(0.6, 0.8, 1.0), .alpha = ORR_F64(0.45), .label = "glass"});
    add(s, BUILD(orr_geometry_build_cylinder), &(orr_cylinder_desc){.height = 5, .diameter = 2.5, .tessellation = 48},
        (orr_dvec3){10, 2.5, -10}, glass, "glass cylinder");
    if (!simple_scene) add_instance_field(s);
    orr_scene_set_fog(s,
                      &(orr_fog){.mode = ORR_FOG_EXP2, .density = ORR_F64(0.0025), .color = ORR_RGB(0.62, 0.68, 0.78)});
    return camera;
}

/* Where the PBR content stands on the plaza (metres from ORIGIN). */
#define FOX_X 14.0
#define FOX_Z 2.0
#define FOX_YAW (-0.785)
#define FOX_SCALE 0.035
#define BOTTLE_X 2.0
#define BOTTLE_Y 1.69
#define BOTTLE_Z 14.0
#define BOTTLE_YAW 0.0
#define BOTTLE_SCALE 13.0
#define BALL_X 13.0
#define BALL_DX (-2.5)
#define BALL_Z 8.0
#define BALL_DZ 2.5

/* Where the demo's images are: $ORR_ASSETS, else the checkout's assets/ (a
 * build-tree binary), else the installed share/orrery/assets. */
static const char *asset_dir(void) {
    if (getenv("ORR_ASSETS")) return getenv("ORR_ASSETS");
    static const char *candidates[] = {
#ifdef ORR_SOURCE_ASSET_DIR
        ORR_SOURCE_ASSET_DIR,
#endif
#ifdef ORR_INSTALLED_ASSET_DIR
        ORR_INSTALLED_ASSET_DIR,
#endif
        "assets"};
    for (size_t i = 0; i < sizeof candidates / sizeof candidates[0]; i++) {
        char probe[1024];
        snprintf(probe, sizeof probe, "%s/cube/ryfjallet_px.png", candidates[i]);
        FILE *f = fopen(probe, "rb");
        if (f) {
            fclose(f);
            return candidates[i];
        }
    }
    return candidates[0];
}

/* Sky and ground: the Ryfjallet cube map as a skybox at infinite distance and
 * Babylon.js's background ground (assets/SOURCES.md); without the images,
 * Babylon.js's solid default, said loudly. */
static void add_environment(orr_engine *e, orr_scene *s) {
    const char *assets = asset_dir();
    char prefix[1024], ground[1024];
    snprintf(prefix, sizeof prefix, "%s/cube/ryfjallet", assets);
    snprintf(ground, sizeof ground, "%s/bjs/backgroundGround.png", assets);
    orr_texture sky = {0}, tex = {0};
    if (orr_texture_load_cube_faces(e, prefix, ".png", NULL, &sky) != ORR_OK ||
        orr_texture_load_file(e, ground, NULL, &tex) != ORR_OK)
        fprintf(stderr, "orrery-demo: no sky images under %s (set ORR_ASSETS); using the plain default sky\n", assets);
    orr_environment *env;
    if (orr_environment_create(
            s,
            &(orr_environment_desc){.skybox_texture = sky,
                                    .ground_texture = tex,
                                    .skybox_kind = sky.id ? ORR_SKYBOX_STANDARD : ORR_SKYBOX_BACKGROUND,
                                    .skybox_infinite = true,
                                    .owns_textures = true,
                                    .label = "showcase environment"},
            &env) != ORR_OK)
        fprintf(stderr, "orrery-demo: no environment: %s\n", orr_engine_last_error(e));
}

/* A transform node on the plaza holding a glTF model (its `__root__` keeps
 * the handedness conversion; the holder places, turns and sizes it). */
static orr_gltf *add_model(orr_scene *s, const char *assets, const char *file, orr_dvec3 pos, double yaw,
                           double scale) {
    char path[1024], err[512] = "";
    snprintf(path, sizeof path, "%s/gltf/%s", assets, file);
    orr_node holder = orr_node_create(s, &(orr_node_desc){.position = at(pos.x, pos.y, pos.z),
                                                          .rotation = {0, yaw, 0},
                                                          .scaling = {scale, scale, scale},
                                                          .label = file});
    orr_gltf *g = NULL;
    if (orr_gltf_load_file(s, path,
                           &(orr_gltf_desc){.parent = holder,
                                            .play_first_animation = ORR_OFF,
                                            .error_buffer = err,
                                            .error_buffer_size = sizeof err},
                           &g) != ORR_OK)
        fprintf(stderr, "orrery-demo: no glTF model %s: %s\n", path, err);
    return g;
}

/* PBR: the scene's environment texture (Babylon.js's environmentSpecular.env,
 * prefiltered cube + harmonics) lights the glTF models and a row of spheres
 * going from a rough dielectric to polished gold. */
static void add_pbr_content(orr_engine *e, orr_scene *s) {
    const char *assets = asset_dir();
    char path[1024];
    snprintf(path, sizeof path, "%s/bjs/environmentSpecular.env", assets);
    orr_texture env = {0};
    if (orr_texture_load_file(e, path, NULL, &env) == ORR_OK)
        orr_scene_set_environment_texture(s, env);
    else
        fprintf(stderr, "orrery-demo: no environment texture %s: %s\n", path, orr_engine_last_error(e));
    orr_gltf *fox = add_model(s, assets, "Fox/Fox.glb", (orr_dvec3){FOX_X, 0, FOX_Z}, FOX_YAW, FOX_SCALE);
    for (uint32_t i = 0; fox && i < orr_gltf_animation_count(fox); i++)
        if (!strcmp(orr_gltf_animation_name(fox, i), "Walk")) {
            orr_animation_group *walk = orr_gltf_animation(fox, i);
            orr_animation_group_play(walk, true); /* advances only in the window (orr_scene_animate) */
            orr_animation_group_go_to(walk, 0.4); /* the PNG's pose */
        }
    add_model(s, assets, "WaterBottle/WaterBottle.gltf", (orr_dvec3){BOTTLE_X, BOTTLE_Y, BOTTLE_Z}, BOTTLE_YAW,
              BOTTLE_SCALE);
    static const struct {
        orr_color3 color;
        double metallic, roughness;
    } balls[] = {{{0.8, 0.1, 0.1}, 0, 0.7}, {{0.9, 0.9, 0.9}, 1, 0.35}, {{1.0, 0.77, 0.34}, 1, 0.1}};
    for (int i = 0; i < 3; i++) {
        orr_material m = orr_pbr_material_create(
            s, &(orr_pbr_material_desc){.base_color = ORR_RGBA(balls[i].color.r, balls[i].color.g, balls[i].color.b, 1),
                                        .metallic = ORR_F64(balls[i].metallic),
                                        .roughness = ORR_F64(balls[i].roughness),
                                        .label = "pbr sphere"});
        add(s, BUILD(orr_geometry_build_sphere), &(orr_sphere_desc){.diameter = 1.6, .segments = 32},
            (orr_dvec3){BALL_X + BALL_DX * i, 0.8, BALL_Z + BALL_DZ * i}, m, "pbr sphere");
    }
}

static void count_validation(const char *message, void *user) { ++*(unsigned *)user; }

static double seconds(void) {
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void print_pose(orr_scene *scene, orr_camera camera, const char *why) {
    double a, b, r;
    orr_camera_get_arc(scene, camera, &a, &b, &r);
    orr_dvec3 t = orr_camera_get_target(scene, camera);
    printf("orrery-demo: pose (%s) alpha %.6f beta %.6f radius %.6f target %.6f %.6f %.6f\n", why, a, b, r, t.x, t.y,
           t.z);
    fflush(stdout);
}

/* The window's text overlay (orrery/text.h): frame time (smoothed), draw
 * calls and instances from orr_query_stats, over a translucent panel.
 * Without the font (no assets) the window runs without it. */
typedef struct hud {
    orr_font *font;
    orr_text_overlay *text;
    double ms;
} hud;

static void hud_create(orr_engine *engine, orr_scene *scene, hud *h) {
    char path[1024];
    snprintf(path, sizeof path, "%s/fonts/DejaVuSans.ttf", asset_dir());
    if (orr_font_create(engine, &(orr_font_desc){.path = path, .pixel_height = 16}, &h->font) != ORR_OK ||
        orr_text_overlay_create(scene, &(orr_text_overlay_desc){.font = h->font, .label = "hud"}, &h->text) != ORR_OK)
        fprintf(stderr, "orrery-demo: no text overlay (%s)\n", orr_engine_last_error(engine));
}

static void hud_update(orr_engine *engine, hud *h, double dt) {
    if (!h->text) return;
    h->ms = h->ms > 0 ? h->ms + (dt * 1e3 - h->ms) * 0.05 : dt * 1e3;
    orr_stats st = orr_query_stats(engine);
    const orr_color4 white = {1, 1, 1, 1};
    orr_text_clear(h->text);
    orr_text_rect(h->text, 6, 6, 210, 68, (orr_color4){0, 0, 0, 0.55});
    orr_text_printf(h->text, 12, 10, white, 1, "frame %.2f ms (%.0f fps)", h->ms, h->ms > 0 ? 1e3 / h->ms : 0.0);
    orr_text_printf(h->text, 12, 30, white, 1, "draws %u  instances %llu", st.draws,
                    (unsigned long long)st.instances_submitted);
    orr_text_printf(h->text, 12, 50, white, 1, "triangles %llu", (unsigned long long)st.triangles_submitted);
}

static void hud_destroy(hud *h) {
    orr_text_overlay_destroy(h->text);
    orr_font_destroy(h->font);
}

/* Renders and presents until the window closes (or after `frames` frames when
 * non-zero), orbiting the arc-rotate camera at 0.2 rad/s until the user takes
 * over with the orbit controls, the Fox walking in place. */
static orr_result run_window(orr_engine *engine, orr_scene *scene, orr_camera camera, orr_window *win, long frames) {
    double alpha, beta, radius, start = seconds(), last = start;
    orr_camera_get_arc(scene, camera, &alpha, &beta, &radius);
    orr_orbit_controls orbit = {0};
    bool user = false;   /* the user has taken over the camera */
    bool moving = false; /* the controller moved the camera last frame */
    orr_result r = ORR_OK;
    long n = 0;
    print_pose(scene, camera, "start");
    hud h = {0};
    hud_create(engine, scene, &h);
    while (r == ORR_OK && !orr_window_should_close(win) && (frames <= 0 || n < frames)) {
        orr_window_poll(win);
        for (orr_event ev; orr_window_next_event(win, &ev);) {
            if (ev.type == ORR_EVENT_RESIZE) {
                orr_device_info info = orr_engine_device_info(engine);
                printf("orrery-demo: resized to %ux%u (render size %ux%u)\n", ev.width, ev.height, info.width,
                       info.height);
                fflush(stdout);
            } else if (ev.type == ORR_EVENT_KEY_DOWN && !ev.repeat && ev.key == ORR_KEY_P) {
                print_pose(scene, camera, user ? "user" : "auto");
            } else if (ev.type == ORR_EVENT_KEY_DOWN && ev.key == ORR_KEY_ESCAPE) {
                orr_window_set_should_close(win, true);
            }
        }
        double now = seconds();
        orr_scene_animate(scene, now - last); /* the Fox walks */
        hud_update(engine, &h, now - last);
        last = now;
        bool moved = orr_orbit_controls_apply(&orbit, orr_window_input(win), scene, camera);
        if (user && moving && !moved) print_pose(scene, camera, "rest"); /* inertia has run out */
        moving = moved;
        if (orbit.interacting && !user) {
            user = true;
            printf("orrery-demo: input: the orbit controls have the camera\n");
        }
        if (!user) orr_camera_set_arc(scene, camera, alpha + 0.2 * (now - start), beta, radius);
        r = orr_engine_render(engine, scene);
        if (r == ORR_OK) r = orr_window_present(win);
        n++;
    }
    hud_destroy(&h);
    double elapsed = seconds() - start;
    print_pose(scene, camera, "end");
    if (r == ORR_OK)
        printf("orrery-demo: presented %ld frames in %.1f s (%.1f fps)\n", n, elapsed, n / (elapsed > 0 ? elapsed : 1));
    return r;
}

static orr_result write_png(orr_engine *engine, orr_scene *scene, const char *out) {
    orr_result r = ORR_OK;
    for (int f = 0; r == ORR_OK && f < 3; f++) r = orr_engine_render(engine, scene);
    char *slash = strrchr(out, '/');
    if (slash && slash != out) {
        char dir[1024];
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - out), out);
        mkdir(dir, 0755);
    }
    if (r == ORR_OK) r = orr_engine_save_png(engine, out);
    if (r != ORR_OK) return r;
    orr_device_info info = orr_engine_device_info(engine);
    printf("orrery-demo: rendered the showcase scene (%ux%u, %ux MSAA) on %s\n", info.width, info.height, info.msaa,
           info.name);
    printf("orrery-demo: wrote %s\n", out);
    return ORR_OK;
}

static int usage(FILE *f, const char *prog, const char *bad, int status) {
    if (bad) fprintf(f, "%s: unknown option or bad value: %s\n", prog, bad);
    fprintf(f,
            "usage: %s [--out PATH.png] [--width W] [--height H] [--msaa 1|4] [--simple] [--window [--frames N] "
            "[--no-vsync]]\n",
            prog);
    return status;
}

int main(int argc, char **argv) {
    const char *out = "out/showcase.png";
    unsigned validation_messages = 0;
    orr_engine_desc desc = {.width = 1280,
                            .height = 720,
                            .msaa = 4,
                            .label = "demo",
                            .floating_origin = &orr_floating_origin,
                            .on_validation_message = count_validation,
                            .validation_user = &validation_messages};
    bool window = false;
    long frames = 0;
    orr_vsync vsync = ORR_VSYNC_DEFAULT;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        bool ok = true, takes_value = true;
        char tail;
        if (!strcmp(a, "--help") || !strcmp(a, "-h"))
            return usage(stdout, argv[0], NULL, 0);
        else if (!strcmp(a, "--out"))
            ok = v != NULL, out = v;
        else if (!strcmp(a, "--width"))
            ok = v && sscanf(v, "%u%c", &desc.width, &tail) == 1 && desc.width > 0;
        else if (!strcmp(a, "--height"))
            ok = v && sscanf(v, "%u%c", &desc.height, &tail) == 1 && desc.height > 0;
        else if (!strcmp(a, "--msaa"))
            ok = v && sscanf(v, "%u%c", &desc.msaa, &tail) == 1 && (desc.msaa == 1 || desc.msaa == 4);
        else if (!strcmp(a, "--frames"))
            ok = v && sscanf(v, "%ld%c", &frames, &tail) == 1 && frames >= 0;
        else if (!strcmp(a, "--window"))
            window = true, takes_value = false;
        else if (!strcmp(a, "--simple"))
            simple_scene = true, takes_value = false;
        else if (!strcmp(a, "--no-vsync"))
            vsync = ORR_VSYNC_OFF, takes_value = false;
        else
            ok = false;
        if (!ok) return usage(stderr, argv[0], a, 2);
        i += takes_value;
    }
    orr_engine *engine;
    orr_result r = orr_engine_create(&desc, &engine);
    if (r != ORR_OK) {
        fprintf(stderr, "orrery-demo: %s\n", orr_engine_last_error(NULL));
        return 1;
    }
    orr_scene *scene;
    orr_camera camera = {0};
    r = orr_scene_create(engine, &(orr_scene_desc){.clear_color = ORR_RGBA(0.05, 0.05, 0.08, 1), .label = "showcase"},
                         &scene);
    if (r == ORR_OK) camera = build_showcase(scene);
    if (r == ORR_OK && !simple_scene) add_environment(engine, scene);
    if (r == ORR_OK && !simple_scene) add_pbr_content(engine, scene);
    orr_window *win = NULL;
    if (r == ORR_OK && window) {
        if (orr_window_create(engine, &(orr_window_desc){.title = "Orrery showcase", .vsync = vsync}, &win) != ORR_OK)
            fprintf(stderr, "orrery-demo: no window (%s); rendering to a PNG instead\n", orr_engine_last_error(engine));
    }
    if (r == ORR_OK) r = win ? run_window(engine, scene, camera, win, frames) : write_png(engine, scene, out);
    if (r != ORR_OK) fprintf(stderr, "orrery-demo: %s\n", orr_engine_last_error(engine));
    orr_window_destroy(win);
    orr_engine_destroy(engine);
    const char *fatal = getenv("ORR_VALIDATION_FATAL");
    if (validation_messages && fatal && *fatal && strcmp(fatal, "0") != 0) {
        fprintf(stderr, "orrery-demo: %u validation messages (ORR_VALIDATION_FATAL is set)\n", validation_messages);
        return 3;
    }
    return r == ORR_OK ? 0 : 1;
}
