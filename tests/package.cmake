# tests/package.cmake — the installed package (docs/decisions.md, "The
# installed package"), included by tests/CMakeLists.txt:
#   package_exports, package_exports_rh   liborrery(-rh).so export the orr_* API and nothing else
#   package_exports_control               the same check fails on a library that leaks
#   package_install                       cmake --install to a temporary prefix, then moved (fixture)
#   package_headers                       orrery.h includes every header; headers cite only installed files
#   package_headers_control               the citation check fails on a header citing src/ and DESIGN.md
#   package_readme                        README's program, pkg-config, liborrery.so, from the moved prefix
#   package_pkgconfig_*                   the same with orrery-rh and the static archives; *_complete
#                                         links the whole archives (every Requires/Libs.private needed)
#   package_find_package                  find_package(orrery) consumer, the four targets
#   package_subdir                        add_subdirectory consumer
# Every program built here is the README's "Using the library" block, read
# from README.md when the test runs, and is run (lavapipe without a GPU,
# validation layer on): it must write hello.png of the size it asks for.
# Folders: ${PROJECT_BINARY_DIR}/package-test/<test>.
set(ORR_PKG_WORK ${PROJECT_BINARY_DIR}/package-test)
set(ORR_PKG_SCRIPT ${CMAKE_CURRENT_SOURCE_DIR}/package/package_test.sh)
set(ORR_PKG_README ${PROJECT_SOURCE_DIR}/README.md)
set(ORR_PKG_ENV "CMAKE=${CMAKE_COMMAND};PKG_CONFIG=${PKG_CONFIG_EXECUTABLE};ORR_VALIDATION=1")

# ---- exports: nm -D --defined-only ---------------------------------------------------
foreach(variant orrery orrery-rh)
  set(name package_exports)
  set(defs)
  if(variant STREQUAL "orrery-rh")
    set(name package_exports_rh)
    set(defs -DORR_RIGHT_HANDED=1)
  endif()
  add_test(NAME ${name} COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/package/check_exports.sh
    $<TARGET_FILE:${variant}> ${CMAKE_C_COMPILER} ${PROJECT_SOURCE_DIR}/include ${defs})
endforeach()
# Control: a library with one orr_ function, one other (leaked_helper) and a
# declared orr_ function it lacks; the check must name both.
add_library(orr_package_control SHARED ${CMAKE_CURRENT_SOURCE_DIR}/package/control/control.c)
add_test(NAME package_exports_control COMMAND sh -c
  "out=$(sh \"$0\" \"$1\" \"$2\" \"$3\") && { echo \"$out\"; echo 'check passed on a leaking library'; exit 1; }; \
echo \"$out\"; echo \"$out\" | grep -q '^ *leaked_helper$' && echo \"$out\" | grep -q '^ *orr_control_missing$'"
  ${CMAKE_CURRENT_SOURCE_DIR}/package/check_exports.sh $<TARGET_FILE:orr_package_control> ${CMAKE_C_COMPILER}
  ${CMAKE_CURRENT_SOURCE_DIR}/package/control/include)

# ---- citations in headers: control on a header that cites non-shipped files ----------
add_test(NAME package_headers_control COMMAND sh -c
  "out=$(sh \"$0\" \"$1\" \"$2\" \"$2\") && { echo \"$out\"; echo 'check passed on a bad header'; exit 1; }; \
echo \"$out\"; echo \"$out\" | grep -q 'src/control/control.c' && echo \"$out\" | grep -q 'DESIGN.md' && echo \"$out\" | grep -q 'docs/missing.md'"
  ${CMAKE_CURRENT_SOURCE_DIR}/package/check_header_refs.sh ${CMAKE_CURRENT_SOURCE_DIR}/package/control/include
  ${CMAKE_CURRENT_SOURCE_DIR}/package/control)

# ---- install, consumers --------------------------------------------------------------
set(ORR_PKG_DIRS_RELATIVE ON)
foreach(dir LIBDIR INCLUDEDIR DOCDIR DATADIR)
  if(IS_ABSOLUTE ${CMAKE_INSTALL_${dir}})
    set(ORR_PKG_DIRS_RELATIVE OFF)
  endif()
endforeach()
set(ORR_PKG_TESTS package_install package_headers package_readme package_pkgconfig_static
  package_pkgconfig_rh package_pkgconfig_rh_static package_pkgconfig_complete package_find_package)
if(ORR_SANITIZE)
  # The installed libraries are sanitizer builds: every consumer would need
  # -fsanitize and the ASan runtime loaded first. The regular build runs them.
  foreach(t ${ORR_PKG_TESTS} package_subdir)
    add_test(NAME ${t} COMMAND sh -c "echo 'sanitizer build: package tests run in the regular build'; exit 77")
  endforeach()
elseif(NOT ORR_INSTALL OR NOT ORR_PKG_DIRS_RELATIVE)
  foreach(t ${ORR_PKG_TESTS})
    add_test(NAME ${t} COMMAND sh -c "echo 'no install rules (ORR_INSTALL off) or absolute install dirs: skipped'; exit 77")
  endforeach()
else()
  set(w ${ORR_PKG_WORK})
  add_test(NAME package_install COMMAND sh ${ORR_PKG_SCRIPT} install ${w} ${PROJECT_BINARY_DIR} ${CMAKE_INSTALL_LIBDIR})
  set_tests_properties(package_install PROPERTIES FIXTURES_SETUP orr_package)
  add_test(NAME package_headers COMMAND sh ${ORR_PKG_SCRIPT} headers ${w}
    ${CMAKE_INSTALL_LIBDIR} ${CMAKE_INSTALL_INCLUDEDIR} ${CMAKE_INSTALL_DOCDIR} ${CMAKE_INSTALL_DATADIR})
  set(pc sh ${ORR_PKG_SCRIPT} pkgconfig ${w} ${ORR_PKG_README} ${CMAKE_INSTALL_LIBDIR})
  add_test(NAME package_readme COMMAND ${pc} orrery shared ${CMAKE_C_COMPILER})
  add_test(NAME package_pkgconfig_static COMMAND ${pc} orrery static ${CMAKE_C_COMPILER})
  add_test(NAME package_pkgconfig_rh COMMAND ${pc} orrery-rh shared ${CMAKE_C_COMPILER})
  add_test(NAME package_pkgconfig_rh_static COMMAND ${pc} orrery-rh static ${CMAKE_C_COMPILER})
  add_test(NAME package_pkgconfig_complete COMMAND sh -c "\"$@\" orrery complete \"$0\" && \"$@\" orrery-rh complete \"$0\""
    ${CMAKE_C_COMPILER} ${pc})
  add_test(NAME package_find_package COMMAND sh ${ORR_PKG_SCRIPT} cmake ${w} ${ORR_PKG_README}
    ${CMAKE_INSTALL_LIBDIR} ${PROJECT_SOURCE_DIR})
  set_tests_properties(package_headers package_readme package_pkgconfig_static package_pkgconfig_rh
    package_pkgconfig_rh_static package_pkgconfig_complete package_find_package PROPERTIES FIXTURES_REQUIRED orr_package)
endif()
if(NOT ORR_SANITIZE)
  # Needs no install: builds Orrery again below a consumer project (library only).
  add_test(NAME package_subdir COMMAND sh ${ORR_PKG_SCRIPT} subdir ${ORR_PKG_WORK} ${ORR_PKG_README} ${PROJECT_SOURCE_DIR})
endif()
set_tests_properties(${ORR_PKG_TESTS} package_subdir PROPERTIES
  ENVIRONMENT "${ORR_PKG_ENV}"
  SKIP_RETURN_CODE 77
  FAIL_REGULAR_EXPRESSION "validation: "
  TIMEOUT 300)
