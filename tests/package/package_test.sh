#!/bin/sh
# package_test.sh COMMAND WORK [ARGS...] — the package tests of tests/package.cmake.
# WORK is this build's package-test folder; every command uses its own
# subfolder of it, so the tests can run in parallel (ctest -j).
#
#   install BUILD LIBDIR     cmake --install BUILD into WORK/stage, then move the tree to
#                            WORK/prefix (relocation): no installed text file may still
#                            name WORK/stage
#   headers LIBDIR INCDIR DOCDIR DATADIR
#                            installed headers: orrery.h includes every header; every file
#                            cited is installed (check_header_refs.sh)
#   pkgconfig README LIBDIR VARIANT shared|static|complete CC
#                            the README's program built with pkg-config against the moved
#                            prefix, run; "complete": the whole archive (--whole-archive),
#                            so every object's dependencies must come from --static (link only)
#   cmake README LIBDIR SRC  find_package(orrery) consumer (tests/package/find_package):
#                            the README's program against the four targets, run
#   subdir README SRC        add_subdirectory consumer (tests/package/subdir), run
#
# A run of the README's program happens in its own folder and must write
# hello.png: a PNG whose IHDR has the size the program asks for (.width /
# .height in the README's block; the engine defaults 1280 × 720 without them).
set -eu
cmd=$1 work=$2
shift 2
prefix=$work/prefix
CMAKE=${CMAKE:-cmake}
PKG_CONFIG=${PKG_CONFIG:-pkg-config}

die() { echo "package_test $cmd: $*" >&2; exit 1; }

# The ```c block after "## Using the library" in README.md, as it is now.
extract_readme() { # README OUT.c
    awk '/^## Using the library/ { s = 1 }
         s == 1 && /^```c[[:space:]]*$/ { s = 2; next }
         s == 2 && /^```[[:space:]]*$/ { exit }
         s == 2' "$1" > "$2"
    grep -q 'int main' "$2" || die "no \`\`\`c block with main() after '## Using the library' in $1"
}

# u32 big-endian at byte OFFSET of FILE
be32() { od -An -tu1 -j "$2" -N4 "$1" | awk '{ print (($1 * 256 + $2) * 256 + $3) * 256 + $4 }'; }

check_png() { # DIR HELLO.c LABEL
    png=$1/hello.png
    [ -s "$png" ] || die "$3: no hello.png (or empty) in $1"
    sig=$(od -An -tx1 -N8 "$png" | tr -d ' \n')
    [ "$sig" = 89504e470d0a1a0a ] || die "$3: hello.png is not a PNG (signature $sig)"
    want_w=$(sed -n 's/.*\.width *= *\([0-9][0-9]*\).*/\1/p' "$2" | head -n 1)
    want_h=$(sed -n 's/.*\.height *= *\([0-9][0-9]*\).*/\1/p' "$2" | head -n 1)
    w=$(be32 "$png" 16) h=$(be32 "$png" 20)
    [ "$w" = "${want_w:-1280}" ] && [ "$h" = "${want_h:-720}" ] ||
        die "$3: hello.png is ${w}x$h, the program asks for ${want_w:-1280}x${want_h:-720}"
    echo "$3: hello.png ${w}x$h, $(wc -c < "$png") bytes"
}

run_hello() { # EXE DIR HELLO.c LABEL
    rm -f "$2/hello.png"
    (cd "$2" && "$1") || die "$4: the program failed"
    check_png "$2" "$3" "$4"
}

# NEEDED entries must (not) name the shared library of the variant.
check_needed() { # EXE VARIANT shared|static
    if readelf -d "$1" | grep -q "NEEDED.*\[lib$2\.so"; then
        [ "$3" = shared ] || die "$1 is linked to lib$2.so, expected the archive"
    else
        [ "$3" = static ] || die "$1 is not linked to lib$2.so"
    fi
}

case $cmd in
install)
    build=$1 libdir=$2
    rm -rf "$work/stage" "$prefix"
    mkdir -p "$work"
    "$CMAKE" --install "$build" --prefix "$work/stage" > "$work/install.log" || { cat "$work/install.log"; die "cmake --install failed"; }
    mv "$work/stage" "$prefix"
    for f in "$prefix/$libdir/pkgconfig/orrery.pc" "$prefix/$libdir/pkgconfig/orrery-rh.pc" \
             "$prefix/$libdir/cmake/orrery/orreryConfig.cmake" "$prefix/$libdir/cmake/orrery/orreryConfigVersion.cmake"; do
        [ -f "$f" ] || die "not installed: $f"
    done
    stale=$(grep -rIl -- "$work/stage" "$prefix" || true)
    [ -z "$stale" ] || die "installed files name the install-time prefix $work/stage (not relocatable): $stale"
    echo "installed $(find "$prefix" -type f | wc -l) files, moved to $prefix"
    ;;
headers)
    libdir=$1 incdir=$2 docdir=$3 datadir=$4
    inc=$prefix/$incdir
    for h in "$inc"/orrery/*.h; do
        n=$(basename "$h")
        [ "$n" = orrery.h ] && continue
        grep -q "^#include \"orrery/$n\"" "$inc/orrery/orrery.h" || die "orrery/orrery.h does not include orrery/$n"
    done
    echo "orrery/orrery.h includes every public header"
    sh "$(dirname "$0")/check_header_refs.sh" "$inc" "$prefix/$docdir" "$prefix/$datadir/orrery/glsl"
    ;;
pkgconfig)
    readme=$1 libdir=$2 variant=$3 link=$4 cc=$5
    dir=$work/pkgconfig-$variant-$link
    rm -rf "$dir" && mkdir -p "$dir"
    extract_readme "$readme" "$dir/hello.c"
    export PKG_CONFIG_PATH="$prefix/$libdir/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
    cflags=$("$PKG_CONFIG" --cflags "$variant") || die "pkg-config --cflags $variant"
    case $variant in orrery-rh) echo " $cflags " | grep -q -- ' -DORR_RIGHT_HANDED=1 ' || die "orrery-rh.pc has no -DORR_RIGHT_HANDED=1" ;; esac
    case $link in
    shared)
        libs="$("$PKG_CONFIG" --libs "$variant") -Wl,-rpath,$("$PKG_CONFIG" --variable=libdir "$variant")" ;;
    static) # the README's command: the archive by name, the rest from --static
        libs=$("$PKG_CONFIG" --static --libs "$variant" | sed "s/-l$variant /-l:lib$variant.a /") ;;
    complete)
        libs=$("$PKG_CONFIG" --static --libs "$variant" |
               sed "s/-l$variant /-Wl,--whole-archive -l:lib$variant.a -Wl,--no-whole-archive /") ;;
    esac
    set -x
    # shellcheck disable=SC2086
    "$cc" -std=c11 -Wall -Wextra -pedantic -Werror -o "$dir/hello" "$dir/hello.c" $cflags $libs
    { set +x; } 2> /dev/null
    check_needed "$dir/hello" "$variant" "$([ "$link" = shared ] && echo shared || echo static)"
    if [ "$link" = complete ]; then
        echo "pkgconfig $variant: every object of lib$variant.a links from pkg-config --static"
    else
        run_hello "$dir/hello" "$dir" "$dir/hello.c" "pkgconfig $variant $link"
    fi
    ;;
cmake)
    readme=$1 libdir=$2 src=$3
    dir=$work/find-package
    rm -rf "$dir" && mkdir -p "$dir"
    extract_readme "$readme" "$dir/hello.c"
    "$CMAKE" -S "$src/tests/package/find_package" -B "$dir/build" -DCMAKE_PREFIX_PATH="$prefix" \
        -DHELLO_C="$dir/hello.c" -DCMAKE_BUILD_TYPE=RelWithDebInfo > "$dir/configure.log" ||
        { cat "$dir/configure.log"; die "configure failed"; }
    "$CMAKE" --build "$dir/build" || die "build failed"
    for t in orrery orrery_static orrery-rh orrery-rh_static; do
        variant=${t%_static}
        check_needed "$dir/build/hello-$t" "$variant" "$([ "$t" = "$variant" ] && echo shared || echo static)"
        mkdir -p "$dir/run-$t"
        run_hello "$dir/build/hello-$t" "$dir/run-$t" "$dir/hello.c" "find_package orrery::$t"
    done
    ;;
subdir)
    readme=$1 src=$2
    dir=$work/subdir
    rm -rf "$dir" && mkdir -p "$dir"
    extract_readme "$readme" "$dir/hello.c"
    "$CMAKE" -S "$src/tests/package/subdir" -B "$dir/build" -DORR_SOURCE_DIR="$src" \
        -DHELLO_C="$dir/hello.c" -DCMAKE_BUILD_TYPE=RelWithDebInfo > "$dir/configure.log" ||
        { cat "$dir/configure.log"; die "configure failed"; }
    "$CMAKE" --build "$dir/build" --target hello -j 2 > "$dir/build.log" || { tail -n 50 "$dir/build.log"; die "build failed"; }
    "$CMAKE" --install "$dir/build" --prefix "$dir/inst" > /dev/null || die "cmake --install of the consumer failed"
    [ -z "$(find "$dir/inst" -name 'liborrery*' 2> /dev/null)" ] || die "a subproject installs Orrery without ORR_INSTALL"
    mkdir -p "$dir/run"
    run_hello "$dir/build/hello" "$dir/run" "$dir/hello.c" "add_subdirectory orrery::orrery"
    ;;
*) die "unknown command" ;;
esac
