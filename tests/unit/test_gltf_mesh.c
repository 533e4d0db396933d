/* test_gltf_mesh.c — primitives into geometry (src/gltf/parse_prim.c,
 * parse_tangent.c): triangle strips and fans with the spec's vertex order,
 * flat normals by unwelding when NORMAL is missing, generated tangents
 * under a normal map (direction and handedness sign), KHR_mesh_quantization
 * (SHORT positions, normalized BYTE normals), COLOR_0 vec3 normalized,
 * JOINTS_0 / WEIGHTS_0, morph targets, points skipped, indices range. */
#include <math.h>

#include "gltf_test_util.h"

static uint8_t buf[336];

static void fill(bool mirror_u) {
    float pos[12] = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0}, nrm[12], uv[8] = {0, 1, 1, 1, 1, 0, 0, 0};
    for (int i = 0; i < 4; i++) nrm[i * 3] = 0, nrm[i * 3 + 1] = 0, nrm[i * 3 + 2] = 1;
    if (mirror_u)
        for (int i = 0; i < 4; i++) uv[i * 2] = 1 - uv[i * 2];
    uint16_t strip[4] = {0, 1, 3, 2}, fan[4] = {0, 1, 2, 3};
    memset(buf, 0, sizeof buf);
    memcpy(buf, pos, 48), memcpy(buf + 48, nrm, 48), memcpy(buf + 96, uv, 32);
    memcpy(buf + 128, strip, 8), memcpy(buf + 136, fan, 8);
    int16_t q[4][4] = {{0, 0, 0}, {2, 0, 0}, {0, 2, 0}, {2, 2, 0}}; /* stride 8 */
    memcpy(buf + 144, q, 32);
    int8_t qn[4][4] = {{0, 0, 127}, {0, 0, 127}, {0, 0, 127}, {0, 0, 127}};
    memcpy(buf + 176, qn, 16);
    uint8_t col[4][4] = {{255, 0, 0}, {0, 255, 0}, {0, 0, 255}, {51, 51, 51}};
    memcpy(buf + 192, col, 16);
    uint8_t joints[16] = {0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0};
    memcpy(buf + 208, joints, 16);
    float w[16] = {0.5f, 0.5f, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0.25f, 0.75f, 0, 0};
    memcpy(buf + 224, w, 64);
    float morph[12] = {0, 0, 1, 0, 0, 2, 0, 0, 3, 0, 0, 4};
    memcpy(buf + 288, morph, 48);
}

#define VIEW(o, n) "{\"buffer\":0,\"byteOffset\":" #o ",\"byteLength\":" #n "}"
#define VIEWS(o, n, s) "{\"buffer\":0,\"byteOffset\":" #o ",\"byteLength\":" #n ",\"byteStride\":" #s "}"
#define ACC(v, ct, n, t) "{\"bufferView\":" #v ",\"componentType\":" #ct ",\"count\":" #n ",\"type\":\"" t "\"}"
#define ACCN(v, ct, n, t) \
    "{\"bufferView\":" #v ",\"componentType\":" #ct ",\"count\":" #n ",\"type\":\"" t "\",\"normalized\":true}"

static const char *json = GLTF_HEAD
    "\"extensionsUsed\":[\"KHR_mesh_quantization\"],\"extensionsRequired\":[\"KHR_mesh_quantization\"],"
    "\"buffers\":[{\"byteLength\":336,\"uri\":\"@BUF@\"}],\"bufferViews\":[" VIEW(0, 48) "," VIEW(48, 48) "," VIEW(96, 32) "," VIEW(128, 8) "," VIEW(136, 8) "," VIEWS(144, 32, 8) "," VIEWS(
        176, 16,
        4) "," VIEWS(192, 16,
                     4) "," VIEW(208,
                                 16) "," VIEW(224,
                                              64) "," VIEW(288,
                                                           48) "],"
                                                               "\"accessors\":[" ACC(0, 5126, 4, "VEC3") "," ACC(1, 5126, 4, "VEC3") "," ACC(2, 5126, 4, "VEC2") "," ACC(
                                                                   3, 5123, 4,
                                                                   "SCALAR") "," ACC(4, 5123, 4,
                                                                                     "SCALAR") "," ACC(5, 5122, 4,
                                                                                                       "VEC3") "," ACCN(6,
                                                                                                                        5120,
                                                                                                                        4,
                                                                                                                        "VEC3") "," ACCN(7,
                                                                                                                                         5121,
                                                                                                                                         4,
                                                                                                                                         "VEC3") "," ACC(8,
                                                                                                                                                         5121,
                                                                                                                                                         4,
                                                                                                                                                         "VEC4") "," ACC(9,
                                                                                                                                                                         5126,
                                                                                                                                                                         4, "VEC4") "," ACC(10, 5126, 4, "VEC3") "],"
                                                                                                                                                                                                                 "\"images\":[{\"uri\":\"normal.png\"}],\"textures\":[{\"source\":0}],"
                                                                                                                                                                                                                 "\"materials\":[{\"normalTexture\":{\"index\":0}}],"
                                                                                                                                                                                                                 "\"meshes\":["
                                                                                                                                                                                                                 "{\"primitives\":[{\"attributes\":{\"POSITION\":0},\"indices\":3,\"mode\":5}]},"
                                                                                                                                                                                                                 "{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"NORMAL\":1},\"indices\":4,\"mode\":6}]},"
                                                                                                                                                                                                                 "{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"NORMAL\":1,\"TEXCOORD_0\":2},\"indices\":3,\"mode\":5,"
                                                                                                                                                                                                                 "\"material\":0}]},"
                                                                                                                                                                                                                 "{\"primitives\":[{\"attributes\":{\"POSITION\":5,\"NORMAL\":6,\"COLOR_0\":7,\"JOINTS_0\":8,\"WEIGHTS_0\":9},"
                                                                                                                                                                                                                 "\"targets\":[{\"POSITION\":10}]}],\"weights\":[0.5]},"
                                                                                                                                                                                                                 "{\"primitives\":[{\"attributes\":{\"POSITION\":0},\"mode\":0}]}"
                                                                                                                                                                                                                 "]}";

static orri_gltf_doc doc;
static orri_gltf_ctx ctx;

TEST(strips_and_fans_in_spec_order_then_rewound) {
    fill(false);
    gltf_skip_images = true;
    REQUIRE(parse_ok(json, buf, sizeof buf, &doc, &ctx));
    const orr_geometry *fan = &doc.meshes[1].prims[0].geometry;
    REQUIRE(fan->index_count == 6);
    uint32_t want_fan[6] = {1, 0, 2, 2, 0, 3}; /* {1, 2, 0}, {2, 3, 0} rewound for Orrery: last two swapped */
    for (int i = 0; i < 6; i++) CHECK(fan->indices[i] == want_fan[i]);
    /* strip 0 1 3 2: {0, 1, 3} and {1, 2, 3} (spec order), unwelded by the flat normals */
    const orr_geometry *strip = &doc.meshes[0].prims[0].geometry;
    REQUIRE(strip->vertex_count == 6 && strip->index_count == 6 && strip->normals);
    const float *p = strip->positions;
    CHECK(p[3 * 3 + 0] == 1 && p[3 * 3 + 1] == 0);                        /* second triangle starts at vertex 1 */
    CHECK(p[4 * 3 + 0] == 1 && p[4 * 3 + 1] == 1);                        /* then vertex 2 */
    for (int v = 0; v < 6; v++) CHECK(strip->normals[v * 3 + 2] == 1.0f); /* counter-clockwise seen from +Z */
    orri_gltf_doc_free(&ctx, &doc);
}

static void tangent_case(bool mirror_u, float want_x, float want_w) {
    fill(mirror_u);
    gltf_skip_images = true;
    REQUIRE(parse_ok(json, buf, sizeof buf, &doc, &ctx));
    const orr_geometry *g = &doc.meshes[2].prims[0].geometry;
    REQUIRE(g->tangents != NULL && g->vertex_count == 4);
    for (uint32_t v = 0; v < 4; v++) {
        CHECK_NEAR(g->tangents[v * 4 + 0], want_x, 1e-6);
        CHECK_NEAR(g->tangents[v * 4 + 1], 0, 1e-6);
        CHECK(g->tangents[v * 4 + 3] == want_w);
    }
    CHECK(doc.meshes[1].prims[0].geometry.tangents == NULL); /* no normal map: none made */
    orri_gltf_doc_free(&ctx, &doc);
}

/* u along +X, v down the image (top at +Y): T = +X, bitangent cross(N, T)·w = +Y up the image: w = +1.
 * Mirrored u: T = −X and cross(N, T) = −Y points down the image: w = −1. */
TEST(generated_tangents_follow_uv_and_handedness) {
    tangent_case(false, 1, 1);
    tangent_case(true, -1, -1);
}

TEST(quantized_colours_skin_morph_and_points) {
    fill(false);
    gltf_skip_images = true;
    REQUIRE(parse_ok(json, buf, sizeof buf, &doc, &ctx));
    const orr_geometry *g = &doc.meshes[3].prims[0].geometry;
    REQUIRE(g->vertex_count == 4 && g->index_count == 3);      /* 4 unindexed vertices: one whole triangle */
    CHECK(g->positions[3] == 2.0f && g->positions[7] == 2.0f); /* SHORT values as they are */
    CHECK(g->normals[2] == 1.0f);                              /* BYTE 127 normalized */
    CHECK(g->colors[0] == 1.0f && g->colors[3] == 1.0f && g->colors[5] == 1.0f);
    CHECK_NEAR(g->colors[12], 0.2, 1e-6);
    CHECK(g->joints[1] == 1 && g->joints[12] == 1 && g->weights[13] == 0.75f);
    CHECK(g->morph_count == 1 && g->morph_positions[2] == 1.0f && g->morph_positions[11] == 4.0f);
    CHECK(doc.meshes[3].weight_count == 1 && doc.meshes[3].weights[0] == 0.5f);
    CHECK(doc.meshes[4].prims[0].geometry.vertex_count == 0); /* POINTS: skipped */
    orri_gltf_doc_free(&ctx, &doc);
}

TEST(index_out_of_range_names_the_path) {
    fill(false);
    uint16_t bad[4] = {0, 1, 7, 2};
    memcpy(buf + 128, bad, 8);
    gltf_skip_images = true;
    EXPECT_FAIL(json, buf, sizeof buf, ORR_ERROR_MALFORMED,
                "test.gltf: meshes[0].primitives[0].indices[2] = 7 is not below the vertex count 4");
}

/* A skinned node whose primitive uses joint 1 of a one-joint skin: refused at
 * parse time (orr_mesh_set_skin would refuse it later). */
TEST(joint_index_past_the_skin_is_refused) {
    fill(false);
    gltf_skip_images = true;
    size_t n = strlen(json);
    char *bad = malloc(n + 128);
    memcpy(bad, json, n - 1); /* without the closing brace */
    strcpy(bad + n - 1, ",\"nodes\":[{\"mesh\":3,\"skin\":0},{}],\"skins\":[{\"joints\":[1]}]}");
    EXPECT_FAIL(bad, buf, sizeof buf, ORR_ERROR_MALFORMED,
                "meshes[3].primitives[0].attributes.JOINTS_0[0] = 1, skins[0] (nodes[0]) has 1 joints");
    strcpy(bad + n - 1, ",\"nodes\":[{\"mesh\":3,\"skin\":0},{}],\"skins\":[{\"joints\":[1,0]}]}");
    orri_gltf_doc d;
    orri_gltf_ctx c;
    CHECK(parse_ok(bad, buf, sizeof buf, &d, &c)); /* two joints: fine */
    orri_gltf_doc_free(&c, &d);
    free(bad);
}

int main(int argc, char **argv) { return RUN_TESTS(argc, argv); }
