/* thin_int.h — the CPU thin-instance model as the renderer sees it
 * (src/scene/thin_instances.c; public API in orrery/instances.h).
 *
 * Why a second private header in the scene module: scene_int.h is the node
 * pool's interface and is edited by every scene change; the thin-instance
 * state is a separate contract between thin_instances.c and the renderer's
 * upload code, and keeping it here keeps scene_int.h to one forward
 * declaration (struct orri_mesh.thin). It depends only on scene_int.h.
 *
 * Renderer contract (DESIGN.md §4, seeds/003 "GPU Buffer Sync"):
 * - Per stream (ORRI_THIN_MATRICES, ORRI_THIN_COLORS), keep the last uploaded
 *   version. When it differs from the stream's version, walk the dirty ranges
 *   (orri_thin_dirty_next), upload each range [begin, end) × stride bytes at
 *   offset begin × stride into the SAME buffer, then orri_thin_dirty_clear and
 *   remember the version. A version change with no ranges (a removal of the
 *   last instance, say) uploads nothing. Ranges lie within the capacity and
 *   may extend past the active count (slots written for a later
 *   set_draw_count): upload them as given.
 * - capacity_version changes (orri_thin_consume_capacity_changed is the
 *   single-consumer flag form) when the CPU arrays grow or the colour stream
 *   appears: the GPU buffers are replaced (capacity × stride) and the
 *   visibility epoch bumped. Every such change also marks the whole capacity
 *   [0, capacity) dirty in the affected streams, so the new buffer is filled
 *   completely (parked zero matrices, white colours) by the normal walk and a
 *   later set_draw_count never exposes uninitialised GPU memory. Growth is
 *   by doubling, so this costs at most twice the final buffer, once.
 * - draw_version changes whenever the active count changes (any path,
 *   including set_draw_count, which bumps no data version): indirect
 *   arguments / shadow caches compare it.
 * - Set `registered` when the mesh's first renderable is built; the setup
 *   switches (gpu_culling, dynamic_draw_count) are frozen from then on.
 * - Creating thin state or a colour stream bumps the mesh's structural
 *   version (orri_mesh.version): the pipeline's vertex layout changes.
 * - render_state / render_state_release: a slot for the renderer's per-mesh
 *   GPU objects; released (callback) before the thin state is freed, on mesh
 *   destruction or scene destruction.
 */
#ifndef ORRI_THIN_INT_H
#define ORRI_THIN_INT_H

#include "scene/scene_int.h"

enum { ORRI_THIN_MATRICES = 0, ORRI_THIN_COLORS = 1, ORRI_THIN_STREAMS = 2 };
#define ORRI_THIN_MATRIX_FLOATS 16u /* 64 bytes per instance */
#define ORRI_THIN_COLOR_FLOATS 4u   /* 16 bytes per instance */
#define ORRI_THIN_INITIAL_CAPACITY 16u

/* Dirty tracking: up to ORRI_THIN_DIRTY_RANGES exact disjoint ranges (no
 * allocation; covers the common "a few instances moved" case). A ninth range
 * switches the stream to a per-instance bitmap (capacity bits, allocated on
 * demand), so any scattered pattern uploads exactly the changed instances;
 * when that allocation fails the ranges merge across their smallest gaps
 * instead (conservative: more bytes, never fewer). Marking the whole active
 * range returns to range mode. */
#define ORRI_THIN_DIRTY_RANGES 8u
/* Runs are reported exactly (no merging across clean gaps): the bytes
 * uploaded are the changed rows (issue 15; many runs go through the compute
 * scatter, where a wasted row costs as much as a changed one). */

typedef struct orri_thin_range {
    uint32_t begin, end; /* instances [begin, end) */
} orri_thin_range;

typedef struct orri_thin_dirty {
    orri_thin_range ranges[ORRI_THIN_DIRTY_RANGES + 1]; /* sorted, disjoint, non-adjacent; +1 spare */
    uint32_t range_count;
    uint64_t *bits;     /* bitmap mode when non-NULL and `bitmap` */
    uint32_t bit_words; /* allocated words of `bits` */
    bool bitmap;
    uint32_t lo, hi; /* union [lo, hi) of everything marked; lo == hi: clean */
    /* Bitmap mode: while list_ok, every marked row is in list[0, list_len),
     * once each, in marking order, so an upload of scattered rows reads the
     * list instead of scanning the whole bitmap. The list stops (list_ok
     * false) past capacity / ORRI_THIN_LIST_DIVISOR rows or at a marked range
     * of more than one row; the bitmap is exact either way. */
    uint32_t *list;
    uint32_t list_len, list_cap;
    bool list_ok;
} orri_thin_dirty;
#define ORRI_THIN_LIST_DIVISOR 16u

/* LOD partners of one source: levels 1 .. ORR_LOD_MAX_LEVELS − 1. */
#define ORRI_LOD_PARTNERS 7u

typedef struct orri_thin_instances {
    float *matrices;      /* capacity × 16, column-major, local to the mesh; 64-byte aligned rows */
    void *matrices_block; /* what orri_alloc_lines returned, to free (decision 66) */
    float *colors;        /* capacity × 4 RGBA, NULL until a colour is set */
    uint32_t count;       /* active instances */
    uint32_t capacity;
    uint64_t version;          /* matrix data */
    uint64_t color_version;    /* colour data */
    uint64_t draw_version;     /* active count */
    uint64_t capacity_version; /* CPU arrays grew / colour stream appeared */
    bool capacity_changed;     /* flag form of capacity_version (one consumer) */
    orri_thin_dirty dirty[ORRI_THIN_STREAMS];
    /* setup switches */
    bool registered; /* set by the renderer at the first registration */
    bool gpu_culling;
    bool occlusion_culling; /* two-phase occlusion culling (implies gpu_culling) */
    bool dynamic_draw_count;
    bool world_bounds;
    /* Levels of detail (node ids): a distance LOD pair (seeds/003 "Distance
     * LOD Pairing", one partner) or a chain of up to 8 levels chosen by
     * projected error (decision 62; levels 1.. are partner meshes). */
    uint32_t lod_levels[ORRI_LOD_PARTNERS];   /* on the source: the partner of level k + 1 */
    uint32_t lod_level_count;                 /* partners (0: no LOD) */
    uint32_t lod_source;                      /* on a partner: its source mesh */
    uint32_t lod_segment;                     /* on a partner: its level − 1 (far-bucket segment) */
    double lod_distance, lod_band;            /* pair: switch distance, absolute dither band */
    bool lod_chain;                           /* chain: partners owned (created by orr_instances_set_lod_chain) */
    double lod_errors[ORRI_LOD_PARTNERS + 1]; /* chain: each level's error, in the mesh's units */
    double lod_max_pixel_error, lod_band_rel; /* chain: threshold (pixels), relative dither band */
    uint64_t lod_version;                     /* pairing changes (structural) */
    /* planetary instances: float64 positions (capacity × 3) in the mesh's
     * frame, added to each matrix's translation; uploaded as double-single
     * pairs and made eye-relative by the culling pass. NULL when unused. */
    double *positions;
    uint64_t position_version;
    /* bounds caches: valid while the versions they were computed from hold
     * (all keys are non-zero once computed) */
    struct {
        uint64_t version, draw_version, node_version;
        orr_dbox box;
    } local_cache, world_cache;
    /* renderer slot */
    void *render_state;
    void (*render_state_release)(orr_scene *scene, struct orri_thin_instances *thin);
} orri_thin_instances;

/* The thin state of mesh node `n` (NULL if none). No misuse reporting. */
static inline orri_thin_instances *orri_thin_of(orri_node *n) {
    return n && n->kind == ORRI_NODE_MESH ? n->u.mesh.thin : NULL;
}
/* Frees the thin state of a mesh node (called by orri_mesh_release). */
void orri_thin_release(orr_scene *s, orri_node *n);

/* Dirty ranges of `stream` (within [0, capacity)), in increasing order:
 * start with *cursor = 0; returns false when there are no more. */
bool orri_thin_dirty_next(const orri_thin_instances *t, int stream, uint32_t *cursor, orri_thin_range *out);
/* Marked rows of `stream` (within the capacity) and, through *runs (may be
 * NULL), how many maximal runs they form: one pass over the bitmap words of
 * [lo, hi) with popcounts, or over the range list. */
uint64_t orri_thin_dirty_count(const orri_thin_instances *t, int stream, uint32_t *runs);
/* Writes the marked row indices of `stream` in increasing order to `out`
 * (room for orri_thin_dirty_count rows) and returns how many. */
uint32_t orri_thin_dirty_rows(const orri_thin_instances *t, int stream, uint32_t *out);
/* Bytes the walk above would upload (stride × instances). */
uint64_t orri_thin_dirty_bytes(const orri_thin_instances *t, int stream);
/* Forget the marks of `stream` (after uploading them). */
void orri_thin_dirty_clear(orri_thin_instances *t, int stream);
/* Bitmap mode with every marked row listed: the rows, each once, in marking
 * order (*count of them); NULL otherwise (scan with the calls above). */
const uint32_t *orri_thin_dirty_list(const orri_thin_instances *t, int stream, uint32_t *count);
/* Convenience: fill up to `max` (> 0) ranges (the tail merged into the last
 * one when there are more), clear, and return how many were written. With
 * max 0 it does nothing. */
uint32_t orri_thin_consume_dirty(orri_thin_instances *t, int stream, orri_thin_range *out, uint32_t max);
/* Returns and clears the capacity-changed flag. */
bool orri_thin_consume_capacity_changed(orri_thin_instances *t);
/* Upper 3×3 all (effectively) zero: a parked instance, skipped by bounds. */
bool orri_thin_is_parked(const float *matrix16);
/* Cached local / world boxes of the active, non-parked instances. */
orr_dbox orri_thin_local_box(orr_scene *s, orri_node *n);
orr_dbox orri_thin_world_box(orr_scene *s, orri_node *n);

#endif
