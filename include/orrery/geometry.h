/* orrery/geometry.h — CPU vertex data and Babylon.js-compatible builders.
 *
 * Usage:
 *     orr_geometry g;
 *     if (orr_geometry_build_box(&(orr_box_desc){ .size = 2 }, NULL, &g) == ORR_OK) {
 *         ... orr_mesh_create(scene, &(orr_mesh_desc){ .geometry = &g });
 *         orr_geometry_free(&g);
 *     }
 *
 * Vertex data is mesh-local float32 (bounded by the mesh's own size, so the
 * precision rule of docs/architecture.md does not apply to it). Indices are stored as
 * uint32 on the CPU; the GPU upload uses 16-bit indices when every index fits.
 * Triangles are wound as Babylon.js winds them for its default (front-side,
 * left-handed) orientation, so vertex counts, order, normals and UVs match
 * Babylon.js MeshBuilder for the same options.
 */
#ifndef ORRERY_GEOMETRY_H
#define ORRERY_GEOMETRY_H

#include <stdbool.h>
#include <stdint.h>

#include "orrery/core.h"
#include "orrery/math.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct orr_geometry {
    uint32_t vertex_count;
    uint32_t index_count;
    float *positions;        /* vertex_count × 3 */
    float *normals;          /* vertex_count × 3, or NULL */
    float *uvs;              /* vertex_count × 2, or NULL */
    float *colors;           /* vertex_count × 4 (RGBA), or NULL */
    float *tangents;         /* vertex_count × 4 (xyz + handedness sign), or NULL */
    uint32_t *indices;       /* index_count, triangle list */
    orr_allocator allocator; /* the allocator that owns the arrays */
    /* Appended streams (glTF): a second UV set, skinning and morph targets. */
    float *uvs2;      /* vertex_count × 2 (TEXCOORD_1), or NULL */
    uint16_t *joints; /* vertex_count × 4 joint indices into the mesh's skin (JOINTS_0), or NULL */
    float *weights;   /* vertex_count × 4 joint weights, summing to 1 (WEIGHTS_0), or NULL */
    /* Morph targets: morph_count displacement sets (glTF POSITION / NORMAL
     * deltas), target t's vertex v at [(t × vertex_count + v) × 3]. Positions
     * are required when morph_count > 0, normals optional. */
    uint32_t morph_count;
    float *morph_positions; /* morph_count × vertex_count × 3, or NULL */
    float *morph_normals;   /* morph_count × vertex_count × 3, or NULL */
} orr_geometry;

#define ORR_GEOMETRY_MAX_MORPH_TARGETS 8u

/* Allocate arrays for `vertex_count` vertices and `index_count` indices.
 * `with` selects optional streams (ORR_GEOMETRY_NORMALS | ...). Positions and
 * indices are always allocated. Zero-initialised. On failure nothing is kept. */
enum {
    ORR_GEOMETRY_NORMALS = 1u << 0,
    ORR_GEOMETRY_UVS = 1u << 1,
    ORR_GEOMETRY_COLORS = 1u << 2,
    ORR_GEOMETRY_TANGENTS = 1u << 3,
    ORR_GEOMETRY_UVS2 = 1u << 4,
    ORR_GEOMETRY_SKIN = 1u << 5, /* joints and weights */
};
/* Allocates morph_count target arrays (positions, and normals when
 * with_normals) on a geometry from orr_geometry_alloc; zeroed. At most
 * ORR_GEOMETRY_MAX_MORPH_TARGETS. On failure the geometry is unchanged. */
orr_result orr_geometry_alloc_morph(orr_geometry *g, uint32_t morph_count, bool with_normals);
/* A deep copy of `src` (every stream) with `allocator` (NULL: the C library). */
orr_result orr_geometry_copy(const orr_geometry *src, const orr_allocator *allocator, orr_geometry *out);
orr_result orr_geometry_alloc(uint32_t vertex_count, uint32_t index_count, uint32_t with,
                              const orr_allocator *allocator, orr_geometry *out);
/* Frees the arrays and zeroes the struct. Safe on a zeroed struct. */
void orr_geometry_free(orr_geometry *g);
/* Local axis-aligned bounds of the positions (empty box for no vertices). */
orr_dbox orr_geometry_bounds(const orr_geometry *g);
/* Checks indices < vertex_count and index_count % 3 == 0. */
orr_result orr_geometry_validate(const orr_geometry *g);

/* ---- vertex order and LOD chains (meshoptimizer; docs/decisions.md 56) ------------- */
/* Reorders triangles for the post-transform vertex cache and vertices for
 * fetch locality, in place, every stream alike (morph targets and skins
 * included). vertex_count is kept: vertices no triangle uses move to the
 * end. ORR_OPTIMIZE_KEEP_TRIANGLE_ORDER keeps the triangle order (only the
 * vertices move), for alpha-blended meshes whose draw order is their look.
 * orr_mesh_create does this to its own copy of every geometry (decision 56). */
enum { ORR_OPTIMIZE_KEEP_TRIANGLE_ORDER = 1u << 0 };
orr_result orr_geometry_optimize(orr_geometry *g, uint32_t flags);

/* A level-of-detail chain: level 0 is the source (optimised), each next level
 * is simplified from it (meshopt_simplify) to about `ratio` of the previous
 * level's triangles while its geometric error stays within `max_error`; the
 * chain stops early when the bound allows no further real reduction (each
 * level must drop at least a tenth of the triangles).
 *
 *     orr_lod_chain chain;
 *     if (orr_geometry_build_lod_chain(&geometry, &(orr_lod_chain_desc){.max_error = 0.01}, &chain) == ORR_OK) {
 *         for (uint32_t i = 0; i < chain.level_count; i++) ... chain.levels[i], chain.error[i] ...
 *         orr_lod_chain_free(&chain);
 *     }
 *
 * error[i] is level i's measured deviation from the source surface in the
 * geometry's own units (error[0] = 0): the largest distance from the
 * source's triangle corners and centroids to the level's surface and from
 * the level's to the source's. A level is kept only when it is within the
 * bound (decision 56); .sloppy_tail lets the last levels go on by vertex
 * clustering under the same bound (decision 64). orr_lod_select turns errors
 * into a level per distance. */
#define ORR_LOD_MAX_LEVELS 8u
typedef struct orr_lod_chain_desc {
    uint32_t levels;  /* levels including the source, 1 .. 8; 0: 8 */
    double ratio;     /* triangle ratio between consecutive levels, (0, 1); 0: 0.5 */
    double max_error; /* error bound of every level, as a fraction of the mesh's largest extent, (0, 1]; 0: 0.02 */
    /* When meshoptimizer's topology-preserving simplification stalls (saves
     * less than a tenth, or cannot meet the bound), continue the chain with
     * meshopt_simplifySloppy (vertex clustering: topology and seams are not
     * kept, holes may open). Its levels are measured and bounded like the
     * others (decision 64). Off: the chain ends where simplification stalls. */
    bool sloppy_tail;
    const orr_allocator *allocator; /* of the levels' arrays; NULL: the C library */
} orr_lod_chain_desc;
typedef struct orr_lod_chain {
    uint32_t level_count;
    orr_geometry levels[ORR_LOD_MAX_LEVELS];
    double error[ORR_LOD_MAX_LEVELS];       /* absolute, in the geometry's units */
    uint32_t triangles[ORR_LOD_MAX_LEVELS]; /* per level */
    double scale;                           /* the mesh's largest extent (what max_error is a fraction of) */
} orr_lod_chain;
/* On failure *out is zeroed and holds nothing. */
orr_result orr_geometry_build_lod_chain(const orr_geometry *geometry, const orr_lod_chain_desc *desc,
                                        orr_lod_chain *out);
/* Frees every level and zeroes the chain. Safe on a zeroed chain. */
void orr_lod_chain_free(orr_lod_chain *chain);
/* The coarsest level whose projected error errors[i] · pixels_per_radian /
 * distance is at most max_pixel_error pixels (0 when none, or distance <= 0).
 * The GPU selects with the same rule (decision 56); this is its reference. */
uint32_t orr_lod_select(const double *errors, uint32_t count, double distance, double pixels_per_radian,
                        double max_pixel_error);
/* Pixels per radian at the centre of a perspective view: height / (2 tan(fov_y / 2)). */
double orr_lod_pixels_per_radian(double fov_y, uint32_t viewport_height);

/* Babylon.js MeshBuilder.CreateBox: 24 vertices, 36 indices, per-face normals.
 * size (default 1) is overridden per axis by width/height/depth when > 0. */
typedef struct orr_box_desc {
    double size, width, height, depth;
} orr_box_desc;
/* MeshBuilder.CreateSphere: segments (default 32), diameter (default 1),
 * diameter_x/y/z override per axis when > 0. */
typedef struct orr_sphere_desc {
    int segments;
    double diameter, diameter_x, diameter_y, diameter_z;
} orr_sphere_desc;
/* MeshBuilder.CreateGround: XZ plane, normal +Y; width/height default 1,
 * subdivisions default 1 (subdivisions_x / _y override when > 0). */
typedef struct orr_ground_desc {
    double width, height;
    int subdivisions, subdivisions_x, subdivisions_y;
} orr_ground_desc;
/* MeshBuilder.CreatePlane: XY plane facing −Z; size default 1, width/height override. */
typedef struct orr_plane_desc {
    double size, width, height;
} orr_plane_desc;
/* MeshBuilder.CreateCylinder: height 2, diameter_top/bottom 1 (diameter sets
 * both when > 0), tessellation 24, subdivisions 1, caps on (.caps = ORR_OFF
 * for an open tube). */
typedef struct orr_cylinder_desc {
    double height, diameter, diameter_top, diameter_bottom;
    int tessellation, subdivisions;
    orr_opt_bool caps;
} orr_cylinder_desc;
/* MeshBuilder.CreateTorus: diameter 1, thickness 0.5, tessellation 16. */
typedef struct orr_torus_desc {
    double diameter, thickness;
    int tessellation;
} orr_torus_desc;

/* Each builder: `desc` may be NULL (all defaults), `allocator` may be NULL.
 * Returns ORR_ERROR_INVALID_ARGUMENT for impossible options (negative sizes,
 * segments < 1, more than 2^24 vertices) and leaves *out zeroed. */
orr_result orr_geometry_build_box(const orr_box_desc *desc, const orr_allocator *allocator, orr_geometry *out);
orr_result orr_geometry_build_sphere(const orr_sphere_desc *desc, const orr_allocator *allocator, orr_geometry *out);
orr_result orr_geometry_build_ground(const orr_ground_desc *desc, const orr_allocator *allocator, orr_geometry *out);
orr_result orr_geometry_build_plane(const orr_plane_desc *desc, const orr_allocator *allocator, orr_geometry *out);
orr_result orr_geometry_build_cylinder(const orr_cylinder_desc *desc, const orr_allocator *allocator,
                                       orr_geometry *out);
orr_result orr_geometry_build_torus(const orr_torus_desc *desc, const orr_allocator *allocator, orr_geometry *out);

#ifdef __cplusplus
}
#endif
#endif
