"""A scripted LSP client for lit tests.

  lsp-client.py [--set NAME=VALUE | --set-file NAME=PATH]... SCRIPT -- SERVER ARGS...

starts SERVER, then plays SCRIPT: blocks separated by lines '---'. A block is
  a JSON message        sent framed with its correct Content-Length
  #raw TEXT             TEXT (Python escapes: \\r\\n) sent as it is
  #wait METHOD [COUNT]  wait until COUNT (default 1) more messages with METHOD arrived
                        after those the previous #wait waited for (not counted
                        when this block is read: a fast answer to the message
                        just sent may already be there)
  #reply ID             wait for the response to request ID
  #close                close the server's stdin
${NAME} in a block is replaced by VALUE; with --set-file NAME=PATH by the
contents of PATH as a JSON string. Every message the server sends is
printed on one line, keys sorted, in the order it arrived; then the exit code
('exit: N'). A crash (signal) or a wait longer than 60 s fails.
"""
import json
import subprocess
import sys
import threading
import time

args = sys.argv[1:]
subst = {}
while args and args[0] in ("--set", "--set-file"):
    name, _, value = args[1].partition("=")
    if args[0] == "--set-file":
        value = json.dumps(open(value).read())
    subst[name] = value
    args = args[2:]
script_path, server = args[0], args[args.index("--") + 1:]

proc = subprocess.Popen(server, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
received = []
cond = threading.Condition()


def reader():
    out = proc.stdout
    while True:
        length = None
        while True:
            line = out.readline()
            if not line:
                with cond:
                    received.append(None)
                    cond.notify_all()
                return
            line = line.strip()
            if not line:
                break
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        body = out.read(length)
        msg = json.loads(body)
        with cond:
            received.append(msg)
            cond.notify_all()
        print(json.dumps(msg, sort_keys=True), flush=True)


thread = threading.Thread(target=reader, daemon=True)
thread.start()


def wait_for(pred, what):
    deadline = time.time() + 60
    with cond:
        while not pred():
            left = deadline - time.time()
            if left <= 0 or (received and received[-1] is None):
                sys.stderr.write("lsp-client: gave up waiting for %s\n" % what)
                proc.kill()
                sys.exit(1)
            cond.wait(left)


# received[:mark] is what the previous #wait waited for.
mark = 0


def position(pred, start):
    """The index past the first message from received[start:] that satisfies pred, or None."""
    for i in range(start, len(received)):
        if received[i] is not None and pred(received[i]):
            return i + 1
    return None


def nth(method, n):
    """The index past the n-th message with method after mark, or None."""
    i = mark
    for _ in range(n):
        i = position(lambda m: m.get("method") == method, i)
        if i is None:
            return None
    return i


text = open(script_path).read()
for name, value in subst.items():
    text = text.replace("${%s}" % name, value)
for block in text.split("\n---\n"):
    lines = [l for l in block.strip().splitlines() if not l.startswith("//")]
    block = "\n".join(lines).strip()
    if not block:
        continue
    if block.startswith("#raw "):
        proc.stdin.write(block[5:].encode().decode("unicode_escape").encode("latin-1"))
        proc.stdin.flush()
    elif block.startswith("#wait "):
        parts = block.split()
        method, n = parts[1], int(parts[2]) if len(parts) > 2 else 1
        wait_for(lambda: nth(method, n) is not None, method)
        with cond:
            mark = nth(method, n)
    elif block.startswith("#reply "):
        want = json.loads(block.split(None, 1)[1])
        is_reply = lambda m: "method" not in m and m.get("id") == want  # noqa: E731
        wait_for(lambda: position(is_reply, 0) is not None, "the reply to %r" % want)
    elif block == "#close":
        proc.stdin.close()
    else:
        body = json.dumps(json.loads(block)).encode()
        proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        proc.stdin.flush()

if not proc.stdin.closed:
    proc.stdin.close()
try:
    rc = proc.wait(timeout=60)
except subprocess.TimeoutExpired:
    proc.kill()
    sys.stderr.write("lsp-client: the server did not exit\n")
    sys.exit(1)
thread.join(10)
if rc < 0:
    sys.stderr.write("lsp-client: the server crashed with signal %d\n" % -rc)
    sys.exit(1)
print("exit: %d" % rc, flush=True)
