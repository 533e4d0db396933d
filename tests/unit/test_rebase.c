/* The rebasing world (orrery/rebase.h): threshold, one delta for every
 * subscriber and registered array, origin + local = absolute across rebases,
 * refusals that change nothing, and the failure of seeds/002 reproduced: a
 * rebase between integration and the velocity computation launches bodies
 * (control, naive world), the API's single rebase point does not, and the
 * mid-tick rebase through the API is refused. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "orrery/rebase.h"

static bool same_bits(orr_dvec3 a, orr_dvec3 b) { return memcmp(&a, &b, sizeof a) == 0; }
static bool eq3(orr_dvec3 a, orr_dvec3 b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

/* Captures messages so that refusals can be checked by content. */
static char last_log[1024];
static int log_errors;
static void capture_log(orr_log_level level, orr_msg id, const char *message, void *user) {
    (void)user;
    if (level == ORR_LOG_ERROR) log_errors++;
    snprintf(last_log, sizeof last_log, "%s", message);
}
static orr_rebase_world *make_world(double threshold) {
    orr_rebase_world *w = NULL;
    CHECK(orr_rebase_create(&(orr_rebase_desc){.threshold = threshold, .logger = {capture_log, NULL}, .label = "test"},
                            &w) == ORR_OK);
    log_errors = 0;
    last_log[0] = 0;
    return w;
}

/* A subscriber that records what it was given. */
typedef struct recorder {
    int calls;
    orr_dvec3 delta;
    orr_dvec3 position;
} recorder;
static void record(orr_dvec3 delta, void *user) {
    recorder *r = user;
    r->calls++;
    r->delta = delta;
    r->position = (orr_dvec3){r->position.x + delta.x, r->position.y + delta.y, r->position.z + delta.z};
}

TEST(zero_desc_is_default) {
    orr_rebase_world *w = NULL;
    CHECK(orr_rebase_create(NULL, &w) == ORR_OK);
    CHECK(orr_rebase_threshold(w) == 10000.0);
    CHECK(eq3(orr_rebase_origin(w), (orr_dvec3){0, 0, 0}));
    CHECK(!orr_rebase_in_tick(w));
    CHECK(orr_rebase_count(w) == 0);
    orr_rebase_destroy(w);
    orr_rebase_destroy(NULL);
    CHECK(orr_rebase_create(&(orr_rebase_desc){.threshold = -1}, &w) == ORR_ERROR_INVALID_ARGUMENT && w == NULL);
    CHECK(orr_rebase_create(&(orr_rebase_desc){.threshold = NAN}, &w) == ORR_ERROR_INVALID_ARGUMENT);
}

TEST(threshold_no_rebase_under_rebase_over) {
    orr_rebase_world *w = make_world(0);
    recorder r = {0};
    orr_rebase_subscribe(w, record, &r);
    orr_dvec3 d;
    /* under (and exactly at) the threshold: nothing moves */
    orr_dvec3 under[] = {{9999, 0, 0}, {0, -9999.99, 0}, {5000, 5000, 5000}, {10000, 0, 0}};
    for (int i = 0; i < 4; i++) {
        CHECK(orr_rebase_tick_begin(w, under[i], &d) == ORR_OK);
        CHECK(eq3(d, (orr_dvec3){0, 0, 0}));
        CHECK(orr_rebase_tick_end(w) == ORR_OK);
    }
    CHECK(r.calls == 0 && orr_rebase_count(w) == 0);
    /* over: |(6000, 6000, 6000)| = 10392 > 10000 although each axis is under */
    CHECK(orr_rebase_tick_begin(w, (orr_dvec3){6000, 6000, 6000}, &d) == ORR_OK);
    CHECK(eq3(d, (orr_dvec3){-6000, -6000, -6000}));
    CHECK(r.calls == 1 && same_bits(r.delta, d));
    CHECK(eq3(orr_rebase_origin(w), (orr_dvec3){6000, 6000, 6000}));
    CHECK(orr_rebase_tick_end(w) == ORR_OK);
    /* the focus is now near the new origin: no rebase */
    CHECK(orr_rebase_tick_begin(w, (orr_dvec3){1, 2, 3}, &d) == ORR_OK && r.calls == 1);
    CHECK(orr_rebase_tick_end(w) == ORR_OK);
    CHECK(orr_rebase_count(w) == 1 && orr_rebase_tick_index(w) == 6);
    orr_rebase_destroy(w);

    /* a custom threshold */
    w = make_world(100);
    CHECK(orr_rebase_tick_begin(w, (orr_dvec3){0, 0, 100.5}, &d) == ORR_OK && d.z == -100.5);
    orr_rebase_tick_end(w);
    orr_rebase_destroy(w);
}

/* A particle record with the position in the middle: stride ≠ element size. */
typedef struct particle {
    double age;
    orr_dvec3 pos;
    float tint[4];
} particle;

static orr_rebase_world *order_world;
static double *order_probe;
static double order_seen;
static orr_dvec3 order_origin_seen;
static void check_order(orr_dvec3 delta, void *user) {
    (void)delta, (void)user;
    order_seen = *order_probe; /* the arrays are already shifted */
    order_origin_seen = orr_rebase_origin(order_world);
}

TEST(every_subscriber_and_array_shifted_by_the_same_delta) {
    orr_rebase_world *w = make_world(0);
    enum { N = 50 };
    orr_dvec3 prev[N];
    particle parts[N];
    float audio[N][3];
    for (int i = 0; i < N; i++) {
        prev[i] = (orr_dvec3){12000 + i * 0.5, -7 - i, 0.25 * i};
        parts[i] = (particle){.age = i, .pos = {11000 + i, 3.5, -2.0 * i}, .tint = {1, 2, 3, 4}};
        audio[i][0] = 12500.0f + (float)i, audio[i][1] = 2.0f, audio[i][2] = -1.0f;
    }
    orr_dvec3 prev0[N];
    particle parts0[N];
    float audio0[N][3];
    memcpy(prev0, prev, sizeof prev), memcpy(parts0, parts, sizeof parts), memcpy(audio0, audio, sizeof audio);
    orr_rebase_register(w, &(orr_rebase_array_desc){.data = prev, .count = N, .label = "prev"});
    orr_rebase_register(w, &(orr_rebase_array_desc){
                               .data = &parts[0].pos, .count = N, .stride = sizeof(particle), .label = "particles"});
    orr_rebase_register(
        w, &(orr_rebase_array_desc){.data = audio, .count = N, .format = ORR_REBASE_VEC3F, .label = "audio"});
    recorder r[3] = {{0}};
    for (int i = 0; i < 3; i++) orr_rebase_subscribe(w, record, &r[i]);
    order_world = w, order_probe = &prev[0].x;
    orr_rebase_subscribe(w, check_order, NULL);

    orr_dvec3 focus = {12000, 0, 0}, d;
    CHECK(orr_rebase_tick_begin(w, focus, &d) == ORR_OK);
    CHECK(eq3(d, (orr_dvec3){-12000, -0.0, -0.0}));
    for (int i = 0; i < 3; i++) CHECK(r[i].calls == 1 && same_bits(r[i].delta, d));
    CHECK(order_seen == prev0[0].x + d.x);                   /* arrays before subscribers */
    CHECK(eq3(order_origin_seen, (orr_dvec3){12000, 0, 0})); /* and the origin already moved */
    int bad = 0;
    for (int i = 0; i < N; i++) {
        bad += !eq3(prev[i], (orr_dvec3){prev0[i].x + d.x, prev0[i].y + d.y, prev0[i].z + d.z});
        bad += !eq3(parts[i].pos, (orr_dvec3){parts0[i].pos.x + d.x, parts0[i].pos.y + d.y, parts0[i].pos.z + d.z});
        bad += parts[i].age != parts0[i].age || memcmp(parts[i].tint, parts0[i].tint, sizeof parts[i].tint) != 0;
        bad += audio[i][0] != (float)(audio0[i][0] + d.x) || audio[i][1] != audio0[i][1] || audio[i][2] != audio0[i][2];
    }
    CHECK(bad == 0);
    CHECK(audio[3][0] == 503.0f);
    orr_rebase_tick_end(w);
    orr_rebase_destroy(w);
}

TEST(origin_plus_local_is_absolute_before_and_after) {
    orr_rebase_world *w = NULL;
    CHECK(orr_rebase_create(&(orr_rebase_desc){.origin = {1e9, -2.5e8, 0}}, &w) == ORR_OK);
    /* representable values: multiples of 1/16 well inside 2⁵³ ulp */
    orr_dvec3 local[4] = {{10500.0625, 3, -4}, {-20000.5, 1e4, 0.125}, {0, 0, 0}, {123456.25, -0.5, 7}};
    orr_dvec3 absolute[4];
    for (int i = 0; i < 4; i++) absolute[i] = orr_rebase_to_absolute(w, local[i]);
    CHECK(eq3(absolute[0], (orr_dvec3){1e9 + 10500.0625, -2.5e8 + 3, -4}));
    orr_rebase_register(w, &(orr_rebase_array_desc){.data = local, .count = 4});
    orr_dvec3 focus[3] = {{10500.0625, 3, -4}, {-30000.5, 9997, 4.125}, {90000, 0, -1e5}};
    for (int k = 0; k < 3; k++) {
        CHECK(orr_rebase_tick_begin(w, focus[k], NULL) == ORR_OK);
        orr_rebase_tick_end(w);
        if (k == 0) CHECK(eq3(local[0], (orr_dvec3){0, 0, 0})); /* the first focus became the origin */
        for (int i = 0; i < 4; i++) {
            CHECK(eq3(orr_rebase_to_absolute(w, local[i]), absolute[i]));
            CHECK(eq3(orr_rebase_to_local(w, absolute[i]), local[i]));
        }
    }
    CHECK(orr_rebase_count(w) == 3);
    orr_rebase_destroy(w);
}

/* ---- the failure of seeds/002 ---------------------------------------------------
 * N bodies integrated with position Verlet: next = pos + (pos − prev) (+ a dt²),
 * then velocity = (pos − prev) / dt. They fly along +X at ~600 m/s from near
 * the threshold; the focus (camera) follows body 0. */
enum { BODIES = 16, TICKS = 120 };
static const double DT = 1.0 / 60.0;

typedef struct sim {
    orr_dvec3 pos[BODIES], prev[BODIES], vel[BODIES];
} sim;

static void sim_init(sim *s) {
    for (int i = 0; i < BODIES; i++) {
        orr_dvec3 v = {600 + 7 * i, -3 + 0.5 * i, 2 * sin(i)};
        s->pos[i] = (orr_dvec3){9000 + 10 * i, 50 * cos(i), -20 + i};
        s->prev[i] = (orr_dvec3){s->pos[i].x - v.x * DT, s->pos[i].y - v.y * DT, s->pos[i].z - v.z * DT};
    }
}
static void sim_integrate(sim *s) {
    const double g = -9.81 * DT * DT;
    for (int i = 0; i < BODIES; i++) {
        orr_dvec3 p = s->pos[i], q = s->prev[i];
        s->prev[i] = p;
        s->pos[i] = (orr_dvec3){p.x + (p.x - q.x), p.y + (p.y - q.y) + g, p.z + (p.z - q.z)};
    }
}
static void sim_velocities(sim *s) {
    for (int i = 0; i < BODIES; i++)
        s->vel[i] = (orr_dvec3){(s->pos[i].x - s->prev[i].x) / DT, (s->pos[i].y - s->prev[i].y) / DT,
                                (s->pos[i].z - s->prev[i].z) / DT};
}
/* Largest change of any velocity component between two ticks (gravity
 * subtracted: it changes vy by −9.81·dt every tick). */
static double max_jump(const sim *a, const sim *b) {
    double m = 0;
    for (int i = 0; i < BODIES; i++) {
        m = fmax(m, fabs(b->vel[i].x - a->vel[i].x));
        m = fmax(m, fabs(b->vel[i].y - a->vel[i].y + 9.81 * DT));
        m = fmax(m, fabs(b->vel[i].z - a->vel[i].z));
    }
    return m;
}

/* The article's naive world: subscribers shift current positions only, and a
 * rebase may be called anywhere. */
typedef struct naive_world {
    orr_dvec3 origin;
    sim *subscriber;
} naive_world;
static bool naive_rebase(naive_world *w, orr_dvec3 focus, double threshold) {
    if (sqrt(focus.x * focus.x + focus.y * focus.y + focus.z * focus.z) < threshold) return false;
    w->origin = (orr_dvec3){w->origin.x + focus.x, w->origin.y + focus.y, w->origin.z + focus.z};
    for (int i = 0; i < BODIES; i++)
        w->subscriber->pos[i] = (orr_dvec3){w->subscriber->pos[i].x - focus.x, w->subscriber->pos[i].y - focus.y,
                                            w->subscriber->pos[i].z - focus.z};
    return true;
}

TEST(control_naive_mid_tick_rebase_launches_bodies) {
    sim s, before;
    sim_init(&s);
    naive_world w = {{0, 0, 0}, &s};
    int rebases = 0;
    double worst = 0, rebase_tick_jump = 0;
    for (int t = 0; t < TICKS; t++) {
        before = s;
        sim_integrate(&s);
        bool rebased = naive_rebase(&w, s.pos[0], 10000); /* between integration and velocities */
        sim_velocities(&s);
        if (t == 0) continue;
        double j = max_jump(&before, &s);
        worst = fmax(worst, j);
        if (rebased) rebases++, rebase_tick_jump = j;
    }
    printf("naive world: %d rebase(s), velocity jump at the rebase %.6g m/s (threshold / dt = %.6g)\n", rebases,
           rebase_tick_jump, 10000 / DT);
    CHECK(rebases >= 1);
    CHECK(rebase_tick_jump > 0.5 * 10000 / DT); /* ~10 km in one tick: 6×10⁵ m/s */
    CHECK(worst == rebase_tick_jump);
}

TEST(api_single_rebase_point_keeps_velocities) {
    sim s, before, reference;
    sim_init(&s);
    sim_init(&reference);
    orr_rebase_world *w = make_world(0);
    orr_rebase_register(w, &(orr_rebase_array_desc){.data = s.pos, .count = BODIES, .label = "pos"});
    orr_rebase_register(w, &(orr_rebase_array_desc){.data = s.prev, .count = BODIES, .label = "prev"});
    int rebases = 0;
    double worst = 0, rebase_tick_jump = -1;
    for (int t = 0; t < TICKS; t++) {
        before = s;
        orr_dvec3 d;
        CHECK(orr_rebase_tick_begin(w, s.pos[0], &d) == ORR_OK); /* the one rebase point */
        sim_integrate(&s);
        sim_velocities(&s);
        CHECK(orr_rebase_tick_end(w) == ORR_OK);
        sim_integrate(&reference); /* never rebased, absolute */
        sim_velocities(&reference);
        if (t == 0) continue;
        double j = max_jump(&before, &s);
        worst = fmax(worst, j);
        if (d.x != 0) rebases++, rebase_tick_jump = j;
    }
    double drift = 0;
    for (int i = 0; i < BODIES; i++)
        drift = fmax(drift, orr_dvec3_distance(orr_rebase_to_absolute(w, s.pos[i]), reference.pos[i]));
    printf("rebasing world: %d rebase(s), velocity jump at the rebase %.3g m/s, worst over %d ticks %.3g m/s, "
           "absolute drift vs never rebased %.3g m\n",
           rebases, rebase_tick_jump, TICKS, worst, drift);
    CHECK(rebases >= 1);
    CHECK(rebase_tick_jump >= 0 && rebase_tick_jump < 1e-9);
    CHECK(worst < 1e-9);
    CHECK(drift < 1e-6);
    orr_rebase_destroy(w);
}

TEST(api_refuses_the_mid_tick_rebase_and_changes_nothing) {
    sim s;
    sim_init(&s);
    orr_rebase_world *w = make_world(0);
    orr_rebase_register(w, &(orr_rebase_array_desc){.data = s.pos, .count = BODIES});
    orr_rebase_register(w, &(orr_rebase_array_desc){.data = s.prev, .count = BODIES});
    recorder r = {0};
    orr_rebase_subscribe(w, record, &r);
    for (int t = 0; t < 5; t++) { /* far enough that body 0 is past the threshold */
        CHECK(orr_rebase_tick_begin(w, (orr_dvec3){0, 0, 0}, NULL) == ORR_OK);
        sim_integrate(&s);
        sim_velocities(&s);
        orr_rebase_tick_end(w);
    }
    for (int i = 0; i < BODIES; i++) s.pos[i].x += 2000, s.prev[i].x += 2000;
    sim before = s;
    CHECK(orr_rebase_tick_begin(w, (orr_dvec3){0, 0, 0}, NULL) == ORR_OK);
    sim_integrate(&s);
    sim after_integration = s;
    orr_dvec3 origin = orr_rebase_origin(w), d = {1, 1, 1};
    log_errors = 0;
    orr_result res = orr_rebase_now(w, s.pos[0], &d); /* the article's mistake */
    CHECK(res == ORR_ERROR_INVALID_ARGUMENT);
    CHECK(log_errors == 1);
    CHECK(strstr(last_log, "tick") && strstr(last_log, "refused") && strstr(last_log, "orr_rebase_now"));
    CHECK(strstr(orr_rebase_last_error(w), "refused") != NULL);
    CHECK(eq3(d, (orr_dvec3){0, 0, 0}));
    CHECK(memcmp(&s, &after_integration, sizeof s) == 0); /* positions untouched */
    CHECK(same_bits(orr_rebase_origin(w), origin) && r.calls == 0);
    /* a second tick_begin is refused the same way and the tick stays open */
    CHECK(orr_rebase_tick_begin(w, s.pos[0], &d) == ORR_ERROR_INVALID_ARGUMENT);
    CHECK(orr_rebase_in_tick(w) && memcmp(&s, &after_integration, sizeof s) == 0);
    sim_velocities(&s);
    CHECK(max_jump(&before, &s) < 1e-9);
    CHECK(orr_rebase_tick_end(w) == ORR_OK);
    CHECK(orr_rebase_tick_end(w) == ORR_ERROR_INVALID_ARGUMENT); /* none open */
    /* between ticks the same call is allowed, and shifts everything */
    CHECK(orr_rebase_now(w, s.pos[0], &d) == ORR_OK && r.calls == 1 && s.pos[0].x == 0);
    CHECK(orr_rebase_now(w, (orr_dvec3){NAN, 0, 0}, &d) == ORR_ERROR_INVALID_ARGUMENT);
    orr_rebase_destroy(w);
}

/* Callbacks cannot rebase or subscribe; they may unsubscribe. */
static orr_rebase_world *cb_world;
static orr_result cb_rebase_result;
static orr_rebase_sub cb_sub_result, cb_self;
static void nested(orr_dvec3 delta, void *user) {
    (void)delta, (void)user;
    cb_rebase_result = orr_rebase_now(cb_world, (orr_dvec3){1, 0, 0}, NULL);
    cb_sub_result = orr_rebase_subscribe(cb_world, record, NULL);
    orr_rebase_unsubscribe(cb_world, cb_self);
}

TEST(callbacks_cannot_rebase_or_subscribe_but_may_unsubscribe) {
    orr_rebase_world *w = make_world(0);
    cb_world = w;
    cb_self = orr_rebase_subscribe(w, nested, NULL);
    recorder r = {0};
    orr_rebase_subscribe(w, record, &r);
    CHECK(orr_rebase_now(w, (orr_dvec3){20000, 0, 0}, NULL) == ORR_OK);
    CHECK(cb_rebase_result == ORR_ERROR_INVALID_ARGUMENT);
    CHECK(cb_sub_result.id == 0);
    CHECK(r.calls == 1 && r.delta.x == -20000 && orr_rebase_count(w) == 1);
    CHECK(orr_rebase_origin(w).x == 20000);
    cb_rebase_result = ORR_OK;
    CHECK(orr_rebase_now(w, (orr_dvec3){-20000, 0, 0}, NULL) == ORR_OK);
    CHECK(cb_rebase_result == ORR_OK && r.calls == 2); /* nested unsubscribed itself */
    log_errors = 0;
    orr_rebase_unsubscribe(w, cb_self); /* stale */
    CHECK(log_errors == 1 && strstr(last_log, "stale"));
    orr_rebase_destroy(w);
}

TEST(array_update_and_unregister) {
    orr_rebase_world *w = make_world(0);
    orr_dvec3 *a = malloc(2 * sizeof *a);
    a[0] = (orr_dvec3){1, 2, 3}, a[1] = (orr_dvec3){4, 5, 6};
    orr_rebase_array h = orr_rebase_register(w, &(orr_rebase_array_desc){.data = a, .count = 2});
    CHECK(h.id != 0);
    a = realloc(a, 3 * sizeof *a);
    a[2] = (orr_dvec3){7, 8, 9};
    CHECK(orr_rebase_array_update(w, h, a, 3) == ORR_OK);
    orr_rebase_now(w, (orr_dvec3){1, 1, 1}, NULL);
    CHECK(eq3(a[0], (orr_dvec3){0, 1, 2}) && eq3(a[2], (orr_dvec3){6, 7, 8}));
    orr_rebase_unregister(w, h);
    orr_rebase_now(w, (orr_dvec3){1, 1, 1}, NULL);
    CHECK(eq3(a[0], (orr_dvec3){0, 1, 2}));
    log_errors = 0;
    CHECK(orr_rebase_array_update(w, h, a, 3) == ORR_ERROR_INVALID_HANDLE && log_errors == 1);
    CHECK(orr_rebase_register(w, &(orr_rebase_array_desc){.data = NULL, .count = 4}).id == 0);
    CHECK(orr_rebase_register(w, &(orr_rebase_array_desc){.data = a, .count = 1, .stride = 8}).id == 0);
    free(a);
    orr_rebase_destroy(w);
}

/* Allocator hooks: every allocation goes through them and is returned. */
static int live_allocs, total_allocs;
static void *t_alloc(size_t n, void *u) {
    (void)u;
    live_allocs++, total_allocs++;
    return malloc(n);
}
static void *t_realloc(void *p, size_t n, void *u) {
    (void)u;
    if (!p) live_allocs++, total_allocs++;
    return realloc(p, n);
}
static void t_free(void *p, void *u) {
    (void)u;
    if (p) live_allocs--;
    free(p);
}

TEST(allocator_hooks) {
    live_allocs = total_allocs = 0;
    orr_rebase_world *w = NULL;
    CHECK(orr_rebase_create(&(orr_rebase_desc){.allocator = {t_alloc, t_realloc, t_free, NULL}}, &w) == ORR_OK);
    recorder r[40];
    for (int i = 0; i < 40; i++) orr_rebase_subscribe(w, record, &r[i]);
    orr_dvec3 p = {0, 0, 0};
    orr_rebase_register(w, &(orr_rebase_array_desc){.data = &p, .count = 1});
    CHECK(total_allocs > 1);
    orr_rebase_destroy(w);
    CHECK(live_allocs == 0);
}

int main(int argc, char **argv) { return RUN_TESTS(argc, argv); }
