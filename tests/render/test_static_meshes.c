/* Many individual static meshes (issue 15, item 4): the structure key is a
 * generation counter bumped by the scene's mutators, not a hash of every mesh
 * each frame; an unchanged frame skips the per-draw pass; the mirrored-mesh
 * rule is re-derived when a world changes. Each change must still reach the
 * image: compared with a scene built in the changed state from the start. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "render/render_int.h"
#include "support/test_support.h"

static orr_engine *engine;

typedef struct city {
    orr_scene *s;
    orr_mesh meshes[64];
    orr_material red, blue;
} city;

/* 8 × 8 boxes of different heights on a grid, seen from above at an angle.
 * `mirror`: every third mesh is created with scaling x = -1. `hidden`, `blue`,
 * `moved`: a mesh index (or -1) created hidden, blue, or 2 m up. */
static city make_city(bool mirror, int hidden, int blue, int moved) {
    city c = {0};
    CHECK(orr_scene_create(engine, &(orr_scene_desc){.label = "city"}, &c.s) == ORR_OK);
    orr_light_create(c.s, &(orr_light_desc){.type = ORR_LIGHT_DIRECTIONAL, .direction = {0.3, -1, 0.5}});
    c.red = orr_standard_material_create(c.s, &(orr_standard_material_desc){.diffuse = {true, {0.9, 0.3, 0.2}}});
    c.blue = orr_standard_material_create(c.s, &(orr_standard_material_desc){.diffuse = {true, {0.2, 0.3, 0.9}}});
    orr_geometry g;
    /* a wedge-like box: its faces differ, so front/back face mistakes show */
    CHECK(orr_geometry_build_box(&(orr_box_desc){.width = 1.5, .height = 1, .depth = 0.6}, NULL, &g) == ORR_OK);
    for (int i = 0; i < 64; i++) {
        orr_dvec3 p = {(i % 8 - 3.5) * 2.5, 0, (i / 8 - 3.5) * 2.5};
        if (i == moved) p.y = 2;
        c.meshes[i] =
            orr_mesh_create(c.s, &(orr_mesh_desc){.geometry = &g,
                                                  .material = i == blue ? c.blue : c.red,
                                                  .position = p,
                                                  .rotation = {0, 0.4 * i, 0},
                                                  .scaling = {mirror && i % 3 == 0 ? -1 : 1, 1 + (i % 5) * 0.4, 1}});
        if (i == hidden) orr_mesh_set_visible(c.s, c.meshes[i], false);
    }
    orr_geometry_free(&g);
    orr_camera_create_free(
        c.s, &(orr_free_camera_desc){
                 .position = {4, 14, -18}, .target = ORR_DVEC3(0, 0, 0), .fov = 0.9, .near = 0.5, .far = 200});
    return c;
}

static double mad_vs(orr_scene *s, orr_scene *ref, const char *name) {
    orr_image8 a, b;
    CHECK(orr_test_render(engine, s, 2, &a));
    CHECK(orr_test_render(engine, ref, 2, &b));
    char path[64];
    snprintf(path, sizeof path, "static-meshes-%s.png", name);
    orr_test_save_png(orr_test_out_path(path), &a);
    double m = orr_test_compare(&a, &b).mad;
    orr_test_image_free(&a), orr_test_image_free(&b);
    return m;
}

static const orri_scene_gpu *gpu_of(orr_scene *s) { return s->render_state; }

TEST(unchanged_frames_do_no_per_mesh_work) {
    city c = make_city(false, -1, -1, -1);
    for (int i = 0; i < 4; i++) CHECK(orr_engine_render(engine, c.s) == ORR_OK);
    const orri_scene_gpu *sg = gpu_of(c.s);
    uint64_t key = sg->structure_key, epoch = sg->epoch;
    /* Poison one draw's upload key in both slots: a still frame must not
     * look at it (the per-draw pass is skipped), a change must rewrite it. */
    for (uint32_t k = 0; k < engine->gpu.frame_count; k++) sg->slots[k].uploaded[0] = 12345;
    for (int i = 0; i < 4; i++) CHECK(orr_engine_render(engine, c.s) == ORR_OK);
    orr_stats st = orr_query_stats(engine);
    CHECK(st.records == 0 && st.bytes_uploaded == 0);
    CHECK(st.draws == 64 && st.instances_submitted == 64);
    CHECK(sg->structure_key == key && sg->epoch == epoch);
    for (uint32_t k = 0; k < engine->gpu.frame_count; k++) CHECK(sg->slots[k].uploaded[0] == 12345);
    /* one mesh moves: the pass runs again, the structure stays */
    orr_node_set_position(c.s, orr_mesh_node(c.meshes[9]), (orr_dvec3){(9 % 8 - 3.5) * 2.5, 2, (9 / 8 - 3.5) * 2.5});
    CHECK(orr_engine_render(engine, c.s) == ORR_OK);
    CHECK(orr_query_stats(engine).records == 0 && orr_query_stats(engine).bytes_uploaded > 0);
    CHECK(sg->structure_key == key);
    city ref = make_city(false, -1, -1, 9);
    double moved = mad_vs(c.s, ref.s, "moved");
    printf("moved mesh vs built moved: MAD %.4f\n", moved);
    CHECK(moved == 0);
    /* Only the moved mesh's draw was passed again (decision 63): draw 0's
     * poisoned key is still there, mesh 9's was rewritten. (The
     * right-handed run's Z mirror puts every root under a new node: every
     * draw moved and flipped, a full pass.) */
    for (uint32_t k = 0; k < engine->gpu.frame_count; k++)
        CHECK((ORR_RIGHT_HANDED || sg->slots[k].uploaded[0] == 12345) && sg->slots[k].uploaded[3 * 9] != 12345);
    orr_scene_destroy(ref.s);
    orr_scene_destroy(c.s);
}

TEST(structural_mutators_change_the_key) {
    city c = make_city(false, -1, -1, -1), plain = make_city(false, -1, -1, -1);
    for (int i = 0; i < 3; i++) CHECK(orr_engine_render(engine, c.s) == ORR_OK);
    const orri_scene_gpu *sg = gpu_of(c.s);
    uint64_t key = sg->structure_key;
    /* visibility: one draw fewer */
    orr_mesh_set_visible(c.s, c.meshes[20], false);
    CHECK(orr_engine_render(engine, c.s) == ORR_OK);
    CHECK(sg->structure_key != key && orr_query_stats(engine).draws == 63);
    city hidden = make_city(false, 20, -1, -1);
    double h = mad_vs(c.s, hidden.s, "hidden"), hc = mad_vs(c.s, plain.s, "plain");
    printf("hidden mesh vs built hidden: MAD %.4f; vs all visible (control) %.4f\n", h, hc);
    CHECK(h == 0 && hc > 0.01);
    /* material swap */
    key = sg->structure_key;
    orr_mesh_set_visible(c.s, c.meshes[20], true);
    orr_mesh_set_material(c.s, c.meshes[27], c.blue);
    CHECK(orr_engine_render(engine, c.s) == ORR_OK);
    CHECK(sg->structure_key != key && orr_query_stats(engine).draws == 64);
    city blue = make_city(false, -1, 27, -1);
    double b = mad_vs(c.s, blue.s, "blue"), bc = mad_vs(c.s, plain.s, "plain2");
    printf("blue mesh vs built blue: MAD %.4f; vs red (control) %.4f\n", b, bc);
    CHECK(b == 0 && bc > 0.01);
    orr_scene_destroy(blue.s);
    orr_scene_destroy(hidden.s);
    orr_scene_destroy(plain.s);
    orr_scene_destroy(c.s);
}

/* Every draw's front-face flag against the CPU reference (the sign of its
 * world determinant); returns how many are mirrored. */
static int check_mirror_flags(orr_scene *s) {
    const orri_scene_gpu *sg = gpu_of(s);
    int mirrored = 0, wrong = 0;
    for (uint32_t i = 0; i < sg->draw_count; i++) {
        const orri_draw *d = &sg->draws[i];
        bool want = orr_dmat4_determinant(*orri_node_world(s, orri_scene_node(s, d->node), NULL)) < 0;
        wrong += d->mirrored != want;
        mirrored += d->mirrored;
    }
    CHECK(wrong == 0);
    return mirrored;
}

TEST(mirroring_a_mesh_flips_its_front_face_without_a_rebuild) {
    city c = make_city(false, -1, -1, -1), plain = make_city(false, -1, -1, -1);
    for (int i = 0; i < 3; i++) CHECK(orr_engine_render(engine, c.s) == ORR_OK);
    const orri_scene_gpu *sg = gpu_of(c.s);
    uint64_t key = sg->structure_key;
    int before = check_mirror_flags(c.s);
    for (int i = 0; i < 64; i += 3) /* a third of the city mirrored by scaling alone */
        orr_node_set_scaling(c.s, orr_mesh_node(c.meshes[i]), (orr_dvec3){-1, 1 + (i % 5) * 0.4, 1});
    CHECK(orr_engine_render(engine, c.s) == ORR_OK);
    CHECK(sg->structure_key == key); /* not a structural change */
    int after = check_mirror_flags(c.s);
    CHECK(abs(after - before) == 22); /* control: the 22 flags did flip */
    /* reference: built mirrored (the draw list applies the rule at rebuild) */
    city ref = make_city(true, -1, -1, -1);
    for (int i = 0; i < 3; i++) CHECK(orr_engine_render(engine, ref.s) == ORR_OK);
    CHECK(check_mirror_flags(ref.s) == after);
    double m = mad_vs(c.s, ref.s, "mirrored");
    printf("mirrored in place vs built mirrored: MAD %.4f\n", m);
    CHECK(m == 0);
    /* and back (the right-handed run has mirrored both scenes in Z by now) */
    for (int i = 0; i < 64; i += 3)
        orr_node_set_scaling(c.s, orr_mesh_node(c.meshes[i]), (orr_dvec3){1, 1 + (i % 5) * 0.4, 1});
    CHECK(orr_engine_render(engine, c.s) == ORR_OK);
    check_mirror_flags(c.s);
    CHECK(mad_vs(c.s, plain.s, "unmirrored-again") == 0);
    orr_scene_destroy(ref.s);
    orr_scene_destroy(plain.s);
    orr_scene_destroy(c.s);
}

/* ---- moved nodes (decision 63) ------------------------------------------------------------ */

/* A town of 36 meshes: 12 roots (one in another cell), 4 groups of 4 under
 * group nodes, 2 of those groups under one grand node, and 8 meshes two
 * levels down; seen from above. Built the same way twice. */
typedef struct town {
    orr_scene *s;
    orr_node grand, groups[4];
    orr_mesh meshes[36];
    orr_camera cam;
} town;

static town make_town(orr_engine *e) {
    town c = {0};
    CHECK(orr_scene_create(e, &(orr_scene_desc){.label = "town"}, &c.s) == ORR_OK);
    orr_light_create(c.s, &(orr_light_desc){.type = ORR_LIGHT_DIRECTIONAL, .direction = {0.3, -1, 0.5}});
    orr_material m =
        orr_standard_material_create(c.s, &(orr_standard_material_desc){.diffuse = {true, {0.9, 0.4, 0.2}}});
    orr_geometry g;
    CHECK(orr_geometry_build_box(&(orr_box_desc){.width = 1.5, .height = 1, .depth = 0.6}, NULL, &g) == ORR_OK);
    c.grand = orr_node_create(c.s, &(orr_node_desc){.label = "grand", .position = {0, 0, 4}});
    for (int k = 0; k < 4; k++)
        c.groups[k] = orr_node_create(c.s, &(orr_node_desc){.parent = k < 2 ? c.grand : (orr_node){0},
                                                            .position = {(k - 1.5) * 5, 0, k < 2 ? 0 : -6}});
    for (int i = 0; i < 36; i++) {
        orr_node parent = {0};
        orr_dvec3 p = {(i % 6 - 2.5) * 2.5, 0, (i / 6 - 2.5) * 2.5};
        if (i >= 12 && i < 28) parent = c.groups[(i - 12) / 4], p = (orr_dvec3){(i % 4) * 1.2 - 1.8, 0, 0};
        if (i >= 28) parent = orr_mesh_node(c.meshes[12 + (i - 28)]), p = (orr_dvec3){0, 1.2, 0}; /* on top */
        c.meshes[i] = orr_mesh_create(c.s, &(orr_mesh_desc){.geometry = &g,
                                                            .material = m,
                                                            .parent = parent,
                                                            .position = p,
                                                            .rotation = {0, 0.4 * i, 0},
                                                            .scaling = {1, 1 + (i % 5) * 0.2, 1}});
        CHECK(c.meshes[i].id != 0);
    }
    orr_geometry_free(&g);
    orr_node_set_cell(c.s, orr_mesh_node(c.meshes[0]), (orr_cell3){1, 0, 0});
    c.cam = orr_camera_create_free(
        c.s, &(orr_free_camera_desc){
                 .position = {4, 16, -20}, .target = ORR_DVEC3(0, 0, 0), .fov = 0.9, .near = 0.5, .far = 200});
    return c;
}

/* Frame f's moves, the same in both towns: a leaf mesh, a group (its
 * subtree), the grand node (two groups and what stands on them), a
 * reparenting, a cell change, a mirror. */
static void move_town(town *c, int f) {
    orr_node_set_position(c->s, orr_mesh_node(c->meshes[(f * 5) % 12 + 1]), (orr_dvec3){f % 3 - 1.0, 0.3 * f, 2});
    orr_node_set_rotation(c->s, c->groups[f % 4], (orr_dvec3){0, 0.3 * f, 0});
    if (f % 2) orr_node_set_position(c->s, c->grand, (orr_dvec3){0.5 * f, 0, 4});
    if (f == 3) orr_node_set_parent(c->s, orr_mesh_node(c->meshes[30]), c->groups[3]);
    if (f == 4) orr_node_set_cell(c->s, orr_mesh_node(c->meshes[0]), (orr_cell3){0, 0, 0});
    if (f == 5) orr_node_set_scaling(c->s, orr_mesh_node(c->meshes[14]), (orr_dvec3){-1, 1, 1});
    if (f == 6) orr_node_set_position(c->s, orr_mesh_node(c->meshes[3]), (orr_dvec3){40, 0, 0}); /* out of view */
}

/* The draw of mesh `m` in its scene. */
static uint32_t draw_of(orr_scene *s, orr_mesh m) {
    return ((const orri_scene_gpu *)s->render_state)->meshes[orri_scene_slot(orr_mesh_node(m).id)].draw_index;
}

/* The slot `a` rendered last and the one `b` did: draw blocks, arguments,
 * visible counts. */
static bool same_uploads(orr_engine *e, orr_scene *a, uint32_t slot_a, orr_scene *b, uint32_t slot_b) {
    const orri_scene_gpu *ga = a->render_state, *gb = b->render_state;
    if (ga->draw_count != gb->draw_count) return false;
    const orri_slot *sa = &ga->slots[slot_a], *sb = &gb->slots[slot_b];
    size_t n = ga->draw_count;
    bool ok = !memcmp(sa->objects.mapped, sb->objects.mapped, n * sizeof(orri_gpu_object)) &&
              !memcmp(sa->indirect.mapped, sb->indirect.mapped, n * sizeof(VkDrawIndexedIndirectCommand)) &&
              sa->still_visible == sb->still_visible;
    (void)e;
    return ok;
}

/* Frames where some nodes move take the moved-nodes pass (only their
 * subtrees' draws); a reference scene is forced through the full pass every
 * frame (a settings change: not a transform). Per frame the draw blocks and
 * arguments are byte-identical, and so are the images; a camera move (under
 * floating origin: every eye-relative block) takes the full pass. */
static void check_moved_pass(orr_engine *e, const char *name) {
    town a = make_town(e), b = make_town(e);
    orr_color4 clear = {0.2, 0.2, 0.3, 1};
    for (int i = 0; i < 3; i++) CHECK(orr_engine_render(e, a.s) == ORR_OK && orr_engine_render(e, b.s) == ORR_OK);
    uint32_t still_draw = draw_of(a.s, a.meshes[8]); /* a root no frame moves */
    orri_scene_gpu *ga = a.s->render_state, *gb = b.s->render_state;
    for (uint32_t k = 0; k < e->gpu.frame_count; k++) { /* the slots each scene has used */
        if (ga->slots[k].uploaded) ga->slots[k].uploaded[3 * still_draw] = 12345;
        if (gb->slots[k].uploaded) gb->slots[k].uploaded[3 * still_draw] = 12345;
    }
    bool all_same = true;
    uint32_t moved_passes = 0;
    for (int f = 1; f <= 7; f++) {
        move_town(&a, f), move_town(&b, f);
        orr_scene_set_clear_color(b.s, clear); /* the reference: a full pass */
        uint32_t slot_a = e->gpu.frame_index;
        CHECK(orr_engine_render(e, a.s) == ORR_OK);
        uint32_t slot_b = e->gpu.frame_index;
        CHECK(orr_engine_render(e, b.s) == ORR_OK);
        all_same &= same_uploads(e, a.s, slot_a, b.s, slot_b);
        moved_passes += ga->slots[slot_a].uploaded[3 * still_draw] == 12345;
        CHECK(gb->slots[slot_b].uploaded[3 * still_draw] != 12345); /* the reference walked every draw */
    }
    CHECK(all_same);
    /* Frame 5 mirrors a mesh: a new epoch inside the moved pass, which this
     * frame records with, so the next frame's stamp still matches. */
    printf("%s: %u of 7 frames took the moved-nodes pass\n", name, moved_passes);
    CHECK(moved_passes == 7);
    orr_image8 ia, ib;
    CHECK(orr_test_render(e, a.s, 1, &ia) && orr_test_render(e, b.s, 1, &ib));
    char path[64];
    snprintf(path, sizeof path, "static-meshes-moved-%s.png", name);
    orr_test_save_png(orr_test_out_path(path), &ia);
    CHECK(orr_test_compare(&ia, &ib).mad == 0);
    orr_test_image_free(&ia), orr_test_image_free(&ib);
    /* The camera moves (and a mesh): the moved-nodes pass, then the camera
     * pass over every draw's cull record (decision 67), which never looks at
     * an unmoved draw's world key; the reference takes the full pass. */
    for (uint32_t k = 0; k < e->gpu.frame_count; k++)
        if (ga->slots[k].uploaded) ga->slots[k].uploaded[3 * still_draw] = 12345;
    orr_node_set_position(a.s, orr_camera_node(a.cam), (orr_dvec3){5, 16, -20});
    orr_node_set_position(b.s, orr_camera_node(b.cam), (orr_dvec3){5, 16, -20});
    move_town(&a, 8), move_town(&b, 8);
    orr_scene_set_clear_color(b.s, (orr_color4){0.2, 0.2, 0.3, 1});
    uint32_t slot_a = e->gpu.frame_index;
    CHECK(orr_engine_render(e, a.s) == ORR_OK);
    uint32_t slot_b = e->gpu.frame_index;
    CHECK(orr_engine_render(e, b.s) == ORR_OK);
    CHECK(ga->slots[slot_a].uploaded[3 * still_draw] == 12345);
    CHECK(gb->slots[slot_b].uploaded[3 * still_draw] != 12345);
    CHECK(same_uploads(e, a.s, slot_a, b.s, slot_b));
    orr_scene_destroy(a.s), orr_scene_destroy(b.s);
}

/* A town with draws the camera pass hands back to the full per-draw work: a
 * billboarded mesh (its world follows the camera) and a thin-instanced one
 * (its count depends on its instances' box). */
static void add_camera_dependent_draws(town *c) {
    orr_geometry g;
    CHECK(orr_geometry_build_box(&(orr_box_desc){.width = 1, .height = 2, .depth = 0.2}, NULL, &g) == ORR_OK);
    orr_material m =
        orr_standard_material_create(c->s, &(orr_standard_material_desc){.diffuse = {true, {0.2, 0.8, 0.3}}});
    orr_mesh sign = orr_mesh_create(c->s, &(orr_mesh_desc){.geometry = &g, .material = m, .position = {-3, 3, -3}});
    orr_node_set_billboard_mode(c->s, orr_mesh_node(sign), ORR_BILLBOARD_ALL);
    orr_mesh posts = orr_mesh_create(c->s, &(orr_mesh_desc){.geometry = &g, .material = m, .position = {8, 0, 8}});
    for (int k = 0; k < 6; k++)
        CHECK(orr_instances_add(c->s, posts, orr_dmat4_to_f32(orr_dmat4_translation((orr_dvec3){k * 1.5, 0, 0})),
                                NULL) == ORR_OK);
    orr_geometry_free(&g);
}

/* The camera sweeps the town (moves, fast turns that leave and re-enter
 * the view, a pose inside the town), some frames with nodes moving too.
 * Per frame the camera pass (the poisoned world key of an unmoved draw
 * survives) leaves the same draw blocks, arguments, visible counts and sort
 * distances as the full pass forced on a twin scene; the visible count must
 * change along the sweep (the poses cull different draws), and the images
 * are equal at the end. */
static void check_camera_pass(orr_engine *e, const char *name) {
    town a = make_town(e), b = make_town(e);
    add_camera_dependent_draws(&a), add_camera_dependent_draws(&b);
    for (int i = 0; i < 3; i++) CHECK(orr_engine_render(e, a.s) == ORR_OK && orr_engine_render(e, b.s) == ORR_OK);
    uint32_t still_draw = draw_of(a.s, a.meshes[8]); /* a root no frame moves */
    orri_scene_gpu *ga = a.s->render_state, *gb = b.s->render_state;
    for (uint32_t k = 0; k < e->gpu.frame_count; k++)
        if (ga->slots[k].uploaded) ga->slots[k].uploaded[3 * still_draw] = 12345;
    static const struct {
        orr_dvec3 position, rotation; /* rotation (0, 0, 0): aim at the town's centre */
        int move;                     /* move_town's frame, 0: nothing else moves */
    } poses[] = {
        {{5, 16, -20}, {0, 0, 0}, 0},   {{12, 10, -14}, {0, 0, 0}, 2},   {{30, 4, 0}, {0, 0, 0}, 0},
        {{30, 4, 0}, {0.1, 1.4, 0}, 0}, {{30, 4, 0}, {0.1, -1.6, 0}, 0}, {{2, 2, -2}, {0.2, 0.8, 0}, 4},
        {{2, 2, -2}, {0.2, 2.9, 0}, 0}, {{-6, 3, 6}, {0.3, 2.0, 0}, 6},  {{-20, 12, -6}, {0, 0, 0}, 0},
    };
    uint64_t min_visible = UINT64_MAX, max_visible = 0;
    uint32_t camera_passes = 0, n = sizeof poses / sizeof poses[0];
    bool all_same = true;
    for (uint32_t f = 0; f < n; f++) {
        town *t[2] = {&a, &b};
        for (int k = 0; k < 2; k++) {
            orr_node cn = orr_camera_node(t[k]->cam);
            orr_node_set_position(t[k]->s, cn, poses[f].position);
            if (poses[f].rotation.x != 0 || poses[f].rotation.y != 0)
                orr_node_set_rotation(t[k]->s, cn, poses[f].rotation);
            else
                orr_camera_set_target(t[k]->s, t[k]->cam, (orr_dvec3){0, 0, 0});
            if (poses[f].move) move_town(t[k], poses[f].move);
        }
        orr_scene_set_clear_color(b.s, (orr_color4){0.2, 0.2, 0.3, 1}); /* the reference: a full pass */
        uint32_t slot_a = e->gpu.frame_index;
        CHECK(orr_engine_render(e, a.s) == ORR_OK);
        uint32_t slot_b = e->gpu.frame_index;
        CHECK(orr_engine_render(e, b.s) == ORR_OK);
        all_same &= same_uploads(e, a.s, slot_a, b.s, slot_b);
        for (uint32_t i = 0; i < ga->draw_count; i++)
            all_same &= ga->draws[i].sort_distance == gb->draws[i].sort_distance;
        camera_passes += ga->slots[slot_a].uploaded[3 * still_draw] == 12345;
        CHECK(gb->slots[slot_b].uploaded[3 * still_draw] != 12345);
        uint64_t v = ga->slots[slot_a].still_visible;
        min_visible = v < min_visible ? v : min_visible, max_visible = v > max_visible ? v : max_visible;
    }
    printf("%s: %u of %u camera moves took the camera pass; visible draws %llu..%llu\n", name, camera_passes, n,
           (unsigned long long)min_visible, (unsigned long long)max_visible);
    CHECK(all_same);
    CHECK(camera_passes == n);
    CHECK(min_visible < max_visible);
    orr_image8 ia, ib;
    CHECK(orr_test_render(e, a.s, 1, &ia) && orr_test_render(e, b.s, 1, &ib));
    char path[64];
    snprintf(path, sizeof path, "static-meshes-camera-%s.png", name);
    orr_test_save_png(orr_test_out_path(path), &ia);
    CHECK(orr_test_compare(&ia, &ib).mad == 0);
    orr_test_image_free(&ia), orr_test_image_free(&ib);
    orr_scene_destroy(a.s), orr_scene_destroy(b.s);
}

/* A check on its own engine with the floating-origin module installed. */
static void under_floating_origin(void (*check)(orr_engine *, const char *)) {
    orr_engine_desc d = {.width = 96, .height = 64, .msaa = 1, .floating_origin = &orr_floating_origin};
    orr_test_validation_hook(&d);
    orr_engine *fo;
    REQUIRE(orr_engine_create(&d, &fo) == ORR_OK);
    check(fo, "floating-origin");
    orr_engine_destroy(fo);
}

TEST(camera_pass_equals_the_full_pass) { check_camera_pass(engine, "plain"); }

TEST(camera_pass_equals_the_full_pass_under_floating_origin) { under_floating_origin(check_camera_pass); }

TEST(moved_nodes_pass_equals_the_full_pass) { check_moved_pass(engine, "plain"); }

TEST(moved_nodes_pass_equals_the_full_pass_under_floating_origin) { under_floating_origin(check_moved_pass); }

/* The touch log stays bounded when nothing renders the scene (past its cap
 * it is dropped), and a slot that fell behind it takes the full pass: still
 * identical to the reference. */
TEST(touch_log_overflow_falls_back_to_the_full_pass) {
    town a = make_town(engine), b = make_town(engine);
    enum { EXTRA = 1100 }; /* more nodes than the log's cap (1 024 for small scenes) */
    static orr_node xa[EXTRA], xb[EXTRA];
    for (int i = 0; i < EXTRA; i++) xa[i] = orr_node_create(a.s, NULL), xb[i] = orr_node_create(b.s, NULL);
    for (int i = 0; i < 3; i++)
        CHECK(orr_engine_render(engine, a.s) == ORR_OK && orr_engine_render(engine, b.s) == ORR_OK);
    for (int i = 0; i < EXTRA; i++) {
        orr_node_set_position(a.s, xa[i], (orr_dvec3){i, 0, 0});
        orr_node_set_position(b.s, xb[i], (orr_dvec3){i, 0, 0});
    }
    move_town(&a, 1), move_town(&b, 1);
    CHECK(a.s->touched_len <= 1024 && a.s->touched_base > 0); /* dropped once */
    orr_scene_set_clear_color(b.s, (orr_color4){0.2, 0.2, 0.3, 1});
    uint32_t slot_a = engine->gpu.frame_index;
    CHECK(orr_engine_render(engine, a.s) == ORR_OK);
    uint32_t slot_b = engine->gpu.frame_index;
    CHECK(orr_engine_render(engine, b.s) == ORR_OK);
    CHECK(same_uploads(engine, a.s, slot_a, b.s, slot_b));
    /* what this slot read is kept no longer than needed */
    CHECK(a.s->touched_len == 0);
    orr_scene_destroy(a.s), orr_scene_destroy(b.s);
}

int main(int argc, char **argv) {
    orr_engine_desc d = {.width = 320, .height = 200, .msaa = 1};
    orr_test_validation_hook(&d);
    if (orr_engine_create(&d, &engine) != ORR_OK) {
        fprintf(stderr, "%s\n", orr_engine_last_error(NULL));
        return 1;
    }
    int rc = RUN_TESTS(argc, argv);
    orr_engine_destroy(engine);
    return rc;
}
