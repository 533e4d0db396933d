#version 450
// Skybox fragment. BACKGROUND (Babylon BackgroundMaterial, REFLECTION +
// REFLECTIONMAP_SKYBOX): cube × primary colour → image processing → noise.
// HDR (PBR skybox): the cube at level 0 → image processing. STANDARD
// (StandardMaterial skybox): the cube as stored, then fog.
#include "background_common.glsl"

layout(set = 0, binding = 1) uniform samplerCube sky;

layout(location = 0) in vec3 v_dir;
layout(location = 1) in vec3 v_position;
layout(location = 2) in vec3 v_view;
layout(location = 0) out vec4 out_color;

void main() {
    uint flags = bg.flags.x;
    vec3 dir = (flags & ORRI_BG_OPPOSITE_Z) != 0u ? vec3(v_dir.xy, -v_dir.z) : v_dir;
    vec3 c = (flags & ORRI_BG_LOD0) != 0u ? textureLod(sky, dir, 0.0).rgb : texture(sky, dir).rgb;
    vec4 color = vec4(max(c, 0.0) * bg.primary.rgb, bg.primary.a);
    if ((flags & ORRI_BG_FOG) != 0u && bg.fog_info.x > 0.5)
        color.rgb = mix(bg.fog_color.rgb, color.rgb, bg_fog_factor(length(v_view)));
    if ((flags & ORRI_BG_IMAGE_PROCESSING) != 0u) color = bg_image_processing(color);
    else color.rgb = clamp(color.rgb, 0.0, 1.0);
    if (bg.ip.w > 0.0) {
        color.rgb += bg_dither(v_position.xy, bg.ip.w);
        color = max(color, 0.0);
    }
    out_color = color;
}
