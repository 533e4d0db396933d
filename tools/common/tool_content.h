/* tool_content.h — what the command-line tools (orrery-render, orrery-view)
 * share: argument parsing helpers, exit statuses, a progress bar on stderr
 * that SIGINT cancels, and loading one input (a glTF model or an
 * environment) into a scene with Babylon.js's default framing, light and
 * environment. Messages start with `tool_prog` ("orrery-render: ...") and
 * name the file they concern. Not part of the library's API.
 */
#ifndef ORRERY_TOOL_CONTENT_H
#define ORRERY_TOOL_CONTENT_H

#include <orrery/orrery.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

/* Exit statuses (what scripts test). */
enum {
    TOOL_EXIT_OK = 0,
    TOOL_EXIT_OTHER = 1,  /* out of host memory, an internal error */
    TOOL_EXIT_USAGE = 2,  /* bad arguments */
    TOOL_EXIT_INPUT = 3,  /* missing, unreadable, malformed or unsupported input file */
    TOOL_EXIT_DEVICE = 4, /* no Vulkan 1.3 device, device lost, out of device memory, no window */
    TOOL_EXIT_OUTPUT = 5, /* an output file cannot be written */
    TOOL_EXIT_INTERRUPTED = 130,
};

/* What a tool was asked to show (zero: defaults; exposure < 0: the default). */
typedef struct tool_options {
    const char *input, *out, *env;
    bool no_env, quiet, progress;
    uint32_t width, height, msaa, samples, turntable;
    double exposure, time;
    bool pose_set, target_set;
    double alpha, beta, radius; /* radius 0: framed */
    orr_dvec3 target;
} tool_options;

typedef enum tool_kind {
    TOOL_KIND_UNKNOWN,
    TOOL_KIND_GLTF,
    TOOL_KIND_HDR,
    TOOL_KIND_ENV,
    TOOL_KIND_DDS,
    TOOL_KIND_FACES
} tool_kind;

/* A progress bar: `draw` false keeps it silent (still cancels on SIGINT). */
typedef struct tool_bar {
    const char *what;
    bool draw;
    int last; /* percent drawn, -1 before the first */
} tool_bar;

extern const char *tool_prog;                  /* message prefix, set by main */
extern volatile sig_atomic_t tool_interrupted; /* set by tool_on_sigint */

bool tool_parse_u32(const char *v, uint32_t lo, uint32_t hi, uint32_t *out);
bool tool_parse_f64(const char *v, double *out);
bool tool_parse_size(const char *v, uint32_t *w, uint32_t *h); /* WxH, 8 .. 16384 */
bool tool_parse_vec3(const char *v, orr_dvec3 *p);             /* X,Y,Z */

/* Input-file failures TOOL_EXIT_INPUT, device failures TOOL_EXIT_DEVICE,
 * cancelled TOOL_EXIT_INTERRUPTED, else TOOL_EXIT_OTHER. */
int tool_status_of(orr_result r);

void tool_on_sigint(int sig);
/* orr_progress_fn over a tool_bar; returns false (cancel) after SIGINT. */
bool tool_on_progress(double fraction, void *user);

const char *tool_base_name(const char *path);
bool tool_ends_with(const char *s, const char *tail); /* case-insensitive */
/* $ORR_ASSETS, the checkout's assets/ (build tree), the installed copy. */
const char *tool_asset_dir(void);
tool_kind tool_kind_of(const char *path);

/* Each returns an exit status (TOOL_EXIT_OK: done) and prints why not. */
int tool_load_environment(orr_engine *e, const char *path, const tool_options *o, orr_texture *out);
int tool_load_model(orr_scene *s, const tool_options *o, orr_gltf **out);
/* Loads o->input (model plus o->env or the default environment, or an
 * environment alone), adds Babylon.js's default light when the model has
 * none, the framed arc-rotate camera (o's pose and target override it) as the
 * active camera, and the environment as skybox. *model may be NULL. */
int tool_build_scene(orr_engine *e, orr_scene *s, const tool_options *o, orr_camera *camera, orr_gltf **model);

/* Logger and validation callbacks for orr_engine_desc: warnings and
 * validation messages on stderr, prefixed (errors come back through results). */
void tool_on_log(orr_log_level level, orr_msg id, const char *message, void *user);
void tool_on_validation(const char *message, void *user);

#endif
