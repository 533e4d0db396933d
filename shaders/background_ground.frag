#version 450
// Ground fragment: Babylon BackgroundMaterial with DIFFUSE, DIFFUSEHASALPHA,
// OPACITYFRESNEL, PREMULTIPLYALPHA and NOISE (background.fragment):
//   colour = max(texture.rgb, 0) × primary; alpha = opacity × texture.a × fade²,
//   fade = saturate(dot(N, normalize(eye − centre)) / 0.1);
//   image processing; rgb × alpha; + dither(positionW.xy, 0.5).
#include "background_common.glsl"

layout(set = 0, binding = 2) uniform sampler2D ground_tex;

layout(location = 0) in vec3 v_position;
layout(location = 1) in vec2 v_uv;
layout(location = 0) out vec4 out_color;

void main() {
    uint flags = bg.flags.x;
    vec4 dm = texture(ground_tex, v_uv);
    float alpha = bg.primary.a * dm.a;
    vec3 color = max(dm.rgb, 0.0) * bg.primary.rgb;
    if ((flags & ORRI_BG_FRESNEL) != 0u) {
        float view_angle = dot(vec3(0.0, 1.0, 0.0), normalize(bg.eye.xyz - bg.center.xyz));
        float fade = clamp(view_angle / 0.1, 0.0, 1.0);
        alpha *= fade * fade;
    }
    vec4 c = vec4(color, alpha);
    if ((flags & ORRI_BG_IMAGE_PROCESSING) != 0u) c = bg_image_processing(c);
    if ((flags & ORRI_BG_PREMULTIPLY) != 0u) c.rgb *= c.a;
    if (bg.ip.w > 0.0) {
        c.rgb += bg_dither(v_position.xy, bg.ip.w);
        c = max(c, 0.0);
    }
    out_color = c;
}
