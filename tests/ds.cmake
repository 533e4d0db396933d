# tests/ds.cmake — test-only compute shaders of the double-single GPU test
# (tests/render/test_ds_gpu.c). Mirrors cmake/shaders.cmake: glslc at build
# time, -mfmt=c into a generated .inc that the test #includes. ds_test.comp is
# built twice: as is (`precise`) and with -DORR_DS_NO_PRECISE (the control).
# Target vulkan1.2: for vulkan1.3 glslang writes the workgroup size as
# LocalSizeId, which needs the maintenance4 feature that the engine does not
# enable (yet); SPIR-V 1.5 runs unchanged on the 1.3 device.
if(TARGET test_ds_gpu)
  set(ORR_DS_SPV_DIR ${CMAKE_CURRENT_BINARY_DIR}/ds-spv)
  file(MAKE_DIRECTORY ${ORR_DS_SPV_DIR})
  set(ds_src ${CMAKE_CURRENT_SOURCE_DIR}/shaders/ds_test.comp)
  set(ds_deps ${ds_src} ${CMAKE_SOURCE_DIR}/shaders/ds.glsl)
  set(ds_precise ${ORR_DS_SPV_DIR}/ds_test_precise.comp.inc)
  set(ds_plain ${ORR_DS_SPV_DIR}/ds_test_no_precise.comp.inc)
  add_custom_command(OUTPUT ${ds_precise}
    COMMAND ${GLSLC} --target-env=vulkan1.2 -O -mfmt=c -I ${CMAKE_SOURCE_DIR}/shaders -o ${ds_precise} ${ds_src}
    DEPENDS ${ds_deps} COMMENT "glslc ds_test.comp (precise)")
  add_custom_command(OUTPUT ${ds_plain}
    COMMAND ${GLSLC} --target-env=vulkan1.2 -O -mfmt=c -DORR_DS_NO_PRECISE -I ${CMAKE_SOURCE_DIR}/shaders -o ${ds_plain} ${ds_src}
    DEPENDS ${ds_deps} COMMENT "glslc ds_test.comp (control, no precise)")
  foreach(t test_ds_gpu test_ds_gpu_rh)
    if(TARGET ${t})
      target_sources(${t} PRIVATE ${ds_precise} ${ds_plain})
      target_include_directories(${t} PRIVATE ${ORR_DS_SPV_DIR})
    endif()
  endforeach()
  # One custom command, two targets: order them so that it runs once.
  foreach(t test_ds_gpu_rh)
    if(TARGET ${t})
      add_dependencies(${t} test_ds_gpu)
    endif()
  endforeach()
endif()
