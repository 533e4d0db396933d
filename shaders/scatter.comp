#version 450
// Scatter of dirty thin-instance rows (seeds/003 "dirty ranges"): the rows
// that changed are packed in the frame's staging buffer, followed by their
// destination row indices; one thread copies one row (4 vec4 for a matrix, 1
// for a colour) into the stable instance buffer. Used when an update touches
// many scattered ranges, where one copy region per range is slow on GPUs.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer Src { vec4 src[]; };
layout(set = 0, binding = 1, std430) readonly buffer Idx { uint idx[]; };
layout(set = 0, binding = 2, std430) writeonly buffer Dst { vec4 dst[]; };
layout(push_constant) uniform Push {
    uint rows;        // number of rows
    uint row_vec4s;   // 4 (matrices) or 1 (colours)
    uint src_offset;  // in vec4 units
    uint idx_offset;  // in uint units
} pc;

void main() {
    uint r = gl_GlobalInvocationID.x;
    if (r >= pc.rows) return;
    uint d = idx[pc.idx_offset + r] * pc.row_vec4s, s = pc.src_offset + r * pc.row_vec4s;
    for (uint k = 0u; k < pc.row_vec4s; k++) dst[d + k] = src[s + k];
}
