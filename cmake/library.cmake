# The library, in two handedness variants built from one source tree
# (docs/handedness.md, DESIGN.md §3):
#   orrery / orrery_static        left-handed (default)  → liborrery.so / liborrery.a
#   orrery-rh / orrery-rh_static  right-handed            → liborrery-rh.so / liborrery-rh.a
# Each variant is one set of objects built static and shared. The right-handed
# objects are compiled with ORR_RIGHT_HANDED=1, and the definition is PUBLIC on
# the rh targets (and in orrery-rh.pc), so a program linking them sees the same
# value in orrery/handedness.h. Sources are the .c files of src/<module>/.
file(GLOB ORR_LIB_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/*/*.c)
set(ORR_WINDOW_SOURCES ${CMAKE_SOURCE_DIR}/src/window/window_glfw.c)
list(REMOVE_ITEM ORR_LIB_SOURCES ${ORR_WINDOW_SOURCES})
if(ORR_WITH_GLFW AND EXISTS ${ORR_WINDOW_SOURCES})
  list(APPEND ORR_LIB_SOURCES ${ORR_WINDOW_SOURCES})
endif()

# orr_add_library_variant(<name> <spirv object library> <right-handed 0|1>)
function(orr_add_library_variant name spirv rh)
  add_library(${name}_objects OBJECT ${ORR_LIB_SOURCES})
  target_include_directories(${name}_objects PUBLIC ${CMAKE_SOURCE_DIR}/include PRIVATE ${CMAKE_SOURCE_DIR}/src ${ORR_SPV_DIR})
  target_link_libraries(${name}_objects PUBLIC Vulkan::Vulkan PkgConfig::STB orrery_shaderc)
  if(ORR_WITH_GLFW)
    target_link_libraries(${name}_objects PUBLIC PkgConfig::GLFW)
    target_compile_definitions(${name}_objects PUBLIC ORR_HAVE_GLFW=1)
  endif()
  if(rh)
    target_compile_definitions(${name}_objects PUBLIC ORR_RIGHT_HANDED=1)
  endif()

  add_library(${name}_static STATIC $<TARGET_OBJECTS:${name}_objects> $<TARGET_OBJECTS:${spirv}>)
  set_target_properties(${name}_static PROPERTIES OUTPUT_NAME ${name})
  add_library(${name} SHARED $<TARGET_OBJECTS:${name}_objects> $<TARGET_OBJECTS:${spirv}>)
  set_target_properties(${name} PROPERTIES VERSION ${PROJECT_VERSION} SOVERSION 0)
  foreach(t ${name} ${name}_static)
    target_include_directories(${t} PUBLIC $<BUILD_INTERFACE:${CMAKE_SOURCE_DIR}/include> $<INSTALL_INTERFACE:include>)
    target_link_libraries(${t} PUBLIC Vulkan::Vulkan PkgConfig::STB orrery_shaderc Threads::Threads m)
    if(ORR_WITH_GLFW)
      target_link_libraries(${t} PUBLIC PkgConfig::GLFW)
      target_compile_definitions(${t} PUBLIC ORR_HAVE_GLFW=1)
    endif()
    if(rh)
      target_compile_definitions(${t} PUBLIC ORR_RIGHT_HANDED=1)
    endif()
  endforeach()
endfunction()

orr_add_library_variant(orrery orrery_spirv 0)
orr_add_library_variant(orrery-rh orrery-rh_spirv 1)

include(GNUInstallDirs)
install(TARGETS orrery orrery_static orrery-rh orrery-rh_static orrery_shaderc EXPORT orreryTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/include/orrery DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# One package, both variants: find_package(orrery) gives orrery::orrery,
# orrery::orrery_static, orrery::orrery-rh and orrery::orrery-rh_static.
install(EXPORT orreryTargets NAMESPACE orrery:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/orrery)
file(WRITE ${CMAKE_BINARY_DIR}/orreryConfig.cmake
  "include(CMakeFindDependencyMacro)\nfind_dependency(Vulkan)\nfind_dependency(Threads)\nfind_dependency(PkgConfig)\npkg_check_modules(STB REQUIRED IMPORTED_TARGET stb)\n"
  "if(${ORR_WITH_GLFW})\n  pkg_check_modules(GLFW REQUIRED IMPORTED_TARGET glfw3)\nendif()\n"
  "include(\${CMAKE_CURRENT_LIST_DIR}/orreryTargets.cmake)\n")
install(FILES ${CMAKE_BINARY_DIR}/orreryConfig.cmake DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/orrery)
# pkg-config: orrery.pc (left-handed) and orrery-rh.pc (right-handed, with
# Cflags: -DORR_RIGHT_HANDED=1), both from cmake/orrery.pc.in.
foreach(variant orrery orrery-rh)
  set(ORR_PC_NAME ${variant})
  if(variant STREQUAL "orrery-rh")
    set(ORR_PC_HANDEDNESS "right-handed")
    set(ORR_PC_CFLAGS " -DORR_RIGHT_HANDED=1")
  else()
    set(ORR_PC_HANDEDNESS "left-handed")
    set(ORR_PC_CFLAGS "")
  endif()
  configure_file(${CMAKE_SOURCE_DIR}/cmake/orrery.pc.in ${CMAKE_BINARY_DIR}/${variant}.pc @ONLY)
  install(FILES ${CMAKE_BINARY_DIR}/${variant}.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endforeach()
