/* Orrery's tiny test harness: TEST, CHECK, CHECK_NEAR, RUN_TESTS.
 *
 *     TEST(vec_add) { CHECK_NEAR(orr_dvec3_add(a, b).x, 3.0, 1e-12); }
 *     int main(int argc, char **argv) { return RUN_TESTS(argc, argv); }
 *
 * Each test file is one executable registered with ctest. A failed CHECK
 * prints file:line and the expression, marks the test failed and carries on.
 * The run ends with the plain closing line "N passed, N failed, N skipped".
 * Pass a test name as argv[1] to run only that test. SKIP("why") ends a test
 * that cannot run here (a device-specific case on another device); it is
 * reported as skipped with its reason, never as passed.
 */
#ifndef ORR_TEST_HARNESS_H
#define ORR_TEST_HARNESS_H

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef void (*orr_test_fn)(void);
typedef struct orr_test_case {
    const char *name;
    orr_test_fn fn;
} orr_test_case;

#define ORR_TEST_MAX 512
static orr_test_case orr_test_cases_[ORR_TEST_MAX];
static int orr_test_count_;
static int orr_test_failed_now_;
static int orr_test_checks_;
static int orr_test_skipped_now_;

#define TEST(name)                                                                                                    \
    static void test_##name(void);                                                                                    \
    __attribute__((constructor)) static void register_##name(void) {                                                  \
        if (orr_test_count_ < ORR_TEST_MAX) orr_test_cases_[orr_test_count_++] = (orr_test_case){#name, test_##name}; \
    }                                                                                                                 \
    static void test_##name(void)

#define CHECK(cond)                                                                  \
    do {                                                                             \
        orr_test_checks_++;                                                          \
        if (!(cond)) {                                                               \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
            orr_test_failed_now_ = 1;                                                \
        }                                                                            \
    } while (0)

/* CHECK that ends the test when it fails (for what the rest needs). */
#define REQUIRE(cond)                                                                  \
    do {                                                                               \
        orr_test_checks_++;                                                            \
        if (!(cond)) {                                                                 \
            fprintf(stderr, "%s:%d: REQUIRE failed: %s\n", __FILE__, __LINE__, #cond); \
            orr_test_failed_now_ = 1;                                                  \
            return;                                                                    \
        }                                                                              \
    } while (0)

#define CHECK_NEAR(a, b, tol)                                                                                         \
    do {                                                                                                              \
        double a_ = (double)(a), b_ = (double)(b), t_ = (double)(tol);                                                \
        orr_test_checks_++;                                                                                           \
        if (!(fabs(a_ - b_) <= t_)) {                                                                                 \
            fprintf(stderr, "%s:%d: CHECK_NEAR failed: %s = %.17g, %s = %.17g, tol %g\n", __FILE__, __LINE__, #a, a_, \
                    #b, b_, t_);                                                                                      \
            orr_test_failed_now_ = 1;                                                                                 \
        }                                                                                                             \
    } while (0)

/* Ends the test as skipped, with the reason on the result line. */
#define SKIP(why)                                                         \
    do {                                                                  \
        orr_test_skipped_now_ = 1;                                        \
        fprintf(stderr, "%s:%d: skipped: %s\n", __FILE__, __LINE__, why); \
        return;                                                           \
    } while (0)

/* Hook run after each test (render tests use it to fail on validation messages). */
static int (*orr_test_after_each_)(void);

__attribute__((unused)) static int orr_run_tests_(int argc, char **argv) {
    int passed = 0, failed = 0, skipped = 0;
    for (int i = 0; i < orr_test_count_; i++) {
        const orr_test_case *tc = &orr_test_cases_[i];
        if (argc > 1 && strcmp(argv[1], tc->name) != 0) continue;
        orr_test_failed_now_ = 0;
        orr_test_skipped_now_ = 0;
        int checks_before = orr_test_checks_;
        tc->fn();
        if (orr_test_after_each_ && orr_test_after_each_() != 0) orr_test_failed_now_ = 1;
        if (orr_test_skipped_now_ && !orr_test_failed_now_) {
            printf("[skip] %s\n", tc->name);
            skipped++;
            continue;
        }
        if (orr_test_checks_ == checks_before) {
            fprintf(stderr, "test %s made no CHECK: a test must assert something\n", tc->name);
            orr_test_failed_now_ = 1;
        }
        printf("[%s] %s\n", orr_test_failed_now_ ? "FAIL" : " ok ", tc->name);
        if (orr_test_failed_now_)
            failed++;
        else
            passed++;
    }
    printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
    return (failed || passed == 0) ? 1 : 0;
}
#define RUN_TESTS(argc, argv) orr_run_tests_((argc), (argv))

#endif
