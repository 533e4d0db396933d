/* test_fuzz_corpus.c — runs the four fuzz entry points (fuzz/fuzz_*.c, the
 * very same code libFuzzer drives) over a corpus generated here from the real
 * assets: truncations, byte flips, interesting 32-bit values written over
 * header fields, inserted and deleted bytes. CI thus exercises the fuzz
 * targets without libFuzzer; under the ASan build any over-read, leak or
 * abort() from a broken invariant fails the test. Deterministic (xorshift). */
#include <stdint.h>

#include "harness.h"
#include "image_assets.h"

#define ORR_FUZZ_ENTRY fuzz_dds_entry
#include "../../fuzz/fuzz_dds.c"
#undef ORR_FUZZ_ENTRY
#define ORR_FUZZ_ENTRY fuzz_hdr_entry
#include "../../fuzz/fuzz_hdr.c"
#undef ORR_FUZZ_ENTRY
#define ORR_FUZZ_ENTRY fuzz_env_entry
#include "../../fuzz/fuzz_env.c"
#undef ORR_FUZZ_ENTRY
#define ORR_FUZZ_ENTRY fuzz_png_entry
#include "../../fuzz/fuzz_png.c"
#undef ORR_FUZZ_ENTRY

typedef int (*entry_fn)(const uint8_t *, size_t);

static long runs;

/* One run on an exact-size heap copy, so ASan catches a read one past the end. */
static void run_one(entry_fn fn, const uint8_t *p, size_t n) {
    uint8_t *copy = exact_copy(p, n);
    fn(copy, n);
    free(copy);
    runs++;
}

static const uint32_t interesting[] = {0, 1, 2, 6, 7, 15, 16, 255, 16384, 16385, 0x7fffffff, 0x80000000u, 0xffffffffu};

/* `hot` bytes at the front hold the header; most mutations aim there. */
static void mutate_and_run(entry_fn fn, const asset *a, size_t hot, int count, uint64_t seed) {
    uint8_t *buf = malloc(a->size + 64);
    uint64_t s = seed;
    for (int k = 0; k <= 64; k++) run_one(fn, a->data, a->size * (size_t)k / 64); /* truncations */
    for (int i = 0; i < count; i++) {
        size_t n = a->size;
        memcpy(buf, a->data, n);
        size_t span = (rng_next(&s) & 3) ? (hot < n ? hot : n) : n;
        switch (rng_next(&s) % 4) {
        case 0: /* flip a few bits */
            for (int b = 0, m = 1 + (int)(rng_next(&s) % 8); b < m; b++)
                buf[rng_next(&s) % span] ^= (uint8_t)(1u << (rng_next(&s) % 8));
            break;
        case 1: { /* an interesting 32-bit value, little or big endian */
            size_t at = (rng_next(&s) % (span > 4 ? span - 4 : 1));
            uint32_t v = interesting[rng_next(&s) % (sizeof interesting / sizeof interesting[0])];
            if (rng_next(&s) & 1) v = __builtin_bswap32(v);
            if (n >= 4) memcpy(buf + at, &v, 4);
            break;
        }
        case 2: { /* delete a run of bytes */
            size_t at = rng_next(&s) % span, len = 1 + rng_next(&s) % 16;
            if (at + len > n) len = n - at;
            memmove(buf + at, buf + at + len, n - at - len);
            n -= len;
            break;
        }
        default: { /* insert a run of random bytes */
            size_t at = rng_next(&s) % span, len = 1 + rng_next(&s) % 16;
            memmove(buf + at + len, buf + at, n - at);
            for (size_t j = 0; j < len; j++) buf[at + j] = (uint8_t)rng_next(&s);
            n += len;
            break;
        }
        }
        /* cut some mutants short as well */
        if ((rng_next(&s) & 7) == 0) n = rng_next(&s) % (n + 1);
        run_one(fn, buf, n);
    }
    free(buf);
}

static void corpus(entry_fn fn, const char *rel, size_t hot, int count, uint64_t seed) {
    asset a = asset_read(rel);
    CHECK(a.size > 0);
    long before = runs;
    if (a.size) mutate_and_run(fn, &a, hot, count, seed);
    CHECK(runs - before == 65 + count);
    asset_free(&a);
}

/* A control first: the entry points do load the unmutated files (a target that
 * returned early would pass every corpus run below). */
TEST(entry_points_load_real_files) {
    asset a = asset_read("bjs/environmentSpecular.env");
    char e[256];
    orr_image_load_desc d = orr_fuzz_desc(e, sizeof e, 0);
    orr_image_data img;
    CHECK(orr_image_load_env(&d, a.data, a.size, &img, NULL) == ORR_OK && img.size <= ORR_FUZZ_MAX_BYTES);
    orr_image_free(&img);
    asset_free(&a);
    runs = 0;
    asset h = asset_read("hdr/venice_sunset_1k.hdr");
    run_one(fuzz_hdr_entry, h.data, h.size);
    CHECK(runs == 1);
    asset_free(&h);
}

TEST(fuzz_corpus_dds) { corpus(fuzz_dds_entry, "dds/backgroundSkybox.dds", 148, 400, 0x9e3779b97f4a7c15ull); }
TEST(fuzz_corpus_hdr) { corpus(fuzz_hdr_entry, "hdr/venice_sunset_1k.hdr", 160, 150, 0x243f6a8885a308d3ull); }
TEST(fuzz_corpus_env) { corpus(fuzz_env_entry, "bjs/environmentSpecular.env", 2400, 150, 0x13198a2e03707344ull); }
TEST(fuzz_corpus_png) {
    corpus(fuzz_png_entry, "cube/ryfjallet_px.png", 200, 250, 0xa4093822299f31d0ull);
    corpus(fuzz_png_entry, "bjs/backgroundGround.png", 200, 50, 0x082efa98ec4e6c89ull);
}

/* Inputs the fuzzers once failed on (tests/data/image/), run through their
 * entry point and checked for the answer the fix gives. */
static asset data_file(const char *name) {
    char path[1024];
    const char *dir = getenv("ORR_TEST_DATA");
    snprintf(path, sizeof path, "%s/image/%s", dir ? dir : "tests/data", name);
    asset a = {0};
    FILE *f = fopen(path, "rb");
    if (!f) return a;
    a.data = malloc(4096);
    a.size = fread(a.data, 1, 4096, f);
    fclose(f);
    return a;
}

TEST(fuzz_regressions) {
    /* A PNG whose first IDAT chunk is empty made stb_image call memcpy(NULL, .., 0)
     * (UBSan, fuzz_png and fuzz_env, as an .env face): now refused before stb runs. */
    asset p = data_file("png-empty-first-idat.bin"), e = data_file("env-empty-first-idat.bin");
    CHECK(p.size > 0 && e.size > 0);
    run_one(fuzz_png_entry, p.data, p.size);
    run_one(fuzz_env_entry, e.data, e.size);
    char err[256];
    orr_image_load_desc d = orr_fuzz_desc(err, sizeof err, 0);
    orr_image_data img;
    CHECK(orr_image_load_png_jpeg(&d, p.data, p.size, &img) == ORR_ERROR_UNSUPPORTED && strstr(err, "IDAT"));
    CHECK(orr_image_load_env(&d, e.data, e.size, &img, NULL) == ORR_ERROR_UNSUPPORTED && strstr(err, "IDAT"));
    asset_free(&p);
    asset_free(&e);
}

int main(int argc, char **argv) {
    /* The real assets live in the shared folder beside the checkout; without
     * it every test here would fail on NULL data, so say so once and stop. */
    FILE *probe = fopen(asset_path("dds/backgroundSkybox.dds"), "rb");
    if (!probe) {
        fprintf(stderr, "shared assets not found (%s); set ORR_SHARED to the shared folder\n",
                asset_path("dds/backgroundSkybox.dds"));
        printf("0 passed, 1 failed\n");
        return 1;
    }
    fclose(probe);
    return RUN_TESTS(argc, argv);
}
