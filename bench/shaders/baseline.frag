#version 450
// One directional light: diffuse N·L plus Blinn-Phong specular (power 64,
// white), the same terms as Orrery's standard material with one directional
// light; clamped as Babylon.js does.
layout(push_constant) uniform Push {
    mat4 view_proj;
    vec4 eye;
    vec4 light_dir; // w = 1: unlit
    vec4 diffuse;
} pc;
layout(location = 0) in vec3 v_position;
layout(location = 1) in vec3 v_normal;
layout(location = 0) out vec4 out_color;
void main() {
    if (pc.light_dir.w > 0.5) { // --unlit: flat colour (Orrery: disable_lighting, emissive = diffuse)
        out_color = vec4(pc.diffuse.rgb, 1.0);
        return;
    }
    vec3 n = normalize(v_normal);
    vec3 l = normalize(-pc.light_dir.xyz);
    vec3 v = normalize(pc.eye.xyz - v_position);
    float ndl = max(0.0, dot(n, l));
    float spec = pow(max(0.0, dot(n, normalize(v + l))), 64.0);
    vec3 c = clamp(ndl * pc.diffuse.rgb, 0.0, 1.0) + vec3(spec);
    out_color = vec4(clamp(c, 0.0, 1.0), 1.0);
}
