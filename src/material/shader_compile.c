/* shader_compile.c — GLSL → SPIR-V with libshaderc at run time.
 * Only orr_shader_material_create reaches this file, so a statically linked
 * program without shader materials links no libshaderc code. */
#include <shaderc/shaderc.h>
#include <stdio.h>
#include <string.h>

#include "material/material_int.h"

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
