/* test_gltf_accessor.c — the glTF parse layer's accessors (src/gltf/
 * parse_accessor.c): every componentType and type, normalized integers by
 * the spec's formulas, matrix column padding, byteStride, sparse accessors
 * (with and without a bufferView), and the range checks that name the JSON
 * path. Buffers are built here and embedded as base64 data: URIs. */
#include "gltf_test_util.h"

static uint8_t buf[128];

static void put(size_t at, const void *p, size_t n) { memcpy(buf + at, p, n); }

static void fill(void) {
    memset(buf, 0xee, sizeof buf);
    int8_t i8[4] = {-128, -127, 0, 127};
    uint8_t u8[4] = {0, 255, 51, 1};
    int16_t i16[4] = {-32768, -32767, 0, 32767};
    uint16_t u16[4] = {0, 65535, 1, 2};
    uint32_t u32[2] = {7, 70000};
    float f[3] = {1.5f, -2.0f, 3.25f};
    put(0, i8, 4), put(8, u8, 4), put(16, i16, 8), put(24, u16, 8), put(32, u32, 8), put(40, f, 12);
    uint8_t m2[8] = {1, 2, 0xee, 0xee, 3, 4, 0xee, 0xee}; /* MAT2 of bytes: columns padded to 4 */
    put(52, m2, 8);
    int16_t m3[12] = {1, 2, 3, -1, 4, 5, 6, -1, 7, 8, 9, -1}; /* MAT3 of shorts: columns of 6 bytes padded to 8 */
    put(60, m3, 24);
    float s[6] = {1, 2, 99, 3, 4, 99}; /* VEC2 floats, stride 12 */
    put(84, s, 24);
    uint16_t sidx[2] = {0, 2};
    float sval[2] = {10, 30};
    put(108, sidx, 4), put(112, sval, 8);
}

static const char *doc_json = GLTF_HEAD
    "\"buffers\":[{\"byteLength\":128,\"uri\":\"@BUF@\"}],"
    "\"bufferViews\":[{\"buffer\":0,\"byteLength\":84},{\"buffer\":0,\"byteOffset\":84,\"byteLength\":24,"
    "\"byteStride\":12},{\"buffer\":0,\"byteOffset\":108,\"byteLength\":4},{\"buffer\":0,\"byteOffset\":112,"
    "\"byteLength\":8}],"
    "\"accessors\":["
    "{\"bufferView\":0,\"byteOffset\":0,\"componentType\":5120,\"count\":4,\"type\":\"SCALAR\",\"normalized\":true},"
    "{\"bufferView\":0,\"byteOffset\":8,\"componentType\":5121,\"count\":4,\"type\":\"SCALAR\",\"normalized\":true},"
    "{\"bufferView\":0,\"byteOffset\":16,\"componentType\":5122,\"count\":4,\"type\":\"SCALAR\",\"normalized\":true},"
    "{\"bufferView\":0,\"byteOffset\":24,\"componentType\":5123,\"count\":2,\"type\":\"VEC2\",\"normalized\":true},"
    "{\"bufferView\":0,\"byteOffset\":32,\"componentType\":5125,\"count\":2,\"type\":\"SCALAR\"},"
    "{\"bufferView\":0,\"byteOffset\":40,\"componentType\":5126,\"count\":1,\"type\":\"VEC3\"},"
    "{\"bufferView\":0,\"byteOffset\":52,\"componentType\":5121,\"count\":1,\"type\":\"MAT2\"},"
    "{\"bufferView\":0,\"byteOffset\":60,\"componentType\":5122,\"count\":1,\"type\":\"MAT3\"},"
    "{\"bufferView\":1,\"componentType\":5126,\"count\":2,\"type\":\"VEC2\"},"
    "{\"componentType\":5126,\"count\":3,\"type\":\"SCALAR\",\"sparse\":{\"count\":2,"
    "\"indices\":{\"bufferView\":2,\"componentType\":5123},\"values\":{\"bufferView\":3}}},"
    "{\"bufferView\":0,\"byteOffset\":0,\"componentType\":5120,\"count\":4,\"type\":\"SCALAR\"},"
    "{\"bufferView\":1,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\",\"sparse\":{\"count\":1,"
    "\"indices\":{\"bufferView\":2,\"componentType\":5123},\"values\":{\"bufferView\":3}}}"
    "]}";

static orri_gltf_doc doc;
static orri_gltf_ctx ctx;

static float *read(int index, uint32_t mask, uint32_t *count) {
    float *f = NULL;
    uint32_t comps;
    orr_result r = orri_gltf_read_floats(&ctx, &doc, index, mask, "test", &f, count, &comps);
    if (r != ORR_OK) fprintf(stderr, "  read %d: %s\n", index, gltf_err);
    return f;
}

TEST(component_types_and_normalization) {
    fill();
    REQUIRE(parse_ok(doc_json, buf, sizeof buf, &doc, &ctx));
    CHECK(doc.accessor_count == 12);
    uint32_t n;
    float *a = read(0, 2, &n); /* BYTE normalized: max(c / 127, −1) */
    REQUIRE(a && n == 4);
    CHECK(a[0] == -1.0f && a[1] == -1.0f && a[2] == 0.0f && a[3] == 1.0f);
    free(a);
    a = read(1, 2, &n); /* UNSIGNED_BYTE: c / 255 */
    CHECK_NEAR(a[1], 1.0, 0);
    CHECK_NEAR(a[2], 0.2, 1e-7);
    CHECK_NEAR(a[3], 1 / 255.0, 1e-9);
    free(a);
    a = read(2, 2, &n); /* SHORT: max(c / 32767, −1) */
    CHECK(a[0] == -1.0f && a[1] == -1.0f && a[3] == 1.0f);
    free(a);
    a = read(3, 4, &n); /* UNSIGNED_SHORT VEC2 */
    CHECK(n == 2 && a[1] == 1.0f);
    CHECK_NEAR(a[2], 1 / 65535.0, 1e-10);
    free(a);
    a = read(4, 2, &n); /* UNSIGNED_INT as values */
    CHECK(a[0] == 7.0f && a[1] == 70000.0f);
    free(a);
    a = read(5, 8, &n);
    CHECK(a[0] == 1.5f && a[1] == -2.0f && a[2] == 3.25f);
    free(a);
    a = read(10, 2, &n); /* BYTE not normalized (KHR_mesh_quantization): the value */
    CHECK(a[0] == -128.0f && a[3] == 127.0f);
    free(a);
    orri_gltf_doc_free(&ctx, &doc);
}

TEST(matrix_padding_stride_and_sparse) {
    fill();
    REQUIRE(parse_ok(doc_json, buf, sizeof buf, &doc, &ctx));
    uint32_t n;
    float *a = read(6, 1u << 4, &n); /* MAT2 bytes: columns at 0 and 4 */
    REQUIRE(a);
    CHECK(a[0] == 1 && a[1] == 2 && a[2] == 3 && a[3] == 4);
    free(a);
    a = read(7, 1u << 9, &n); /* MAT3 shorts: columns at 0, 8, 16 */
    REQUIRE(a);
    for (int k = 0; k < 9; k++) CHECK(a[k] == (float)(k + 1));
    free(a);
    a = read(8, 4, &n); /* stride 12 */
    REQUIRE(a);
    CHECK(a[0] == 1 && a[1] == 2 && a[2] == 3 && a[3] == 4);
    free(a);
    a = read(9, 2, &n); /* sparse without bufferView: zeros, then 10 at 0 and 30 at 2 */
    REQUIRE(a && n == 3);
    CHECK(a[0] == 10 && a[1] == 0 && a[2] == 30);
    free(a);
    a = read(11, 2, &n); /* sparse over a view (SCALAR floats with stride 12: 1, 3), index 0 replaced by 10 */
    REQUIRE(a && n == 2);
    CHECK(a[0] == 10 && a[1] == 3);
    free(a);
    /* wrong type for the use: VEC3 asked of a SCALAR */
    float *f = NULL;
    uint32_t comps;
    CHECK(orri_gltf_read_floats(&ctx, &doc, 0, 8, "meshes[0].primitives[0].attributes.POSITION", &f, &n, &comps) ==
          ORR_ERROR_MALFORMED);
    CHECK(strstr(gltf_err, "meshes[0].primitives[0].attributes.POSITION") != NULL);
    CHECK(orri_gltf_read_floats(&ctx, &doc, 12, 2, "x", &f, &n, &comps) == ORR_ERROR_MALFORMED);
    CHECK(strstr(gltf_err, "accessor 12 does not exist") != NULL);
    orri_gltf_doc_free(&ctx, &doc);
}

TEST(accessor_ranges_are_checked) {
    fill();
    /* element past the view: 84-byte view, accessor at 80 of 3 floats */
    EXPECT_FAIL(GLTF_HEAD
                "\"buffers\":[{\"byteLength\":128,\"uri\":\"@BUF@\"}],\"bufferViews\":[{\"buffer\":0,"
                "\"byteLength\":84}],\"accessors\":[{\"bufferView\":0,\"byteOffset\":80,\"componentType\":5126,"
                "\"count\":1,\"type\":\"VEC3\"}]}",
                buf, sizeof buf, ORR_ERROR_MALFORMED, "accessors[0]: 1 elements of 12 bytes");
    /* view past its buffer */
    EXPECT_FAIL(GLTF_HEAD "\"buffers\":[{\"byteLength\":128,\"uri\":\"@BUF@\"}],\"bufferViews\":[{\"buffer\":0,"
                          "\"byteOffset\":100,\"byteLength\":29}]}",
                buf, sizeof buf, ORR_ERROR_MALFORMED, "bufferViews[0]: bytes 100..129 are outside buffers[0]");
    /* stride smaller than the element */
    EXPECT_FAIL(GLTF_HEAD
                "\"buffers\":[{\"byteLength\":128,\"uri\":\"@BUF@\"}],\"bufferViews\":[{\"buffer\":0,"
                "\"byteLength\":128,\"byteStride\":8}],\"accessors\":[{\"bufferView\":0,\"componentType\":5126,"
                "\"count\":2,\"type\":\"VEC3\"}]}",
                buf, sizeof buf, ORR_ERROR_MALFORMED, "byteStride 8 is smaller");
    /* a huge count is refused before anything is allocated */
    EXPECT_FAIL(GLTF_HEAD "\"accessors\":[{\"componentType\":5126,\"count\":4000000000,\"type\":\"MAT4\"}]}", buf, 0,
                ORR_ERROR_LIMIT_REACHED, "accessors[0].count 4000000000 is over the limit");
    /* sparse index past count */
    uint16_t bad[2] = {0, 9};
    memcpy(buf + 108, bad, 4);
    orri_gltf_doc d;
    orri_gltf_ctx c;
    REQUIRE(parse_ok(doc_json, buf, sizeof buf, &d, &c));
    float *f = NULL;
    uint32_t n, comps;
    CHECK(orri_gltf_read_floats(&c, &d, 9, 2, "x", &f, &n, &comps) == ORR_ERROR_MALFORMED);
    CHECK(strstr(gltf_err, "accessors[9].sparse.indices[1] is past count 3") != NULL);
    orri_gltf_doc_free(&c, &d);
    /* normalized is not allowed on FLOAT */
    EXPECT_FAIL(GLTF_HEAD
                "\"accessors\":[{\"componentType\":5126,\"count\":1,\"type\":\"SCALAR\",\"normalized\":true}]}",
                buf, 0, ORR_ERROR_MALFORMED, "accessors[0].normalized on a FLOAT accessor");
}

int main(int argc, char **argv) { return RUN_TESTS(argc, argv); }
