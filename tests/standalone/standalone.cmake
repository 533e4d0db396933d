# The repository stands alone (issue 9, item 1): nothing in the build, tests,
# demo, benchmarks or fuzz targets names a path outside the checkout, checked
# with a control that plants one. (.ci/run also runs the whole suite from a
# copy of the checkout with nothing beside it.) Included from tests/CMakeLists.txt.
add_test(NAME standalone_no_outside_paths COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/no_outside_paths.sh ${PROJECT_SOURCE_DIR})
add_test(NAME standalone_no_outside_paths_control COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/no_outside_paths.sh --control)
