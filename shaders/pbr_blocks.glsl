// The draws' PBR blocks (decision 83): one per ORRI_SHADER_STRIDE bytes of
// the frame slot's shader-block buffer. In a multi-draw run each draw reads
// its own, indexed by its object index (pc.object + gl_DrawID). Every field
// is a vec4 or uvec4, so std430 reads what the C side packs.
//
// The vertex stage reads what the fragment stage's derivatives and texture
// loops depend on (flags, UV transforms, normal-map scale and frame signs,
// the cube's highest lod) and passes it on as flat or interpolated values:
// llvmpipe (Mesa 22.3) returns zeros from storage-buffer loads in helper
// invocations, so a fragment stage that read them there took derivatives of
// garbage along triangle edges (a seam on each quad's diagonal, blurred
// texels) and ran the cube's lod loop unevenly within a quad (blocks of
// wrong reflections): seen in the showcase and the parity scenes. Values the
// fragment stage reads itself enter nothing a derivative or quad sees.
// Included by pbr_vert.glsl and pbr.frag.
struct OrriPbrSlot {
    ORRI_PBR_FIELDS
    vec4 pad_[ORRI_SHADER_STRIDE / 16u - 26u];
};
layout(set = 1, binding = 1, std430) readonly buffer PbrBlocks { OrriPbrSlot pbr_blocks[]; };
// A draw that forms no run reads its block as before, from a uniform buffer
// at its dynamic offset: on the H200 the storage-buffer reads made the
// WaterBottle's pass 5.7 % slower (decision 83). Specialisation constant 1:
// true in the pipelines record.c binds for multi-draw runs.
layout(set = 1, binding = 0, std140) uniform PbrBlock { ORRI_PBR_FIELDS } pbr_one;
layout(constant_id = 1) const bool ORRI_PBR_RUN = false;
// Field f of this draw's block (ORRI_PBR_INDEX: the stage's object index).
#define PBR(f) (ORRI_PBR_RUN ? pbr_blocks[ORRI_PBR_INDEX].f : pbr_one.f)
