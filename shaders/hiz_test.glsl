// The depth-pyramid test of two-phase occlusion culling, shared by the
// thin-instance pass (cull_body.glsl) and the mesh pass (mesh_occlusion.comp).
// The includer declares the push constant block `occ` (OrriOcclusion) and the
// pyramid buffer `hiz` (every level, level 0 first, row by row).
// Conservative: true only when every pixel the sphere (c, r) can cover holds
// depth strictly nearer than the sphere's nearest point. The 8 corners of the
// sphere's cube bound its projection (convex) and its nearest depth (reverse-Z
// depth is monotonic in view depth, extreme at a corner). Pyramid level k,
// texel x covers level-0 pixels [x·2^k, (x+1)·2^k); each texel holds the
// farthest (smallest, reverse-Z) depth of those pixels.
bool occluded(vec3 c, float r) {
    vec2 lo = vec2(1e30), hi = vec2(-1e30);
    float znear = 0.0;
    for (int k = 0; k < 8; k++) {
        vec3 p = c + r * vec3((k & 1) != 0 ? 1.0 : -1.0, (k & 2) != 0 ? 1.0 : -1.0, (k & 4) != 0 ? 1.0 : -1.0);
        vec4 q = occ.view_proj * vec4(p, 1.0);
        if (q.w <= 1e-6) return false; // reaches the eye plane: visible
        vec3 n = q.xyz / q.w;
        lo = min(lo, n.xy), hi = max(hi, n.xy);
        znear = max(znear, n.z);
    }
    if (znear >= 1.0) return false; // crosses the near plane
    // Pixels: x = (ndc.x + 1)/2 · W, y = (1 − ndc.y)/2 · H (negative-height viewport).
    vec2 size = occ.screen.xy;
    vec2 p0 = vec2((lo.x + 1.0) * 0.5, (1.0 - hi.y) * 0.5) * size - 1.0; // one pixel of margin
    vec2 p1 = vec2((hi.x + 1.0) * 0.5, (1.0 - lo.y) * 0.5) * size + 1.0;
    ivec2 a = clamp(ivec2(floor(p0)), ivec2(0), ivec2(size) - 1);
    ivec2 b = clamp(ivec2(floor(p1)), ivec2(0), ivec2(size) - 1);
    uint level = 0u, w = uint(size.x), h = uint(size.y), base = 0u;
    while (((b.x >> level) - (a.x >> level)) > 1 || ((b.y >> level) - (a.y >> level)) > 1) {
        base += w * h;
        w = (w + 1u) >> 1u, h = (h + 1u) >> 1u;
        level++;
    }
    float farthest = 1.0;
    for (int y = a.y >> level; y <= (b.y >> level); y++)
        for (int x = a.x >> level; x <= (b.x >> level); x++) farthest = min(farthest, hiz[base + uint(y) * w + uint(x)]);
    // Strictly behind, with a relative margin for float32 projection error.
    return znear * (1.0 + 1.0 / 4096.0) < farthest;
}
