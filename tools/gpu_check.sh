#!/usr/bin/env bash
# The checks that need a machine with an NVIDIA GPU and many cores, in one
# run that fits in a few minutes: the versions, the DLPack checks on the
# CUDA device (python -m minarray.testing.dlpack --cuda, with PyTorch, JAX
# and CuPy where installed), the thread sweep of the large kernels against
# NumPy and PyTorch, and the whole test suite on every core.
#
# Usage, from the checkout, with a Python that has the test dependencies
# (the C core is built in place first):
#   bash tools/gpu_check.sh [OUTDIR]        # OUTDIR: where the logs go (gpu-check)
# Each step's log is OUTDIR/<step>.log; the script exits non-zero if any
# step failed, after running them all.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:-gpu-check}
mkdir -p "$out"
py=${PYTHON:-python3}
status=0

step() {  # step NAME TIMEOUT_S COMMAND...: run, log, remember a failure
    local name=$1 limit=$2
    shift 2
    echo "== $name: $*"
    timeout "$limit" "$@" > "$out/$name.log" 2>&1
    local rc=$?
    tail -n 15 "$out/$name.log"
    echo "== $name: exit $rc"
    [ "$rc" -eq 0 ] || status=1
}

step versions 60 "$py" -c "
import os, platform, sys
import numpy
print('python', sys.version.split()[0], '| numpy', numpy.__version__, '| cores', os.cpu_count())
print('cpu', next((l.split(':', 1)[1].strip() for l in open('/proc/cpuinfo') if l.startswith('model name')), platform.processor()))
for name in ('torch', 'jax', 'cupy'):
    try:
        m = __import__(name)
        print(name, m.__version__)
    except Exception as exc:
        print(name, 'absent:', type(exc).__name__)
"
step build 300 "$py" csrc/build_ffi.py
step cuda 120 "$py" -m minarray.testing.dlpack --cuda
# The thread sweep (python -m benchmarks --threads): the large cases at
# 1 to 16 threads in one process, minarray and PyTorch on as many threads,
# NumPy on one (its BLAS on as many); under 5 minutes on 16 cores.  Its
# results go into the documentation afterwards, on any machine:
#   python -m benchmarks --load OUTDIR/scaling.json --update-doc docs/performance.md
step scaling 330 "$py" -m benchmarks --threads 1,2,4,8,16 --json "$out/scaling.json" \
    --plot "$out/scaling-threads.png"
step tests 480 "$py" -m pytest -q -n 16 -p no:cacheprovider
exit $status
