#!/usr/bin/env python3
"""Evaluation rounds on public CUDA code (shared/EVALUATION.md, docs/evaluation.md).

  eval.py run    --manifest M --tool build/bin/cuda-advisor --out DIR [--mirror /work/.mirror]
  eval.py sample --out DIR --seed 1 --per-check 12 [--sheet NAME]
  eval.py score  SHEET.tsv [SHEET.tsv ...]
  eval.py carry  SHEET.tsv --out DIR --sheet NAME

`carry` re-scores a judged sheet after a fix that only removes findings: it keeps the
rows whose finding (check, file, line) DIR/findings.jsonl still holds, writes them as
DIR/<NAME>.tsv with DIR's per-check counts, lists the removed rows with their verdicts,
and lists the findings of DIR at lines the sheet's run did not report (these must be
judged anew before the shares mean anything).

`run` exports each manifest repository at its commit (from the git directory that the
search tool's `fetch` leaves under the mirror folder), finds its translation units (the
manifest's globs, minus .cu files that another file #includes), analyzes each one on its
own with the manifest's flags, and writes DIR/units.tsv (parse status and time per unit)
and DIR/findings.jsonl (one finding a line, with its unit and repository).

`sample` draws findings at random with a fixed seed, at most --per-check of each check,
uniformly within the check, and writes the sheet a person fills in: DIR/<sheet>.md (each
finding with five lines of code around it) and DIR/<sheet>.tsv (verdict and reason
columns to fill: TP, FP or IRR, one line of reason).

`score` prints, per check, findings, judged, TP, FP, irrelevant and the shares, as the
table docs/evaluation.md keeps per round.
"""
import argparse, collections, fnmatch, json, os, random, re, subprocess, sys, time

SOURCE_SUFFIXES = (".cu", ".cuh", ".h", ".hpp", ".hh", ".hxx", ".inl", ".c", ".cc", ".cpp", ".cxx", ".def", ".inc",
                   ".cuknl")  # TeaLeaf's kernels, #included by its .cu files
KINDS = ("benchmark", "course", "application", "library-sample")


def load_manifest(path):
    with open(path) as f:
        manifest = json.load(f)
    for repo in manifest["repositories"]:
        for key in ("repo", "commit", "kind", "files"):
            if key not in repo:
                sys.exit(f"{path}: repository entry without '{key}': {repo}")
        if repo["kind"] not in KINDS:
            sys.exit(f"{path}: {repo['repo']}: kind must be one of {KINDS}")
    return manifest


def export(repo, mirror, dest):
    gitdir = os.path.join(mirror, repo["repo"].replace("/", "+"), "repo")
    # Some snapshots unpack as a work tree whose git directory is repo/.git.
    if os.path.isdir(os.path.join(gitdir, ".git")):
        gitdir = os.path.join(gitdir, ".git")
    if not os.path.isdir(gitdir):
        sys.exit(f"{gitdir}: no snapshot of {repo['repo']} (fetch github:{repo['repo']} first)")
    if os.path.isdir(dest):
        return dest
    os.makedirs(dest)
    # Source files only, blob by blob: snapshots may lack their largest (data) files.
    listing = subprocess.run(["git", "--git-dir", gitdir, "ls-tree", "-r", "-l", repo["commit"]],
                             stdout=subprocess.PIPE, check=True, text=True).stdout
    for line in listing.splitlines():
        meta, path = line.split("\t", 1)
        _, kind, sha, size = meta.split()
        # An absent blob (a snapshot without it) lists its size as "BAD".
        if kind != "blob" or not path.endswith(SOURCE_SUFFIXES) or not size.isdigit() or int(size) > 4 << 20:
            continue
        blob = subprocess.run(["git", "--git-dir", gitdir, "cat-file", "blob", sha],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        if blob.returncode != 0:
            continue
        os.makedirs(os.path.join(dest, os.path.dirname(path)), exist_ok=True)
        with open(os.path.join(dest, path), "wb") as f:
            f.write(blob.stdout)
    return dest


INCLUDE_RE = re.compile(r'^\s*#\s*include\s*["<]([^">]+\.cuh?)[">]', re.M)


def translation_units(root, globs, exclude):
    files = []
    for dirpath, _, names in os.walk(root):
        for name in names:
            rel = os.path.relpath(os.path.join(dirpath, name), root)
            if any(fnmatch.fnmatch(rel, g) for g in globs) and \
               not any(fnmatch.fnmatch(rel, g) for g in exclude):
                files.append(rel)
    included = set()
    for rel in files:
        try:
            text = open(os.path.join(root, rel), errors="replace").read()
        except OSError:
            continue
        for inc in INCLUDE_RE.findall(text):
            included.add(os.path.basename(inc))
    return sorted(f for f in files if os.path.basename(f) not in included)


_HEADER_DIRS = {}


def header_dirs(root):
    if root not in _HEADER_DIRS:
        dirs = set()
        for dirpath, _, names in os.walk(root):
            if any(n.endswith((".h", ".hpp", ".cuh", ".hh", ".inl")) for n in names):
                dirs.add(dirpath)
        _HEADER_DIRS[root] = sorted(dirs)
    return _HEADER_DIRS[root]


def analyze(args, repo, root, unit, base):
    path = os.path.join(root, unit)
    flags = base + ["-I" + os.path.dirname(path)]
    flags += ["-I" + os.path.join(root, d) for d in repo.get("include", [])]
    # Every folder of the repository that holds headers, searched last (after the
    # system and CUDA headers, so a repository's own cuda.h shadows nothing).
    for d in header_dirs(root):
        flags += ["-idirafter", d]
    flags += repo.get("flags", [])
    cmd = [args.tool, path, "--format=json", "-j", "1"] + args.tool_arg + ["--"] + flags
    start = time.monotonic()
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              timeout=args.timeout, text=True)
        code, out, err = proc.returncode, proc.stdout, proc.stderr
    except subprocess.TimeoutExpired:
        code, out, err = "timeout", "", ""
    seconds = time.monotonic() - start
    try:
        report = json.loads(out) if out else {}
    except json.JSONDecodeError:
        report = {}
    found = report.get("findings", [])
    parsed = code in (0, 1) and not report.get("errors", [])
    if not parsed:
        # Why it did not parse, for the round's parsing table.
        errors = os.path.join(args.out, "errors")
        os.makedirs(errors, exist_ok=True)
        with open(os.path.join(errors, (repo["repo"] + "/" + unit).replace("/", "+") + ".txt"), "w") as f:
            f.write(err)
    for f in found:
        f["unit"], f["repo"], f["kind"] = unit, repo["repo"], repo["kind"]
    return code, parsed, found, seconds


def run(args):
    manifest = load_manifest(args.manifest)
    os.makedirs(args.out, exist_ok=True)
    units_path = os.path.join(args.out, "units.tsv")
    done = set()
    if args.resume and os.path.exists(units_path):
        with open(units_path) as f:
            next(f, None)
            done = {tuple(l.split("\t")[:3:2]) for l in f}
    if args.rerun_failed and done:
        rows = [l for l in open(units_path)]
        failed = {tuple(l.split("\t")[:3:2]) for l in rows[1:] if l.split("\t")[4] != "1"}
        with open(units_path, "w") as f:
            f.writelines(l for l in rows if tuple(l.split("\t")[:3:2]) not in failed)
        kept = [l for l in open(os.path.join(args.out, "findings.jsonl"))
                if (json.loads(l)["repo"], json.loads(l)["unit"]) not in failed]
        with open(os.path.join(args.out, "findings.jsonl"), "w") as f:
            f.writelines(kept)
        done -= failed
    mode = "a" if done else "w"
    units_out = open(units_path, mode)
    findings_out = open(os.path.join(args.out, "findings.jsonl"), mode)
    if not done:
        units_out.write("repo\tkind\tunit\texit\tparsed\tfindings\tseconds\n")
    base = manifest.get("flags", ["-x", "cuda", "-std=c++17"])
    work = []
    for repo in manifest["repositories"]:
        root = export(repo, args.mirror, os.path.join(args.out, "src", repo["repo"].replace("/", "+")))
        work += [(repo, root, u) for u in translation_units(root, repo["files"], repo.get("exclude", []))]
    if args.sample_units and args.sample_units < len(work):
        # The same seed picks the same units, whatever was analyzed before.
        everything = sorted(work, key=lambda w: (w[0]["repo"], w[2]))
        keep = {(w[0]["repo"], w[2]) for w in random.Random(args.seed).sample(everything, args.sample_units)}
        work = [w for w in work if (w[0]["repo"], w[2]) in keep]
    work = [w for w in work if (w[0]["repo"], w[2]) not in done]
    print(f"{len(work)} units to analyze ({len(done)} done before)", file=sys.stderr)
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = pool.map(lambda w: (w, analyze(args, w[0], w[1], w[2], base)), work)
        for n, ((repo, root, unit), (code, parsed, found, seconds)) in enumerate(results, 1):
            for f in found:
                findings_out.write(json.dumps(f) + "\n")
            units_out.write(f"{repo['repo']}\t{repo['kind']}\t{unit}\t{code}\t{int(parsed)}\t"
                            f"{len(found)}\t{seconds:.2f}\n")
            units_out.flush()
            findings_out.flush()
            print(f"[{n}/{len(work)}] {repo['repo']}/{unit}: exit {code}, "
                  f"{len(found)} findings, {seconds:.1f} s", file=sys.stderr)
    summarize(args.out)


def summarize(out):
    rows = [l.rstrip("\n").split("\t") for l in open(os.path.join(out, "units.tsv"))][1:]
    findings = [json.loads(l) for l in open(os.path.join(out, "findings.jsonl"))]
    by_kind = collections.Counter(r[1] for r in rows)
    parsed = collections.Counter(r[1] for r in rows if r[4] == "1")
    print("| kind | units | parsed |")
    print("| --- | --- | --- |")
    for k in sorted(by_kind):
        print(f"| {k} | {by_kind[k]} | {parsed[k]} |")
    print(f"| all | {len(rows)} | {sum(parsed.values())} |")
    checks = collections.Counter((f["check"], f.get("severity")) for f in findings)
    print("\n| check | severity | findings |\n| --- | --- | --- |")
    for (c, sev), n in sorted(checks.items()):
        print(f"| {c} | {sev} | {n} |")


def context(path, line, radius=2):
    try:
        lines = open(path, errors="replace").read().split("\n")
    except OSError:
        return ""
    lo, hi = max(1, line - radius), min(len(lines), line + radius)
    return "\n".join(f"{n:5d}{'>' if n == line else ' '} {lines[n - 1]}" for n in range(lo, hi + 1))


def sample(args):
    findings = [json.loads(l) for l in open(os.path.join(args.out, "findings.jsonl"))]
    shown = [f for f in findings if f.get("severity") != "note" or args.notes]
    by_check = collections.defaultdict(list)
    for f in shown:
        by_check[f["check"]].append(f)
    rng = random.Random(args.seed)
    picked = []
    for check in sorted(by_check):
        group = by_check[check]
        picked += [(check, f) for f in rng.sample(group, min(args.per_check, len(group)))]
    md = open(os.path.join(args.out, args.sheet + ".md"), "w")
    tsv = open(os.path.join(args.out, args.sheet + ".tsv"), "w")
    tsv.write("id\tcheck\trepo\tlocation\tmessage\tverdict\treason\n")
    md.write(f"# Sheet {args.sheet}: seed {args.seed}, at most {args.per_check} per check\n\n")
    md.write("Verdicts: TP (a real cost, described correctly), FP (wrong), IRR (correct but "
             "worthless here: verification, harness, sweep, warm-up, one-time set-up).\n\n")
    for n, (check, f) in enumerate(picked, 1):
        loc = f["location"]
        rel = f"{f['unit'] if loc['file'].endswith(f['unit']) else loc['file']}"
        where = f"{f['repo']}:{os.path.relpath(loc['file'], os.path.join(args.out, 'src', f['repo'].replace('/', '+')))}:{loc['line']}"
        md.write(f"## {n}. [{check}] {where}\n\n{f['message']}\n\n```\n"
                 f"{context(loc['file'], loc['line'])}\n```\n")
        for note in f.get("notes", []):
            nl = note.get("location") or {}
            md.write(f"- note{(' at line ' + str(nl['line'])) if nl.get('line') else ''}: {note['message']}\n")
        md.write("\nverdict: \nreason: \n\n")
        tsv.write(f"{n}\t{check}\t{f['repo']}\t{where}\t{f['message'].replace(chr(9), ' ')}\t\t\n")
    counts = {c: len(v) for c, v in sorted(by_check.items())}
    json.dump(counts, open(os.path.join(args.out, args.sheet + ".counts.json"), "w"), indent=1)
    print(f"{len(picked)} findings sampled of {len(shown)} ({args.out}/{args.sheet}.md, .tsv)")


def score(args):
    rows = collections.defaultdict(collections.Counter)
    for sheet in args.sheets:
        counts_path = sheet[:-4] + ".counts.json"
        totals = json.load(open(counts_path)) if os.path.exists(counts_path) else {}
        for check, n in totals.items():
            rows[check]["findings"] += n
        with open(sheet) as f:
            header = f.readline().rstrip("\n").split("\t")
            for line in f:
                cells = dict(zip(header, line.rstrip("\n").split("\t")))
                verdict = cells.get("verdict", "").strip().upper()
                if verdict not in ("TP", "FP", "IRR"):
                    continue
                rows[cells["check"]]["judged"] += 1
                rows[cells["check"]][verdict] += 1
    print("| check | findings | judged | TP | FP | irrelevant | TP % | FP % | irrelevant % |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    total = collections.Counter()
    for check in sorted(rows):
        r = rows[check]
        total.update(r)
        print(line_of(check, r))
    print(line_of("**all**", total))


def finding_key(f, out):
    loc = f["location"]
    # Relative to the repository's export, wherever that run's out folder was
    # (a run resumed in a copy of another's folder holds both).
    marker = "/src/" + f["repo"].replace("/", "+") + "/"
    if marker in loc["file"]:
        rel = loc["file"].split(marker, 1)[1]
    else:
        rel = os.path.relpath(loc["file"], os.path.join(out, "src", f["repo"].replace("/", "+")))
    return (f["check"], f"{f['repo']}:{rel}:{loc['line']}")


def carry(args):
    findings = [json.loads(l) for l in open(os.path.join(args.out, "findings.jsonl"))]
    shown = [f for f in findings if f.get("severity") != "note"]
    present = {finding_key(f, args.out) for f in shown}
    with open(args.sheet_in) as f:
        header = f.readline()
        rows = [dict(zip(header.rstrip("\n").split("\t"), l.rstrip("\n").split("\t"))) for l in f]
    kept = 0
    with open(os.path.join(args.out, args.sheet + ".tsv"), "w") as out:
        out.write(header)
        for r in rows:
            if (r["check"], r["location"]) in present:
                out.write("\t".join(r.get(k, "") for k in header.rstrip("\n").split("\t")) + "\n")
                kept += 1
            else:
                print(f"removed: {r['verdict'] or '?':3} {r['check']} {r['location']}")
    counts = collections.Counter(f["check"] for f in shown)
    json.dump(dict(sorted(counts.items())), open(os.path.join(args.out, args.sheet + ".counts.json"), "w"), indent=1)
    # Findings at places the judged run did not report: the sheet says nothing about them.
    before = args.before_findings
    if before:
        old = {finding_key(json.loads(l), os.path.dirname(before)) for l in open(before)}
        for f in shown:
            if finding_key(f, args.out) not in old:
                print(f"new (not judged): {f['check']} {finding_key(f, args.out)[1]}")
    print(f"kept {kept} of {len(rows)} judged rows; "
          f"{args.out}/{args.sheet}.tsv")


def line_of(name, r):
    j = r["judged"] or 1
    pct = lambda k: f"{100 * r[k] / j:.0f}%" if r["judged"] else "-"
    return (f"| {name} | {r['findings']} | {r['judged']} | {r['TP']} | {r['FP']} | {r['IRR']} | "
            f"{pct('TP')} | {pct('FP')} | {pct('IRR')} |")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--manifest", required=True)
    r.add_argument("--tool", required=True)
    r.add_argument("--out", required=True)
    r.add_argument("--mirror", default="/work/.mirror")
    r.add_argument("--timeout", type=int, default=300)
    r.add_argument("--tool-arg", action="append", default=[], help="extra cuda-advisor option")
    r.add_argument("--jobs", type=int, default=1, help="units analyzed at once")
    r.add_argument("--resume", action="store_true", help="keep the units DIR/units.tsv has")
    r.add_argument("--rerun-failed", action="store_true",
                   help="with --resume: analyze again the units that did not parse")
    r.add_argument("--sample-units", type=int, default=0,
                   help="analyze a random sample of N units (seeded by --seed), not all")
    r.add_argument("--seed", type=int, default=1)
    s = sub.add_parser("sample")
    s.add_argument("--out", required=True)
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--per-check", type=int, default=12)
    s.add_argument("--sheet", default="sheet")
    s.add_argument("--notes", action="store_true", help="also sample notes")
    c = sub.add_parser("score")
    c.add_argument("sheets", nargs="+")
    k = sub.add_parser("carry")
    k.add_argument("sheet_in")
    k.add_argument("--out", required=True)
    k.add_argument("--sheet", required=True)
    k.add_argument("--before-findings", help="findings.jsonl of the judged run: list new findings")
    args = p.parse_args()
    {"run": run, "sample": sample, "score": score, "carry": carry}[args.cmd](args)


if __name__ == "__main__":
    main()
