/* texture_int.h — the texture module: the engine's texture store, the one
 * creation path and its steps (orrery/texture.h).
 *
 * Files: texture.c (store, pool entries, limits, descriptor sets, deferred
 * destroy), create.c (desc defaults, orr_texture_create, the one creation
 * path), check.c (what an image must satisfy before any Vulkan call),
 * upload.c (staging copies and mip chains), equirect.c (panorama → cube
 * compute pass), load.c (files through the image module), query.c (info and
 * texel readback).
 *
 * Dependencies: core, gpu, image, math. The module does not see the engine
 * struct: orri_engine_textures (defined by the engine, src/render/engine.c) is
 * its one way from an orr_engine to the store.
 */
#ifndef ORRI_TEXTURE_INT_H
#define ORRI_TEXTURE_INT_H

#include "gpu/gpu_int.h"
#include "orrery/texture.h"

typedef struct orri_texture {
    orri_image image;
    VkSampler sampler;   /* shared (gpu sampler cache): never destroyed with the texture */
    VkDescriptorSet set; /* 2D: the standard material's set 1; cubes: VK_NULL_HANDLE */
    bool has_alpha;
    bool internal; /* an engine fallback or a temporary: not counted against ORR_MAX_TEXTURES */
    char label[64];
} orri_texture;

typedef struct orri_texture_store {
    orri_gpu *gpu;
    orri_ctx *ctx;
    orri_pool pool;                   /* orri_texture */
    uint32_t live;                    /* counted textures (not internal) */
    VkDescriptorSetLayout set_layout; /* the standard material's set 1: one combined image sampler */
    VkDescriptorPool set_pool;        /* ORRI_TEXTURE_SETS sets, FREE_DESCRIPTOR_SET */
    uint32_t sets;                    /* allocated from set_pool and not yet freed (queued ones too) */
    orr_texture white, white_cube;    /* 1×1 white fallbacks (2D, cube) */
    uint64_t destroyed;               /* textures freed so far: part of the renderer's structure key */
} orri_texture_store;

/* Descriptor sets: every live texture, the fallback, and as many destroyed
 * ones waiting in the delete queue (make_set waits for the GPU once when the
 * pool is full of waiting ones: every driver then sees at most this many). */
#define ORRI_TEXTURE_SETS (2 * ORR_MAX_TEXTURES + 2)

/* Defined by the engine (src/render/engine.c). */
orri_texture_store *orri_engine_textures(orr_engine *e);

/* texture.c */
orr_result orri_textures_init(orr_engine *e, orri_gpu *gpu, orri_ctx *ctx);
/* Waits for the GPU, destroys every texture and the store's objects. */
void orri_textures_deinit(orr_engine *e);
/* NULL for a null or stale handle (no message). */
orri_texture *orri_texture_get(orr_engine *e, orr_texture t);
/* A NULL engine or argument: misuse (NULL_CONTEXT / NULL_ARGUMENT, naming
 * `args`); returns ORR_ERROR_INVALID_ARGUMENT. */
orr_result orri_texture_null_args(orr_engine *e, const char *what, const char *args);
/* The white fallback of a 2D (cube = false) or cube texture. */
orri_texture *orri_texture_fallback(orr_engine *e, bool cube);

/* A pool entry with its image and sampler, nothing uploaded. */
typedef struct orri_entry_desc {
    const orr_texture_desc *desc; /* resolved: sampler and label */
    uint32_t width, height, mips;
    bool cube;
    VkFormat format;
    bool storage;  /* also a storage image (compute writes) */
    bool internal; /* not counted against ORR_MAX_TEXTURES */
} orri_entry_desc;
orr_result orri_texture_entry_new(orr_engine *e, const orri_entry_desc *d, uint32_t *id, orri_texture **out);
/* The standard material's descriptor set of a 2D entry (t->set). */
orr_result orri_texture_make_set(orr_engine *e, orri_texture *t);
/* Frees entry `id`: its Vulkan objects now (nothing submitted uses them), or
 * through the delete queue (deferred). */
void orri_texture_entry_free(orr_engine *e, uint32_t id, bool deferred);

/* create.c: the one creation path. `d` resolved (orr_texture_desc_defaults),
 * `img` the pixels (d->image and d->rgba are not read). */
orr_result orri_texture_make(orr_engine *e, const orr_texture_desc *d, const orr_image_data *img, bool internal,
                             orr_texture *out);

/* check.c: every field of `img` that the upload reads, and the device's
 * limits for `format` with `mips` levels: INVALID_ARGUMENT or UNSUPPORTED
 * with a message naming the field. */
orr_result orri_texture_check_image(orr_engine *e, const orr_image_data *img, VkFormat format, uint32_t mips);
uint32_t orri_mip_chain(uint32_t width, uint32_t height); /* levels of a full chain */
const char *orri_pixel_format_name(orr_pixel_format f);

/* upload.c */
/* Uploads levels [0, levels) of `img` into `dst` (rows flipped when asked),
 * makes the levels above from them, and leaves every level
 * SHADER_READ_ONLY_OPTIMAL. One-shot submit; waits. */
orr_result orri_texture_upload(orr_engine *e, const orr_image_data *img, bool flip, orri_image *dst, uint32_t levels);
/* Records the chain [first, mips) from level first − 1; every level ends in
 * SHADER_READ_ONLY. Levels below `first` must be TRANSFER_DST. */
void orri_texture_record_chain(orr_engine *e, VkCommandBuffer cmd, orri_image *img, uint32_t first);
/* A one-shot barrier on one level, all `layers` (full memory dependency). */
void orri_texture_level_barrier(VkCommandBuffer cmd, VkImage image, uint32_t mip, uint32_t layers, VkImageLayout from,
                                VkImageLayout to);

/* equirect.c: `eq` (one float face) resampled into a cube (d->cube_size). */
orr_result orri_texture_equirect(orr_engine *e, const orr_texture_desc *d, const orr_image_data *eq, bool internal,
                                 orr_texture *out);

/* ibl.c — image-based lighting data of a cube texture, as the PBR shader
 * reads it (the contract between the texture module and the PBR material). */
typedef struct orri_ibl {
    orri_texture *cube; /* the environment cube; the white fallback cube when there is none */
    /* Babylon.js SphericalHarmonics.preScaleForRendering of the cube's
     * irradiance, rgb in xyz: L00, L1-1, L10, L11, L2-2, L2-1, L20, L21, L22. */
    float sh[9][4];
    uint32_t mips;    /* levels of the cube */
    bool prefiltered; /* the mips hold GGX-prefiltered radiance by roughness (.env, orr_texture_prefilter) */
    bool valid;       /* false: no environment (zero harmonics, fallback cube) */
} orri_ibl;
/* The lighting data of `cube` (0 or stale: the fallback, valid = false). */
orr_result orri_texture_ibl(orr_engine *e, orr_texture cube, orri_ibl *out);
/* The engine's split-sum BRDF lookup table (2D, made on first use): x = N·V,
 * y = roughness; rg = scale and bias of F0 (Babylon.js environmentBRDF). */
orri_texture *orri_brdf_lut(orr_engine *e);

#endif
