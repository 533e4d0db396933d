// Thin-instance GPU frustum culling (seeds/003; niagara drawcull shape): one
// thread per instance tests its bounding sphere — mesh world × instance world
// applied to the local sphere, radius scaled by the largest axis — against six
// planes in the same frame as the mesh world, and appends visible matrices and
// colours with an atomic counter that is the instance count of the draw's
// vkCmdDrawIndexedIndirect arguments. Conservative: touching spheres stay.
// With LOD partners (a pair or a chain of up to 8 levels) the visible set
// splits by (dithered) distance into a bucket per level (bounded, decision
// 82: a full one sends its overflow to level 0). Shadow passes
// (lod_pass, decision 70) select the same level with the main view's eye and
// pack the levels into one buffer in two passes (count, then place).
// With ORR_PLANET (planetary instances) each instance also has a float64
// position stored as double-single pairs; the final world translation is
// computed here, eye-relative, in double-single arithmetic, and the culled
// matrix written out is the whole final world (the draw's mesh world is then
// the identity). With ORR_OCCLUSION (cull_occlusion.comp) the pass runs twice
// a frame, two-phase occlusion culling (src/render/occlusion.c): phase 1 keeps
// the frustum-visible instances whose visibility word says "visible last
// frame"; phase 2 tests every frustum-visible instance against the depth
// pyramid of what phase 1 drew, writes the words, and appends the newly
// visible ones after phase 1's (their count goes to the late arguments).
// Included by cull.comp, cull_planet.comp and cull_occlusion.comp.
#include "gpu_types_cull.h"
#ifdef ORR_PLANET
#include "ds.glsl"
#endif

layout(local_size_x = ORRI_CULL_GROUP) in;
layout(set = 0, binding = 0, std140) uniform CullBlock { OrriCull cull; };
layout(set = 0, binding = 1, std430) readonly buffer InMatrices { mat4 in_matrices[]; };
layout(set = 0, binding = 2, std430) readonly buffer InColors { vec4 in_colors[]; };
layout(set = 0, binding = 3, std430) writeonly buffer OutMatrices { mat4 out_matrices[]; };
layout(set = 0, binding = 4, std430) writeonly buffer OutColors { vec4 out_colors[]; };
layout(set = 0, binding = 5, std430) buffer Args { uint args[]; };
layout(set = 0, binding = 6, std430) writeonly buffer FarMatrices { mat4 far_matrices[]; };
layout(set = 0, binding = 7, std430) writeonly buffer FarColors { vec4 far_colors[]; };
layout(set = 0, binding = 8, std430) readonly buffer Positions { vec4 positions[]; }; // hi, lo per instance
#ifdef ORR_OCCLUSION
layout(set = 0, binding = 9, std430) readonly buffer Pyramid { float hiz[]; };
layout(set = 0, binding = 10, std430) buffer Visibility { uint visible[]; };
layout(set = 0, binding = 11, std430) buffer LateArgs { uint late_args[]; };
layout(push_constant) uniform Occlusion { OrriOcclusion occ; };

#include "hiz_test.glsl"
#endif

#ifdef ORR_PLANET
// Eye-relative world of instance i: rotation/scale R = mat3(mesh_world) ·
// mat3(inst); translation = R_mesh · (p + t_inst) + (mesh translation − eye),
// every sum and product of large terms in double-single.
mat4 planet_world(uint i, mat4 inst) {
    mat3 rm = mat3(cull.mesh_world);
    vec3 ph = positions[2u * i].xyz, pl = positions[2u * i + 1u].xyz;
    vec3 t;
    for (int k = 0; k < 3; k++) {
        vec2 acc = vec2(cull.offset_hi[k], cull.offset_lo[k]);
        for (int j = 0; j < 3; j++) {
            vec2 pj = ds_add(vec2(ph[j], pl[j]), ds_from(inst[3][j]));
            acc = ds_add(acc, ds_mul(ds_from(rm[j][k]), pj));
        }
        t[k] = ds_value(acc);
    }
    mat3 r = rm * mat3(inst);
    return mat4(vec4(r[0], 0.0), vec4(r[1], 0.0), vec4(r[2], 0.0), vec4(t, 1.0));
}
#endif

// The instanceCount uint of level k's arguments (0: the draw's own).
uint level_count_at(uint k) {
    return k == 0u ? cull.info.y : cull.lod_args[(k - 1u) >> 2u][(k - 1u) & 3u];
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (cull.lod_pass.x == 2u && i == 0u) {
        // Each level's firstInstance: the counts of the levels below it.
        uint first = 0u;
        for (uint k = 0u; k <= uint(cull.lod.z + 0.5); k++) {
            args[level_count_at(k) + 3u] = first;
            first += args[level_count_at(k)];
        }
    }
#ifdef ORR_OCCLUSION
    if (occ.phase.x == 2u && cull.info.z == 1u && i == 0u) {
        // Shared buckets (decision 82): a level's draws start at its first
        // row; the late arguments were copied with firstInstance = phase 1's
        // count, so the late draw starts that far into the level.
        for (uint k = 0u; k < uint(cull.lod.z + 0.5); k++)
            late_args[cull.lod_args[k >> 2u][k & 3u] + 3u] += cull.lod_base[k >> 2u][k & 3u];
    }
#endif
    if (i >= cull.info.x) return;
    mat4 inst = in_matrices[i];
#ifdef ORR_PLANET
    mat4 w = planet_world(i, inst);
    inst = w; // the draw's mesh world is the identity
#else
    mat4 w = cull.mesh_world * inst;
#endif
    vec3 c = (w * vec4(cull.sphere.xyz, 1.0)).xyz;
    float s = sqrt(max(dot(w[0].xyz, w[0].xyz), max(dot(w[1].xyz, w[1].xyz), dot(w[2].xyz, w[2].xyz))));
    float r = cull.sphere.w * s;
    if (s == 0.0) return; // parked (zero-scale) instance
#ifdef ORR_OCCLUSION
    bool inside = true;
    for (int p = 0; p < 6; p++)
        if (dot(cull.planes[p].xyz, c) + cull.planes[p].w < -r) inside = false;
    bool was = visible[i] != 0u;
    if (occ.phase.x == 1u) {
        if (!inside || !was) return;
    } else {
        bool now = inside && !occluded(c, r);
        visible[i] = now ? 1u : 0u;
        if (!now || was) return; // drawn in phase 1 already, or hidden
    }
#else
    for (int p = 0; p < 6; p++)
        if (dot(cull.planes[p].xyz, c) + cull.planes[p].w < -r) return;
#endif
    uint partners = uint(cull.lod.z + 0.5);
    uint level = 0u;
    if (partners > 0u) {
        // Level of detail (decision 62): level k + 1 when the dithered
        // distance reaches its switch distance, the last such level winning
        // (orr_lod_select's rule); one dithered distance for every switch, so
        // each instance lands in exactly one bucket. A pair has one switch
        // and an absolute band (lod.x), a chain a relative band (lod.y).
        uint h;
        ORRI_LOD_HASH(i, h)
        float dither = float(h) * (1.0 / 4294967296.0) - 0.5;
        // A chain's switch distances are in the mesh's units (errors scale
        // with the instance): compare the distance over the largest scale.
        float d = distance(c, cull.eye.xyz);
        if (cull.lod.w > 0.5) d /= s;
        float off = dither * (cull.lod.x + cull.lod.y * d);
        for (uint k = 0u; k < partners; k++)
            if (d >= cull.lod_switch[k >> 2u][k & 3u] + off) level = k + 1u;
    }
    if (cull.lod_pass.x != 0u) {
        // Shadow passes (decision 70): the main view's level, in one buffer
        // of count rows. Pass 1 counts each level; pass 2 places an instance
        // after the rows of the levels below its own.
        if (cull.lod_pass.x == 1u) {
            atomicAdd(args[level_count_at(level)], 1u);
            return;
        }
        uint first = 0u;
        for (uint k = 0u; k < level; k++) first += args[level_count_at(k)];
        uint row = first + atomicAdd(args[cull.lod_pass.y + level], 1u);
        out_matrices[row] = inst;
        out_colors[row] = in_colors[i];
        return;
    }
    if (level > 0u) {
        // Level k's bucket holds lod_cap rows from lod_base (decision 82). A
        // full bucket gives the row back (the count then ends at exactly
        // lod_cap, and the rows below it are handed out once each) and the
        // instance is drawn at level 0, whose bucket holds every instance:
        // finer than chosen for a frame, never missing.
        uint seg = level - 1u, at = cull.lod_args[seg >> 2u][seg & 3u];
        uint slot = atomicAdd(args[at], 1u);
        if (slot < cull.lod_cap[seg >> 2u][seg & 3u]) {
#ifdef ORR_OCCLUSION
            if (occ.phase.x == 2u) atomicAdd(late_args[at], 1u);
#endif
            uint row = cull.lod_base[seg >> 2u][seg & 3u] + slot;
            far_matrices[row] = inst;
            far_colors[row] = in_colors[i];
            return;
        }
        atomicAdd(args[at], 0xFFFFFFFFu);
    }
    uint slot = atomicAdd(args[cull.info.y], 1u);
#ifdef ORR_OCCLUSION
    if (occ.phase.x == 2u) atomicAdd(late_args[cull.info.y], 1u);
#endif
    out_matrices[slot] = inst;
    out_colors[slot] = in_colors[i];
}
