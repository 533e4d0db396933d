/* parse_ctx.c — the glTF loader's context: messages ("file: json.path:
 * what (byte N)"), memory charged to the decode budget, and small typed
 * readers over cJSON that name the JSON path of what they refuse. */
#include <cJSON.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/core_int.h"
#include "gltf_int.h"
#include "orrery/handedness.h"

void orri_gltf_ctx_init(orri_gltf_ctx *c, const orr_allocator *a, const orr_logger *l, char *error, size_t error_size,
                        const char *label, const char *base_dir, size_t max_bytes) {
    *c = (orri_gltf_ctx){.allocator = orri_allocator_resolve(a),
                         .error = error,
                         .error_size = error_size,
                         .label = label ? label : "glTF",
                         .base_dir = base_dir,
                         .max_bytes = max_bytes ? max_bytes : ORRI_GLTF_DEFAULT_MAX_BYTES,
                         .progress_last = -1};
    if (l) c->logger = *l;
    if (error && error_size) error[0] = 0;
}

static void emit(orri_gltf_ctx *c, orr_log_level level, orr_result r, const char *msg) {
    char line[1024];
    snprintf(line, sizeof line, "%s: %s", c->label, msg);
    if (level == ORR_LOG_ERROR) {
        if (c->error) snprintf(c->error, c->error_size, "%s", line);
        orri_fail_free(r, "%s", line);
    }
    if (level == ORR_LOG_WARNING && c->log)
        orri_log(c->log, ORR_LOG_WARNING, "%s", line);
    else if (c->logger.log)
        c->logger.log(level, level == ORR_LOG_ERROR ? ORR_MSG_RUNTIME_FAILURE : ORR_MSG_NONE, line, c->logger.user);
    else if (level == ORR_LOG_ERROR && !c->error)
        fprintf(stderr, "orrery error: %s: %s\n", orr_result_string(r), line);
    else if (level == ORR_LOG_WARNING && !c->error)
        fprintf(stderr, "orrery warning: %s\n", line);
}

orr_result orri_gltf_fail(orri_gltf_ctx *c, orr_result r, const char *fmt, ...) {
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    emit(c, ORR_LOG_ERROR, r, msg);
    return r;
}

orr_result orri_gltf_progress(orri_gltf_ctx *c, double fraction) {
    if (!c->progress || !(fraction > c->progress_last)) return ORR_OK;
    c->progress_last = fraction;
    if (fraction >= 1) {
        c->progress(1.0, c->progress_user); /* complete: the result is ignored */
        return ORR_OK;
    }
    if (c->progress(fraction, c->progress_user)) return ORR_OK;
    return orri_gltf_fail(c, ORR_ERROR_CANCELLED, "load cancelled by the progress callback at %.0f %%", 100 * fraction);
}

void orri_gltf_warn(orri_gltf_ctx *c, const char *fmt, ...) {
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    emit(c, ORR_LOG_WARNING, ORR_OK, msg);
}

bool orri_gltf_charge(orri_gltf_ctx *c, size_t bytes, const char *what) {
    if (bytes > c->max_bytes - c->used) {
        orri_gltf_fail(c, ORR_ERROR_LIMIT_REACHED, "%s: %zu more bytes exceed the decode budget of %zu bytes", what,
                       bytes, c->max_bytes);
        return false;
    }
    c->used += bytes;
    return true;
}

void *orri_gltf_alloc(orri_gltf_ctx *c, size_t count, size_t size, const char *what) {
    if (size && count > SIZE_MAX / size) {
        orri_gltf_fail(c, ORR_ERROR_LIMIT_REACHED, "%s: %zu × %zu bytes overflow", what, count, size);
        return NULL;
    }
    size_t n = count * size;
    if (!orri_gltf_charge(c, n, what)) return NULL;
    void *p = c->allocator.alloc(n ? n : 1, c->allocator.user);
    if (!p) {
        orri_gltf_fail(c, ORR_ERROR_OUT_OF_HOST_MEMORY, "%s: out of memory (%zu bytes)", what, n);
        return NULL;
    }
    memset(p, 0, n ? n : 1);
    return p;
}

void orri_gltf_free(orri_gltf_ctx *c, void *p) {
    if (p) c->allocator.free(p, c->allocator.user);
}

char *orri_gltf_strdup(orri_gltf_ctx *c, const char *s) {
    if (!s) return NULL;
    size_t n = strlen(s);
    char *d = orri_gltf_alloc(c, n + 1, 1, "name");
    if (d) memcpy(d, s, n);
    return d;
}

const cJSON *orri_json_member(const cJSON *obj, const char *key) {
    return cJSON_IsObject(obj) ? cJSON_GetObjectItemCaseSensitive(obj, key) : NULL;
}

const char *orri_json_str(const cJSON *obj, const char *key) {
    const cJSON *v = orri_json_member(obj, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

int64_t orri_json_array(orri_gltf_ctx *c, const cJSON *obj, const char *key, const char *path) {
    const cJSON *a = orri_json_member(obj, key);
    if (!a) return 0;
    if (!cJSON_IsArray(a)) {
        orri_gltf_fail(c, ORR_ERROR_MALFORMED, "%s%s%s is not an array", path, *path ? "." : "", key);
        return -1;
    }
    int n = cJSON_GetArraySize(a);
    if (n < 0 || (uint32_t)n > ORRI_GLTF_MAX_ITEMS) {
        orri_gltf_fail(c, ORR_ERROR_LIMIT_REACHED, "%s%s%s has %d items, over the limit of %u", path, *path ? "." : "",
                       key, n, ORRI_GLTF_MAX_ITEMS);
        return -1;
    }
    return n;
}

bool orri_json_int(orri_gltf_ctx *c, const cJSON *obj, const char *key, int64_t lo, int64_t hi, int64_t dflt,
                   int64_t *v, const char *path) {
    const cJSON *t = orri_json_member(obj, key);
    if (!t) {
        *v = dflt;
        return true;
    }
    double d = cJSON_IsNumber(t) ? t->valuedouble : NAN;
    if (!(d >= (double)lo && d <= (double)hi) || d != floor(d)) {
        orri_gltf_fail(c, ORR_ERROR_MALFORMED, "%s%s%s is not an integer in [%lld, %lld]", path, *path ? "." : "", key,
                       (long long)lo, (long long)hi);
        return false;
    }
    *v = (int64_t)d;
    return true;
}

bool orri_json_num(orri_gltf_ctx *c, const cJSON *obj, const char *key, double dflt, double *v, const char *path) {
    const cJSON *t = orri_json_member(obj, key);
    if (!t) {
        *v = dflt;
        return true;
    }
    if (!cJSON_IsNumber(t) || !isfinite(t->valuedouble)) {
        orri_gltf_fail(c, ORR_ERROR_MALFORMED, "%s%s%s is not a finite number", path, *path ? "." : "", key);
        return false;
    }
    *v = t->valuedouble;
    return true;
}

bool orri_json_nums(orri_gltf_ctx *c, const cJSON *obj, const char *key, uint32_t n, double *v, const char *path) {
    const cJSON *a = orri_json_member(obj, key);
    if (!a) return true;
    if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) != (int)n) {
        orri_gltf_fail(c, ORR_ERROR_MALFORMED, "%s%s%s is not an array of %u numbers", path, *path ? "." : "", key, n);
        return false;
    }
    uint32_t i = 0;
    for (const cJSON *e = a->child; e; e = e->next, i++) {
        if (!cJSON_IsNumber(e) || !isfinite(e->valuedouble)) {
            orri_gltf_fail(c, ORR_ERROR_MALFORMED, "%s%s%s[%u] is not a finite number", path, *path ? "." : "", key, i);
            return false;
        }
        v[i] = e->valuedouble;
    }
    return true;
}
