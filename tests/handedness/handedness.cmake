# tests/handedness/handedness.cmake — the four handedness guards (docs/handedness.md) and the
# check that left-handed objects hold no right-handed code. Included by tests/CMakeLists.txt.
find_package(Python3 REQUIRED COMPONENTS Interpreter)
set(ORR_GUARD ${CMAKE_CURRENT_SOURCE_DIR}/handedness/guard.py)

# Pairs: the same executable built against each variant. The left-handed one writes the
# Z-mirrored twins (fixture), the right-handed one renders the scenes and checks the relations.
set(ORR_PAIRS_DIR ${CMAKE_BINARY_DIR}/handedness-pairs)
file(MAKE_DIRECTORY ${ORR_PAIRS_DIR})
foreach(variant lh rh)
  if(variant STREQUAL "lh")
    set(name test_handedness_pairs_lh)
    set(support orrery_test_support)
  else()
    set(name test_handedness_pairs)
    set(support orrery_test_support_rh)
  endif()
  add_executable(${name} ${CMAKE_CURRENT_SOURCE_DIR}/handedness/test_handedness_pairs.c)
  target_link_libraries(${name} PRIVATE ${support} m)
  add_test(NAME ${name} COMMAND ${name})
  set_tests_properties(${name} PROPERTIES TIMEOUT 300
    ENVIRONMENT "ORR_PAIRS_DIR=${ORR_PAIRS_DIR};ORR_TEST_DATA=${CMAKE_CURRENT_SOURCE_DIR}/data;ORR_TEST_OUT=${CMAKE_BINARY_DIR}/test-out")
endforeach()
set_tests_properties(test_handedness_pairs_lh PROPERTIES FIXTURES_SETUP handedness_pairs)
set_tests_properties(test_handedness_pairs PROPERTIES FIXTURES_REQUIRED handedness_pairs)

# Drift, leak, coverage: source scans (Python 3, standard library only).
foreach(guard drift leak coverage)
  add_test(NAME test_handedness_${guard} COMMAND ${Python3_EXECUTABLE} ${ORR_GUARD} ${guard} --root ${CMAKE_SOURCE_DIR})
endforeach()

# Left-handed objects hold no right-handed code: every library source with a right-handed
# branch, compiled left-handed as is and with its right-handed branches deleted, disassembles
# identically (objdump -d); control: compiled right-handed, they differ.
get_target_property(ORR_STB_INC PkgConfig::STB INTERFACE_INCLUDE_DIRECTORIES)
set(ORR_STRIP_FLAGS -std=c11 -O2 -I${CMAKE_SOURCE_DIR}/include -I${CMAKE_SOURCE_DIR}/src -I${ORR_SPV_DIR})
foreach(dir ${ORR_STB_INC} ${Vulkan_INCLUDE_DIRS})
  list(APPEND ORR_STRIP_FLAGS -I${dir})
endforeach()
if(ORR_WITH_GLFW)
  list(APPEND ORR_STRIP_FLAGS -DORR_HAVE_GLFW=1)
endif()
add_test(NAME test_handedness_lh_has_no_rh_code
  COMMAND ${Python3_EXECUTABLE} ${ORR_GUARD} --root ${CMAKE_SOURCE_DIR} stripcheck ${CMAKE_BINARY_DIR}/handedness-strip
          ${CMAKE_C_COMPILER} -- ${ORR_STRIP_FLAGS})
set_tests_properties(test_handedness_lh_has_no_rh_code PROPERTIES TIMEOUT 300)
