"""Cuts a native recording to a stretch of its GPU activity, for a test input
small enough to commit: the header, every record without a time (device,
module, stack, pystack, callsite, name...), the timed records that start in
the stretch, and the end record (its "records" count set to the lines kept
before it; its other counts stay the whole run's).

    python3 cut_recording.py IN.jsonl OUT.jsonl SECONDS [--from FRACTION] [--referenced]

SECONDS of GPU work from the first kernel, or, with --from F, from the point
at F (0 to 1) of the way between the first kernel's start and the last's.
--referenced keeps only the callsite, stack and pystack records that a kept
"api" record's correlation reaches (a long recording has hundreds of
thousands of them).
"""
import json
import sys

TIMED = {"kernel", "memcpy", "memset", "sync", "api", "overhead", "range"}


def main():
    args = sys.argv[1:]
    referenced = "--referenced" in args
    if referenced:
        args.remove("--referenced")
    fraction = 0.0
    if "--from" in args:
        i = args.index("--from")
        fraction = float(args[i + 1])
        del args[i:i + 2]
    src, dst, seconds = args[0], args[1], float(args[2])
    lines = open(src).read().splitlines()
    starts = [json.loads(l)["start"] for l in lines if '"type":"kernel"' in l]
    first = min(starts) + int(fraction * (max(starts) - min(starts)))
    cut = first + int(seconds * 1e9)
    records = [json.loads(l) for l in lines]
    in_stretch = lambda r: r.get("start", 0) < cut and (fraction == 0 or r.get("start", 0) >= first)
    correlations = {r["correlation"] for r in records if r.get("type") == "api" and in_stretch(r)}
    sites = [r for r in records if r.get("type") == "callsite" and r["correlation"] in correlations]
    stacks = {r.get("stack") for r in sites}
    pystacks = {r.get("pystack") for r in sites}
    kept = []
    for i, (line, r) in enumerate(zip(lines, records)):
        t = r.get("type")
        if i > 0 and t in TIMED and not in_stretch(r):
            continue
        if referenced and (
                (t == "callsite" and r["correlation"] not in correlations) or
                (t == "stack" and r.get("id") not in stacks) or
                (t == "pystack" and r.get("id") not in pystacks)):
            continue
        if t == "end":
            r["records"] = len(kept)
            line = json.dumps(r, separators=(",", ":"))
        kept.append(line)
    with open(dst, "w") as out:
        out.write("\n".join(kept) + "\n")


if __name__ == "__main__":
    main()
