#version 450
// Babylon.js PBRMaterial, metallic-roughness workflow as its glTF loader sets
// it up (pbr.fragment and its blocks), written from the formulas:
//   base = factor × texture (sRGB decoded: pow 2.2, Babylon's toLinearSpace,
//   unless the texture samples with sRGB decode) × vertex colour
//   metallic, roughness = factors × texture B, G; F0 = mix(0.04, base, metallic), F90 = 1
//   albedo = base (1 − 0.04)(1 − metallic) (Babylon 9's default, legacy energy split)
//   direct = Σ lights diffuse × albedo + specular × energy conservation
//   IBL: irradiance (harmonics at the normal) × albedo × intensity × AO;
//   radiance = cube at lod log2(size · alphaG) · 0.8 along reflect(−V, N),
//   mixed towards the irradiance by alphaG (MIX_IBL_RADIANCE_WITH_IRRADIANCE)
//   × ((F90 − F0) · brdf.r + F0 · brdf.g) × intensity × energy conservation
//   × radiance occlusion (and horizon occlusion with a normal map)
//   energy conservation = 1 + F0 (1 / brdf.g − 1)
//   final = direct + IBL + emissive × strength, then scene fog, then image processing.
#include "gpu_types.h"
#include "image_processing.glsl"

layout(set = 0, binding = 0, std140) uniform SceneBlock { ORRI_SCENE_FIELDS OrriLight lights[ORRI_MAX_LIGHTS]; } scene;
#include "pbr_blocks.glsl"
layout(location = 6) flat in uint v_object;
#define ORRI_PBR_INDEX v_object
layout(location = 7) flat in uvec3 v_flags; /* flags, sRGB slots, the cube's highest lod */
layout(location = 8) flat in vec4 v_frame; /* normal scale, cotangent signs, normal slot's UV set */
layout(location = 9) in vec4 v_tuv01;      /* each slot's transformed UVs */
layout(location = 10) in vec4 v_tuv23;
layout(location = 11) in vec2 v_tuv4;
layout(set = 2, binding = 0) uniform sampler2D tex[ORRI_PBR_SLOTS];
layout(set = 3, binding = 0) uniform samplerCube env_cube;
layout(set = 3, binding = 1) uniform sampler2D brdf_lut;
#include "shadow_receive.glsl"
// Specialisation constant 0: false in the pipelines of meshes that do not
// receive shadows (Babylon.js compiles the SHADOW defines only for
// receivers). The shadow code is then compiled out: on the H200 its
// registers alone made every PBR fragment 1.7x slower (decision 78).
layout(constant_id = 0) const bool ORRI_RECEIVER = true;

#include "pbr_brdf.glsl"

layout(location = 0) in vec3 v_position;
layout(location = 1) in vec3 v_normal;
layout(location = 2) in vec4 v_uv;
layout(location = 3) in vec4 v_color;
layout(location = 4) in vec3 v_tangent;
layout(location = 5) in vec3 v_bitangent;
layout(location = 0) out vec4 out_color;

bool has(uint bit) { return (v_flags.x & bit) != 0u; }

// Slot k's texture at its transformed UVs (KHR_texture_transform, applied
// per vertex).
vec4 sample_slot(int k) {
    vec2 uv = k == 0 ? v_tuv01.xy : k == 1 ? v_tuv01.zw : k == 2 ? v_tuv23.xy : k == 3 ? v_tuv23.zw : v_tuv4;
    return texture(tex[k], uv);
}

vec3 decode(vec3 c, uint bit) { return (v_flags.y & bit) != 0u ? pow(c, vec3(2.2)) : c; }

// Babylon.js cotangent_frame: the tangent frame from screen derivatives;
// `signs` carries invertNormalMapX/Y and this renderer's y-down framebuffer.
mat3 cotangent_frame(vec3 n, vec3 p, vec2 uv, vec2 signs) {
    vec3 dp1 = dFdx(p), dp2 = dFdy(p);
    vec2 duv1 = dFdx(uv), duv2 = dFdy(uv);
    vec3 dp2perp = cross(dp2, n), dp1perp = cross(n, dp1);
    vec3 t = (dp2perp * duv1.x + dp1perp * duv2.x) * signs.x;
    vec3 b = (dp2perp * duv1.y + dp1perp * duv2.y) * signs.y;
    float det = max(dot(t, t), dot(b, b));
    float inv = det == 0.0 ? 0.0 : inversesqrt(det);
    return mat3(t * inv, b * inv, n);
}

vec3 perturb_normal(vec3 n, float side) {
    vec2 uv = v_frame.w > 0.5 ? v_uv.zw : v_uv.xy;
    mat3 tbn;
    if (has(ORRI_PBR_TANGENTS)) {
        tbn = mat3(normalize(v_tangent) * side, normalize(v_bitangent) * side, n);
    } else {
        tbn = cotangent_frame(n, v_position, uv, v_frame.yz);
    }
    vec3 m = sample_slot(2).xyz * 2.0 - 1.0;
    m = normalize(vec3(m.xy * v_frame.x, m.z));
    return normalize(tbn * m);
}

// Scene fog (Babylon.js fogFragment, before image processing): exp, exp2, linear.
vec3 apply_fog(vec3 color) {
    uint mode = uint(scene.fog_info.x + 0.5);
    if (mode == 0u) return color;
    float dist = length(v_position - scene.eye.xyz), f = 1.0;
    if (mode == 1u) f = 1.0 / exp(dist * scene.fog_info.w);
    else if (mode == 2u) f = 1.0 / exp(dist * dist * scene.fog_info.w * scene.fog_info.w);
    else f = (scene.fog_info.z - dist) / (scene.fog_info.z - scene.fog_info.y);
    return mix(scene.fog_color.rgb, color, clamp(f, 0.0, 1.0));
}

vec3 cube_dir(vec3 d) { return has(ORRI_PBR_OPPOSITE_Z) ? vec3(d.xy, -d.z) : d; }
// The prefiltered cube at a fractional lod: trilinear weights over the levels,
// each level sampled with a constant lod. The same value a trilinear
// textureLod gives by the specification. Done by hand because llvmpipe (Mesa
// 22.3) takes one explicit lod per 2×2 quad: where the lod crosses an integer
// inside a quad, some pixels sampled the wrong pair of levels (2×2 speckles
// over normal-mapped surfaces, decision 46). A constant lod is the same in
// every lane; a pixel samples only the one or two levels its weights touch.
vec3 env_lod(vec3 d, float lod) {
    vec3 sum = vec3(0.0);
    int top = int(v_flags.z);
    for (int k = 0; k <= top; k++) {
        float w = 1.0 - abs(lod - float(k));
        if (w > 0.0) sum += w * textureLod(env_cube, d, float(k)).rgb;
    }
    return sum;
}

void main() {
    vec4 base = PBR(base_color);
    if (has(ORRI_PBR_TEX_BASE)) {
        vec4 t = sample_slot(0);
        base *= vec4(decode(t.rgb, ORRI_PBR_TEX_BASE), t.a);
    }
    if (has(ORRI_PBR_VERTEX_COLOR)) base *= v_color;
    float alpha = base.a;
    if (has(ORRI_PBR_ALPHA_TEST) && alpha < PBR(alpha.x)) discard;
    if (!has(ORRI_PBR_ALPHA_BLEND)) alpha = 1.0;
    vec3 emissive = PBR(emissive.rgb);
    if (has(ORRI_PBR_TEX_EMISSIVE)) emissive *= decode(sample_slot(4).rgb, ORRI_PBR_TEX_EMISSIVE);
    if (has(ORRI_PBR_UNLIT)) {
        out_color = vec4(orr_image_processing(apply_fog(base.rgb + emissive), PBR(ip)), alpha);
        return;
    }
    float metallic = PBR(factors.x), roughness = PBR(factors.y);
    if (has(ORRI_PBR_TEX_MR)) {
        vec4 mr = sample_slot(1);
        metallic *= mr.b, roughness *= mr.g;
    }
    metallic = clamp(metallic, 0.0, 1.0), roughness = clamp(roughness, 0.0, 1.0);
    // Double-sided: back faces lit with the flipped normal (twoSidedLighting).
    float side = (has(ORRI_PBR_DOUBLE_SIDED) && !gl_FrontFacing) ? -1.0 : 1.0;
    vec3 geo_n = normalize(v_normal) * side;
    vec3 n = has(ORRI_PBR_TEX_NORMAL) ? perturb_normal(geo_n, side) : geo_n;
    // Specular anti-aliasing (Babylon.js SPECULARAA, which its glTF loader
    // turns on): the normal's screen derivatives widen the lobes.
    vec2 aa = vec2(0.0);
    if (has(ORRI_PBR_SPECULAR_AA)) {
        vec3 ndx = dFdx(n), ndy = dFdy(n);
        float slope2 = max(dot(ndx, ndx), dot(ndy, ndy));
        aa = vec2(pow(clamp(slope2, 0.0, 1.0), 0.333), 0.75 * sqrt(slope2));
    }
    vec3 v = normalize(scene.eye.xyz - v_position);
    float n_v_raw = dot(n, v);
    float n_v = abs(n_v_raw) + ORR_EPS;
    vec3 f0 = mix(vec3(0.04), base.rgb, metallic), f90 = vec3(1.0);
    vec3 albedo = base.rgb * (1.0 - 0.04) * (1.0 - metallic);
    // Split-sum table in Babylon.js's layout (the texture module's table, as
    // the ibl work documents it in texture_int.h): r = ∫ (1 − V·H)⁵ G_vis,
    // g = ∫ G_vis (the directional albedo, ≤ 1; the clamp changes nothing for
    // a real table and keeps a placeholder one from removing energy).
    vec2 brdf = texture(brdf_lut, vec2(clamp(n_v, 0.0, 1.0), roughness)).rg;
    vec3 energy = 1.0 + f0 * (1.0 / clamp(brdf.y, ORR_EPS, 1.0) - 1.0);
    vec3 diffuse = vec3(0.0), specular = vec3(0.0);
    for (uint i = 0u; i < scene.counts.x; i++) {
        PbrLit l = pbr_light(scene.lights[i], v_position, n, v, n_v, max(roughness, aa.x), f0, f90);
        float shadow = ORRI_RECEIVER && has(ORRI_PBR_RECEIVE_SHADOWS) ? orri_shadow(i, v_position) : 1.0;
        diffuse += l.diffuse * shadow;
        specular += l.specular * shadow;
    }
    vec3 specular_scaled = max(specular, 0.0) * energy;
    vec3 color = diffuse * albedo + specular_scaled;
    float over_alpha = dot(specular_scaled, vec3(0.2126, 0.7152, 0.0722));
    if (has(ORRI_PBR_IBL)) {
        float ao = 1.0;
        if (has(ORRI_PBR_TEX_OCCLUSION)) ao = mix(1.0, sample_slot(3).r, PBR(factors.w));
        float intensity = PBR(alpha.y);
        vec3 sh_irradiance = ORRI_PBR_RUN ? pbr_irradiance(pbr_blocks[v_object].sh, cube_dir(n)) : pbr_irradiance(pbr_one.sh, cube_dir(n));
        vec3 irradiance = sh_irradiance * albedo * intensity * ao;
        float alpha_g = pbr_alpha_g(roughness) + aa.y;
        float lod = log2(PBR(ibl.y) * alpha_g) * PBR(ibl.z) + PBR(ibl.w);
        vec3 r = reflect(-v, n);
        // MIX_IBL_RADIANCE_WITH_IRRADIANCE (on by default in Babylon.js 9.35):
        // rough surfaces take the irradiance in place of the blurriest levels.
        vec3 radiance = mix(env_lod(cube_dir(r), clamp(lod, 0.0, PBR(ibl.x))), sh_irradiance, alpha_g);
        vec3 reflectance = (f90 - f0) * brdf.x + f0 * brdf.y; // getReflectanceFromBRDFLookup
        float seo = clamp((n_v_raw + ao) * (n_v_raw + ao) - 1.0 + ao, 0.0, 1.0);
        reflectance *= seo;
        if (has(ORRI_PBR_TEX_NORMAL)) {
            float h = clamp(1.0 + 1.1 * dot(r, geo_n), 0.0, 1.0);
            reflectance *= h * h;
        }
        vec3 radiance_scaled = radiance * reflectance * intensity * energy;
        color += irradiance + radiance_scaled;
        over_alpha += dot(radiance_scaled, vec3(0.2126, 0.7152, 0.0722));
    }
    // BLEND: highlights stay visible on clear surfaces (useRadianceOverAlpha,
    // useSpecularOverAlpha, both on by default in Babylon.js).
    if (has(ORRI_PBR_ALPHA_BLEND)) alpha = clamp(alpha + over_alpha * over_alpha, 0.0, 1.0);
    color += emissive;
    out_color = vec4(orr_image_processing(apply_fog(color), PBR(ip)), alpha);
}
