/* gltf_int.h — cross-file internals of the glTF 2.0 loader.
 *
 * Two layers:
 * - parse_*.c: bytes → a CPU document (orri_gltf_doc). No GPU, no scene:
 *   JSON (cJSON), GLB, buffers (GLB BIN, data: URIs, files beside the model),
 *   accessors, meshes decoded into orr_geometry, images decoded by the image
 *   module, materials, samplers, cameras, lights, skins and animations. This
 *   is what fuzz/fuzz_gltf.c drives.
 * - scene_*.c: the document → scene objects (orrery/gltf.h).
 *
 * Why cJSON and not Debian's libtinygltf-dev: tinygltf is a C++ header
 * library and Orrery is C11 (the library links no C++ runtime for its own
 * code); cJSON is already a dependency (the .env manifest). cJSON allocates
 * its parse tree with malloc (its hooks are process-wide), the one allocation
 * that does not go through the desc's allocator (as for .env, decisions 25);
 * the tree is freed before orri_gltf_parse returns.
 *
 * Every error names the file (label), the JSON path (`meshes[0].primitives[1]
 * .attributes.POSITION`) and, where relevant, the byte offset. */
#ifndef ORRI_GLTF_INT_H
#define ORRI_GLTF_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "orrery/core.h"
#include "orrery/geometry.h"
#include "orrery/handedness.h"
#include "orrery/image.h"
#include "orrery/texture.h"

struct cJSON;

/* Limits, checked before anything is allocated from a count. */
#define ORRI_GLTF_MAX_ITEMS 65536u        /* nodes, meshes, accessors ... per array */
#define ORRI_GLTF_MAX_ELEMENTS (1u << 24) /* elements of one accessor (vertices, keys) */
#define ORRI_GLTF_MAX_DEPTH 256u          /* node hierarchy depth */
#define ORRI_GLTF_DEFAULT_MAX_BYTES ((size_t)1 << 30)

typedef struct orri_gltf_ctx {
    orr_allocator allocator; /* resolved */
    orr_logger logger;       /* may be zero */
    char *error;
    size_t error_size;
    const char *label;        /* the file, in messages */
    const char *base_dir;     /* folder of external URIs; NULL: external URIs refused */
    size_t max_bytes;         /* budget of all decoded data (buffers, vertices, images) */
    size_t used;              /* bytes charged so far */
    bool skip_images;         /* do not decode images (tests of the parse layer) */
    struct orri_ctx *log;     /* scene loads: warnings go to the engine's logger; NULL: stderr or the desc's logger */
    orr_progress_fn progress; /* scene loads: desc.progress (NULL: none) */
    void *progress_user;
    double progress_last; /* the last fraction reported; < 0 before the first */
} orri_gltf_ctx;

typedef struct orri_gltf_buffer {
    uint8_t *data; /* owned (GLB BIN chunks are copied) */
    size_t size;
} orri_gltf_buffer;

typedef struct orri_gltf_view {
    uint32_t buffer;
    size_t offset, length;
    uint32_t stride; /* 0: tightly packed */
} orri_gltf_view;

typedef struct orri_gltf_accessor {
    int32_t view; /* -1: zeros (or sparse only) */
    size_t offset;
    uint32_t component; /* 5120 .. 5126 */
    uint32_t comps;     /* 1, 2, 3, 4, 4 (MAT2), 9, 16 */
    bool is_mat;
    uint32_t count;
    bool normalized;
    /* sparse */
    uint32_t sparse_count;
    int32_t sparse_index_view, sparse_value_view;
    size_t sparse_index_offset, sparse_value_offset;
    uint32_t sparse_index_component;
} orri_gltf_accessor;

typedef struct orri_gltf_texref {
    int32_t texture; /* -1: none */
    uint32_t uv_set;
    double offset[2], rotation, scale[2]; /* KHR_texture_transform */
    double scalar;                        /* normalTexture.scale / occlusionTexture.strength; default 1 */
} orri_gltf_texref;

typedef enum orri_gltf_alpha { ORRI_GLTF_OPAQUE, ORRI_GLTF_MASK, ORRI_GLTF_BLEND } orri_gltf_alpha;

typedef struct orri_gltf_material {
    char *name;
    double base_color[4];
    orri_gltf_texref base_tex;
    double metallic, roughness;
    orri_gltf_texref mr_tex, normal_tex, occlusion_tex, emissive_tex;
    double emissive[3];
    double emissive_strength;
    orri_gltf_alpha alpha_mode;
    double alpha_cutoff;
    bool double_sided, unlit;
} orri_gltf_material;

typedef struct orri_gltf_texture {
    int32_t image;   /* -1: none (an unsupported image format) */
    int32_t sampler; /* -1: default */
} orri_gltf_texture;

typedef struct orri_gltf_sampler {
    orr_sampler_desc desc;
    bool mips; /* minFilter uses mips (or is unset) */
} orri_gltf_sampler;

typedef struct orri_gltf_image {
    char *name;
    orr_image_data image; /* zeroed when not decoded */
} orri_gltf_image;

typedef struct orri_gltf_prim {
    orr_geometry geometry; /* empty (vertex_count 0) for skipped points/lines */
    int32_t material;      /* -1: the default material */
} orri_gltf_prim;

typedef struct orri_gltf_mesh {
    char *name;
    orri_gltf_prim *prims;
    uint32_t prim_count;
    float *weights; /* default morph weights */
    uint32_t weight_count;
} orri_gltf_mesh;

typedef struct orri_gltf_node {
    char *name;
    int32_t mesh, camera, skin, light, parent;
    uint32_t *children;
    uint32_t child_count;
    double translation[3], rotation[4], scale[3]; /* from the matrix when it has one */
    bool has_matrix;
    float *weights; /* morph weight override */
    uint32_t weight_count;
    /* EXT_mesh_gpu_instancing: count column-major float matrices (glTF space) */
    float *instances;
    uint32_t instance_count;
} orri_gltf_node;

typedef enum orri_gltf_camera_type { ORRI_GLTF_PERSPECTIVE, ORRI_GLTF_ORTHOGRAPHIC } orri_gltf_camera_type;
typedef struct orri_gltf_camera {
    char *name;
    orri_gltf_camera_type type;
    double yfov, aspect, znear, zfar; /* zfar 0: infinite */
    double xmag, ymag;
} orri_gltf_camera;

typedef enum orri_gltf_light_type { ORRI_GLTF_DIRECTIONAL, ORRI_GLTF_POINT, ORRI_GLTF_SPOT } orri_gltf_light_type;
typedef struct orri_gltf_light {
    char *name;
    orri_gltf_light_type type;
    double color[3], intensity, range; /* range 0: infinite */
    double inner_cone, outer_cone;
} orri_gltf_light;

typedef struct orri_gltf_skin {
    char *name;
    uint32_t *joints;
    uint32_t joint_count;
    float *inverse_bind; /* joint_count × 16, column-major; identity when absent */
    int32_t skeleton;
} orri_gltf_skin;

typedef enum orri_gltf_path { ORRI_GLTF_T, ORRI_GLTF_R, ORRI_GLTF_S, ORRI_GLTF_W } orri_gltf_path;
typedef enum orri_gltf_interp { ORRI_GLTF_LINEAR, ORRI_GLTF_STEP, ORRI_GLTF_CUBIC } orri_gltf_interp;
typedef struct orri_gltf_channel {
    uint32_t node;
    orri_gltf_path path;
    orri_gltf_interp interpolation;
    uint32_t key_count;
    float *times;   /* key_count, non-decreasing */
    float *values;  /* key_count × (3 for CUBIC) × comps */
    uint32_t comps; /* 3, 4, 3 or the target's weight count */
} orri_gltf_channel;
typedef struct orri_gltf_animation {
    char *name;
    orri_gltf_channel *channels;
    uint32_t channel_count;
} orri_gltf_animation;

/* The decoded document. Owns every array (c->allocator). */
typedef struct orri_gltf_doc {
    orri_gltf_buffer *buffers;
    orri_gltf_view *views;
    orri_gltf_accessor *accessors;
    orri_gltf_image *images;
    orri_gltf_sampler *samplers;
    orri_gltf_texture *textures;
    orri_gltf_material *materials;
    orri_gltf_mesh *meshes;
    orri_gltf_node *nodes;
    orri_gltf_camera *cameras;
    orri_gltf_light *lights;
    orri_gltf_skin *skins;
    orri_gltf_animation *animations;
    uint32_t buffer_count, view_count, accessor_count, image_count, sampler_count, texture_count, material_count,
        mesh_count, node_count, camera_count, light_count, skin_count, animation_count;
    uint32_t *scene_roots; /* the default scene's root nodes */
    uint32_t scene_root_count;
    const uint8_t *glb_bin; /* during parsing only */
    size_t glb_bin_size;
} orri_gltf_doc;

/* ---- parse_ctx.c: errors, memory, JSON helpers ---- */
orr_result orri_gltf_fail(orri_gltf_ctx *c, orr_result r, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Reports `fraction` of a scene load to the progress callback when it is
 * more than the last one reported (so the calls increase strictly; 1 is the
 * last, its result ignored). The callback returning false fails the load
 * with ORR_ERROR_CANCELLED (the caller's failure path then frees what was
 * made). No callback: ORR_OK. */
orr_result orri_gltf_progress(orri_gltf_ctx *c, double fraction);
void orri_gltf_warn(orri_gltf_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Zeroed memory charged to the budget; NULL (with a message naming `what`) when over it or out of memory. */
void *orri_gltf_alloc(orri_gltf_ctx *c, size_t count, size_t size, const char *what);
void orri_gltf_free(orri_gltf_ctx *c, void *p);
bool orri_gltf_charge(orri_gltf_ctx *c, size_t bytes, const char *what); /* false: message written */
char *orri_gltf_strdup(orri_gltf_ctx *c, const char *s);
const struct cJSON *orri_json_member(const struct cJSON *obj, const char *key);
/* An array member's length (0 when absent); -1 (message written) when not an array or too long. */
int64_t orri_json_array(orri_gltf_ctx *c, const struct cJSON *obj, const char *key, const char *path);
/* Optional integer index/count: *v = dflt when absent; false (message) when not an integer in [lo, hi]. */
bool orri_json_int(orri_gltf_ctx *c, const struct cJSON *obj, const char *key, int64_t lo, int64_t hi, int64_t dflt,
                   int64_t *v, const char *path);
bool orri_json_num(orri_gltf_ctx *c, const struct cJSON *obj, const char *key, double dflt, double *v,
                   const char *path);
/* An array of exactly n numbers (absent: keeps *v). */
bool orri_json_nums(orri_gltf_ctx *c, const struct cJSON *obj, const char *key, uint32_t n, double *v,
                    const char *path);
const char *orri_json_str(const struct cJSON *obj, const char *key); /* NULL when absent or not a string */

/* Parses the array member `key` of `root` into doc->field (count items):
 * `fn` is evaluated per item with j_ (the JSON item) and i_ (its index). */
#define PARSE_ARRAY(key, field, count, fn)                                                                           \
    do {                                                                                                             \
        int64_t n_ = orri_json_array(c, root, key, "");                                                              \
        if (n_ < 0) return orr_last_result();                                                                        \
        if (n_ && !(doc->field = orri_gltf_alloc(c, (size_t)n_, sizeof *doc->field, key))) return orr_last_result(); \
        doc->count = (uint32_t)n_;                                                                                   \
        uint32_t i_ = 0;                                                                                             \
        for (const cJSON *j_ = n_ ? orri_json_member(root, key)->child : NULL; j_; j_ = j_->next, i_++) {            \
            orr_result r_ = fn;                                                                                      \
            if (r_ != ORR_OK) return r_;                                                                             \
        }                                                                                                            \
    } while (0)

/* ---- parse_doc.c ---- */
/* Parses .gltf or .glb bytes; on failure the document is freed and zeroed. */
orr_result orri_gltf_parse(orri_gltf_ctx *c, const uint8_t *data, size_t size, orri_gltf_doc *doc);
void orri_gltf_doc_free(orri_gltf_ctx *c, orri_gltf_doc *doc);
/* Resolves desc-like options into a context (allocator NULL: the C library). */
void orri_gltf_ctx_init(orri_gltf_ctx *c, const orr_allocator *a, const orr_logger *l, char *error, size_t error_size,
                        const char *label, const char *base_dir, size_t max_bytes);

/* ---- parse_glb.c ---- */
/* Splits a GLB into its JSON and optional BIN chunk (pointers into data). */
orr_result orri_gltf_glb(orri_gltf_ctx *c, const uint8_t *data, size_t size, const uint8_t **json, size_t *json_size,
                         const uint8_t **bin, size_t *bin_size);
bool orri_gltf_is_glb(const uint8_t *data, size_t size);

/* ---- parse_buffer.c: buffers, views, URIs ---- */
orr_result orri_gltf_parse_buffers(orri_gltf_ctx *c, const struct cJSON *root, orri_gltf_doc *doc);
orr_result orri_gltf_parse_views(orri_gltf_ctx *c, const struct cJSON *root, orri_gltf_doc *doc);
/* data: URI or a file beside the model: bytes in c->allocator memory (charged). */
orr_result orri_gltf_load_uri(orri_gltf_ctx *c, const char *uri, const char *path, uint8_t **data, size_t *size);
/* Base64 (RFC 4648, padding optional, no whitespace); false when malformed. */
bool orri_base64_decode(const char *s, size_t n, uint8_t *out, size_t *out_size);

/* ---- parse_accessor.c ---- */
orr_result orri_gltf_parse_accessors(orri_gltf_ctx *c, const struct cJSON *root, orri_gltf_doc *doc);
/* Reads accessor `index` as floats (normalized integers by the spec's
 * formulas, other integers as their value): count × comps into *out
 * (allocated). `types` is a mask of allowed comps (1 << comps), `path` names
 * the reference. */
orr_result orri_gltf_read_floats(orri_gltf_ctx *c, const orri_gltf_doc *doc, int64_t index, uint32_t comps_mask,
                                 const char *path, float **out, uint32_t *count, uint32_t *comps);
/* Reads an unsigned-integer SCALAR / VEC4 accessor (indices, joints). */
orr_result orri_gltf_read_uints(orri_gltf_ctx *c, const orri_gltf_doc *doc, int64_t index, uint32_t comps_mask,
                                const char *path, uint32_t **out, uint32_t *count, uint32_t *comps);

/* ---- parse_mesh.c, parse_prim.c, parse_tangent.c ---- */
orr_result orri_gltf_parse_meshes(orri_gltf_ctx *c, const struct cJSON *root, orri_gltf_doc *doc);
orr_result orri_gltf_parse_prim(orri_gltf_ctx *c, const orri_gltf_doc *doc, const struct cJSON *p, const char *path,
                                orri_gltf_prim *out);
/* Unwelds (one vertex per index, every stream) and computes flat normals. */
orr_result orri_gltf_flat_normals(orri_gltf_ctx *c, orr_geometry *g);
/* Per-vertex tangents from UV derivatives (not full MikkTSpace, see the file). */
orr_result orri_gltf_tangents(orri_gltf_ctx *c, orr_geometry *g, bool uv1);

orr_result orri_gltf_read_weights(orri_gltf_ctx *c, const struct cJSON *obj, const char *path, float **out,
                                  uint32_t *count);

/* ---- parse_node.c ---- */
orr_result orri_gltf_parse_nodes(orri_gltf_ctx *c, const struct cJSON *root, orri_gltf_doc *doc);
void orri_gltf_decompose(const double m[16], double t[3], double r[4], double s[3]);

/* ---- parse_material.c ---- */
orr_result orri_gltf_parse_materials(orri_gltf_ctx *c, const struct cJSON *root, orri_gltf_doc *doc);
orr_result orri_gltf_parse_textures(orri_gltf_ctx *c, const struct cJSON *root, orri_gltf_doc *doc);

/* ---- parse_extra.c: cameras, lights, images ---- */
orr_result orri_gltf_parse_cameras(orri_gltf_ctx *c, const struct cJSON *root, orri_gltf_doc *doc);
orr_result orri_gltf_parse_lights(orri_gltf_ctx *c, const struct cJSON *root, orri_gltf_doc *doc);
orr_result orri_gltf_parse_images(orri_gltf_ctx *c, const struct cJSON *root, orri_gltf_doc *doc);

/* ---- parse_anim.c: skins and animations ---- */
orr_result orri_gltf_parse_skins(orri_gltf_ctx *c, const struct cJSON *root, orri_gltf_doc *doc);
orr_result orri_gltf_parse_animations(orri_gltf_ctx *c, const struct cJSON *root, orri_gltf_doc *doc);

#endif
