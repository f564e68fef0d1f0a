#!/usr/bin/env bash
# Checks the cost model against reality: for each example of examples/, the
# saving cuda-advisor estimates from the recording of the bad variant
# (test/Inputs/profiles/<example>.bad.jsonl) against the saving measured
# without a profiler on the same GPU (median bad - median fixed time of the
# example's timed section, test/Inputs/profiles/timings.json).
#
#   bench/cost-model-validation.sh [BUILD_DIR] [--update-doc]
#
# Prints a Markdown table; --update-doc also writes it into docs/cost-model.md
# between the "validation:begin" and "validation:end" markers. Needs no GPU.
#
# A recording covers the whole run, the timing only the example's timed
# section (after its warm-up), so each estimate is scaled by the share of the
# matched records that fall in the timed section (TIMED below, from the
# examples' sources). The estimate of an example is the sum over the findings
# of its check (the fix of the example is the fix of those findings).
#
# The PyTorch pairs of examples/pytorch (issue 11) get a second table: the
# measured saving from test/Inputs/profiles/pytorch-timings.json, the estimate
# from the native recording of the bad variant (<pair>.bad.jsonl, recorded with
# Python call sites). Their findings are not chosen by rule id: a finding
# counts when its call sites (join.callSites, or its location) include a line
# of the bad variant's loop function or of the example's functions it calls
# (the lines the fix changes); the others
# are listed apart. The recordings ran shorter loops than the timings
# (PAIRS below), so the estimate is scaled by timed iterations / recorded
# iterations (warm-up included). item_per_step's fix saves nothing: there the
# table gives the estimate as a share of the bad run (the goal: under 1%).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build
update=0
for a in "$@"; do
  case $a in
  --update-doc) update=1 ;;
  *) build=$(cd "$a" && pwd) ;;
  esac
done
tool=$build/bin/cuda-advisor
profiles=$root/test/Inputs/profiles
[ -x "$tool" ] || { echo "cost-model-validation: no $tool (build first)" >&2; exit 2; }
[ -f "$profiles/timings.json" ] || { echo "cost-model-validation: no $profiles/timings.json" >&2; exit 2; }

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for p in "$profiles"/*.bad.jsonl; do
  name=$(basename "$p" .bad.jsonl)
  src=$root/examples/$name.cu
  args=(--profile "$p" --binary-path "$profiles/bin" --format json -o "$out/$name.json")
  if [ -f "$src" ]; then
    # Flags as the examples' CMake project builds them (compile_commands.json
    # would need nvcc); the bundled CUDA declarations stand in for a toolkit.
    flags=(-- -x cuda -std=c++17)
    "$tool" "$src" "${args[@]}" "${flags[@]}" 2>"$out/$name.err" || true
    # With the Nsight Compute measurements too, where there are some.
    if [ -f "$profiles/$name.bad.ncu.csv" ]; then
      "$tool" "$src" --profile "$p" --profile "$profiles/$name.bad.ncu.csv" \
        --binary-path "$profiles/bin" --format json -o "$out/$name.ncu.json" "${flags[@]}" \
        2>>"$out/$name.err" || true
    fi
  else
    "$tool" "${args[@]}" 2>"$out/$name.err" || true
  fi
done

# The PyTorch pairs' newest recordings (test/Inputs/profiles/pytorch-<date>/,
# made by test/gpu/record-pytorch.sh with the timings beside them), else the
# ones in test/Inputs/profiles itself.
pt_dir=$profiles
for d in "$profiles"/pytorch-*/; do
  [ -f "$d/pytorch-timings.json" ] && pt_dir=${d%/}
done
mkdir -p "$out/pt"
for p in "$pt_dir"/*.bad.jsonl "$pt_dir"/*.bad.jsonl.gz; do
  [ -f "$p" ] || continue
  name=$(basename "$(basename "$p" .gz)" .bad.jsonl)
  [ -f "$root/examples/pytorch/$name.py" ] || continue
  "$tool" --profile "$p" --format json -o "$out/pt/$name.json" 2>"$out/pt/$name.err" || true
done

python3 - "$out" "$profiles" "$root/docs/cost-model.md" "$update" "$pt_dir" <<'EOF'
import json, os, statistics, sys

out, profiles, doc_path, update = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] == "1"
pt_dir = sys.argv[5]
timings = json.load(open(os.path.join(profiles, "timings.json")))["examples"]


def share_of_timed_repetitions(name, sync_api="cudaDeviceSynchronize"):
    """The mean duration of the timed repetitions over the whole recorded
    stretch, the repetitions being delimited by the ends of the sync that
    closes each one (the first repetition is the warm-up)."""
    calls = []
    for line in open(os.path.join(profiles, name + ".bad.jsonl")):
        r = json.loads(line)
        if r.get("type") == "api":
            calls.append(r)
    calls.sort(key=lambda a: a["start"])
    copies = [a for a in calls if a["name"].startswith("cudaMemcpy")]
    ends = [a["end"] for a in calls if a["name"] == sync_api and a["start"] > copies[0]["start"]]
    reps, begin = [], copies[0]["start"]
    for e in ends:
        reps.append(e - begin)
        begin = e
    return statistics.mean(reps[1:]) / sum(reps)

# example -> (checks whose savings count, share of the recorded records in
# the timed section, what that share is)
TIMED = {
    "transfer-in-loop": (["transfer-in-loop"], 1.0, "100 timed iterations, no warm-up in the loop"),
    # The warm-up repetition took four times as long as the others (first
    # touch of the malloc'ed pages): the share is by time, not by count.
    "transfer-pageable-async": (["transfer-pageable-async"],
                                share_of_timed_repetitions("transfer-pageable-async"),
                                "6 repetitions recorded, the first a warm-up; the timing is the "
                                "best of the other 5"),
    "access-uncoalesced": (["access-uncoalesced"], 50 / 51, "50 timed launches after 1 warm-up"),
    "access-shared-bank-conflict": (["access-shared-bank-conflict"], 50 / 51,
                                    "50 timed launches after 1 warm-up"),
    "kernel-fusion": (["kernel-fusion"], 20 / 21, "20 timed passes after 1 warm-up"),
    "launch-block-size": (["launch-block-size"], 20 / 21, "20 timed rounds after 1 warm-up"),
    "launch-grid-truncation": (["launch-grid-truncation"], 20 / 21,
                               "20 timed launches after 1 warm-up"),
    "sync-in-loop": (["sync-in-loop"], 1.0, "1000 timed steps; the warm-up sync is elsewhere"),
    "sync-redundant": (["sync-redundant"], 1.0, "300 timed steps"),
    "kernel-double-promotion": (["kernel-double-promotion"], 10 / 11,
                                "10 timed launches after 1 warm-up"),
    # The seed's PyTorch loop is in the PyTorch table, with its newer
    # recording and timing (timings.json's pytorch-seed-loop is of
    # 2026-12-02: its bad loop took 2.7 ms an iteration then, 0.74 ms on
    # 2026-12-04, the device-to-host copies' page faults differing).
}
TIMING_NAME = {}  # example -> its name in timings.json, where they differ

def estimate_of(path, checks):
    """(estimated saving in ms, findings matched, findings not seen)."""
    if not os.path.exists(path):
        return None
    report = json.load(open(path))
    est_ns, findings, unmatched = 0, 0, 0
    for f in report.get("findings", []):
        if f.get("check") not in checks:
            continue
        cost = f.get("cost") or {}
        if not cost.get("matched"):
            unmatched += 1
            continue
        findings += 1
        est_ns += cost.get("estimatedSavingNs", 0)
    return est_ns / 1e6, findings, unmatched


rows, errors = [], []
for name in sorted(TIMED):
    checks, share, why = TIMED[name]
    t = timings.get(TIMING_NAME.get(name, name))
    got = estimate_of(os.path.join(out, name + ".json"), checks)
    if not got or not t or "saving_ms" not in t:
        continue
    est_ms, findings, unmatched = got
    estimate = est_ms * share
    with_ncu = estimate_of(os.path.join(out, name + ".ncu.json"), checks)
    if with_ncu:
        estimate = with_ncu[0] * share
    measured = t["saving_ms"]
    bad = t["bad"]["median"]
    # Error relative to the bad variant's time when the measured saving is
    # within the noise of the timings (a few percent of the run): a relative
    # error of a near-zero saving means nothing.
    spread = max(t["bad"]["processes"]) - min(t["bad"]["processes"])
    noise = max(spread, 0.02 * bad)
    if abs(measured) > noise:
        err = (estimate - measured) / measured * 100
        err_s = f"{err:+.0f}%"
        errors.append(abs(err))
    else:
        err_s = f"n/a (measured saving within noise, {abs(estimate - measured) / bad * 100:.1f}% of the run)"
    rows.append((TIMING_NAME.get(name, name), ", ".join(checks), findings, unmatched, bad,
                 t["fixed"]["median"], measured, est_ms * share, err_s, why,
                 "" if not with_ncu else f"{with_ncu[0] * share:.3f}"))

lines = ["| example | findings (check) | bad ms | fixed ms | measured saving ms | estimated saving ms (recording) | with ncu CSV | error | timed share of the recording |",
         "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
for r in rows:
    found = f"{r[2]} ({r[1]})" + (f", {r[3]} not seen" if r[3] else "")
    lines.append(f"| {r[0]} | {found} | {r[4]:.3f} | {r[5]:.3f} | {r[6]:.3f} | {r[7]:.3f} | "
                 f"{r[10] or '-'} | {r[8]} | {r[9]} |")
if errors:
    lines.append("")
    lines.append(f"Mean absolute error over the {len(errors)} examples with a measurable saving: "
                 f"{sum(errors) / len(errors):.0f}% (median {sorted(errors)[len(errors) // 2]:.0f}%).")

# PyTorch pairs: pair -> (the bad loop's function, iterations recorded (as
# test/gpu/record-pytorch.sh runs them), warm-up iterations before them,
# iterations timed (the example's default)). The pairs' harness runs min(2, n)
# warm-up iterations of the same function first; the seed loop one.
PAIRS = {
    "tf32_matmul": ("layers", 5, 2, 10),
    "per_sample": ("one_at_a_time", 1, 1, 4),
    "elementwise_chain": ("unfused", 5, 2, 20),
    "pageable_loading": ("pageable", 20, 2, 30),
    "item_per_step": ("item_each_step", 10, 2, 20),
    "small_copies": ("one_by_one", 2, 2, 10),
    "seed_loop": ("bad_loop", 100, 1, 100),
}
root = os.path.dirname(os.path.dirname(os.path.abspath(doc_path)))
pt_path = os.path.join(pt_dir, "pytorch-timings.json")
pt = json.load(open(pt_path))["examples"] if os.path.exists(pt_path) else {}
pt_env = json.load(open(pt_path)).get("environment", []) if os.path.exists(pt_path) else []


def function_lines(source, function):
    """The lines of a function of an example (itself and what it nests) and of
    the example's own functions that it calls (unfused() calls chain(), whose
    lines hold the element-wise ops)."""
    import ast
    tree = ast.parse(open(source).read())
    defs = {n.name: n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
    node = defs.get(function)
    if not node:
        return set()
    lines = set(range(node.lineno, node.end_lineno + 1))
    for call in ast.walk(node):
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id in defs:
            callee = defs[call.func.id]
            lines |= set(range(callee.lineno, callee.end_lineno + 1))
    return lines


def sites_of(f):
    sites = list((f.get("join") or {}).get("callSites") or [])
    if f.get("location"):
        sites.append(f["location"])
    return sites


# The recorded processes' own timing of their (shorter) timed loop, where the
# recording directory has it: how much slower the loop ran under the
# collector (or in that process) than without it.
recorded_ms = {}
rt_path = os.path.join(pt_dir, "recorded-times.txt")
if os.path.exists(rt_path):
    for line in open(rt_path):
        f = line.split()
        if len(f) == 3 and f[1] == "bad":
            recorded_ms[f[0]] = float(f[2])
pt_lines = ["| pair | bad ms | fixed ms | measured saving ms | estimated saving ms (findings at the loop's lines) | error | recorded loop / unprofiled | error of the estimate as a share of the recorded loop | other findings (estimated ms) |",
            "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
pt_errors, share_errors = [], []
for name, (function, recorded, warmup, timed) in PAIRS.items():
    t = pt.get(name)
    rpath = os.path.join(out, "pt", name + ".json")
    if not t or not os.path.exists(rpath):
        continue
    source = os.path.join(root, "examples", "pytorch", name + ".py")
    loop_lines = function_lines(source, function)
    scale = timed / (recorded + warmup)
    report = json.load(open(rpath))
    in_loop, others = [], []
    for f in report.get("findings", []):
        cost = f.get("cost") or {}
        if not cost.get("matched"):
            continue
        ms = cost.get("estimatedSavingNs", 0) / 1e6 * scale
        at_loop = any(os.path.basename(s.get("file", "")) == name + ".py" and s.get("line") in loop_lines
                      for s in sites_of(f))
        (in_loop if at_loop else others).append((f["check"], ms))
    est = sum(ms for _, ms in in_loop)
    measured, bad = t["saving_ms"], t["bad"]["median"]
    spread = max(t["bad"]["processes"]) - min(t["bad"]["processes"])
    # The estimate is in recorded time: divided by the recorded loop's
    # slowdown, it is the same share of the unprofiled loop.
    slow = (recorded_ms[name] / recorded) / (bad / timed) if name in recorded_ms else None
    slow_s = f"{slow:.2f}x" if slow else "-"
    share_s = "-"
    if abs(measured) > max(spread, 0.02 * bad):
        err = (est - measured) / measured * 100
        err_s = f"{err:+.0f}%"
        pt_errors.append(abs(err))
        if slow:
            share_err = (est / slow - measured) / measured * 100
            share_s = f"{share_err:+.0f}%"
            share_errors.append(abs(share_err))
    else:
        err_s = f"n/a: saving within noise; estimate {est / bad * 100:.1f}% of the run (goal: under 1%)"
    found = ", ".join(f"{c} {ms:.2f}" for c, ms in in_loop) or "none"
    other = ", ".join(f"{c} {ms:.2f}" for c, ms in others) or "none"
    pt_lines.append(f"| {name} | {bad:.3f} | {t['fixed']['median']:.3f} | {measured:.3f} | "
                    f"{est:.3f} ({found}) | {err_s} | {slow_s} | {share_s} | {other} |")
if len(pt_lines) > 2:
    lines += ["", "PyTorch pairs (examples/pytorch; estimates scaled from the recorded to the timed iterations):", ""]
    lines += pt_lines
    if pt_errors:
        lines.append("")
        lines.append(f"Mean absolute error over the {len(pt_errors)} PyTorch pairs with a measurable saving: "
                     f"{sum(pt_errors) / len(pt_errors):.0f}%, largest {max(pt_errors):.0f}%.")
    if share_errors:
        lines.append(f"As a share of the recorded loop (the estimate over the recorded loop's slowdown): "
                     f"mean absolute error {sum(share_errors) / len(share_errors):.0f}%, "
                     f"largest {max(share_errors):.0f}%.")
    lines.append("")
    lines.append(f"Recordings and timings: {os.path.relpath(pt_dir, root)} "
                 f"({next((e[6:] for e in pt_env if e.startswith('date: ')), 'date unknown')}).")
# The C++ synchronization example timed again in the PyTorch pairs' run (the
# issue's 2.0-2.4x over-estimate was against timings.json's saving).
if "sync-in-loop" in pt:
    for r in rows:
        if r[0] == "sync-in-loop":
            again = pt["sync-in-loop"]["saving_ms"]
            lines.append("")
            when = next((e[6:] for e in pt_env if e.startswith("date: ")), "?")
            lines.append(f"sync-in-loop timed again at {when} (pytorch-timings.json, 4 alternating processes): "
                         f"measured saving {again:.3f} ms against {r[6]:.3f} ms in timings.json; the estimate "
                         f"{r[7]:.3f} ms is {r[7] / again:.2f}x the new measurement.")
table = "\n".join(lines)
print(table)
if update:
    doc = open(doc_path).read()
    begin, end = "<!-- validation:begin -->", "<!-- validation:end -->"
    i, j = doc.find(begin), doc.find(end)
    if i < 0 or j < 0:
        sys.exit("cost-model-validation: no validation markers in " + doc_path)
    doc = doc[:i + len(begin)] + "\n" + table + "\n" + doc[j:]
    open(doc_path, "w").write(doc)
EOF
