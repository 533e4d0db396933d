/* orrery/image.h — CPU image loaders: PNG/JPEG, DDS, Radiance .hdr, Babylon.js
 * .env and six-face cube maps, decoded into one tightly packed buffer that the
 * GPU side uploads as it is. No Vulkan here.
 *
 * Usage:
 *     orr_image_data img;
 *     char err[256];
 *     orr_result r = orr_image_load_file(&(orr_image_load_desc){ .error_buffer = err,
 *                                          .error_buffer_size = sizeof err }, "sky.dds", &img);
 *     if (r != ORR_OK) { puts(err); return r; }
 *     for (uint32_t f = 0; f < img.faces; f++)
 *         for (uint32_t m = 0; m < img.mips; m++)
 *             upload(f, m, img.pixels + img.level_offset[f][m], img.level_size[m]);
 *     orr_image_free(&img);
 *
 * Layout: texels are RGBA, rows top to bottom, columns left to right, no row
 * padding. Faces are stored face-major (face 0 with all its mips, then face 1
 * ...), which is the order of a DDS file; level_offset gives every (face, mip).
 * Cube faces are in Vulkan layer order +X, −X, +Y, −Y, +Z, −Z, each face's
 * first row being the row at t = 0 of the Vulkan/GL cube-map face table (the
 * convention DDS, .env and the `_px.._nz` images are written in). Mip m has
 * size max(1, width >> m) × max(1, height >> m).
 *
 * Safety: every loader is safe on any bytes. Sizes are checked in 64-bit
 * against ORR_IMAGE_MAX_DIMENSION, ORR_IMAGE_MAX_MIPS and the two budgets of
 * the desc before anything is allocated; a failure returns ORR_ERROR_MALFORMED
 * (does not parse, truncated, inconsistent, bytes of no known format),
 * ORR_ERROR_UNSUPPORTED (valid but outside what Orrery reads: block
 * compression, WebP faces, texture arrays, GIF/BMP/TIFF/... files, over the
 * limits), ORR_ERROR_IO or ORR_ERROR_OUT_OF_HOST_MEMORY, writes a
 * one-line message, holds no memory and leaves *out zeroed.
 *
 * Budgets (docs/reliability.md, "Image loaders and textures"):
 * - pixels: width × height of one face at mip 0, at most desc.max_pixels
 *   (default ORR_IMAGE_DEFAULT_MAX_PIXELS, 64 Mi texels = 8192 × 8192). It
 *   bounds a decoder's working memory, which grows with the texel count;
 * - bytes: the decoded image (every face and mip), at most desc.max_bytes
 *   (default ORR_IMAGE_DEFAULT_MAX_BYTES, 1 GiB).
 * A file must also be large enough for the size it claims, so that a few
 * bytes cannot make a loader allocate up to the budgets: DDS and .hdr hold
 * every texel (or scanline) the header announces; PNG needs at least 1 byte
 * of IDAT data per 1032 bytes of filtered rows (deflate's largest ratio);
 * JPEG needs at least one bit of scan data per 8 × 8 block of every
 * component; every PNG face of an .env is checked so before the cube is
 * allocated. Such a file is ORR_ERROR_MALFORMED (truncated).
 */
#ifndef ORRERY_IMAGE_H
#define ORRERY_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "orrery/core.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ORR_IMAGE_MAX_DIMENSION 16384u
#define ORR_IMAGE_MAX_MIPS 15u /* a full chain of 16384 */
#define ORR_IMAGE_MAX_FACES 6u
#define ORR_IMAGE_DEFAULT_MAX_BYTES ((size_t)1 << 30)
#define ORR_IMAGE_DEFAULT_MAX_PIXELS ((uint64_t)1 << 26) /* 64 Mi texels: 8192 × 8192 */

typedef enum orr_pixel_format {
    ORR_PIXEL_UNDEFINED = 0,
    ORR_PIXEL_RGBA8,   /* 4 × uint8 UNORM; orr_image_data.srgb says how to read it */
    ORR_PIXEL_RGBA16F, /* 4 × IEEE 754 binary16, linear */
    ORR_PIXEL_RGBA32F, /* 4 × float, linear */
} orr_pixel_format;

typedef struct orr_image_data {
    orr_pixel_format format;
    uint32_t width, height; /* of mip 0, texels */
    uint32_t faces;         /* 1, or 6 for a cube map */
    uint32_t mips;          /* 1 .. ORR_IMAGE_MAX_MIPS */
    bool is_cube;           /* faces == 6, width == height */
    bool srgb;              /* RGBA8 holding sRGB-encoded colour (PNG, JPEG, DDS *_SRGB) */
    size_t level_offset[ORR_IMAGE_MAX_FACES][ORR_IMAGE_MAX_MIPS]; /* bytes into pixels */
    size_t level_size[ORR_IMAGE_MAX_MIPS];                        /* bytes of one face at that mip */
    size_t size;                                                  /* bytes of pixels */
    uint8_t *pixels;
    orr_allocator allocator; /* the allocator that owns pixels */
} orr_image_data;

/* Options of every loader; zero means default. */
typedef struct orr_image_load_desc {
    const char *label;       /* names the source in messages; default the path, or "image" */
    orr_allocator allocator; /* all three hooks or none (C library); half-set: INVALID_ARGUMENT */
    orr_logger logger;       /* errors go here; zero: stderr, unless error_buffer is set */
    char *error_buffer;      /* receives the failure message (NUL-terminated, truncated) */
    size_t error_buffer_size;
    orr_pixel_format hdr_format; /* .hdr and .env output: RGBA16F (default) or RGBA32F */
    size_t max_bytes;            /* refuse decoded images larger; 0: ORR_IMAGE_DEFAULT_MAX_BYTES */
    /* Refuse images whose width × height (one face, mip 0) is larger, before
     * decoding; 0: ORR_IMAGE_DEFAULT_MAX_PIXELS. */
    uint64_t max_pixels;
} orr_image_load_desc;

/* Frees the pixels and zeroes the struct. Safe on a zeroed struct and NULL. */
void orr_image_free(orr_image_data *img);

/* Bytes per texel of a format (0 for ORR_PIXEL_UNDEFINED). */
uint32_t orr_pixel_format_size(orr_pixel_format format);

/* Any supported file, recognised by its first bytes (DDS, .env, .hdr, PNG,
 * JPEG). `data` is read only during the call; `desc` may be NULL. */
orr_result orr_image_load(const orr_image_load_desc *desc, const void *data, size_t size, orr_image_data *out);
/* Reads `path` (whole file) and calls orr_image_load. ORR_ERROR_IO when it
 * cannot be read. The label defaults to the path. */
orr_result orr_image_load_file(const orr_image_load_desc *desc, const char *path, orr_image_data *out);

/* PNG or JPEG through stb_image: RGBA8, 1 face, 1 mip, srgb = true (colour
 * profiles and gAMA are ignored). 16-bit PNGs are reduced to 8 bits; grey and
 * RGB get alpha 255. Baseline and progressive JPEG (8-bit, Huffman-coded);
 * lossless, hierarchical and arithmetic-coded JPEG: UNSUPPORTED. Other
 * formats (GIF, TGA, BMP, PSD, PPM, ...) are refused (UNSUPPORTED) by their
 * first bytes: stb_image is compiled into Orrery with only its PNG and JPEG
 * decoders. A JPEG's marker stream is checked before stb_image reads it
 * (every Huffman table a valid prefix code of at most 256 symbols, every
 * table a scan uses defined), as is a PNG's chunk list. All memory, stb's
 * scratch included, comes from `desc.allocator`. */
orr_result orr_image_load_png_jpeg(const orr_image_load_desc *desc, const void *data, size_t size, orr_image_data *out);
/* Reads `path` and calls orr_image_load_png_jpeg (DDS, .hdr, .env, GIF, ...
 * files: UNSUPPORTED). The label defaults to the path. */
orr_result orr_image_load_png_jpeg_file(const orr_image_load_desc *desc, const char *path, orr_image_data *out);

/* DDS, legacy header or DX10 extension: DXGI R16G16B16A16_FLOAT (10),
 * R32G32B32A32_FLOAT (2), R8G8B8A8_UNORM (28) / _SRGB (29), B8G8R8A8_UNORM
 * (87) / _SRGB (91) (swizzled to RGBA); legacy D3DFMT_A16B16G16R16F (fourCC
 * 113), A32B32G32R32F (116) and 32-bit RGB masks A8B8G8R8 / A8R8G8B8 /
 * X8B8G8R8 / X8R8G8B8. 2D textures and complete cube maps (all six faces) with
 * every mip level in the file. Float data is copied bit for bit. Block
 * compression, volumes, arrays and partial cubes: UNSUPPORTED. */
orr_result orr_image_load_dds(const orr_image_load_desc *desc, const void *data, size_t size, orr_image_data *out);

/* Radiance RGBE (.hdr): flat and new-style RLE scanlines, orientation
 * "±Y h ±X w" (rows are flipped to top-first, left-to-right); X-major
 * orientations and XYZE: UNSUPPORTED. Output desc.hdr_format, alpha 1, one
 * face, one mip (an equirectangular panorama). Texel = byte × 2^(e − 136), the
 * decode of stb_image, three.js and Babylon.js (no +0.5 offset); the EXPOSURE
 * header is not applied. Half output saturates at 65504 instead of infinity. */
orr_result orr_image_load_hdr(const orr_image_load_desc *desc, const void *data, size_t size, orr_image_data *out);

/* What a Babylon.js .env manifest says beside the specular images. */
typedef enum orr_env_irradiance {
    ORR_ENV_IRRADIANCE_NONE = 0,
    ORR_ENV_IRRADIANCE_POLYNOMIAL, /* coefficients x, y, z, xx, yy, zz, yz, zx, xy */
    ORR_ENV_IRRADIANCE_HARMONICS,  /* coefficients l00, l1_1, l10, l11, l2_2, l2_1, l20, l21, l22 */
} orr_env_irradiance;

typedef struct orr_env_info {
    uint32_t version;            /* manifest version (1 or 2) */
    uint32_t width;              /* cube face size of mip 0 */
    double lod_generation_scale; /* specular.lodGenerationScale, default 0.8 as Babylon.js */
    orr_env_irradiance irradiance_kind;
    double irradiance[9][3]; /* RGB per coefficient, in the order named above */
} orr_env_info;

/* Babylon.js .env (magic 86 16 87 96 f6 d6 96 36, NUL-terminated JSON
 * manifest, then PNG faces): the specular cube with all mips, RGBD-decoded as
 * Babylon.js's fromRGBD does: rgb = pow(png.rgb, 2.2) / png.a (the faces are
 * stored gamma-encoded "to help PNG quantisation"); alpha 1; a texel with
 * D = 0, which no encoder writes, decodes to 0 instead of infinity. Output
 * desc.hdr_format. WebP faces (manifest imageType "image/webp" or a RIFF/WEBP
 * payload): UNSUPPORTED. `info` may be NULL; it is zeroed on failure. */
orr_result orr_image_load_env(const orr_image_load_desc *desc, const void *data, size_t size, orr_image_data *out,
                              orr_env_info *info);
/* Reads `path` and calls orr_image_load_env. */
orr_result orr_image_load_env_file(const orr_image_load_desc *desc, const char *path, orr_image_data *out,
                                   orr_env_info *info);

/* Six PNG/JPEG faces in the order +X, −X, +Y, −Y, +Z, −Z, all square and of
 * one size, into one RGBA8 cube (srgb = true) with one mip (the GPU makes the
 * rest). A face's own errors name the face. */
orr_result orr_image_load_cube_faces(const orr_image_load_desc *desc, const void *const data[6], const size_t size[6],
                                     orr_image_data *out);
/* Reads `<prefix>_px<extension>`, `_nx`, `_py`, `_ny`, `_pz`, `_nz`
 * (extension with its dot, e.g. ".png") and calls orr_image_load_cube_faces. */
orr_result orr_image_load_cube_files(const orr_image_load_desc *desc, const char *prefix, const char *extension,
                                     orr_image_data *out);

/* Reads one texel as float RGBA (RGBA8 as byte / 255, no sRGB decode).
 * Returns false, leaving rgba untouched, when face, mip, x or y is out of range. */
bool orr_image_read_texel(const orr_image_data *img, uint32_t face, uint32_t mip, uint32_t x, uint32_t y,
                          float rgba[4]);

/* IEEE binary16 conversions used by the loaders: round to nearest even;
 * finite values above 65504 (and infinities) saturate to ±65504; NaN stays NaN. */
uint16_t orr_half_from_float(float f);
float orr_half_to_float(uint16_t h);

#ifdef __cplusplus
}
#endif
#endif
