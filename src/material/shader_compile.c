/* shader_compile.c — GLSL → SPIR-V with libshaderc at run time.
 * Only orr_shader_material_create reaches this file, so a statically linked
 * program without shader materials links no libshaderc code. */
#include <shaderc/shaderc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "material/material_int.h"

/* The engine's GLSL a user stage may include (cmake/shaders.cmake embeds
 * them): shadow receiving's functions and the CPU/GPU layouts they read. */
extern const char orri_glsl_shadow_receive_glsl[], orri_glsl_gpu_types_h[];

static const char *embedded_text(const char *name) {
    if (!strcmp(name, "shadow_receive.glsl")) return orri_glsl_shadow_receive_glsl;
    if (!strcmp(name, "gpu_types.h")) return orri_glsl_gpu_types_h;
    return NULL;
}

/* shaderc's include callbacks over the embedded texts; an unknown name is a
 * compile error (shaderc reports an empty source name with the content as
 * the message). One result per include, freed by the release callback. */
static shaderc_include_result *resolve_include(void *user, const char *requested, int type, const char *requesting,
                                               size_t depth) {
    (void)user, (void)type, (void)requesting, (void)depth;
    shaderc_include_result *r = malloc(sizeof *r);
    if (!r) return NULL;
    const char *text = embedded_text(requested);
    static const char unknown[] = "no such engine include (shader materials may include none of their own)";
    r->source_name = text ? requested : "";
    r->source_name_length = text ? strlen(requested) : 0;
    r->content = text ? text : unknown;
    r->content_length = strlen(r->content);
    r->user_data = NULL;
    return r;
}

static void release_include(void *user, shaderc_include_result *r) {
    (void)user;
    free(r);
}

orr_result orri_glsl_compile(orri_ctx *ctx, orri_stage stage, const char *preamble, const char *source,
                             const char *name, uint32_t **spv, size_t *size) {
    *spv = NULL, *size = 0;
    size_t pl = strlen(preamble), sl = strlen(source);
    char *text = orri_alloc(&ctx->allocator, pl + sl + 16);
    if (!text) return orri_fail(ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "shader source");
    memcpy(text, preamble, pl);
    memcpy(text + pl, "#line 1\n", 8);
    memcpy(text + pl + 8, source, sl + 1);
    shaderc_compiler_t compiler = shaderc_compiler_initialize();
    shaderc_compile_options_t opts = shaderc_compile_options_initialize();
    orr_result r = ORR_OK;
    if (!compiler || !opts) {
        r = orri_fail(ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "shaderc initialisation");
        goto done;
    }
    shaderc_compile_options_set_target_env(opts, shaderc_target_env_vulkan, shaderc_env_version_vulkan_1_3);
    shaderc_compile_options_set_auto_map_locations(opts, true);
    shaderc_compile_options_set_optimization_level(opts, shaderc_optimization_level_performance);
    shaderc_compile_options_set_source_language(opts, shaderc_source_language_glsl);
    shaderc_compile_options_set_include_callbacks(opts, resolve_include, release_include, NULL);
    shaderc_shader_kind kind = stage == ORRI_STAGE_VERTEX ? shaderc_glsl_vertex_shader : shaderc_glsl_fragment_shader;
    shaderc_compilation_result_t res = shaderc_compile_into_spv(compiler, text, strlen(text), kind, name, "main", opts);
    if (!res || shaderc_result_get_compilation_status(res) != shaderc_compilation_status_success) {
        /* The logger takes one line (orrery/core.h): the compiler's lines are
         * joined with spaces and the trailing newline dropped. */
        char msg[800];
        snprintf(msg, sizeof msg, "%s", res ? shaderc_result_get_error_message(res) : "compiler failed");
        for (size_t n = strlen(msg); n && (msg[n - 1] == '\n' || msg[n - 1] == ' '); n--) msg[n - 1] = 0;
        for (char *p = msg; *p; p++)
            if (*p == '\n') *p = ' ';
        r = orri_fail(ctx, ORR_ERROR_SHADER_COMPILE, "%s", msg);
    } else {
        *size = shaderc_result_get_length(res);
        *spv = orri_alloc(&ctx->allocator, *size);
        if (*spv)
            memcpy(*spv, shaderc_result_get_bytes(res), *size);
        else
            r = orri_fail(ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "SPIR-V copy"), *size = 0;
    }
    if (res) shaderc_result_release(res);
done:
    if (opts) shaderc_compile_options_release(opts);
    if (compiler) shaderc_compiler_release(compiler);
    orri_free(&ctx->allocator, text);
    return r;
}
