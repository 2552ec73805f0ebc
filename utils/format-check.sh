#!/usr/bin/env bash
# `make format-check`: every C++ file of the tree (test inputs aside) is as
# clang-format-22 writes it (.clang-format). Lists the files that are not,
# with the command that fixes them; the last line is `N passed, N failed`.
# `make format` rewrites them in place.
set -uo pipefail
cd "$(dirname "$0")/.."
clang_format=${CLANG_FORMAT:-clang-format-22}
mapfile -t files < <(git ls-files '*.cpp' '*.h' ':!:test/**/Inputs/**')
bad=0
for f in "${files[@]}"; do
  if ! "$clang_format" --dry-run -Werror "$f" 2>/dev/null; then
    echo "needs formatting: $f"
    bad=$((bad + 1))
  fi
done
[ "$bad" -eq 0 ] || echo "fix: make format (runs $clang_format -i on them)"
echo "$((${#files[@]} - bad)) passed, $bad failed"
[ "$bad" -eq 0 ]
