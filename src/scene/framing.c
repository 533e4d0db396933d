/* framing.c — the scene's world extends and Babylon.js's default camera
 * (scene.getWorldExtends, scene.createDefaultCamera(true) as
 * createDefaultCameraOrLight calls it). CPU only.
 *
 * The extends are the union of each mesh's world box, or, when its thin
 * instances have world bounds enabled, the box of its instances (Babylon's
 * bounding info after thinInstanceRefreshBoundingInfo); meshes without
 * vertices are skipped. Boxes of meshes in integer cells are moved to
 * absolute float64 metres first. The environment's auto sizing
 * (src/background/sizing.c) reads the same extends over every mesh, visible or
 * not, as Babylon's EnvironmentHelper does; the default camera reads the
 * visible ones, as createDefaultCamera does.
 */
#include <math.h>

#define HALF_PI 1.5707963267948966

#include "orrery/instances.h"
#include "scene/scene_int.h"
#include "scene/thin_int.h"

static orr_dbox offset_box(orr_dbox b, orr_cell3 cell) {
    orr_dvec3 o = orr_cell3_diff_metres(cell, (orr_cell3){0, 0, 0});
    return (orr_dbox){orr_dvec3_add(b.min, o), orr_dvec3_add(b.max, o)};
}

orr_dbox orr_scene_get_world_extends(orr_scene *s, bool visible_only) {
    orr_dbox box = orr_dbox_empty();
    if (!s) return box;
    orri_node_iter it = orri_scene_nodes(s, ORRI_NODE_MESH);
    it.visible_only = visible_only;
    while (orri_node_next(&it)) {
        orri_node *n = it.node;
        if (orri_node_mesh(n)->geometry.vertex_count == 0) continue;
        orr_mesh m = {it.id};
        orri_thin_instances *t = orri_thin_of(n);
        orr_dbox b = t && t->world_bounds ? orr_instances_query_world_box(s, m) : orr_mesh_get_world_box(s, m);
        if (orr_dbox_is_empty(b)) continue;
        box = orr_dbox_union(box, offset_box(b, orri_node_cell(s, n)));
    }
    return box;
}

orr_arc_rotate_desc orr_camera_default_desc(orr_scene *s) {
    orr_dbox box = orr_scene_get_world_extends(s, true);
    orr_dvec3 size = orr_dvec3_sub(box.max, box.min);
    orr_dvec3 centre = orr_dvec3_add(box.min, orr_dvec3_scale(size, 0.5));
    double radius = 1.5 * sqrt(size.x * size.x + size.y * size.y + size.z * size.z);
    if (orr_dbox_is_empty(box) || !isfinite(radius) || radius <= 0) radius = 1, centre = (orr_dvec3){0, 0, 0};
    return (orr_arc_rotate_desc){.alpha = -HALF_PI,
                                 .beta = HALF_PI,
                                 .radius = radius,
                                 .target = centre,
                                 .near = radius * 0.01,
                                 .far = radius * 1000,
                                 .lower_radius_limit = radius * 0.01,
                                 .label = "default camera"};
}

orr_camera orr_camera_create_default(orr_scene *s) {
    orr_arc_rotate_desc d = orr_camera_default_desc(s);
    orr_camera c = orr_camera_create_arc_rotate(s, &d);
    if (c.id) orr_scene_set_active_camera(s, c);
    return c;
}
