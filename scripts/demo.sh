#!/usr/bin/env bash
# Installs missing system packages, builds, and runs opmig's main job on the
# bundled sample: analyze samples/upstream, migrate its merge_attn_states op
# into a copy of a small cache-dit-like target repository, then audit the
# target against the cache-dit rules, review the migration and validate it
# (build and import, with the pinned torch when install-deps.sh installed it).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/common.sh
source scripts/common.sh

SAMPLE=samples/upstream
ENTRY=merge_attn_states
# The sample includes torch headers; the demo parses against the small
# hand-written stand-ins the tests use, which keeps it fast. The real torch
# demands C++20, which the stand-ins do not say: the migration records the
# standard it parsed with, so validate's build compiles with it.
TORCH_STUBS=(-- -isystem tests/fixtures/stubs/include -std=c++20)
OPMIG="$BUILD_DIR/tools/opmig/opmig"
DEMO_OUT="$BUILD_DIR/demo"
# A hand-written repository following the cache-dit conventions; the demo
# migrates into a fresh copy of it.
SAMPLE_TARGET=tests/fixtures/targets/cache_dit_like

# Prints a command, then runs it; stops the demo if it fails.
step() {
  printf '\n==> %s\n$' "$1"
  shift
  printf ' %q' "$@"
  printf '\n'
  "$@"
}

# Like step, for a command whose exit code 1 (problems found) is the expected
# outcome here: says why, and goes on; any other failure stops the demo.
step_expecting_findings() {
  local why="$1"
  shift
  local code=0
  step "$@" || code=$?
  case "$code" in
    0) ;;
    1) printf '(exit 1, as expected: %s)\n' "$why" ;;
    *) die "the step above failed with exit code $code" ;;
  esac
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

rm -rf "$DEMO_OUT/target"
cp -r "$SAMPLE_TARGET" "$DEMO_OUT/target"

step "migrate: dry run into $DEMO_OUT/target (cache-dit profile, domain attn): the diff" \
  "$OPMIG" migrate --source "$SAMPLE" --entry "$ENTRY" --target "$DEMO_OUT/target" \
  --domain attn --profile cache-dit --dry-run "${TORCH_STUBS[@]}"

step "migrate: the same, written" \
  "$OPMIG" migrate --source "$SAMPLE" --entry "$ENTRY" --target "$DEMO_OUT/target" \
  --domain attn --profile cache-dit "${TORCH_STUBS[@]}"

step "migrate: again; nothing changed, so nothing is written" \
  "$OPMIG" migrate --source "$SAMPLE" --entry "$ENTRY" --target "$DEMO_OUT/target" \
  --domain attn --profile cache-dit "${TORCH_STUBS[@]}"

step "analyze the migrated native tree and verify that it compiles and links alone" \
  "$OPMIG" analyze --source "$DEMO_OUT/target/csrc/kernels/attn" \
  --entry cache_dit::attn::merge_attn_states --verify \
  "${TORCH_STUBS[@]}" -I "$DEMO_OUT/target/csrc/kernels"

step "audit: the migrated target against the cache-dit rules" \
  "$OPMIG" audit "$DEMO_OUT/target" --profile cache-dit

step "audit: the same as SARIF 2.1.0 for code scanning, written to $DEMO_OUT/audit.sarif" \
  "$OPMIG" audit "$DEMO_OUT/target" --profile cache-dit --format sarif -o "$DEMO_OUT/audit.sarif"

step_expecting_findings \
  "smoke and reference comparison are untested until the spec is filled in and validate proves them" \
  "review: the migration as a reviewer sees it (closure recomputed from the sample)" \
  "$OPMIG" review --target "$DEMO_OUT/target" --domain attn --source "$SAMPLE" "${TORCH_STUBS[@]}"

# validate builds and imports with the pinned torch (with its CUDA wheels)
# when install-deps.sh installed it; without it, its layers are skipped and
# say why. The spec it reads is the one migrate wrote with its TODOs filled
# (cases, reference, tolerances): samples/validation/attn-spec.json. Without
# a GPU, smoke, parity and boundary are skipped and say so.
if [[ -f "$TORCH_DIR/torch/version.py" ]]; then
  export PYTHONPATH="$TORCH_DIR${PYTHONPATH:+:$PYTHONPATH}"
fi
step "validate: build the migrated attn domain (nvcc, 9.0a) and prove it in layers" \
  "$OPMIG" validate --target "$DEMO_OUT/target" --domain attn \
  --spec samples/validation/attn-spec.json

step "validate: the same as JSON, written to $DEMO_OUT/validate.json (the build is reused)" \
  "$OPMIG" validate --target "$DEMO_OUT/target" --domain attn --format json \
  --spec samples/validation/attn-spec.json -o "$DEMO_OUT/validate.json"

printf '\nDemo finished. JSON analysis: %s; migrated target: %s; SARIF: %s; validation: %s\n' \
  "$DEMO_OUT/analysis.json" "$DEMO_OUT/target" "$DEMO_OUT/audit.sarif" "$DEMO_OUT/validate.json"
