/* orrery/scene.h — scenes, nodes, cameras, lights and meshes (CPU side).
 *
 * Usage:
 *     orr_scene *scene;
 *     orr_scene_create(engine, &(orr_scene_desc){ .clear_color = {0.2, 0.2, 0.3, 1} }, &scene);
 *     orr_camera cam = orr_camera_create_arc_rotate(scene, &(orr_arc_rotate_desc){
 *         .alpha = -M_PI / 2, .beta = M_PI / 3, .radius = 10 });
 *     orr_light_create(scene, &(orr_light_desc){ .type = ORR_LIGHT_HEMISPHERIC,
 *                                                .direction = {0, 1, 0}, .intensity = 0.7 });
 *     orr_geometry g; orr_geometry_build_box(NULL, NULL, &g);
 *     orr_mesh box = orr_mesh_create(scene, &(orr_mesh_desc){ .geometry = &g, .label = "box" });
 *     orr_geometry_free(&g);   // the mesh keeps its own copy
 *     orr_node_set_position(scene, orr_mesh_node(box), (orr_dvec3){0, 1, 0});
 *
 * Every object of a scene is a node (transform + parent) with a kind: plain
 * transform node, mesh, camera or light. Handles are generational ids: a null,
 * stale or foreign handle is reported by name (API misuse) and the call does
 * nothing (getters return a zero value). Handles are values; 0 is never valid.
 *
 * Versions, not dirty flags (docs/architecture.md): every change to a node's local
 * transform, or to any ancestor, bumps the world version of the node; the
 * renderer remembers the versions it uploaded. Positions are float64
 * (docs/architecture.md, "Precision rule"). Babylon.js semantics throughout: left-handed, rotation
 * quaternion wins over Euler rotation once set, world = parent world · T·R·S.
 *
 * The scene module never touches Vulkan: everything here works (and tests)
 * without a GPU, and the renderer (orr_engine_render) turns it into draws.
 */
#ifndef ORRERY_SCENE_H
#define ORRERY_SCENE_H

#include <math.h> /* INFINITY (ORR_FAR_INFINITE) */
#include <stdbool.h>
#include <stdint.h>

#include "orrery/core.h"
#include "orrery/engine.h"
#include "orrery/geometry.h"
#include "orrery/math.h"
#include "orrery/wpos.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct orr_node {
    uint32_t id;
} orr_node;
typedef struct orr_mesh {
    uint32_t id;
} orr_mesh;
typedef struct orr_camera {
    uint32_t id;
} orr_camera;
typedef struct orr_light {
    uint32_t id;
} orr_light;
typedef struct orr_material {
    uint32_t id;
} orr_material;

typedef struct orr_color3 {
    double r, g, b;
} orr_color3;
typedef struct orr_color4 {
    double r, g, b, a;
} orr_color4;
/* Optional colours (core.h, "Descs and their defaults"): zero = not set. */
typedef struct orr_opt_color3 {
    bool set;
    orr_color3 value;
} orr_opt_color3;
typedef struct orr_opt_color4 {
    bool set;
    orr_color4 value;
} orr_opt_color4;
#define ORR_RGB(r_, g_, b_) (ORR_LITERAL_(orr_opt_color3){true, {(r_), (g_), (b_)}})
#define ORR_RGBA(r_, g_, b_, a_) (ORR_LITERAL_(orr_opt_color4){true, {(r_), (g_), (b_), (a_)}})
/* An optional vector: .target = ORR_DVEC3(0, 0, 0) aims at the origin. */
typedef struct orr_opt_dvec3 {
    bool set;
    orr_dvec3 value;
} orr_opt_dvec3;
#define ORR_DVEC3(x_, y_, z_) (ORR_LITERAL_(orr_opt_dvec3){true, {(x_), (y_), (z_)}})

typedef enum orr_fog_mode {
    ORR_FOG_NONE = 0,
    ORR_FOG_EXP = 1,    /* 1 / e^(d·density) */
    ORR_FOG_EXP2 = 2,   /* 1 / e^((d·density)²) */
    ORR_FOG_LINEAR = 3, /* (end − d) / (end − start) */
} orr_fog_mode;

typedef struct orr_fog {
    orr_fog_mode mode;
    orr_opt_color3 color; /* default Babylon.js (0.2, 0.2, 0.3) */
    orr_opt_f64 density;  /* default 0.1 */
    double start, end;    /* default 0 and 1000 (end 0 = 1000) */
} orr_fog;

typedef struct orr_scene_desc {
    orr_opt_color4 clear_color; /* default Babylon.js (0.2, 0.2, 0.3, 1); ORR_RGBA(0, 0, 0, 1) for black */
    orr_color3 ambient_color;   /* scene.ambientColor, default black */
    orr_fog fog;
    const char *label;
} orr_scene_desc;

orr_result orr_scene_create(orr_engine *engine, const orr_scene_desc *desc, orr_scene **out);
/* Destroys the scene and every object in it (GPU resources deferred until the
 * frames using them finish). NULL is ignored. */
void orr_scene_destroy(orr_scene *scene);
orr_engine *orr_scene_engine(const orr_scene *scene);
void orr_scene_set_clear_color(orr_scene *scene, orr_color4 c);
void orr_scene_set_fog(orr_scene *scene, const orr_fog *fog);
void orr_scene_set_ambient_color(orr_scene *scene, orr_color3 c);

/* Called at the start of every orr_engine_render of this scene, before world
 * matrices are computed and anything is uploaded (Babylon.js
 * onBeforeRenderObservable). Up to 16 callbacks; returns false when full. */
typedef void (*orr_before_render_fn)(orr_scene *scene, void *user);
bool orr_scene_add_before_render(orr_scene *scene, orr_before_render_fn fn, void *user);
void orr_scene_remove_before_render(orr_scene *scene, orr_before_render_fn fn, void *user);

/* ---- nodes --------------------------------------------------------------------- */
typedef struct orr_node_desc {
    orr_dvec3 position;
    orr_dvec3 rotation; /* Euler (x pitch, y yaw, z roll), radians */
    orr_dvec3 scaling;  /* default (1, 1, 1) when all zero */
    orr_node parent;    /* 0: scene root */
    const char *label;
} orr_node_desc;

/* A desc with a position, rotation or scaling that is not finite (NaN, ±inf)
 * is refused (0 and a misuse message); so is such a value given to a setter
 * below, which leaves the node unchanged. A quaternion must also have a
 * length (it is normalised). */
orr_node orr_node_create(orr_scene *scene, const orr_node_desc *desc);
/* Destroys any node kind (mesh, camera, light too); children are re-parented
 * to the destroyed node's parent, keeping their local transforms. */
void orr_node_destroy(orr_scene *scene, orr_node node);
bool orr_node_is_valid(const orr_scene *scene, orr_node node);
void orr_node_set_parent(orr_scene *scene, orr_node node, orr_node parent);
orr_node orr_node_get_parent(const orr_scene *scene, orr_node node);
void orr_node_set_position(orr_scene *scene, orr_node node, orr_dvec3 position);
orr_dvec3 orr_node_get_position(const orr_scene *scene, orr_node node);
/* Euler rotation (Babylon.js node.rotation); ignored while a quaternion is set. */
void orr_node_set_rotation(orr_scene *scene, orr_node node, orr_dvec3 euler);
orr_dvec3 orr_node_get_rotation(const orr_scene *scene, orr_node node);
/* Quaternion rotation (Babylon.js rotationQuaternion); wins over Euler. */
void orr_node_set_rotation_quaternion(orr_scene *scene, orr_node node, orr_dquat q);
orr_dquat orr_node_get_rotation_quaternion(const orr_scene *scene, orr_node node);
void orr_node_set_scaling(orr_scene *scene, orr_node node, orr_dvec3 scaling);
orr_dvec3 orr_node_get_scaling(const orr_scene *scene, orr_node node);
/* World matrix, recomputed on demand when this node or an ancestor changed. */
orr_dmat4 orr_node_get_world_matrix(orr_scene *scene, orr_node node);
orr_dvec3 orr_node_get_absolute_position(orr_scene *scene, orr_node node);
/* World version: changes whenever the world matrix may have changed. */
uint64_t orr_node_get_world_version(orr_scene *scene, orr_node node);

/* Beyond float64 (orrery/wpos.h): a root node may sit in an integer cell; its
 * world matrix (and its descendants') is then relative to that cell, and the
 * renderer subtracts the eye cell as an integer before any float64 math.
 * Setting a cell on a node with a parent is misuse. */
void orr_node_set_cell(orr_scene *scene, orr_node node, orr_cell3 cell);
orr_cell3 orr_node_get_cell(const orr_scene *scene, orr_node node);
/* Sets cell and position (root nodes); normalises the local part. */
void orr_node_set_world_position(orr_scene *scene, orr_node node, orr_wpos position);
/* Cell + world translation within the cell. */
orr_wpos orr_node_get_world_position(orr_scene *scene, orr_node node);

/* Babylon.js TransformNode.billboardMode (values as BILLBOARDMODE_*): the
 * node turns to face the camera about the axes in the mode, as Babylon.js's
 * computeWorldMatrix does (the camera's rotation, not its position; a parent's
 * rotation is dropped, its scale and translation kept). Applied where the
 * node is drawn (meshes, their thin instances as a group); children keep the
 * node's un-billboarded world. Modes other than X|Y|Z combinations are misuse. */
typedef enum orr_billboard_mode {
    ORR_BILLBOARD_NONE = 0,
    ORR_BILLBOARD_X = 1,
    ORR_BILLBOARD_Y = 2,
    ORR_BILLBOARD_Z = 4,
    ORR_BILLBOARD_ALL = 7,
} orr_billboard_mode;
void orr_node_set_billboard_mode(orr_scene *scene, orr_node node, uint32_t mode);
uint32_t orr_node_get_billboard_mode(const orr_scene *scene, orr_node node);
/* The world the node is drawn with for `camera` (its plain world when not billboarded). */
orr_dmat4 orr_node_get_billboard_world_matrix(orr_scene *scene, orr_node node, orr_camera camera);

/* ---- cameras --------------------------------------------------------------------- */
/* Babylon.js cameras (TargetCamera / UniversalCamera, ArcRotateCamera), float64.
 *
 * A camera is a node: its position (and a free camera's rotation) live in
 * the node, in the parent's space, and the parent's whole world transform
 * applies, rotation and scale included (Babylon.js: view = LookAt(local) ·
 * parent world⁻¹; a camera parented under a scaled node sees the world
 * shrunk by that scale, its near and far planes in the parent's units).
 *
 * Aim of a free camera: a target point or its node's rotation, whichever was
 * set last.
 * - Target (the desc's .target, orr_camera_set_target, and the default
 *   position + (0, 0, 1)): the camera looks at the point, in the parent's
 *   space, from wherever it moves, like Babylon.js lockedTarget. Its node's
 *   rotation follows: Babylon.js setTarget's Euler angles (roll 0) are written
 *   into the node (and into its quaternion when it has one) on every set and
 *   every move, so orr_node_get_rotation reads the current aim and a program
 *   can take over from there.
 * - Rotation (the desc's .rotation, orr_node_set_rotation,
 *   orr_node_set_rotation_quaternion on orr_camera_node): the camera looks
 *   along the rotated local forward axis, +Z left-handed, −Z right-handed
 *   (Babylon.js _referencePoint), so Euler (0, 0, 0) looks down world +Z
 *   left-handed and −Z right-handed, and (0, π, 0) right-handed looks down +Z
 *   as Babylon.js's default right-handed camera does. The quaternion, once
 *   set, wins over the Euler angles, as for any node. Setting a target later
 *   switches back to aiming at it.
 *
 * Up vector (Babylon.js upVector; the descs' .up, zero = (0, 1, 0);
 * orr_camera_set_up_vector), in the parent's space, stored normalised:
 * - free camera aiming at a target: the view's up (a site on a planet
 *   passes its local vertical);
 * - free camera aiming by rotation: the view's up while the rotation has no
 *   roll (Euler z = 0, no quaternion); a roll, or a quaternion, carries the
 *   whole attitude and the view is exactly the rotation (up = R·(0, 1, 0), what
 *   Babylon.js writes into upVector when rotation.z or rotationQuaternion.z
 *   changes; the stored up vector is kept here);
 * - arc-rotate: the orbit's pole. The orbit offset r·(cos α sin β, cos β,
 *   sin α sin β) is rotated by the shortest rotation taking +Y to up (for up
 *   within 2.6° of −Y, dot < −0.999: a half turn about Z, as Babylon.js's
 *   Matrix.RotationAlignToRef does), and the view looks at the target with up.
 *
 * Clip planes: near and far are Babylon.js minZ / maxZ, distances along the
 * view axis. 0 means the default (near 1, far 10 000, Babylon.js's), in the
 * descs and in orr_camera_set_clip alike; far = ORR_FAR_INFINITE puts the
 * far plane at infinity (reverse-Z: depth 0 at infinity, Babylon.js maxZ = 0).
 * For large worlds (planets, space, flight) the infinite far plane is the
 * recommended choice: reverse-Z float32 depth keeps its precision over any
 * range, so no far distance has to be guessed (docs/precision.md).
 * A desc with near < 0, far < 0, near ≥ far, a NaN, a field of view outside
 * (0, π), a non-finite up vector, or both a target and a rotation is API
 * misuse: the camera is not created (the null handle is returned) and the
 * message names the field. */
#define ORR_FAR_INFINITE INFINITY

typedef struct orr_free_camera_desc {
    orr_dvec3 position;     /* in the parent's space */
    orr_opt_dvec3 target;   /* aim point (parent space); default position + (0, 0, 1) */
    orr_opt_dvec3 rotation; /* Euler (pitch x, yaw y, roll z), radians: aim by rotation */
    orr_dvec3 up;           /* up vector; zero = (0, 1, 0) */
    orr_node parent;        /* 0: scene root */
    double fov;             /* vertical field of view, radians, in (0, π); 0 = 0.8 */
    double near, far;       /* Babylon.js minZ / maxZ; 0 = 1 and 10 000; far may be ORR_FAR_INFINITE */
    const char *label;
} orr_free_camera_desc;

typedef struct orr_arc_rotate_desc {
    double alpha, beta, radius; /* position = target + r·(cos α sin β, cos β, sin α sin β), up = +Y */
    orr_dvec3 target;           /* orbit centre, in the parent's space */
    orr_dvec3 up;               /* orbit pole; zero = (0, 1, 0) */
    orr_node parent;            /* 0: scene root */
    double fov, near, far;      /* as for the free camera */
    /* Limits (Babylon.js lower/upperXLimit). Radius: zero means none
     * (Babylon.js null). Alpha: none unless set. Beta: default 0.01 and
     * π − 0.01, as Babylon.js. */
    double lower_radius_limit, upper_radius_limit;
    orr_opt_f64 lower_alpha_limit, upper_alpha_limit;
    orr_opt_f64 lower_beta_limit, upper_beta_limit;
    const char *label;
} orr_arc_rotate_desc;

/* Both return the null handle on misuse (see "Clip planes" above). */
orr_camera orr_camera_create_free(orr_scene *scene, const orr_free_camera_desc *desc);
orr_camera orr_camera_create_arc_rotate(orr_scene *scene, const orr_arc_rotate_desc *desc);
orr_node orr_camera_node(orr_camera camera);
/* Destroys the camera's node (children move to its parent); a scene without
 * an active camera renders nothing until one is set. */
void orr_camera_destroy(orr_scene *scene, orr_camera camera);
/* The first camera created becomes the active camera. */
void orr_scene_set_active_camera(orr_scene *scene, orr_camera camera);
orr_camera orr_scene_get_active_camera(const orr_scene *scene);

/* Free camera: aims at `target` (parent space) from now on, wherever it
 * moves, until a rotation is set on its node (see "Aim" above); position
 * through orr_node_set_position. Arc-rotate: moves the orbit centre. */
void orr_camera_set_target(orr_scene *scene, orr_camera camera, orr_dvec3 target);
/* The orbit centre of an arc-rotate camera, or the aim point a free camera
 * last had (parent space). */
orr_dvec3 orr_camera_get_target(const orr_scene *scene, orr_camera camera);
/* Up vector of either kind (see "Up vector" above); normalised when stored.
 * Zero or non-finite is misuse and changes nothing. */
void orr_camera_set_up_vector(orr_scene *scene, orr_camera camera, orr_dvec3 up);
orr_dvec3 orr_camera_get_up_vector(const orr_scene *scene, orr_camera camera);
/* Arc-rotate: parameters are clamped to the limits on every set (Babylon.js
 * clamps in its update; here the stored value is the clamped one). */
void orr_camera_set_arc(orr_scene *scene, orr_camera camera, double alpha, double beta, double radius);
void orr_camera_get_arc(const orr_scene *scene, orr_camera camera, double *alpha, double *beta, double *radius);
void orr_camera_set_arc_target(orr_scene *scene, orr_camera camera, orr_dvec3 target);
/* Vertical field of view in (0, π) radians; anything else is misuse. */
void orr_camera_set_fov(orr_scene *scene, orr_camera camera, double fov);
/* Same convention as the descs: 0 = default (near 1, far 10 000), far =
 * ORR_FAR_INFINITE for no far plane; negative, NaN or near ≥ far is misuse
 * and changes nothing. */
void orr_camera_set_clip(orr_scene *scene, orr_camera camera, double near, double far);

/* Eye position in world space (float64). */
orr_dvec3 orr_camera_get_position(orr_scene *scene, orr_camera camera);
/* View matrix (world → view) as the renderer uploads it: absolute, or, when
 * the scene's engine runs floating origin, the same matrix without its
 * translation (the eye is the origin of the upload frame): the rotation, with
 * a scaled parent's inverse scale, built from parent-space quantities only,
 * so it is as precise 10⁷ m or 10¹⁵ m (integer cells) from the origin as at
 * it. Projection for `aspect` (w / h). */
orr_dmat4 orr_camera_get_view_matrix(orr_scene *scene, orr_camera camera);
orr_dmat4 orr_camera_get_projection_matrix(orr_scene *scene, orr_camera camera, double aspect);
/* Handedness (orrery/handedness.h, docs/handedness.md). Left-handed build:
 * the view is LookAtLH (view +Z forward) and the projection the left-handed
 * reverse-Z perspective. Right-handed build: the view is Sz·V_RH,
 * Babylon.js's LookAtRH with its third row negated, and the projection stays
 * the left-handed one, so view space keeps +Z forward and clip space equals
 * Babylon.js's P_RH·V_RH; shader materials receive V_RH and P_RH themselves.
 * Camera world matrix (camera → world, absolute, float64): the inverse of
 * Babylon.js's view (LookAtLH or LookAtRH, times the parent's inverse world);
 * right-handed, the camera looks down its local −Z with +X to the right, like
 * Babylon.js. */
orr_dmat4 orr_camera_get_world_matrix(orr_scene *scene, orr_camera camera);
/* Camera world version: bumps on any change that moves or re-aims it. */
uint64_t orr_camera_get_version(orr_scene *scene, orr_camera camera);
/* Moves a root camera (every parameter, its cell, its mode flags) into `dst`,
 * possibly a scene of another engine, and destroys it in `src`. Returns the
 * camera's handle in `dst` (the first camera of a scene becomes active).
 * Moving a camera to its own scene changes nothing and returns `camera`. */
orr_camera orr_camera_move_to_scene(orr_scene *src, orr_camera camera, orr_scene *dst);

/* ---- framing ------------------------------------------------------------------------ */
/* Babylon.js scene.getWorldExtends: the union of the meshes' world boxes
 * (a mesh whose thin instances have world bounds enabled counts with the box
 * of its instances; meshes in integer cells in absolute float64 metres),
 * the visible meshes only or every mesh. An empty box (orr_dbox_is_empty)
 * when there is no mesh with vertices. */
orr_dbox orr_scene_get_world_extends(orr_scene *scene, bool visible_only);
/* The arc-rotate camera Babylon.js's createDefaultCamera(true) (and so
 * createDefaultCameraOrLight) makes for what the scene holds now: target the
 * centre of the visible meshes' extends, alpha −π/2, beta π/2, radius 1.5 ×
 * the extends' diagonal (1 at the origin for an empty scene), lower radius
 * limit, near radius × 0.01, far radius × 1000, label "default camera". A
 * program may change fields (alpha for a turntable) before creating it. */
orr_arc_rotate_desc orr_camera_default_desc(orr_scene *scene);
/* Creates that camera and makes it the active one (0 on misuse, as
 * orr_camera_create_arc_rotate). Babylon.js's default light is
 * orr_light_create with ORR_LIGHT_HEMISPHERIC and direction (0, 1, 0). */
orr_camera orr_camera_create_default(orr_scene *scene);

/* ---- lights ------------------------------------------------------------------------ */
typedef enum orr_light_type {
    ORR_LIGHT_HEMISPHERIC = 0,
    ORR_LIGHT_DIRECTIONAL = 1,
    ORR_LIGHT_POINT = 2,
    ORR_LIGHT_SPOT = 3,
} orr_light_type;

/* Babylon.js light parameters; zero fields take Babylon.js defaults:
 * diffuse and specular white, intensity 1, range infinite, ground colour black
 * (core.h, "Descs and their defaults": .intensity = ORR_F64(0) for exactly 0). */
typedef struct orr_light_desc {
    orr_light_type type;
    orr_dvec3 position;               /* point, spot: world position (node position) */
    orr_dvec3 direction;              /* hemispheric: towards the sky; directional, spot: light travel */
    orr_opt_color3 diffuse, specular; /* default white */
    orr_color3 ground_color;          /* hemispheric: default black */
    orr_opt_f64 intensity;            /* default 1 */
    double range;                     /* point, spot: 0 = infinite (Babylon Number.MAX_VALUE) */
    double angle;                     /* spot: full cone angle, radians */
    double exponent;                  /* spot: falloff exponent */
    const char *label;
} orr_light_desc;

/* Every number of the desc must be finite (range may also be +INFINITY);
 * otherwise creation fails and orr_light_set leaves the light unchanged. */
orr_light orr_light_create(orr_scene *scene, const orr_light_desc *desc);
/* The desc as orr_light_create resolves it: every optional set (NULL: the defaults). */
orr_light_desc orr_light_desc_defaults(const orr_light_desc *desc);
orr_node orr_light_node(orr_light light);
/* Destroys the light's node (children move to its parent). */
void orr_light_destroy(orr_scene *scene, orr_light light);
/* Replaces every parameter (position goes to the node). */
void orr_light_set(orr_scene *scene, orr_light light, const orr_light_desc *desc);
orr_light_desc orr_light_get(const orr_scene *scene, orr_light light);
void orr_light_set_enabled(orr_scene *scene, orr_light light, bool enabled);

/* ---- meshes ------------------------------------------------------------------------ */
typedef struct orr_mesh_desc {
    const orr_geometry *geometry; /* copied; required unless share_geometry is set */
    /* 0: the mesh gets its own copy of `geometry`. Else the new mesh shares
     * this mesh's vertex data, on the CPU and on the GPU (Babylon.js
     * clone(): one vertex and index buffer set for both; a skinned or
     * morphed sharer still gets its own deformed outputs); `geometry` must
     * then be NULL. The shared data lives until its last mesh is destroyed,
     * in any order. */
    orr_mesh share_geometry;
    orr_material material; /* 0: the scene's default standard material */
    orr_node parent;
    orr_dvec3 position, rotation, scaling; /* as orr_node_desc */
    const char *label;
    /* The GPU copy of `geometry` is reordered for the vertex cache (decision
     * 56: triangles and vertices; the picture is the same). True keeps the
     * triangle order as given (only vertices move); it is kept anyway when
     * `material` blends at creation, whose look depends on that order. */
    bool keep_triangle_order;
} orr_mesh_desc;

orr_mesh orr_mesh_create(orr_scene *scene, const orr_mesh_desc *desc);
orr_node orr_mesh_node(orr_mesh mesh);
/* Destroys the mesh's node, its thin instances and its reference to the
 * geometry (freed with its GPU buffers, when the frames in flight finish,
 * once no other mesh shares it). */
void orr_mesh_destroy(orr_scene *scene, orr_mesh mesh);
orr_mesh orr_mesh_from_node(const orr_scene *scene, orr_node node); /* 0 if not a mesh */
void orr_mesh_set_material(orr_scene *scene, orr_mesh mesh, orr_material material);
orr_material orr_mesh_get_material(const orr_scene *scene, orr_mesh mesh);
/* Invisible meshes are skipped without re-recording anything but the pass. */
void orr_mesh_set_visible(orr_scene *scene, orr_mesh mesh, bool visible);
bool orr_mesh_get_visible(const orr_scene *scene, orr_mesh mesh);
/* Two-phase GPU occlusion culling of this mesh (decision 69; the thin
 * instances' mode is orr_instances_enable_occlusion_culling): each frame the
 * mesh is drawn in the first pass only when it was visible last frame; the
 * rest is tested against a depth pyramid of that pass and the newly visible
 * ones are drawn in a second pass of the same frame, so the image equals
 * frustum culling's. Worth it for meshes often hidden behind others (a city's
 * buildings); it costs a depth pyramid per frame. Opaque draws only: a
 * transparent material, thin instances (use their own mode), a skinned crowd
 * or a LOD partner leave the mesh frustum-culled. Shadow passes are not
 * affected. */
void orr_mesh_enable_occlusion_culling(orr_scene *scene, orr_mesh mesh, bool enabled);
bool orr_mesh_get_occlusion_culling(const orr_scene *scene, orr_mesh mesh);
orr_dbox orr_mesh_get_local_box(const orr_scene *scene, orr_mesh mesh);
orr_dsphere orr_mesh_get_local_sphere(const orr_scene *scene, orr_mesh mesh);
orr_dbox orr_mesh_get_world_box(orr_scene *scene, orr_mesh mesh);
orr_dsphere orr_mesh_get_world_sphere(orr_scene *scene, orr_mesh mesh);
uint32_t orr_mesh_get_vertex_count(const orr_scene *scene, orr_mesh mesh);

#ifdef __cplusplus
}
#endif
#endif
