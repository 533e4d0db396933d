/* tool_content.c — what orrery-render and orrery-view share: argument
 * parsing helpers, exit statuses, the progress bar, and loading a model or
 * an environment into a scene framed as Babylon.js frames it (tool_content.h). */
#define _POSIX_C_SOURCE 200809L /* access, isatty, strcasecmp */
#include "tool_content.h"

#include <orrery/environment.h>
#include <orrery/gltf.h>
#include <orrery/pbr.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

const char *tool_prog = "orrery";
volatile sig_atomic_t tool_interrupted;

bool tool_parse_u32(const char *v, uint32_t lo, uint32_t hi, uint32_t *out) {
    char tail;
    unsigned long x;
    if (!v || sscanf(v, "%lu%c", &x, &tail) != 1 || x < lo || x > hi) return false;
    *out = (uint32_t)x;
    return true;
}

bool tool_parse_f64(const char *v, double *out) {
    char tail;
    return v && sscanf(v, "%lf%c", out, &tail) == 1 && isfinite(*out);
}

bool tool_parse_size(const char *v, uint32_t *w, uint32_t *h) {
    char tail;
    return v && sscanf(v, "%ux%u%c", w, h, &tail) == 2 && *w >= 8 && *h >= 8 && *w <= 16384 && *h <= 16384;
}

bool tool_parse_vec3(const char *v, orr_dvec3 *p) {
    char tail;
    return v && sscanf(v, "%lf,%lf,%lf%c", &p->x, &p->y, &p->z, &tail) == 3 && isfinite(p->x) && isfinite(p->y) &&
           isfinite(p->z);
}

/* ---- exit status of a failed call --------------------------------------------------------- */

/* Input-file failures are 3, device failures 4. */
int tool_status_of(orr_result r) {
    switch (r) {
    case ORR_ERROR_IO:
    case ORR_ERROR_MALFORMED:
    case ORR_ERROR_UNSUPPORTED:
    case ORR_ERROR_LIMIT_REACHED: return TOOL_EXIT_INPUT;
    case ORR_ERROR_NO_DEVICE:
    case ORR_ERROR_DEVICE_LOST:
    case ORR_ERROR_OUT_OF_DEVICE_MEMORY:
    case ORR_ERROR_VULKAN: return TOOL_EXIT_DEVICE;
    case ORR_ERROR_CANCELLED: return TOOL_EXIT_INTERRUPTED;
    default: return TOOL_EXIT_OTHER;
    }
}

/* ---- progress ----------------------------------------------------------------------------- */

void tool_on_sigint(int sig) { tool_interrupted = sig; }

/* orr_progress_fn: a 30-column bar on stderr; cancels on SIGINT. */
bool tool_on_progress(double fraction, void *user) {
    tool_bar *b = user;
    int pct = (int)floor(fraction * 100 + 1e-9);
    if (b->draw && pct != b->last) {
        char cols[31];
        int n = pct * 30 / 100;
        for (int i = 0; i < 30; i++) cols[i] = i < n ? '#' : '.';
        cols[30] = 0;
        fprintf(stderr, "\r%s: %-24.24s [%s] %3d%%%s", tool_prog, b->what, cols, pct, fraction >= 1 ? "\n" : "");
        fflush(stderr);
        b->last = pct;
    }
    return !tool_interrupted;
}

const char *tool_base_name(const char *path) {
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

bool tool_ends_with(const char *s, const char *tail) {
    size_t n = strlen(s), k = strlen(tail);
    return n >= k && strcasecmp(s + n - k, tail) == 0;
}

/* ---- inputs ------------------------------------------------------------------------------- */

/* Where the default environment is: $ORR_ASSETS, the checkout's assets/ (a
 * build-tree binary), the installed share/orrery/assets. */
const char *tool_asset_dir(void) {
    if (getenv("ORR_ASSETS")) return getenv("ORR_ASSETS");
    static const char *candidates[] = {ORR_SOURCE_ASSET_DIR, ORR_INSTALLED_ASSET_DIR};
    for (size_t i = 0; i < 2; i++) {
        char probe[1024];
        snprintf(probe, sizeof probe, "%s/bjs/environmentSpecular.env", candidates[i]);
        if (access(probe, R_OK) == 0) return candidates[i];
    }
    return ORR_INSTALLED_ASSET_DIR;
}

tool_kind tool_kind_of(const char *path) {
    if (tool_ends_with(path, ".gltf") || tool_ends_with(path, ".glb")) return TOOL_KIND_GLTF;
    if (tool_ends_with(path, ".hdr")) return TOOL_KIND_HDR;
    if (tool_ends_with(path, ".env")) return TOOL_KIND_ENV;
    if (tool_ends_with(path, ".dds")) return TOOL_KIND_DDS;
    const char *face = strstr(tool_base_name(path), "_px.");
    return face && !strchr(face + 4, '/') ? TOOL_KIND_FACES : TOOL_KIND_UNKNOWN;
}

/* Loads an environment cube (prefiltered for image-based light). Returns
 * the exit status (0: *out is set). */
int tool_load_environment(orr_engine *e, const char *path, const tool_options *o, orr_texture *out) {
    tool_kind k = tool_kind_of(path);
    if (k == TOOL_KIND_UNKNOWN || k == TOOL_KIND_GLTF) {
        fprintf(stderr, "%s: %s: not an environment (.hdr, .env, .dds or NAME_px.<ext>)\n", tool_prog, path);
        return TOOL_EXIT_INPUT;
    }
    if (access(path, R_OK) != 0) {
        fprintf(stderr, "%s: %s: cannot open\n", tool_prog, path);
        return TOOL_EXIT_INPUT;
    }
    tool_bar b = {.what = tool_base_name(path), .draw = !o->quiet && (o->progress || isatty(2)), .last = -1};
    orr_prefilter_desc pf = {.samples = o->samples, .progress = tool_on_progress, .progress_user = &b};
    orr_texture_desc d = {.prefilter = k == TOOL_KIND_ENV ? NULL : &pf, .label = tool_base_name(path)};
    orr_result r;
    if (k == TOOL_KIND_FACES) {
        const char *face = strstr(tool_base_name(path), "_px.");
        char prefix[1024];
        snprintf(prefix, sizeof prefix, "%.*s", (int)(face - path), path);
        r = orr_texture_load_cube_faces(e, prefix, face + 3, &d, out);
    } else {
        r = orr_texture_load_file(e, path, &d, out);
    }
    if (r == ORR_ERROR_INVALID_ARGUMENT && k == TOOL_KIND_DDS) r = ORR_ERROR_UNSUPPORTED; /* a 2D DDS: not a cube */
    if (r != ORR_OK) {
        if (b.draw && b.last >= 0) fputc('\n', stderr);
        fprintf(stderr, "%s: %s: %s\n", tool_prog, path, orr_engine_last_error(e));
        return tool_status_of(r);
    }
    return TOOL_EXIT_OK;
}

int tool_load_model(orr_scene *s, const tool_options *o, orr_gltf **out) {
    char err[768] = "";
    tool_bar b = {.what = tool_base_name(o->input), .draw = !o->quiet && (o->progress || isatty(2)), .last = -1};
    orr_result r = orr_gltf_load_file(
        s, o->input,
        &(orr_gltf_desc){
            .error_buffer = err, .error_buffer_size = sizeof err, .progress = tool_on_progress, .progress_user = &b},
        out);
    if (r != ORR_OK) {
        if (b.draw && b.last >= 0 && b.last < 100) fputc('\n', stderr);
        fprintf(stderr, "%s: %s\n", tool_prog, err[0] ? err : orr_last_error()); /* the message names the file */
        return tool_status_of(r);
    }
    if (o->time > 0) orr_scene_animate(s, o->time);
    return TOOL_EXIT_OK;
}

/* ---- the scene ---------------------------------------------------------------------------- */

int tool_build_scene(orr_engine *e, orr_scene *s, const tool_options *o, orr_camera *camera, orr_gltf **model_out) {
    tool_kind k = tool_kind_of(o->input);
    orr_texture env = {0};
    int status = TOOL_EXIT_OK;
    orr_gltf *model = NULL;
    if (k == TOOL_KIND_GLTF) {
        status = tool_load_model(s, o, &model);
        if (status == TOOL_EXIT_OK && !o->no_env) {
            char def[1024];
            snprintf(def, sizeof def, "%s/bjs/environmentSpecular.env", tool_asset_dir());
            status = tool_load_environment(e, o->env ? o->env : def, o, &env);
        }
    } else if (k != TOOL_KIND_UNKNOWN) {
        status = tool_load_environment(e, o->input, o, &env);
    } else {
        fprintf(stderr, "%s: %s: unknown kind of file (.gltf, .glb, .hdr, .env, .dds, NAME_px.<ext>)\n", tool_prog,
                o->input);
        status = TOOL_EXIT_INPUT;
    }
    if (model_out) *model_out = model;
    if (status != TOOL_EXIT_OK) return status;
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
        fprintf(stderr, "%s: camera: %s\n", tool_prog, orr_engine_last_error(e));
        return TOOL_EXIT_USAGE; /* a pose the camera refuses */
    }
    orr_scene_set_active_camera(s, *camera);
    if (!env.id) return TOOL_EXIT_OK;
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
        fprintf(stderr, "%s: environment: %s\n", tool_prog, orr_engine_last_error(e));
        return tool_status_of(r);
    }
    return TOOL_EXIT_OK;
}

/* The library's warnings, prefixed; its errors come back through the
 * results and are printed once, with the file they concern. */
void tool_on_log(orr_log_level level, orr_msg id, const char *message, void *user) {
    if (level == ORR_LOG_WARNING) fprintf(stderr, "%s: warning: %s\n", tool_prog, message);
}

/* With ORR_VALIDATION=1: every validation message, said plainly (tests fail on them). */
void tool_on_validation(const char *message, void *user) {
    fprintf(stderr, "%s: validation: %s\n", tool_prog, message);
}
