/* load.c — textures from files, only through the image module's loaders
 * (orrery/image.h: safe on any bytes, its budgets, the engine's allocator).
 * Nothing here parses a file or calls stb.
 */
#include <string.h>

#include "texture/texture_int.h"

/* The caller's desc with the decoded image; refuses a desc that has pixels. */
static orr_result file_desc(orri_ctx *ctx, const char *what, const orr_texture_desc *desc, const char *label,
                            orr_texture_desc *out) {
    *out = desc ? *desc : (orr_texture_desc){0};
    if (out->image || out->rgba)
        return orri_fail(ctx, ORR_ERROR_INVALID_ARGUMENT,
                         "%s: desc.image and desc.rgba must be unset (the file "
                         "gives the pixels)",
                         what);
    if (!out->label) out->label = label;
    return ORR_OK;
}

static bool ends_with(const char *s, const char *end) {
    size_t n = strlen(s), k = strlen(end);
    return n > k && strcmp(s + n - k, end) == 0;
}

/* One file (ext NULL: `name` is the path) or six faces `<name>_px<ext>` ...
 * through the image module, then the one creation path. */
static orr_result load(orr_engine *e, const char *what, const orr_texture_desc *desc, const char *name, const char *ext,
                       orr_texture *out) {
    orri_ctx *ctx = orri_engine_textures(e)->ctx;
    orr_texture_desc d;
    orr_result r = file_desc(ctx, what, desc, name, &d);
    if (r != ORR_OK) return r;
    char err[512] = "";
    orr_image_load_desc ld = {.allocator = ctx->allocator, .error_buffer = err, .error_buffer_size = sizeof err};
    orr_image_data img;
    /* A .env file keeps its manifest: the harmonics and lodGenerationScale
     * go with the cube (ibl.c). */
    bool env = !ext && ends_with(name, ".env");
    orr_env_info info;
    r = ext   ? orr_image_load_cube_files(&ld, name, ext, &img)
        : env ? orr_image_load_env_file(&ld, name, &img, &info)
              : orr_image_load_file(&ld, name, &img);
    if (r != ORR_OK) return orri_fail(ctx, r, "%s", err);
    d.image = &img;
    /* A Radiance .hdr file is a panorama: a cube of height / 2 texels. */
    if (!ext && ends_with(name, ".hdr") && img.faces == 1) d.equirect = true;
    r = orri_texture_create_env(e, &d, env ? &info : NULL, out);
    orr_image_free(&img);
    return r;
}

orr_result orr_texture_load_file(orr_engine *e, const char *path, const orr_texture_desc *desc, orr_texture *out) {
    if (out) *out = (orr_texture){0};
    if (!e || !path || !out) return orri_texture_null_args(e, "orr_texture_load_file", "engine, path or out");
    return load(e, "orr_texture_load_file", desc, path, NULL, out);
}

orr_result orr_texture_load_cube_faces(orr_engine *e, const char *prefix, const char *ext, const orr_texture_desc *desc,
                                       orr_texture *out) {
    if (out) *out = (orr_texture){0};
    if (!e || !prefix || !ext || !out)
        return orri_texture_null_args(e, "orr_texture_load_cube_faces", "engine, prefix, ext or out");
    return load(e, "orr_texture_load_cube_faces", desc, prefix, ext, out);
}
