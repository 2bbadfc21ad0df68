#!/bin/sh
# A CMake compiler launcher (tests/CMakeLists.txt, LOGSCAN_TESTS_CHECK_ONLY): runs the compile
# command it is given with -fsyntax-only (the front end only: every template instantiated, every
# constant expression and static_assert evaluated, every front-end warning an error; no code
# generated), then creates the object file the build expects, empty (nothing links it).
out=
prev=
for a in "$@"; do
  [ "$prev" = "-o" ] && out=$a
  prev=$a
done
"$@" -fsyntax-only || exit
[ -n "$out" ] && : > "$out"
