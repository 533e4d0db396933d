/* orrery/texture.h — GPU textures: 2D and cube, from bytes, decoded images
 * or files, with a sampler description.
 *
 * Usage:
 *     orr_texture checker, ground, sky;
 *     orr_texture_create(engine, &(orr_texture_desc){ .rgba = px, .width = 8, .height = 8,
 *         .sampler = { .filter = ORR_FILTER_NEAREST }, .label = "checker" }, &checker);
 *     orr_texture_load_file(engine, "backgroundGround.png",
 *         &(orr_texture_desc){ .srgb = ORR_OFF, .has_alpha = true }, &ground);   // PNG, as stored
 *     orr_texture_load_file(engine, "backgroundSkybox.dds", NULL, &sky);          // DDS cube, its mips
 *     orr_texture env, hdr;
 *     orr_texture_load_file(engine, "environmentSpecular.env", NULL, &env);     // prefiltered + harmonics
 *     orr_texture_load_file(engine, "studio.hdr",                               // panorama → cube,
 *         &(orr_texture_desc){ .prefilter = &(orr_prefilter_desc){ .samples = 1024 } }, &hdr); // GGX mips
 *     orr_standard_material_create(scene, &(orr_standard_material_desc){ .diffuse_texture = checker });
 *     ...
 *     orr_texture_destroy(engine, checker);   // deferred: no wait for the GPU
 *
 * One desc, two parts (sokol's sg_image_desc / sg_sampler_desc split): the
 * image part says what the pixels are (where they come from, sRGB or not,
 * mips wanted, row order, alpha), the sampler part how they are read (filter,
 * wrap, anisotropy). Zero means default everywhere (orrery/core.h: a field
 * whose zero is a legal non-default value is an optional, set with ORR_ON /
 * ORR_OFF). Samplers are shared inside the engine: equal sampler descs use
 * one Vulkan sampler.
 *
 * Every creation path — bytes, decoded image, file, six faces, panorama to
 * cube — goes through the same checks and upload. Files are read only through
 * the image module's loaders (orrery/image.h): safe on any bytes, with its
 * pixel and byte budgets, the engine's allocator.
 *
 * Limits:
 * - at most ORR_MAX_TEXTURES live textures per engine (the engine's own
 *   fallbacks not counted); one more is ORR_ERROR_LIMIT_REACHED and creates
 *   nothing. The standard material's descriptor sets come from a fixed pool
 *   sized for that many live textures plus as many destroyed ones still
 *   waiting for their frames; a create that finds the pool full of those
 *   waits for the GPU once (only after more than ORR_MAX_TEXTURES destroys
 *   within the frames in flight);
 * - width and height: 1 .. ORR_IMAGE_MAX_DIMENSION (16384) and the device's
 *   2D / cube limits; a cube's faces are square; at most the device's
 *   maxResourceSize bytes;
 * - formats: RGBA8 (UNORM or sRGB), RGBA16F, RGBA32F.
 *
 * Destroying a texture that is still in use (the one rule): the handle is
 * stale at once (every call naming it reports misuse, a material or
 * environment keeps the stale id); from the next rendered frame on, a
 * standard or shader material that named it samples the 1×1 white fallback
 * (a standard material's texture flags drop, as with no texture), an
 * environment's ground samples white and its skybox the white cube (its
 * solid colour); the GPU objects are freed once every frame submitted before
 * the destroy has completed (the gpu module's delete queue). Nothing waits
 * for the device (docs/decisions.md 30).
 *
 * Threading: as the rest of the engine, one thread per engine.
 */
#ifndef ORRERY_TEXTURE_H
#define ORRERY_TEXTURE_H

#include <stdbool.h>
#include <stdint.h>

#include "orrery/core.h"
#include "orrery/engine.h"
#include "orrery/image.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Live textures per engine (see Limits above). */
#define ORR_MAX_TEXTURES 1024u

/* Engine-owned GPU texture; 0 is none. */
typedef struct orr_texture {
    uint32_t id;
} orr_texture;

/* GGX prefiltering of a cube's radiance (orr_texture_prefilter, and
 * orr_texture_desc.prefilter when a cube is created). Zero means default. */
typedef struct orr_prefilter_desc {
    /* GGX importance samples per texel, 1 .. 65536; 0: 4096 (Babylon.js
     * HDRFiltering's default quality, TEXTURE_FILTERING_QUALITY_OFFLINE;
     * its HIGH is 64, MEDIUM 16, LOW 8). The cost grows linearly with it. */
    uint32_t samples;
    /* Babylon.js lodGenerationScale: mip m > 0 holds GGX alpha =
     * 2^(m / scale) / size (size: the cube's mip-0 face size), mip 0 the
     * source as it is. 0: 0.8 (Babylon.js's, and the .env files'). */
    double lod_generation_scale;
    /* Called between the GPU steps (one mip of one face each), from the
     * calling thread, with the fraction of the work done (weighted by
     * texels × samples): 0 first, then increasing, exactly 1 last when the
     * cube is complete (that call's result is ignored). Returning false
     * before that cancels: ORR_ERROR_CANCELLED, nothing made. May be NULL. */
    orr_progress_fn progress;
    void *progress_user;
    const char *label; /* default "prefiltered cube" */
} orr_prefilter_desc;

typedef enum orr_filter {
    ORR_FILTER_DEFAULT = 0,
    ORR_FILTER_LINEAR,
    ORR_FILTER_NEAREST,
} orr_filter;

typedef enum orr_wrap {
    ORR_WRAP_DEFAULT = 0,
    ORR_WRAP_REPEAT, /* Babylon.js WRAP_ADDRESSMODE */
    ORR_WRAP_CLAMP,  /* clamp to edge: CLAMP_ADDRESSMODE */
    ORR_WRAP_MIRROR, /* mirrored repeat: MIRROR_ADDRESSMODE */
} orr_wrap;

/* How a texture is read. A later depth texture (shadow maps) will add a
 * comparison here; the gpu module's sampler descriptions already have one. */
typedef struct orr_sampler_desc {
    orr_filter filter;     /* magnification (and minification); default LINEAR */
    orr_filter mip_filter; /* between mip levels; default: as filter (LINEAR: trilinear) */
    /* Inside a level when minifying; default: as filter. Only NEAREST under
     * a LINEAR filter differs (glTF's NEAREST_MIPMAP_LINEAR under a LINEAR
     * magFilter); LINEAR under a NEAREST filter reads NEAREST. */
    orr_filter min_filter;
    orr_wrap wrap_u, wrap_v; /* default REPEAT for 2D, CLAMP for cubes (w follows u) */
    /* 0: 4× (Babylon.js anisotropicFilteringLevel) for 2D textures, off for
     * cubes (decision 84); 1: off, 2..16: that
     * many; clamped to the device's limit; off with NEAREST filtering (filter
     * or min_filter: Babylon.js keeps its anisotropy only for LINEAR/LINEAR
     * sampling modes) or on devices without samplerAnisotropy. */
    uint32_t max_anisotropy;
} orr_sampler_desc;

typedef struct orr_texture_desc {
    /* ---- the image: what the pixels are ---- */
    /* The pixels, for orr_texture_create: one of
     * - image: a decoded image (orrery/image.h), 2D (faces 1) or cube (faces
     *   6), RGBA8 / RGBA16F / RGBA32F, its levels as given; read only during
     *   the call. Every field is checked first (format, pixels, faces, is_cube,
     *   sizes, mips against the full chain, each level_size, each
     *   level_offset + level_size inside size, the device's limits):
     *   ORR_ERROR_INVALID_ARGUMENT naming the field;
     * - rgba, width, height: width × height × 4 bytes of RGBA8, top row first
     *   (a 2D image of one level).
     * orr_texture_load_file and orr_texture_load_cube_faces fill them: leave
     * them zero there. */
    const orr_image_data *image;
    const uint8_t *rgba;
    uint32_t width, height;
    /* RGBA8: sample with sRGB decode. Default: the image's srgb flag (PNG,
     * JPEG and *_SRGB DDS files set it), off for rgba bytes. Babylon.js reads
     * PNG/JPEG colour as stored (gamma-space textures are not decoded by the
     * sampler): ORR_OFF for Babylon.js results. Ignored for float formats. */
    orr_opt_bool srgb;
    /* Default on: an image of one level gets a full chain made on the GPU
     * (linear blits; nearest blits for formats without linear filtering);
     * an image with levels keeps them. ORR_OFF: only the image's levels. */
    orr_opt_bool mips;
    /* 2D: upload rows bottom first, so that v = 0 samples the image's bottom
     * row (Babylon.js invertY, docs/decisions.md 5). Default on; cubes
     * ignore it (faces are used as stored). */
    orr_opt_bool invert_y;
    bool has_alpha; /* Babylon.js hasAlpha: a standard material blends with the texture's alpha */
    /* The image is an equirectangular panorama (one face, RGBA16F or RGBA32F;
     * row 0 the zenith), resampled by a compute shader into an RGBA16F cube of
     * cube_size texels (0: height / 2, at most 8192), with a full chain unless
     * mips is ORR_OFF. Direction d (left-handed, +Y up) reads u = atan2(d.x,
     * d.z) / 2π + 0.5, v = acos(d.y) / π: the cube Babylon.js's HDRCubeTexture
     * draws (PanoramaToCubeMapTools' faces as it uploads them; the harmonics
     * Babylon.js computes for it agree with ours). orr_texture_load_file sets it
     * for .hdr files. */
    bool equirect;
    uint32_t cube_size;
    /* Cubes (a cube image, six faces, a panorama): the created cube is
     * GGX-prefiltered (orr_texture_prefilter with this desc) and only the
     * result is kept, as Babylon.js's HDRCubeTexture with prefilterOnLoad.
     * NULL: none. A 2D image: ORR_ERROR_INVALID_ARGUMENT. Ignored for .env
     * files (already prefiltered). */
    const orr_prefilter_desc *prefilter;
    /* ---- the sampler: how the pixels are read ---- */
    orr_sampler_desc sampler;
    const char *label; /* debug name; default the path, or "texture" */
} orr_texture_desc;

/* The desc with its defaults resolved (every optional set, the sampler's
 * filter, mip filter, wraps and anisotropy filled, the label); for programs
 * that want to see what a zero means. With neither image nor rgba nor
 * equirect (a file still to be read), srgb, the wraps and the anisotropy
 * stay unset: the file decides (2D or cube, its srgb flag). */
orr_texture_desc orr_texture_desc_defaults(const orr_texture_desc *desc);

/* A texture from desc.image or desc.rgba (see the desc). A cube texture
 * cannot be a standard material's diffuse texture. A format the device cannot
 * sample (or blit, when it makes the chain): ORR_ERROR_UNSUPPORTED. Over
 * ORR_MAX_TEXTURES: ORR_ERROR_LIMIT_REACHED. On failure *out is 0 and nothing
 * is left behind. */
orr_result orr_texture_create(orr_engine *engine, const orr_texture_desc *desc, orr_texture *out);
/* Any file orr_image_load_file reads (PNG, JPEG, DDS 2D/cube with its mips,
 * .env specular cube with its mips, Radiance .hdr), with the image module's
 * default limits (at most 64 Mi texels a face and 1 GiB decoded; a file too
 * short for the size it claims is MALFORMED; GIF, BMP, PSD ... UNSUPPORTED)
 * and the engine's allocator. A file whose name ends in .hdr is a panorama
 * (desc.equirect). `desc` may be NULL; its image and rgba must be unset. */
orr_result orr_texture_load_file(orr_engine *engine, const char *path, const orr_texture_desc *desc, orr_texture *out);
/* Six images `<prefix>_px<ext>` ... `_nz<ext>` (ext with its dot) into one
 * cube (orr_image_load_cube_files), mips generated on the GPU. */
orr_result orr_texture_load_cube_faces(orr_engine *engine, const char *prefix, const char *ext,
                                       const orr_texture_desc *desc, orr_texture *out);
/* Deferred: see "Destroying a texture that is still in use" above. The null
 * handle is ignored; a stale one is reported as misuse. */
void orr_texture_destroy(orr_engine *engine, orr_texture texture);

typedef struct orr_texture_info {
    uint32_t width, height, mips;
    bool cube;
    orr_pixel_format format;
    bool srgb; /* sampled with sRGB decode */
    /* A cube whose mips hold GGX-prefiltered radiance by roughness (a .env
     * file, orr_texture_prefilter, desc.prefilter), with its Babylon.js
     * lodGenerationScale (0 when not prefiltered). */
    bool prefiltered;
    double lod_generation_scale;
} orr_texture_info;
/* Zeroed for a null or stale texture (reported as misuse). */
orr_texture_info orr_texture_get_info(orr_engine *engine, orr_texture texture);
/* Reads one texel of (face, mip) back from the GPU as float RGBA (RGBA8 as
 * byte / 255, no sRGB decode). Waits for the device. For tests and tools. */
orr_result orr_texture_read_texel(orr_engine *engine, orr_texture texture, uint32_t face, uint32_t mip, uint32_t x,
                                  uint32_t y, float rgba[4]);

/* ---- Image-based lighting: what a PBR material reads from a cube ----
 *
 * Every cube texture carries the spherical harmonics of its irradiance, as
 * Babylon.js's texture.sphericalPolynomial:
 * - a .env file: its manifest's `irradiance` (a polynomial as Babylon.js
 *   writes it, or harmonics), converted as Babylon.js does
 *   (SphericalHarmonics.FromPolynomial / SphericalPolynomial.FromHarmonics);
 *   a manifest without irradiance: computed as below;
 * - any other cube (DDS, six faces, a panorama, a prefilter's source):
 *   computed when it is created, as Babylon.js's
 *   CubeMapToSphericalPolynomialTools does, from the texels of mip 0 read
 *   back from the GPU (the largest level of at most 512 texels a side for
 *   larger cubes): each texel weighted by its exact solid angle, NaN as 0,
 *   RGBA8 as byte / 255 raised to 2.2 when the texture is sampled as sRGB
 *   (Babylon.js's gammaSpace), values clamped to [0, 4096]; the sum rescaled
 *   to 4π steradians, convolved with the cosine lobe (π, 2π/3, π/4 per band)
 *   and divided by π (Lambertian radiance).
 * Directions are the cube's own (the Vulkan/GL cube-face table, +Y up), as
 * Babylon.js computes them; a prefiltered cube keeps its source's. */
typedef enum orr_sh_source {
    ORR_SH_NONE = 0,       /* a 2D texture */
    ORR_SH_COMPUTED,       /* from the cube's texels */
    ORR_SH_ENV_POLYNOMIAL, /* a .env manifest's polynomial */
    ORR_SH_ENV_HARMONICS,  /* a .env manifest's harmonics */
} orr_sh_source;

typedef struct orr_spherical_harmonics {
    orr_sh_source source;
    /* Babylon.js SphericalHarmonics, RGB: l00, l1_1, l10, l11, l2_2, l2_1,
     * l20, l21, l22, as Lambertian radiance, not pre-scaled. */
    double harmonics[9][3];
    /* Babylon.js SphericalPolynomial, RGB: x, y, z, xx, yy, zz, yz, zx, xy. */
    double polynomial[9][3];
    /* harmonics × the basis constants (SphericalHarmonics.preScaleForRendering:
     * what the PBR shader reads as vSphericalL00 ...): the irradiance colour
     * for a unit normal n is p[0] + p[1] n.y + p[2] n.z + p[3] n.x +
     * p[4] n.y n.x + p[5] n.y n.z + p[6] (3 n.z² − 1) + p[7] n.x n.z +
     * p[8] (n.x² − n.y²). */
    double prescaled[9][3];
} orr_spherical_harmonics;

/* The harmonics of a cube texture (see above). A 2D texture: ORR_OK with
 * source NONE and zeros. A null or stale texture: misuse. */
orr_result orr_texture_get_spherical_harmonics(orr_engine *engine, orr_texture texture, orr_spherical_harmonics *out);

/* A new RGBA16F cube of the source's size with a full mip chain, whose mip m
 * holds the source's radiance filtered by the GGX lobe of roughness alpha =
 * 2^(m / lod_generation_scale) / size (mip 0: the source), as Babylon.js's
 * HDRFiltering.prefilter makes it (importance sampling with Hammersley
 * points, each sample read from the source's mip chosen by its PDF:
 * Krivanek's filtered importance sampling, K = 4), so a PBR material
 * samples it as a .env cube (orr_texture_info.prefiltered). The source must
 * be a cube; the filtering reads its mip chain (a source without a full
 * chain, or an already prefiltered one, through a temporary copy of its mip
 * 0 with a box-filtered chain, as Babylon.js regenerates the chain first).
 * The result has the source's harmonics and
 * the source is unchanged. Runs on the GPU in steps, waiting for each
 * (desc->progress between them); on failure or cancellation *out is 0 and
 * nothing is left behind. `desc` may be NULL. */
orr_result orr_texture_prefilter(orr_engine *engine, orr_texture source, const orr_prefilter_desc *desc,
                                 orr_texture *out);

#ifdef __cplusplus
}
#endif
#endif
