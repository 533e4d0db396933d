#version 450
// Raw Vulkan baseline for bench_instances: unit cube, per-instance matrix
// (4 vec4 at the instance rate), MVP, world-space normal for N·L shading.
layout(push_constant) uniform Push {
    mat4 view_proj;
    vec4 eye;       // xyz: eye position
    vec4 light_dir; // xyz: direction the light travels
    vec4 diffuse;   // rgb: material diffuse
} pc;
layout(location = 0) in vec3 in_position;
layout(location = 1) in vec3 in_normal;
layout(location = 2) in vec4 world0;
layout(location = 3) in vec4 world1;
layout(location = 4) in vec4 world2;
layout(location = 5) in vec4 world3;
layout(location = 0) out vec3 v_position;
layout(location = 1) out vec3 v_normal;
void main() {
    mat4 world = mat4(world0, world1, world2, world3);
    vec4 wp = world * vec4(in_position, 1.0);
    v_position = wp.xyz;
    v_normal = mat3(world) * in_normal;
    gl_Position = pc.view_proj * wp;
}
