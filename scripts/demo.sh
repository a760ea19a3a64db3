#!/usr/bin/env bash
# Installs missing system packages, builds, and runs opmig's main job on the
# bundled sample (samples/upstream). Subcommands that are not in this release
# are listed as such, not run.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/common.sh
source scripts/common.sh

SAMPLE=samples/upstream
ENTRY=merge_attn_states
# The sample includes torch headers. The scripts do not install torch, so the
# demo parses against the small hand-written stand-ins the tests use.
TORCH_STUBS=(-- -isystem tests/fixtures/stubs/include)
OPMIG="$BUILD_DIR/tools/opmig/opmig"
DEMO_OUT="$BUILD_DIR/demo"

# Prints a command, then runs it; stops the demo if it fails.
step() {
  printf '\n==> %s\n$' "$1"
  shift
  printf ' %q' "$@"
  printf '\n'
  "$@"
}

# For subcommands that are planned but not implemented in this release.
# When one lands, replace its `planned` line below with a `step` line.
planned() {
  printf '\n==> opmig %s: not in this release yet (planned, see docs/).\n' "$1"
}

bash scripts/build.sh

[[ -x "$OPMIG" ]] || die "$OPMIG was not built (is OPMIG_ENABLE_CLANG off in preset '$PRESET'?)"
[[ -d "$SAMPLE" ]] || die "sample folder $SAMPLE is missing"
mkdir -p "$DEMO_OUT"

step "analyze: closure of '$ENTRY' in $SAMPLE (text)" \
  "$OPMIG" analyze --source "$SAMPLE" --entry "$ENTRY" --format text "${TORCH_STUBS[@]}"

step "analyze: the same as JSON, verified, written to $DEMO_OUT/analysis.json" \
  "$OPMIG" analyze --source "$SAMPLE" --entry "$ENTRY" --format json \
  -o "$DEMO_OUT/analysis.json" --verify "${TORCH_STUBS[@]}"

planned migrate
planned validate
planned audit

printf '\nDemo finished. JSON analysis: %s\n' "$DEMO_OUT/analysis.json"
