#!/bin/sh
# check_exports.sh LIB CC INCLUDE_DIR [CPPFLAGS...]
# The dynamic symbol table of the shared library LIB is exactly the public API
# (docs/decisions.md, "The installed package"):
#   - every defined dynamic symbol is an orr_* name (nothing of glslang,
#     SPIRV-Tools, shaderc, the C++ runtime or the library's orri_* internals);
#   - every function and extern object declared in INCLUDE_DIR/orrery/*.h
#     (preprocessed by CC with CPPFLAGS, e.g. -DORR_RIGHT_HANDED=1) is exported,
#     so the check cannot pass by hiding everything.
# No toolchain symbol is allowed: with `local: *` in the version script,
# _init, _fini, __bss_start, _edata and _end are not exported either.
# Exit 0 when both hold, 1 with the offending names otherwise.
set -eu
lib=$1 cc=$2 inc=$3
shift 3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

nm -D --defined-only "$lib" | awk 'NF >= 3 { sub(/@.*/, "", $3); print $3 }' | sort -u > "$tmp/exported"
[ -s "$tmp/exported" ] || { echo "check_exports: $lib exports nothing"; exit 1; }

for h in "$inc"/orrery/*.h; do
    echo "#include <orrery/$(basename "$h")>"
done | "$cc" -E -P -I"$inc" "$@" -x c - > "$tmp/headers.i"
{
    grep -oE '\borr_[A-Za-z0-9_]+ *\(' "$tmp/headers.i" | sed 's/ *($//'
    grep -oE '^extern [^;(]*\borr_[A-Za-z0-9_]+ *;' "$tmp/headers.i" | grep -oE 'orr_[A-Za-z0-9_]+ *;$' | sed 's/ *;$//'
} | sort -u > "$tmp/declared"

status=0
grep -v '^orr_' "$tmp/exported" > "$tmp/foreign" || true
if [ -s "$tmp/foreign" ]; then
    echo "check_exports: $lib exports $(wc -l < "$tmp/foreign") symbols outside the orr_* API, e.g.:"
    head -n 20 "$tmp/foreign" | sed 's/^/    /'
    status=1
fi
comm -23 "$tmp/declared" "$tmp/exported" > "$tmp/missing"
if [ -s "$tmp/missing" ]; then
    echo "check_exports: $lib does not export $(wc -l < "$tmp/missing") declared API symbols:"
    head -n 20 "$tmp/missing" | sed 's/^/    /'
    status=1
fi
[ $status -eq 0 ] && echo "check_exports: $lib exports $(wc -l < "$tmp/exported") symbols, all orr_*, every declared one ($(wc -l < "$tmp/declared"))"
exit $status
