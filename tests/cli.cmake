# Command-line programs reject what they do not understand (issue 9, item 7):
# --help prints the usage on stdout and exits 0 without running; an unknown
# option or a malformed or missing value prints the usage on stderr and exits
# 2. (Before, `bench_instances --help` silently started the full benchmark.)
# Included from tests/CMakeLists.txt.
set(ORR_CLI_CHECK [=[out=$("$0" "$@" 2>&1); rc=$?; printf '%s\n' "$out"; test $rc -eq $ORR_WANT_RC && printf '%s\n' "$out" | grep -q "$ORR_WANT_TEXT"]=])
foreach(prog orrery-demo orrery-physics-demo bench_instances bench_floating_origin bench_physics)
  if(NOT TARGET ${prog})
    continue()
  endif()
  add_test(NAME cli_${prog}_help COMMAND sh -c "${ORR_CLI_CHECK}" $<TARGET_FILE:${prog}> --help)
  set_tests_properties(cli_${prog}_help PROPERTIES ENVIRONMENT "ORR_WANT_RC=0;ORR_WANT_TEXT=^usage: " TIMEOUT 10)
  foreach(bad "--bogus" "--frames;abc" "--frames")
    string(MAKE_C_IDENTIFIER "${bad}" tag)
    add_test(NAME cli_${prog}_rejects${tag} COMMAND sh -c "${ORR_CLI_CHECK}" $<TARGET_FILE:${prog}> ${bad})
    set_tests_properties(cli_${prog}_rejects${tag} PROPERTIES
      ENVIRONMENT "ORR_WANT_RC=2;ORR_WANT_TEXT=unknown option or bad value" TIMEOUT 10)
  endforeach()
endforeach()
