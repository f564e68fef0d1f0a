"""Checks the Python frame walker of the collector (lib/Collector/PyFrames.cpp)
through test/collector/Inputs/pyframes_probe.cpp, built as a shared library:

    python3 pyframes_check.py PROBE.so

Each case calls the probe (which stands for a CUDA call seen by the
collector's callback) from a known line and checks the user frame it reports
(file, line of the call, function), with and without the GIL (ctypes.CDLL
releases it around the foreign call, ctypes.PyDLL keeps it), from another
thread, inside a generator and a method; and that frames of a library in a
site-packages, dist-packages, torch/ or standard-library path are skipped: the
user frame is then the line that called into the library. Prints one line per
case and "N of M cases failed".
"""
import ctypes
import os
import sys
import tempfile
import threading

PROBE = sys.argv[1]
CDLL = ctypes.CDLL(PROBE)    # Releases the GIL during the call.
PYDLL = ctypes.PyDLL(PROBE)  # Keeps it.
THIS = os.path.abspath(__file__)
results = []
LIBRARY = """import ctypes

def inner(lib):
    buf = ctypes.create_string_buffer(1 << 16)
    lib.ca_pyframes_probe(buf, len(buf))
    return buf.value.decode()

def outer(lib):
    return inner(lib)
"""


def line_of(marker):
    """The line of this file that holds the comment `# <marker>`."""
    for n, text in enumerate(open(THIS), 1):
        if text.rstrip().endswith("# " + marker):
            return n
    raise AssertionError(marker)


def probe(lib):
    buf = ctypes.create_string_buffer(1 << 16)
    lib.ca_pyframes_probe(buf, len(buf))  # probe-call
    return buf.value.decode()


def user_frame(text):
    lines = text.splitlines()
    user = int(lines[2].split()[1])
    if user < 0:
        return None
    loc, function = lines[3 + user].split(" ", 1)
    path, line = loc.rsplit(":", 1)
    return path, int(line), function


def check(name, text, want):
    got = user_frame(text)
    ok = got == want
    results.append(ok)
    shown = f"{os.path.basename(got[0])}:{got[1]} {got[2]}" if got else "none"
    print(f"{'ok' if ok else 'FAIL'}: {name}: {shown}" +
          ("" if ok else f" (want {want[0]}:{want[1]} {want[2]})\n{text}"))


def in_thread(lib, out):
    out.append(probe(lib))


def in_generator(lib):
    yield probe(lib)


class Model:
    def forward(self, lib):
        buf = ctypes.create_string_buffer(1 << 16)
        lib.ca_pyframes_probe(buf, len(buf))  # method-call
        return buf.value.decode()


def main():
    head = ctypes.create_string_buffer(1 << 16)
    CDLL.ca_pyframes_probe(head, len(head))
    version = head.value.decode().splitlines()[0]
    print(version)
    if version.startswith("disabled"):
        print("1 of 1 cases failed")
        return 1
    at_probe = (THIS, line_of("probe-call"), "probe")
    check("CDLL, GIL released", probe(CDLL), at_probe)
    check("PyDLL, GIL held", probe(PYDLL), at_probe)
    out = []
    t = threading.Thread(target=in_thread, args=(CDLL, out))
    t.start()
    t.join()
    check("another thread", out[0], at_probe)
    check("generator", next(in_generator(PYDLL)), at_probe)
    method = "forward" if sys.version_info < (3, 11) else "Model.forward"  # co_qualname
    check("method", Model().forward(CDLL), (THIS, line_of("method-call"), method))

    # Straight from here: this function's line, not its def's.
    buf = ctypes.create_string_buffer(1 << 16)
    CDLL.ca_pyframes_probe(buf, len(buf))  # main-call
    check("the call's line", buf.value.decode(), (THIS, line_of("main-call"), "main"))

    # A library between the user's line and the call: its frames are skipped.
    tmp = tempfile.mkdtemp()
    std = os.path.join("lib", f"python{sys.version_info[0]}.{sys.version_info[1]}")
    for part in ("site-packages", "dist-packages", os.path.join("site-packages", "torch"), std):
        root = os.path.join(tmp, part)
        os.makedirs(os.path.join(root, "fakelib"), exist_ok=True)
        with open(os.path.join(root, "fakelib", "ops.py"), "w") as f:
            f.write(LIBRARY)
        open(os.path.join(root, "fakelib", "__init__.py"), "w").close()
        sys.path.insert(0, root)
        for name in ("fakelib", "fakelib.ops"):
            sys.modules.pop(name, None)
        import fakelib.ops
        sys.path.pop(0)
        for lib, gil in ((CDLL, "GIL released"), (PYDLL, "GIL held")):
            text = fakelib.ops.outer(lib)  # library-call
            check(f"{part} skipped, {gil}", text, (THIS, line_of("library-call"), "main"))
            if os.path.join(part, "fakelib", "ops.py") + ":5 inner [library]" not in text:
                results.append(False)
                print(f"FAIL: {part}: the library's frame is not in the stack:\n{text}")
    failed = results.count(False)
    print(f"{failed} of {len(results)} cases failed")
    return 1 if failed else 0


def other_interpreters():
    """CPython 3.9-3.13 interpreters installed beside this one (pyenv's, the
    distribution's python3.X), to run the same checks under each layout."""
    import glob
    import subprocess
    seen, found = set(), []
    for pattern in ("/root/.pyenv/versions/3.*/bin/python3", os.path.expanduser("~/.pyenv/versions/3.*/bin/python3"),
                    "/usr/bin/python3.*", "/usr/local/bin/python3.*"):
        for exe in sorted(glob.glob(pattern)):
            if not os.access(exe, os.X_OK) or exe.endswith("-config"):
                continue
            try:
                v = subprocess.run([exe, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                                   capture_output=True, text=True, timeout=20).stdout.strip()
            except (OSError, subprocess.SubprocessError):
                continue
            if v in ("3.9", "3.10", "3.11", "3.12", "3.13") and (v, exe) not in seen:
                seen.add((v, exe))
                found.append((v, exe))
    return found


if __name__ == "__main__":
    rc = main()
    if len(sys.argv) > 2 and sys.argv[2] == "--all":
        import subprocess
        for v, exe in other_interpreters():
            r = subprocess.run([exe, THIS, PROBE], capture_output=True, text=True)
            last = (r.stdout.strip().splitlines() or ["no output"])[-1]
            print(f"python {v} ({exe}): {last}")
            if r.returncode != 0:
                print(r.stdout + r.stderr)
                rc = 1
    sys.exit(rc)
