# cmake/package.cmake — what `cmake --install` puts where, and the files that
# find it again: CMake package (orreryConfig.cmake + version file + targets)
# and pkg-config (orrery.pc, orrery-rh.pc). Everything installed is
# relocatable: `cmake --install build --prefix X` works for any X, and the
# tree can be moved after installing (docs/decisions.md, "The installed
# package"; tested by tests/package.cmake).
# Included by CMakeLists.txt when ORR_INSTALL is on (default: top-level only).
include(CMakePackageConfigHelpers)

# ---- files ---------------------------------------------------------------------------
install(TARGETS orrery orrery-rh EXPORT orreryTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime NAMELINK_COMPONENT development)
install(TARGETS orrery_static orrery-rh_static orrery_shaderc EXPORT orreryTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT development)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/orrery DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT development)
# The GLSL twin of orrery/double_single.h, for user shaders (glslc -I <datadir>/orrery/glsl).
install(FILES ${PROJECT_SOURCE_DIR}/shaders/ds.glsl DESTINATION ${CMAKE_INSTALL_DATADIR}/orrery/glsl COMPONENT development)
# README.md at the top of <docdir> and docs/ below it: the README's relative
# links and the public headers' "docs/<name>.md" references resolve there.
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT doc)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs COMPONENT doc)

# ---- CMake package: find_package(orrery [0.x]) ----------------------------------------
# One package, both variants: orrery::orrery, orrery::orrery_static,
# orrery::orrery-rh, orrery::orrery-rh_static (the same names as the in-tree
# aliases). Version compatibility: SameMajorVersion, the major version being
# the shared library's SOVERSION (docs/decisions.md, "The installed package").
set(ORR_CMAKE_INSTALL_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/orrery)
install(EXPORT orreryTargets NAMESPACE orrery:: DESTINATION ${ORR_CMAKE_INSTALL_DIR} COMPONENT development)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/orreryConfig.cmake.in
  ${PROJECT_BINARY_DIR}/orreryConfig.cmake INSTALL_DESTINATION ${ORR_CMAKE_INSTALL_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/orreryConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/orreryConfig.cmake ${PROJECT_BINARY_DIR}/orreryConfigVersion.cmake
  DESTINATION ${ORR_CMAKE_INSTALL_DIR} COMPONENT development)

# ---- pkg-config: orrery.pc and orrery-rh.pc (Cflags: -DORR_RIGHT_HANDED=1) -----------
# prefix = ${pcfiledir}/<back to the prefix>, unless a directory was given as
# an absolute path (then that path, and that part is not relocatable).
# Requires.private + Libs.private are every dependency of the static library,
# so `pkg-config --static --libs` links liborrery.a (README, "Using the library").
file(RELATIVE_PATH ORR_PC_UP /ORR_PREFIX/${CMAKE_INSTALL_LIBDIR}/pkgconfig /ORR_PREFIX)
string(REGEX REPLACE "/$" "" ORR_PC_UP "${ORR_PC_UP}")
set(ORR_PC_PREFIX "\${pcfiledir}/${ORR_PC_UP}")
if(IS_ABSOLUTE ${CMAKE_INSTALL_LIBDIR})
  set(ORR_PC_PREFIX ${CMAKE_INSTALL_PREFIX})
endif()
foreach(dir LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE ${CMAKE_INSTALL_${dir}})
    set(ORR_PC_${dir} ${CMAKE_INSTALL_${dir}})
  else()
    set(ORR_PC_${dir} "\${prefix}/${CMAKE_INSTALL_${dir}}")
  endif()
endforeach()
set(ORR_PC_REQUIRES_PRIVATE "vulkan stb libcjson")
if(ORR_WITH_GLFW)
  string(APPEND ORR_PC_REQUIRES_PRIVATE " glfw3")
endif()
if(ORR_WITH_PHYSICS)
  string(APPEND ORR_PC_REQUIRES_PRIVATE " ode")
  if(ORR_WITH_QHULL)
    string(APPEND ORR_PC_REQUIRES_PRIVATE " qhull_r")
  endif()
endif()
# The orrery_shaderc link line (CMakeLists.txt, docs/decisions.md 4), then the
# C++ runtime glslang needs, threads and libm.
set(ORR_PC_LIBS_PRIVATE "-lshaderc_combined -Wl,--start-group -lglslang -lMachineIndependent -lOSDependent \
-lOGLCompiler -lGenericCodeGen -lSPIRV -lSPIRV-Tools-opt -lSPIRV-Tools -Wl,--end-group -lmeshoptimizer -lstdc++ -lpthread -lm")
foreach(variant orrery orrery-rh)
  set(ORR_PC_NAME ${variant})
  if(variant STREQUAL "orrery-rh")
    set(ORR_PC_HANDEDNESS "right-handed")
    set(ORR_PC_CFLAGS " -DORR_RIGHT_HANDED=1")
  else()
    set(ORR_PC_HANDEDNESS "left-handed")
    set(ORR_PC_CFLAGS "")
  endif()
  configure_file(${PROJECT_SOURCE_DIR}/cmake/orrery.pc.in ${PROJECT_BINARY_DIR}/${variant}.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/${variant}.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT development)
endforeach()
