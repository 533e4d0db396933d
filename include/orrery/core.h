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

/* Static string naming a result ("ORR_ERROR_DEVICE_LOST: ..."). */
const char *orr_result_string(orr_result r);
/* The message of the most recent failure or misuse on the calling thread,
 * from any call, with or without an engine ("ORR_ERROR_INVALID_ARGUMENT:
 * orr_geometry_build_box: ..."); "" before any. Calls that take no engine
 * (geometry builders, orr_geometry_*) report only here; the others also log
 * through the engine's logger and keep it in orr_engine_last_error. A
 * successful call does not clear it. Valid until the thread's next failure. */
const char *orr_last_error(void);

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

/* Logger hook: zero for stderr (errors and warnings only). `message` is one
 * line without a trailing newline. */
typedef struct orr_logger {
    void (*log)(orr_log_level level, const char *message, void *user);
    void *user;
} orr_logger;

#ifdef __cplusplus
}
#endif
#endif
