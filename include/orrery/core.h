/* orrery/core.h — results, allocator and logger hooks, messages.
 *
 * Three tiers of errors: assert for internal invariants; API misuse
 * reported through the logger with a named message id (orr_msg) and a
 * harmless return; runtime failures (device, file, memory, malformed data)
 * returned as orr_result, leaving nothing half-built. The library never calls
 * abort() or exit() on a runtime failure.
 */
#ifndef ORRERY_CORE_H
#define ORRERY_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum orr_result {
    ORR_OK = 0,
    ORR_ERROR_INVALID_ARGUMENT, /* impossible option or bad parameter */
    ORR_ERROR_INVALID_HANDLE,   /* null, stale or foreign handle */
    ORR_ERROR_OUT_OF_HOST_MEMORY,
    ORR_ERROR_OUT_OF_DEVICE_MEMORY,
    ORR_ERROR_DEVICE_LOST,
    ORR_ERROR_NO_DEVICE,      /* no Vulkan 1.3 device with what Orrery needs */
    ORR_ERROR_VULKAN,         /* any other Vulkan failure */
    ORR_ERROR_IO,             /* file cannot be opened, read or written */
    ORR_ERROR_MALFORMED,      /* file or data does not parse */
    ORR_ERROR_UNSUPPORTED,    /* valid but not supported (format, feature) */
    ORR_ERROR_SHADER_COMPILE, /* user GLSL failed to compile; see orr_engine_last_error */
    ORR_ERROR_LIMIT_REACHED,  /* a documented fixed limit (its message names it), not memory */
    ORR_ERROR_CANCELLED,      /* the caller's progress callback returned false; nothing was made */
    ORR_RESULT_COUNT_
} orr_result;

/* Descs and their defaults — one pattern for every desc in the library.
 *
 * Every create and set call takes a `const orr_X_desc *` whose all-zero value
 * means "the defaults" (Babylon.js's, where Babylon.js has one), written with
 * designated initializers. A field whose zero is its default is a plain field.
 * A field whose zero would be a legal value different from its default (an
 * alpha of 0, a black colour, a switch that is on by default) is an optional:
 * `{ set, value }`, zero meaning "not set: the default". Set one with the
 * ORR_F64 / ORR_ON / ORR_OFF macros (ORR_RGB / ORR_RGBA in scene.h):
 *
 *     orr_standard_material_desc d = { .alpha = ORR_F64(0.5), .fog = ORR_OFF };
 *
 * From a variable: `.diffuse = { true, colour }`. Build with -Wall: a vector
 * written `.target = { 0, 1, 0 }` for an optional field would fill `.set`
 * from its first number (gcc and clang warn: -Wmissing-braces).
 *
 * There are no `_set` flags and no negated booleans. Each desc is resolved in
 * one function, and `orr_X_desc_defaults(desc)` returns the resolved copy
 * (every optional set) for programs that want to see what a zero means. */
typedef struct orr_opt_f64 {
    bool set;
    double value;
} orr_opt_f64;
typedef struct orr_opt_bool {
    bool set;
    bool value;
} orr_opt_bool;

#ifdef __cplusplus
#define ORR_LITERAL_(T) T
#else
#define ORR_LITERAL_(T) (T)
#endif
#define ORR_F64(x) (ORR_LITERAL_(orr_opt_f64){true, (double)(x)})
#define ORR_ON (ORR_LITERAL_(orr_opt_bool){true, true})
#define ORR_OFF (ORR_LITERAL_(orr_opt_bool){true, false})
/* The value of an optional, or `fallback` when it is not set. */
double orr_opt_f64_or(orr_opt_f64 o, double fallback);
bool orr_opt_bool_or(orr_opt_bool o, bool fallback);

/* Progress of a long call (orr_texture_prefilter and a texture load's
 * .prefilter, orr_gltf_load_file / _memory): called between steps
 * of the work with the fraction done, increasing from 0 to exactly 1 (the
 * last call, once the work is complete). Return true to go on; false cancels
 * the call, which then returns ORR_ERROR_CANCELLED (its message says
 * "cancelled") and leaves nothing behind. `user` is passed back unchanged. */
typedef bool (*orr_progress_fn)(double fraction, void *user);

/* Lifetimes and errors — the contract of every call.
 *
 * Create shapes. Contexts and containers (engine, scene, environment,
 * instance pool, window, rebase world, textures) are created by
 * `orr_result orr_X_create(parent, desc, out)`: the result says why a create
 * failed and *out is untouched then. Scene objects (nodes, cameras, lights,
 * meshes, materials, rebase subscribers) are created by
 * `handle orr_X_create(scene, desc)`: the null handle (id 0) on failure, and
 * orr_last_result() says why (OUT_OF_HOST_MEMORY, LIMIT_REACHED,
 * SHADER_COMPILE, INVALID_ARGUMENT for misuse, ...).
 *
 * Destroys. Every create has its destroy; a destroy takes NULL or a null
 * handle silently and reports a stale one as misuse. A parent's destroy
 * destroys its children (a scene its nodes, materials, environments and
 * instance pools; an engine its scenes and textures); their pointers and
 * handles are dangling or stale afterwards.
 *
 * Destroying what is still referenced. One rule: the destroy always
 * succeeds, at once, for the caller; what referenced the object falls back
 * (a mesh whose material is destroyed draws with the default material, a
 * material whose texture is destroyed samples white, an environment without
 * its texture draws its plain colour) and GPU memory is freed when the frames
 * in flight that used it have finished. Textures, materials, meshes and
 * environments never wait for the device; destroying a scene (or an engine)
 * does (docs/decisions.md 31).
 *
 * Errors, three tiers. Internal invariants are asserted (debug builds).
 * API misuse is reported through the logger with an orr_msg id and changes
 * nothing. Runtime failures are returned as orr_result, leaving nothing
 * half-built. The library never calls abort() or exit(). */

/* Static string naming a result ("ORR_ERROR_DEVICE_LOST: ..."). */
const char *orr_result_string(orr_result r);
/* The message of the most recent failure or misuse on the calling thread,
 * from any call, with or without an engine ("ORR_ERROR_INVALID_ARGUMENT:
 * orr_geometry_build_box: ..."); "" before any. Calls that take no engine
 * (geometry builders, orr_geometry_*) report only here; the others also log
 * through the engine's logger and keep it in orr_engine_last_error. A
 * successful call does not clear it. Valid until the thread's next failure. */
const char *orr_last_error(void);
/* The result of the most recent failure or misuse on the calling thread
 * (misuse: ORR_ERROR_INVALID_HANDLE for NULL_CONTEXT, INVALID_HANDLE and
 * WRONG_KIND, ORR_ERROR_INVALID_ARGUMENT otherwise); ORR_OK before any.
 * How a handle create (which returns 0) says why it failed. */
orr_result orr_last_result(void);

/* Allocator hooks: all three set, or all zero for the C library's. Every
 * allocation of the library goes through these (Vulkan's host allocations
 * use the driver's own). `user` is passed back unchanged. */
typedef struct orr_allocator {
    void *(*alloc)(size_t size, void *user);
    void *(*realloc)(void *ptr, size_t size, void *user);
    void (*free)(void *ptr, void *user);
    void *user;
} orr_allocator;

typedef enum orr_log_level {
    ORR_LOG_ERROR = 0,
    ORR_LOG_WARNING = 1,
    ORR_LOG_INFO = 2,
    ORR_LOG_DEBUG = 3,
} orr_log_level;

/* Message ids: one list (an X-macro: id, what it means). Every line the
 * library logs carries one, so programs and tests react to ids, not text.
 * Misuse ids (from NULL_CONTEXT on) come with a harmless return; the line's
 * text names the call and the field. */
#define ORR_MSG_LIST(X)                                                                                  \
    X(NONE, "an informational or debug line")                                                            \
    X(RUNTIME_FAILURE, "a runtime failure (device, file, memory, malformed data); the call returned it") \
    X(VALIDATION, "a Vulkan validation-layer message (a library bug or a driver problem)")               \
    X(NULL_CONTEXT, "misuse: the engine, scene, world or pool argument is NULL")                         \
    X(INVALID_HANDLE, "misuse: a null, stale or foreign handle")                                         \
    X(WRONG_KIND, "misuse: a handle of another kind (a light given to a camera call)")                   \
    X(NULL_ARGUMENT, "misuse: a required pointer argument or desc field is NULL or missing")             \
    X(NOT_FINITE, "misuse: a NaN or infinite number")                                                    \
    X(OUT_OF_RANGE, "misuse: an index, count, size or value outside its documented range")               \
    X(UNKNOWN_ENUM, "misuse: an enum value the call does not know")                                      \
    X(CONFLICTING_FIELDS, "misuse: fields that exclude each other are both given")                       \
    X(NOT_FOUND, "misuse: no item of that name")                                                         \
    X(WOULD_CYCLE, "misuse: the change would make the node hierarchy a cycle")                           \
    X(HAS_PARENT, "misuse: the call needs a root node")                                                  \
    X(BAD_STATE, "misuse: the object is not in the state the call needs (no tick open, rendering)")      \
    X(IMPOSSIBLE_OPTION, "misuse: options that cannot work together (floating origin without float64)")  \
    X(IN_USE, "misuse: the object is still referenced and the call refuses to break that")

typedef enum orr_msg {
#define ORR_MSG_ENUM_(id, text) ORR_MSG_##id,
    ORR_MSG_LIST(ORR_MSG_ENUM_)
#undef ORR_MSG_ENUM_
        ORR_MSG_COUNT_
} orr_msg;

/* "NOT_FINITE" for ORR_MSG_NOT_FINITE; "" for an unknown id. */
const char *orr_msg_name(orr_msg id);
/* The list's description of the id; "" for an unknown id. */
const char *orr_msg_text(orr_msg id);
/* True for the ids of API misuse (NULL_CONTEXT and after). */
bool orr_msg_is_misuse(orr_msg id);

/* Logger hook: zero for stderr (errors and warnings only). `message` is one
 * line without a trailing newline; `id` says what kind of line it is. */
typedef struct orr_logger {
    void (*log)(orr_log_level level, orr_msg id, const char *message, void *user);
    void *user;
} orr_logger;

#ifdef __cplusplus
}
#endif
#endif
