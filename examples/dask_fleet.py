#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""From one file to a fleet: the logs and traces of many training jobs, read with logscan on
Dask workers and aggregated.

    /usr/bin/python3 examples/dask_fleet.py 'runs/**/*'            # a LocalCluster (2 workers)
    /usr/bin/python3 examples/dask_fleet.py runs/ --workers 4
    /usr/bin/python3 examples/dask_fleet.py runs/ --scheduler tcp://10.0.0.5:8786   # a real cluster
    /usr/bin/python3 examples/dask_fleet.py runs/ --json fleet.json                 # every figure

Each file is one job's log or one rank's trace, of any format logscan reads (detected). A
worker reads a file with `logscan.frames` (and `logscan.summary` for a Chrome trace) and
returns a few figures; nothing proportional to the file leaves the worker. Then, over all
files:
  - the top operators (TVM calls of every table form, by total duration; calls counted by
    their `Count` cells) and the top GPU kernels (Chrome traces, by total time), across all
    runs; the TVM call rows without a finite duration counted apart;
  - the loss curve of every job that prints one (Paddle training steps), side by side, a
    restart in the same log a run of its own (`loss_frame`);
  - the peak static memory per job and physical comp node (MegEngine logs);
  - per Chrome trace (a rank), its kernel-type and temporal breakdowns (HTA's figures, each
    directory's traces read together as the ranks of one job);
  - the files not read (with their error), read with error records or in part (a killed
    job's cut log: the figures of what it holds), and of no format; what logscan says of a
    file (a last line cut short, ...) as notes. A log kept as .xz or .bz2 is read as its text.
Exits 1 when a file could not be read or had error records.
The workers need `logscan` importable (PYTHONPATH, or the package installed) and the files
at the same paths. `fleet(files, client)` and `fleet(files, None)` (one process, no Dask) give
the same figures: the test (python/tests/test_dask_fleet.py) checks it.
"""
import argparse
import glob
import json
import os
import sys
import threading
import time

import logscan


def _int(x):
    """An integer cell (None where the record has none: a NaN in a float64 column)."""
    return None if x is None or x != x else int(x)


def _number(x):
    """A number cell as a float (None where it is missing or not a finite number)."""
    try:
        v = float(x)
    except (TypeError, ValueError):
        return None
    return v if v == v and v not in (float("inf"), float("-inf")) else None


# A tvm-profile call's duration, by the form of its table (formats.md section 5): a report's
# or Report.json()'s `Duration (us)`, the graph debug executor's `Time(us)`, the original VM
# profiler's `Duration(us): Sum/Mean/Min/Max` (an array: its first value is the sum); and its
# number of calls, where the form prints one.
DURATION_COLUMNS = ("cells.Duration (us)", "cells.Time(us)", "cells.Duration(us): Sum/Mean/Min/Max")
COUNT_COLUMNS = ("cells.Count", "cells.InvokeCount")


def file_figures(path):
    """The figures of one file (runs on a worker). Small: top-level dicts of numbers. A file
    that cannot be read has its error instead (the others go on, whatever the error)."""
    out = {"file": path, "format": None, "bytes": 0, "operators": {}, "untimed_calls": 0, "kernels": {},
           "loss": [], "peak_mib": {}, "ranks": [], "errors": 0, "first_error": None, "error": None, "notes": []}
    try:
        out["bytes"] = os.path.getsize(path)
        return _figures(path, out)
    except Exception as e:  # (one file's surprise is that file's error, never the fleet's)
        out["error"] = f"{type(e).__name__}: {e}"
        return out


def _operators(calls, out):
    """A tvm-profile file's calls: total microseconds and calls per operator name; the rows
    without a finite duration counted apart (not ranked as 0). A file may hold several table
    forms: each row's duration is the first of DURATION_COLUMNS it has, its count its own."""
    present = [c for c in DURATION_COLUMNS if c in calls.columns]
    count_cols = [c for c in COUNT_COLUMNS if c in calls.columns]
    lines = calls["line"] if "line" in calls.columns else [None] * len(calls)
    table, last_line, seen = 0, None, set()
    for k, (name, line) in enumerate(zip(calls["name"], lines)):
        col = next((c for c in present if calls[c].iat[k] is not None and calls[c].iat[k] == calls[c].iat[k]), None)
        d = calls[col].iat[k] if col else None
        if col == "cells.Time(us)":  # the graph debug executor prints a node once per output: once per table
            if last_line is None or line != last_line + 1:
                table, seen = table + 1, set()
            last_line = line
            if name in seen:
                continue
            seen.add(name)
        if col and col.endswith("Sum/Mean/Min/Max"):  # (an array's JSON text: its first value is the sum)
            d = json.loads(d)[0] if isinstance(d, str) and d.startswith("[") else d
        us = _number(d)
        if us is None:
            out["untimed_calls"] += 1
            continue
        n = next((_number(calls[c].iat[k]) for c in count_cols if _number(calls[c].iat[k]) is not None), None)
        total, count = out["operators"].get(str(name), (0.0, 0))
        out["operators"][str(name)] = (total + us, count + (int(n) if n is not None else 1))


# Compressed files logscan does not undo itself (it reads gzip), opened by Python's modules:
# a job's log kept as .xz or .bz2 is read as its text (logscan reads a file object).
_OPENERS = ((b"\xfd7zXZ\x00", "lzma"), (b"BZh", "bz2"))


def _opened(path):
    """The path, or a file object of its text when it is xz or bzip2."""
    with open(path, "rb") as f:
        head = f.read(6)
    for magic, module in _OPENERS:
        if head.startswith(magic):
            return __import__(module).open(path)
    return path


def _said_lock():
    """One lock per process around the hook of `_said`, kept on the warnings module, which a
    task sent by value refers to by name."""
    import warnings

    return warnings.__dict__.setdefault("_logscan_fleet_lock", threading.Lock())


class _said:
    """The warnings logscan gives on this thread while the block runs, as their texts: a
    worker may run tasks on threads, each parsing with the GIL released, so the words are
    gathered per thread (warnings.showwarning replaced once per process, by one that hands a
    logscan warning given inside such a block to its thread's list, and any other on as
    before) rather than with warnings.catch_warnings, which would hold every thread's parse
    to one at a time."""

    def __init__(self):
        import warnings

        with _said_lock():
            state = warnings.__dict__.setdefault("_logscan_fleet_said", threading.local())
            if warnings.showwarning is not getattr(warnings, "_logscan_fleet_show", None):  # (once; again after a
                shown = warnings.showwarning  # catch_warnings block put the one before back)

                def show(message, category, filename, lineno, file=None, line=None):
                    texts = getattr(state, "texts", None)
                    if texts is not None and str(message).startswith("logscan: "):
                        texts.append(str(message))
                    else:
                        shown(message, category, filename, lineno, file, line)

                warnings.showwarning = warnings._logscan_fleet_show = show
                # (each file's words every time, not once per place in the code)
                warnings.filterwarnings("always", message="logscan: ", category=RuntimeWarning)
        self.state, self.texts = state, []

    def __enter__(self):
        self.state.texts = self.texts
        return self.texts

    def __exit__(self, *exc):
        self.state.texts = None


def _figures(path, out):
    src = _opened(path)
    try:
        # (partial=True: a killed job's cut log gives the figures of what it holds, its cut said
        # as its first error; the module's other words of a file, kept as its notes)
        with _said() as said:
            fmt = logscan.detect(src)
            out["format"] = fmt
            if fmt is None:
                return out
            if fmt == "chrome-trace":  # (read with the other ranks of its job: job_traces_figures)
                if not isinstance(src, str):
                    out["error"] = ("a Chrome trace compressed with xz or bzip2 is not read with its job's ranks "
                                    "(logscan.summary reads files and .gz): give it as .json or .json.gz")
                return out
            types = {"tvm-profile": ["call"], "paddle-log": ["train_step"], "megengine-log": ["mem_alloc"]}.get(fmt, []) + ["error"]
            # (one thread per file: the workers read file after file, each on a core of its own)
            frames = logscan.frames(src, format=fmt, types=types, partial=True, threads=1)
    finally:
        if not isinstance(src, str):
            src.close()
    cut = [t for t in said if "partial=True: what was read before it is kept" in t]
    out["notes"] += [t for t in said if t not in cut and "error record(s)" not in t]
    if cut:  # ("logscan: NAME: gzip stream cut short (...); partial=True: ...": its middle)
        name = path if isinstance(src, str) else getattr(src, "name", None)
        name = name if isinstance(name, str) else "<file>"
        why = cut[0].removeprefix(f"logscan: {name}: ").split("; partial=True")[0]
        out["errors"], out["first_error"] = 1, "read in part: " + why
    if "error" in frames:  # (error records: the file's data is partly missing, said with it)
        errors = frames["error"]
        out["errors"] += len(errors)
        first = errors.iloc[0]
        where = f"line {_int(first['line'])}: " if "line" in errors.columns and _int(first["line"]) is not None else ""
        out["first_error"] = out["first_error"] or where + str(first["message"])
    if "call" in frames:
        _operators(frames["call"], out)
    if "train_step" in frames and {"epoch", "iter", "metrics.loss"} <= set(frames["train_step"].columns):
        steps = frames["train_step"]
        # every step, in the log's order; a loss that is nan, inf or not printed is None
        out["loss"] = [(_int(e), _int(i), _number(v)) for e, i, v in zip(steps["epoch"], steps["iter"], steps["metrics.loss"])]
    if "mem_alloc" in frames:
        m = frames["mem_alloc"]
        g = m.groupby(m["physical"].astype(object).fillna(m["comp_node"].astype(object)))["alloc_mib"].max()
        out["peak_mib"] = {str(k): float(v) for k, v in g.items()}
    return out


def combine(figures, top=10):
    """The fleet's aggregates from the files' figures (in file order)."""
    figures = sorted(figures, key=lambda f: f["file"])
    operators, kernels = {}, {}
    for f in figures:
        for table, into in ((f["operators"], operators), (f["kernels"], kernels)):
            for name, (total, count) in table.items():
                t, c = into.get(name, (0, 0))
                into[name] = (t + total, c + count)

    def ranked(d):
        rows = sorted(d.items(), key=lambda kv: (-kv[1][0], kv[0]))[:top]
        return [{"name": n, "total": round(t, 6), "count": c} for n, (t, c) in rows]

    formats = {}
    for f in figures:
        formats[f["format"] or "unknown"] = formats.get(f["format"] or "unknown", 0) + 1
    return {
        "files": len(figures),
        "bytes": sum(f["bytes"] for f in figures),
        "formats": dict(sorted(formats.items())),
        "top_operators": ranked(operators),
        "untimed_calls": sum(f["untimed_calls"] for f in figures),
        "top_kernels": ranked(kernels),
        "loss_curves": {f["file"]: f["loss"] for f in figures if f["loss"]},
        "peak_memory_mib": {f["file"]: f["peak_mib"] for f in figures if f["peak_mib"]},
        "chrome_ranks": {f["file"]: f["ranks"] for f in figures if f["ranks"]},
        "with_errors": {f["file"]: [f["errors"], f["first_error"]] for f in figures if f["errors"]},
        "unknown": [f["file"] for f in figures if f["format"] is None and not f["error"]],
        "notes": [n for f in figures for n in f.get("notes", [])],
        "failed": {f["file"]: f["error"] for f in figures if f["error"]},
    }


def job_traces_figures(paths):
    """The figures of one job's Chrome traces, its ranks (runs on a worker): HTA's figures over
    the ranks together, as `logscan summary` of the job's files gives them (every rank's
    profiler steps decide each rank's window), each rank's given to its file with its errors;
    what the summary says of the job (several files claiming one rank) kept as its notes."""
    outs = {p: {"file": p, "format": "chrome-trace", "bytes": 0, "operators": {}, "untimed_calls": 0, "kernels": {},
                "loss": [], "peak_mib": {}, "ranks": [], "errors": 0, "first_error": None, "error": None, "notes": []}
            for p in paths}
    try:
        for p in paths:
            outs[p]["bytes"] = os.path.getsize(p)
        with _said() as said:  # (a broken document: said, kept with its file)
            s = logscan.summary(paths, partial=True, threads=1)
    except Exception as e:  # (the job's files not read together: each says why)
        for o in outs.values():
            o["error"] = f"{type(e).__name__}: {e}"
        return list(outs.values())
    # a rank's file by its name as the summary writes it (a name that is not UTF-8: its bytes decoded with U+FFFD)
    by_name = {}
    for p in paths:
        b = os.path.basename(p)
        by_name[b] = p
        by_name[os.fsencode(b).decode("utf-8", "replace")] = p
    for r in s["ranks"]:
        p = by_name.get(r["file"])
        if p is None:  # (no input of that name: said, not given to another file)
            outs[paths[0]]["notes"].append(f"rank {r['rank']} of file {r['file']!r} matched no input of {os.path.dirname(paths[0])}")
            continue
        out = outs[p]
        out["ranks"].append({"rank": r["rank"], "kernel_type_time_us": r["kernel_type_time_us"],
                             "temporal_breakdown": r["temporal_breakdown"]})
        for k in r["kernels_by_name"]:
            total, count = out["kernels"].get(k["name"], (0, 0))
            out["kernels"][k["name"]] = (total + k["sum_us"], count + k["count"])
        for e in r["document_errors"]:
            out["errors"] += 1
            out["first_error"] = out["first_error"] or str(e.get("message", e))
    for text in said:  # (a warning about one file begins with its name and a colon; any other is the job's)
        out = next((outs[p] for p in paths if text.startswith(p + ":") or text.startswith("logscan: " + p + ":")), None)
        if out is None:
            outs[paths[0]]["notes"].append(text)
        elif out["first_error"] is None:
            out["errors"] += 1
            out["first_error"] = text
    return list(outs.values())


def fleet(files, client, top=10):
    """The aggregates over `files`: on the Dask cluster of `client`, or in this process (None).
    Each file is read on its own, but a directory's Chrome traces together: they are the ranks
    of one job (`job_traces_figures`)."""
    if client is None:
        run = lambda f, items: [f(x) for x in items]  # noqa: E731
    else:
        import dask.bag as db

        workers = max(1, len(client.scheduler_info()["workers"]))

        def run(f, items):  # (on this client's cluster)
            if not items:
                return []
            bag = db.from_sequence(items, npartitions=max(1, min(len(items), 8 * workers)))
            return client.compute(bag.map(f)).result()

    figures = run(file_figures, sorted(files))
    jobs = {}
    for f in figures:
        if f["format"] == "chrome-trace" and not f["error"]:
            jobs.setdefault(os.path.dirname(f["file"]), []).append(f["file"])
    traces = {f["file"]: f for job in run(job_traces_figures, [sorted(v) for _, v in sorted(jobs.items())]) for f in job}
    return combine([traces.get(f["file"], f) for f in figures], top)


def runs_of(points):
    """A job's training steps cut into runs: a run ends where (epoch, iter) does not go up (a
    job restarted in the same log; `iter` alone where either step prints no epoch), so no
    curve splices two runs."""
    runs, last = [], None
    for e, i, v in points:
        it = -1 if i is None else i
        if last is None:
            new = True
        elif e is None or last[0] is None:
            new = it <= last[1]
        else:
            new = (e, it) <= last
        if new:
            runs.append([])
        runs[-1].append((e, i, v))
        last = (e, it)
    return runs


def loss_frame(result):
    """The loss curves side by side: a DataFrame indexed by (epoch, iter), a column per job's
    run (`JOB`, then `JOB (run 2)`, ... where a log holds restarts); NaN where a step's loss is
    nan, inf or not printed."""
    import pandas as pd

    cols = {}
    for job, points in result["loss_curves"].items():
        for k, run in enumerate(runs_of(points)):
            cols[job if k == 0 else f"{job} (run {k + 1})"] = pd.Series(
                {(e, i): float("nan") if v is None else v for e, i, v in run}, dtype="float64")
    return pd.DataFrame(cols).sort_index()


def files_of(args):
    out = []
    for a in args:
        if os.path.isdir(a):
            for root, _, names in os.walk(a):
                out += [os.path.join(root, n) for n in names]
        else:
            out += [p for p in glob.glob(a, recursive=True) if os.path.isfile(p)]
    return sorted({os.path.abspath(p) for p in out})  # (workers may run elsewhere: absolute paths)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("inputs", nargs="+", help="directories or globs of logs and traces")
    ap.add_argument("--scheduler", help="a Dask scheduler's address (default: a LocalCluster)")
    ap.add_argument("--workers", type=int, default=2, help="LocalCluster workers (default 2)")
    ap.add_argument("--no-dask", action="store_true", help="read every file in this process")
    ap.add_argument("--top", type=int, default=10, help="rows of each ranked list and of each per-file list (default 10)")
    ap.add_argument("--json", help="write every figure to this file")
    a = ap.parse_args(argv)
    files = files_of(a.inputs)
    if not files:
        ap.error("no files in " + " ".join(a.inputs))
    start = time.perf_counter()
    if a.no_dask:
        result, where = fleet(files, None, a.top), "one process"
    else:
        from distributed import Client, LocalCluster

        if a.scheduler:
            client, cluster = Client(a.scheduler), None
        else:
            cluster = LocalCluster(n_workers=a.workers, threads_per_worker=1, processes=True, dashboard_address=None)
            client = Client(cluster)
        with client:
            ready = time.perf_counter()
            result = fleet(files, client, a.top)
            n = len(client.scheduler_info()["workers"])
            where = f"{n} Dask worker{'s' if n != 1 else ''}"
            start = ready  # (the cluster's start-up is not the work)
        if cluster is not None:
            cluster.close()
    seconds = time.perf_counter() - start
    print(f"{result['files']} files, {result['bytes'] / 1e6:.1f} MB on disk, {seconds:.2f} s on {where}: {result['formats']}")

    def first(items, what):
        """The first --top of a per-file list, and how many more (every one is in --json)."""
        items = list(items)
        if len(items) > a.top:
            return items[: a.top], f"  ... and {len(items) - a.top} more {what} (--json has every one)"
        return items, None

    for title, rows, unit in (("top operators (TVM calls)", result["top_operators"], "us"),
                              ("top GPU kernels (Chrome traces)", result["top_kernels"], "us")):
        if rows:
            print(f"{title}, total {unit} over all runs (x: calls):")
            for r in rows:
                print(f"  {r['total']:14.1f}  x{r['count']:<6} {r['name'][:90]}")
    if result["untimed_calls"]:
        print(f"  ({result['untimed_calls']} TVM call rows without a finite duration, not ranked)")
    if result["loss_curves"]:
        lf = loss_frame(result)
        bad = sum(1 for points in result["loss_curves"].values() for _, _, v in points if v is None)
        print(f"loss curves of {lf.shape[1]} runs of {len(result['loss_curves'])} jobs side by side ({lf.shape[0]} steps)"
              + (f"; {bad} steps whose loss is nan, inf or not printed" if bad else "") + "; last finite values:")
        print(lf.ffill().iloc[-1].rename("last loss").head(a.top).to_string())
        if lf.shape[1] > a.top:
            print(f"  ... and {lf.shape[1] - a.top} more runs (--json has every one)")
    shown, more = first(result["peak_memory_mib"].items(), "jobs")
    for job, nodes in shown:
        print(f"peak static memory {job}: " + ", ".join(f"{n} {v:.4g} MiB" for n, v in sorted(nodes.items())))
    if more:
        print(more)
    shown, more = first(result["chrome_ranks"].items(), "traces")
    for job, ranks in shown:
        for r in ranks:
            t = r["temporal_breakdown"]
            print(f"{job} rank {r['rank']}: idle {t['idle_time_pctg']}%, compute {t['compute_time_pctg']}%, "
                  f"non-compute {t['non_compute_time_pctg']}%; kernel types {r['kernel_type_time_us']}")
    if more:
        print(more)
    for title, items in (("read, with error records or in part (their figures lack what the errors cut)",
                          [(f, f"{n} error record(s), the first: {e}") for f, (n, e) in result["with_errors"].items()]),
                         ("not read", list(result["failed"].items())),
                         ("of no format logscan reads (or empty)", [(f, None) for f in result["unknown"]])):
        shown, more = first(items, "files")
        if shown:
            print(f"{len(items)} file(s) {title}:")
        for job, what in shown:
            print(f"  {job}" + (f": {what}" if what else ""))
        if more:
            print(more)
    for n in result["notes"]:
        print(f"note: {n}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(result, f, indent=1)
    # (as the command: 1 when a file could not be read or had error records)
    return 1 if result["failed"] or result["with_errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
