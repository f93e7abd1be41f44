#!/usr/bin/env python3
"""Prints the Markdown tables of BENCHMARKS.md from a criterion run.

Reads `target/criterion/**/new/{benchmark,estimates}.json` (medians) written by
`cargo bench -p sroar --bench realdata` (and `--bench kernels`), and the sizes
in `target/realdata/sizes/*.json` written by the realdata bench.

    python3 crates/sroar/benches/summarize.py [--target DIR] > /tmp/tables.md

Ratios are speedups: the time of the other library divided by sroar's, so a
ratio above 1 means sroar is faster. Standard library only.
"""

import argparse
import json
import math
import os
import subprocess
import sys

NAMES = [
    "census-income", "census-income_srt", "census1881", "census1881_srt",
    "dimension_003", "dimension_008", "dimension_033", "uscensus2000",
    "weather_sept_85", "weather_sept_85_srt", "wikileaks-noquotes",
    "wikileaks-noquotes_srt",
]
DATASETS = NAMES + [n + "@64" for n in NAMES]
PRODUCING = ["or_many", "and", "or", "xor", "andnot"]
READ_ONLY = ["and_len", "or_len", "xor_len", "andnot_len", "contains", "iter"]
OTHERS = ["roaring", "croaring64", "treemap"]
CROARING = ["croaring64", "treemap"]


def load(criterion_dir):
    """{(group_id, function_id): median in ns}"""
    out = {}
    for root, _dirs, files in os.walk(criterion_dir):
        if os.path.basename(root) != "new" or "estimates.json" not in files:
            continue
        with open(os.path.join(root, "benchmark.json")) as f:
            bench = json.load(f)
        with open(os.path.join(root, "estimates.json")) as f:
            est = json.load(f)
        out[(bench["group_id"], bench["function_id"])] = est["median"]["point_estimate"]
    return out


def fmt_time(ns):
    if ns is None:
        return "–"
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)):
        if ns >= scale:
            return f"{ns / scale:.3g} {unit}"
    return f"{ns:.3g} ns"


def fmt_ratio(r):
    if r is None:
        return "–"
    return f"**{r:.2f}×**" if r < 1 else f"{r:.2f}×"


def geomean(xs):
    xs = [x for x in xs if x]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def ratio(times, ours, others):
    base = times.get(ours)
    rivals = [times[o] for o in others if times.get(o)]
    return min(rivals) / base if base and rivals else None


def verdict(g, m, goal_mean, goal_min):
    if goal_mean is None and goal_min is None:
        return "–"
    ok = (goal_mean is None or g >= goal_mean) and (goal_min is None or m >= goal_min)
    return "met" if ok else "missed"


def op_table(med, op, form, libs, against):
    """One Markdown table: per dataset, the medians and sroar's speedup."""
    head = ["dataset"] + libs + ["best other", "sroar speedup"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" + "---:|" * (len(head) - 1)]
    ratios = {}
    for ds in DATASETS:
        times = {lib: med.get((f"{ds}/{op}/{form}", lib)) for lib in libs}
        if not any(times.values()):
            continue
        rivals = {o: times.get(o) for o in against if times.get(o)}
        best = min(rivals, key=rivals.get) if rivals else None
        r = ratio(times, "sroar", against)
        ratios[ds] = r
        cells = [ds] + [fmt_time(times[lib]) for lib in libs] + [best or "–", fmt_ratio(r)]
        lines.append("| " + " | ".join(cells) + " |")
    vals = [r for r in ratios.values() if r]
    if vals:
        lines.append(
            "| **geomean** | " + " | ".join([""] * len(libs)) + f" | | **{geomean(vals):.2f}×** (min {min(vals):.2f}×) |"
        )
    return "\n".join(lines), ratios


def summary_line(name, ratios_by_op, goal_mean, goal_min=None, goal_op=None):
    """Rows of the targets table: geomeans over the 12 datasets, their 12 `@64`
    variants and all 24. `goal_mean` is the goal of the geomean over every operation,
    `goal_min` the least any cell may reach, `goal_op` the least any one operation's
    geomean may reach; None means no such goal."""
    rows = []
    every = {}
    for op, ratios in list(ratios_by_op.items()) + [("**all**", None)]:
        if ratios is None:
            ratios = every
        else:
            every.update({(op, d): r for d, r in ratios.items() if r})
        base = [r for d, r in ratios.items() if r and not str(d).count("@64")]
        spread = [r for d, r in ratios.items() if r and str(d).count("@64")]
        vals = base + spread
        if not vals:
            continue
        worst = min((k for k in ratios if ratios[k]), key=lambda k: ratios[k])
        worst = worst if isinstance(worst, str) else "/".join(reversed(worst))
        g = geomean(vals)
        gb = geomean(base)
        gs = geomean(spread)
        m = min(vals)
        mb = min(base) if base else None
        # An operation's row is held to the per-operation goals, the "all" row to the
        # geomean's goal and, through the rows above it, to theirs.
        if op == "**all**":
            # Missed as well when any one operation's geomean misses `goal_op`.
            ops = [rs for rs in ratios_by_op.values() if rs]
            worst_b = min(geomean([r for d, r in rs.items() if r and "@64" not in d]) for rs in ops)
            worst_a = min(geomean([r for r in rs.values() if r]) for rs in ops)
            ok_b = goal_op is None or worst_b >= goal_op
            ok_a = goal_op is None or worst_a >= goal_op
            vb = verdict(gb, mb, goal_mean, goal_min) if ok_b else "missed"
            va = verdict(g, m, goal_mean, goal_min) if ok_a else "missed"
        else:
            vb, va = verdict(gb, mb, goal_op, goal_min), verdict(g, m, goal_op, goal_min)
        rows.append(
            f"| {name} | {op} | {fmt_g(gb)} | {fmt_g(gs)} | {fmt_g(g)} | {m:.2f}× ({worst}) | {vb} | {va} |"
        )
    return rows


def fmt_g(g):
    return f"{g:.2f}×" if g else "–"


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    default_target = os.environ.get("CARGO_TARGET_DIR", os.path.join(here, "..", "..", "..", "target"))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--target", default=default_target, help="cargo target dir")
    ap.add_argument("--compare", metavar="DIR", help="an older copy of target/criterion: print sroar's medians before/after instead")
    args = ap.parse_args()
    med = load(os.path.join(args.target, "criterion"))
    if not med:
        sys.exit(f"no criterion results under {args.target}/criterion")
    if args.compare:
        return compare(load(args.compare), med)
    out = [
        "# The library against CRoaring and roaring-rs",
        "",
        "Medians of `cargo bench -p sroar --bench realdata` (BENCHMARKS.md gives the command).",
        "Ratios are the other library's time over sroar's: above 1, sroar is faster.",
        machine_line(),
        "",
    ]

    # -- headline --
    bytes_ratios, bytes_ro_ratios, mem_ratios, mem_rr_ratios = {}, {}, {}, {}
    sections = []
    for op in PRODUCING + READ_ONLY:
        libs_b = ["sroar"] + (["sroar_checked"] if op in PRODUCING else []) + (["sroar_iter"] if op == "iter" else []) + OTHERS
        t, r = op_table(med, op, "bytes", libs_b, OTHERS)
        (bytes_ratios if op in PRODUCING else bytes_ro_ratios)[op] = r
        sections.append(f"### `{op}`, bytes → {'bytes' if op in PRODUCING else 'answer'}\n\n{t}\n")
        libs_m = ["sroar"] + (["sroar_iter"] if op == "iter" else []) + OTHERS
        t, r = op_table(med, op, "mem", libs_m, CROARING)
        mem_ratios[op] = r
        _, mem_rr_ratios[op] = op_table(med, op, "mem", libs_m, ["roaring"])
        sections.append(f"### `{op}`, in memory (speedup against the faster CRoaring)\n\n{t}\n")
        if op == "contains":
            t, _ = op_table(med, op, "batch", libs_m, OTHERS)
            sections.append(f"### `contains`, bytes, one open for all probes of a bitmap (no goal)\n\n{t}\n")

    out.append("## Targets\n")
    out.append("| target | operation | geomean, 12 datasets | geomean, 12 `@64` | geomean, all 24 | worst (all 24) | verdict, 12 | verdict, 24 |")
    out.append("|---|---|---:|---:|---:|---:|---|---|")
    out += summary_line("bytes → bytes ≥ 3× (no cell < 1.5×)", bytes_ratios, 3.0, 1.5)
    out += summary_line("bytes → answer (read-only, same goal)", bytes_ro_ratios, 3.0, 1.5)
    out += summary_line("in memory ≥ 1.3× CRoaring (no operation < 1×)", mem_ratios, 1.3, None, 1.0)
    out += summary_line("in memory vs roaring-rs (no goal)", mem_rr_ratios, None)

    # -- open --
    open_rows = ["| dataset | opened | sroar unchecked | sroar checked | roaring | roaring checked | croaring64 | treemap | treemap checked | croaring64 / unchecked | croaring64 / checked |",
                 "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    unchecked, checked = [], []
    sizes = load_sizes(args.target)
    opened = load_sizes(args.target, ".open.json")
    for ds in DATASETS:
        g = f"{ds}/open/bytes"
        t = {lib: med.get((g, lib)) for lib in ["sroar", "sroar_checked", "roaring", "roaring_checked", "croaring64", "treemap", "treemap_checked"]}
        if not t["sroar"]:
            continue
        ru = t["croaring64"] / t["sroar"] if t["croaring64"] else None
        rc = t["croaring64"] / t["sroar_checked"] if t["croaring64"] and t["sroar_checked"] else None
        unchecked.append(ru)
        checked.append(rc)
        o = opened.get(ds, {})
        what = f"{o['open_values']:,} values, {o['open_containers']:,} containers, {o['open_sroar_bytes']:,} B" if o else ""
        open_rows.append("| " + " | ".join([ds, what] + [fmt_time(t[k]) for k in t] + [f"{ru:,.0f}×" if ru else "–", f"{rc:.2f}×" if rc else "–"]) + " |")
    if unchecked:
        gu, gc = geomean(unchecked), geomean(checked)
        open_rows.append(f"| **geomean** | | | | | | | | | **{gu:,.0f}×** (min {min(unchecked):,.0f}×) | **{gc:.2f}×** (min {min(checked):.2f}×) |")
        out.append(f"| open a large bitmap ≥ 100× croaring deserialize | unchecked | | | {gu:,.0f}× | {min(unchecked):,.0f}× | | {'met' if min(unchecked) >= 100 else 'missed'} (every dataset) |")
        out.append(f"| open a large bitmap ≥ 100× croaring deserialize | checked (O(n)) | | | {gc:.2f}× | {min(checked):.2f}× | | {'met' if min(checked) >= 100 else 'missed'} |")

    # -- sizes --
    size_rows = ["| dataset | bitmaps | values | sroar bytes | portable bytes | sroar / portable | union: sroar | union: portable | union ratio |",
                 "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    size_ratios = []
    for ds in DATASETS:
        s = sizes.get(ds)
        if not s:
            continue
        r = s["sroar_bytes"] / s["portable_bytes"]
        ru = s["union_sroar_bytes"] / s["union_portable_bytes"]
        size_ratios.append((ds, r))
        mark = lambda x: f"**{x:.3f}**" if x > 1.05 else f"{x:.3f}"
        size_rows.append(f"| {ds} | {s['bitmaps']:,} | {s['values']:,} | {s['sroar_bytes']:,} | {s['portable_bytes']:,} | {mark(r)} | {s['union_sroar_bytes']:,} | {s['union_portable_bytes']:,} | {mark(ru)} |")
    if size_ratios:
        within = sum(1 for _, r in size_ratios if r <= 1.05)
        worst = max(size_ratios, key=lambda x: x[1])
        out.append(f"| size within 5% of portable | sroar / portable bytes | | | {geomean([r for _, r in size_ratios]):.3f} | {worst[1]:.3f} ({worst[0]}) | | {'met' if within == len(size_ratios) else f'missed on {len(size_ratios) - within} of {len(size_ratios)}'} |")

    out.append("\n## Opening a large bitmap from its bytes (the larger of the dataset's union and its largest bitmap)\n")
    out += open_rows
    out.append("\n## Serialized size (all bitmaps of a dataset, and their union)\n")
    out += size_rows
    out.append("\n## Per operation\n")
    out += sections

    # -- tiers --
    tier_rows = {}
    for (group, fn), ns in med.items():
        if group.startswith("tiers/"):
            tier_rows.setdefault(group[len("tiers/"):], {})[fn] = ns
    if tier_rows:
        out.append("## SIMD tiers (sroar alone, in memory)\n")
        out.append("| dataset/operation | scalar | avx2 | avx512 | avx2 speedup | avx512 speedup |")
        out.append("|---|---:|---:|---:|---:|---:|")
        for key in sorted(tier_rows):
            t = tier_rows[key]
            s = t.get("scalar")
            sp = lambda k: f"{s / t[k]:.2f}×" if s and t.get(k) else "–"
            out.append(f"| {key} | {fmt_time(s)} | {fmt_time(t.get('avx2'))} | {fmt_time(t.get('avx512'))} | {sp('avx2')} | {sp('avx512')} |")
    print("\n".join(out))


def compare(old, new):
    """sroar before/after on the producing operations, and the speedup against the
    fastest other library (in the new run)."""
    print("| dataset | operation | form | sroar before | sroar after | after / before speedup | vs fastest other, before | after |")
    print("|---|---|---|---:|---:|---:|---:|---:|")
    gains = []
    for ds in DATASETS:
        for op in PRODUCING:
            for form in ("bytes", "mem"):
                g = f"{ds}/{op}/{form}"
                a, b = old.get((g, "sroar")), new.get((g, "sroar"))
                if not a or not b:
                    continue
                against = OTHERS if form == "bytes" else CROARING
                ro = ratio({k: old.get((g, k)) for k in ["sroar"] + against}, "sroar", against)
                rn = ratio({k: new.get((g, k)) for k in ["sroar"] + against}, "sroar", against)
                gains.append(a / b)
                print(f"| {ds} | {op} | {form} | {fmt_time(a)} | {fmt_time(b)} | {a / b:.2f}× | {fmt_ratio(ro)} | {fmt_ratio(rn)} |")
    if gains:
        print(f"| **geomean** | | | | | **{geomean(gains):.2f}×** | | |")


def machine_line():
    """Where the figures come from: the CPU and its widest SIMD tier (sroar picks the
    tier at run time), the core count, and the commit measured."""
    cpu, flags = "unknown CPU", set()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                key, _, value = line.partition(":")
                if key.strip() == "model name" and cpu == "unknown CPU":
                    cpu = value.strip()
                elif key.strip() == "flags" and not flags:
                    flags = set(value.split())
    except OSError:
        pass
    tier = "avx512" if {"avx512f", "avx512bw", "avx512vl", "avx512_vpopcntdq", "avx512_vbmi2"} <= flags else "avx2" if "avx2" in flags else "scalar"
    # A run with a tier forced below the CPU's (SROAR_SIMD, as the bench ran)
    # says so, and whether the other libraries were held to AVX2 as well.
    forced = os.environ.get("SROAR_SIMD")
    if forced and forced != tier:
        peers = []
        if "CROARING_COMPILER_SUPPORTS_AVX512=0" in os.environ.get("CFLAGS", ""):
            peers.append("CRoaring built without AVX-512")
        if "disable_dispatch_avx512" in os.environ.get("RUSTFLAGS", ""):
            peers.append("roaring-rs without its AVX-512 dispatch")
        tier = f"{forced} (forced by SROAR_SIMD on a CPU with {tier}" + "".join(f"; {p}" for p in peers) + ")"
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    except OSError:
        commit = ""
    return f"Measured on {cpu}, {os.cpu_count()} cores, SIMD tier {tier}" + (f", at commit {commit}" if commit else "") + "."


def load_sizes(target, suffix=".json"):
    d = os.path.join(target, "realdata", "sizes")
    out = {}
    if os.path.isdir(d):
        for f in os.listdir(d):
            if f.endswith(suffix) and (suffix != ".json" or not f.endswith(".open.json")):
                with open(os.path.join(d, f)) as fh:
                    s = json.load(fh)
                out[s["dataset"]] = s
    return out


if __name__ == "__main__":
    main()
