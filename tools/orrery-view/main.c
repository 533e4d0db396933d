/* orrery-view — opens a glTF model or an environment in a window and lets
 * the user look at it (issue 14, item 3).
 *
 *     orrery-view [options] FILE
 *
 * FILE is what orrery-render takes (tools/common/tool_content.h): a glTF
 * model (.gltf, .glb) or an environment (.hdr, .env, .dds, NAME_px.<ext>).
 * A model is framed as Babylon.js's createDefaultCameraOrLight frames it, lit
 * by the default environment (or --env), and its first animation plays.
 *
 * Controls (orrery/controls.h, Babylon.js ArcRotateCamera's inputs): left
 * drag orbits, right drag (or Ctrl + left) pans, the wheel zooms, the arrow
 * keys orbit; Space pauses and resumes the animation; R frames the content
 * again; F12 writes a screenshot (--screenshot PATH, default
 * orrery-view-NNN.png); P prints the camera pose; Escape or closing the
 * window quits. The text overlay shows frame time, draw calls, instances and
 * triangles (orr_query_stats); H hides it.
 *
 * Exit status: 0 closed normally; 2 bad arguments; 3 bad input file; 4 no
 * device or no display (the message says which); 5 a screenshot could not be
 * written; 130 interrupted during a load; 1 other.
 */
#define _POSIX_C_SOURCE 200809L /* access, clock_gettime */
#include <orrery/controls.h>
#include <orrery/orrery.h>
#include <orrery/text.h>
#include <orrery/window.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tool_content.h"

#define PROG "orrery-view"

typedef struct view_options {
    tool_options content;
    const char *screenshot; /* NULL: orrery-view-NNN.png */
    long frames;            /* > 0: quit after that many frames (tests) */
    bool vsync_off;
} view_options;

static int usage(FILE *f, const char *bad, int status) {
    if (bad) fprintf(f, PROG ": unknown option or bad value: %s\n", bad);
    fprintf(f, "usage: " PROG " [options] FILE\n"
               "  FILE               a glTF model (.gltf, .glb) or an environment (.hdr, .env, .dds,\n"
               "                     or one face NAME_px.png of a six-face cube)\n"
               "  --size WxH         window size (default 1280x720)\n"
               "  --msaa 1|4         multisampling (default 4)\n"
               "  --env FILE         environment for a model (default the assets' environmentSpecular.env)\n"
               "  --no-env           no environment: default light only\n"
               "  --exposure E       image processing exposure\n"
               "  --samples N        GGX samples when prefiltering an environment (default 512)\n"
               "  --screenshot PATH  where F12 writes (default orrery-view-NNN.png)\n"
               "  --frames N         quit after N frames\n"
               "  --no-vsync         present without waiting for the display\n"
               "  --quiet            no progress bar\n"
               "keys: drag to orbit, right drag to pan, wheel to zoom, arrows to orbit, Space pauses the\n"
               "animation, R frames the content, F12 screenshot, P prints the pose, H hides the overlay,\n"
               "Escape quits\n"
               "exit status: 0 ok, 2 bad arguments, 3 bad input file, 4 no device or no display,\n"
               "5 cannot write a screenshot, 130 interrupted, 1 other\n");
    return status;
}

/* Returns -1 to go on, or the exit status. */
static int parse_args(int argc, char **argv, view_options *o) {
    *o = (view_options){.content = {.width = 1280, .height = 720, .msaa = 4, .samples = 512, .exposure = -1}};
    tool_options *c = &o->content;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        bool ok = true, value = true;
        uint32_t frames = 0;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) return usage(stdout, NULL, TOOL_EXIT_OK);
        if (!strcmp(a, "--size"))
            ok = tool_parse_size(v, &c->width, &c->height);
        else if (!strcmp(a, "--msaa"))
            ok = tool_parse_u32(v, 1, 4, &c->msaa) && (c->msaa == 1 || c->msaa == 4);
        else if (!strcmp(a, "--env"))
            ok = v && *v, c->env = v;
        else if (!strcmp(a, "--exposure"))
            ok = tool_parse_f64(v, &c->exposure) && c->exposure >= 0;
        else if (!strcmp(a, "--samples"))
            ok = tool_parse_u32(v, 1, 65536, &c->samples);
        else if (!strcmp(a, "--screenshot"))
            ok = v && *v, o->screenshot = v;
        else if (!strcmp(a, "--frames"))
            ok = tool_parse_u32(v, 1, 100000000, &frames), o->frames = frames;
        else if (!strcmp(a, "--no-env"))
            c->no_env = true, value = false;
        else if (!strcmp(a, "--no-vsync"))
            o->vsync_off = true, value = false;
        else if (!strcmp(a, "--quiet"))
            c->quiet = true, value = false;
        else if (a[0] != '-' && !c->input)
            c->input = a, value = false;
        else
            ok = false;
        if (!ok) return usage(stderr, a, TOOL_EXIT_USAGE);
        i += value;
    }
    if (!c->input) {
        fprintf(stderr, PROG ": no input file\n");
        return usage(stderr, NULL, TOOL_EXIT_USAGE);
    }
    if (c->env && c->no_env) return usage(stderr, "--env with --no-env", TOOL_EXIT_USAGE);
    return -1;
}

static double seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void print_pose(orr_scene *scene, orr_camera camera, const char *why) {
    double a, b, r;
    orr_camera_get_arc(scene, camera, &a, &b, &r);
    orr_dvec3 t = orr_camera_get_target(scene, camera);
    printf(PROG ": pose (%s) alpha %.6f beta %.6f radius %.6f target %.6f %.6f %.6f\n", why, a, b, r, t.x, t.y, t.z);
    fflush(stdout);
}

/* The viewer's state between frames. */
typedef struct viewer {
    orr_engine *engine;
    orr_scene *scene;
    orr_window *window;
    orr_camera camera;
    orr_orbit_pose home; /* the framed pose (R) */
    const view_options *o;
    bool paused, overlay;
    uint32_t shots;
    double frame_ms; /* smoothed CPU frame time */
    orr_font *font;
    orr_text_overlay *text; /* NULL without the font: the viewer runs without it */
} viewer;

/* The overlay: frame time, draw calls, instances, triangles, the keys. */
static void overlay_create(viewer *v) {
    char path[1024];
    snprintf(path, sizeof path, "%s/fonts/DejaVuSans.ttf", tool_asset_dir());
    if (orr_font_create(v->engine, &(orr_font_desc){.path = path, .pixel_height = 15}, &v->font) != ORR_OK ||
        orr_text_overlay_create(v->scene, &(orr_text_overlay_desc){.font = v->font, .label = PROG " overlay"},
                                &v->text) != ORR_OK)
        fprintf(stderr, PROG ": no text overlay (%s)\n", orr_engine_last_error(v->engine));
}

static void overlay_update(viewer *v) {
    if (!v->text) return;
    orr_text_clear(v->text);
    if (!v->overlay) return;
    orr_stats st = orr_query_stats(v->engine);
    const orr_color4 white = {1, 1, 1, 1}, grey = {0.75, 0.75, 0.75, 1};
    orr_text_rect(v->text, 6, 6, 250, 92, (orr_color4){0, 0, 0, 0.55});
    orr_text_printf(v->text, 12, 10, white, 1, "frame %.2f ms (%.0f fps)", v->frame_ms,
                    v->frame_ms > 0 ? 1e3 / v->frame_ms : 0.0);
    orr_text_printf(v->text, 12, 28, white, 1, "draws %u (%u commands)", st.draws, st.draw_commands);
    orr_text_printf(v->text, 12, 46, white, 1, "instances %llu", (unsigned long long)st.instances_submitted);
    orr_text_printf(v->text, 12, 64, white, 1, "triangles %llu", (unsigned long long)st.triangles_submitted);
    orr_text_printf(v->text, 12, 82, grey, 0.8f, "%s  Space  R  F12  H  Esc", v->paused ? "paused" : "playing");
}

static int screenshot(viewer *v) {
    char path[1024];
    if (v->o->screenshot)
        snprintf(path, sizeof path, "%s", v->o->screenshot);
    else
        snprintf(path, sizeof path, "orrery-view-%03u.png", v->shots);
    v->shots++;
    orr_result r = orr_engine_save_png(v->engine, path);
    if (r != ORR_OK) {
        fprintf(stderr, PROG ": %s: %s\n", path, orr_engine_last_error(v->engine));
        return r == ORR_ERROR_IO ? TOOL_EXIT_OUTPUT : tool_status_of(r);
    }
    printf(PROG ": screenshot %s\n", path);
    fflush(stdout);
    return TOOL_EXIT_OK;
}

/* Keys that are not camera controls. Returns an exit status or -1. */
static int handle_events(viewer *v) {
    for (orr_event ev; orr_window_next_event(v->window, &ev);) {
        if (ev.type == ORR_EVENT_RESIZE) {
            orr_device_info info = orr_engine_device_info(v->engine);
            printf(PROG ": resized to %ux%u (render size %ux%u)\n", ev.width, ev.height, info.width, info.height);
            fflush(stdout);
        }
        if (ev.type != ORR_EVENT_KEY_DOWN || ev.repeat) continue;
        switch (ev.key) {
        case ORR_KEY_ESCAPE: orr_window_set_should_close(v->window, true); break;
        case ORR_KEY_SPACE:
            v->paused = !v->paused;
            printf(PROG ": animation %s\n", v->paused ? "paused" : "playing");
            fflush(stdout);
            break;
        case ORR_KEY_R:
            orr_camera_set_target(v->scene, v->camera, v->home.target);
            orr_camera_set_arc(v->scene, v->camera, v->home.alpha, v->home.beta, v->home.radius);
            break;
        case ORR_KEY_P: print_pose(v->scene, v->camera, "now"); break;
        case ORR_KEY_A + ('H' - 'A'): v->overlay = !v->overlay; break;
        case ORR_KEY_F1 + 11: { /* F12 */
            int status = screenshot(v);
            if (status != TOOL_EXIT_OK) return status;
            break;
        }
        default: break;
        }
    }
    return -1;
}

static int run(viewer *v) {
    /* Babylon.js's createDefaultCamera: wheelPrecision = 100 / radius, so a
     * notch moves the same fraction of the framed distance for any model. */
    orr_orbit_controls orbit = {.wheel_precision = 100 / v->home.radius};
    double last = seconds(), start = last;
    long n = 0;
    bool moving = false;
    print_pose(v->scene, v->camera, "start");
    while (!orr_window_should_close(v->window) && (v->o->frames <= 0 || n < v->o->frames)) {
        orr_window_poll(v->window);
        int status = handle_events(v);
        if (status >= 0) return status;
        double now = seconds();
        if (!v->paused) orr_scene_animate(v->scene, now - last);
        v->frame_ms = n ? 0.9 * v->frame_ms + 0.1 * (now - last) * 1e3 : (now - last) * 1e3;
        last = now;
        overlay_update(v);
        bool moved = orr_orbit_controls_apply(&orbit, orr_window_input(v->window), v->scene, v->camera);
        if (moving && !moved) print_pose(v->scene, v->camera, "rest"); /* inertia has run out */
        moving = moved;
        orr_result r = orr_engine_render(v->engine, v->scene);
        if (r == ORR_OK) r = orr_window_present(v->window);
        if (r != ORR_OK) {
            fprintf(stderr, PROG ": %s\n", orr_engine_last_error(v->engine));
            return tool_status_of(r) == TOOL_EXIT_INPUT ? TOOL_EXIT_OTHER : tool_status_of(r);
        }
        n++;
    }
    double elapsed = seconds() - start;
    orr_stats st = orr_query_stats(v->engine);
    print_pose(v->scene, v->camera, "end");
    printf(PROG ": %ld frames in %.1f s; last frame %u draws, %llu instances, %llu triangles\n", n, elapsed, st.draws,
           (unsigned long long)st.instances_submitted, (unsigned long long)st.triangles_submitted);
    return TOOL_EXIT_OK;
}

int main(int argc, char **argv) {
    view_options o;
    int status = parse_args(argc, argv, &o);
    if (status >= 0) return status;
    tool_prog = PROG;
    if (access(o.content.input, R_OK) != 0) {
        fprintf(stderr, PROG ": %s: cannot open\n", o.content.input);
        return TOOL_EXIT_INPUT;
    }
    signal(SIGINT, tool_on_sigint);
    viewer v = {.o = &o, .overlay = true};
    orr_result r = orr_engine_create(&(orr_engine_desc){.width = o.content.width,
                                                        .height = o.content.height,
                                                        .msaa = o.content.msaa,
                                                        .logger = {tool_on_log, NULL},
                                                        .on_validation_message = tool_on_validation,
                                                        .label = PROG},
                                     &v.engine);
    if (r != ORR_OK) {
        fprintf(stderr, PROG ": no device: %s\n", orr_engine_last_error(NULL));
        return tool_status_of(r) == TOOL_EXIT_OTHER ? TOOL_EXIT_DEVICE : tool_status_of(r);
    }
    char title[512];
    snprintf(title, sizeof title, PROG " — %s", tool_base_name(o.content.input));
    r = orr_window_create(
        v.engine, &(orr_window_desc){.title = title, .vsync = o.vsync_off ? ORR_VSYNC_OFF : ORR_VSYNC_ON}, &v.window);
    if (r != ORR_OK) { /* before loading: no display means nothing to do */
        fprintf(stderr, PROG ": no window: %s\n", orr_engine_last_error(v.engine));
        orr_engine_destroy(v.engine);
        return TOOL_EXIT_DEVICE;
    }
    r = orr_scene_create(v.engine, &(orr_scene_desc){.label = PROG}, &v.scene);
    status = r == ORR_OK ? tool_build_scene(v.engine, v.scene, &o.content, &v.camera, NULL) : tool_status_of(r);
    if (status == TOOL_EXIT_OK) {
        orr_camera_get_arc(v.scene, v.camera, &v.home.alpha, &v.home.beta, &v.home.radius);
        v.home.target = orr_camera_get_target(v.scene, v.camera);
        overlay_create(&v);
        status = run(&v);
    }
    orr_text_overlay_destroy(v.text);
    orr_font_destroy(v.font);
    if (status == TOOL_EXIT_INTERRUPTED) fprintf(stderr, PROG ": interrupted\n");
    orr_window_destroy(v.window);
    orr_engine_destroy(v.engine);
    return status;
}
