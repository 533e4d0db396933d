#!/bin/sh
# Installs the Debian 12 packages Orrery needs, when any is missing.
# Runs as root (CI, fresh machines) or through sudo.
set -eu
# binutils (nm, readelf) and pkg-config: also the package tests (tests/package.cmake).
PKGS="build-essential binutils cmake pkg-config libvulkan-dev mesa-vulkan-drivers vulkan-validationlayers \
glslc libshaderc-dev glslang-dev spirv-tools libstb-dev libcjson-dev libmeshoptimizer-dev libglfw3-dev libode-dev libqhull-dev xdotool xvfb xauth clang-format python3"
missing=""
for p in $PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "install-deps: installing$missing"
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends $missing
