#!/bin/sh
# check_header_refs.sh INCLUDEDIR DOCDIR GLSLDIR
# The installed public headers cite only files that are installed with them:
#   - no path into the source tree (src/, seeds/, tests/, tools/, shaders/,
#     bench/, demo/, fuzz/, scripts/, cmake/) and no DESIGN.md / STYLE.md
#     (the workplace's design notes, not part of the repository);
#   - every docs/<name> exists in DOCDIR/docs, README.md in DOCDIR,
#     orrery/<name>.h in INCLUDEDIR/orrery, ds.glsl in GLSLDIR.
# Exit 0 when all hold, 1 with file:line of each bad reference otherwise.
set -eu
inc=$1 doc=$2 glsl=$3
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
status=0
bad() { echo "check_header_refs: $1"; status=1; }

ls "$inc"/orrery/*.h > /dev/null || exit 1
for h in "$inc"/orrery/*.h; do
    name=orrery/$(basename "$h")
    grep -noE '(^|[^A-Za-z0-9_.])(src|seeds|tests|tools|shaders|bench|demo|fuzz|scripts|cmake)/[A-Za-z0-9_.*/-]*[A-Za-z0-9_*]|(DESIGN|STYLE)\.md|\.\./shared' "$h" |
        sed -E 's/^([0-9]+):[^A-Za-z.]/\1:/' > "$tmp" || true
    while IFS=: read -r line ref; do bad "$name:$line: cites $ref, which is not installed"; done < "$tmp"
    for ref in $(grep -oE 'docs/[A-Za-z0-9_.-]+[A-Za-z0-9_-]|README\.md|orrery/[a-z_]+\.h|ds\.glsl' "$h" | sort -u); do
        case $ref in
            docs/*) f=$doc/$ref ;;
            README.md) f=$doc/README.md ;;
            orrery/*) f=$inc/$ref ;;
            ds.glsl) f=$glsl/ds.glsl ;;
        esac
        [ -f "$f" ] || bad "$name cites $ref, which is not installed ($f)"
    done
done
[ $status -eq 0 ] && echo "check_header_refs: every file the headers in $inc cite is installed"
exit $status
