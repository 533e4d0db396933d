/* Sprites without a GPU (issue 12 part 4): frame animation against the
 * Babylon.js table tests/data/parity/sprite-anim.json, the camera-independent
 * GPU records and their dirty ranges, the opt-in back-to-front order against
 * a CPU reference, picking (Babylon.js pickSprite), misuse. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <orrery/orrery.h>

#include "harness.h"
#include "sprite/sprite_int.h"
#include "support/cpu_scene.h"
#include "support/test_support.h"

static orr_cpu_host host;
static int misuse_count;
static void capture(orr_log_level lvl, orr_msg id, const char *msg, void *user) {
    (void)lvl, (void)msg, (void)user;
    if (orr_msg_is_misuse(id)) misuse_count++;
}

static orr_scene *scene(void) { return orr_cpu_scene(&host, NULL, &(orr_logger){capture, NULL}, "sprites"); }

static orr_sprite_manager *manager(orr_scene *s) {
    orr_sprite_manager *m = NULL;
    CHECK(orr_sprite_manager_create(
              s, &(orr_sprite_manager_desc){.sheet_width = 256, .sheet_height = 128, .cell_width = 64, .capacity = 4},
              &m) == ORR_OK);
    return m;
}

static cJSON *read_json(const char *rel) {
    FILE *f = fopen(orr_test_data_path(rel), "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    size_t got = buf ? fread(buf, 1, (size_t)n, f) : 0;
    fclose(f);
    cJSON *j = NULL;
    if (buf && got == (size_t)n) buf[n] = 0, j = cJSON_Parse(buf);
    free(buf);
    return j;
}

static int num(const cJSON *o, const char *k) { return cJSON_GetObjectItem(o, k)->valueint; }

/* Every sequence of Babylon.js's exported table, frame by frame: the cell
 * and the started flag after each advance of dtMs (manager and scene clock). */
static void run_sequence(const cJSON *seq, bool scene_clock, int *checked) {
    orr_scene *s = scene();
    orr_sprite_manager *m = manager(s);
    orr_sprite sp = orr_sprite_create(m, &(orr_sprite_desc){0});
    double dt = cJSON_GetObjectItem(seq, "dtMs")->valuedouble;
    orr_sprite_play_animation(m, sp, (uint32_t)num(seq, "from"), (uint32_t)num(seq, "to"),
                              cJSON_IsTrue(cJSON_GetObjectItem(seq, "loop")),
                              cJSON_GetObjectItem(seq, "delay")->valuedouble);
    const cJSON *samples = cJSON_GetObjectItem(seq, "samples"), *smp;
    int frame = 0, bad = 0;
    cJSON_ArrayForEach(smp, samples) {
        for (; frame < num(smp, "frame"); frame++) {
            if (scene_clock)
                orr_scene_animate(s, dt / 1000.0);
            else
                orr_sprite_manager_animate(m, dt);
        }
        bool started = cJSON_IsTrue(cJSON_GetObjectItem(smp, "animationStarted"));
        if (orr_sprite_get(m, sp).cell_index != (uint32_t)num(smp, "cellIndex") ||
            orr_sprite_animation_started(m, sp) != started) {
            if (bad++ < 3)
                printf("%s frame %d: cell %u (Babylon.js %d)\n", cJSON_GetObjectItem(seq, "name")->valuestring, frame,
                       orr_sprite_get(m, sp).cell_index, num(smp, "cellIndex"));
        }
        (*checked)++;
    }
    CHECK(bad == 0);
    orr_scene_destroy(s);
}

TEST(animation_matches_babylon_table) {
    cJSON *j = read_json("parity/sprite-anim.json");
    if (!j) SKIP("tests/data/parity/sprite-anim.json missing");
    int checked = 0, sequences = 0;
    const cJSON *seq;
    cJSON_ArrayForEach(seq, cJSON_GetObjectItem(j, "sequences")) {
        run_sequence(seq, false, &checked);
        run_sequence(seq, true, &checked);
        sequences++;
    }
    printf("sprite animation: %d sequences, %d samples (twice: manager and scene clock) match Babylon.js\n", sequences,
           checked / 2);
    CHECK(sequences >= 5);
    cJSON_Delete(j);
}

TEST(animation_rule_edges) {
    orr_scene *s = scene();
    orr_sprite_manager *m = manager(s);
    orr_sprite sp = orr_sprite_create(m, &(orr_sprite_desc){.cell_index = 6});
    orr_sprite_play_animation(m, sp, 0, 7, false, 0); /* delay 0 → 1 ms */
    CHECK(orr_sprite_get(m, sp).cell_index == 0);
    orr_sprite_manager_animate(m, 1.0); /* time 1 is not > 1: no step */
    CHECK(orr_sprite_get(m, sp).cell_index == 0);
    orr_sprite_manager_animate(m, 1000.0); /* one step per advance, whatever dt */
    CHECK(orr_sprite_get(m, sp).cell_index == 1);
    orr_sprite_stop_animation(m, sp);
    orr_sprite_manager_animate(m, 1000.0);
    CHECK(orr_sprite_get(m, sp).cell_index == 1 && !orr_sprite_animation_started(m, sp));
    orr_scene_destroy(s);
}

/* ---- back-to-front order --------------------------------------------------------- */

static orr_dvec3 absolute(const void *user, orr_wpos p) {
    (void)user;
    return orr_wpos_to_dvec3(p);
}

typedef struct ref_item {
    double depth;
    uint32_t index;
} ref_item;
static int by_depth_desc(const void *a, const void *b) {
    const ref_item *x = a, *y = b;
    if (x->depth != y->depth) return x->depth < y->depth ? 1 : -1;
    return x->index < y->index ? -1 : 1;
}

TEST(sort_back_to_front_matches_cpu_reference) {
    orr_scene *s = scene();
    orr_sprite_manager *m = manager(s);
    enum { N = 5000 };
    srand(7);
    ref_item *ref = malloc(N * sizeof *ref);
    orri_sprite_frame f = {absolute, NULL,
                           orr_dmat4_look_at((orr_dvec3){3, 4, -20}, (orr_dvec3){0, 0, 0}, (orr_dvec3){0, 1, 0}),
                           ORR_RIGHT_HANDED != 0};
    for (uint32_t i = 0; i < N; i++) {
        /* a quarter of the sprites share depths in pairs (ties keep creation order) */
        orr_dvec3 p = {rand() % 200 / 10.0 - 10, rand() % 200 / 10.0 - 10, rand() % 200 / 10.0 - 10};
        if (i % 4 == 1) p = orr_wpos_to_dvec3(orr_sprite_get(m, (orr_sprite)i).position);
        CHECK(orr_sprite_create(m, &(orr_sprite_desc){.position = orr_wpos_from_dvec3(p), .cell_index = i % 8}));
        ref[i] = (ref_item){(float)orri_sprite_view_depth(&f, p), i};
    }
    qsort(ref, N, sizeof *ref, by_depth_desc);
    orri_gpu_sprite *out = malloc(N * sizeof *out);
    uint32_t n = 0;
    CHECK(orri_sprite_pack_sorted(m, &f, out, &n) == ORR_OK);
    CHECK(n == N);
    int mismatches = 0;
    for (uint32_t k = 0; k < n; k++) {
        const double *p = &m->sprites[ref[k].index].position.local.x;
        for (int c = 0; c < 3; c++) /* double-single: 48 bits of |p| <= 10 */
            if (fabs((double)out[k].hi[c] + out[k].lo[c] - p[c]) > 1e-12) mismatches++;
        if ((out[k].cell_flags & 0x3fffffffu) != ref[k].index % 8) mismatches++;
    }
    CHECK(mismatches == 0);
    /* Invisible sprites are not packed. */
    orr_sprite_set_visible(m, 1, false);
    CHECK(orri_sprite_pack_sorted(m, &f, out, &n) == ORR_OK && n == N - 1);
    free(out), free(ref);
    orr_scene_destroy(s);
}

/* The default records hold no camera: the cell as int64 words and the local
 * offset as double-single (exact for these values); free and invisible slots
 * are hidden; every change widens the dirty range the GPU half re-uploads. */
TEST(records_are_camera_independent_with_dirty_ranges) {
    orr_scene *s = scene();
    orr_sprite_manager *m = manager(s);
    CHECK(!m->desc.depth_sort.value); /* Babylon.js: creation order, no sort */
    orr_wpos far = orr_wpos_make((orr_cell3){953674, -3, INT64_C(-5000000000)}, (orr_dvec3){0.25, -1.5, 1000.125});
    orr_sprite a = orr_sprite_create(m, &(orr_sprite_desc){.position = far, .cell_index = 5, .angle = 0.5});
    orr_sprite b = orr_sprite_create(m, &(orr_sprite_desc){.position = far});
    orr_sprite c = orr_sprite_create(m, &(orr_sprite_desc){.position = far});
    CHECK(m->dirty.lo == 0 && m->dirty.hi == 3);
    orri_gpu_sprite r = orri_sprite_record(m, 0, false);
    const int64_t *cell = &far.cell.x;
    for (int k = 0; k < 3; k++) {
        CHECK(((uint64_t)r.cell[2 * k + 1] << 32 | r.cell[2 * k]) == (uint64_t)cell[k]);
        CHECK((double)r.hi[k] + r.lo[k] == (&far.local.x)[k]);
    }
    CHECK(r.hidden == 0 && r.cell_flags == 5u && r.angle == 0.5f && r.width == 1.0f && r.height == 1.0f);
    CHECK(orri_sprite_record(m, 0, true).cell_flags == (5u | 1u << 30)); /* RH flips invertU */
    m->dirty = (orri_sprite_range){0, 0};
    orr_sprite_set_cell(m, c, 2);
    orr_sprite_set_visible(m, b, false);
    CHECK(m->dirty.lo == 1 && m->dirty.hi == 3);
    CHECK(orri_sprite_record(m, 1, false).hidden == 1);
    orr_sprite_destroy(m, a);
    CHECK(m->dirty.lo == 0 && m->dirty.hi == 3 && orri_sprite_record(m, 0, false).hidden == 1);
    orri_gpu_sprite out[3];
    orri_sprite_write_range(m, false, out, 2, 3);
    CHECK(out[2].hidden == 0 && out[2].cell_flags == 2u);
    /* Animation touches only the sprites whose cell stepped. */
    m->dirty = (orri_sprite_range){0, 0};
    orr_sprite_play_animation(m, c, 2, 4, true, 10);
    m->dirty = (orri_sprite_range){0, 0};
    orr_sprite_manager_animate(m, 5);
    CHECK(m->dirty.lo >= m->dirty.hi);
    orr_sprite_manager_animate(m, 6);
    CHECK(m->dirty.lo == 2 && m->dirty.hi == 3);
    orr_scene_destroy(s);
}

/* ---- picking --------------------------------------------------------------------- */

static orr_camera free_camera(orr_scene *s, orr_wpos eye) {
    orr_camera c = orr_camera_create_free(
        s,
        &(orr_free_camera_desc){.position = eye.local, .target = ORR_DVEC3(eye.local.x, eye.local.y, eye.local.z + 1)});
    orr_node_set_cell(s, orr_camera_node(c), eye.cell);
    return c;
}

static void picking_at(orr_wpos base) {
    orr_scene *s = scene();
    orr_sprite_manager *m = manager(s);
    orr_camera cam = free_camera(s, orr_wpos_add(base, (orr_dvec3){0, 0, -10}));
    orr_sprite near = orr_sprite_create(m, &(orr_sprite_desc){.position = base, .pickable = true});
    orr_sprite far = orr_sprite_create(m, &(orr_sprite_desc){.position = orr_wpos_add(base, (orr_dvec3){0, 0, 5}),
                                                             .pickable = true,
                                                             .width = ORR_F64(4),
                                                             .height = ORR_F64(4)});
    orr_sprite bar = orr_sprite_create(m, &(orr_sprite_desc){.position = orr_wpos_add(base, (orr_dvec3){5, 0, 0}),
                                                             .pickable = true,
                                                             .width = ORR_F64(2),
                                                             .height = ORR_F64(0.2),
                                                             .angle = 3.14159265358979 / 2});
    orr_wpos eye = orr_wpos_add(base, (orr_dvec3){0, 0, -10});
    orr_sprite_hit hit;
    CHECK(!orr_sprite_pick_ray(s, cam, eye, (orr_dvec3){0, 0, 1}, &hit)); /* manager not pickable (Babylon default) */
    orr_sprite_manager_set_pickable(m, true);
    CHECK(orr_sprite_pick_ray(s, cam, eye, (orr_dvec3){0, 0, 1}, &hit) && hit.sprite == near && hit.manager == m);
    CHECK_NEAR(hit.distance, 10.0, 1e-9);
    /* Through the edge of `near` (0.45 of 0.5 half-size) still `near`; at 1.5 only `far`. */
    CHECK(orr_sprite_pick_ray(s, cam, eye, (orr_dvec3){0.45, 0, 10}, &hit) && hit.sprite == near);
    CHECK(orr_sprite_pick_ray(s, cam, eye, (orr_dvec3){1.5, 0, 15}, &hit) && hit.sprite == far);
    CHECK_NEAR(hit.distance, 15.0, 1e-9);
    /* The bar turned by 90°: hit along y, missed along x. */
    CHECK(orr_sprite_pick_ray(s, cam, eye, (orr_dvec3){5, 0.9, 10}, &hit) && hit.sprite == bar);
    CHECK(!orr_sprite_pick_ray(s, cam, eye, (orr_dvec3){5.9, 0, 10}, &hit));
    /* Not pickable: skipped; `far` behind is hit instead. */
    orr_sprite_desc d = orr_sprite_get(m, near);
    d.pickable = false;
    orr_sprite_set(m, near, &d);
    CHECK(orr_sprite_pick_ray(s, cam, eye, (orr_dvec3){0, 0, 1}, &hit) && hit.sprite == far);
    /* Screen centre of a 4:3 viewport: the camera's ray. */
    CHECK(orr_sprite_pick_screen(s, cam, (orr_dvec2){0, 0}, 4.0 / 3.0, &hit) && hit.sprite == far);
    orr_scene_destroy(s);
}

TEST(pick_sprite_babylon_rule) { picking_at((orr_wpos){{0, 0, 0}, {0, 0, 0}}); }
TEST(pick_sprite_at_1e12_m) { picking_at(orr_wpos_from_dvec3((orr_dvec3){1e12, 3, -1e12})); }

/* ---- misuse ---------------------------------------------------------------------- */

TEST(misuse) {
    orr_scene *s = scene();
    orr_sprite_manager *m = NULL;
    int before = misuse_count;
    CHECK(orr_sprite_manager_create(s, &(orr_sprite_manager_desc){.sheet_width = 256, .sheet_height = 128}, &m) ==
          ORR_ERROR_INVALID_ARGUMENT); /* zero cell size */
    CHECK(m == NULL);
    CHECK(orr_sprite_manager_create(NULL, &(orr_sprite_manager_desc){.cell_width = 64}, &m) ==
          ORR_ERROR_INVALID_ARGUMENT);
    CHECK(orr_sprite_manager_create(s, NULL, &m) == ORR_ERROR_INVALID_ARGUMENT);
    CHECK(orr_sprite_manager_create(s,
                                    &(orr_sprite_manager_desc){.sheet_width = 32, .sheet_height = 32, .cell_width = 64},
                                    &m) == ORR_ERROR_INVALID_ARGUMENT); /* cell larger than the sheet */
    CHECK(
        orr_sprite_manager_create(
            s,
            &(orr_sprite_manager_desc){.sheet_width = 256, .sheet_height = 128, .cell_width = 64, .cutoff = ORR_F64(2)},
            &m) == ORR_ERROR_INVALID_ARGUMENT);
    m = manager(s);
    CHECK(orr_sprite_manager_cell_count(m) == 8);
    CHECK(orr_sprite_create(m, &(orr_sprite_desc){.cell_index = 8}) == 0); /* bad cell index */
    CHECK(orr_last_result() == ORR_ERROR_INVALID_ARGUMENT);
    CHECK(orr_sprite_create(NULL, &(orr_sprite_desc){0}) == 0);
    CHECK(orr_sprite_create(m, NULL) == 0);
    CHECK(orr_sprite_create(m, &(orr_sprite_desc){.width = ORR_F64(NAN)}) == 0);
    orr_sprite a = orr_sprite_create(m, &(orr_sprite_desc){.cell_index = 7});
    CHECK(a != 0);
    orr_sprite_set_cell(m, a, 99); /* refused, unchanged */
    CHECK(orr_sprite_get(m, a).cell_index == 7);
    orr_sprite_play_animation(m, a, 0, 8, true, 100); /* refused */
    CHECK(!orr_sprite_animation_started(m, a));
    orr_sprite_destroy(m, a);
    CHECK(!orr_sprite_is_valid(m, a));
    orr_sprite b = orr_sprite_create(m, &(orr_sprite_desc){0}); /* reuses the slot, new generation */
    CHECK(b != a && orr_sprite_is_valid(m, b));
    orr_sprite_set_position(m, a, (orr_wpos){{0, 0, 0}, {1, 2, 3}}); /* stale: nothing changes */
    CHECK(orr_sprite_get(m, b).position.local.x == 0);
    orr_sprite_destroy(m, 0);           /* null handle: silent */
    CHECK(misuse_count - before == 10); /* the two NULL-context ones go to stderr */
    orr_scene_destroy(s);
}

TEST(capacity_grows_and_scene_destroys_managers) {
    orr_scene *s = scene();
    orr_sprite_manager *m = manager(s); /* capacity 4 */
    for (int i = 0; i < 1000; i++) CHECK(orr_sprite_create(m, &(orr_sprite_desc){.cell_index = (uint32_t)i % 8}));
    CHECK(orr_sprite_manager_count(m) == 1000);
    CHECK(orr_sprite_manager_capacity(m) >= 1000);
    manager(s); /* a second manager, destroyed with the scene (ASan/LSan: no leak) */
    orr_scene_destroy(s);
}

int main(int argc, char **argv) { return RUN_TESTS(argc, argv); }
