/* dds.c — DirectDraw Surface reader (Microsoft, "Programming Guide for DDS"
 * and "DDS_HEADER_DXT10"): legacy pixel formats and the DX10 extension.
 *
 * Layout read: "DDS " + 124-byte DDS_HEADER (+ 20-byte DDS_HEADER_DXT10 when
 * the pixel-format fourCC is "DX10"), then for each face (cube maps store
 * +X, −X, +Y, −Y, +Z, −Z, the same order as Vulkan layers) its whole mip
 * chain, rows tightly packed (pitch = width × bytes per texel for these
 * uncompressed formats, whatever dwPitchOrLinearSize claims). The byte count
 * of every level is checked against the file before anything is allocated;
 * bytes after the last level are ignored. */
#include <string.h>

#include "image_int.h"

enum {
    HEADER_BYTES = 4 + 124,
    DX10_BYTES = 20,
    DDSD_MIPMAPCOUNT = 0x20000,
    DDPF_ALPHAPIXELS = 0x1,
    DDPF_FOURCC = 0x4,
    DDPF_RGB = 0x40,
    DDSCAPS2_CUBEMAP = 0x200,
    DDSCAPS2_ALLFACES = 0xfc00,
    DDSCAPS2_VOLUME = 0x200000,
    DX10_DIM_TEXTURE2D = 3,
    DX10_MISC_TEXTURECUBE = 0x4,
};

#define FOURCC(a, b, c, d) ((uint32_t)(a) | (uint32_t)(b) << 8 | (uint32_t)(c) << 16 | (uint32_t)(d) << 24)

/* How the file's texels become ours. */
typedef enum swizzle { COPY, BGRA_TO_RGBA, RGBX_TO_RGBA, BGRX_TO_RGBA } swizzle;

typedef struct dds_info {
    uint32_t width, height, mips, faces;
    orr_pixel_format format;
    bool srgb;
    swizzle swz;
    size_t data_offset;
} dds_info;

static orr_result dxgi_format(orri_image_ctx *c, uint32_t fmt, dds_info *di) {
    switch (fmt) {
    case 2: di->format = ORR_PIXEL_RGBA32F; return ORR_OK;
    case 10: di->format = ORR_PIXEL_RGBA16F; return ORR_OK;
    case 28: di->format = ORR_PIXEL_RGBA8; return ORR_OK;
    case 29: di->format = ORR_PIXEL_RGBA8, di->srgb = true; return ORR_OK;
    case 87: di->format = ORR_PIXEL_RGBA8, di->swz = BGRA_TO_RGBA; return ORR_OK;
    case 91: di->format = ORR_PIXEL_RGBA8, di->swz = BGRA_TO_RGBA, di->srgb = true; return ORR_OK;
    default: return orri_image_fail(c, ORR_ERROR_UNSUPPORTED, "DDS DXGI format %u is not supported", fmt);
    }
}

static orr_result legacy_format(orri_image_ctx *c, const uint8_t *pf, dds_info *di) {
    uint32_t flags = orri_rd_u32le(pf + 4), fourcc = orri_rd_u32le(pf + 8), bits = orri_rd_u32le(pf + 12);
    uint32_t rm = orri_rd_u32le(pf + 16), gm = orri_rd_u32le(pf + 20), bm = orri_rd_u32le(pf + 24);
    uint32_t am = orri_rd_u32le(pf + 28);
    if (flags & DDPF_FOURCC) {
        if (fourcc == 113) return di->format = ORR_PIXEL_RGBA16F, ORR_OK; /* D3DFMT_A16B16G16R16F */
        if (fourcc == 116) return di->format = ORR_PIXEL_RGBA32F, ORR_OK; /* D3DFMT_A32B32G32R32F */
        char s[5] = {0};
        for (int i = 0; i < 4; i++) {
            char ch = (char)(fourcc >> (8 * i));
            s[i] = (ch >= 32 && ch < 127) ? ch : '?';
        }
        return orri_image_fail(c, ORR_ERROR_UNSUPPORTED, "DDS fourCC '%s' (%u) is not supported", s, fourcc);
    }
    bool alpha = (flags & DDPF_ALPHAPIXELS) != 0;
    if ((flags & DDPF_RGB) && bits == 32 && gm == 0xff00u && (!alpha || am == 0xff000000u)) {
        di->format = ORR_PIXEL_RGBA8;
        if (rm == 0xffu && bm == 0xff0000u) return di->swz = alpha ? COPY : RGBX_TO_RGBA, ORR_OK;
        if (rm == 0xff0000u && bm == 0xffu) return di->swz = alpha ? BGRA_TO_RGBA : BGRX_TO_RGBA, ORR_OK;
    }
    return orri_image_fail(c, ORR_ERROR_UNSUPPORTED,
                           "DDS pixel format (flags 0x%x, %u bits, masks %08x %08x %08x %08x) is not supported", flags,
                           bits, rm, gm, bm, am);
}

static orr_result read_dx10(orri_image_ctx *c, const uint8_t *d, size_t size, uint32_t caps2, dds_info *di) {
    if (size < HEADER_BYTES + DX10_BYTES)
        return orri_image_fail(c, ORR_ERROR_MALFORMED, "DDS DX10 header truncated (%zu bytes)", size);
    const uint8_t *x = d + HEADER_BYTES;
    uint32_t fmt = orri_rd_u32le(x), dim = orri_rd_u32le(x + 4), misc = orri_rd_u32le(x + 8);
    uint32_t array = orri_rd_u32le(x + 12);
    di->data_offset = HEADER_BYTES + DX10_BYTES;
    if (dim != DX10_DIM_TEXTURE2D)
        return orri_image_fail(c, ORR_ERROR_UNSUPPORTED, "DDS resource dimension %u (only 2D and cube)", dim);
    if (array != 1) return orri_image_fail(c, ORR_ERROR_UNSUPPORTED, "DDS array size %u (only 1)", array);
    di->faces = (misc & DX10_MISC_TEXTURECUBE) ? 6 : 1;
    (void)caps2; /* DX10 files say "cube" in miscFlag; caps2 is only advisory there */
    return dxgi_format(c, fmt, di);
}

static orr_result read_header(orri_image_ctx *c, const uint8_t *d, size_t size, dds_info *di) {
    if (size < 4 || memcmp(d, "DDS ", 4) != 0) return orri_image_fail(c, ORR_ERROR_MALFORMED, "not a DDS file (magic)");
    if (size < HEADER_BYTES) return orri_image_fail(c, ORR_ERROR_MALFORMED, "DDS header truncated (%zu bytes)", size);
    const uint8_t *h = d + 4;
    if (orri_rd_u32le(h) != 124 || orri_rd_u32le(h + 72) != 32)
        return orri_image_fail(c, ORR_ERROR_MALFORMED, "DDS header or pixel-format size is wrong");
    uint32_t flags = orri_rd_u32le(h + 4), mip_count = orri_rd_u32le(h + 24);
    uint32_t caps2 = orri_rd_u32le(h + 108);
    di->height = orri_rd_u32le(h + 8);
    di->width = orri_rd_u32le(h + 12);
    /* As Babylon.js and D3DX: the count only when its flag is set; 0 means 1. */
    di->mips = (flags & DDSD_MIPMAPCOUNT) && mip_count ? mip_count : 1;
    if (caps2 & DDSCAPS2_VOLUME) return orri_image_fail(c, ORR_ERROR_UNSUPPORTED, "DDS volume textures");
    const uint8_t *pf = h + 72;
    orr_result r;
    di->data_offset = HEADER_BYTES;
    if ((orri_rd_u32le(pf + 4) & DDPF_FOURCC) && orri_rd_u32le(pf + 8) == FOURCC('D', 'X', '1', '0')) {
        r = read_dx10(c, d, size, caps2, di);
    } else {
        di->faces = 1;
        if (caps2 & DDSCAPS2_CUBEMAP) {
            if ((caps2 & DDSCAPS2_ALLFACES) != DDSCAPS2_ALLFACES)
                return orri_image_fail(c, ORR_ERROR_UNSUPPORTED, "DDS cube map without all six faces (caps2 0x%x)",
                                       caps2);
            di->faces = 6;
        }
        r = legacy_format(c, pf, di);
    }
    if (r != ORR_OK) return r;
    return orri_image_check_size(c, di->format, di->width, di->height, di->faces, di->mips);
}

static void convert_rgba8(uint8_t *dst, const uint8_t *src, size_t texels, swizzle swz) {
    for (size_t i = 0; i < texels; i++, dst += 4, src += 4) {
        bool bgr = swz == BGRA_TO_RGBA || swz == BGRX_TO_RGBA;
        dst[0] = src[bgr ? 2 : 0];
        dst[1] = src[1];
        dst[2] = src[bgr ? 0 : 2];
        dst[3] = (swz == RGBX_TO_RGBA || swz == BGRX_TO_RGBA) ? 255 : src[3];
    }
}

orr_result orri_dds_decode(orri_image_ctx *c, const uint8_t *data, size_t size, orr_image_data *out) {
    dds_info di = {0};
    orr_result r = read_header(c, data, size, &di);
    if (r != ORR_OK) return r;
    uint32_t bpp = orr_pixel_format_size(di.format);
    uint64_t need = 0; /* bounded by check_size: <= max_bytes */
    for (uint32_t m = 0; m < di.mips; m++)
        need += (uint64_t)orri_mip_dim(di.width, m) * orri_mip_dim(di.height, m) * bpp;
    need *= di.faces;
    if (need > size - di.data_offset)
        return orri_image_fail(c, ORR_ERROR_MALFORMED,
                               "DDS data truncated: %ux%u, %u faces, %u mips need %llu bytes, file has %zu", di.width,
                               di.height, di.faces, di.mips, (unsigned long long)need, size - di.data_offset);
    r = orri_image_alloc(c, di.format, di.width, di.height, di.faces, di.mips, out);
    if (r != ORR_OK) return r;
    out->srgb = di.srgb;
    /* Face-major in the file and in out: one pass in file order. */
    const uint8_t *src = data + di.data_offset;
    if (di.swz == COPY)
        memcpy(out->pixels, src, out->size);
    else
        convert_rgba8(out->pixels, src, out->size / 4, di.swz);
    return ORR_OK;
}
