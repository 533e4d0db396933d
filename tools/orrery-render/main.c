/* orrery-render — headless render of a glTF model or an environment to PNG,
 * for batch jobs and CI (issue 14, item 4).
 *
 *     orrery-render [options] FILE
 *
 * FILE is a glTF model (.gltf, .glb) or an environment: a Radiance .hdr
 * panorama (GGX-prefiltered on the GPU), a Babylon.js .env, a DDS cube, or a
 * six-face cube named by one of its faces (NAME_px.png ... NAME_nz.png).
 * A model is framed as Babylon.js's createDefaultCameraOrLight frames it
 * (orr_camera_default_desc: arc-rotate about the centre of the visible
 * meshes' extends, radius 1.5 × their diagonal), gets a hemispheric light when
 * the file has none, and is lit by the environment (--env, default Babylon.js's
 * environmentSpecular.env from the assets) shown as the skybox. An
 * environment alone is drawn as a skybox seen from its centre.
 *
 * Exit status (what scripts test; the message on stderr starts with
 * "orrery-render: " and names the file):
 *   0 the PNG(s) were written;
 *   1 anything else (out of host memory, an internal error);
 *   2 bad arguments (the usage follows on stderr; --help: usage on stdout, 0);
 *   3 bad input file: missing, unreadable, malformed, unsupported, not a cube;
 *   4 device failure: no Vulkan 1.3 device, device lost, out of device memory;
 *   5 the output PNG cannot be written;
 *   130 cancelled by SIGINT (Ctrl-C) during a load or a prefilter.
 * A progress bar for long work (glTF load, HDR prefilter) is drawn on stderr
 * when it is a terminal, or always with --progress; --quiet hides it.
 */
#define _POSIX_C_SOURCE 200809L /* access, isatty, strcasecmp */
#include <orrery/environment.h>
#include <orrery/gltf.h>
#include <orrery/orrery.h>
#include <orrery/pbr.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define PROG "orrery-render"
#define TWO_PI 6.283185307179586
enum { EXIT_OK = 0, EXIT_OTHER = 1, EXIT_USAGE = 2, EXIT_INPUT = 3, EXIT_DEVICE = 4, EXIT_OUTPUT = 5 };
#define EXIT_INTERRUPTED 130

typedef struct options {
    const char *input, *out, *env;
    bool no_env, quiet, progress;
    uint32_t width, height, msaa, samples, turntable;
    double exposure, time; /* exposure < 0: the default */
    bool pose_set, target_set;
    double alpha, beta, radius; /* radius 0: framed */
    orr_dvec3 target;
} options;

/* ---- arguments ---------------------------------------------------------------------------- */

static int usage(FILE *f, const char *bad, int status) {
    if (bad) fprintf(f, PROG ": unknown option or bad value: %s\n", bad);
    fprintf(f, "usage: " PROG " [options] FILE\n"
               "  FILE               a glTF model (.gltf, .glb) or an environment (.hdr, .env, .dds,\n"
               "                     or one face NAME_px.png of a six-face cube)\n"
               "  -o, --out PATH     PNG to write (default out.png); a turntable writes PATH-000.png ...\n"
               "  --size WxH         image size (default 640x480)\n"
               "  --msaa 1|4         multisampling (default 4)\n"
               "  --camera A,B[,R]   arc-rotate pose: alpha, beta (radians, Babylon.js), radius\n"
               "                     (default: framed as Babylon.js createDefaultCameraOrLight, -pi/2, pi/2)\n"
               "  --target X,Y,Z     orbit centre (default the centre of the model)\n"
               "  --turntable N      N images, alpha stepping by 2 pi / N\n"
               "  --time T           animation time in seconds (the first clip; default 0)\n"
               "  --env FILE         environment for a model (default the assets' environmentSpecular.env)\n"
               "  --no-env           no environment: default light only, clear colour background\n"
               "  --exposure E       image processing exposure (default 0.8, Babylon.js default environment)\n"
               "  --samples N        GGX samples when prefiltering an environment (default 512)\n"
               "  --progress         draw the progress bar even when stderr is not a terminal\n"
               "  --quiet            no progress bar, no summary\n"
               "exit status: 0 ok, 2 bad arguments, 3 bad input file, 4 device failure, 5 cannot write\n"
               "the PNG, 130 interrupted, 1 other\n");
    return status;
}

static bool parse_u32(const char *v, uint32_t lo, uint32_t hi, uint32_t *out) {
    char tail;
    unsigned long x;
    if (!v || sscanf(v, "%lu%c", &x, &tail) != 1 || x < lo || x > hi) return false;
    *out = (uint32_t)x;
    return true;
}

static bool parse_f64(const char *v, double *out) {
    char tail;
    return v && sscanf(v, "%lf%c", out, &tail) == 1 && isfinite(*out);
}

static bool parse_size(const char *v, uint32_t *w, uint32_t *h) {
    char tail;
    return v && sscanf(v, "%ux%u%c", w, h, &tail) == 2 && *w >= 8 && *h >= 8 && *w <= 16384 && *h <= 16384;
}

static bool parse_pose(const char *v, options *o) {
    char tail;
    o->radius = 0;
    int n = v ? sscanf(v, "%lf,%lf,%lf%c", &o->alpha, &o->beta, &o->radius, &tail) : 0;
    return (n == 2 || n == 3) && isfinite(o->alpha) && isfinite(o->beta) && isfinite(o->radius) && o->radius >= 0;
}

static bool parse_vec3(const char *v, orr_dvec3 *p) {
    char tail;
    return v && sscanf(v, "%lf,%lf,%lf%c", &p->x, &p->y, &p->z, &tail) == 3 && isfinite(p->x) && isfinite(p->y) &&
           isfinite(p->z);
}

/* Returns -1 to go on, or the exit status. */
static int parse_args(int argc, char **argv, options *o) {
    *o = (options){.out = "out.png", .width = 640, .height = 480, .msaa = 4, .samples = 512, .exposure = -1};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        bool ok = true, value = true;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) return usage(stdout, NULL, EXIT_OK);
        if (!strcmp(a, "-o") || !strcmp(a, "--out"))
            ok = v && *v, o->out = v;
        else if (!strcmp(a, "--size"))
            ok = parse_size(v, &o->width, &o->height);
        else if (!strcmp(a, "--msaa"))
            ok = parse_u32(v, 1, 4, &o->msaa) && (o->msaa == 1 || o->msaa == 4);
        else if (!strcmp(a, "--camera"))
            ok = parse_pose(v, o), o->pose_set = true;
        else if (!strcmp(a, "--target"))
            ok = parse_vec3(v, &o->target), o->target_set = true;
        else if (!strcmp(a, "--turntable"))
            ok = parse_u32(v, 1, 3600, &o->turntable);
        else if (!strcmp(a, "--time"))
            ok = parse_f64(v, &o->time) && o->time >= 0;
        else if (!strcmp(a, "--env"))
            ok = v && *v, o->env = v;
        else if (!strcmp(a, "--exposure"))
            ok = parse_f64(v, &o->exposure) && o->exposure >= 0;
        else if (!strcmp(a, "--samples"))
            ok = parse_u32(v, 1, 65536, &o->samples);
        else if (!strcmp(a, "--no-env"))
            o->no_env = true, value = false;
        else if (!strcmp(a, "--progress"))
            o->progress = true, value = false;
        else if (!strcmp(a, "--quiet"))
            o->quiet = true, value = false;
        else if (a[0] != '-' && !o->input)
            o->input = a, value = false;
        else
            ok = false;
        if (!ok) return usage(stderr, a, EXIT_USAGE);
        i += value;
    }
    if (!o->input) {
        fprintf(stderr, PROG ": no input file\n");
        return usage(stderr, NULL, EXIT_USAGE);
    }
    if (o->env && o->no_env) return usage(stderr, "--env with --no-env", EXIT_USAGE);
    return -1;
}

/* ---- exit status of a failed call --------------------------------------------------------- */

/* Input-file failures are 3, device failures 4. */
static int status_of(orr_result r) {
    switch (r) {
    case ORR_ERROR_IO:
    case ORR_ERROR_MALFORMED:
    case ORR_ERROR_UNSUPPORTED:
    case ORR_ERROR_LIMIT_REACHED: return EXIT_INPUT;
    case ORR_ERROR_NO_DEVICE:
    case ORR_ERROR_DEVICE_LOST:
    case ORR_ERROR_OUT_OF_DEVICE_MEMORY:
    case ORR_ERROR_VULKAN: return EXIT_DEVICE;
    case ORR_ERROR_CANCELLED: return EXIT_INTERRUPTED;
    default: return EXIT_OTHER;
    }
}

/* ---- progress ----------------------------------------------------------------------------- */

static volatile sig_atomic_t interrupted;
static void on_sigint(int sig) { interrupted = sig; }

typedef struct bar {
    const char *what;
    bool draw;
    int last; /* percent drawn, -1 before the first */
} bar;

/* orr_progress_fn: a 30-column bar on stderr; cancels on SIGINT. */
static bool on_progress(double fraction, void *user) {
    bar *b = user;
    int pct = (int)floor(fraction * 100 + 1e-9);
    if (b->draw && pct != b->last) {
        char cols[31];
        int n = pct * 30 / 100;
        for (int i = 0; i < 30; i++) cols[i] = i < n ? '#' : '.';
        cols[30] = 0;
        fprintf(stderr, "\r" PROG ": %-24.24s [%s] %3d%%%s", b->what, cols, pct, fraction >= 1 ? "\n" : "");
        fflush(stderr);
        b->last = pct;
    }
    return !interrupted;
}

static const char *base_name(const char *path) {
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static bool ends_with(const char *s, const char *tail) {
    size_t n = strlen(s), k = strlen(tail);
    return n >= k && strcasecmp(s + n - k, tail) == 0;
}

/* ---- inputs ------------------------------------------------------------------------------- */

/* Where the default environment is: $ORR_ASSETS, the checkout's assets/ (a
 * build-tree binary), the installed share/orrery/assets. */
static const char *asset_dir(void) {
    if (getenv("ORR_ASSETS")) return getenv("ORR_ASSETS");
    static const char *candidates[] = {ORR_SOURCE_ASSET_DIR, ORR_INSTALLED_ASSET_DIR};
    for (size_t i = 0; i < 2; i++) {
        char probe[1024];
        snprintf(probe, sizeof probe, "%s/bjs/environmentSpecular.env", candidates[i]);
        if (access(probe, R_OK) == 0) return candidates[i];
    }
    return ORR_INSTALLED_ASSET_DIR;
}

typedef enum kind { KIND_UNKNOWN, KIND_GLTF, KIND_HDR, KIND_ENV, KIND_DDS, KIND_FACES } kind;

static kind kind_of(const char *path) {
    if (ends_with(path, ".gltf") || ends_with(path, ".glb")) return KIND_GLTF;
    if (ends_with(path, ".hdr")) return KIND_HDR;
    if (ends_with(path, ".env")) return KIND_ENV;
    if (ends_with(path, ".dds")) return KIND_DDS;
    const char *face = strstr(base_name(path), "_px.");
    return face && !strchr(face + 4, '/') ? KIND_FACES : KIND_UNKNOWN;
}

/* Loads an environment cube (prefiltered for image-based light). Returns
 * the exit status (0: *out is set). */
static int load_environment(orr_engine *e, const char *path, const options *o, orr_texture *out) {
    kind k = kind_of(path);
    if (k == KIND_UNKNOWN || k == KIND_GLTF) {
        fprintf(stderr, PROG ": %s: not an environment (.hdr, .env, .dds or NAME_px.<ext>)\n", path);
        return EXIT_INPUT;
    }
    if (access(path, R_OK) != 0) {
        fprintf(stderr, PROG ": %s: cannot open\n", path);
        return EXIT_INPUT;
    }
    bar b = {.what = base_name(path), .draw = !o->quiet && (o->progress || isatty(2)), .last = -1};
    orr_prefilter_desc pf = {.samples = o->samples, .progress = on_progress, .progress_user = &b};
    orr_texture_desc d = {.prefilter = k == KIND_ENV ? NULL : &pf, .label = base_name(path)};
    orr_result r;
    if (k == KIND_FACES) {
        const char *face = strstr(base_name(path), "_px.");
        char prefix[1024];
        snprintf(prefix, sizeof prefix, "%.*s", (int)(face - path), path);
        r = orr_texture_load_cube_faces(e, prefix, face + 3, &d, out);
    } else {
        r = orr_texture_load_file(e, path, &d, out);
    }
    if (r == ORR_ERROR_INVALID_ARGUMENT && k == KIND_DDS) r = ORR_ERROR_UNSUPPORTED; /* a 2D DDS: not a cube */
    if (r != ORR_OK) {
        if (b.draw && b.last >= 0) fputc('\n', stderr);
        fprintf(stderr, PROG ": %s: %s\n", path, orr_engine_last_error(e));
        return status_of(r);
    }
    return EXIT_OK;
}

static int load_model(orr_scene *s, const options *o, orr_gltf **out) {
    char err[768] = "";
    bar b = {.what = base_name(o->input), .draw = !o->quiet && (o->progress || isatty(2)), .last = -1};
    orr_result r = orr_gltf_load_file(
        s, o->input,
        &(orr_gltf_desc){
            .error_buffer = err, .error_buffer_size = sizeof err, .progress = on_progress, .progress_user = &b},
        out);
    if (r != ORR_OK) {
        if (b.draw && b.last >= 0 && b.last < 100) fputc('\n', stderr);
        fprintf(stderr, PROG ": %s\n", err[0] ? err : orr_last_error()); /* the message names the file */
        return status_of(r);
    }
    if (o->time > 0) orr_scene_animate(s, o->time);
    return EXIT_OK;
}

/* ---- the scene ---------------------------------------------------------------------------- */

static int build_scene(orr_engine *e, orr_scene *s, const options *o, orr_camera *camera) {
    kind k = kind_of(o->input);
    orr_texture env = {0};
    int status = EXIT_OK;
    orr_gltf *model = NULL;
    if (k == KIND_GLTF) {
        status = load_model(s, o, &model);
        if (status == EXIT_OK && !o->no_env) {
            char def[1024];
            snprintf(def, sizeof def, "%s/bjs/environmentSpecular.env", asset_dir());
            status = load_environment(e, o->env ? o->env : def, o, &env);
        }
    } else if (k != KIND_UNKNOWN) {
        status = load_environment(e, o->input, o, &env);
    } else {
        fprintf(stderr, PROG ": %s: unknown kind of file (.gltf, .glb, .hdr, .env, .dds, NAME_px.<ext>)\n", o->input);
        status = EXIT_INPUT;
    }
    if (status != EXIT_OK) return status;
    orr_image_processing ip = {.exposure = o->exposure >= 0 ? ORR_F64(o->exposure) : (orr_opt_f64){0}};
    orr_scene_set_image_processing(s, &ip);
    if (!model || orr_gltf_light_count(model) == 0) /* createDefaultLight: only when the file has none */
        orr_light_create(s, &(orr_light_desc){.type = ORR_LIGHT_HEMISPHERIC, .direction = {0, 1, 0}});
    orr_arc_rotate_desc cd = orr_camera_default_desc(s);
    if (o->pose_set) cd.alpha = o->alpha, cd.beta = o->beta;
    if (o->pose_set && o->radius > 0) cd.radius = o->radius, cd.lower_radius_limit = 0;
    if (o->target_set) cd.target = o->target;
    *camera = orr_camera_create_arc_rotate(s, &cd);
    if (!camera->id) {
        fprintf(stderr, PROG ": camera: %s\n", orr_engine_last_error(e));
        return EXIT_USAGE; /* a pose the camera refuses */
    }
    orr_scene_set_active_camera(s, *camera);
    if (!env.id) return EXIT_OK;
    orr_scene_set_environment_texture(s, env);
    bool hdr = orr_texture_get_info(e, env).format != ORR_PIXEL_RGBA8;
    orr_environment *background;
    orr_result r =
        orr_environment_create(s,
                               &(orr_environment_desc){.skybox_texture = env,
                                                       .skybox_kind = hdr ? ORR_SKYBOX_HDR : ORR_SKYBOX_STANDARD,
                                                       .ground = ORR_OFF,
                                                       .skybox_infinite = true,
                                                       .image_processing = ip,
                                                       .owns_textures = true,
                                                       .label = "orrery-render environment"},
                               &background);
    if (r != ORR_OK) {
        fprintf(stderr, PROG ": environment: %s\n", orr_engine_last_error(e));
        return status_of(r);
    }
    return EXIT_OK;
}

/* ---- rendering ---------------------------------------------------------------------------- */

/* PATH.png → PATH-007.png for frame 7 of a turntable. */
static void frame_path(const char *out, uint32_t frame, bool series, char *path, size_t cap) {
    if (!series) {
        snprintf(path, cap, "%s", out);
        return;
    }
    size_t n = strlen(out);
    if (ends_with(out, ".png")) n -= 4;
    snprintf(path, cap, "%.*s-%03u.png", (int)n, out, frame);
}

static int render_all(orr_engine *e, orr_scene *s, orr_camera camera, const options *o) {
    double alpha, beta, radius;
    orr_camera_get_arc(s, camera, &alpha, &beta, &radius);
    uint32_t frames = o->turntable ? o->turntable : 1;
    for (uint32_t f = 0; f < frames; f++) {
        orr_camera_set_arc(s, camera, alpha + TWO_PI * f / frames, beta, radius);
        orr_result r = orr_engine_render(e, s);
        if (r != ORR_OK) {
            fprintf(stderr, PROG ": render: %s\n", orr_engine_last_error(e));
            return status_of(r) == EXIT_INPUT ? EXIT_OTHER : status_of(r);
        }
        char path[1024];
        frame_path(o->out, f, o->turntable > 0, path, sizeof path);
        r = orr_engine_save_png(e, path);
        if (r != ORR_OK) {
            fprintf(stderr, PROG ": %s: %s\n", path, orr_engine_last_error(e));
            return r == ORR_ERROR_IO ? EXIT_OUTPUT : status_of(r);
        }
        if (!o->quiet) printf(PROG ": wrote %s\n", path);
    }
    return EXIT_OK;
}

/* The library's warnings, prefixed; its errors come back through the
 * results and are printed once, with the file they concern. */
static void on_log(orr_log_level level, orr_msg id, const char *message, void *user) {
    if (level == ORR_LOG_WARNING) fprintf(stderr, PROG ": warning: %s\n", message);
}

/* With ORR_VALIDATION=1: every validation message, said plainly (tests fail on them). */
static void on_validation(const char *message, void *user) { fprintf(stderr, PROG ": validation: %s\n", message); }

int main(int argc, char **argv) {
    options o;
    int status = parse_args(argc, argv, &o);
    if (status >= 0) return status;
    if (access(o.input, R_OK) != 0) { /* before starting a device: the cheap, common mistake */
        fprintf(stderr, PROG ": %s: cannot open\n", o.input);
        return EXIT_INPUT;
    }
    signal(SIGINT, on_sigint);
    orr_engine *engine = NULL;
    orr_result r = orr_engine_create(&(orr_engine_desc){.width = o.width,
                                                        .height = o.height,
                                                        .msaa = o.msaa,
                                                        .logger = {on_log, NULL},
                                                        .on_validation_message = on_validation,
                                                        .label = PROG},
                                     &engine);
    if (r != ORR_OK) {
        fprintf(stderr, PROG ": no device: %s\n", orr_engine_last_error(NULL));
        return status_of(r) == EXIT_OTHER ? EXIT_DEVICE : status_of(r);
    }
    orr_scene *scene = NULL;
    orr_camera camera = {0};
    r = orr_scene_create(engine, &(orr_scene_desc){.label = PROG}, &scene);
    status = r == ORR_OK ? build_scene(engine, scene, &o, &camera) : status_of(r);
    if (status == EXIT_OK) status = render_all(engine, scene, camera, &o);
    if (status == EXIT_OK && !o.quiet) {
        orr_device_info info = orr_engine_device_info(engine);
        printf(PROG ": %ux%u, %ux MSAA, on %s\n", info.width, info.height, info.msaa, info.name);
    }
    if (status == EXIT_INTERRUPTED) fprintf(stderr, PROG ": interrupted\n");
    orr_engine_destroy(engine);
    return status;
}
