/* material_int.h — the material records (one owner: this module creates,
 * looks up and releases them; they are pooled in the scene's `materials`
 * pool), and run-time GLSL compilation (shader_compile.c, the only file that
 * references libshaderc). */
#ifndef ORRI_MATERIAL_INT_H
#define ORRI_MATERIAL_INT_H

#include "orrery/pbr.h"
#include "scene/scene_int.h"

typedef enum orri_material_kind {
    ORRI_MATERIAL_STANDARD = 1,
    ORRI_MATERIAL_SHADER,
    ORRI_MATERIAL_PBR
} orri_material_kind;

typedef struct orri_uniform_slot {
    char name[64];
    orr_uniform_type type;
    uint32_t offset; /* std140 byte offset in the user block */
    uint32_t count;  /* floats */
    double value[16];
} orri_uniform_slot;

typedef struct orri_shader_material {
    uint32_t *vert_spv, *frag_spv; /* owned SPIR-V */
    uint32_t *inst_vert_spv;       /* thin-instance variant, or NULL */
    size_t inst_vert_size;
    /* ShadowDepthWrapper (desc.shadow_depth_wrapper): the vertex stage for
     * shadow maps, plain and thin-instanced (src/shadow), or NULL. */
    uint32_t *depth_vert_spv, *depth_inst_vert_spv;
    size_t depth_vert_size, depth_inst_vert_size;
    bool ignore_instance_colors;
    bool shadow_receiver;        /* desc.shadow_receiver: the scene set at set 2, orrShadow() */
    size_t vert_size, frag_size; /* bytes */
    orri_uniform_slot uniforms[ORR_SHADER_MAX_UNIFORMS];
    uint32_t uniform_count;
    uint32_t user_block_size; /* bytes, std140, 0 = no block */
    char texture_names[ORR_SHADER_MAX_TEXTURES][64];
    orr_texture textures[ORR_SHADER_MAX_TEXTURES];
    uint32_t texture_count;
    bool back_face_culling, alpha_blend;
} orri_shader_material;

typedef struct orri_material {
    orri_material_kind kind;
    char label[64];
    uint64_t version;           /* parameter changes (data) */
    uint64_t structure_version; /* pipeline-affecting changes */
    orr_standard_material_desc standard;
    orr_pbr_material_desc pbr; /* ORRI_MATERIAL_PBR: resolved (pbr.c), label NULL */
    orri_shader_material *shader;
} orri_material;

/* material.c */
/* Lookup with misuse reporting (see orri_node_get). */
orri_material *orri_material_get(const orr_scene *s, uint32_t id, const char *what);
/* A new record of `kind` in the scene's pool (zeroed but for kind, label and
 * versions); 0 when the pool is full (LIMIT_REACHED) or cannot grow. The
 * record owns `shader`, also on failure (then freed). */
uint32_t orri_material_alloc(orr_scene *s, orri_material_kind kind, const char *label, orri_shader_material *shader);
/* Frees a shader material's SPIR-V and itself (NULL is ignored). */
void orri_shader_material_free(orr_scene *s, orri_shader_material *sm);
/* The scene's default standard material, created on first use. */
uint32_t orri_scene_default_material(orr_scene *s);
/* The material a mesh draws with: its own, or the scene default (may create
 * it: take material pointers again afterwards); its id in *id. Inline: the
 * structure key asks it for every visible mesh every frame. */
static inline orri_material *orri_material_of(orr_scene *s, const orri_node *mesh, uint32_t *id) {
    uint32_t mid = mesh->u.mesh.material;
    orri_material *m = (orri_material *)orri_pool_get(&s->materials, mid);
    if (!m) mid = orri_scene_default_material(s), m = (orri_material *)orri_pool_get(&s->materials, mid);
    if (id) *id = mid;
    return m;
}

typedef enum orri_stage { ORRI_STAGE_VERTEX, ORRI_STAGE_FRAGMENT } orri_stage;

/* Compiles `preamble` + `source` (GLSL 450; errors report the user's line
 * numbers). On success *spv is allocated with the context's allocator. On
 * failure returns ORR_ERROR_SHADER_COMPILE and the message is the context's
 * last error. */
orr_result orri_glsl_compile(orri_ctx *ctx, orri_stage stage, const char *preamble, const char *source,
                             const char *name, uint32_t **spv, size_t *size);

#endif
