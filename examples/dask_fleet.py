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
  - the top operators (TVM reports' calls, by total duration) and the top GPU kernels (Chrome
    traces, by total time), across all runs;
  - the loss curve of every job that prints one (Paddle training steps), side by side;
  - the peak static memory per job and physical comp node (MegEngine logs);
  - per Chrome trace (a rank), its kernel-type and temporal breakdowns (HTA's figures).
The workers need `logscan` importable (PYTHONPATH, or the package installed) and the files
at the same paths. `fleet(files, client)` and `fleet(files, None)` (one process, no Dask) give
the same figures: the test (python/tests/test_dask_fleet.py) checks it.
"""
import argparse
import glob
import json
import os
import sys
import time

import logscan


def _int(x):
    """An integer cell (None where the record has none: a NaN in a float64 column)."""
    return None if x is None or x != x else int(x)


def file_figures(path):
    """The figures of one file (runs on a worker). Small: top-level dicts of numbers. A file
    that cannot be read has its error instead (the others go on)."""
    out = {"file": path, "format": None, "bytes": 0, "operators": {}, "kernels": {},
           "loss": [], "peak_mib": {}, "ranks": [], "error": None}
    try:
        out["bytes"] = os.path.getsize(path)
        return _figures(path, out)
    except (OSError, ValueError) as e:
        out["error"] = f"{type(e).__name__}: {e}"
        return out


def _figures(path, out):
    fmt = logscan.detect(path)
    out["format"] = fmt
    if fmt is None:
        return out
    if fmt == "chrome-trace":
        s = logscan.summary(path)
        for r in s["ranks"]:
            out["ranks"].append({"rank": r["rank"], "kernel_type_time_us": r["kernel_type_time_us"],
                                 "temporal_breakdown": r["temporal_breakdown"]})
            for k in r["kernels_by_name"]:
                total, count = out["kernels"].get(k["name"], (0, 0))
                out["kernels"][k["name"]] = (total + k["sum_us"], count + k["count"])
        return out
    types = {"tvm-profile": ["call"], "paddle-log": ["train_step"], "megengine-log": ["mem_alloc"]}.get(fmt)
    if types is None:
        return out
    frames = logscan.frames(path, format=fmt, types=types)
    if "call" in frames and "cells.Duration (us)" in frames["call"]:
        calls = frames["call"]
        g = calls.groupby("name", observed=True)["cells.Duration (us)"].agg(["sum", "count"])
        out["operators"] = {str(n): (float(row["sum"]), int(row["count"])) for n, row in g.iterrows()}
    if "train_step" in frames and {"epoch", "iter", "metrics.loss"} <= set(frames["train_step"].columns):
        steps = frames["train_step"].dropna(subset=["metrics.loss"])
        out["loss"] = [(_int(e), _int(i), float(v)) for e, i, v in zip(steps["epoch"], steps["iter"], steps["metrics.loss"])]
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
        "top_kernels": ranked(kernels),
        "loss_curves": {f["file"]: f["loss"] for f in figures if f["loss"]},
        "peak_memory_mib": {f["file"]: f["peak_mib"] for f in figures if f["peak_mib"]},
        "chrome_ranks": {f["file"]: f["ranks"] for f in figures if f["ranks"]},
        "failed": {f["file"]: f["error"] for f in figures if f["error"]},
    }


def fleet(files, client, top=10):
    """The aggregates over `files`: on the Dask cluster of `client`, or in this process (None)."""
    if client is None:
        return combine([file_figures(p) for p in files], top)
    import dask.bag as db

    workers = max(1, len(client.scheduler_info()["workers"]))
    bag = db.from_sequence(sorted(files), npartitions=max(1, min(len(files), 8 * workers)))
    return combine(client.compute(bag.map(file_figures)).result(), top)  # (on this client's cluster)


def loss_frame(result):
    """The loss curves side by side: a DataFrame indexed by (epoch, iter), a column per job."""
    import pandas as pd

    cols = {}
    for job, points in result["loss_curves"].items():
        cols[job] = pd.Series({(e, i): v for e, i, v in points})
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
    ap.add_argument("--top", type=int, default=10)
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
    print(f"{result['files']} files, {result['bytes'] / 1e6:.1f} MB, {seconds:.2f} s on {where}: {result['formats']}")
    for title, rows, unit in (("top operators (TVM calls)", result["top_operators"], "us"),
                              ("top GPU kernels (Chrome traces)", result["top_kernels"], "us")):
        if rows:
            print(f"{title}, total {unit} over all runs:")
            for r in rows:
                print(f"  {r['total']:14.1f}  x{r['count']:<6} {r['name'][:90]}")
    if result["loss_curves"]:
        lf = loss_frame(result)
        print(f"loss curves of {lf.shape[1]} jobs side by side ({lf.shape[0]} steps); last values:")
        print(lf.ffill().iloc[-1].rename("last loss").head(a.top).to_string())
    for job, nodes in list(result["peak_memory_mib"].items())[: a.top]:
        print(f"peak static memory {job}: " + ", ".join(f"{n} {v:.1f} MiB" for n, v in sorted(nodes.items())))
    for job, ranks in list(result["chrome_ranks"].items())[: a.top]:
        for r in ranks:
            t = r["temporal_breakdown"]
            print(f"{job} rank {r['rank']}: idle {t['idle_time_pctg']}%, compute {t['compute_time_pctg']}%, "
                  f"non-compute {t['non_compute_time_pctg']}%; kernel types {r['kernel_type_time_us']}")
    for job, error in list(result["failed"].items())[: a.top]:
        print(f"not read: {job}: {error}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(result, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
