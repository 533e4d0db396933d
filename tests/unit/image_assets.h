/* image_assets.h — helpers shared by test_image.c and test_fuzz_corpus.c:
 * reading the repository's assets (assets/, or $ORR_ASSETS), exact-size copies (so ASan
 * sees any read past the end), a counting allocator that can be told to fail
 * and reports its peak, a deterministic PRNG, and JPEGs encoded in memory.
 * Header-only, static functions. */
#ifndef ORR_IMAGE_ASSETS_H
#define ORR_IMAGE_ASSETS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stb_image_write.h>

#include "orrery/image.h"
#include "support/test_support.h"

typedef struct asset {
    uint8_t *data;
    size_t size;
} asset;

__attribute__((unused)) static const char *asset_path(const char *rel) { return orr_test_asset_path(rel); }

__attribute__((unused)) static asset asset_read(const char *rel) {
    asset a = {0};
    FILE *f = fopen(asset_path(rel), "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", asset_path(rel));
        return a;
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    a.data = malloc(n > 0 ? (size_t)n : 1);
    a.size = a.data ? fread(a.data, 1, (size_t)n, f) : 0;
    fclose(f);
    return a;
}

__attribute__((unused)) static void asset_free(asset *a) {
    free(a->data);
    a->data = NULL;
    a->size = 0;
}

/* malloc'd copy of exactly n bytes (at least 1 allocated, never read). */
__attribute__((unused)) static uint8_t *exact_copy(const uint8_t *src, size_t n) {
    uint8_t *p = malloc(n ? n : 1);
    if (n) memcpy(p, src, n);
    return p;
}

/* Counting allocator; fails every allocation from number fail_at on (-1: never).
 * It also tracks the bytes live (`bytes`) and their high-water mark (`peak`),
 * so a test can assert how much a call allocated at most: set peak = bytes
 * before the call and compare after. Every block carries a 16-byte header
 * holding its size (16 keeps the alignment of max_align_t). */
typedef struct counting {
    long allocs, frees, fail_at, calls;
    size_t bytes, peak;
} counting;

#define COUNTING_HEADER 16

__attribute__((unused)) static void counting_grew(counting *c, size_t add) {
    c->bytes += add;
    if (c->bytes > c->peak) c->peak = c->bytes;
}

__attribute__((unused)) static void *cnt_alloc(size_t size, void *user) {
    counting *c = user;
    if (c->fail_at >= 0 && c->calls++ >= c->fail_at) return NULL;
    if (size > SIZE_MAX - COUNTING_HEADER) return NULL;
    uint8_t *p = malloc(size + COUNTING_HEADER);
    if (!p) return NULL;
    memcpy(p, &size, sizeof size);
    c->allocs++;
    counting_grew(c, size);
    return p + COUNTING_HEADER;
}
__attribute__((unused)) static void *cnt_realloc(void *ptr, size_t size, void *user) {
    counting *c = user;
    if (!ptr) return cnt_alloc(size, user);
    if (c->fail_at >= 0 && c->calls++ >= c->fail_at) return NULL;
    if (size > SIZE_MAX - COUNTING_HEADER) return NULL;
    uint8_t *base = (uint8_t *)ptr - COUNTING_HEADER;
    size_t old;
    memcpy(&old, base, sizeof old);
    uint8_t *p = realloc(base, size + COUNTING_HEADER);
    if (!p) return NULL;
    memcpy(p, &size, sizeof size);
    c->bytes -= old;
    counting_grew(c, size);
    return p + COUNTING_HEADER;
}
__attribute__((unused)) static void cnt_free(void *ptr, void *user) {
    counting *c = user;
    if (!ptr) return;
    uint8_t *base = (uint8_t *)ptr - COUNTING_HEADER;
    size_t old;
    memcpy(&old, base, sizeof old);
    c->frees++;
    c->bytes -= old;
    free(base);
}
__attribute__((unused)) static orr_allocator counting_allocator(counting *c) {
    return (orr_allocator){cnt_alloc, cnt_realloc, cnt_free, c};
}

__attribute__((unused)) static uint64_t rng_next(uint64_t *s) {
    uint64_t x = *s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *s = x;
}

/* A growable byte buffer, and JPEGs encoded into one by stb_image_write
 * (baseline, three components, the Annex K Huffman tables in one DHT
 * segment; 4:2:0 at quality <= 90, 4:4:4 above). */
typedef struct jbuf {
    uint8_t *data;
    size_t size, cap;
} jbuf;

__attribute__((unused)) static void jbuf_insert(jbuf *b, size_t at, const void *src, size_t n) {
    if (b->size + n > b->cap) {
        b->cap = (b->size + n) * 2;
        b->data = realloc(b->data, b->cap);
    }
    memmove(b->data + at + n, b->data + at, b->size - at);
    memcpy(b->data + at, src, n);
    b->size += n;
}
__attribute__((unused)) static void jbuf_write(void *ctx, void *data, int size) {
    jbuf *b = ctx;
    if (size > 0) jbuf_insert(b, b->size, data, (size_t)size);
}
__attribute__((unused)) static void jbuf_free(jbuf *b) {
    free(b->data);
    *b = (jbuf){0};
}

/* w × h, three components: noise (seeded) or a flat colour. */
__attribute__((unused)) static jbuf make_jpeg(int w, int h, int quality, bool noise, uint64_t seed) {
    uint8_t *px = malloc((size_t)w * h * 3);
    uint64_t s = seed | 1;
    for (size_t i = 0; i < (size_t)w * h * 3; i++)
        px[i] = noise ? (uint8_t)(rng_next(&s) >> 24) : (uint8_t)(i % 3 == 0 ? 230 : i % 3 == 1 ? 120 : 20);
    jbuf b = {0};
    stbi_write_jpg_to_func(jbuf_write, &b, w, h, 3, px, quality);
    free(px);
    return b;
}

/* Offset of the 0xFF of the first segment with marker m before the first
 * scan's data (m = 0xda: the scan header itself), or 0. */
__attribute__((unused)) static size_t jpeg_segment(const uint8_t *d, size_t n, uint8_t m) {
    size_t p = 2;
    while (p + 4 <= n && d[p] == 0xff) {
        if (d[p + 1] == m) return p;
        if (d[p + 1] == 0xda) return 0;
        p += 2 + ((size_t)d[p + 2] << 8 | d[p + 3]);
    }
    return 0;
}

__attribute__((unused)) static int is_zeroed(const orr_image_data *img) {
    static const orr_image_data zero;
    return memcmp(img, &zero, sizeof zero) == 0;
}

#endif
