/* texture_int.h — the texture module: the engine's texture store, the one
 * creation path and its steps (orrery/texture.h).
 *
 * Files: texture.c (store, pool entries, limits, descriptor sets, deferred
 * destroy), create.c (desc defaults, orr_texture_create, the one creation
 * path), check.c (what an image must satisfy before any Vulkan call),
 * upload.c (staging copies and mip chains), equirect.c (panorama → cube
 * compute pass), load.c (files through the image module), query.c (info and
 * texel readback), ibl*.c (image-based lighting: harmonics, GGX prefilter,
 * BRDF table).
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
    /* Image-based lighting (ibl.c): a cube's harmonics (source NONE for 2D
     * textures and the fallbacks) and whether its mips hold GGX-prefiltered
     * radiance, with Babylon.js's lodGenerationScale. */
    orr_spherical_harmonics sh;
    bool prefiltered;
    float lod_generation_scale;
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
    orr_texture brdf_lut;             /* the split-sum BRDF table (ibl_brdf.c), made on first use; 0: not yet */
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
/* orr_texture_create's body, with the .env manifest of a loaded .env file
 * (NULL otherwise): the one creation path, then orri_texture_ibl_finish. */
orr_result orri_texture_create_env(orr_engine *e, const orr_texture_desc *desc, const orr_env_info *env,
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
     * irradiance, rgb in xyz: L00, L1-1, L10, L11, L2-2, L2-1, L20, L21, L22
     * (orr_spherical_harmonics.prescaled: the formula is in orrery/texture.h). */
    float sh[9][4];
    /* Babylon.js SphericalPolynomial, rgb in xyz: x, y, z, xx, yy, zz, yz,
     * zx, xy (for the shader's polynomial path: vSphericalX ... with
     * XX_ZZ = xx − zz, YY_ZZ = yy − zz). */
    float polynomial[9][4];
    uint32_t mips;    /* levels of the cube */
    uint32_t size;    /* face size of mip 0 (vReflectionMicrosurfaceInfos.x) */
    bool prefiltered; /* the mips hold GGX-prefiltered radiance by roughness (.env, orr_texture_prefilter) */
    /* Babylon.js lodGenerationScale / Offset (vReflectionMicrosurfaceInfos.yz):
     * 0.8 and 0 unless the .env says otherwise. The shader reads GGX alpha at
     * lod = log2(size · alpha) · scale + offset (getLodFromAlphaG then
     * LODBASEDMICROSFURACE; linearSpecularLOD is off for .env and prefilter
     * outputs alike), the inverse of the prefilter's alpha = 2^(m / scale) / size. */
    float lod_generation_scale, lod_generation_offset;
    bool valid; /* false: no environment (zero harmonics, fallback cube) */
} orri_ibl;
/* The lighting data of `cube` (0 or stale: the fallback, valid = false).
 * Never waits: the harmonics were computed when the cube was made. */
orr_result orri_texture_ibl(orr_engine *e, orr_texture cube, orri_ibl *out);
/* The engine's split-sum BRDF lookup table (ibl_brdf.c): 2D, 128 × 128
 * RGBA16F, one level, linear filtering, clamp to edge; no standard-material
 * descriptor set. Made on the GPU on first use (a one-shot compute pass:
 * waits once), freed with the engine. Orientation: texel (i, j) holds
 * N·V = i / 127 and perceptual roughness = j / 127 (edges at 0 and 1,
 * floored at 1e-3; decision 79) (GGX
 * alpha = roughness²): sample it at uv = (N·V, roughness), row 0 = smooth.
 * r = ∫ (1 − V·H)^5 · G_vis, g = ∫ G_vis over the GGX lobe with Smith
 * height-correlated visibility (Babylon.js BRDF_V_HEIGHT_CORRELATED), so the
 * specular reflectance is mix(r, g, F0) = r·(1 − F0) + g·F0 (Babylon.js
 * getReflectanceFromBRDFLookup; with F90: (F90 − F0)·r + F0·g); b = the sheen
 * integral ∫ D_Charlie · V_Ashikhmin · N·L (alpha = roughness², Babylon.js's
 * getSheenReflectanceFromBRDFLookup reads it); a = 1. It matches Babylon.js's
 * own table (brdfTextureTools) to a mean 0.003 (test_ibl). On failure
 * (device, memory): the white 2D fallback, logged. */
orri_texture *orri_brdf_lut(orr_engine *e);

/* ibl.c: what a new cube gets after the one creation path made it
 * (create.c, load.c): its harmonics (from `env`'s manifest when it has
 * some, else computed from its texels) and, for a desc asking for it, the
 * prefilter, which replaces *out. On failure *out is freed and 0. 2D
 * textures: nothing (desc.prefilter: INVALID_ARGUMENT). */
orr_result orri_texture_ibl_finish(orr_engine *e, const orr_texture_desc *d, const orr_env_info *env, orr_texture *out);
/* ibl_sh.c: Babylon.js's SH arithmetic. */
typedef struct orri_sh_sum {
    double c[9][3]; /* Σ colour · Y_lm(dir) · dω, unnormalised basis terms */
    double solid_angle;
} orri_sh_sum;
/* Adds one face (RGBA floats, size × size, rows top first) of face index
 * `face` (Vulkan layer order) to `sum`. */
void orri_sh_add_face(orri_sh_sum *sum, uint32_t face, uint32_t size, const float *rgba);
/* The sum as Babylon.js's CubeMapToSphericalPolynomialTools ends it: scaled
 * to 4π, cosine convolution, / π; then polynomial and pre-scaled forms. */
void orri_sh_finish(const orri_sh_sum *sum, orr_spherical_harmonics *out);
/* From a .env manifest's irradiance (polynomial or harmonics). */
void orri_sh_from_env(const orr_env_info *env, orr_spherical_harmonics *out);
/* Level `mip` of `t` (every layer, face-major, rows top first) read back
 * as float RGBA (RGBA8: byte / 255, no sRGB decode) into *out, allocated
 * with the engine's allocator (orri_free). Waits for its copy. */
orr_result orri_texture_read_level(orr_engine *e, orri_texture *t, uint32_t mip, float **out);
/* The harmonics of cube `t` from its texels (a GPU readback; waits). */
orr_result orri_sh_compute(orr_engine *e, orri_texture *t, orr_spherical_harmonics *out);
/* ibl_prefilter.c: the GPU pass. `internal`: the result is not counted. */
orr_result orri_texture_prefilter(orr_engine *e, orr_texture src, const orr_prefilter_desc *desc, bool internal,
                                  orr_texture *out);

#endif
