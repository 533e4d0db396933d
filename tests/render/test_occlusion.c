/* Two-phase GPU occlusion culling of thin instances (issue 15 item 1,
 * docs/decisions.md 55) and of individual meshes (decision 69): the image
 * equals frustum culling's over a sweep of camera poses with fast turns (MAD
 * 0; MSAA 4 at the origin, single-sample under floating origin 5·10⁶ m away;
 * a LOD partner in the thin field; multi-draw runs of shared geometry and a
 * transparent mesh among the meshes), and the number of instances or meshes
 * drawn equals a CPU reference within the pyramid's margin. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <orrery/large_world.h>

#include "harness.h"
#include "render/render_int.h"
#include "support/test_support.h"

static const double PI = 3.14159265358979323846;
static orr_engine *engine, *fo_engine;
#define W 320
#define H 240
#define FO_W 256
#define FO_H 192

static orr_engine *make_engine(bool fo) {
    orr_engine *e = NULL;
    orr_engine_desc d = {.width = fo ? FO_W : W,
                         .height = fo ? FO_H : H,
                         .msaa = fo ? 1 : 4,
                         .floating_origin = fo ? &orr_floating_origin : NULL};
    orr_test_validation_hook(&d);
    if (orr_engine_create(&d, &e) != ORR_OK) {
        fprintf(stderr, "%s\n", orr_engine_last_error(NULL));
        exit(1);
    }
    return e;
}

static orr_mat4f placed(double x, double y, double z, double scale) {
    orr_dmat4 m =
        orr_dmat4_mul(orr_dmat4_translation((orr_dvec3){x, y, z}), orr_dmat4_scaling((orr_dvec3){scale, scale, scale}));
    return orr_dmat4_to_f32(m);
}

static orr_mesh make_box(orr_scene *s, orr_material m, const char *label) {
    orr_geometry g;
    orr_geometry_build_box(NULL, NULL, &g);
    orr_mesh box = orr_mesh_create(s, &(orr_mesh_desc){.geometry = &g, .material = m, .label = label});
    orr_geometry_free(&g);
    return box;
}

/* A wall in front of a dense field of 40 × 40 coloured boxes (spheres beyond
 * 30 m through a LOD partner), all placed at `offset`. */
static orr_scene *field_scene(orr_engine *e, bool occlusion, orr_dvec3 offset, orr_mesh *out_field) {
    orr_scene *s;
    orr_scene_create(e, &(orr_scene_desc){.label = occlusion ? "occlusion" : "frustum only"}, &s);
    orr_camera_create_arc_rotate(s, &(orr_arc_rotate_desc){.alpha = -PI / 2, .beta = 1.35, .radius = 25});
    orr_camera_set_arc_target(s, orr_scene_get_active_camera(s), orr_dvec3_add(offset, (orr_dvec3){0, 1, 0}));
    orr_light_create(s, &(orr_light_desc){.type = ORR_LIGHT_HEMISPHERIC, .direction = {0.3, 1, -0.2}});
    orr_material m = orr_standard_material_create(s, &(orr_standard_material_desc){.label = "matte"});
    orr_mesh wall = make_box(s, m, "wall");
    orr_node_set_position(s, orr_mesh_node(wall), orr_dvec3_add(offset, (orr_dvec3){0, 3, 5}));
    orr_node_set_scaling(s, orr_mesh_node(wall), (orr_dvec3){16, 6, 1});
    orr_mesh field = make_box(s, m, "field");
    orr_node_set_position(s, orr_mesh_node(field), offset);
    for (int x = 0; x < 40; x++)
        for (int z = 0; z < 40; z++) {
            uint32_t k;
            orr_instances_add(s, field, placed((x - 19.5) * 1.6, 0.5 + 0.3 * ((x * 7 + z * 3) % 5), 8 + z * 1.6, 1),
                              &k);
            orr_instances_set_color(s, field, k, (orr_color4){(x % 7) / 6.0, (z % 5) / 4.0, ((x + z) % 3) / 2.0, 1});
        }
    orr_geometry g;
    orr_geometry_build_sphere(&(orr_sphere_desc){.segments = 6}, NULL, &g);
    orr_mesh lod = orr_mesh_create(s, &(orr_mesh_desc){.geometry = &g, .material = m, .label = "field lod"});
    orr_geometry_free(&g);
    orr_node_set_position(s, orr_mesh_node(lod), offset);
    orr_instances_add(s, lod, placed(0, 50, 0, 1), NULL); /* placeholder while paired */
    if (occlusion)
        orr_instances_enable_occlusion_culling(s, field, true);
    else
        orr_instances_enable_gpu_culling(s, field, true);
    CHECK(orr_instances_set_lod_partner(s, field, lod, &(orr_instances_lod_desc){.distance = 30, .band = 4}) == ORR_OK);
    *out_field = field;
    return s;
}

/* Instances the last frame drew for `mesh` (both phases; waits for the GPU). */
static uint32_t drawn(orr_engine *e, orr_scene *s, orr_mesh mesh) {
    orr_engine_wait_idle(e);
    orri_scene_gpu *sg = s->render_state;
    uint32_t slot = (e->gpu.frame_index + e->gpu.frame_count - 1) % e->gpu.frame_count;
    const VkDrawIndexedIndirectCommand *args = sg->slots[slot].indirect.mapped;
    for (uint32_t i = 0; i < sg->draw_count; i++)
        if (sg->draws[i].node == mesh.id)
            return args[i].instanceCount +
                   (sg->draws[i].lod_to[0] >= 0 ? args[sg->draws[i].lod_to[0]].instanceCount : 0);
    return UINT32_MAX;
}

static void set_pose(orr_scene *s, const double p[3]) {
    orr_camera_set_arc(s, orr_scene_get_active_camera(s), p[0], p[1], p[2]);
}

/* One step of a sweep: the image with occlusion culling (a, na drawn) equals
 * frustum culling's (b, nb drawn) and draws no more; the first step's image
 * is saved as <kind>-<name>-pose0.png. Returns what occlusion saved. */
static uint32_t compare_step(const char *kind, const char *name, int p, orr_image8 *a, orr_image8 *b, uint32_t na,
                             uint32_t nb, uint32_t of) {
    orr_diff d = orr_test_compare(a, b);
    printf("%s %s step %d: vs frustum only MAD %.4f max %d; drawn %u vs %u of %u\n", kind, name, p, d.mad, d.max, na,
           nb, of);
    if (p == 0) {
        char path[96];
        snprintf(path, sizeof path, "%s-%s-pose0.png", kind, name);
        orr_test_save_png(orr_test_out_path(path), a);
    }
    CHECK(d.mad == 0 && d.max == 0);
    CHECK(na <= nb);
    orr_test_image_free(a);
    orr_test_image_free(b);
    return nb - na;
}

static void sweep(orr_engine *e, orr_dvec3 offset, const char *name) {
    orr_mesh fo, fp;
    orr_scene *occl = field_scene(e, true, offset, &fo), *plain = field_scene(e, false, offset, &fp);
    /* One frame per pose: each turn finds last frame's visibility stale.
     * Through the wall, a small turn, a half turn (the wall behind the
     * field), closer, from the side, back through the wall, from above. */
    const double poses[][3] = {{-PI / 2, 1.35, 25}, {-PI / 2 + 0.3, 1.35, 25}, {PI / 2, 1.35, 25}, {-PI / 2, 1.45, 12},
                               {0, 1.3, 40},        {-PI / 2 - 0.4, 1.25, 30}, {-PI / 2, 0.6, 50}, {-PI / 2, 1.35, 25}};
    uint32_t saved = 0;
    for (int p = 0; p < 8; p++) {
        set_pose(occl, poses[p]);
        set_pose(plain, poses[p]);
        orr_image8 a, b;
        REQUIRE(orr_test_render(e, occl, 1, &a));
        uint32_t na = drawn(e, occl, fo);
        REQUIRE(orr_test_render(e, plain, 1, &b));
        uint32_t nb = drawn(e, plain, fp);
        saved += compare_step("occlusion", name, p, &a, &b, na, nb, 1600);
    }
    /* Control: the wall hides most of the field through the first poses. */
    CHECK(saved > 1000);
    orr_scene_destroy(occl);
    orr_scene_destroy(plain);
}

TEST(occlusion_is_invisible_across_poses_msaa4) { sweep(engine, (orr_dvec3){0, 0, 0}, "msaa4"); }

TEST(occlusion_is_invisible_far_from_origin_floating_origin) { sweep(fo_engine, (orr_dvec3){5e6, 0, -3e6}, "fo-5e6"); }

/* Instances that move out from behind the wall, and new ones that grow the
 * capacity (new visibility words, new culled buffers), appear in the frame
 * they change in: phase 2 draws them although last frame hid them. */
TEST(occlusion_follows_moves_and_capacity_growth) {
    orr_mesh fo, fp;
    orr_scene *occl = field_scene(engine, true, (orr_dvec3){0, 0, 0}, &fo);
    orr_scene *plain = field_scene(engine, false, (orr_dvec3){0, 0, 0}, &fp);
    orr_image8 a, b;
    for (int step = 0; step < 3; step++) {
        if (step == 1) /* 40 hidden boxes jump in front of the wall */
            for (uint32_t i = 0; i < 40; i++) {
                orr_mat4f m = placed(-8 + i * 0.4, 0.5 + (i % 3), -2, 0.3);
                orr_instances_set_matrix(occl, fo, i * 37, m);
                orr_instances_set_matrix(plain, fp, i * 37, m);
            }
        if (step == 2) /* 600 more: 2 200 instances, the capacity grows past 2 048 */
            for (int i = 0; i < 600; i++) {
                orr_mat4f m = placed(-12 + (i % 60) * 0.4, 4 + (i / 60) * 0.5, -1 - (i % 7) * 0.5, 0.2);
                orr_instances_add(occl, fo, m, NULL);
                orr_instances_add(plain, fp, m, NULL);
            }
        REQUIRE(orr_test_render(engine, occl, step == 0 ? 2 : 1, &a));
        uint32_t na = drawn(engine, occl, fo);
        REQUIRE(orr_test_render(engine, plain, step == 0 ? 2 : 1, &b));
        uint32_t nb = drawn(engine, plain, fp);
        orr_diff d = orr_test_compare(&a, &b);
        printf("step %d: occlusion vs frustum only MAD %.4f max %d; drawn %u vs %u of %u\n", step, d.mad, d.max, na, nb,
               orr_instances_get_count(occl, fo));
        CHECK(d.mad == 0 && d.max == 0);
        CHECK(na < nb);
        orr_test_image_free(&a);
        orr_test_image_free(&b);
    }
    CHECK(orr_instances_get_capacity(occl, fo) > 2048);
    orr_scene_destroy(occl);
    orr_scene_destroy(plain);
}

/* ---- individual meshes (decision 69) ------------------------------------------------ */

/* The same wall and a 24 × 24 field of individual box meshes sharing one
 * geometry (so consecutive draws form multi-draw runs), eight materials, and
 * a transparent pane in front (never occlusion-culled). With `occlusion`
 * every opaque mesh, the wall included, is occlusion-culled. */
static orr_scene *mesh_field_scene(orr_engine *e, bool occlusion, orr_dvec3 offset, orr_mesh *meshes) {
    orr_scene *s;
    orr_scene_create(e, &(orr_scene_desc){.label = occlusion ? "mesh occlusion" : "meshes, frustum only"}, &s);
    orr_camera_create_arc_rotate(s, &(orr_arc_rotate_desc){.alpha = -PI / 2, .beta = 1.35, .radius = 25});
    orr_camera_set_arc_target(s, orr_scene_get_active_camera(s), orr_dvec3_add(offset, (orr_dvec3){0, 1, 0}));
    orr_light_create(s, &(orr_light_desc){.type = ORR_LIGHT_HEMISPHERIC, .direction = {0.3, 1, -0.2}});
    orr_material mats[8];
    for (int k = 0; k < 8; k++)
        mats[k] = orr_standard_material_create(
            s, &(orr_standard_material_desc){
                   .diffuse = {true, {(k % 2) * 0.8 + 0.1, (k / 2 % 2) * 0.8 + 0.1, (k / 4) * 0.8 + 0.1}}});
    orr_mesh wall = make_box(s, mats[7], "wall");
    orr_node_set_position(s, orr_mesh_node(wall), orr_dvec3_add(offset, (orr_dvec3){0, 3, 5}));
    orr_node_set_scaling(s, orr_mesh_node(wall), (orr_dvec3){16, 6, 1});
    meshes[0] = wall;
    for (int x = 0; x < 24; x++)
        for (int z = 0; z < 24; z++) {
            orr_dvec3 p = {(x - 11.5) * 1.6, 0.5 + 0.3 * ((x * 7 + z * 3) % 5), 8 + z * 1.6};
            meshes[1 + x * 24 + z] = orr_mesh_create(s, &(orr_mesh_desc){.share_geometry = wall,
                                                                         .material = mats[(x / 3 + z) % 8],
                                                                         .position = orr_dvec3_add(offset, p),
                                                                         .label = "field box"});
        }
    orr_material glass = orr_standard_material_create(
        s, &(orr_standard_material_desc){.diffuse = {true, {0.2, 0.5, 0.9}}, .alpha = {true, 0.5}, .label = "glass"});
    orr_mesh pane = orr_mesh_create(s, &(orr_mesh_desc){.share_geometry = wall,
                                                        .material = glass,
                                                        .position = orr_dvec3_add(offset, (orr_dvec3){-3, 2, 2}),
                                                        .scaling = {3, 3, 0.2},
                                                        .label = "pane"});
    for (int i = 0; i < 1 + 24 * 24; i++)
        if (occlusion) orr_mesh_enable_occlusion_culling(s, meshes[i], true);
    if (occlusion) orr_mesh_enable_occlusion_culling(s, pane, true); /* transparent: stays frustum-culled */
    return s;
}

static uint32_t last_slot(orr_engine *e) { return (e->gpu.frame_index + e->gpu.frame_count - 1) % e->gpu.frame_count; }

/* Meshes the last frame drew among `meshes` (both phases; waits for the GPU). */
static uint32_t meshes_drawn(orr_engine *e, orr_scene *s, const orr_mesh *meshes, uint32_t count) {
    orr_engine_wait_idle(e);
    orri_scene_gpu *sg = s->render_state;
    uint32_t n = 0;
    const VkDrawIndexedIndirectCommand *args = sg->slots[last_slot(e)].indirect.mapped;
    for (uint32_t i = 0; i < sg->draw_count; i++)
        for (uint32_t k = 0; k < count; k++)
            if (sg->draws[i].node == meshes[k].id) n += args[i].instanceCount;
    return n;
}

#define FIELD_MESHES (1 + 24 * 24)

static void mesh_sweep(orr_engine *e, orr_dvec3 offset, const char *name) {
    orr_mesh mo[FIELD_MESHES + 40], mp[FIELD_MESHES + 40];
    orr_scene *occl = mesh_field_scene(e, true, offset, mo), *plain = mesh_field_scene(e, false, offset, mp);
    const double poses[][3] = {{-PI / 2, 1.35, 25}, {-PI / 2 + 0.3, 1.35, 25}, {PI / 2, 1.35, 25}, {-PI / 2, 1.45, 12},
                               {0, 1.3, 40},        {-PI / 2 - 0.4, 1.25, 30}, {-PI / 2, 0.6, 50}, {-PI / 2, 1.35, 25}};
    uint32_t saved = 0, count = FIELD_MESHES;
    for (int p = 0; p < 10; p++) {
        if (p < 8) {
            set_pose(occl, poses[p]);
            set_pose(plain, poses[p]);
        } else if (p == 8) { /* 30 hidden boxes jump in front of the wall */
            for (int i = 0; i < 30; i++) {
                orr_dvec3 q = orr_dvec3_add(offset, (orr_dvec3){-8 + i * 0.55, 0.5 + (i % 3), -2});
                orr_node_set_position(occl, orr_mesh_node(mo[1 + i * 17]), q);
                orr_node_set_position(plain, orr_mesh_node(mp[1 + i * 17]), q);
            }
        } else { /* 40 new meshes (a rebuild: draws move to other indices, the words grow) */
            for (int i = 0; i < 40; i++) {
                orr_mesh_desc md = {.share_geometry = mo[0],
                                    .position =
                                        orr_dvec3_add(offset, (orr_dvec3){-10 + i * 0.5, 5 + (i % 4) * 0.6, -1}),
                                    .scaling = {0.3, 0.3, 0.3}};
                mo[count] = orr_mesh_create(occl, &md);
                orr_mesh_enable_occlusion_culling(occl, mo[count], true);
                md.share_geometry = mp[0];
                mp[count++] = orr_mesh_create(plain, &md);
            }
        }
        orr_image8 a, b;
        /* The first pose at steady state: the wall is occlusion-culled too,
         * so the first frame draws everything in phase 2 and the second
         * (words from a frame without occluders) everything in phase 1. */
        REQUIRE(orr_test_render(e, occl, p == 0 ? 3 : 1, &a));
        uint32_t na = meshes_drawn(e, occl, mo, count);
        if (p == 9) { /* the slot that recorded occl's last frame: its multi-draw runs */
            const orri_slot *sl = &((orri_scene_gpu *)occl->render_state)->slots[last_slot(e)];
            uint32_t draws = ((orri_scene_gpu *)occl->render_state)->draw_count;
            printf("%s: %u draws; opaque commands %u, late commands %u\n", name, draws, sl->draw_cmds[0],
                   sl->draw_cmds[1]);
            if (e->gpu.multi_draw) CHECK(sl->draw_cmds[1] > 0 && sl->draw_cmds[1] * 10 < draws);
        }
        REQUIRE(orr_test_render(e, plain, 1, &b));
        uint32_t nb = meshes_drawn(e, plain, mp, count);
        saved += compare_step("mesh-occlusion", name, p, &a, &b, na, nb, count);
    }
    CHECK(saved > 1000); /* control: the wall hides most of the field through the first poses */
    /* Turning it off gives the CPU back the counts: every frustum-visible mesh. */
    for (uint32_t k = 0; k < count; k++) orr_mesh_enable_occlusion_culling(occl, mo[k], false);
    orr_image8 a, b;
    REQUIRE(orr_test_render(e, occl, 1, &a));
    uint32_t na = meshes_drawn(e, occl, mo, count);
    REQUIRE(orr_test_render(e, plain, 1, &b));
    CHECK(na == meshes_drawn(e, plain, mp, count));
    orr_diff d = orr_test_compare(&a, &b);
    CHECK(d.mad == 0 && d.max == 0);
    orr_test_image_free(&a);
    orr_test_image_free(&b);
    orr_scene_destroy(occl);
    orr_scene_destroy(plain);
}

TEST(mesh_occlusion_is_invisible_across_poses_msaa4) { mesh_sweep(engine, (orr_dvec3){0, 0, 0}, "msaa4"); }

TEST(mesh_occlusion_is_invisible_far_from_origin_floating_origin) {
    mesh_sweep(fo_engine, (orr_dvec3){5e6, 0, -3e6}, "fo-5e6");
}

/* ---- visible count against a CPU reference ---------------------------------------- */

typedef struct rect {
    double x0, y0, x1, y1, znear; /* pixels; reverse-Z depth of the nearest corner */
    bool valid;                   /* in front of the eye */
} rect;

/* The shader's bound: the 8 corners of the sphere's cube (or of a box). */
static rect project(orr_dmat4 vp, const orr_dvec3 *pts, int n, double w, double h) {
    rect r = {1e30, 1e30, -1e30, -1e30, 0, true};
    for (int k = 0; k < n; k++) {
        orr_dvec4 q = orr_dmat4_transform_vec4(vp, (orr_dvec4){pts[k].x, pts[k].y, pts[k].z, 1});
        if (q.w <= 1e-6) return (rect){0};
        double x = (q.x / q.w + 1) * 0.5 * w, y = (1 - q.y / q.w) * 0.5 * h;
        r.x0 = fmin(r.x0, x), r.x1 = fmax(r.x1, x), r.y0 = fmin(r.y0, y), r.y1 = fmax(r.y1, y);
        r.znear = fmax(r.znear, q.z / q.w);
    }
    return r;
}

static bool inside(rect a, rect b) { return a.x0 >= b.x0 && a.x1 <= b.x1 && a.y0 >= b.y0 && a.y1 <= b.y1; }

static rect grow(rect r, double px) {
    r.x0 -= px, r.y0 -= px, r.x1 += px, r.y1 += px;
    return r;
}

/* The pixels the shader reads for rect r: its level choice and 2 × 2 texels. */
static rect footprint(rect r, int w, int h) {
    int ax = (int)fmax(0, fmin(w - 1, floor(r.x0 - 1))), bx = (int)fmax(0, fmin(w - 1, floor(r.x1 + 1)));
    int ay = (int)fmax(0, fmin(h - 1, floor(r.y0 - 1))), by = (int)fmax(0, fmin(h - 1, floor(r.y1 + 1)));
    int k = 0;
    while ((bx >> k) - (ax >> k) > 1 || (by >> k) - (ay >> k) > 1) k++;
    rect f = {(ax >> k) << k, (ay >> k) << k, ((bx >> k) + 1) << k, ((by >> k) + 1) << k, r.znear, true};
    f.x1 = fmin(f.x1, w), f.y1 = fmin(f.y1, h);
    return f;
}

typedef struct quad {
    double x[4], y[4]; /* a convex polygon, corners in order */
} quad;

/* Every corner of r at least `margin` pixels inside q. */
static bool rect_in_quad(rect r, const quad *q, double margin) {
    double area = 0;
    for (int k = 0; k < 4; k++) area += q->x[k] * q->y[(k + 1) % 4] - q->x[(k + 1) % 4] * q->y[k];
    double sign = area > 0 ? 1 : -1;
    const double px[4] = {r.x0, r.x1, r.x1, r.x0}, py[4] = {r.y0, r.y0, r.y1, r.y1};
    for (int k = 0; k < 4; k++) {
        double ex = q->x[(k + 1) % 4] - q->x[k], ey = q->y[(k + 1) % 4] - q->y[k], len = hypot(ex, ey);
        for (int j = 0; j < 4; j++)
            if (sign * (ex * (py[j] - q->y[k]) - ey * (px[j] - q->x[k])) / len < margin) return false;
    }
    return true;
}

/* A plane of 25 × 19 boxes behind a wall: thin instances of one mesh, or
 * (meshes) as many individual meshes sharing a geometry. */
static void visible_count(bool meshes) {
    orr_scene *s;
    orr_scene_create(engine, &(orr_scene_desc){.label = "plane behind a wall"}, &s);
    orr_camera cam =
        orr_camera_create_arc_rotate(s, &(orr_arc_rotate_desc){.alpha = -PI / 2, .beta = PI / 2, .radius = 30});
    orr_light_create(s, &(orr_light_desc){.type = ORR_LIGHT_HEMISPHERIC});
    orr_material m = orr_standard_material_create(s, NULL);
    orr_mesh wall = make_box(s, m, "wall");
    orr_node_set_scaling(s, orr_mesh_node(wall), (orr_dvec3){22, 16, 1});
    orr_mesh field = {0}, plane[25 * 19];
    if (!meshes) field = make_box(s, m, "plane of boxes");
    /* One plane facing the camera: no instance hides another. */
    for (int x = 0; x < 25; x++)
        for (int y = 0; y < 19; y++) {
            if (!meshes) {
                orr_instances_add(s, field, placed((x - 12) * 1.5, (y - 9) * 1.5, 15, 0.5), NULL);
                continue;
            }
            orr_mesh *b = &plane[x * 19 + y];
            *b = orr_mesh_create(s, &(orr_mesh_desc){.share_geometry = wall,
                                                     .material = m,
                                                     .position = {(x - 12) * 1.5, (y - 9) * 1.5, 15},
                                                     .scaling = {0.5, 0.5, 0.5}});
            orr_mesh_enable_occlusion_culling(s, *b, true);
        }
    if (!meshes) orr_instances_enable_occlusion_culling(s, field, true);
    const double poses[][3] = {{-PI / 2, PI / 2, 30}, {-PI / 2 + 0.15, PI / 2 - 0.1, 30}, {-PI / 2 - 0.3, 1.4, 40}};
    for (int p = 0; p < 3; p++) {
        orr_camera_set_arc(s, cam, poses[p][0], poses[p][1], poses[p][2]);
        orr_image8 img;
        /* Steady state: last frame's words are this pose's, and the
         * statistics (frames_in_flight behind) describe a steady frame. */
        REQUIRE(orr_test_render(engine, s, 5, &img));
        if (p == 0)
            orr_test_save_png(
                orr_test_out_path(meshes ? "mesh-occlusion-count-pose0.png" : "occlusion-count-pose0.png"), &img);
        orr_test_image_free(&img);
        uint32_t gv = meshes ? meshes_drawn(engine, s, plane, 25 * 19) : drawn(engine, s, field);
        /* The statistics read back without the argument buffer: the wall and the drawn boxes. */
        orr_stats st = orr_query_stats(engine);
        printf("stats: %llu instances visible\n", (unsigned long long)st.instances_visible);
        CHECK(st.instances_visible == gv + 1u);
        orr_dmat4 vp =
            orr_dmat4_mul(orr_camera_get_projection_matrix(s, cam, (double)W / H), orr_camera_get_view_matrix(s, cam));
        orr_frustum f = orr_frustum_from_matrix(vp);
        /* The wall: its face towards the camera (local -z) surely covers its
         * projected quad, at least as near as its farthest corner; the whole
         * box may cover its 8 corners' rect. */
        orr_dmat4 ww = orr_node_get_world_matrix(s, orr_mesh_node(wall));
        orr_dvec3 c[8];
        for (int k = 0; k < 8; k++)
            c[k] =
                orr_dmat4_transform_point(ww, (orr_dvec3){k & 1 ? 0.5 : -0.5, k & 2 ? 0.5 : -0.5, k & 4 ? 0.5 : -0.5});
        rect all = project(vp, c, 8, W, H);
        quad face;
        double zwall = 1;
        const int order[4] = {0, 1, 3, 2}; /* the -z face, around */
        for (int k = 0; k < 4; k++) {
            rect one = project(vp, &c[order[k]], 1, W, H);
            face.x[k] = one.x0, face.y[k] = one.y0, zwall = fmin(zwall, one.znear);
        }
        orr_dsphere ls = orr_mesh_get_local_sphere(s, meshes ? plane[0] : field);
        orr_dmat4 mw = meshes ? orr_dmat4_identity() : orr_node_get_world_matrix(s, orr_mesh_node(field));
        const float *mats = meshes ? NULL : orr_instances_get_matrices(s, field);
        uint32_t n = meshes ? 25 * 19 : orr_instances_get_count(s, field), frustum = 0, sure = 0, possible = 0;
        for (uint32_t i = 0; i < n; i++) {
            orr_dsphere ws;
            if (meshes) {
                ws = orr_mesh_get_world_sphere(s, plane[i]);
            } else {
                orr_dmat4 inst;
                for (int k = 0; k < 16; k++) inst.m[k] = mats[16 * i + k];
                ws = orr_dsphere_transform(ls, orr_dmat4_mul(mw, inst));
            }
            if (!orr_frustum_test_sphere(&f, ws)) continue;
            frustum++;
            orr_dvec3 q[8];
            for (int k = 0; k < 8; k++)
                q[k] =
                    orr_dvec3_add(ws.center, (orr_dvec3){k & 1 ? ws.radius : -ws.radius, k & 2 ? ws.radius : -ws.radius,
                                                         k & 4 ? ws.radius : -ws.radius});
            rect r = project(vp, q, 8, W, H);
            if (!r.valid) continue;
            /* Surely culled: every pixel the shader reads is the wall's front, nearer. */
            if (rect_in_quad(footprint(r, W, H), &face, 1) && r.znear * (1 + 1.0 / 1024) < zwall) sure++;
            /* Possibly culled: its own rect inside the wall's (1 px of rasterisation slack). */
            if (inside(r, grow(all, 1)) && r.znear < all.znear * (1 + 1.0 / 1024)) possible++;
        }
        printf("%s pose %d: drawn %u (GPU); CPU reference: %u in the frustum, %u surely and %u possibly hidden "
               "-> expected [%u, %u]\n",
               meshes ? "meshes" : "thin", p, gv, frustum, sure, possible, frustum - possible, frustum - sure);
        CHECK(gv >= frustum - possible); /* never culls what may be visible */
        CHECK(gv <= frustum - sure);     /* culls what the pyramid surely hides */
        CHECK(sure * 3 > frustum);       /* control: the pose really tests occlusion */
    }
    orr_scene_destroy(s);
}

TEST(visible_count_matches_cpu_reference) { visible_count(false); }

TEST(mesh_visible_count_matches_cpu_reference) { visible_count(true); }

int main(int argc, char **argv) {
    orr_test_fail_on_validation();
    engine = make_engine(false);
    fo_engine = make_engine(true);
    int rc = RUN_TESTS(argc, argv);
    orr_engine_destroy(engine);
    orr_engine_destroy(fo_engine);
    return rc;
}
