#!/usr/bin/env bash
# Recordings of programs that use several GPUs (issue 6), on whatever GPUs the
# machine has (1 is enough to exercise every path except real peer copies and
# NCCL between two GPUs):
#   - examples/multi-gpu/peer-copy: one host thread per device, a ring of
#     cudaMemcpyPeerAsync (with one GPU, a device-to-device copy);
#   - examples/pytorch/ddp_seed_loop.py under torch.distributed: NCCL with one
#     rank per GPU, and gloo with two ranks (on one GPU if need be): each rank
#     is its own process and must write its own profile (pid in the name).
# Prints a summary of every profile (devices, kernels by device, peer copies,
# NCCL kernels) and copies the profiles to OUT_DIR.
#
#   test/gpu/multi-gpu.sh BUILD_DIR OUT_DIR
set -u -o pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=$(cd "$1" && pwd)
OUT=$2
export PATH=/opt/torch/.venv/bin:/usr/local/cuda/bin:$PATH
# NVLink multicast stays off (the device tool's rule; NCCL, PyTorch, NVSHMEM).
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
CA=$BUILD/bin/cuda-advisor
PY=${PYTHON:-python3}
mkdir -p "$OUT/logs"
cd "$OUT" || exit 1
GPUS=$(nvidia-smi -L | wc -l)
echo "GPUs: $GPUS"; nvidia-smi -L

echo "== peer-copy"
timeout -k 5 120 "$CA" record -f -o peer-copy.jsonl -- "$BUILD/examples/peer-copy" 20 \
  >logs/peer-copy.log 2>&1; echo "rc=$?"; cat logs/peer-copy.log

echo "== ddp_seed_loop, NCCL, one rank per GPU"
timeout -k 5 240 "$CA" record -f -o ddp-nccl.jsonl -- "$PY" "$ROOT/examples/pytorch/ddp_seed_loop.py" \
  --backend nccl --nprocs "$GPUS" --iterations 20 >logs/ddp-nccl.log 2>&1; echo "rc=$?"
cat logs/ddp-nccl.log

echo "== ddp_seed_loop, gloo, two ranks"
timeout -k 5 240 "$CA" record -f -o ddp-gloo.jsonl -- "$PY" "$ROOT/examples/pytorch/ddp_seed_loop.py" \
  --backend gloo --nprocs 2 --iterations 20 --port 29522 >logs/ddp-gloo.log 2>&1; echo "rc=$?"
cat logs/ddp-gloo.log

echo "== profiles"
for f in *.jsonl; do
  "$PY" - "$f" <<'PYEOF'
import collections, json, sys
path = sys.argv[1]
kinds = collections.Counter(); kdev = collections.Counter(); nccl = 0; peer = 0; devices = []
header = end = None
for line in open(path):
    r = json.loads(line)
    if "format" in r: header = r; continue
    t = r.get("type"); kinds[t] += 1
    if t == "device": devices.append((r.get("id"), r.get("name")))
    if t == "kernel":
        kdev[r.get("device")] += 1
        if "nccl" in r.get("name", "").lower(): nccl += 1
    if t == "memcpy" and (r.get("peer") or r.get("kind") == "PtoP"): peer += 1
    if t == "end": end = r
print(f"{path}: pid={header.get('pid') if header else '?'} devices={devices} "
      f"kernels_by_device={dict(kdev)} nccl_kernels={nccl} peer_copies={peer} "
      f"records={dict(kinds)} end={'yes' if end else 'NO'}")
PYEOF
done
