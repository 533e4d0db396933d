/* gltf_test_util.h — helpers of the glTF loader's CPU tests: base64 of a
 * byte buffer, a JSON template whose `@BUF@` becomes a data: URI of the
 * buffer, and a parse with the error captured. Header-only. */
#ifndef ORR_GLTF_TEST_UTIL_H
#define ORR_GLTF_TEST_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gltf/gltf_int.h"
#include "harness.h"

static char gltf_err[1024];
static bool gltf_skip_images; /* parse_with leaves images undecoded */

__attribute__((unused)) static char *b64(const uint8_t *d, size_t n) {
    static const char *t = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char *o = malloc(n / 3 * 4 + 8), *p = o;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)d[i] << 16 | (i + 1 < n ? (uint32_t)d[i + 1] << 8 : 0) | (i + 2 < n ? d[i + 2] : 0);
        *p++ = t[v >> 18 & 63], *p++ = t[v >> 12 & 63];
        *p++ = i + 1 < n ? t[v >> 6 & 63] : '=';
        *p++ = i + 2 < n ? t[v & 63] : '=';
    }
    *p = 0;
    return o;
}

/* The JSON with every "@BUF@" replaced by a base64 data: URI of bin. */
__attribute__((unused)) static char *with_buffer(const char *json, const void *bin, size_t n) {
    char *enc = b64(bin, n);
    size_t cap = strlen(json) + strlen(enc) * 4 + 256;
    char *out = malloc(cap), *o = out;
    for (const char *s = json; *s;) {
        if (strncmp(s, "@BUF@", 5) == 0) {
            o += sprintf(o, "data:application/octet-stream;base64,%s", enc);
            s += 5;
        } else {
            *o++ = *s++;
        }
    }
    *o = 0;
    free(enc);
    return out;
}

/* Parses `json` (with @BUF@ = bin) into doc; the message lands in gltf_err. */
__attribute__((unused)) static orr_result parse_with(const char *json, const void *bin, size_t n, orri_gltf_doc *doc,
                                                     orri_gltf_ctx *c) {
    char *text = with_buffer(json, bin, n);
    orri_gltf_ctx_init(c, NULL, NULL, gltf_err, sizeof gltf_err, "test.gltf", NULL, 0);
    c->skip_images = gltf_skip_images;
    orr_result r = orri_gltf_parse(c, (const uint8_t *)text, strlen(text), doc);
    free(text);
    return r;
}

/* parse_with that must succeed: prints the message otherwise. */
__attribute__((unused)) static bool parse_ok(const char *json, const void *bin, size_t n, orri_gltf_doc *doc,
                                             orri_gltf_ctx *c) {
    orr_result r = parse_with(json, bin, n, doc, c);
    if (r != ORR_OK) fprintf(stderr, "  parse failed: %s\n", gltf_err);
    return r == ORR_OK;
}

/* Expects a failure with `r` whose message contains `needle`. */
#define EXPECT_FAIL(json, bin, n, r_, needle)                                            \
    do {                                                                                 \
        orri_gltf_doc d_;                                                                \
        orri_gltf_ctx c_;                                                                \
        orr_result got_ = parse_with(json, bin, n, &d_, &c_);                            \
        CHECK(got_ == (r_));                                                             \
        if (!strstr(gltf_err, needle)) fprintf(stderr, "  message was: %s\n", gltf_err); \
        CHECK(strstr(gltf_err, needle) != NULL);                                         \
        CHECK(d_.nodes == NULL && d_.buffers == NULL && d_.meshes == NULL);              \
    } while (0)

#define GLTF_HEAD "{\"asset\":{\"version\":\"2.0\"},"

#endif
