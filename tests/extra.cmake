# tests/extra.cmake — tests that need their own CMake: header compile tests and
# the static-link tests (docs/decisions.md 4). Included by tests/CMakeLists.txt.

# ---- compile tests: public headers as C11, C17 and C++17, warnings as errors ----------
set(ORR_STRICT -Wall -Wextra -Werror -pedantic)
foreach(std 11 17)
  add_executable(compile_c${std} ${CMAKE_CURRENT_SOURCE_DIR}/compile/compile_c.c)
  set_target_properties(compile_c${std} PROPERTIES C_STANDARD ${std} C_STANDARD_REQUIRED ON C_EXTENSIONS OFF)
  target_include_directories(compile_c${std} PRIVATE ${CMAKE_SOURCE_DIR}/include)
  target_compile_options(compile_c${std} PRIVATE ${ORR_STRICT})
  add_test(NAME test_compile_c${std} COMMAND compile_c${std})
endforeach()
add_executable(compile_cpp17 ${CMAKE_CURRENT_SOURCE_DIR}/compile/compile_cpp.cpp)
set_target_properties(compile_cpp17 PROPERTIES CXX_STANDARD 17 CXX_STANDARD_REQUIRED ON CXX_EXTENSIONS OFF)
target_include_directories(compile_cpp17 PRIVATE ${CMAKE_SOURCE_DIR}/include)
target_compile_options(compile_cpp17 PRIVATE ${ORR_STRICT})
add_test(NAME test_compile_cpp17 COMMAND compile_cpp17)

# ---- static link: a standard-material program links without any shaderc library ------
set(ORR_STATIC_LIBS Vulkan::Vulkan PkgConfig::STB PkgConfig::CJSON meshoptimizer::meshoptimizer m Threads::Threads)
add_executable(static_link_std ${CMAKE_CURRENT_SOURCE_DIR}/link/static_std.c)
add_dependencies(static_link_std orrery_static)
target_include_directories(static_link_std PRIVATE ${CMAKE_SOURCE_DIR}/include)
# The archive by file name, not the orrery_static target (which would bring
# orrery_shaderc along through its interface).
target_link_libraries(static_link_std PRIVATE $<TARGET_FILE:orrery_static> ${ORR_STATIC_LIBS})
add_test(NAME test_static_link COMMAND static_link_std)
# No run-time compiler symbol in the binary; control: a test binary that does
# use shader materials has them, so the grep would see them.
add_test(NAME test_static_link_no_shaderc_symbols
  COMMAND sh -c "nm \"$1\" > \"$3\" && ! grep -E 'shaderc_|glslang' \"$3\" && nm \"$2\" | grep -q shaderc_compile_into_spv"
          sh $<TARGET_FILE:static_link_std> $<TARGET_FILE:test_errors> ${CMAKE_CURRENT_BINARY_DIR}/static_link_std.nm)

# The symmetric direction: a shader-material program linked the same way fails.
set(ORR_LINK_FLAGS "")
if(ORR_SANITIZE)
  set(ORR_LINK_FLAGS "-fsanitize=address,undefined")
endif()
string(JOIN "|" ORR_LINK_LIBS ${Vulkan_LIBRARIES} ${STB_LINK_LIBRARIES} ${CJSON_LINK_LIBRARIES} -lmeshoptimizer -lm -lpthread)
add_test(NAME test_static_link_shader_fails
  COMMAND ${CMAKE_COMMAND} -DCC=${CMAKE_C_COMPILER} -DINC=${CMAKE_SOURCE_DIR}/include
          -DLIB=$<TARGET_FILE:orrery_static> "-DLIBS=${ORR_LINK_LIBS}" "-DFLAGS=${ORR_LINK_FLAGS}"
          -DSRC_DIR=${CMAKE_CURRENT_SOURCE_DIR}/link -DOUT_DIR=${CMAKE_CURRENT_BINARY_DIR}/link-check
          -P ${CMAKE_CURRENT_SOURCE_DIR}/link/expect_link_failure.cmake)
set_tests_properties(test_static_link test_static_link_shader_fails PROPERTIES TIMEOUT 300)

# Floating origin is a module of its own (DESIGN.md §2): the standard program
# above never names orr_floating_origin, so none of src/largeworld is linked;
# control: test_large_world, which uses it, contains it.
add_test(NAME test_static_link_no_floating_origin
  COMMAND sh -c "nm \"$1\" > \"$3\" && ! grep -E 'orr_floating_origin|pack_mesh_world|rel_world' \"$3\" && nm \"$2\" | grep -q orr_floating_origin"
          sh $<TARGET_FILE:static_link_std> $<TARGET_FILE:test_large_world> ${CMAKE_CURRENT_BINARY_DIR}/static_link_std_fo.nm)

# Physics is opt-in too (docs/decisions.md 49): the standard program above is
# linked against the archive without libode (ORR_STATIC_LIBS names none), and
# its symbols hold nothing of src/physics, ODE nor qhull; control: test_physics,
# which uses it, has both.
if(ORR_WITH_PHYSICS)
  add_test(NAME test_static_link_no_physics
    COMMAND sh -c "nm \"$1\" > \"$3\" && ! grep -E 'orr_physics_|orri_region|orri_body|orri_hull|dWorldCreate|dInitODE|qh_new_qhull' \"$3\" && nm \"$2\" | grep -q orr_physics_create && nm \"$2\" | grep -q dWorldCreate"
            sh $<TARGET_FILE:static_link_std> $<TARGET_FILE:test_physics> ${CMAKE_CURRENT_BINARY_DIR}/static_link_std_physics.nm)
else()
  add_test(NAME test_static_link_no_physics COMMAND sh -c "echo 'built without ODE: no physics to isolate'; exit 77")
  set_tests_properties(test_static_link_no_physics PROPERTIES SKIP_RETURN_CODE 77)
endif()
