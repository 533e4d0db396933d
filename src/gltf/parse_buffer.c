/* parse_buffer.c — buffers and buffer views, and the URIs they name.
 *
 * URIs: `data:` URIs must be base64 (`data:<mime>;base64,<data>`). Other URIs
 * are files relative to the model's folder (the base folder of the memory
 * variant), percent-decoded. Decision: a model may only read files at or
 * under its own folder — absolute paths, URIs with a scheme (`http:`,
 * `file:` ...), backslashes and any `..` segment are refused (MALFORMED /
 * UNSUPPORTED), so a downloaded model cannot make the loader read
 * /etc/passwd or ../../secrets. Without a base folder every external URI is
 * refused (the fuzz target and in-memory models with no folder). */
#include <cJSON.h>
#include <stdio.h>
#include <string.h>

#include "gltf_int.h"
#include "orrery/handedness.h"

static int b64_value(char ch) {
    if (ch >= 'A' && ch <= 'Z') return ch - 'A';
    if (ch >= 'a' && ch <= 'z') return ch - 'a' + 26;
    if (ch >= '0' && ch <= '9') return ch - '0' + 52;
    if (ch == '+' || ch == '-') return 62;
    if (ch == '/' || ch == '_') return 63;
    return -1;
}

bool orri_base64_decode(const char *s, size_t n, uint8_t *out, size_t *out_size) {
    while (n && s[n - 1] == '=') n--;
    if (n % 4 == 1) return false;
    size_t o = 0;
    uint32_t acc = 0;
    int bits = 0;
    for (size_t i = 0; i < n; i++) {
        int v = b64_value(s[i]);
        if (v < 0) return false;
        acc = (acc << 6) | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[o++] = (uint8_t)(acc >> bits);
        }
    }
    *out_size = o;
    return true;
}

static orr_result data_uri(orri_gltf_ctx *c, const char *uri, const char *path, uint8_t **data, size_t *size) {
    const char *comma = strchr(uri, ',');
    if (!comma || comma - uri < 12 || strncmp(comma - 7, ";base64", 7) != 0)
        return orri_gltf_fail(c, ORR_ERROR_UNSUPPORTED, "%s.uri: a data: URI that is not base64", path);
    const char *b = comma + 1;
    size_t n = strlen(b);
    uint8_t *d = orri_gltf_alloc(c, n / 4 * 3 + 3, 1, path);
    if (!d) return orr_last_result();
    size_t got;
    if (!orri_base64_decode(b, n, d, &got)) {
        orri_gltf_free(c, d);
        return orri_gltf_fail(c, ORR_ERROR_MALFORMED, "%s.uri: malformed base64 data", path);
    }
    *data = d, *size = got;
    return ORR_OK;
}

static int hex(char ch) {
    if (ch >= '0' && ch <= '9') return ch - '0';
    if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
    return -1;
}

/* Percent-decodes `uri` into `out` and checks the folder rule above. */
static orr_result relative_path(orri_gltf_ctx *c, const char *uri, const char *path, char *out, size_t cap) {
    size_t o = 0;
    out[0] = 0;
    for (const char *p = uri; *p; p++) {
        char ch = *p;
        if (ch == '%' && hex(p[1]) >= 0 && hex(p[2]) >= 0) ch = (char)(hex(p[1]) * 16 + hex(p[2])), p += 2;
        if (ch == 0 || ch == '\\') return orri_gltf_fail(c, ORR_ERROR_UNSUPPORTED, "%s.uri: a NUL or backslash", path);
        if (ch == ':' && o == 0) return orri_gltf_fail(c, ORR_ERROR_UNSUPPORTED, "%s.uri: empty scheme", path);
        if (ch == ':' && !strchr(out, '/'))
            return orri_gltf_fail(c, ORR_ERROR_UNSUPPORTED, "%s.uri \"%.64s\": only data: URIs and relative files",
                                  path, uri);
        if (o + 1 >= cap) return orri_gltf_fail(c, ORR_ERROR_UNSUPPORTED, "%s.uri is too long", path);
        out[o++] = ch;
        out[o] = 0;
    }
    if (o == 0 || out[0] == '/')
        return orri_gltf_fail(c, ORR_ERROR_UNSUPPORTED, "%s.uri \"%.64s\": absolute or empty path", path, uri);
    for (const char *s = out; s; s = strchr(s, '/'), s = s ? s + 1 : NULL)
        if (s[0] == '.' && s[1] == '.' && (s[2] == '/' || s[2] == 0))
            return orri_gltf_fail(c, ORR_ERROR_UNSUPPORTED, "%s.uri \"%.64s\": '..' leaves the model's folder", path,
                                  uri);
    return ORR_OK;
}

static orr_result read_file(orri_gltf_ctx *c, const char *file, const char *path, uint8_t **data, size_t *size) {
    FILE *f = fopen(file, "rb");
    if (!f) return orri_gltf_fail(c, ORR_ERROR_IO, "%s.uri: cannot open %s", path, file);
    long n = -1;
    if (fseek(f, 0, SEEK_END) == 0) n = ftell(f);
    if (n < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        return orri_gltf_fail(c, ORR_ERROR_IO, "%s.uri: cannot read %s", path, file);
    }
    uint8_t *d = orri_gltf_alloc(c, (size_t)n, 1, path);
    if (!d) {
        fclose(f);
        return orr_last_result();
    }
    size_t got = fread(d, 1, (size_t)n, f);
    fclose(f);
    if (got != (size_t)n) {
        orri_gltf_free(c, d);
        return orri_gltf_fail(c, ORR_ERROR_IO, "%s.uri: short read of %s", path, file);
    }
    *data = d, *size = got;
    return ORR_OK;
}

orr_result orri_gltf_load_uri(orri_gltf_ctx *c, const char *uri, const char *path, uint8_t **data, size_t *size) {
    *data = NULL, *size = 0;
    if (strncmp(uri, "data:", 5) == 0) return data_uri(c, uri, path, data, size);
    if (!c->base_dir)
        return orri_gltf_fail(c, ORR_ERROR_UNSUPPORTED, "%s.uri \"%.64s\": an external file, and no base folder", path,
                              uri);
    char rel[1024], full[2048];
    orr_result r = relative_path(c, uri, path, rel, sizeof rel);
    if (r != ORR_OK) return r;
    snprintf(full, sizeof full, "%s%s%s", c->base_dir, *c->base_dir ? "/" : "", rel);
    return read_file(c, full, path, data, size);
}

static orr_result parse_buffer(orri_gltf_ctx *c, const cJSON *b, uint32_t i, orri_gltf_doc *doc) {
    char path[64];
    snprintf(path, sizeof path, "buffers[%u]", i);
    int64_t len;
    if (!orri_json_int(c, b, "byteLength", 1, INT64_C(1) << 52, -1, &len, path)) return ORR_ERROR_MALFORMED;
    if (len < 0) return orri_gltf_fail(c, ORR_ERROR_MALFORMED, "%s.byteLength is missing", path);
    const char *uri = orri_json_str(b, "uri");
    orri_gltf_buffer *out = &doc->buffers[i];
    if (!uri) {
        if (i != 0 || !doc->glb_bin)
            return orri_gltf_fail(c, ORR_ERROR_MALFORMED, "%s has no uri and is not the GLB's BIN chunk", path);
        if ((uint64_t)len > doc->glb_bin_size)
            return orri_gltf_fail(c, ORR_ERROR_MALFORMED, "%s.byteLength %lld exceeds the BIN chunk's %zu bytes", path,
                                  (long long)len, doc->glb_bin_size);
        out->data = orri_gltf_alloc(c, (size_t)len, 1, path);
        if (!out->data) return orr_last_result();
        memcpy(out->data, doc->glb_bin, (size_t)len);
        out->size = (size_t)len;
        return ORR_OK;
    }
    orr_result r = orri_gltf_load_uri(c, uri, path, &out->data, &out->size);
    if (r != ORR_OK) return r;
    if ((uint64_t)len > out->size)
        return orri_gltf_fail(c, ORR_ERROR_MALFORMED, "%s.byteLength %lld exceeds the %zu bytes of its uri", path,
                              (long long)len, out->size);
    out->size = (size_t)len;
    return ORR_OK;
}

orr_result orri_gltf_parse_buffers(orri_gltf_ctx *c, const cJSON *root, orri_gltf_doc *doc) {
    int64_t n = orri_json_array(c, root, "buffers", "");
    if (n < 0) return orr_last_result();
    if (n && !(doc->buffers = orri_gltf_alloc(c, (size_t)n, sizeof *doc->buffers, "buffers"))) return orr_last_result();
    doc->buffer_count = (uint32_t)n;
    uint32_t i = 0;
    for (const cJSON *b = n ? orri_json_member(root, "buffers")->child : NULL; b; b = b->next, i++) {
        orr_result r = parse_buffer(c, b, i, doc);
        if (r != ORR_OK) return r;
    }
    return ORR_OK;
}

static orr_result parse_view(orri_gltf_ctx *c, const cJSON *v, uint32_t i, orri_gltf_doc *doc) {
    char path[64];
    snprintf(path, sizeof path, "bufferViews[%u]", i);
    int64_t buffer, offset, length, stride;
    if (!orri_json_int(c, v, "buffer", 0, (int64_t)doc->buffer_count - 1, -1, &buffer, path) ||
        !orri_json_int(c, v, "byteOffset", 0, INT64_C(1) << 52, 0, &offset, path) ||
        !orri_json_int(c, v, "byteLength", 1, INT64_C(1) << 52, -1, &length, path) ||
        !orri_json_int(c, v, "byteStride", 4, 252, 0, &stride, path))
        return ORR_ERROR_MALFORMED;
    if (buffer < 0 || length < 0) return orri_gltf_fail(c, ORR_ERROR_MALFORMED, "%s needs buffer and byteLength", path);
    if (stride % 4)
        return orri_gltf_fail(c, ORR_ERROR_MALFORMED, "%s.byteStride %lld is not a multiple of 4", path,
                              (long long)stride);
    size_t bsize = doc->buffers[buffer].size;
    if ((uint64_t)offset > bsize || (uint64_t)length > bsize - (uint64_t)offset)
        return orri_gltf_fail(c, ORR_ERROR_MALFORMED, "%s: bytes %lld..%lld are outside buffers[%lld] (%zu bytes)",
                              path, (long long)offset, (long long)(offset + length), (long long)buffer, bsize);
    doc->views[i] = (orri_gltf_view){(uint32_t)buffer, (size_t)offset, (size_t)length, (uint32_t)stride};
    return ORR_OK;
}

orr_result orri_gltf_parse_views(orri_gltf_ctx *c, const cJSON *root, orri_gltf_doc *doc) {
    int64_t n = orri_json_array(c, root, "bufferViews", "");
    if (n < 0) return orr_last_result();
    if (n && !(doc->views = orri_gltf_alloc(c, (size_t)n, sizeof *doc->views, "bufferViews"))) return orr_last_result();
    doc->view_count = (uint32_t)n;
    uint32_t i = 0;
    for (const cJSON *v = n ? orri_json_member(root, "bufferViews")->child : NULL; v; v = v->next, i++) {
        orr_result r = parse_view(c, v, i, doc);
        if (r != ORR_OK) return r;
    }
    return ORR_OK;
}
