"""concurrent.py N CMD ARGS...: runs N copies of CMD at once (all started
before any is waited for) and exits with the highest exit code; a crash (a
signal) is exit 99. Each copy's stderr goes to stderr, stdout is discarded."""
import subprocess
import sys

n = int(sys.argv[1])
procs = [subprocess.Popen(sys.argv[2:], stdout=subprocess.DEVNULL) for _ in range(n)]
codes = [p.wait() for p in procs]
sys.exit(max(99 if c < 0 else c for c in codes))
