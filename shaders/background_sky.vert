#version 450
// Skybox: the 36 vertices of a unit box (±1), drawn from the inside; the
// box-local position is the cube direction (Babylon REFLECTIONMAP_SKYBOX:
// vPositionUVW = position). Infinite: direction only, depth 0 (reverse-Z far).
#include "background_common.glsl"

layout(location = 0) out vec3 v_dir;
layout(location = 1) out vec3 v_position;
layout(location = 2) out vec3 v_view;

// Faces +Z, −Z, +X, −X, +Y, −Y (seeds/004's box order), two triangles each.
const vec3 corners[24] = vec3[](
    vec3(1, -1, 1), vec3(-1, -1, 1), vec3(-1, 1, 1), vec3(1, 1, 1),
    vec3(1, 1, -1), vec3(-1, 1, -1), vec3(-1, -1, -1), vec3(1, -1, -1),
    vec3(1, 1, -1), vec3(1, -1, -1), vec3(1, -1, 1), vec3(1, 1, 1),
    vec3(-1, 1, 1), vec3(-1, -1, 1), vec3(-1, -1, -1), vec3(-1, 1, -1),
    vec3(-1, 1, 1), vec3(-1, 1, -1), vec3(1, 1, -1), vec3(1, 1, 1),
    vec3(1, -1, 1), vec3(1, -1, -1), vec3(-1, -1, -1), vec3(-1, -1, 1));
const int face_index[6] = int[](2, 1, 0, 3, 2, 0);

void main() {
    int face = gl_VertexIndex / 6, k = gl_VertexIndex % 6;
    vec3 local = corners[face * 4 + face_index[k]];
    v_dir = local;
    if ((bg.flags.x & ORRI_BG_INFINITE) != 0u) {
        vec3 d = mat3(bg.world) * local;
        v_position = d;
        v_view = (bg.view * vec4(d, 0.0)).xyz;
        vec4 clip = bg.view_proj * vec4(d, 0.0);
        clip.z = 0.0;
        gl_Position = clip;
        return;
    }
    vec4 world_pos = bg.world * vec4(local, 1.0);
    v_position = world_pos.xyz;
    v_view = (bg.view * world_pos).xyz;
    gl_Position = bg.view_proj * world_pos;
}
