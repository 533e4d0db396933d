/* parse_extra.c — cameras (glTF 2.0 spec 3.10), KHR_lights_punctual lights
 * and images (3.8.2: a URI or a bufferView with a mimeType), decoded by the
 * image module (PNG and JPEG). An image the image module reads but cannot
 * decode (a broken PNG) fails the load with its message; an image in a
 * format Orrery does not read (KTX2, WebP: UNSUPPORTED) is left undecoded
 * with a warning, and textures using it are not created. */
#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gltf_int.h"
#include "orrery/handedness.h"

#define ORRI_PI 3.14159265358979323846

static orr_result parse_camera(orri_gltf_ctx *c, const cJSON *j, uint32_t i, orri_gltf_camera *cam) {
    char path[64];
    snprintf(path, sizeof path, "cameras[%u]", i);
    cam->name = orri_gltf_strdup(c, orri_json_str(j, "name"));
    const char *type = orri_json_str(j, "type");
    const cJSON *p = orri_json_member(j, "perspective"), *o = orri_json_member(j, "orthographic");
    if (type && strcmp(type, "perspective") == 0 && p) {
        cam->type = ORRI_GLTF_PERSPECTIVE;
        snprintf(path + strlen(path), sizeof path - strlen(path), ".perspective");
        if (!orri_json_num(c, p, "yfov", -1, &cam->yfov, path) ||
            !orri_json_num(c, p, "znear", -1, &cam->znear, path) || !orri_json_num(c, p, "zfar", 0, &cam->zfar, path) ||
            !orri_json_num(c, p, "aspectRatio", 0, &cam->aspect, path))
            return ORR_ERROR_MALFORMED;
        if (!(cam->yfov > 0 && cam->yfov < ORRI_PI) || !(cam->znear > 0) ||
            (cam->zfar != 0 && !(cam->zfar > cam->znear)))
            return orri_gltf_fail(c, ORR_ERROR_MALFORMED, "%s: yfov in (0, π), znear > 0 and zfar > znear needed",
                                  path);
        return ORR_OK;
    }
    if (type && strcmp(type, "orthographic") == 0 && o) {
        cam->type = ORRI_GLTF_ORTHOGRAPHIC;
        snprintf(path + strlen(path), sizeof path - strlen(path), ".orthographic");
        if (!orri_json_num(c, o, "xmag", 1, &cam->xmag, path) || !orri_json_num(c, o, "ymag", 1, &cam->ymag, path) ||
            !orri_json_num(c, o, "znear", 0, &cam->znear, path) || !orri_json_num(c, o, "zfar", 1, &cam->zfar, path))
            return ORR_ERROR_MALFORMED;
        return ORR_OK;
    }
    return orri_gltf_fail(c, ORR_ERROR_MALFORMED, "%s: type is neither perspective nor orthographic (with its object)",
                          path);
}

static orr_result parse_light(orri_gltf_ctx *c, const cJSON *j, uint32_t i, orri_gltf_light *l) {
    char path[96];
    snprintf(path, sizeof path, "extensions.KHR_lights_punctual.lights[%u]", i);
    l->name = orri_gltf_strdup(c, orri_json_str(j, "name"));
    const char *type = orri_json_str(j, "type");
    if (!type) return orri_gltf_fail(c, ORR_ERROR_MALFORMED, "%s.type is missing", path);
    l->type = strcmp(type, "directional") == 0 ? ORRI_GLTF_DIRECTIONAL
              : strcmp(type, "point") == 0     ? ORRI_GLTF_POINT
              : strcmp(type, "spot") == 0      ? ORRI_GLTF_SPOT
                                               : (orri_gltf_light_type)-1;
    if ((int)l->type < 0) return orri_gltf_fail(c, ORR_ERROR_MALFORMED, "%s.type \"%s\" is unknown", path, type);
    l->color[0] = l->color[1] = l->color[2] = 1;
    if (!orri_json_nums(c, j, "color", 3, l->color, path) ||
        !orri_json_num(c, j, "intensity", 1, &l->intensity, path) || !orri_json_num(c, j, "range", 0, &l->range, path))
        return ORR_ERROR_MALFORMED;
    const cJSON *s = orri_json_member(j, "spot");
    char sp[128];
    snprintf(sp, sizeof sp, "%s.spot", path);
    if (!orri_json_num(c, s, "innerConeAngle", 0, &l->inner_cone, sp) ||
        !orri_json_num(c, s, "outerConeAngle", ORRI_PI / 4, &l->outer_cone, sp))
        return ORR_ERROR_MALFORMED;
    if (l->range < 0 || !(l->outer_cone > 0 && l->outer_cone <= ORRI_PI / 2) || l->inner_cone < 0 ||
        l->inner_cone >= l->outer_cone)
        return orri_gltf_fail(c, ORR_ERROR_MALFORMED, "%s: range ≥ 0 and 0 ≤ innerConeAngle < outerConeAngle ≤ π/2",
                              path);
    return ORR_OK;
}

static orr_result decode_image(orri_gltf_ctx *c, const uint8_t *data, size_t size, const char *path,
                               orri_gltf_image *img) {
    char err[256], label[128];
    snprintf(label, sizeof label, "%s: %s", c->label, path);
    orr_image_load_desc d = {.label = label,
                             .allocator = c->allocator,
                             .error_buffer = err,
                             .error_buffer_size = sizeof err,
                             .max_bytes = c->max_bytes - c->used ? c->max_bytes - c->used : 1};
    orr_result r = orr_image_load_png_jpeg(&d, data, size, &img->image);
    if (r == ORR_ERROR_UNSUPPORTED) {
        orri_gltf_warn(c, "%s: not decoded (%s)", path, err);
        return ORR_OK;
    }
    if (r != ORR_OK) return orri_gltf_fail(c, r, "%s", err);
    c->used += img->image.size;
    return ORR_OK;
}

static orr_result parse_image(orri_gltf_ctx *c, const cJSON *j, uint32_t i, orri_gltf_doc *doc) {
    char path[64];
    snprintf(path, sizeof path, "images[%u]", i);
    orri_gltf_image *img = &doc->images[i];
    img->name = orri_gltf_strdup(c, orri_json_str(j, "name"));
    const char *uri = orri_json_str(j, "uri");
    int64_t view;
    if (!orri_json_int(c, j, "bufferView", 0, (int64_t)doc->view_count - 1, -1, &view, path))
        return ORR_ERROR_MALFORMED;
    if (!uri == (view < 0))
        return orri_gltf_fail(c, ORR_ERROR_MALFORMED, "%s needs exactly one of uri and bufferView", path);
    if (c->skip_images) return ORR_OK;
    if (view >= 0) {
        const orri_gltf_view *v = &doc->views[view];
        return decode_image(c, doc->buffers[v->buffer].data + v->offset, v->length, path, img);
    }
    uint8_t *data;
    size_t size;
    orr_result r = orri_gltf_load_uri(c, uri, path, &data, &size);
    if (r != ORR_OK) return r;
    r = decode_image(c, data, size, path, img);
    orri_gltf_free(c, data);
    return r;
}

orr_result orri_gltf_parse_cameras(orri_gltf_ctx *c, const cJSON *root, orri_gltf_doc *doc) {
    PARSE_ARRAY("cameras", cameras, camera_count, parse_camera(c, j_, i_, &doc->cameras[i_]));
    return ORR_OK;
}

orr_result orri_gltf_parse_lights(orri_gltf_ctx *c, const cJSON *top, orri_gltf_doc *doc) {
    const cJSON *root = orri_json_member(orri_json_member(top, "extensions"), "KHR_lights_punctual");
    PARSE_ARRAY("lights", lights, light_count, parse_light(c, j_, i_, &doc->lights[i_]));
    return ORR_OK;
}

/* Image decoding is most of a big load's parse: 5 % to 50 % of its progress. */
static orr_result image_step(orri_gltf_ctx *c, const cJSON *j, uint32_t i, orri_gltf_doc *doc) {
    orr_result r = parse_image(c, j, i, doc);
    return r == ORR_OK ? orri_gltf_progress(c, 0.05 + 0.45 * (i + 1) / doc->image_count) : r;
}

orr_result orri_gltf_parse_images(orri_gltf_ctx *c, const cJSON *root, orri_gltf_doc *doc) {
    orr_result r = orri_gltf_progress(c, 0.05); /* buffers read */
    if (r != ORR_OK) return r;
    PARSE_ARRAY("images", images, image_count, image_step(c, j_, i_, doc));
    return ORR_OK;
}
