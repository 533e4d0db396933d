/* test_gltf_models.c — every sample model of assets/gltf/ through the parse
 * layer (no GPU): the counts the files declare (nodes, meshes, primitives,
 * materials, textures, images, skins, animations), decoded images, vertex
 * data that holds together (indices below the vertex count, unit normals),
 * the node hierarchy, and what each model is there to test (Box's matrix,
 * SimpleInstancing's 125 instances, NormalTangentTest's generated tangents,
 * RiggedSimple's and Fox's skins and clips). */
#include <math.h>

#include "gltf_test_util.h"
#include "image_assets.h"

typedef struct model {
    const char *file;
    uint32_t nodes, meshes, prims, materials, textures, images, skins, animations;
} model;

static const model models[] = {
    {"Box/Box.gltf", 2, 1, 1, 1, 0, 0, 0, 0},
    {"Box/Box.glb", 2, 1, 1, 1, 0, 0, 0, 0},
    {"BoxTextured/BoxTextured.gltf", 2, 1, 1, 1, 1, 1, 0, 0},
    {"BoxTextured/BoxTextured.glb", 2, 1, 1, 1, 1, 1, 0, 0},
    {"BoxVertexColors/BoxVertexColors.glb", 4, 1, 1, 1, 0, 0, 0, 0},
    {"Fox/Fox.glb", 26, 1, 1, 1, 1, 1, 1, 3},
    {"NormalTangentTest/NormalTangentTest.glb", 2, 1, 1, 1, 3, 3, 0, 0},
    {"RiggedSimple/RiggedSimple.glb", 5, 1, 1, 1, 0, 0, 1, 1},
    {"SimpleInstancing/SimpleInstancing.glb", 1, 1, 1, 0, 0, 0, 0, 0},
    {"TextureCoordinateTest/TextureCoordinateTest.gltf", 6, 5, 5, 5, 1, 1, 0, 0},
    {"TextureSettingsTest/TextureSettingsTest.glb", 11, 10, 10, 10, 9, 3, 0, 0},
    {"WaterBottle/WaterBottle.gltf", 1, 1, 1, 1, 4, 4, 0, 0},
};

static orr_result load(const char *rel, orri_gltf_doc *doc, orri_gltf_ctx *c) {
    char dir[512];
    snprintf(dir, sizeof dir, "%s", orr_test_asset_path(rel));
    *strrchr(dir, '/') = 0;
    asset a = asset_read(rel);
    char rel_path[256];
    snprintf(rel_path, sizeof rel_path, "gltf/%s", rel);
    orri_gltf_ctx_init(c, NULL, NULL, gltf_err, sizeof gltf_err, rel, dir, 0);
    orr_result r = orri_gltf_parse(c, a.data, a.size, doc);
    if (r != ORR_OK) fprintf(stderr, "  %s: %s\n", rel, gltf_err);
    asset_free(&a);
    return r;
}

static void check_geometry(const orr_geometry *g) {
    CHECK(g->vertex_count > 0 && g->index_count % 3 == 0 && g->normals);
    uint32_t bad = 0;
    for (uint32_t i = 0; i < g->index_count; i++) bad += g->indices[i] >= g->vertex_count;
    for (uint32_t v = 0; v < g->vertex_count; v++) {
        const float *n = g->normals + v * 3;
        bad += fabs(sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]) - 1) > 1e-3;
    }
    CHECK(bad == 0);
}

TEST(every_sample_model_parses_with_its_counts) {
    for (size_t i = 0; i < sizeof models / sizeof models[0]; i++) {
        const model *m = &models[i];
        char rel[256];
        snprintf(rel, sizeof rel, "gltf/%s", m->file);
        orri_gltf_doc d;
        orri_gltf_ctx c;
        if (load(rel, &d, &c) != ORR_OK) {
            CHECK(!"model parses");
            continue;
        }
        uint32_t prims = 0;
        for (uint32_t k = 0; k < d.mesh_count; k++) {
            prims += d.meshes[k].prim_count;
            for (uint32_t p = 0; p < d.meshes[k].prim_count; p++) check_geometry(&d.meshes[k].prims[p].geometry);
        }
        CHECK(d.node_count == m->nodes && d.mesh_count == m->meshes && prims == m->prims);
        CHECK(d.material_count == m->materials && d.texture_count == m->textures && d.image_count == m->images);
        CHECK(d.skin_count == m->skins && d.animation_count == m->animations);
        for (uint32_t k = 0; k < d.image_count; k++) CHECK(d.images[k].image.pixels && d.images[k].image.width > 0);
        if (d.node_count != m->nodes || prims != m->prims) fprintf(stderr, "  counts of %s\n", m->file);
        orri_gltf_doc_free(&c, &d);
    }
}

TEST(box_matrix_node_and_material) {
    orri_gltf_doc d;
    orri_gltf_ctx c;
    REQUIRE(load("gltf/Box/Box.gltf", &d, &c) == ORR_OK);
    /* nodes[0] has the Z-up → Y-up matrix: a rotation of −90° about X, no translation, unit scale */
    const orri_gltf_node *n = &d.nodes[0];
    CHECK(n->has_matrix && n->child_count == 1 && d.nodes[1].parent == 0);
    CHECK_NEAR(fabs(n->rotation[0]), sqrt(0.5), 1e-9);
    CHECK_NEAR(fabs(n->rotation[3]), sqrt(0.5), 1e-9);
    CHECK_NEAR(n->scale[0], 1, 1e-12);
    CHECK_NEAR(n->translation[1], 0, 1e-12);
    CHECK(d.scene_root_count == 1 && d.scene_roots[0] == 0);
    const orr_geometry *g = &d.meshes[0].prims[0].geometry;
    CHECK(g->vertex_count == 24 && g->index_count == 36 && !g->uvs);
    CHECK_NEAR(d.materials[0].base_color[0], 0.8, 1e-6);
    CHECK(d.materials[0].metallic == 0.0 && d.materials[0].alpha_mode == ORRI_GLTF_OPAQUE);
    orri_gltf_doc_free(&c, &d);
}

TEST(instancing_tangents_skins_and_clips) {
    orri_gltf_doc d;
    orri_gltf_ctx c;
    REQUIRE(load("gltf/SimpleInstancing/SimpleInstancing.glb", &d, &c) == ORR_OK);
    CHECK(d.nodes[0].instance_count == 125);
    float tmax = 0;
    for (uint32_t i = 0; i < d.nodes[0].instance_count; i++) tmax = fmaxf(tmax, d.nodes[0].instances[i * 16 + 12]);
    CHECK_NEAR(tmax, 10, 1e-4); /* TRANSLATION runs 0..10 */
    orri_gltf_doc_free(&c, &d);

    REQUIRE(load("gltf/NormalTangentTest/NormalTangentTest.glb", &d, &c) == ORR_OK);
    const orr_geometry *g = &d.meshes[0].prims[0].geometry;
    CHECK(d.materials[0].normal_tex.texture >= 0 && g->tangents != NULL); /* generated: the file has no TANGENT */
    uint32_t bad = 0;
    for (uint32_t v = 0; g->tangents && v < g->vertex_count; v++) {
        const float *t = g->tangents + v * 4, *nn = g->normals + v * 3;
        bad += fabs(t[0] * nn[0] + t[1] * nn[1] + t[2] * nn[2]) > 1e-4 || fabs(fabs(t[3]) - 1) > 0;
    }
    CHECK(bad == 0);
    orri_gltf_doc_free(&c, &d);

    REQUIRE(load("gltf/Fox/Fox.glb", &d, &c) == ORR_OK);
    CHECK(d.skins[0].joint_count == 24 && d.meshes[0].prims[0].geometry.joints &&
          d.meshes[0].prims[0].geometry.weights);
    CHECK(strcmp(d.animations[0].name, "Survey") == 0 && strcmp(d.animations[2].name, "Run") == 0);
    const orri_gltf_channel *ch = &d.animations[1].channels[0];
    CHECK(ch->key_count > 1 && ch->times[ch->key_count - 1] > ch->times[0]);
    orri_gltf_doc_free(&c, &d);

    REQUIRE(load("gltf/RiggedSimple/RiggedSimple.glb", &d, &c) == ORR_OK);
    CHECK(d.skins[0].joint_count == 2 && d.animations[0].channel_count > 0);
    orri_gltf_doc_free(&c, &d);
}

int main(int argc, char **argv) {
    orr_test_require_assets();
    return RUN_TESTS(argc, argv);
}
