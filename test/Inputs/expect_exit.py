"""`%expect-exit N CMD ARGS...`: runs CMD, passes its output through, and
succeeds only when CMD exits with code N. A crash (a signal) always fails."""
import subprocess
import sys

want = int(sys.argv[1])
rc = subprocess.call(sys.argv[2:])
if rc < 0:
    sys.stderr.write("expect-exit: %s crashed with signal %d\n" % (sys.argv[2], -rc))
    sys.exit(1)
if rc != want:
    sys.stderr.write("expect-exit: %s exited with %d, expected %d\n" % (sys.argv[2], rc, want))
    sys.exit(1)
