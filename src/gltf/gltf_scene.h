/* gltf_scene.h — the scene side of the glTF loader: the shared part of a
 * model (the decoded document, its textures and materials; reference
 * counted by its copies) and one copy's scene objects. */
#ifndef ORRI_GLTF_SCENE_H
#define ORRI_GLTF_SCENE_H

#include "gltf_int.h"
#include "orrery/animation.h"
#include "orrery/gltf.h"
#include "orrery/handedness.h"

typedef struct orri_gltf_asset {
    uint32_t refs; /* copies alive */
    orr_scene *scene;
    orri_gltf_ctx ctx; /* allocator; error pointers cleared after the load */
    orri_gltf_doc doc;
    orr_texture *textures;   /* texture_count × 2: [i * 2 + srgb] */
    orr_material *materials; /* material_count */
    orr_material default_material;
    /* Every drawn primitive's vertex data, moved out of the document once
     * (NULL: not drawn), shared by the meshes of every copy:
     * shares[prim_base[mesh] + primitive]. */
    struct orri_geometry_share **shares;
    uint32_t *prim_base; /* mesh_count + 1 */
} orri_gltf_asset;

struct orr_gltf {
    orri_gltf_asset *asset;
    orr_node root;
    orr_node *nodes;     /* node_count (0: not in the default scene) */
    uint32_t *mesh_from; /* node_count + 1: node i's meshes are meshes[mesh_from[i] .. mesh_from[i + 1]) */
    orr_mesh *meshes;
    uint32_t mesh_total;
    orr_camera *cameras;
    orr_light *lights;
    uint32_t camera_count, light_count;
    orr_skin *skins;              /* skin_count (0: skipped) */
    orr_animation_group **groups; /* animation_count */
    bool with_cameras, with_lights, play_first;
    orr_gltf *next_in_scene; /* the scene's list of copies (destroyed with the scene) */
};

/* scene_material.c: every material (and the textures they use), once per asset. */
orr_result orri_gltf_make_materials(orri_gltf_asset *a);
void orri_gltf_release_materials(orri_gltf_asset *a);
/* The material of a primitive (the default material made on first use). */
orr_result orri_gltf_material_for(orri_gltf_asset *a, int32_t index, orr_material *out);

/* scene_build.c: the shared geometries (once per asset), then one copy's
 * scene objects under a new __root__. */
orr_result orri_gltf_make_shares(orri_gltf_asset *a);
void orri_gltf_release_shares(orri_gltf_asset *a);
/* The geometry of mesh `mesh`'s primitive `prim` (NULL: not drawn). */
const orr_geometry *orri_gltf_prim_geometry(const orri_gltf_asset *a, uint32_t mesh, uint32_t prim);
orr_result orri_gltf_build(orri_gltf_asset *a, orr_node parent, orr_gltf *g);
void orri_gltf_unbuild(orr_scene *scene, orr_gltf *g);

/* scene_anim.c: skins, morph weights and animation groups of a built copy. */
orr_result orri_gltf_animate(orri_gltf_asset *a, orr_gltf *g, bool play_first);
void orri_gltf_unanimate(orr_scene *scene, orr_gltf *g);

#endif
