/* parse_doc.c — the parse layer's entry: .gltf (JSON) or .glb bytes into an
 * orri_gltf_doc, in dependency order (buffers → views → accessors → images
 * → samplers/textures → materials → meshes → cameras, lights → skins → nodes
 * and the scene → animations), and its release. asset.version must be 2.x;
 * an extensionsRequired entry the loader does not implement is refused
 * (UNSUPPORTED), as the spec asks. */
#include <cJSON.h>
#include <stdio.h>
#include <string.h>

#include "gltf_int.h"
#include "orrery/handedness.h"

static const char *const supported[] = {"KHR_mesh_quantization", "KHR_texture_transform",
                                        "KHR_materials_unlit",   "KHR_materials_emissive_strength",
                                        "KHR_lights_punctual",   "EXT_mesh_gpu_instancing"};

static orr_result check_asset(orri_gltf_ctx *c, const cJSON *root) {
    if (!cJSON_IsObject(root)) return orri_gltf_fail(c, ORR_ERROR_MALFORMED, "the JSON is not an object");
    const char *v = orri_json_str(orri_json_member(root, "asset"), "version");
    if (!v) return orri_gltf_fail(c, ORR_ERROR_MALFORMED, "asset.version is missing");
    if (v[0] != '2' || (v[1] != '.' && v[1] != 0))
        return orri_gltf_fail(c, ORR_ERROR_UNSUPPORTED, "asset.version \"%.16s\" (only 2.x)", v);
    int64_t n = orri_json_array(c, root, "extensionsRequired", "");
    if (n < 0) return orr_last_result();
    uint32_t i = 0;
    for (const cJSON *e = n ? orri_json_member(root, "extensionsRequired")->child : NULL; e; e = e->next, i++) {
        bool ok = false;
        for (size_t k = 0; cJSON_IsString(e) && k < sizeof supported / sizeof supported[0]; k++)
            ok = ok || strcmp(e->valuestring, supported[k]) == 0;
        if (!ok)
            return orri_gltf_fail(c, ORR_ERROR_UNSUPPORTED, "extensionsRequired[%u] \"%.64s\" is not supported", i,
                                  cJSON_IsString(e) ? e->valuestring : "?");
    }
    return ORR_OK;
}

static orr_result parse_json(orri_gltf_ctx *c, const cJSON *root, orri_gltf_doc *doc) {
    orr_result r = check_asset(c, root);
    if (r == ORR_OK) r = orri_gltf_parse_buffers(c, root, doc);
    if (r == ORR_OK) r = orri_gltf_parse_views(c, root, doc);
    if (r == ORR_OK) r = orri_gltf_parse_accessors(c, root, doc);
    if (r == ORR_OK) r = orri_gltf_parse_images(c, root, doc);
    if (r == ORR_OK) r = orri_gltf_parse_textures(c, root, doc);
    if (r == ORR_OK) r = orri_gltf_parse_materials(c, root, doc);
    if (r == ORR_OK) r = orri_gltf_parse_meshes(c, root, doc);
    if (r == ORR_OK) r = orri_gltf_parse_cameras(c, root, doc);
    if (r == ORR_OK) r = orri_gltf_parse_lights(c, root, doc);
    if (r == ORR_OK) {
        int64_t n = orri_json_array(c, root, "nodes", ""); /* skins refer to nodes by index */
        doc->node_count = n > 0 ? (uint32_t)n : 0;
        r = n < 0 ? orr_last_result() : orri_gltf_parse_skins(c, root, doc);
        doc->node_count = 0;
    }
    if (r == ORR_OK) r = orri_gltf_parse_nodes(c, root, doc);
    if (r == ORR_OK) r = orri_gltf_parse_animations(c, root, doc);
    return r;
}

orr_result orri_gltf_parse(orri_gltf_ctx *c, const uint8_t *data, size_t size, orri_gltf_doc *doc) {
    *doc = (orri_gltf_doc){0};
    const uint8_t *json = data;
    size_t json_size = size;
    if (!data || !size) return orri_gltf_fail(c, ORR_ERROR_MALFORMED, "no bytes");
    if (orri_gltf_is_glb(data, size)) {
        orr_result r = orri_gltf_glb(c, data, size, &json, &json_size, &doc->glb_bin, &doc->glb_bin_size);
        if (r != ORR_OK) return r;
    }
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts((const char *)json, json_size, &end, false);
    if (!root) {
        size_t at = end ? (size_t)((const uint8_t *)end - json) : 0;
        return orri_gltf_fail(c, ORR_ERROR_MALFORMED, "JSON does not parse (near byte %zu of the JSON)", at);
    }
    orr_result r = parse_json(c, root, doc);
    cJSON_Delete(root);
    doc->glb_bin = NULL, doc->glb_bin_size = 0;
    if (r != ORR_OK) orri_gltf_doc_free(c, doc);
    return r;
}

static void free_meshes(orri_gltf_ctx *c, orri_gltf_doc *d) {
    for (uint32_t i = 0; d->meshes && i < d->mesh_count; i++) {
        orri_gltf_mesh *m = &d->meshes[i];
        for (uint32_t k = 0; m->prims && k < m->prim_count; k++) orr_geometry_free(&m->prims[k].geometry);
        orri_gltf_free(c, m->prims), orri_gltf_free(c, m->weights), orri_gltf_free(c, m->name);
    }
    orri_gltf_free(c, d->meshes);
}

static void free_nodes(orri_gltf_ctx *c, orri_gltf_doc *d) {
    for (uint32_t i = 0; d->nodes && i < d->node_count; i++) {
        orri_gltf_node *n = &d->nodes[i];
        orri_gltf_free(c, n->name), orri_gltf_free(c, n->children), orri_gltf_free(c, n->weights);
        orri_gltf_free(c, n->instances);
    }
    orri_gltf_free(c, d->nodes);
    for (uint32_t i = 0; d->skins && i < d->skin_count; i++) {
        orri_gltf_free(c, d->skins[i].name), orri_gltf_free(c, d->skins[i].joints);
        orri_gltf_free(c, d->skins[i].inverse_bind);
    }
    orri_gltf_free(c, d->skins);
    for (uint32_t i = 0; d->animations && i < d->animation_count; i++) {
        orri_gltf_animation *a = &d->animations[i];
        for (uint32_t k = 0; a->channels && k < a->channel_count; k++)
            orri_gltf_free(c, a->channels[k].times), orri_gltf_free(c, a->channels[k].values);
        orri_gltf_free(c, a->channels), orri_gltf_free(c, a->name);
    }
    orri_gltf_free(c, d->animations);
}

void orri_gltf_doc_free(orri_gltf_ctx *c, orri_gltf_doc *d) {
    free_meshes(c, d);
    free_nodes(c, d);
    for (uint32_t i = 0; d->buffers && i < d->buffer_count; i++) orri_gltf_free(c, d->buffers[i].data);
    for (uint32_t i = 0; d->images && i < d->image_count; i++) {
        orr_image_free(&d->images[i].image);
        orri_gltf_free(c, d->images[i].name);
    }
    for (uint32_t i = 0; d->materials && i < d->material_count; i++) orri_gltf_free(c, d->materials[i].name);
    for (uint32_t i = 0; d->cameras && i < d->camera_count; i++) orri_gltf_free(c, d->cameras[i].name);
    for (uint32_t i = 0; d->lights && i < d->light_count; i++) orri_gltf_free(c, d->lights[i].name);
    void *arrays[] = {d->buffers,  d->views,     d->accessors, d->images, d->samplers,
                      d->textures, d->materials, d->cameras,   d->lights, d->scene_roots};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++) orri_gltf_free(c, arrays[i]);
    *d = (orri_gltf_doc){0};
}
