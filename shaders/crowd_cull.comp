#version 450
// Skinned crowd, pass 1 (niagara drawcull shape, as shaders/cull_body.glsl):
// one thread per active instance tests the crowd's pose sphere, placed by
// the crowd mesh's world × the instance matrix, against the six frustum
// planes, and appends visible instances: each adds the mesh's index count to
// the draw's index count, so the slot it gets is the old count / indices.
#include "crowd_common.glsl"

layout(local_size_x = ORRI_CROWD_GROUP) in;

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= frame.info.x) return;
    mat4 w = frame.world * instance_matrix(i);
    vec3 c = (w * vec4(frame.sphere.xyz, 1.0)).xyz;
    float s = sqrt(max(dot(w[0].xyz, w[0].xyz), max(dot(w[1].xyz, w[1].xyz), dot(w[2].xyz, w[2].xyz))));
    if (s == 0.0) return; // zero scale: parked
    float r = frame.sphere.w * s;
    for (int p = 0; p < 6; p++)
        if (dot(frame.planes[p].xyz, c) + frame.planes[p].w < -r) return;
    uint slot = atomicAdd(args[0], frame.info.z) / frame.info.z;
    visible[slot] = i;
}
