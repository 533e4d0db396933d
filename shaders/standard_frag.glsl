// Babylon.js StandardMaterial fragment stage (default.fragment +
// lightFragment + lightsFragmentFunctions), for the four light types:
//   hemispheric: diffuse = mix(ground, diffuse, n·d·0.5 + 0.5)
//   directional: ndl = max(0, n·(−d))
//   point/spot:  attenuation = max(0, 1 − |L| / range); spot × cos^exponent inside the cone
//   specular:    pow(max(0, n·normalize(V + L)), max(1, power))
// final = clamp(diffuseBase·diffuse + emissive + ambient, 0, 1)·base + specularBase·specular,
// then fog, then Babylon's default image processing (a clamp to [0, 1]).
// Included by standard.frag and the lean variants (see standard_vert.glsl).
#include "gpu_types.h"

layout(set = 0, binding = 0, std140) uniform SceneBlock { ORRI_SCENE_FIELDS OrriLight lights[ORRI_MAX_LIGHTS]; } scene;
layout(set = 0, binding = 1, std430) readonly buffer Objects { OrriObject objects[]; };
layout(set = 1, binding = 0) uniform sampler2D diffuse_tex;
#include "shadow_receive.glsl"
// Specialisation constant 0: false in the pipelines of meshes that do not
// receive shadows; the shadow code is then compiled out (decision 78).
layout(constant_id = 0) const bool ORRI_RECEIVER = true;

layout(location = 0) in vec3 v_position;
layout(location = 1) in vec3 v_normal;
#ifndef ORR_LEAN
layout(location = 2) in vec2 v_uv;
#endif
#if !defined(ORR_LEAN) || (defined(ORR_INSTANCED) && !defined(ORR_NO_ICOLOR))
layout(location = 3) in vec4 v_color;
#endif
layout(location = 4) flat in uint v_object; /* pc.object + gl_DrawID (standard_vert.glsl) */
layout(location = 0) out vec4 out_color;

struct Lit { vec3 diffuse; vec3 specular; };

Lit light_contribution(OrriLight l, vec3 n, vec3 v, float power) {
    Lit r = Lit(vec3(0.0), vec3(0.0));
    uint type = l.info.x;
    if (type == ORRI_LIGHT_HEMI) {
        float ndl = dot(n, l.position.xyz) * 0.5 + 0.5;
        r.diffuse = mix(l.ground.rgb, l.diffuse.rgb, ndl);
        vec3 h = normalize(v + l.position.xyz);
        r.specular = pow(max(0.0, dot(n, h)), max(1.0, power)) * l.specular.rgb;
        return r;
    }
    vec3 lv;
    float att = 1.0;
    if (type == ORRI_LIGHT_DIR) {
        lv = normalize(-l.position.xyz);
    } else {
        vec3 d = l.position.xyz - v_position;
        att = max(0.0, 1.0 - length(d) / l.diffuse.a);
        lv = normalize(d);
        if (type == ORRI_LIGHT_SPOT) {
            float cos_angle = max(0.0, dot(l.direction.xyz, -lv));
            if (cos_angle < l.direction.w) return r;
            att *= max(0.0, pow(cos_angle, l.specular.a));
        }
    }
    float ndl = max(0.0, dot(n, lv));
    r.diffuse = ndl * l.diffuse.rgb * att;
    vec3 h = normalize(v + lv);
    r.specular = pow(max(0.0, dot(n, h)), max(1.0, power)) * l.specular.rgb * att;
    return r;
}

float fog_factor(float dist) {
    uint mode = uint(scene.fog_info.x);
    float f = 1.0;
    if (mode == 1u) f = 1.0 / exp(dist * scene.fog_info.w);
    else if (mode == 2u) f = 1.0 / exp(dist * dist * scene.fog_info.w * scene.fog_info.w);
    else if (mode == 3u) f = (scene.fog_info.z - dist) / (scene.fog_info.z - scene.fog_info.y);
    return clamp(f, 0.0, 1.0);
}

void main() {
    OrriObject o = objects[v_object];
    uint flags = o.flags.x;
    vec4 base = vec4(1.0);
    float alpha = o.diffuse.a;
#ifndef ORR_LEAN
    if ((flags & ORRI_FLAG_TEXTURE) != 0u) {
        base = texture(diffuse_tex, v_uv);
        if ((flags & ORRI_FLAG_TEXTURE_ALPHA) != 0u) alpha *= base.a;
        if ((flags & ORRI_FLAG_ALPHA_TEST) != 0u && base.a < o.emissive.a) discard; // Babylon ALPHATEST
    }
#endif
#if !defined(ORR_LEAN) || (defined(ORR_INSTANCED) && !defined(ORR_NO_ICOLOR))
    if ((flags & ORRI_FLAG_VERTEX_COLOR) != 0u) {
        base.rgb *= v_color.rgb;
        alpha *= v_color.a;
    }
#endif
    vec3 color;
    if ((flags & ORRI_FLAG_DISABLE_LIGHTING) != 0u) {
        // Babylon.js 9.35: no light is defined, so diffuseBase = 0 and
        // finalDiffuse = clamp(emissive + ambient) · base (docs/decisions.md).
        color = clamp(o.emissive.rgb + o.ambient.rgb * scene.ambient.rgb, 0.0, 1.0) * base.rgb;
    } else {
        vec3 n = normalize(v_normal);
        vec3 v = normalize(scene.eye.xyz - v_position);
        vec3 diffuse_base = vec3(0.0), specular_base = vec3(0.0);
        bool receive = ORRI_RECEIVER && (flags & ORRI_FLAG_RECEIVE_SHADOWS) != 0u;
        for (uint i = 0u; i < scene.counts.x; i++) {
            Lit l = light_contribution(scene.lights[i], n, v, o.specular.a);
            float shadow = receive ? orri_shadow(i, v_position) : 1.0;
            diffuse_base += l.diffuse * shadow;
            specular_base += l.specular * shadow;
        }
        vec3 ambient = o.ambient.rgb * scene.ambient.rgb;
        vec3 final_diffuse = clamp(diffuse_base * o.diffuse.rgb + o.emissive.rgb + ambient, 0.0, 1.0) * base.rgb;
        color = final_diffuse + specular_base * o.specular.rgb;
    }
    if ((flags & ORRI_FLAG_FOG) != 0u && scene.fog_info.x > 0.5) {
        // Fog distance: |view · p| = |p − eye| for a rigid view (Babylon.js
        // uses the view-space vector; its length is the same).
        color = mix(scene.fog_color.rgb, color, fog_factor(length(v_position - scene.eye.xyz)));
    }
    out_color = vec4(clamp(color, 0.0, 1.0), alpha);
}
