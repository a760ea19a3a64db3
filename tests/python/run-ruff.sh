#!/bin/sh
# ruff-check for ctest: run-ruff.sh SOURCE_DIR. Lints the files ruff.toml
# includes with the ruff that scripts/ruff-version pins: python3's (where
# scripts/install-deps.sh installs it), else the one on PATH. Exits 77
# (ctest: skipped) after saying why when neither is that version: another
# ruff finds other things, and would fail or pass for reasons of its own.
cd "$1" || exit 1
pin=$(cat scripts/ruff-version)
found=""
if version=$(python3 -m ruff --version 2>/dev/null); then
  [ "$version" = "ruff $pin" ] && exec python3 -m ruff check --no-cache
  found="python3 -m ruff: $version"
fi
if version=$(ruff --version 2>/dev/null); then
  # No cache: it would be written into the source tree.
  [ "$version" = "ruff $pin" ] && exec ruff check --no-cache
  found="$found${found:+; }ruff on PATH: $version"
fi
echo "skipped: no ruff $pin (scripts/ruff-version) found${found:+ ($found)}; pip install ruff==$pin, as bash scripts/install-deps.sh does"
exit 77
