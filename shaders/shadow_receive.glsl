// shadow_receive.glsl — Babylon.js shadowsFragmentFunctions for receivers
// (standard and PBR fragment stages; src/shadow writes the data). One shadow
// factor per light, multiplying its diffuse and specular terms as
// lightFragment does. Filters (ORRI_SHADOW_*):
//   HARD: the colour-path compare (computeShadow): metric > stored ? darkness : 1
//   PCF:  hardware bilinear compares, Babylon's PCF1 / PCF3 (4 taps) / PCF5
//         (9 taps) weights (quality LOW / MEDIUM / HIGH)
//   ESM:  1 − clamp(exp(min(87, depthScale · metric)) · stored, 0, 1 − darkness)
//   PCSS: Babylon's contact hardening: a blocker search (16 or 32 taps within
//         lightSizeUV texels) gives the mean blocker depth; the penumbra
//         (metric − blocker + 10 texels) · lightSizeUV · texel scales a rotated
//         disc of 16 / 32 / 64 compares (quality LOW / MEDIUM / HIGH); the result
//         fades to lit with the blocker distance. The disc here is a Vogel
//         (golden-angle) spiral, rotated per fragment by Babylon's getRand hash
//         (Babylon uses fixed Poisson tables: same radii, other points).
// Outside the map (uv or metric outside [0, 1]) a receiver is lit, as
// Babylon's. Maps store reversed depth (1 − d): the compare sampler tests
// reference ≥ stored. Positions are upload-frame (eye-relative under floating
// origin); the light matrices are in the same frame (src/shadow).
// Layers: a cascaded generator fills map.z > 1 layers, `splits` (far view
// depth per layer) and `lengths`; the receiver takes the first layer whose
// split is beyond the fragment's view depth and blends toward the next one
// near its far end (orri_shadow_cascaded). A point light has six layers, one per cube face
// (90° perspectives), chosen by the major axis of the light-to-fragment vector; they
// store the radial distance, as Babylon's cube maps (orri_shadow_point).
// The scene set is set 0 in the engine's stages; shader materials that
// receive (src/material/shader.c) bind it at set 2 and define ORRI_SCENE_SET.
#include "gpu_types.h"
#ifndef ORRI_SCENE_SET
#define ORRI_SCENE_SET 0
#endif

layout(set = ORRI_SCENE_SET, binding = 2, std140) uniform ShadowBlock { OrriShadow orri_shadows[ORRI_MAX_LIGHTS]; };
layout(set = ORRI_SCENE_SET, binding = 3) uniform sampler2DArrayShadow orri_shadow_cmp[ORRI_MAX_LIGHTS];
layout(set = ORRI_SCENE_SET, binding = 4) uniform sampler2DArray orri_shadow_raw[ORRI_MAX_LIGHTS];

// Constant indices only (no dynamic-indexing device feature needed).
float orri_sm_cmp(uint i, vec4 c) {
    if (i == 0u) return texture(orri_shadow_cmp[0], c);
    if (i == 1u) return texture(orri_shadow_cmp[1], c);
    if (i == 2u) return texture(orri_shadow_cmp[2], c);
    return texture(orri_shadow_cmp[3], c);
}

float orri_sm_raw(uint i, vec3 c) {
    if (i == 0u) return texture(orri_shadow_raw[0], c).x;
    if (i == 1u) return texture(orri_shadow_raw[1], c).x;
    if (i == 2u) return texture(orri_shadow_raw[2], c).x;
    return texture(orri_shadow_raw[3], c).x;
}

float orri_sm_fetch(uint i, ivec3 c) {
    if (i == 0u) return texelFetch(orri_shadow_raw[0], c, 0).x;
    if (i == 1u) return texelFetch(orri_shadow_raw[1], c, 0).x;
    if (i == 2u) return texelFetch(orri_shadow_raw[2], c, 0).x;
    return texelFetch(orri_shadow_raw[3], c, 0).x;
}

float orri_shadow_falloff(float value, vec2 clip_xy, float falloff) {
    float mask = smoothstep(1.0 - falloff, 1.00000012, clamp(dot(clip_xy, clip_xy), 0.0, 1.0));
    return mix(value, 1.0, mask);
}

// Babylon's PCF3 (quality MEDIUM) and PCF5 (HIGH): bilinear compares placed
// so their weights sum to a 3×3 / 5×5 tent.
float orri_shadow_pcf(uint i, vec2 uv01, float layer, float ref, float size, float inv, uint quality) {
    if (quality == 2u) return orri_sm_cmp(i, vec4(uv01, layer, ref));
    vec2 uv = uv01 * size + 0.5;
    vec2 st = fract(uv);
    vec2 base = (floor(uv) - 0.5) * inv;
    float sum = 0.0;
    if (quality == 1u) {
        vec2 w0 = 3.0 - 2.0 * st, w1 = 1.0 + 2.0 * st;
        vec2 u = vec2((2.0 - st.x) / w0.x - 1.0, st.x / w1.x + 1.0) * inv;
        vec2 v = vec2((2.0 - st.y) / w0.y - 1.0, st.y / w1.y + 1.0) * inv;
        sum += w0.x * w0.y * orri_sm_cmp(i, vec4(base + vec2(u[0], v[0]), layer, ref));
        sum += w1.x * w0.y * orri_sm_cmp(i, vec4(base + vec2(u[1], v[0]), layer, ref));
        sum += w0.x * w1.y * orri_sm_cmp(i, vec4(base + vec2(u[0], v[1]), layer, ref));
        sum += w1.x * w1.y * orri_sm_cmp(i, vec4(base + vec2(u[1], v[1]), layer, ref));
        return sum / 16.0;
    }
    vec3 wx = vec3(4.0 - 3.0 * st.x, 7.0, 1.0 + 3.0 * st.x), wy = vec3(4.0 - 3.0 * st.y, 7.0, 1.0 + 3.0 * st.y);
    vec3 u = vec3((3.0 - 2.0 * st.x) / wx.x - 2.0, (3.0 + st.x) / wx.y, st.x / wx.z + 2.0) * inv;
    vec3 v = vec3((3.0 - 2.0 * st.y) / wy.x - 2.0, (3.0 + st.y) / wy.y, st.y / wy.z + 2.0) * inv;
    for (int y = 0; y < 3; y++)
        for (int x = 0; x < 3; x++) sum += wx[x] * wy[y] * orri_sm_cmp(i, vec4(base + vec2(u[x], v[y]), layer, ref));
    return sum / 144.0;
}

vec2 orri_disc(int k, int n) {
    float r = sqrt((float(k) + 0.5) / float(n)), a = float(k) * 2.39996323;
    return r * vec2(cos(a), sin(a));
}

float orri_shadow_pcss(uint i, vec3 uvz, float layer, float metric, float inv, float light_uv, uint quality) {
    int search = quality == 0u ? 32 : 16, taps = quality == 0u ? 64 : quality == 1u ? 32 : 16;
    float sum = 0.0, blockers = 0.0;
    for (int k = 0; k < search; k++) {
        float d = 1.0 - orri_sm_raw(i, vec3(uvz.xy + light_uv * inv * orri_disc(k, search), layer));
        if (d < metric) sum += d, blockers += 1.0;
    }
    if (blockers < 1.0) return 1.0;
    float blocker = sum / blockers;
    float radius = (metric - blocker + inv * 10.0) * light_uv * inv;
    float angle = fract(sin(dot(uvz.xy, vec2(12.9898, 78.233))) * 43758.5453) * 3.1415926;
    mat2 rot = mat2(cos(angle), sin(angle), -sin(angle), cos(angle));
    float lit = 0.0, ref = 1.0 - uvz.z;
    for (int k = 0; k < taps; k++) lit += orri_sm_cmp(i, vec4(uvz.xy + rot * orri_disc(k, taps) * radius, layer, ref));
    return mix(lit / float(taps), 1.0, metric - blocker);
}

// A point light's layer: cube faces +X −X +Y −Y +Z −Z, by the major axis of
// the light → point direction d.
uint orri_shadow_face(vec3 d) {
    vec3 a = abs(d);
    if (a.x >= a.y && a.x >= a.z) return d.x > 0.0 ? 0u : 1u;
    if (a.y >= a.z) return d.y > 0.0 ? 2u : 3u;
    return d.z > 0.0 ? 4u : 5u;
}

// A point light's map in direction d (light → point): the layer of d's face
// and the texel coordinates there (the face's own light matrix projects the
// point light + d). Nearest: the texel under d; linear: Babylon's bilinear
// cube sampling within the face (texel fetches, as depth formats need not
// filter linearly; clamped at the face's edge, where a cube map would blend
// across the seam). Both return the stored value (1 − depth for depth maps).
float orri_point_sample(OrriShadow s, uint i, vec3 d, bool linear) {
    uint face = orri_shadow_face(d);
    vec4 c = s.matrices[face] * vec4(s.splits.xyz + d, 1.0);
    vec2 uv = clamp(0.5 * c.xy / c.w + 0.5, 0.0, 1.0);
    if (!linear) return orri_sm_raw(i, vec3(uv, float(face)));
    vec2 t = uv * s.map.x - 0.5, f = fract(t);
    ivec2 t0 = ivec2(floor(t)), hi = ivec2(int(s.map.x) - 1);
    float v[4];
    for (int k = 0; k < 4; k++) {
        ivec2 tk = clamp(t0 + ivec2(k & 1, k >> 1), ivec2(0), hi);
        v[k] = orri_sm_fetch(i, ivec3(tk, int(face)));
    }
    return mix(mix(v[0], v[1], f.x), mix(v[2], v[3], f.x), f.y);
}

// Point lights (Babylon.js computeShadowCube, computeShadowWithPoissonSamplingCube
// and computeShadowWithESMCube): the map stores the radial metric
// (|p − light| + depthValues.x) / depthValues.y + bias per direction (the
// casters' pass writes it, shaders/shadow_depth_vert.glsl), the receiver
// compares its own unbiased metric, clamped to [0, 1]; no frustum-edge falloff.
//   HARD:    nearest texel, metric > stored ? darkness : 1
//   POISSON: four bilinear taps at d̂ + o · blurScale / mapSize, each in
//            shadow when stored < metric, 1 − 0.25 per shadowed tap, + darkness
//            (at most 1). Babylon offsets the y-flipped direction it samples
//            its cube with; in world axes its offsets are these (y negated).
//   ESM:     1 − clamp(exp(min(87, depthScale · metric)) · stored, 0, 1 − darkness),
//            bilinear (the map holds exp(−depthScale · stored metric)).
float orri_shadow_point(OrriShadow s, uint i, vec3 q) {
    vec3 d = q - s.splits.xyz;
    float metric = clamp((length(d) + s.depth.x) / s.depth.y, 0.0, 1.0);
    uint filter_kind = s.info.x;
    float darkness = s.params.x;
    if (filter_kind == ORRI_SHADOW_ESM)
        return 1.0 - clamp(exp(min(87.0, s.params.y * metric)) * orri_point_sample(s, i, d, true), 0.0, 1.0 - darkness);
    if (filter_kind == ORRI_SHADOW_HARD) return metric > 1.0 - orri_point_sample(s, i, d, false) ? darkness : 1.0;
    const vec3 taps[4] =
        vec3[4](vec3(-1.0, -1.0, -1.0), vec3(1.0, 1.0, -1.0), vec3(-1.0, 1.0, -1.0), vec3(1.0, 1.0, 1.0));
    vec3 n = normalize(d);
    float visibility = 1.0;
    for (int k = 0; k < 4; k++)
        if (1.0 - orri_point_sample(s, i, n + taps[k] * s.map.w, true) < metric) visibility -= 0.25;
    return min(1.0, visibility + darkness);
}

// The filtered shadow of light slot `i` in one layer of its map at position q.
float orri_shadow_in_layer(OrriShadow s, uint i, vec3 q, uint layer) {
    vec4 lp = s.matrices[layer] * vec4(q, 1.0);
    vec3 clip = lp.xyz / lp.w;
    vec2 uv = 0.5 * clip.xy + 0.5;
    float metric = (lp.z + s.depth.x) / s.depth.y;
    if (uv.x < 0.0 || uv.x > 1.0 || uv.y < 0.0 || uv.y > 1.0) return 1.0;
    // Cascades pull the far plane in to the casters' box, so receivers below
    // the lowest caster lie past it: Babylon's CSM receive clamps their depth
    // (GREATEST_LESS_THAN_ONE) and compares, where the other generators call
    // a receiver outside the depth range lit.
    if (s.map.z > 1.5)
        metric = clamp(metric, 0.0, 0.99999994);
    else if (metric < 0.0 || metric > 1.0)
        return 1.0;
    uint filter_kind = s.info.x;
    float darkness = s.params.x, shadow;
    if (filter_kind == ORRI_SHADOW_ESM) {
        float stored = orri_sm_raw(i, vec3(uv, float(layer)));
        shadow = 1.0 - clamp(exp(min(87.0, s.params.y * metric)) * stored, 0.0, 1.0 - darkness);
    } else if (filter_kind == ORRI_SHADOW_HARD) {
        float stored = 1.0 - orri_sm_raw(i, vec3(uv, float(layer)));
        shadow = metric > stored ? darkness : 1.0;
    } else if (filter_kind == ORRI_SHADOW_PCSS) {
        vec3 uvz = vec3(uv, clamp(0.5 * clip.z + 0.5, 0.0, 0.99999994));
        shadow = mix(darkness, 1.0, orri_shadow_pcss(i, uvz, float(layer), metric, s.map.y, s.params.w, s.info.y));
    } else {
        float ref = 1.0 - clamp(0.5 * clip.z + 0.5, 0.0, 0.99999994); // Babylon GREATEST_LESS_THAN_ONE
        shadow = mix(darkness, 1.0, orri_shadow_pcf(i, uv, float(layer), ref, s.map.x, s.map.y, s.info.y));
    }
    return orri_shadow_falloff(shadow, clip.xy, s.params.z);
}

// Cascades (Babylon.js's CSM receive): the first layer whose split lies
// beyond the fragment's view depth; past the last split lit when info.w is
// set (SHADOWCSMUSESHADOWMAXZ), else the last layer. In the last
// cascadeBlendPercentage of a cascade's length the next cascade is mixed in:
// ratio = clamp((split − depth) / length, 0, 1) · blendFactor, and while
// ratio < 1, shadow = mix(next, shadow, ratio).
float orri_shadow_cascaded(OrriShadow s, uint i, vec3 q, uint n) {
    float depth = abs(dot(q - scene.eye.xyz, vec3(scene.view[0].z, scene.view[1].z, scene.view[2].z)));
    uint layer = 0u;
    while (layer + 1u < n && depth >= s.splits[layer]) layer++;
    if (depth >= s.splits[layer] && s.info.w != 0u) return 1.0;
    float shadow = orri_shadow_in_layer(s, i, q, layer);
    float ratio = clamp((s.splits[layer] - depth) / s.lengths[layer], 0.0, 1.0) * s.depth.z;
    if (layer + 1u < n && s.depth.z > 0.0 && ratio < 1.0)
        shadow = mix(orri_shadow_in_layer(s, i, q, layer + 1u), shadow, ratio);
    return shadow;
}

// The shadow factor of light slot `i` at upload-frame position `p`.
float orri_shadow(uint i, vec3 p) {
    OrriShadow s = orri_shadows[i];
    if (s.info.x == ORRI_SHADOW_NONE) return 1.0;
    vec3 q = p + s.origin.xyz;
    if (s.info.z == ORRI_LIGHT_POINT) return orri_shadow_point(s, i, q);
    uint n = uint(s.map.z + 0.5);
    if (n <= 1u) return orri_shadow_in_layer(s, i, q, 0u);
    return orri_shadow_cascaded(s, i, q, n);
}
