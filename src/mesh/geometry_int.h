/* geometry_int.h — cross-file internals of the CPU geometry builders.
 *
 * Builders size their output with orri_geometry_begin (which enforces the
 * 2^24-vertex limit and zeroes *out on failure), then fill every element. */
#ifndef ORRI_GEOMETRY_INT_H
#define ORRI_GEOMETRY_INT_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/core_int.h"
#include "orrery/geometry.h"

#define ORRI_GEOMETRY_MAX_VERTICES (1u << 24)
#define ORRI_PI 3.14159265358979323846

/* Allocates positions, normals, uvs and indices for a builder. Counts are
 * 64-bit so callers can pass products of user options without overflow
 * checks of their own. */
orr_result orri_geometry_begin(uint64_t vertex_count, uint64_t index_count, const orr_allocator *allocator,
                               orr_geometry *out);

/* A size option: 0 means "default", so it must be finite and >= 0 (NaN fails). */
static inline bool orri_size_ok(double v) { return isfinite(v) && v >= 0; }
/* Babylon's `a || b || c` for sizes: the first one > 0, else `fallback`. */
static inline double orri_pick(double a, double b, double fallback) { return a > 0 ? a : b > 0 ? b : fallback; }
static inline int orri_pick_int(int a, int b, int fallback) { return a > 0 ? a : b > 0 ? b : fallback; }

static inline void orri_set3(float *dst, uint32_t i, double x, double y, double z) {
    dst[3 * i + 0] = (float)x;
    dst[3 * i + 1] = (float)y;
    dst[3 * i + 2] = (float)z;
}
static inline void orri_set2(float *dst, uint32_t i, double u, double v) {
    dst[2 * i + 0] = (float)u;
    dst[2 * i + 1] = (float)v;
}

#endif
