/* test_gltf_extensions.c — the parse layer's materials, samplers, cameras,
 * lights, instancing, skins and animations (src/gltf/parse_material.c,
 * parse_extra.c, parse_node.c, parse_anim.c): pbrMetallicRoughness with its
 * defaults, KHR_texture_transform with its texCoord override on every slot,
 * KHR_materials_unlit and _emissive_strength, alpha modes, sampler filters
 * and wraps, perspective and orthographic cameras, KHR_lights_punctual,
 * EXT_mesh_gpu_instancing TRS, skins with and without inverse bind
 * matrices, LINEAR / STEP / CUBICSPLINE channels and their key counts. */
#include <math.h>

#include "gltf_test_util.h"

static float buf[64];

static void fill(void) {
    float t[3] = {0, 1, 2};                    /* key times */
    float tr[9] = {0, 0, 0, 1, 0, 0, 2, 0, 0}; /* 3 translations */
    float cubic[27];                           /* 3 keys × (in, value, out) × VEC3 */
    for (int i = 0; i < 27; i++) cubic[i] = (float)i;
    float inst_t[6] = {1, 2, 3, 4, 5, 6}; /* two instances */
    float inst_r[8] = {0, 0, 0, 1, 0, 0.7071068f, 0, 0.7071068f};
    memcpy(buf, t, 12), memcpy(buf + 3, tr, 36), memcpy(buf + 12, cubic, 108), memcpy(buf + 39, inst_t, 24);
    memcpy(buf + 45, inst_r, 32);
}

static const char *json = GLTF_HEAD
    "\"extensionsUsed\":[\"KHR_texture_transform\",\"KHR_materials_unlit\",\"KHR_materials_emissive_strength\","
    "\"KHR_lights_punctual\",\"EXT_mesh_gpu_instancing\"],"
    "\"buffers\":[{\"byteLength\":256,\"uri\":\"@BUF@\"}],"
    "\"bufferViews\":[{\"buffer\":0,\"byteLength\":12},{\"buffer\":0,\"byteOffset\":12,\"byteLength\":36},"
    "{\"buffer\":0,\"byteOffset\":48,\"byteLength\":108},{\"buffer\":0,\"byteOffset\":156,\"byteLength\":24},"
    "{\"buffer\":0,\"byteOffset\":180,\"byteLength\":32}],"
    "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"SCALAR\"},"
    "{\"bufferView\":1,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"},"
    "{\"bufferView\":2,\"componentType\":5126,\"count\":9,\"type\":\"VEC3\"},"
    "{\"bufferView\":3,\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"},"
    "{\"bufferView\":4,\"componentType\":5126,\"count\":2,\"type\":\"VEC4\"}],"
    "\"images\":[{\"uri\":\"a.png\"}],"
    "\"samplers\":[{\"magFilter\":9728,\"minFilter\":9984,\"wrapS\":33071,\"wrapT\":33648},{\"minFilter\":9729},"
    "{\"magFilter\":9729,\"minFilter\":9986}],"
    "\"textures\":[{\"source\":0,\"sampler\":0},{\"source\":0}],"
    "\"materials\":[{},{\"name\":\"full\",\"pbrMetallicRoughness\":{\"baseColorFactor\":[0.5,0.25,1,0.5],"
    "\"metallicFactor\":0.2,\"roughnessFactor\":0.7,\"baseColorTexture\":{\"index\":1,\"extensions\":"
    "{\"KHR_texture_transform\":{\"offset\":[0.5,0.25],\"rotation\":0.3,\"scale\":[2,3],\"texCoord\":1}}},"
    "\"metallicRoughnessTexture\":{\"index\":0,\"texCoord\":1}},"
    "\"normalTexture\":{\"index\":0,\"scale\":0.5},\"occlusionTexture\":{\"index\":0,\"strength\":0.25},"
    "\"emissiveTexture\":{\"index\":1},\"emissiveFactor\":[1,0.5,0],\"alphaMode\":\"MASK\",\"alphaCutoff\":0.3,"
    "\"doubleSided\":true,\"extensions\":{\"KHR_materials_unlit\":{},\"KHR_materials_emissive_strength\":"
    "{\"emissiveStrength\":4}}},{\"alphaMode\":\"BLEND\"}],"
    "\"cameras\":[{\"type\":\"perspective\",\"perspective\":{\"yfov\":0.9,\"znear\":0.1}},"
    "{\"type\":\"orthographic\",\"orthographic\":{\"xmag\":2,\"ymag\":3,\"znear\":0,\"zfar\":9}}],"
    "\"extensions\":{\"KHR_lights_punctual\":{\"lights\":[{\"type\":\"directional\"},{\"type\":\"point\","
    "\"range\":7,\"intensity\":5}]}},"
    "\"nodes\":[{\"children\":[1,2],\"extensions\":{\"EXT_mesh_gpu_instancing\":{\"attributes\":"
    "{\"TRANSLATION\":3,\"ROTATION\":4}}}},{\"camera\":1,\"extensions\":{\"KHR_lights_punctual\":{\"light\":1}}},"
    "{\"skin\":0}],"
    "\"skins\":[{\"joints\":[1,2]}],"
    "\"animations\":[{\"name\":\"a\",\"channels\":[{\"sampler\":0,\"target\":{\"node\":1,\"path\":\"translation\"}},"
    "{\"sampler\":1,\"target\":{\"node\":2,\"path\":\"scale\"}},{\"sampler\":0,\"target\":{\"path\":\"scale\"}}],"
    "\"samplers\":[{\"input\":0,\"output\":1,\"interpolation\":\"STEP\"},{\"input\":0,\"output\":2,"
    "\"interpolation\":\"CUBICSPLINE\"}]}]}";

static orri_gltf_doc doc;
static orri_gltf_ctx ctx;

TEST(materials_and_texture_transform) {
    fill();
    gltf_skip_images = true;
    REQUIRE(parse_ok(json, buf, sizeof buf, &doc, &ctx));
    const orri_gltf_material *d = &doc.materials[0], *m = &doc.materials[1];
    CHECK(d->base_color[0] == 1 && d->base_color[3] == 1 && d->metallic == 1 && d->roughness == 1);
    CHECK(d->base_tex.texture == -1 && d->alpha_mode == ORRI_GLTF_OPAQUE && d->alpha_cutoff == 0.5 && !d->unlit);
    CHECK(d->emissive_strength == 1 && !d->double_sided);
    CHECK(strcmp(m->name, "full") == 0 && m->base_color[1] == 0.25 && m->metallic == 0.2 && m->roughness == 0.7);
    const orri_gltf_texref *b = &m->base_tex;
    CHECK(b->texture == 1 && b->uv_set == 1 && b->offset[0] == 0.5 && b->offset[1] == 0.25 && b->rotation == 0.3);
    CHECK(b->scale[0] == 2 && b->scale[1] == 3);
    CHECK(m->mr_tex.texture == 0 && m->mr_tex.uv_set == 1 && m->mr_tex.scale[0] == 1);
    CHECK(m->normal_tex.scalar == 0.5 && m->occlusion_tex.scalar == 0.25 && m->emissive_tex.texture == 1);
    CHECK(m->emissive[0] == 1 && m->emissive[1] == 0.5 && m->emissive_strength == 4);
    CHECK(m->alpha_mode == ORRI_GLTF_MASK && m->alpha_cutoff == 0.3 && m->double_sided && m->unlit);
    CHECK(doc.materials[2].alpha_mode == ORRI_GLTF_BLEND);
    const orri_gltf_sampler *s0 = &doc.samplers[0], *s1 = &doc.samplers[1];
    CHECK(s0->desc.filter == ORR_FILTER_NEAREST && s0->desc.mip_filter == ORR_FILTER_NEAREST && s0->mips);
    CHECK(s0->desc.wrap_u == ORR_WRAP_CLAMP && s0->desc.wrap_v == ORR_WRAP_MIRROR);
    CHECK(s1->desc.filter == ORR_FILTER_LINEAR && !s1->mips && s1->desc.wrap_u == ORR_WRAP_REPEAT);
    CHECK(s0->desc.min_filter == ORR_FILTER_NEAREST && s1->desc.min_filter == ORR_FILTER_LINEAR);
    /* NEAREST_MIPMAP_LINEAR under a LINEAR magFilter: nearest inside a level, linear between levels */
    const orri_gltf_sampler *s2 = &doc.samplers[2];
    CHECK(s2->desc.filter == ORR_FILTER_LINEAR && s2->desc.min_filter == ORR_FILTER_NEAREST &&
          s2->desc.mip_filter == ORR_FILTER_LINEAR && s2->mips);
    CHECK(doc.textures[0].sampler == 0 && doc.textures[1].sampler == -1 && doc.textures[1].image == 0);
    orri_gltf_doc_free(&ctx, &doc);
}

TEST(cameras_lights_instancing) {
    fill();
    gltf_skip_images = true;
    REQUIRE(parse_ok(json, buf, sizeof buf, &doc, &ctx));
    CHECK(doc.cameras[0].type == ORRI_GLTF_PERSPECTIVE && doc.cameras[0].yfov == 0.9 && doc.cameras[0].zfar == 0);
    CHECK(doc.cameras[1].type == ORRI_GLTF_ORTHOGRAPHIC && doc.cameras[1].ymag == 3 && doc.cameras[1].zfar == 9);
    CHECK(doc.lights[0].type == ORRI_GLTF_DIRECTIONAL && doc.lights[0].intensity == 1 && doc.lights[0].range == 0);
    CHECK(doc.lights[1].type == ORRI_GLTF_POINT && doc.lights[1].range == 7 && doc.lights[1].intensity == 5);
    CHECK(doc.nodes[1].camera == 1 && doc.nodes[1].light == 1 && doc.nodes[1].parent == 0);
    const orri_gltf_node *n = &doc.nodes[0];
    REQUIRE(n->instance_count == 2);
    CHECK(n->instances[12] == 1 && n->instances[13] == 2 && n->instances[14] == 3 && n->instances[0] == 1);
    /* instance 1: 90° about Y maps +X to −Z (column 0 = (0, 0, −1)) */
    CHECK(n->instances[16 + 12] == 4);
    CHECK_NEAR(n->instances[16 + 0], 0, 1e-6);
    CHECK_NEAR(n->instances[16 + 2], -1, 1e-6);
    orri_gltf_doc_free(&ctx, &doc);
}

TEST(skins_and_animations) {
    fill();
    gltf_skip_images = true;
    REQUIRE(parse_ok(json, buf, sizeof buf, &doc, &ctx));
    const orri_gltf_skin *s = &doc.skins[0];
    CHECK(s->joint_count == 2 && s->joints[1] == 2 && s->inverse_bind[0] == 1 && s->inverse_bind[16 + 15] == 1);
    CHECK(s->inverse_bind[1] == 0 && doc.nodes[2].skin == 0);
    const orri_gltf_animation *a = &doc.animations[0];
    REQUIRE(a->channel_count == 2); /* the channel without a node is skipped */
    CHECK(a->channels[0].interpolation == ORRI_GLTF_STEP && a->channels[0].path == ORRI_GLTF_T);
    CHECK(a->channels[0].key_count == 3 && a->channels[0].values[6] == 2 && a->channels[0].comps == 3);
    CHECK(a->channels[1].interpolation == ORRI_GLTF_CUBIC && a->channels[1].path == ORRI_GLTF_S);
    CHECK(a->channels[1].key_count == 3 && a->channels[1].values[26] == 26);
    orri_gltf_doc_free(&ctx, &doc);
    /* CUBICSPLINE needs 3 values per key: the 3-value translation output refused */
    char *bad = malloc(strlen(json) + 1);
    strcpy(bad, json);
    char *at = strstr(bad, "\"output\":2");
    at[9] = '1';
    EXPECT_FAIL(bad, buf, sizeof buf, ORR_ERROR_MALFORMED,
                "animations[0].samplers[1].output has 3 values for 3 keys (CUBICSPLINE: 3 per key)");
    free(bad);
}

int main(int argc, char **argv) { return RUN_TESTS(argc, argv); }
