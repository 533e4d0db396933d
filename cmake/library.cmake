# The library, in two handedness variants built from one source tree
# (docs/handedness.md, DESIGN.md §3):
#   orrery / orrery_static        left-handed (default)  → liborrery.so / liborrery.a
#   orrery-rh / orrery-rh_static  right-handed            → liborrery-rh.so / liborrery-rh.a
# Each variant is one set of objects built static and shared. The right-handed
# objects are compiled with ORR_RIGHT_HANDED=1, and the definition is PUBLIC on
# the rh targets (and in orrery-rh.pc), so a program linking them sees the same
# value in orrery/handedness.h. Sources are the .c files of src/<module>/.
# Every target also has an orrery:: alias, so a project that adds Orrery with
# add_subdirectory() names the same targets as one that uses find_package().
# Installation and the package files: cmake/package.cmake.
file(GLOB ORR_LIB_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/*/*.c)
set(ORR_WINDOW_SOURCES ${PROJECT_SOURCE_DIR}/src/window/window_glfw.c)
list(REMOVE_ITEM ORR_LIB_SOURCES ${ORR_WINDOW_SOURCES})
if(ORR_WITH_GLFW AND EXISTS ${ORR_WINDOW_SOURCES})
  list(APPEND ORR_LIB_SOURCES ${ORR_WINDOW_SOURCES})
endif()
# Physics (orrery/physics.h) on ODE: without it only physics_none.c is built,
# whose orr_physics_create reports ORR_ERROR_UNSUPPORTED (docs/decisions.md 49).
file(GLOB ORR_PHYSICS_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/physics/*.c)
list(REMOVE_ITEM ORR_PHYSICS_SOURCES ${PROJECT_SOURCE_DIR}/src/physics/physics_none.c)
if(NOT ORR_WITH_PHYSICS)
  list(REMOVE_ITEM ORR_LIB_SOURCES ${ORR_PHYSICS_SOURCES})
endif()

# The shared libraries export the public API and nothing else (docs/decisions.md,
# "The installed package"): the version script keeps orr_* global and makes
# every other symbol local, including the glslang / SPIRV-Tools / shaderc code
# linked in from static archives, which --exclude-libs also hides at the source.
set(ORR_EXPORT_MAP ${PROJECT_SOURCE_DIR}/cmake/orrery.map)

# orr_add_library_variant(<name> <spirv object library> <right-handed 0|1>)
function(orr_add_library_variant name spirv rh)
  set(deps Vulkan::Vulkan PkgConfig::STB PkgConfig::CJSON meshoptimizer::meshoptimizer orrery_shaderc Threads::Threads m)
  if(ORR_WITH_GLFW)
    list(APPEND deps PkgConfig::GLFW)
  endif()
  if(ORR_WITH_PHYSICS)
    list(APPEND deps PkgConfig::ODE)
    if(ORR_WITH_QHULL)
      list(APPEND deps PkgConfig::QHULL)
    endif()
  endif()
  add_library(${name}_objects OBJECT ${ORR_LIB_SOURCES})
  target_include_directories(${name}_objects PUBLIC ${PROJECT_SOURCE_DIR}/include PRIVATE ${PROJECT_SOURCE_DIR}/src ${ORR_SPV_DIR})
  target_link_libraries(${name}_objects PUBLIC Vulkan::Vulkan PkgConfig::STB PkgConfig::CJSON meshoptimizer::meshoptimizer orrery_shaderc)
  if(ORR_WITH_GLFW)
    target_link_libraries(${name}_objects PUBLIC PkgConfig::GLFW)
    target_compile_definitions(${name}_objects PUBLIC ORR_HAVE_GLFW=1)
  endif()
  if(rh)
    target_compile_definitions(${name}_objects PUBLIC ORR_RIGHT_HANDED=1)
  endif()
  if(ORR_WITH_PHYSICS)
    target_link_libraries(${name}_objects PRIVATE PkgConfig::ODE)
    target_compile_definitions(${name}_objects PRIVATE ORR_HAVE_ODE=1)
    if(ORR_WITH_QHULL)
      target_link_libraries(${name}_objects PRIVATE PkgConfig::QHULL)
      target_compile_definitions(${name}_objects PRIVATE ORR_HAVE_QHULL=1)
    endif()
  endif()

  # Static: every dependency is part of the link interface (a program linking
  # the archive links them too).
  add_library(${name}_static STATIC $<TARGET_OBJECTS:${name}_objects> $<TARGET_OBJECTS:${spirv}>)
  set_target_properties(${name}_static PROPERTIES OUTPUT_NAME ${name})
  target_link_libraries(${name}_static PUBLIC ${deps})
  if(ORR_WITH_GLFW)
    target_compile_definitions(${name}_static PUBLIC ORR_HAVE_GLFW=1)
  endif()

  # Shared: the dependencies are its own business. The public headers include
  # only the C standard headers, so a program linking liborrery.so gets
  # neither Vulkan, stb, cJSON, GLFW nor shaderc on its compile or link line.
  add_library(${name} SHARED $<TARGET_OBJECTS:${name}_objects> $<TARGET_OBJECTS:${spirv}>)
  set_target_properties(${name} PROPERTIES VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR}
    LINK_DEPENDS ${ORR_EXPORT_MAP})
  target_link_libraries(${name} PRIVATE ${deps})
  target_link_options(${name} PRIVATE "LINKER:--version-script=${ORR_EXPORT_MAP}" "LINKER:--exclude-libs,ALL")

  foreach(t ${name} ${name}_static)
    target_include_directories(${t} PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include> $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
    if(rh)
      target_compile_definitions(${t} PUBLIC ORR_RIGHT_HANDED=1)
    endif()
    add_library(orrery::${t} ALIAS ${t})
  endforeach()
endfunction()

include(GNUInstallDirs)
orr_add_library_variant(orrery orrery_spirv 0)
orr_add_library_variant(orrery-rh orrery-rh_spirv 1)
