/* test_fuzz_corpus.c — runs the four fuzz entry points (fuzz/fuzz_*.c, the
 * very same code libFuzzer drives) over a corpus generated here from the real
 * assets: truncations, byte flips, interesting 32-bit values written over
 * header fields, inserted and deleted bytes; for JPEG, seeds of every kind
 * stb decodes and mutations of their Huffman tables. CI thus exercises the
 * fuzz targets without libFuzzer; under the ASan build (stb_image is
 * compiled into the library, so it is instrumented too) any over-read,
 * leak, undefined behaviour or abort() from a broken invariant fails the
 * test. Deterministic (xorshift). */
#include <stdint.h>
#include <stdio.h>

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
#define ORR_FUZZ_ENTRY fuzz_gltf_entry
#include "../../fuzz/fuzz_gltf.c"
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

/* glTF (fuzz_gltf: the parse layer). Control: the entry's parse accepts the
 * unmutated GLBs (a refusal of everything would pass every run below). Hot
 * bytes: the GLB header and JSON chunk. */
TEST(fuzz_corpus_gltf) {
    static const char *const files[] = {"gltf/Box/Box.glb", "gltf/BoxVertexColors/BoxVertexColors.glb",
                                        "gltf/SimpleInstancing/SimpleInstancing.glb",
                                        "gltf/RiggedSimple/RiggedSimple.glb", "gltf/Box/Box.gltf"};
    for (int i = 0; i < 5; i++) {
        asset a = asset_read(files[i]);
        char err[512];
        orri_gltf_ctx c;
        orri_gltf_ctx_init(&c, NULL, NULL, err, sizeof err, files[i], NULL, ORR_FUZZ_MAX_BYTES);
        orri_gltf_doc doc;
        orr_result r = orri_gltf_parse(&c, a.data, a.size, &doc);
        CHECK(i == 4 ? r == ORR_ERROR_UNSUPPORTED : r == ORR_OK); /* Box.gltf: external buffer, no base folder */
        if (r == ORR_OK) orri_gltf_doc_free(&c, &doc);
        size_t json = a.size > 20 && i < 4 ? 20 + (size_t)a.data[12] + ((size_t)a.data[13] << 8) : a.size;
        long before = runs;
        if (a.size) mutate_and_run(fuzz_gltf_entry, &a, json, i == 3 ? 300 : 200, 0x3c6ef372fe94f82bull + (uint64_t)i);
        CHECK(runs - before == 65 + (i == 3 ? 300 : 200));
        asset_free(&a);
    }
}

/* A file of tests/data/image/ (at most 64 KiB). */
static asset data_file(const char *name) {
    char rel[256];
    snprintf(rel, sizeof rel, "image/%s", name);
    asset a = {0};
    FILE *f = fopen(orr_test_data_path(rel), "rb");
    if (!f) return a;
    a.data = malloc(65536);
    a.size = fread(a.data, 1, 65536, f);
    fclose(f);
    return a;
}

/* ---- JPEG (issue 16, D7) ---- */

/* The JPEG seeds: fuzz/make_corpus.py's blocky baseline (grey; 4:2:0 with
 * restart markers) and progressive (grey; 4:2:0) files, checked into
 * tests/data/image/, and two encoded here by stb_image_write (4:2:0 and
 * 4:4:4, noise). */
#define JPEG_SEEDS 6
static asset jpeg_seed(int i) {
    static const char *const files[4] = {"jpeg-grey.jpg", "jpeg-420-restart.jpg", "jpeg-progressive-grey.jpg",
                                         "jpeg-progressive-420.jpg"};
    if (i < 4) return data_file(files[i]);
    jbuf j = i == 4 ? make_jpeg(48, 32, 90, true, 21) : make_jpeg(24, 40, 95, true, 22);
    return (asset){j.data, j.size};
}

/* Control: every seed loads as it is (a broken seed would make every
 * mutation below a refusal of nothing). */
TEST(jpeg_seeds_load) {
    for (int i = 0; i < JPEG_SEEDS; i++) {
        asset a = jpeg_seed(i);
        char e[256];
        orr_image_load_desc d = orr_fuzz_desc(e, sizeof e, 0);
        orr_image_data img;
        orr_result r = orr_image_load_png_jpeg(&d, a.data, a.size, &img);
        if (r != ORR_OK) fprintf(stderr, "  JPEG seed %d: %s\n", i, e);
        CHECK(a.size > 100 && r == ORR_OK && img.width >= 16 && img.height >= 13);
        orr_image_free(&img);
        asset_free(&a);
    }
}

TEST(fuzz_corpus_jpeg) {
    for (int i = 0; i < JPEG_SEEDS; i++) {
        asset a = jpeg_seed(i);
        size_t sos = jpeg_segment(a.data, a.size, 0xda); /* most mutations go to the headers */
        long before = runs;
        mutate_and_run(fuzz_png_entry, &a, sos ? sos + 14 : a.size, 150, 0x6a09e667f3bcc908ull + (uint64_t)i);
        CHECK(sos > 0 && runs - before == 65 + 150);
        asset_free(&a);
    }
}

/* Offsets of the tables of every DHT segment (its class/id byte), found by
 * their markers: 0xFF 0xC4 cannot occur inside entropy-coded data. */
static size_t dht_tables(const asset *a, size_t *at, size_t max) {
    size_t n = 0;
    for (size_t p = 0; p + 4 < a->size && n < max; p++) {
        if (a->data[p] != 0xff || a->data[p + 1] != 0xc4) continue;
        size_t end = p + 2 + ((size_t)a->data[p + 2] << 8 | a->data[p + 3]), t = p + 4;
        while (t + 17 <= end && t + 17 <= a->size && n < max) {
            at[n++] = t;
            size_t total = 0;
            for (int l = 1; l <= 16; l++) total += a->data[t + l];
            t += 17 + total;
        }
    }
    return n;
}

/* DHT mutations aimed at the Huffman table build: code counts over 256 in
 * total, counts overflowing a code length, random counts, class/id bytes,
 * segment lengths, and mutated copies of a DHT inserted at the start or
 * just before a scan. The refusals that must happen are checked; every run
 * goes through fuzz_png's entry point (ASan and UBSan watch stb). */
TEST(fuzz_jpeg_dht_mutations) {
    uint64_t s = 0xbb67ae8584caa73bull;
    long refused = 0, must = 0;
    for (int i = 0; i < JPEG_SEEDS; i++) {
        asset a = jpeg_seed(i);
        size_t tables[16], nt = dht_tables(&a, tables, 16);
        CHECK(nt >= 2);
        for (int k = 0; k < 200 && nt; k++) {
            jbuf b = {0};
            jbuf_insert(&b, 0, a.data, a.size);
            size_t t = tables[rng_next(&s) % nt];
            int kind = (int)(rng_next(&s) % 7);
            if (kind == 6) { /* a copy of that table's segment, counts set over 256, inserted elsewhere */
                uint8_t seg[4200] = {0xff, 0xc4};
                size_t total = 0;
                seg[4] = b.data[t];
                for (int l = 1; l <= 16; l++) seg[4 + l] = (uint8_t)(rng_next(&s) >> 56);
                seg[4 + 16] = 255, seg[4 + 15] = 255; /* at least 510 */
                for (int l = 1; l <= 16; l++) total += seg[4 + l];
                seg[2] = (uint8_t)((19 + total) >> 8), seg[3] = (uint8_t)(19 + total);
                size_t where = (rng_next(&s) & 1) ? 2 : jpeg_segment(b.data, b.size, 0xda);
                jbuf_insert(&b, where ? where : 2, seg, 4 + 17 + total);
            } else if (kind == 0) { /* one count, any value */
                b.data[t + 1 + rng_next(&s) % 16] = (uint8_t)(rng_next(&s) >> 56);
            } else if (kind == 1) { /* more than 256 codes in total */
                for (int l = 1; l <= 16; l++) b.data[t + l] = l >= 15 ? 255 : 0;
                b.data[t + 15] = (uint8_t)(2 + rng_next(&s) % 254);
            } else if (kind == 2) { /* too many codes of one short length */
                int l = 1 + (int)(rng_next(&s) % 7);
                b.data[t + l] = (uint8_t)((1u << l) + 1 + rng_next(&s) % 8);
            } else if (kind == 3) { /* class and id */
                b.data[t] = (uint8_t)(rng_next(&s) >> 56);
            } else if (kind == 4) { /* the segment length (its two bytes sit just before the first table) */
                size_t seg = t;
                while (seg >= 2 && !(b.data[seg - 2] == 0xff && b.data[seg - 1] == 0xc4)) seg--;
                if (seg >= 2) b.data[seg + 1] = (uint8_t)(b.data[seg + 1] + 1 + rng_next(&s) % 30);
            } else { /* cut inside the table */
                b.size = t + 1 + rng_next(&s) % 40;
                if (b.size > a.size) b.size = a.size;
            }
            run_one(fuzz_png_entry, b.data, b.size);
            if (kind == 1 || kind == 2 || kind == 6) { /* these must be refused, and as Huffman tables */
                char e[256];
                orr_image_load_desc d = orr_fuzz_desc(e, sizeof e, 0);
                orr_image_data img;
                orr_result r = orr_image_load_png_jpeg(&d, b.data, b.size, &img);
                must++;
                if (r == ORR_ERROR_MALFORMED && strstr(e, "Huffman table"))
                    refused++;
                else
                    fprintf(stderr, "  seed %d, mutation %d: %s \"%s\"\n", i, kind, orr_result_string(r), e);
                if (r == ORR_OK) orr_image_free(&img);
            }
            jbuf_free(&b);
        }
        asset_free(&a);
    }
    CHECK(must > 300 && refused == must);
}

/* Inputs the fuzzers once failed on (tests/data/image/), run through their
 * entry point and checked for the answer the fix gives. */
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
    /* Issue 16, D7: a progressive JPEG with, between its scans, a DHT of 510
     * codes (255 of 15 bits, 255 of 16). stb_image 2.27 wrote 253 code lengths
     * past its 257-entry array (stb_image.h:1990) and 254 symbols past its
     * 256-entry one: refused before stb runs. */
    asset j = data_file("jpeg-dht-510-codes.jpg");
    CHECK(j.size == 721);
    run_one(fuzz_png_entry, j.data, j.size);
    CHECK(orr_image_load_png_jpeg(&d, j.data, j.size, &img) == ORR_ERROR_MALFORMED && strstr(err, "510 codes"));
    asset_free(&j);
}

int main(int argc, char **argv) {
    orr_test_require_assets();
    return RUN_TESTS(argc, argv);
}
