#!/bin/sh
# Runs the GoogleTest suite, then every end-to-end script in tests/e2e/, and prints one closing
# line "N passed, N failed, N skipped". Exit status 0 only if nothing failed.
# Environment: BUILD (build folder, default build), GTEST_FILTER (optional).
BUILD=${BUILD:-build}
log=$(mktemp)
trap 'rm -f "$log"' EXIT

"$BUILD/tests/rapt_tests" --gtest_color=no ${GTEST_FILTER:+--gtest_filter="$GTEST_FILTER"} 2>&1 | tee "$log"
unit_passed=$(grep -c '^\[       OK \] .* ms)$' "$log")
unit_failed=$(grep -c '^\[  FAILED  \] .* ms)$' "$log")
unit_skipped=$(grep -c '^\[  SKIPPED \] .* ms)$' "$log")
if ! grep -q '^\[==========\] .* ran\.' "$log"; then
  echo "rapt_tests did not finish (crashed?)"
  unit_failed=$((unit_failed + 1))
fi

e2e_passed=0; e2e_failed=0; e2e_skipped=0
for script in tests/e2e/*.sh; do
  [ -f "$script" ] || continue
  name=$(basename "$script" .sh)
  out=$(BIN="$BUILD/bin" sh "$script" 2>&1); status=$?
  if [ $status -eq 0 ]; then e2e_passed=$((e2e_passed + 1)); echo "[ e2e OK  ] $name"
  elif [ $status -eq 77 ]; then e2e_skipped=$((e2e_skipped + 1)); echo "[ e2e SKIP] $name: $(echo "$out" | tail -n 1)"
  else e2e_failed=$((e2e_failed + 1)); echo "[ e2e FAIL] $name"; echo "$out" | tail -n 20 | sed 's/^/    /'
  fi
done

passed=$((unit_passed + e2e_passed)); failed=$((unit_failed + e2e_failed)); skipped=$((unit_skipped + e2e_skipped))
echo
echo "unit: $unit_passed passed, $unit_failed failed, $unit_skipped skipped; end-to-end: $e2e_passed passed, $e2e_failed failed, $e2e_skipped skipped"
echo "$passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
