/* parse_glb.c — the GLB container (glTF 2.0 spec, "Binary glTF Layout"):
 * a 12-byte header (magic "glTF", version 2, total length), a JSON chunk,
 * then an optional BIN chunk; later chunks of unknown types are ignored.
 * Every length is checked against the bytes present (a header claiming more
 * than the file holds is truncation) before anything is read. */
#include <string.h>

#include "gltf_int.h"
#include "orrery/handedness.h"

#define GLB_MAGIC 0x46546c67u /* "glTF" */
#define CHUNK_JSON 0x4e4f534au
#define CHUNK_BIN 0x004e4942u

static uint32_t rd32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

bool orri_gltf_is_glb(const uint8_t *data, size_t size) { return size >= 4 && rd32(data) == GLB_MAGIC; }

orr_result orri_gltf_glb(orri_gltf_ctx *c, const uint8_t *data, size_t size, const uint8_t **json, size_t *json_size,
                         const uint8_t **bin, size_t *bin_size) {
    *json = *bin = NULL;
    *json_size = *bin_size = 0;
    if (size < 20) return orri_gltf_fail(c, ORR_ERROR_MALFORMED, "GLB of %zu bytes is shorter than its headers", size);
    uint32_t version = rd32(data + 4), length = rd32(data + 8);
    if (version != 2) return orri_gltf_fail(c, ORR_ERROR_UNSUPPORTED, "GLB version %u (only 2)", version);
    if (length > size)
        return orri_gltf_fail(c, ORR_ERROR_MALFORMED,
                              "GLB header (byte 8) claims %u bytes, the file has %zu (truncated?)", length, size);
    size_t pos = 12;
    for (int chunk = 0; length - pos >= 8; chunk++) {
        uint32_t n = rd32(data + pos), type = rd32(data + pos + 4);
        if (n > length - pos - 8)
            return orri_gltf_fail(c, ORR_ERROR_MALFORMED, "GLB chunk %d at byte %zu claims %u bytes, %zu are left",
                                  chunk, pos, n, (size_t)length - pos - 8);
        const uint8_t *body = data + pos + 8;
        if (chunk == 0) {
            if (type != CHUNK_JSON)
                return orri_gltf_fail(c, ORR_ERROR_MALFORMED, "GLB chunk 0 at byte %zu is not JSON (type 0x%08x)", pos,
                                      type);
            *json = body, *json_size = n;
        } else if (chunk == 1 && type == CHUNK_BIN) {
            *bin = body, *bin_size = n;
        }
        pos += 8 + (size_t)n;
        pos = (pos + 3) & ~(size_t)3; /* chunks are 4-byte aligned */
        if (pos > length) break;
    }
    if (!*json) return orri_gltf_fail(c, ORR_ERROR_MALFORMED, "GLB has no JSON chunk (byte 12)");
    return ORR_OK;
}
