#!/usr/bin/env python3
"""Checks a cuda-advisor profile (JSON Lines, docs/profile-format.md) and the
facts in it. The GPU machine has no LLVM, so test/gpu/run.sh checks profiles
with this script rather than with the C++ reader.

    check_profile.py FILE                  print a summary (JSON)
    check_profile.py FILE EXPR...          exit 1 unless every EXPR holds

An EXPR is a Python expression over the summary's keys, e.g.
    'kernels == 100' 'memcpys_timed == 200' 'end["dropped"] == 0'
"""
import collections
import json
import sys

PREFIX = b'{"format":"cuda-advisor-profile"'


def summarize(path):
    data = open(path, "rb").read()
    s = {"path": path, "valid": False, "error": ""}
    if not data.startswith(PREFIX):
        s["error"] = "does not start with " + PREFIX.decode()
        return s
    if not data.endswith(b"\n"):
        s["error"] = "truncated: the last line is incomplete"
        return s
    lines = data[:-1].split(b"\n")
    try:
        records = [json.loads(line) for line in lines]
    except json.JSONDecodeError as e:
        s["error"] = f"invalid JSON: {e}"
        return s
    header, body = records[0], records[1:]
    if not body or body[-1].get("type") != "end":
        s["error"] = "truncated: no end record"
        return s
    end = body[-1]
    body = body[:-1]
    by_type = collections.defaultdict(list)
    for r in body:
        by_type[r.get("type", "?")].append(r)

    def timed(rs):
        return sum(1 for r in rs if r.get("end", 0) > r.get("start", 0) > 0)

    kernels, memcpys = by_type["kernel"], by_type["memcpy"]
    apis = by_type["api"]
    callsite_corr = {c["correlation"] for c in by_type["callsite"]}
    # Copy calls' pointers (dst, src) from their callsite records.
    pointers = {c["correlation"]: (c["dst"], c["src"]) for c in by_type["callsite"]
                if "dst" in c and "src" in c}
    copy_calls = [a for a in apis if a["name"].startswith("cudaMemcpy")]
    stacks = {st["id"]: st for st in by_type["stack"]}
    modules = by_type["module"]
    s.update({
        "valid": True,
        "header": header,
        "end": end,
        "records_match": end.get("records") == len(lines) - 1,
        "types": {t: len(rs) for t, rs in sorted(by_type.items())},
        "kernels": len(kernels),
        "kernels_timed": timed(kernels),
        "memcpys": len(memcpys),
        "memcpys_timed": timed(memcpys),
        "memsets": len(by_type["memset"]),
        "syncs": len(by_type["sync"]),
        "apis": len(apis),
        "api_names": dict(collections.Counter(a["name"] for a in apis)),
        "copy_kinds": dict(collections.Counter(m["kind"] for m in memcpys)),
        "copy_src": dict(collections.Counter(f'{m["kind"]}:{m["src"]}->{m["dst"]}' for m in memcpys)),
        "kernel_names": dict(collections.Counter(k["name"] for k in kernels)),
        "kernel_streams": len({(k["device"], k["stream"]) for k in kernels}),
        "devices": by_type["device"],
        "stacks": len(stacks),
        "callsites": len(by_type["callsite"]),
        "errors": by_type["error"],
        "first_error": end.get("first_error"),
        "modules": len(modules),
        "main_module": next((m for m in modules if m.get("main")), None),
        # Runtime calls that make GPU work and got a call stack.
        "launches_with_stack": sum(1 for a in apis if a["name"].startswith("cudaLaunch")
                                   and a["correlation"] in callsite_corr),
        "launches": sum(1 for a in apis if a["name"].startswith("cudaLaunch")),
        "memcpy_calls_with_stack": sum(1 for a in apis if a["name"].startswith("cudaMemcpy")
                                       and a["correlation"] in callsite_corr),
        "memcpy_calls": sum(1 for a in apis if a["name"].startswith("cudaMemcpy")),
        "memcpy_calls_with_pointers": sum(1 for a in copy_calls if a["correlation"] in pointers),
        # Distinct (dst, src) pairs over the copy calls that have them.
        "copy_pointer_pairs": len({pointers[a["correlation"]] for a in copy_calls
                                   if a["correlation"] in pointers}),
        "max_stack_depth": max((len(st["frames"]) for st in stacks.values()), default=0),
        "bytes": len(data),
    })
    return s


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    s = summarize(argv[1])
    if len(argv) == 2:
        print(json.dumps(s, indent=1, default=str))
        return 0 if s["valid"] else 1
    if not s["valid"]:
        print(f"  {argv[1]}: invalid profile: {s['error']}")
        return 1
    ok = True
    for expr in argv[2:]:
        try:
            held = bool(eval(expr, {}, dict(s)))
        except Exception as e:  # A missing key is a failed expectation.
            held = False
            expr += f" (error: {e!r})"
        if not held:
            ok = False
            print(f"  expected: {expr}")
    if not ok:
        brief = {k: s[k] for k in ("kernels", "kernels_timed", "memcpys", "memcpys_timed",
                                   "copy_kinds", "callsites", "first_error", "records_match")}
        brief["end"] = s["end"]
        print("  got: " + json.dumps(brief, default=str))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
