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

#include "tool_content.h"

#define PROG "orrery-render"
#define TWO_PI 6.283185307179586

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

static bool parse_pose(const char *v, tool_options *o) {
    char tail;
    o->radius = 0;
    int n = v ? sscanf(v, "%lf,%lf,%lf%c", &o->alpha, &o->beta, &o->radius, &tail) : 0;
    return (n == 2 || n == 3) && isfinite(o->alpha) && isfinite(o->beta) && isfinite(o->radius) && o->radius >= 0;
}

/* Returns -1 to go on, or the exit status. */
static int parse_args(int argc, char **argv, tool_options *o) {
    *o = (tool_options){.out = "out.png", .width = 640, .height = 480, .msaa = 4, .samples = 512, .exposure = -1};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        bool ok = true, value = true;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) return usage(stdout, NULL, TOOL_EXIT_OK);
        if (!strcmp(a, "-o") || !strcmp(a, "--out"))
            ok = v && *v, o->out = v;
        else if (!strcmp(a, "--size"))
            ok = tool_parse_size(v, &o->width, &o->height);
        else if (!strcmp(a, "--msaa"))
            ok = tool_parse_u32(v, 1, 4, &o->msaa) && (o->msaa == 1 || o->msaa == 4);
        else if (!strcmp(a, "--camera"))
            ok = parse_pose(v, o), o->pose_set = true;
        else if (!strcmp(a, "--target"))
            ok = tool_parse_vec3(v, &o->target), o->target_set = true;
        else if (!strcmp(a, "--turntable"))
            ok = tool_parse_u32(v, 1, 3600, &o->turntable);
        else if (!strcmp(a, "--time"))
            ok = tool_parse_f64(v, &o->time) && o->time >= 0;
        else if (!strcmp(a, "--env"))
            ok = v && *v, o->env = v;
        else if (!strcmp(a, "--exposure"))
            ok = tool_parse_f64(v, &o->exposure) && o->exposure >= 0;
        else if (!strcmp(a, "--samples"))
            ok = tool_parse_u32(v, 1, 65536, &o->samples);
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
        if (!ok) return usage(stderr, a, TOOL_EXIT_USAGE);
        i += value;
    }
    if (!o->input) {
        fprintf(stderr, PROG ": no input file\n");
        return usage(stderr, NULL, TOOL_EXIT_USAGE);
    }
    if (o->env && o->no_env) return usage(stderr, "--env with --no-env", TOOL_EXIT_USAGE);
    return -1;
}

/* ---- rendering ---------------------------------------------------------------------------- */

/* PATH.png → PATH-007.png for frame 7 of a turntable. */
static void frame_path(const char *out, uint32_t frame, bool series, char *path, size_t cap) {
    if (!series) {
        snprintf(path, cap, "%s", out);
        return;
    }
    size_t n = strlen(out);
    if (tool_ends_with(out, ".png")) n -= 4;
    snprintf(path, cap, "%.*s-%03u.png", (int)n, out, frame);
}

static int render_all(orr_engine *e, orr_scene *s, orr_camera camera, const tool_options *o) {
    double alpha, beta, radius;
    orr_camera_get_arc(s, camera, &alpha, &beta, &radius);
    uint32_t frames = o->turntable ? o->turntable : 1;
    for (uint32_t f = 0; f < frames; f++) {
        orr_camera_set_arc(s, camera, alpha + TWO_PI * f / frames, beta, radius);
        orr_result r = orr_engine_render(e, s);
        if (r != ORR_OK) {
            fprintf(stderr, PROG ": render: %s\n", orr_engine_last_error(e));
            return tool_status_of(r) == TOOL_EXIT_INPUT ? TOOL_EXIT_OTHER : tool_status_of(r);
        }
        char path[1024];
        frame_path(o->out, f, o->turntable > 0, path, sizeof path);
        r = orr_engine_save_png(e, path);
        if (r != ORR_OK) {
            fprintf(stderr, PROG ": %s: %s\n", path, orr_engine_last_error(e));
            return r == ORR_ERROR_IO ? TOOL_EXIT_OUTPUT : tool_status_of(r);
        }
        if (!o->quiet) printf(PROG ": wrote %s\n", path);
    }
    return TOOL_EXIT_OK;
}

int main(int argc, char **argv) {
    tool_options o;
    int status = parse_args(argc, argv, &o);
    if (status >= 0) return status;
    if (access(o.input, R_OK) != 0) { /* before starting a device: the cheap, common mistake */
        fprintf(stderr, PROG ": %s: cannot open\n", o.input);
        return TOOL_EXIT_INPUT;
    }
    tool_prog = PROG;
    signal(SIGINT, tool_on_sigint);
    orr_engine *engine = NULL;
    orr_result r = orr_engine_create(&(orr_engine_desc){.width = o.width,
                                                        .height = o.height,
                                                        .msaa = o.msaa,
                                                        .logger = {tool_on_log, NULL},
                                                        .on_validation_message = tool_on_validation,
                                                        .label = PROG},
                                     &engine);
    if (r != ORR_OK) {
        fprintf(stderr, PROG ": no device: %s\n", orr_engine_last_error(NULL));
        return tool_status_of(r) == TOOL_EXIT_OTHER ? TOOL_EXIT_DEVICE : tool_status_of(r);
    }
    orr_scene *scene = NULL;
    orr_camera camera = {0};
    r = orr_scene_create(engine, &(orr_scene_desc){.label = PROG}, &scene);
    status = r == ORR_OK ? tool_build_scene(engine, scene, &o, &camera, NULL) : tool_status_of(r);
    if (status == TOOL_EXIT_OK) status = render_all(engine, scene, camera, &o);
    if (status == TOOL_EXIT_OK && !o.quiet) {
        orr_device_info info = orr_engine_device_info(engine);
        printf(PROG ": %ux%u, %ux MSAA, on %s\n", info.width, info.height, info.msaa, info.name);
    }
    if (status == TOOL_EXIT_INTERRUPTED) fprintf(stderr, PROG ": interrupted\n");
    orr_engine_destroy(engine);
    return status;
}
