#!/usr/bin/env bash
# Produces this repository's own kernels/ tree with `opmig migrate` from the
# bundled sample upstream (samples/upstream), generic profile, domain
# sample_ops. With --check, writes nothing and fails when kernels/ differs
# from what the migration produces (the test suite runs it that way).
#
# Usage: scripts/kernels.sh [--check]   (OPMIG=path/to/opmig to pick a binary)
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/common.sh
source scripts/common.sh

OPMIG="${OPMIG:-$BUILD_DIR/tools/opmig/opmig}"
[[ -x "$OPMIG" ]] || die "$OPMIG is not built; run scripts/build.sh first"

# Provenance that does not depend on the clone: the sample is part of this
# repository, so it is named by the git tree id of its committed content.
TREE="$(git rev-parse HEAD:samples/upstream)"
ARGS=(migrate --source samples/upstream --entry merge_attn_states --entry rms_norm
  --target . --domain sample_ops --profile generic
  --upstream-repo opmig/samples/upstream --upstream-commit "tree:$TREE")
# The sample includes torch headers; the stand-ins keep this independent of
# an installed torch, as in the demo and the tests.
STUBS=(-- -isystem tests/fixtures/stubs/include)

if [[ "${1:-}" == --check ]]; then
  OUT="$("$OPMIG" "${ARGS[@]}" --dry-run --format json "${STUBS[@]}")"
  OUTCOME="$(python3 -c 'import json,sys; print(json.load(sys.stdin)["outcome"])' <<<"$OUT")"
  if [[ "$OUTCOME" != up-to-date ]]; then
    "$OPMIG" "${ARGS[@]}" --dry-run "${STUBS[@]}" || true
    die "kernels/ is not what 'opmig migrate' produces from samples/upstream (outcome: $OUTCOME); run scripts/kernels.sh"
  fi
  log "kernels/ is up to date with samples/upstream"
else
  "$OPMIG" "${ARGS[@]}" "${STUBS[@]}"
fi
