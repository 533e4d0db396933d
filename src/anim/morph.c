/* morph.c — morph target weights of a mesh (glTF mesh.weights / the WEIGHTS
 * animation path). The renderer morphs positions and normals by them:
 * p = p0 + Σ w_t · Δp_t (glTF 2.0 §3.7.2.2, Morph Targets). */
#include <math.h>

#include "anim/anim_int.h"

void orr_mesh_set_morph_weights(orr_scene *s, orr_mesh mesh, const float *weights, uint32_t count) {
    orri_node *n = orri_node_get_kind(s, mesh.id, ORRI_NODE_MESH, "orr_mesh_set_morph_weights");
    if (!n) return;
    uint32_t targets = n->u.mesh.geometry.morph_count;
    if (count > targets || (count && !weights)) {
        orri_misuse(s->ctx, count > targets ? ORR_MSG_OUT_OF_RANGE : ORR_MSG_NULL_ARGUMENT,
                    "orr_mesh_set_morph_weights: '%s': %u weights for %u morph targets, or weights is NULL", n->label,
                    count, targets);
        return;
    }
    for (uint32_t i = 0; i < count; i++)
        if (!isfinite(weights[i])) {
            orri_misuse(s->ctx, ORR_MSG_NOT_FINITE, "orr_mesh_set_morph_weights: '%s': weight %u is not finite",
                        n->label, i);
            return;
        }
    for (uint32_t i = 0; i < ORR_GEOMETRY_MAX_MORPH_TARGETS; i++)
        n->u.mesh.morph_weights[i] = i < count ? weights[i] : 0;
}

uint32_t orr_mesh_get_morph_weights(const orr_scene *s, orr_mesh mesh, float *weights, uint32_t capacity) {
    orri_node *n = orri_node_get_kind(s, mesh.id, ORRI_NODE_MESH, "orr_mesh_get_morph_weights");
    if (!n) return 0;
    uint32_t count = n->u.mesh.geometry.morph_count;
    for (uint32_t i = 0; weights && i < count && i < capacity; i++) weights[i] = n->u.mesh.morph_weights[i];
    return count;
}
