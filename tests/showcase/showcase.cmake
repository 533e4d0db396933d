# Showcase golden: the README's main job (orrery-demo, 1280x720, 4x MSAA, the
# sky from assets/) rendered with the validation layer on and compared with
# tests/data/golden/showcase.png (looked at; tests/data/golden/README.md) by
# whole-image MAD and by the worst tile of an 8x8 grid, so a local change
# (far LOD spheres drawn white, the sky missing) fails. It also fails when the
# demo says it could not load its sky images, its glTF models (Fox,
# WaterBottle) or the PBR environment texture (environmentSpecular.env).
# Included from tests/CMakeLists.txt.
if(NOT TARGET orrery-demo)
  return()
endif()
add_executable(compare_png ${CMAKE_CURRENT_LIST_DIR}/compare_png.c)
target_link_libraries(compare_png PRIVATE orrery_test_support m)
set(ORR_SHOWCASE_OUT ${CMAKE_BINARY_DIR}/test-out/showcase.png)
add_test(NAME showcase_golden COMMAND sh -c
  "\"$0\" --out \"$1\" && \"$2\" \"$1\" \"$3\" 0.35 2.0"
  $<TARGET_FILE:orrery-demo> ${ORR_SHOWCASE_OUT} $<TARGET_FILE:compare_png>
  ${CMAKE_CURRENT_SOURCE_DIR}/data/golden/showcase.png)
set(ORR_SHOWCASE_ENV "ORR_VALIDATION=1;ORR_VALIDATION_FATAL=1;ORR_ASSETS=${PROJECT_SOURCE_DIR}/assets")
if(ORR_SANITIZE)
  # As for window_demo (window.cmake): lavapipe's one-time allocations from an
  # unloaded module; ASan and UBSan stay on.
  list(APPEND ORR_SHOWCASE_ENV "ASAN_OPTIONS=detect_leaks=0")
endif()
set_tests_properties(showcase_golden PROPERTIES
  ENVIRONMENT "${ORR_SHOWCASE_ENV}"
  FAIL_REGULAR_EXPRESSION "no sky images;no glTF model;no environment texture;validation: "
  TIMEOUT 900) # a hang guard: the showcase took 152 s in a CI run before its shadows and sprites (decision 61)
