// Shadow caster pass (Babylon.js shadowMap.vertex + shadowMapVertexNormalBias
// + shadowMapVertexMetric), included by shadow_depth.vert and, with
// ORR_INSTANCED, shadow_depth_instanced.vert (thin instances: world0..3 at
// locations 4..7, final world = mesh world · instance world). The mesh world
// is the renderer's per-draw upload (eye-relative under floating origin), so
// the light matrix is in the same upload frame.
//   normal bias: world −= n · normalBias · sin(angle between n and the light)
//   depth-texture path (PCF): window depth of clip z + bias · w, stored
//     reversed (1 − depth: the reverse-Z test keeps the nearest caster)
//   colour path (hard, ESM): metric = (clip z + depthValues.x) / depthValues.y + bias;
//     a point light (every filter: its map is the colour path's) takes the
//     distance to the light for clip z, as Babylon.js's cube maps (USEDISTANCE)
// With ORR_ALPHA_TEST (alpha-tested casters, Babylon.js ALPHATEXTURE +
// ALPHATESTVALUE) the UV passes through for shadow_alpha.glsl's discard.
#include "gpu_types.h"

layout(set = 0, binding = 1, std430) readonly buffer Objects { OrriObject objects[]; };
layout(push_constant) uniform Push {
    mat4 light;      // upload frame → light clip (OpenGL z)
    vec4 light_data; // xyz: direction (w = 1, directional) or upload-frame position (w = 0 spot, −1 point)
    vec4 bias;       // bias, normal bias, depthValues.x, depthValues.y
    vec4 extra;      // x: ESM depth scale; yzw: debug origin (absolute-matrix control, 0 normally)
    uint object;
    float cutoff; // alpha-tested casters: texture alpha below it is discarded
} pc;

layout(location = 0) in vec3 in_position;
layout(location = 1) in vec3 in_normal;
#ifdef ORR_ALPHA_TEST
layout(location = 2) in vec2 in_uv;
layout(location = 1) out vec2 v_uv;
#endif
#ifdef ORR_INSTANCED
layout(location = 4) in vec4 world0;
layout(location = 5) in vec4 world1;
layout(location = 6) in vec4 world2;
layout(location = 7) in vec4 world3;
#endif
layout(location = 15) out float v_metric; // 15: as a wrapped shader material's (src/material/shader.c)

void main() {
    mat4 ow = objects[pc.object].world;
    mat3 on = mat3(objects[pc.object].normal_matrix);
#ifdef ORR_INSTANCED
    mat4 inst = mat4(world0, world1, world2, world3);
    vec4 wp = ow * (inst * vec4(in_position, 1.0));
    mat3 m = mat3(inst);
    mat3 cof = mat3(cross(m[1], m[2]), cross(m[2], m[0]), cross(m[0], m[1]));
    vec3 nw = on * ((dot(m[0], cof[0]) < 0.0 ? -1.0 : 1.0) * (cof * in_normal));
#else
    vec4 wp = ow * vec4(in_position, 1.0);
    vec3 nw = on * in_normal;
#endif
    wp.xyz += pc.extra.yzw;
    if (pc.bias.y != 0.0) {
        nw = normalize(nw);
        vec3 to_light = pc.light_data.w > 0.5 ? normalize(-pc.light_data.xyz) : normalize(pc.light_data.xyz - wp.xyz);
        float ndl = dot(nw, to_light);
        wp.xyz -= nw * (pc.bias.y * sqrt(max(0.0, 1.0 - ndl * ndl)));
    }
#ifdef ORR_ALPHA_TEST
    v_uv = in_uv;
#endif
    vec4 c = pc.light * wp;
    float z = pc.light_data.w < -0.5 ? length(wp.xyz - pc.light_data.xyz) : c.z; /* point: radial (USEDISTANCE) */
    v_metric = (z + pc.bias.z) / pc.bias.w + pc.bias.x;
    gl_Position = vec4(c.x, c.y, (0.5 - 0.5 * pc.bias.x) * c.w - 0.5 * c.z, c.w);
}
