"""Cuts a native recording to its first N seconds of GPU activity, for a test
input small enough to commit: the header, every record without a time (device,
module, stack, pystack, callsite, name...), the timed records that start before
the cut, and the end record (its "records" count set to the lines kept before
it; its other counts stay the whole run's).

    python3 cut_recording.py IN.jsonl OUT.jsonl SECONDS
"""
import json
import sys

TIMED = {"kernel", "memcpy", "memset", "sync", "api", "overhead", "range"}


def main():
    src, dst, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
    lines = open(src).read().splitlines()
    first = min(json.loads(l)["start"] for l in lines if '"type":"kernel"' in l)
    cut = first + int(seconds * 1e9)
    kept = []
    for i, line in enumerate(lines):
        r = json.loads(line)
        t = r.get("type")
        if i > 0 and t in TIMED and r.get("start", 0) >= cut:
            continue
        if t == "end":
            r["records"] = len(kept)
            line = json.dumps(r, separators=(",", ":"))
        kept.append(line)
    with open(dst, "w") as out:
        out.write("\n".join(kept) + "\n")


if __name__ == "__main__":
    main()
