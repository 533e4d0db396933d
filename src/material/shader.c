/* shader.c — shader materials: user GLSL with Babylon.js-named system
 * uniforms, user uniforms (std140 block) and textures. See orrery/material.h
 * for the interface the preamble gives user code. */
#include <stdio.h>
#include <string.h>

#include "material/material_int.h"

static const char SYSTEM_BLOCK[] = "layout(set = 0, binding = 0, std140) uniform OrrSystem {\n"
                                   "    mat4 world; mat4 view; mat4 projection; mat4 viewProjection;\n"
                                   "    mat4 worldView; mat4 worldViewProjection; vec3 cameraPosition;\n"
                                   "};\n";
static const char VERTEX_INPUTS[] = "layout(location = 0) in vec3 position;\n"
                                    "layout(location = 1) in vec3 normal;\n"
                                    "layout(location = 2) in vec2 uv;\n"
                                    "layout(location = 3) in vec4 color;\n";

static const char *type_name(orr_uniform_type t) {
    switch (t) {
    case ORR_UNIFORM_FLOAT: return "float";
    case ORR_UNIFORM_VEC2: return "vec2";
    case ORR_UNIFORM_VEC3: return "vec3";
    case ORR_UNIFORM_VEC4: return "vec4";
    case ORR_UNIFORM_MAT4: return "mat4";
    default: return NULL;
    }
}

/* std140 size and alignment of a uniform. */
static void std140(orr_uniform_type t, uint32_t *size, uint32_t *align, uint32_t *count) {
    static const uint32_t sizes[] = {0, 4, 8, 12, 16, 64}, aligns[] = {0, 4, 8, 16, 16, 16},
                          counts[] = {0, 1, 2, 3, 4, 16};
    *size = sizes[t], *align = aligns[t], *count = counts[t];
}

static bool valid_name(const char *n) {
    if (!n || !*n || strlen(n) >= 64) return false;
    for (const char *p = n; *p; p++) {
        bool ok =
            (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '_' || (p != n && *p >= '0' && *p <= '9');
        if (!ok) return false;
    }
    return true;
}

static orr_result layout_uniforms(orr_scene *s, const orr_shader_material_desc *d, orri_shader_material *sm) {
    uint32_t offset = 0;
    for (uint32_t i = 0; i < ORR_SHADER_MAX_UNIFORMS && d->uniforms[i].name; i++) {
        if (!valid_name(d->uniforms[i].name) || !type_name(d->uniforms[i].type))
            return orri_fail(s->ctx, ORR_ERROR_INVALID_ARGUMENT, "shader material: uniform %u has a bad name or type",
                             i);
        orri_uniform_slot *u = &sm->uniforms[sm->uniform_count++];
        snprintf(u->name, sizeof u->name, "%s", d->uniforms[i].name);
        u->type = d->uniforms[i].type;
        uint32_t size, align;
        std140(u->type, &size, &align, &u->count);
        offset = (offset + align - 1) / align * align;
        u->offset = offset;
        offset += size;
    }
    sm->user_block_size = (offset + 15) / 16 * 16;
    for (uint32_t i = 0; i < ORR_SHADER_MAX_TEXTURES && d->textures[i]; i++) {
        if (!valid_name(d->textures[i]))
            return orri_fail(s->ctx, ORR_ERROR_INVALID_ARGUMENT, "shader material: texture %u has a bad name", i);
        snprintf(sm->texture_names[sm->texture_count++], 64, "%s", d->textures[i]);
    }
    return ORR_OK;
}

static const char PLAIN_HELPERS[] = "mat4 getFinalWorld() { return world; }\n"
                                    "vec4 getFinalColor() { return vec4(1.0); }\n";
static const char INSTANCE_INPUTS[] = "layout(location = 4) in vec4 world0;\n"
                                      "layout(location = 5) in vec4 world1;\n"
                                      "layout(location = 6) in vec4 world2;\n"
                                      "layout(location = 7) in vec4 world3;\n"
                                      "mat4 getFinalWorld() { return world * mat4(world0, world1, world2, world3); }\n";

/* The shadow depth variant (ShadowDepthWrapper): the system block under
 * other names, the names user code reads as plain globals that the wrapper's
 * main fills with the light's transform (view = identity, projection =
 * viewProjection = the layer's light matrix, so every product of them is the
 * light's clip transform), the shadow pass's push block, and the user's main
 * renamed; DEPTH_EPILOGUE follows the user's source. */
static const char DEPTH_SYSTEM[] =
    "layout(set = 0, binding = 0, std140) uniform OrrSystem {\n"
    "    mat4 orri_world; mat4 orri_view; mat4 orri_projection; mat4 orri_view_projection;\n"
    "    mat4 orri_world_view; mat4 orri_world_view_projection; vec3 orri_camera_position;\n"
    "};\n"
    "layout(push_constant) uniform OrriShadowPush {\n"
    "    mat4 light; vec4 light_data; vec4 bias; vec4 extra; uint object; float cutoff; float soft;\n"
    "} orri_shadow;\n"
    "mat4 world, view, projection, viewProjection, worldView, worldViewProjection;\n"
    "vec3 cameraPosition;\n";
static const char DEPTH_EPILOGUE[] =
    "\n#undef main\n"
    "layout(location = 15) out float orri_v_metric;\n"
    "void main() {\n"
    "    world = orri_world; view = mat4(1.0); projection = orri_shadow.light; viewProjection = orri_shadow.light;\n"
    "    worldView = world; worldViewProjection = orri_shadow.light * world;\n"
    "    cameraPosition = orri_camera_position;\n"
    "    orri_user_main();\n"
    "    vec4 c = gl_Position;\n"
    "    float z = c.z;\n"
    "    if (orri_shadow.light_data.w < -0.5) {\n"
    "        vec4 p = inverse(orri_shadow.light) * c;\n"
    "        z = length(p.xyz / p.w - orri_shadow.light_data.xyz);\n"
    "    }\n"
    "    orri_v_metric = (z + orri_shadow.bias.z) / orri_shadow.bias.w + orri_shadow.bias.x;\n"
    "    gl_Position = vec4(c.x, c.y, (0.5 - 0.5 * orri_shadow.bias.x) * c.w - 0.5 * c.z, c.w);\n"
    "}\n";

/* Shadow receiving (desc.shadow_receiver), fragment stage: the engine's
 * receive functions (shaders/shadow_receive.glsl, embedded; its includes
 * resolve from the embedded texts, shader_compile.c) over the scene set bound
 * at set 2: the scene block (`scene`, which the receive code reads for the
 * eye and the view), the shadow records and the maps. */
static const char RECEIVER[] =
    "#define ORRI_SCENE_SET 2\n"
    "#include \"gpu_types.h\"\n"
    "layout(set = 2, binding = 0, std140) uniform SceneBlock { ORRI_SCENE_FIELDS OrriLight lights[ORRI_MAX_LIGHTS]; } "
    "scene;\n"
    "#include \"shadow_receive.glsl\"\n"
    "float orrShadow(int light, vec3 worldPosition) {\n"
    "    return light >= 0 && light < ORRI_MAX_LIGHTS ? orri_shadow(uint(light), worldPosition) : 1.0;\n"
    "}\n";

/* `instanced`: 0 plain, 1 thin-instance variant; `depth`: the shadow depth
 * variant (instance colours are vec4(1) there: the culled shadow instances
 * carry no colours). */
static void build_preamble(const orri_shader_material *sm, orri_stage stage, int instanced, bool depth, char *buf,
                           size_t n) {
    size_t len = (size_t)snprintf(buf, n, "#version 450\n%s%s", depth ? DEPTH_SYSTEM : SYSTEM_BLOCK,
                                  stage == ORRI_STAGE_VERTEX ? VERTEX_INPUTS : "");
    if (stage == ORRI_STAGE_VERTEX && !instanced) len += (size_t)snprintf(buf + len, n - len, "%s", PLAIN_HELPERS);
    if (stage == ORRI_STAGE_VERTEX && instanced) {
        len += (size_t)snprintf(buf + len, n - len, "%s", INSTANCE_INPUTS);
        len +=
            (size_t)snprintf(buf + len, n - len, "%s",
                             sm->ignore_instance_colors || depth ? "vec4 getFinalColor() { return vec4(1.0); }\n"
                                                                 : "layout(location = 8) in vec4 instanceColor;\n"
                                                                   "vec4 getFinalColor() { return instanceColor; }\n");
    }
    if (sm->uniform_count) {
        len += (size_t)snprintf(buf + len, n - len, "layout(set = 1, binding = 0, std140) uniform OrrUser {\n");
        for (uint32_t i = 0; i < sm->uniform_count; i++)
            len += (size_t)snprintf(buf + len, n - len, "    %s %s;\n", type_name(sm->uniforms[i].type),
                                    sm->uniforms[i].name);
        len += (size_t)snprintf(buf + len, n - len, "};\n");
    }
    for (uint32_t i = 0; i < sm->texture_count; i++)
        len += (size_t)snprintf(buf + len, n - len, "layout(set = 1, binding = %u) uniform sampler2D %s;\n", 1 + i,
                                sm->texture_names[i]);
    if (stage == ORRI_STAGE_FRAGMENT && sm->shadow_receiver)
        len += (size_t)snprintf(buf + len, n - len, "%s", RECEIVER);
    if (depth) snprintf(buf + len, n - len, "#define main orri_user_main\n");
}

/* The shadow depth vertex stages: the user's source with DEPTH_EPILOGUE after it. */
static orr_result compile_depth(orr_scene *s, const orr_shader_material_desc *d, orri_shader_material *sm,
                                const char *label) {
    size_t sl = strlen(d->vertex_source), el = sizeof DEPTH_EPILOGUE;
    char *src = orri_alloc(&s->ctx->allocator, sl + el);
    if (!src) return orri_fail(s->ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "shader material depth stage");
    memcpy(src, d->vertex_source, sl);
    memcpy(src + sl, DEPTH_EPILOGUE, el);
    char preamble[4096], name[96];
    build_preamble(sm, ORRI_STAGE_VERTEX, 0, true, preamble, sizeof preamble);
    snprintf(name, sizeof name, "%s.shadow.vert", label);
    orr_result r =
        orri_glsl_compile(s->ctx, ORRI_STAGE_VERTEX, preamble, src, name, &sm->depth_vert_spv, &sm->depth_vert_size);
    if (r == ORR_OK && d->thin_instances) {
        build_preamble(sm, ORRI_STAGE_VERTEX, 1, true, preamble, sizeof preamble);
        snprintf(name, sizeof name, "%s.shadow.instanced.vert", label);
        r = orri_glsl_compile(s->ctx, ORRI_STAGE_VERTEX, preamble, src, name, &sm->depth_inst_vert_spv,
                              &sm->depth_inst_vert_size);
    }
    orri_free(&s->ctx->allocator, src);
    return r;
}

static orr_result compile_stages(orr_scene *s, const orr_shader_material_desc *d, orri_shader_material *sm,
                                 const char *label) {
    char preamble[4096], name[96];
    build_preamble(sm, ORRI_STAGE_VERTEX, 0, false, preamble, sizeof preamble);
    snprintf(name, sizeof name, "%s.vert", label);
    orr_result r =
        orri_glsl_compile(s->ctx, ORRI_STAGE_VERTEX, preamble, d->vertex_source, name, &sm->vert_spv, &sm->vert_size);
    if (r != ORR_OK) return r;
    if (d->thin_instances) {
        build_preamble(sm, ORRI_STAGE_VERTEX, 1, false, preamble, sizeof preamble);
        snprintf(name, sizeof name, "%s.instanced.vert", label);
        r = orri_glsl_compile(s->ctx, ORRI_STAGE_VERTEX, preamble, d->vertex_source, name, &sm->inst_vert_spv,
                              &sm->inst_vert_size);
        if (r != ORR_OK) return r;
    }
    if (d->shadow_depth_wrapper) r = compile_depth(s, d, sm, label);
    if (r != ORR_OK) return r;
    build_preamble(sm, ORRI_STAGE_FRAGMENT, 0, false, preamble, sizeof preamble);
    snprintf(name, sizeof name, "%s.frag", label);
    return orri_glsl_compile(s->ctx, ORRI_STAGE_FRAGMENT, preamble, d->fragment_source, name, &sm->frag_spv,
                             &sm->frag_size);
}

orr_material orr_shader_material_create(orr_scene *s, const orr_shader_material_desc *d) {
    if (!s) {
        orri_misuse(NULL, ORR_MSG_NULL_CONTEXT, "orr_shader_material_create: scene is NULL");
        return (orr_material){0};
    }
    if (!d || !d->vertex_source || !d->fragment_source) {
        orri_misuse(s->ctx, ORR_MSG_NULL_ARGUMENT,
                    "orr_shader_material_create: vertex and fragment sources are required");
        return (orr_material){0};
    }
    const char *label = d->label ? d->label : "shader material";
    orri_shader_material *sm = orri_alloc(&s->ctx->allocator, sizeof *sm);
    if (!sm) {
        orri_fail(s->ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "shader material");
        return (orr_material){0};
    }
    sm->back_face_culling = orr_opt_bool_or(d->back_face_culling, true);
    sm->alpha_blend = d->alpha_blend;
    sm->ignore_instance_colors = d->ignore_instance_colors;
    sm->shadow_receiver = d->shadow_receiver;
    orr_result r = layout_uniforms(s, d, sm);
    if (r == ORR_OK) r = compile_stages(s, d, sm, label);
    if (r != ORR_OK) {
        orri_shader_material_free(s, sm);
        return (orr_material){0};
    }
    uint32_t id = orri_material_alloc(s, ORRI_MATERIAL_SHADER, label, sm); /* owns sm, also on failure */
    return (orr_material){id};
}

static orri_shader_material *shader_of(orr_scene *s, orr_material mat, const char *what) {
    orri_material *m = orri_material_get(s, mat.id, what);
    if (m && m->kind != ORRI_MATERIAL_SHADER) {
        orri_misuse(s->ctx, ORR_MSG_WRONG_KIND, "%s: '%s' is not a shader material", what, m->label);
        return NULL;
    }
    return m ? m->shader : NULL;
}

void orr_shader_material_set_uniform(orr_scene *s, orr_material mat, const char *name, const double *values,
                                     uint32_t count) {
    orri_shader_material *sm = shader_of(s, mat, "orr_shader_material_set_uniform");
    if (!sm) return;
    if (!name || !values) {
        orri_misuse(s->ctx, ORR_MSG_NULL_ARGUMENT, "orr_shader_material_set_uniform: %s is NULL; unchanged",
                    !name ? "the name" : "values");
        return;
    }
    for (uint32_t i = 0; i < sm->uniform_count; i++) {
        orri_uniform_slot *u = &sm->uniforms[i];
        if (strcmp(u->name, name) != 0) continue;
        if (count != u->count) {
            orri_misuse(s->ctx, ORR_MSG_OUT_OF_RANGE, "orr_shader_material_set_uniform: '%s' takes %u values, got %u",
                        name, u->count, count);
            return;
        }
        memcpy(u->value, values, count * sizeof *values);
        orri_material_get(s, mat.id, "")->version = orri_scene_next_version(s);
        return;
    }
    orri_misuse(s->ctx, ORR_MSG_NOT_FOUND, "orr_shader_material_set_uniform: no uniform '%s'", name);
}

void orr_shader_material_set_texture(orr_scene *s, orr_material mat, const char *name, orr_texture texture) {
    orri_shader_material *sm = shader_of(s, mat, "orr_shader_material_set_texture");
    if (!sm) return;
    if (!name) {
        orri_misuse(s->ctx, ORR_MSG_NULL_ARGUMENT, "orr_shader_material_set_texture: the name is NULL; unchanged");
        return;
    }
    for (uint32_t i = 0; i < sm->texture_count; i++) {
        if (strcmp(sm->texture_names[i], name) != 0) continue;
        sm->textures[i] = texture;
        orri_material_get(s, mat.id, "")->structure_version = s->structure_version = orri_scene_next_version(s);
        return;
    }
    orri_misuse(s->ctx, ORR_MSG_NOT_FOUND, "orr_shader_material_set_texture: no texture '%s'", name);
}
