#!/bin/sh
# Window input test (tests/window.cmake), run inside xvfb-run: synthetic
# xdotool events drive orrery-demo's window and its printed camera pose must
# move the expected way (orrery/controls.h, Babylon.js ArcRotateCamera):
#   left drag right 200 px   -> alpha decreases (left-handed demo), beta kept
#   wheel up 3 notches       -> radius decreases
#   Left arrow held          -> alpha decreases
#   window resized 500x300   -> the render size follows, no validation message
#   Escape                   -> the program ends with status 0
# Usage: input_test.sh DEMO   (DISPLAY set by xvfb-run)
demo="$1"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
"$demo" --simple --window --width 480 --height 270 --msaa 1 >"$log" 2>&1 &
pid=$!
wid=$(xdotool search --sync --onlyvisible --name "Orrery showcase" | head -n 1)
[ -n "$wid" ] || { echo "no window"; cat "$log"; kill "$pid"; exit 1; }
# The demo prints "pose (rest)" on the frame where the orbit controller's
# inertia runs out; each step waits for the next one, however slowly the
# device renders (lavapipe on a loaded machine: about 1 frame per second).
nrest() { grep -c "orrery-demo: pose (rest)" "$log"; }
wait_rest() { # $1: the count before the action
  t=0; while [ "$(nrest)" -le "$1" ] && [ $t -lt 3000 ]; do sleep 0.1; t=$((t + 1)); done
  [ "$(nrest)" -gt "$1" ] || echo "FAILED: the camera did not come to rest"
}
pose() { # field $1 (alpha beta radius) of the last printed pose
  grep "orrery-demo: pose" "$log" | tail -n 1 | sed -n "s/.* $1 \([-0-9.]*\).*/\1/p"
}
ask() { # the pose now (P)
  n=$(grep -c "orrery-demo: pose" "$log"); xdotool key P
  t=0; while [ "$(grep -c "orrery-demo: pose" "$log")" -le "$n" ] && [ $t -lt 3000 ]; do sleep 0.1; t=$((t + 1)); done
}
sleep 2
xdotool mousemove --window "$wid" 240 135
# Take the camera over first (a tap of Up: the auto-orbit stops), so the
# drag is measured from a still pose.
n=$(nrest)
xdotool key Up
wait_rest "$n"
ask; a0=$(pose alpha); b0=$(pose beta)
n=$(nrest)
# A drag must span frames: on a loaded machine lavapipe draws about one frame
# a second, and a press and release inside one poll is no drag. Hold the
# button across frames before, during and after the motion.
xdotool mousedown 1
sleep 3
for i in 1 2 3 4 5 6 7 8 9 10; do xdotool mousemove_relative -- 20 0; sleep 0.3; done
sleep 3
xdotool mouseup 1
wait_rest "$n"; a1=$(pose alpha); b1=$(pose beta); r1=$(pose radius)
n=$(nrest)
xdotool click 4 click 4 click 4
wait_rest "$n"; r2=$(pose radius); a2=$(pose alpha)
n=$(nrest)
xdotool keydown Left; sleep 2; xdotool keyup Left
wait_rest "$n"; a3=$(pose alpha)
xdotool windowsize "$wid" 500 300
sleep 3
xdotool key Escape
wait "$pid"; status=$?
cat "$log"
echo "input test: alpha $a0 -> drag $a1 -> keys $a3; beta $b0 -> $b1; radius $r1 -> wheel $r2"
fail=0
check() { awk "BEGIN { exit !($1) }" || { echo "FAILED: $2"; fail=1; }; }
check "$a1 < $a0 - 0.3" "left drag to the right decreases alpha"
check "$b1 - $b0 < 0.05 && $b0 - $b1 < 0.05" "a horizontal drag keeps beta"
check "$r2 < $r1 - 5" "wheel up zooms in"
check "$a2 - $a1 < 1e-6 && $a1 - $a2 < 1e-6" "the wheel does not rotate"
check "$a3 < $a2 - 0.01" "Left arrow decreases alpha"
grep -q "orrery-demo: input: the orbit controls have the camera" "$log" || { echo "FAILED: no take-over"; fail=1; }
grep -q "resized to 500x300 (render size 500x300)" "$log" || { echo "FAILED: render size did not follow"; fail=1; }
[ "$status" -eq 0 ] || { echo "FAILED: exit status $status"; fail=1; }
exit $fail
