# Benchmarks are never timed in tests; this one's baseline is checked for what
# makes its ratio mean anything: it must be the same draw as Orrery's. The
# WaterBottle bench (bench/bench_waterbottle_raw.c) runs at a smoke size with
# the validation layer on; it passes when it exits 0, prints no validation
# message and the two frames are identical (MAD 0). A baseline whose set
# layout lacked bindings that pbr.frag declares went unnoticed for two
# sessions and hid a 1.7x cost on NVIDIA (docs/decisions.md 78).
# Included from tests/CMakeLists.txt.
if(TARGET bench_waterbottle_raw)
  add_test(NAME bench_waterbottle_same_draw COMMAND sh -c
    "out=$(\"$0\" --size 96x64 --frames 3 2>&1); rc=$?; printf '%s\\n' \"$out\"; \
test $rc -eq 0 && printf '%s\\n' \"$out\" | grep -q '^BENCH waterbottle_image_mad 0\\.0000' && \
! printf '%s\\n' \"$out\" | grep -q 'validation: '"
    $<TARGET_FILE:bench_waterbottle_raw>)
  set_tests_properties(bench_waterbottle_same_draw PROPERTIES
    ENVIRONMENT "ORR_VALIDATION=1;ORR_ASSETS=${PROJECT_SOURCE_DIR}/assets")
endif()
