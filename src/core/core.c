/* core.c — allocation hooks, logging, results and misuse messages.
 * Invariant: every library allocation goes through an orr_allocator resolved
 * here (one exception: cJSON's parse tree of a .env manifest, decisions 25);
 * the library never aborts on a runtime failure. */
#define _DEFAULT_SOURCE /* madvise, MADV_HUGEPAGE */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "core/core_int.h"

static void *def_alloc(size_t size, void *user) {
    (void)user;
    return malloc(size);
}
static void *def_realloc(void *p, size_t size, void *user) {
    (void)user;
    return realloc(p, size);
}
static void def_free(void *p, void *user) {
    (void)user;
    free(p);
}

orr_allocator orri_allocator_resolve(const orr_allocator *a) {
    if (a && a->alloc && a->realloc && a->free) return *a;
    return (orr_allocator){def_alloc, def_realloc, def_free, NULL};
}

void *orri_alloc(const orr_allocator *a, size_t size) {
    void *p = a->alloc(size ? size : 1, a->user);
    if (p) memset(p, 0, size ? size : 1);
    return p;
}

void *orri_alloc_lines(const orr_allocator *a, size_t size, void **raw) {
    enum { LINE = 64, HUGE_PAGE = 2u << 20 };
    size = size ? size : 1;
    *raw = size <= SIZE_MAX - LINE ? a->alloc(size + LINE, a->user) : NULL;
    if (!*raw) return NULL;
    uint8_t *p = (uint8_t *)(((uintptr_t)*raw + LINE - 1) & ~(uintptr_t)(LINE - 1));
#ifdef MADV_HUGEPAGE
    /* Only the C library's blocks: a user allocator's pages are its own. Advice
     * before the first touch, so the zeroing below faults huge pages in. */
    if (a->alloc == def_alloc && size >= 2 * (size_t)HUGE_PAGE) {
        uintptr_t b = ((uintptr_t)p + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
        uintptr_t e = ((uintptr_t)p + size) & ~(uintptr_t)(HUGE_PAGE - 1);
        if (e > b) (void)madvise((void *)b, e - b, MADV_HUGEPAGE); /* advice: failure changes nothing */
    }
#endif
    memset(p, 0, size);
    return p;
}

void *orri_realloc(const orr_allocator *a, void *p, size_t size) { return a->realloc(p, size ? size : 1, a->user); }

void orri_free(const orr_allocator *a, void *p) {
    if (p) a->free(p, a->user);
}

static void def_log(orr_log_level level, orr_msg id, const char *message, void *user) {
    (void)user, (void)id;
    static const char *names[] = {"error", "warning", "info", "debug"};
    if (level <= ORR_LOG_WARNING) fprintf(stderr, "orrery %s: %s\n", names[level], message);
}

void orri_ctx_init(orri_ctx *ctx, const orr_allocator *a, const orr_logger *l) {
    memset(ctx, 0, sizeof *ctx);
    ctx->allocator = orri_allocator_resolve(a);
    ctx->logger = (l && l->log) ? *l : (orr_logger){def_log, NULL};
}

static void vlog(orri_ctx *ctx, orr_log_level level, orr_msg id, const char *fmt, va_list ap) {
    char buf[1024];
    vsnprintf(buf, sizeof buf, fmt, ap);
    if (level == ORR_LOG_ERROR) memcpy(ctx->last_error, buf, sizeof buf);
    ctx->logger.log(level, id, buf, ctx->logger.user);
}

void orri_log(orri_ctx *ctx, orr_log_level level, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vlog(ctx, level, ORR_MSG_NONE, fmt, ap);
    va_end(ap);
}

void orri_log_id(orri_ctx *ctx, orr_log_level level, orr_msg id, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vlog(ctx, level, id, fmt, ap);
    va_end(ap);
}

/* The last error message and result of this thread, from any call
 * (orr_last_error, orr_last_result). */
static _Thread_local char thread_error[1024];
static _Thread_local orr_result thread_result;

const char *orr_last_error(void) { return thread_error; }
orr_result orr_last_result(void) { return thread_result; }

orr_result orri_fail(orri_ctx *ctx, orr_result r, const char *fmt, ...) {
    char buf[900];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    snprintf(thread_error, sizeof thread_error, "%s: %s", orr_result_string(r), buf);
    thread_result = r;
    orri_log_id(ctx, ORR_LOG_ERROR, ORR_MSG_RUNTIME_FAILURE, "%s: %s", orr_result_string(r), buf);
    return r;
}

orr_result orri_fail_free(orr_result r, const char *fmt, ...) {
    char buf[900];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    snprintf(thread_error, sizeof thread_error, "%s: %s", orr_result_string(r), buf);
    thread_result = r;
    return r;
}

#define ORR_MSG_NAME_(id, text) #id,
#define ORR_MSG_TEXT_(id, text) text,
static const char *const msg_names[ORR_MSG_COUNT_] = {ORR_MSG_LIST(ORR_MSG_NAME_)};
static const char *const msg_texts[ORR_MSG_COUNT_] = {ORR_MSG_LIST(ORR_MSG_TEXT_)};

const char *orr_msg_name(orr_msg id) { return (unsigned)id < ORR_MSG_COUNT_ ? msg_names[id] : ""; }
const char *orr_msg_text(orr_msg id) { return (unsigned)id < ORR_MSG_COUNT_ ? msg_texts[id] : ""; }
bool orr_msg_is_misuse(orr_msg id) { return id >= ORR_MSG_NULL_CONTEXT && id < ORR_MSG_COUNT_; }

void orri_misuse(orri_ctx *ctx, orr_msg id, const char *fmt, ...) {
    ORRI_ASSERT(orr_msg_is_misuse(id));
    char buf[900];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    snprintf(thread_error, sizeof thread_error, "API misuse %s: %s", msg_names[id], buf);
    bool handle = id == ORR_MSG_NULL_CONTEXT || id == ORR_MSG_INVALID_HANDLE || id == ORR_MSG_WRONG_KIND;
    thread_result = handle ? ORR_ERROR_INVALID_HANDLE : ORR_ERROR_INVALID_ARGUMENT;
    if (!ctx) {
        fprintf(stderr, "orrery error: API misuse %s: %s\n", msg_names[id], buf);
        return;
    }
    orri_log_id(ctx, ORR_LOG_ERROR, id, "API misuse %s: %s", msg_names[id], buf);
}

const char *orr_result_string(orr_result r) {
    static const char *names[ORR_RESULT_COUNT_] = {
        [ORR_OK] = "ORR_OK",
        [ORR_ERROR_INVALID_ARGUMENT] = "ORR_ERROR_INVALID_ARGUMENT",
        [ORR_ERROR_INVALID_HANDLE] = "ORR_ERROR_INVALID_HANDLE",
        [ORR_ERROR_OUT_OF_HOST_MEMORY] = "ORR_ERROR_OUT_OF_HOST_MEMORY",
        [ORR_ERROR_OUT_OF_DEVICE_MEMORY] = "ORR_ERROR_OUT_OF_DEVICE_MEMORY",
        [ORR_ERROR_DEVICE_LOST] = "ORR_ERROR_DEVICE_LOST",
        [ORR_ERROR_NO_DEVICE] = "ORR_ERROR_NO_DEVICE",
        [ORR_ERROR_VULKAN] = "ORR_ERROR_VULKAN",
        [ORR_ERROR_IO] = "ORR_ERROR_IO",
        [ORR_ERROR_MALFORMED] = "ORR_ERROR_MALFORMED",
        [ORR_ERROR_UNSUPPORTED] = "ORR_ERROR_UNSUPPORTED",
        [ORR_ERROR_SHADER_COMPILE] = "ORR_ERROR_SHADER_COMPILE",
        [ORR_ERROR_LIMIT_REACHED] = "ORR_ERROR_LIMIT_REACHED",
        [ORR_ERROR_CANCELLED] = "ORR_ERROR_CANCELLED",
    };
    if ((unsigned)r >= ORR_RESULT_COUNT_) return "ORR_ERROR_UNKNOWN";
    return names[r];
}

double orr_opt_f64_or(orr_opt_f64 o, double fallback) { return o.set ? o.value : fallback; }
bool orr_opt_bool_or(orr_opt_bool o, bool fallback) { return o.set ? o.value : fallback; }
