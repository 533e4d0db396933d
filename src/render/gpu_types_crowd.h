/* gpu_types_crowd.h — the skinned crowd's per-frame block, shared by C
 * (src/render/crowd_gpu.c) and GLSL (shaders/crowd_cull.comp,
 * shaders/crowd_skin.comp). vec4/mat4/uvec4 only.
 *
 * One host-visible buffer per crowd and frame slot: the frame header, then
 * one record per active instance. Baked joint matrices (src/anim/crowd.c)
 * are 3 vec4 rows each (row-major 3×4), `joints` per baked frame. */
#ifndef ORRI_GPU_TYPES_CROWD_H
#define ORRI_GPU_TYPES_CROWD_H

#include "gpu_types.h"

#define ORRI_CROWD_GROUP 64u    /* threads per workgroup (instances when culling, vertices when skinning) */
#define ORRI_CROWD_MAX_Y 65535u /* skinning: one workgroup row per visible slot, y then z */
#define ORRI_CROWD_TANGENTS 1u  /* info.w: skin the tangents too */

#define ORRI_CROWD_FRAME_FIELDS                                                \
    ORR_MAT4 world;     /* the crowd mesh's world as uploaded for its draw */  \
    ORR_VEC4 planes[6]; /* same frame as `world`: n·p + d >= 0 inside */      \
    ORR_VEC4 sphere;    /* bounding sphere of every baked pose, crowd frame */ \
    ORR_UVEC4 info;     /* x = instances, y = vertices, z = indices, w = flags */

/* Per instance: instance → crowd frame (affine, row-major 3×4), and the two
 * baked frames its time falls between: x, y = index of their first joint
 * matrix, z = the lerp factor's float bits. */
#define ORRI_CROWD_INSTANCE_FIELDS \
    ORR_VEC4 rows[3];              \
    ORR_UVEC4 frames;

#if defined(VULKAN) || defined(GL_SPIRV)
struct OrriCrowdFrame {
    ORRI_CROWD_FRAME_FIELDS
};
struct OrriCrowdInstance {
    ORRI_CROWD_INSTANCE_FIELDS
};
#else
typedef struct orri_gpu_crowd_frame {
    ORRI_CROWD_FRAME_FIELDS
} orri_gpu_crowd_frame;
typedef struct orri_gpu_crowd_instance {
    ORRI_CROWD_INSTANCE_FIELDS
} orri_gpu_crowd_instance;
#endif

#endif
