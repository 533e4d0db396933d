/* image_assets.h — helpers shared by test_image.c and test_fuzz_corpus.c:
 * reading the shared assets ($ORR_SHARED/assets), exact-size copies (so ASan
 * sees any read past the end), a counting allocator that can be told to fail,
 * and a deterministic PRNG. Header-only, static functions. */
#ifndef ORR_IMAGE_ASSETS_H
#define ORR_IMAGE_ASSETS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "orrery/image.h"

typedef struct asset {
    uint8_t *data;
    size_t size;
} asset;

__attribute__((unused)) static const char *asset_path(const char *rel) {
    static char path[1024];
    const char *shared = getenv("ORR_SHARED");
    snprintf(path, sizeof path, "%s/assets/%s", shared ? shared : "/work/shared", rel);
    return path;
}

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

/* Counting allocator; fails every allocation from number fail_at on (-1: never). */
typedef struct counting {
    long allocs, frees, fail_at, calls;
} counting;

__attribute__((unused)) static void *cnt_alloc(size_t size, void *user) {
    counting *c = user;
    if (c->fail_at >= 0 && c->calls++ >= c->fail_at) return NULL;
    void *p = malloc(size);
    if (p) c->allocs++;
    return p;
}
__attribute__((unused)) static void *cnt_realloc(void *ptr, size_t size, void *user) {
    counting *c = user;
    if (c->fail_at >= 0 && c->calls++ >= c->fail_at) return NULL;
    void *p = realloc(ptr, size);
    if (p && !ptr) c->allocs++;
    return p;
}
__attribute__((unused)) static void cnt_free(void *ptr, void *user) {
    counting *c = user;
    if (ptr) c->frees++;
    free(ptr);
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

__attribute__((unused)) static int is_zeroed(const orr_image_data *img) {
    static const orr_image_data zero;
    return memcmp(img, &zero, sizeof zero) == 0;
}

#endif
