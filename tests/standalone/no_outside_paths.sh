#!/bin/sh
# The repository stands alone: no build, test, demo, benchmark, example or
# fuzz file names a path outside the checkout (the workplace's shared folder one level up, an
# absolute /work path, the old ORR_SHARED variable). Data they need lives in
# assets/ and tests/data/. Reference JSON under tests/data records where a
# reference came from and is not read for paths, so it is not scanned.
#     no_outside_paths.sh ROOT          (exit 0: clean, 1: offenders listed)
#     no_outside_paths.sh --control     (must find the planted offender)
set -eu
# The forbidden names are assembled so that this file does not itself name them.
up='\.\./'; sh='shar''ed'; wk='/wo''rk/'
pattern="${up}${sh}|${wk}${sh}|${wk}main|ORR_SHARED"
scan() {
    find "$1" \( -name .git -o -name 'build*' -o -name node_modules -o -name out \) -prune -o -type f \
        \( -name '*.c' -o -name '*.h' -o -name '*.cpp' -o -name '*.cmake' -o -name 'CMakeLists.txt' \
           -o -name 'Makefile' -o -name '*.sh' -o -name '*.py' -o -name '*.in' -o -name '*.glsl' -o -name '*.vert' \
           -o -name '*.frag' -o -name '*.comp' \) -print |
        grep -v '/tests/standalone/no_outside_paths.sh$' | xargs grep -lE "$pattern" || true
}
if [ "${1:-}" = "--control" ]; then
    dir=$(mktemp -d)
    trap 'rm -rf "$dir"' EXIT
    mkdir "$dir/tests" && printf '#define DATA "../%s/assets"\n' "shar""ed" > "$dir/tests/t.c"
    found=$(scan "$dir")
    [ -n "$found" ] && { echo "control: planted offender found ($found)"; exit 0; }
    echo "control: the scan missed a planted path to the shared folder"; exit 1
fi
root=${1:?root}
found=""
for d in CMakeLists.txt Makefile cmake src include shaders tests demo bench fuzz scripts examples; do
    [ -e "$root/$d" ] || continue
    found="$found$(scan "$root/$d")"
done
if [ -n "$found" ]; then
    echo "files that reach outside the repository:"; echo "$found"
    for f in $found; do grep -nE "$pattern" "$f" | sed "s|^|  $f:|"; done
    exit 1
fi
echo "no build, test, demo, benchmark or fuzz file names a path outside the checkout"
