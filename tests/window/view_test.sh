#!/bin/sh
# orrery-view test (tests/window.cmake), run inside xvfb-run: the viewer opens
# a glTF model, synthetic xdotool events drive it, and what it prints and
# writes must follow:
#   left drag right 200 px   -> alpha decreases (left-handed build), beta kept
#   wheel up 2 notches       -> radius decreases
#   R                        -> the framed pose again
#   F12                      -> a screenshot PNG of the render size
#   Space                    -> animation paused
#   Escape                   -> the program ends with status 0
# Usage: view_test.sh VIEWER MODEL OUTDIR   (DISPLAY set by xvfb-run)
view="$1" model="$2" out="$3"
mkdir -p "$out"
log="$out/view.log" shot="$out/view-shot.png"
rm -f "$shot"
"$view" --size 320x240 --msaa 1 --samples 16 --quiet --screenshot "$shot" "$model" >"$log" 2>&1 &
pid=$!
wid=$(xdotool search --sync --onlyvisible --name "orrery-view" | head -n 1)
[ -n "$wid" ] || { echo "FAILED: no window"; cat "$log"; kill "$pid"; exit 1; }
count() { grep -c "$1" "$log"; }
wait_more() { # $1 pattern, $2 count before
  t=0; while [ "$(count "$1")" -le "$2" ] && [ $t -lt 3000 ]; do sleep 0.1; t=$((t + 1)); done
  [ "$(count "$1")" -gt "$2" ] || echo "FAILED: waited for '$1'"
}
pose() { # field $1 of the last printed pose
  grep "orrery-view: pose" "$log" | tail -n 1 | sed -n "s/.* $1 \([-0-9.]*\).*/\1/p"
}
ask() { n=$(count "orrery-view: pose"); xdotool key P; wait_more "orrery-view: pose" "$n"; }
wait_more "orrery-view: pose (start)" 0
xdotool mousemove --window "$wid" 160 120
ask; a0=$(pose alpha); b0=$(pose beta); r0=$(pose radius)
n=$(count "pose (rest)")
# Held across frames (a press and release inside one poll is no drag).
xdotool mousedown 1
sleep 2
for i in 1 2 3 4 5 6 7 8 9 10; do xdotool mousemove_relative -- 20 0; sleep 0.2; done
sleep 2
xdotool mouseup 1
wait_more "pose (rest)" "$n"; a1=$(pose alpha); b1=$(pose beta)
# The drag left the pointer outside the 320x240 window: back in, or the
# wheel goes to the root window.
xdotool mousemove --window "$wid" 160 120
n=$(count "pose (rest)")
xdotool click 4 click 4
wait_more "pose (rest)" "$n"; r2=$(pose radius)
xdotool key R; ask; a3=$(pose alpha); r3=$(pose radius)
n=$(count "screenshot")
xdotool key F12; wait_more "screenshot" "$n"
n=$(count "animation paused")
xdotool key space; wait_more "animation paused" "$n"
xdotool key Escape
wait "$pid"; status=$?
cat "$log"
echo "view test: alpha $a0 -> drag $a1 -> R $a3; beta $b0 -> $b1; radius $r0 -> wheel $r2 -> R $r3"
fail=0
check() { awk "BEGIN { exit !($1) }" || { echo "FAILED: $2"; fail=1; }; }
check "$a1 < $a0 - 0.3" "left drag to the right decreases alpha"
check "$b1 - $b0 < 0.05 && $b0 - $b1 < 0.05" "a horizontal drag keeps beta"
check "$r2 < $r0" "wheel up zooms in"
check "$a3 - $a0 < 1e-6 && $a0 - $a3 < 1e-6 && $r3 - $r0 < 1e-6 && $r0 - $r3 < 1e-6" "R frames the content again"
[ -s "$shot" ] || { echo "FAILED: no screenshot"; fail=1; }
# PNG header: width and height are big-endian at bytes 16..23.
size=$(od -An -tu1 -j16 -N8 "$shot" | awk '{ print $3 * 256 + $4 "x" $7 * 256 + $8 }')
[ "$size" = "320x240" ] || { echo "FAILED: screenshot is $size, not 320x240"; fail=1; }
[ "$status" -eq 0 ] || { echo "FAILED: exit status $status"; fail=1; }
exit $fail
