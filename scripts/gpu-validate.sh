#!/usr/bin/env bash
# Runs every layer of `opmig validate` on the GPU machine (docs/gpu-runs.md) with
# the opmig that scripts/gpu-bundle.sh packed into .gpu-bundle: this
# repository's kernels/ (domain sample_ops, generic profile), then each
# migrated target named on the command line. Writes each report as
# JSON into OUT_DIR with a summary (each layer, and every check that did not
# pass); exits 1 when a validation failed. A target's SOURCE (and, for
# kernels/, OPMIG_GPU_DIFF=1, whose upstream is samples/upstream) adds the
# diff and perf layers against the upstream build (`--source`).
#
#   bash scripts/gpu-validate.sh OUT_DIR [TARGET:DOMAIN[:SPEC[:SOURCE]]]...
set -uo pipefail
cd "$(dirname "$0")/.."
out="${1:?usage: gpu-validate.sh OUT_DIR [TARGET:DOMAIN[:SPEC[:SOURCE]]]...}"
shift
opmig=.gpu-bundle/opmig
[[ -x "$opmig" ]] || { echo "no $opmig: run scripts/gpu-bundle.sh on a machine with LLVM and carry .gpu-bundle" >&2; exit 2; }
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda)'

# kernels/ as a target of its own: the repository also holds golden copies of
# the same domain (tests/golden), which a search from its root would find.
work="$(mktemp -d)"
cp -r kernels samples "$work/"
status=0
validate() { # NAME TARGET DOMAIN [SPEC] [SOURCE]
  local name="$1" target="$2" domain="$3" spec=()
  [[ -n "${4:-}" ]] && spec=(--spec "$4")
  [[ -n "${5:-}" ]] && spec+=(--source "$5")
  echo "== $name: opmig validate --target $target --domain $domain ${spec[*]}"
  "$opmig" validate --target "$target" --domain "$domain" "${spec[@]}" --require-gpu \
    --format json -o "$out/$name.json" 2>"$out/$name.progress" || status=1
  python3 - "$out/$name.json" <<'SUMMARY' | tee "$out/$name.txt"
import json, sys
report = json.load(open(sys.argv[1]))
for layer in report["layers"]:
    print(f"{layer['name']:<9} {layer['status']:<5} {layer['reason']}")
    for check in layer["checks"]:
        if check["status"] != "pass":
            print(f"  {check['name']}  {check['status']}  {check['reason'][:300]}")
for note in report.get("notes", []):
    print("note:", note)
print("passed" if report["passed"] else "FAILED")
SUMMARY
}
if [[ "${OPMIG_GPU_DIFF:-}" == 1 ]]; then
  validate sample_ops "$work" sample_ops "" "$work/samples/upstream"
else
  validate sample_ops "$work" sample_ops
fi
for item in "$@"; do
  IFS=: read -r target domain spec source <<<"$item"
  validate "$domain" "$target" "$domain" "$spec" "$source"
done
exit "$status"
