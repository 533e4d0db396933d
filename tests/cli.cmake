# Command-line programs reject what they do not understand (issue 9, item 7):
# --help prints the usage on stdout and exits 0 without running; an unknown
# option or a malformed or missing value prints the usage on stderr and exits
# 2. (Before, `bench_instances --help` silently started the full benchmark.)
# Included from tests/CMakeLists.txt.
set(ORR_CLI_CHECK [=[out=$("$0" "$@" 2>&1); rc=$?; printf '%s\n' "$out"; test $rc -eq $ORR_WANT_RC && printf '%s\n' "$out" | grep -q "$ORR_WANT_TEXT"]=])
foreach(prog orrery-demo orrery-render orrery-view example_physics bench_instances bench_floating_origin bench_physics)
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

# orrery-render (tools/orrery-render): renders at 160x120 compared with goldens
# that were looked at (tests/data/golden/README.md) by compare_png (showcase.cmake):
# whole-image MAD <= 0.5 and worst 8x8-grid tile MAD <= 3.0 (0-255 scale; on
# lavapipe the renders are repeatable, MAD 0; the margin is for another
# lavapipe/LLVM build). Validation on; any validation message fails. The Fox
# run also checks the progress bar reached 100 %, the turntable run that it
# wrote its four numbered frames.
if(TARGET orrery-render AND TARGET compare_png)
  set(ORR_RENDER_OUT ${CMAKE_BINARY_DIR}/test-out/orrery-render)
  set(ORR_A ${PROJECT_SOURCE_DIR}/assets)
  # A render: NAME, the golden, the file compared (a turntable's frame), then the arguments.
  function(orr_render_case name golden written)
    string(REGEX REPLACE "-[0-9]+\\.png$" ".png" out "${written}")
    add_test(NAME orrery_render_${name} COMMAND sh -c
      "dir=$1 out=$2 cmp=$3 compare=$4 golden=$5; shift 5; mkdir -p \"$dir\"; \
log=$(\"$0\" --size 160x120 -o \"$dir/$out\" \"$@\" 2>&1); rc=$?; printf '%s\\n' \"$log\"; test $rc -eq 0 || exit 1; \
case $out in fox.png) printf '%s' \"$log\" | grep -q 'Fox.glb .*100%' || { echo 'no progress bar to 100 %'; exit 1; } ;; esac; \
case $cmp in box-001.png) for f in 000 001 002 003; do test -f \"$dir/box-$f.png\" || { echo \"no box-$f.png\"; exit 1; }; done ;; esac; \
\"$compare\" \"$dir/$cmp\" \"$golden\" 0.5 3.0"
      $<TARGET_FILE:orrery-render> ${ORR_RENDER_OUT} ${out} ${written} $<TARGET_FILE:compare_png>
      ${CMAKE_CURRENT_SOURCE_DIR}/data/golden/${golden} ${ARGN})
    set_tests_properties(orrery_render_${name} PROPERTIES
      ENVIRONMENT "ORR_VALIDATION=1" FAIL_REGULAR_EXPRESSION "validation: " TIMEOUT 300)
  endfunction()
  orr_render_case(fox cli-fox.png fox.png ${ORR_A}/gltf/Fox/Fox.glb --progress)
  orr_render_case(bottle cli-bottle.png bottle.png ${ORR_A}/gltf/WaterBottle/WaterBottle.gltf --msaa 1 --exposure 1.2)
  orr_render_case(turntable cli-box-turntable-001.png box-001.png ${ORR_A}/gltf/BoxTextured/BoxTextured.glb
    --turntable 4 --camera -1.2,1.1 --env ${ORR_A}/dds/backgroundSkybox.dds --samples 8 --exposure 1.5)
  orr_render_case(hdr cli-hdr.png hdr.png ${ORR_A}/hdr/studio_small_03_1k.hdr --samples 16 --camera 0.5,1.4 --msaa 1)
  orr_render_case(cube cli-cube.png cube.png ${ORR_A}/cube/ryfjallet_px.png --samples 8 --camera 2.0,1.3)

  # Exit statuses and messages for scripts: 2 bad arguments, 3 bad input
  # file, 4 device failure, 5 output not writable. NAME, STATUS, TEXT (a grep
  # pattern), then the arguments.
  function(orr_render_fails name status text)
    add_test(NAME orrery_render_fails_${name} COMMAND sh -c "${ORR_CLI_CHECK}" $<TARGET_FILE:orrery-render> ${ARGN})
    set_tests_properties(orrery_render_fails_${name} PROPERTIES
      ENVIRONMENT "ORR_WANT_RC=${status};ORR_WANT_TEXT=${text}" TIMEOUT 60)
  endfunction()
  set(D ${CMAKE_CURRENT_SOURCE_DIR}/data/gltf)
  orr_render_fails(no_input 2 "no input file" --quiet)
  orr_render_fails(bad_size 2 "bad value: --size" --size 10 x.glb)
  orr_render_fails(bad_msaa 2 "bad value: --msaa" --msaa 2 x.glb)
  orr_render_fails(bad_camera 2 "bad value: --camera" --camera a,b x.glb)
  orr_render_fails(env_and_no_env 2 "bad value: .-env with --no-env" x.glb --env a.env --no-env)
  orr_render_fails(missing_file 3 "nofile.glb: cannot open" nofile.glb)
  orr_render_fails(truncated_glb 3 "truncated.glb: GLB header" ${D}/truncated.glb)
  orr_render_fails(gltf_cycle 3 "cycle.gltf: nodes.0.: the hierarchy has a cycle" ${D}/cycle.gltf)
  orr_render_fails(unknown_kind 3 "unknown kind of file" ${PROJECT_SOURCE_DIR}/CMakeLists.txt)
  orr_render_fails(env_not_environment 3 "Box.glb: not an environment" ${ORR_A}/gltf/Box/Box.glb --env ${ORR_A}/gltf/Box/Box.glb)
  orr_render_fails(unwritable_output 5 "/nonexistent-dir/x.png: ORR_ERROR_IO" ${ORR_A}/gltf/Box/Box.glb --no-env -o /nonexistent-dir/x.png)
  orr_render_fails(no_device 4 "no device: ORR_ERROR_NO_DEVICE" ${ORR_A}/gltf/Box/Box.glb --no-env)
  set_property(TEST orrery_render_fails_no_device APPEND PROPERTY ENVIRONMENT "ORR_DEVICE=no-such-device")
endif()
