/* test_gltf_malformed.c — malformed input is refused with a clear message
 * (the file, the JSON path, the byte for GLB) and nothing kept: the files of
 * tests/data/gltf/ (cycles, two parents, out-of-range children, bad base64,
 * URIs leaving the folder, missing buffers, truncated GLBs, a required
 * extension) and inline cases (huge arrays, the decode budget, bad JSON,
 * asset versions). Leaks are the ASan build's to find. */
#include "gltf_test_util.h"
#include "image_assets.h"

static orr_result load_data(const char *name, orri_gltf_doc *doc, size_t max_bytes) {
    char rel[128], dir[512];
    snprintf(rel, sizeof rel, "gltf/%s", name);
    snprintf(dir, sizeof dir, "%s", orr_test_data_path(rel));
    *strrchr(dir, '/') = 0;
    FILE *f = fopen(orr_test_data_path(rel), "rb");
    if (!f) return ORR_ERROR_IO;
    uint8_t *data = malloc(65536);
    size_t n = fread(data, 1, 65536, f);
    fclose(f);
    uint8_t *exact = exact_copy(data, n);
    free(data);
    orri_gltf_ctx c;
    orri_gltf_ctx_init(&c, NULL, NULL, gltf_err, sizeof gltf_err, name, dir, max_bytes);
    orr_result r = orri_gltf_parse(&c, exact, n, doc);
    free(exact);
    if (r == ORR_OK) orri_gltf_doc_free(&c, doc);
    return r;
}

static void expect(const char *name, orr_result want, const char *needle) {
    orri_gltf_doc doc;
    orr_result r = load_data(name, &doc, 0);
    if (r != want || !strstr(gltf_err, needle)) fprintf(stderr, "  %s: %d, \"%s\"\n", name, r, gltf_err);
    CHECK(r == want);
    CHECK(strstr(gltf_err, needle) != NULL);
    CHECK(strncmp(gltf_err, name, strlen(name)) == 0); /* the message starts with the file */
    CHECK(doc.nodes == NULL && doc.buffers == NULL);
}

TEST(malformed_files_name_file_path_and_byte) {
    expect("cycle.gltf", ORR_ERROR_MALFORMED, "the hierarchy has a cycle");
    expect("two_parents.gltf", ORR_ERROR_MALFORMED, "nodes[1].children[0]: node 2 already has a parent (node 0)");
    expect("bad_child.gltf", ORR_ERROR_MALFORMED, "nodes[0].children[0] is not a node index");
    expect("bad_base64.gltf", ORR_ERROR_MALFORMED, "buffers[0].uri: malformed base64");
    expect("escape.gltf", ORR_ERROR_UNSUPPORTED, "buffers[0].uri \"../escape.bin\": '..' leaves the model's folder");
    expect("missing_file.gltf", ORR_ERROR_IO, "buffers[0].uri: cannot open");
    expect("no_uri.gltf", ORR_ERROR_MALFORMED, "buffers[0] has no uri and is not the GLB's BIN chunk");
    expect("required_ext.gltf", ORR_ERROR_UNSUPPORTED, "extensionsRequired[0] \"KHR_draco_mesh_compression\"");
    expect("truncated.glb", ORR_ERROR_MALFORMED, "GLB header (byte 8) claims 1664 bytes, the file has 1000");
    expect("chunk_overrun.glb", ORR_ERROR_MALFORMED, "GLB chunk 0 at byte 12 claims 100000 bytes");
}

/* Control: an external buffer beside the file (percent-encoded URI) loads. */
TEST(external_buffer_beside_the_file) {
    orri_gltf_doc doc;
    char rel[64] = "gltf/external.gltf", dir[512];
    snprintf(dir, sizeof dir, "%s", orr_test_data_path(rel));
    *strrchr(dir, '/') = 0;
    FILE *f = fopen(orr_test_data_path(rel), "rb");
    REQUIRE(f);
    uint8_t data[4096];
    size_t n = fread(data, 1, sizeof data, f);
    fclose(f);
    orri_gltf_ctx c;
    orri_gltf_ctx_init(&c, NULL, NULL, gltf_err, sizeof gltf_err, "external.gltf", dir, 0);
    REQUIRE(orri_gltf_parse(&c, data, n, &doc) == ORR_OK);
    const orr_geometry *g = &doc.meshes[0].prims[0].geometry;
    CHECK(g->vertex_count == 3 && g->positions[3] == 1.0f && g->normals[2] == 1.0f); /* flat normal +Z */
    orri_gltf_doc_free(&c, &doc);
}

TEST(inline_malformed_cases) {
    uint8_t b[8] = {0};
    EXPECT_FAIL("{\"asset\":{\"version\":\"2.0\"},\"nodes\":[", b, 0, ORR_ERROR_MALFORMED, "JSON does not parse");
    EXPECT_FAIL("[1, 2]", b, 0, ORR_ERROR_MALFORMED, "the JSON is not an object");
    EXPECT_FAIL("{\"asset\":{\"version\":\"1.0\"}}", b, 0, ORR_ERROR_UNSUPPORTED, "asset.version \"1.0\"");
    EXPECT_FAIL("{\"nodes\":[]}", b, 0, ORR_ERROR_MALFORMED, "asset.version is missing");
    EXPECT_FAIL(GLTF_HEAD "\"buffers\":[{\"byteLength\":16,\"uri\":\"@BUF@\"}]}", b, 8, ORR_ERROR_MALFORMED,
                "buffers[0].byteLength 16 exceeds the 8 bytes of its uri");
    EXPECT_FAIL(GLTF_HEAD "\"buffers\":[{\"byteLength\":8,\"uri\":\"/etc/passwd\"}]}", b, 0, ORR_ERROR_UNSUPPORTED,
                "an external file, and no base folder");
    EXPECT_FAIL(GLTF_HEAD "\"nodes\":[{\"mesh\":0}]}", b, 0, ORR_ERROR_MALFORMED,
                "nodes[0].mesh is not an integer in [0, -1]");
    EXPECT_FAIL(GLTF_HEAD "\"nodes\":[{\"children\":[0]}]}", b, 0, ORR_ERROR_MALFORMED, "node 0 already has a parent");
    EXPECT_FAIL(GLTF_HEAD "\"nodes\":[{\"rotation\":[0,0,0,0]}]}", b, 0, ORR_ERROR_MALFORMED,
                "nodes[0].rotation is not a unit quaternion");
    EXPECT_FAIL(GLTF_HEAD "\"meshes\":[{\"primitives\":[{\"attributes\":{}}]}]}", b, 0, ORR_ERROR_MALFORMED,
                "meshes[0].primitives[0].attributes.POSITION is missing");
    EXPECT_FAIL(GLTF_HEAD "\"scenes\":[{\"nodes\":[0]}],\"scene\":1,\"nodes\":[{}]}", b, 0, ORR_ERROR_MALFORMED,
                "scene is not an integer in [0, 0]");
}

/* Found by test_gltf_scene's mutants: a scene without "nodes" (valid: an empty scene). */
TEST(scene_without_nodes_is_empty) {
    orri_gltf_doc d;
    orri_gltf_ctx c;
    REQUIRE(parse_ok(GLTF_HEAD "\"scenes\":[{}],\"nodes\":[{}]}", "", 0, &d, &c));
    CHECK(d.scene_root_count == 0 && d.node_count == 1);
    orri_gltf_doc_free(&c, &d);
}

TEST(huge_arrays_and_the_budget_are_refused) {
    /* 70 000 nodes: over ORRI_GLTF_MAX_ITEMS before anything is allocated per node */
    size_t n = 70000;
    char *json = malloc(n * 3 + 64), *p = json;
    p += sprintf(p, GLTF_HEAD "\"nodes\":[");
    for (size_t i = 0; i < n; i++) p += sprintf(p, i ? ",{}" : "{}");
    sprintf(p, "]}");
    EXPECT_FAIL(json, "", 0, ORR_ERROR_LIMIT_REACHED, "nodes has 70000 items, over the limit of 65536");
    free(json);
    /* an accessor of 16 Mi MAT4 zeros (no bufferView) asks more than a small budget */
    const char *zeros = GLTF_HEAD "\"accessors\":[{\"componentType\":5126,\"count\":16777216,\"type\":\"MAT4\"}],"
                                  "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0}}]}]}";
    EXPECT_FAIL(zeros, "", 0, ORR_ERROR_MALFORMED, "accessors[0] has 16 components");
    const char *big = GLTF_HEAD "\"accessors\":[{\"componentType\":5126,\"count\":16777216,\"type\":\"VEC3\"}],"
                                "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0}}]}]}";
    orri_gltf_doc d;
    orri_gltf_ctx c;
    orri_gltf_ctx_init(&c, NULL, NULL, gltf_err, sizeof gltf_err, "big.gltf", NULL, 64u << 20);
    CHECK(orri_gltf_parse(&c, (const uint8_t *)big, strlen(big), &d) == ORR_ERROR_LIMIT_REACHED);
    CHECK(strstr(gltf_err, "meshes[0].primitives[0].attributes.POSITION") != NULL);
    CHECK(strstr(gltf_err, "exceed the decode budget of 67108864 bytes") != NULL);
}

int main(int argc, char **argv) { return RUN_TESTS(argc, argv); }
