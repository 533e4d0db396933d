# cmake -P script for test_static_link_shader_fails. Links two programs the
# same way (liborrery.a + Vulkan + stb + m + pthread, no shaderc):
#   control: static_std.c must link (so a failure below is not a broken command);
#   subject: static_shader.c (calls orr_shader_material_create) must NOT link,
#            and the linker must name a missing shaderc_ symbol.
# Arguments (-D): CC, INC, LIB, LIBS and FLAGS ('|'-separated lists), SRC_DIR, OUT_DIR.
string(REPLACE "|" ";" libs "${LIBS}")
string(REPLACE "|" ";" flags "${FLAGS}")
function(try_link src out rc_var err_var)
  execute_process(COMMAND ${CC} ${flags} -std=c11 -I${INC} ${SRC_DIR}/${src} -o ${OUT_DIR}/${out} ${LIB} ${libs}
                  RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_VARIABLE out_text)
  set(${rc_var} "${rc}" PARENT_SCOPE)
  set(${err_var} "${err}${out_text}" PARENT_SCOPE)
endfunction()
file(MAKE_DIRECTORY ${OUT_DIR})
try_link(static_std.c static_std_control rc err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "control program failed to link, the command is broken:\n${err}")
endif()
try_link(static_shader.c static_shader_should_not_exist rc err)
if(rc EQUAL 0)
  message(FATAL_ERROR "a program calling orr_shader_material_create linked without shaderc: "
                      "the shader compiler is not isolated (or the library embeds it)")
endif()
if(NOT err MATCHES "undefined reference to [`']shaderc_")
  message(FATAL_ERROR "the link failed, but not for missing shaderc symbols:\n${err}")
endif()
message(STATUS "as expected: linking a shader-material program without shaderc fails on shaderc_* symbols")
