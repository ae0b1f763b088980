#!/bin/sh
# Every program has a man page; every man page renders without groff warnings; every long
# option a program's --help lists appears in its man page; README names every program.
# Exit 0 = pass, 1 = fail, 77 = skip.
BIN=${BIN:-build/bin}
command -v groff >/dev/null 2>&1 || { echo "groff not installed"; exit 77; }
status=0
for page in man/*.1 man/*.7; do
  [ -f "$page" ] || continue
  warnings=$(groff -man -ww -z "$page" 2>&1)
  if [ -n "$warnings" ]; then echo "$page: groff warnings:"; echo "$warnings"; status=1; fi
done
for program in "$BIN"/*; do
  [ -x "$program" ] || continue
  name=$(basename "$program")
  page="man/$name.1"
  if [ ! -f "$page" ]; then echo "$name: no man page $page"; status=1; continue; fi
  grep -q "$name" README.md || { echo "README.md does not mention $name"; status=1; }
  grep -q "$name" man/rapt.7 || { echo "man/rapt.7 does not mention $name"; status=1; }
  # Long options from --help ("  -x, --name arg   text" or "      --name"), compared with the
  # page, where roff writes each dash as \-.
  for option in $("$program" --help | sed -n 's/^ *\(-[A-Za-z0-9], \)\{0,1\}--\([A-Za-z0-9][A-Za-z0-9-]*\).*/\2/p'); do
    roff_option=$(printf '%s' "$option" | sed 's/-/\\\\-/g')
    if ! grep -q -- "\\\\-\\\\-$roff_option" "$page"; then
      echo "$page: option --$option from '$name --help' is not documented"; status=1
    fi
  done
done
exit $status
