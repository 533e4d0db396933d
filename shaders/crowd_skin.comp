#version 450
// Skinned crowd, pass 2: one thread per vertex of each visible instance
// (workgroup row y + z·65535 = the visible slot). The instance's pose is the
// lerp of the two baked frames its time falls between (joint matrices in the
// crowd frame: joint world · inverse bind, root conversion included); the
// vertex is skinned as glTF 2.0 §3.7.3 says (Σ w_i · J_i · v; normals and
// tangents by the upper 3×3, renormalised, as shaders/deform.comp), then
// placed by the instance matrix, and written at slot · vertices + v: one
// indexed draw of visible × indices indices draws every visible instance.
#include "crowd_common.glsl"

layout(local_size_x = ORRI_CROWD_GROUP) in;

// Rows of joint j's matrix at the instance's time.
void joint_rows(uint i, uint j, out vec4 r0, out vec4 r1, out vec4 r2) {
    uint a = 3u * (inst[i].frames.x + j), b = 3u * (inst[i].frames.y + j);
    float t = uintBitsToFloat(inst[i].frames.z);
    r0 = mix(palettes[a], palettes[b], t);
    r1 = mix(palettes[a + 1u], palettes[b + 1u], t);
    r2 = mix(palettes[a + 2u], palettes[b + 2u], t);
}

void main() {
    uint v = gl_GlobalInvocationID.x, count = frame.info.y;
    uint slot = gl_WorkGroupID.y + gl_WorkGroupID.z * ORRI_CROWD_MAX_Y;
    if (v >= count || slot * frame.info.z >= args[0]) return;
    uint i = visible[slot];
    uint ja = joints[2u * v], jb = joints[2u * v + 1u];
    uint js[4] = uint[4](ja & 0xffffu, ja >> 16, jb & 0xffffu, jb >> 16);
    vec4 w = weights[v];
    vec4 m0 = vec4(0.0), m1 = vec4(0.0), m2 = vec4(0.0);
    for (int k = 0; k < 4; k++) {
        if (w[k] == 0.0) continue; // a joint of weight 0 may name anything
        vec4 r0, r1, r2;
        joint_rows(i, js[k], r0, r1, r2);
        m0 += w[k] * r0, m1 += w[k] * r1, m2 += w[k] * r2;
    }
    mat4 m = mat4(vec4(m0.x, m1.x, m2.x, 0.0), vec4(m0.y, m1.y, m2.y, 0.0), vec4(m0.z, m1.z, m2.z, 0.0),
                  vec4(m0.w, m1.w, m2.w, 1.0));
    m = instance_matrix(i) * m;
    vec3 p = vec3(positions[3u * v], positions[3u * v + 1u], positions[3u * v + 2u]);
    vec3 n = vec3(normals[3u * v], normals[3u * v + 1u], normals[3u * v + 2u]);
    p = (m * vec4(p, 1.0)).xyz;
    n = mat3(m) * n;
    float len = length(n);
    if (len > 0.0) n /= len;
    uint o = slot * count + v;
    out_positions[3u * o] = p.x, out_positions[3u * o + 1u] = p.y, out_positions[3u * o + 2u] = p.z;
    out_normals[3u * o] = n.x, out_normals[3u * o + 1u] = n.y, out_normals[3u * o + 2u] = n.z;
    if ((frame.info.w & ORRI_CROWD_TANGENTS) != 0u) {
        vec4 t = tangents[v];
        vec3 ts = mat3(m) * t.xyz;
        float tl = length(ts);
        out_tangents[o] = vec4(tl > 0.0 ? ts / tl : t.xyz, t.w);
    }
}
