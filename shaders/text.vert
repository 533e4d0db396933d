#version 450
// text.vert — the text overlay's quads (src/text): two triangles per quad from
// gl_VertexIndex, one instance per quad, placed in target pixels (origin
// top-left, y down). The viewport is flipped (clip +Y up), so y maps to
// 1 − 2y/h. Depth 1 (the near plane in reverse-Z) passes the pipeline's
// GREATER_OR_EQUAL test everywhere; depth writes are off.
#include "gpu_types_text.h"

layout(std430, set = 0, binding = 0) readonly buffer Quads { OrriTextQuad quads[]; };
layout(push_constant) uniform Push { vec4 screen; } pc; // x = 2 / width, y = 2 / height

layout(location = 0) out vec2 v_uv;
layout(location = 1) out vec4 v_color;
layout(location = 2) flat out uint v_solid;

const vec2 CORNERS[6] = vec2[](vec2(0, 0), vec2(1, 0), vec2(1, 1), vec2(0, 0), vec2(1, 1), vec2(0, 1));

void main() {
    OrriTextQuad q = quads[gl_InstanceIndex];
    vec2 k = CORNERS[gl_VertexIndex];
    vec2 p = mix(q.rect.xy, q.rect.zw, k);
    v_uv = mix(q.uv.xy, q.uv.zw, k);
    v_color = q.color;
    v_solid = q.uv.x < 0.0 ? 1u : 0u;
    gl_Position = vec4(p.x * pc.screen.x - 1.0, 1.0 - p.y * pc.screen.y, 1.0, 1.0);
}
