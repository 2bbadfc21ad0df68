# SPDX-License-Identifier: MIT
# examples/dask_fleet.py on a LocalCluster with 2 workers, over a few hundred generated files
# of mixed formats (the samples, each cut at its own line so that no two jobs are alike, and
# the Chrome traces): every aggregate must equal the same computed here in one process,
# independently, from logscan.records (plain dicts) and the command's summary.
import bz2
import collections
import gzip
import json
import lzma
import os
import shutil
import subprocess
import sys

import pytest

import logscan

SRC = os.environ.get("LOGSCAN_SOURCE_DIR") or os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CLI = os.environ.get("LOGSCAN_CLI")
EXAMPLES = os.path.join(SRC, "examples")
sys.path.insert(0, EXAMPLES)
os.environ["PYTHONPATH"] = os.pathsep.join([EXAMPLES] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])
import dask_fleet  # noqa: E402

TEXT = ["samples/000_cf8afa6c099f806b.txt", "samples/003_1c776201c8b5b83e.txt", "samples/004_d73c77cb3fb2895c.txt",
        "samples/today/ppdet_repo_dy_loss_log_2020.txt", "samples/today/mge_documentation_lar_debug_static_mem_compnode_wide.txt",
        "samples/today/arachne_readme_jetson_tensorrt_debug_table.txt", "samples/today/tvm_pr3727_old_vm_profiler_tabs.txt",
        "tests/data/tvm_profile_today_hand.txt"]  # (the last: every TVM table form in one file)
TRACES = ["samples/chrome/event_sync_trace.json.gz", "samples/chrome/mi250_minitoy_train_ROCm6_2_kineto.json.gz"]


@pytest.fixture(scope="module")
def fleet_dir(tmp_path_factory):
    d = tmp_path_factory.mktemp("fleet")
    n = 0
    for i in range(40):  # 40 jobs: every text sample cut at its own line, and the traces
        job = d / f"job{i:03d}"
        job.mkdir()
        for t in TEXT:
            lines = open(os.path.join(SRC, t), "rb").read().splitlines(keepends=True)
            keep = len(lines) - (i * 37) % max(1, len(lines) // 2)
            (job / os.path.basename(t)).write_bytes(b"".join(lines[:keep]))
            n += 1
        if i % 4 == 0:
            for t in TRACES:
                shutil.copy(os.path.join(SRC, t), job / f"rank{i % 3}.{os.path.basename(t)}")
                n += 1
    # what a real fleet also holds: a job restarted in the same log (its iterations start again),
    # a report whose duration cell is not a number on a repeated operator (an object column), a
    # file of no format, an empty one, a trace cut short, a log with a line past --max-line
    paddle = open(os.path.join(SRC, "samples", "003_1c776201c8b5b83e.txt"), "rb").read()
    (d / "job_restart").mkdir()
    (d / "job_restart" / "train.log").write_bytes(paddle + paddle)
    report = open(os.path.join(SRC, "samples", "004_d73c77cb3fb2895c.txt"), "rb").read().splitlines(keepends=True)
    row = next(k for k, l in enumerate(report) if l.startswith(b"vm_mod_fused"))
    name = report[row].split()[0]
    odd = report[row].replace(report[row].split()[1], b"n/a".rjust(len(report[row].split()[1])), 1)
    (d / "job_odd").mkdir()
    (d / "job_odd" / "report.txt").write_bytes(b"".join(report[: row + 1] + [odd] + report[row + 1:]))
    assert name in odd
    (d / "job_bad").mkdir()
    (d / "job_bad" / "notes.txt").write_bytes(b"just some notes\n")
    (d / "job_bad" / "empty.log").write_bytes(b"")
    trace = gzip.decompress(open(os.path.join(SRC, TRACES[0]), "rb").read())
    (d / "job_bad" / "cut.json").write_bytes(trace[: len(trace) // 2])
    (d / "job_bad" / "long.log").write_bytes(paddle[:2000] + b"x" * (2 << 20) + b"\n" + paddle[2000:4000])
    assert n > 250
    return str(d)


def finite(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and v == v and abs(v) != float("inf")


def expected(files):
    """The aggregates, computed from logscan.records and the command's summary --json."""
    ops, kernels, loss, peak, ranks, errors, unknown = {}, {}, {}, {}, {}, {}, []
    untimed = 0
    jobs = {}  # a directory's traces: the ranks of one job, summarised together by the command
    for p in files:
        if logscan.detect(p) == "chrome-trace":
            jobs.setdefault(os.path.dirname(p), []).append(p)
    for job, traces in jobs.items():
        s = json.loads(subprocess.run([CLI, "summary", "--json"] + sorted(traces), capture_output=True).stdout)
        for r in s["ranks"]:
            p = os.path.join(job, r["file"])
            ranks.setdefault(p, []).append((r["rank"], r["kernel_type_time_us"], r["temporal_breakdown"]))
            for k in r["kernels_by_name"]:
                t, c = kernels.get(k["name"], (0, 0))
                kernels[k["name"]] = (t + k["sum_us"], c + k["count"])
            if r["document_errors"]:
                errors[p] = len(r["document_errors"])
    for p in files:
        fmt = logscan.detect(p)
        if fmt is None:
            unknown.append(p)
            continue
        if fmt == "chrome-trace":
            continue
        steps, has_loss, table_names, last_line = [], False, set(), None
        for r in logscan.records(p, format=fmt):
            if r["type"] == "call":
                # a row's duration: the first of a report's, the graph debug executor's and the VM
                # profiler's duration cells that it has with a value (a file may hold every form)
                cells = r["cells"]
                key = next((k for k in ("Duration (us)", "Time(us)", "Duration(us): Sum/Mean/Min/Max") if cells.get(k) is not None), None)
                d = cells.get(key) if key else None
                if key == "Time(us)":  # graph debug: a node once per table (its rows are consecutive lines)
                    if last_line is None or r["line"] != last_line + 1:
                        table_names = set()
                    last_line = r["line"]
                    if r["name"] in table_names:
                        continue
                    table_names.add(r["name"])
                if isinstance(d, list):
                    d = d[0] if d else None
                if not finite(d):
                    untimed += 1
                    continue
                n = next((cells[k] for k in ("Count", "InvokeCount") if finite(cells.get(k))), None)
                t, c = ops.get(r["name"], (0, 0))
                ops[r["name"]] = (t + d, c + (int(n) if n is not None else 1))
            elif r["type"] == "train_step":
                has_loss = has_loss or "loss" in r["metrics"]
                v = r["metrics"].get("loss")
                steps.append((r["epoch"], r["iter"], float(v) if finite(v) else None))
            elif r["type"] == "mem_alloc":
                node = r["physical"] or r["comp_node"]
                peak.setdefault(p, {})[node] = max(peak.get(p, {}).get(node, float("-inf")), r["alloc_mib"])
            elif r["type"] == "error":
                errors[p] = errors.get(p, 0) + 1
        if has_loss:
            loss[p] = steps
    return ops, kernels, loss, peak, ranks, errors, unknown, untimed


def test_dask_fleet_equals_one_process(fleet_dir):
    from distributed import Client, LocalCluster

    files = dask_fleet.files_of([fleet_dir])
    ops, kernels, loss, peak, ranks, errors, unknown, untimed = expected(files)
    assert ops and kernels and loss and peak and ranks and errors and unknown and untimed  # every aggregate has data
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, Client(cluster) as client:
        assert len(client.scheduler_info()["workers"]) == 2
        got = dask_fleet.fleet(files, client, top=len(ops) + len(kernels))
    assert got["files"] == len(files) and got["failed"] == {}
    assert got["bytes"] == sum(os.path.getsize(p) for p in files)
    assert sorted(got["unknown"]) == sorted(unknown) and got["untimed_calls"] == untimed
    # a trace job of two public traces, which both claim rank 0: the summary's note kept, one per job
    per_job = collections.Counter(os.path.dirname(p) for p in ranks)
    assert len([n for n in got["notes"] if "claim rank 0" in n]) == sum(1 for n in per_job.values() if n >= 2) > 0
    assert {f: n for f, (n, _) in got["with_errors"].items()} == errors
    # the restarted job's steps are two runs (the log's two copies), not one spliced curve
    restart = next(p for p in loss if "job_restart" in p)
    runs = dask_fleet.runs_of(got["loss_curves"][restart])
    assert len(runs) == 2 and runs[0] == runs[1] and len(runs[0]) * 2 == len(loss[restart])
    for rows, want in ((got["top_operators"], ops), (got["top_kernels"], kernels)):
        assert {r["name"] for r in rows} == set(want)
        for r in rows:
            assert r["total"] == pytest.approx(want[r["name"]][0], rel=1e-9)
            assert r["count"] == want[r["name"]][1]
        assert [r["total"] for r in rows] == sorted((r["total"] for r in rows), reverse=True)
    assert {k: [tuple(x) for x in v] for k, v in got["loss_curves"].items()} == loss
    assert got["peak_memory_mib"] == peak
    assert {k: [(r["rank"], r["kernel_type_time_us"], r["temporal_breakdown"]) for r in v] for k, v in got["chrome_ranks"].items()} == ranks
    # the same in one process, without Dask
    assert dask_fleet.fleet(files, None, top=len(ops) + len(kernels)) == got


def test_dask_fleet_command(fleet_dir, tmp_path):
    out = tmp_path / "fleet.json"
    r = subprocess.run([sys.executable, os.path.join(EXAMPLES, "dask_fleet.py"), fleet_dir, "--workers", "2", "--json", str(out)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 1, r.stderr  # (files with error records: said, as the command says them)
    assert "2 Dask workers" in r.stdout and "loss curves of" in r.stdout
    assert "file(s) read, with error records" in r.stdout and "file(s) of no format logscan reads" in r.stdout
    got = json.load(open(out))
    assert got["files"] == len(dask_fleet.files_of([fleet_dir]))


def test_a_file_that_cannot_be_read_does_not_stop_the_fleet(tmp_path):
    # a killed job's cut .gz log: the figures of what it holds, its cut its first error; a log
    # kept as .xz or .bz2: read as its text (helper-54 found them "not read" and "of no format");
    # a file that cannot be read at all: said, and the others go on
    data = open(os.path.join(SRC, "samples", "003_1c776201c8b5b83e.txt"), "rb").read()
    job = tmp_path / "job: 7"  # (a name with ': ' in it, as the module's words have after a name)
    job.mkdir()
    good = job / "a.log"
    good.write_bytes(data)
    cut = job / "b.log.gz"
    cut.write_bytes(gzip.compress(data)[: len(gzip.compress(data)) // 2])
    (job / "c.log.xz").write_bytes(lzma.compress(data))
    (job / "d.log.bz2").write_bytes(bz2.compress(data))
    unreadable = job / "e.log"  # (a link to a log moved away)
    unreadable.symlink_to(job / "moved.log")
    # a job's traces, one of them kept as .xz: not read with its job (summary reads files and .gz), said
    traces = tmp_path / "traces"
    traces.mkdir()
    gz = open(os.path.join(SRC, "samples", "chrome", "event_sync_trace.json.gz"), "rb").read()
    (traces / "rank0.json.gz").write_bytes(gz)
    (traces / "rank1.json.xz").write_bytes(lzma.compress(gzip.decompress(gz)))
    got = dask_fleet.fleet(dask_fleet.files_of([str(tmp_path)]), None)
    want = [(s["epoch"], s["iter"], s["metrics"]["loss"]) for s in logscan.records(data, types="train_step")]
    assert {k: [tuple(x) for x in v] for k, v in got["loss_curves"].items()} == {
        str(good): want, str(job / "c.log.xz"): want, str(job / "d.log.bz2"): want,
        str(cut): want[: len(got["loss_curves"][str(cut)])]}
    assert 0 < len(got["loss_curves"][str(cut)]) < len(want)  # (what the cut holds)
    n, first = got["with_errors"][str(cut)]
    assert n == 1 and first == "read in part: gzip stream cut short (the records before it were read)"
    assert sorted(got["failed"]) == sorted([str(unreadable), str(traces / "rank1.json.xz")])
    assert "FileNotFoundError" in got["failed"][str(unreadable)]
    assert "give it as .json or .json.gz" in got["failed"][str(traces / "rank1.json.xz")]
    assert list(got["chrome_ranks"]) == [str(traces / "rank0.json.gz")]  # (its job's other rank, read)


def test_runs_of_cuts_a_restart_only():
    runs = dask_fleet.runs_of
    pts = lambda *xs: [(e, i, 1.0) for e, i in xs]  # noqa: E731
    # epochs whose iterations start again at 0: one run; a restart of (epoch, iter): two
    assert len(runs(pts((0, 0), (0, 20), (1, 0), (1, 20)))) == 1
    assert [len(r) for r in runs(pts((0, 0), (0, 20), (1, 0), (0, 0), (0, 20)))] == [3, 2]
    # where either step prints no epoch, `iter` alone decides
    assert len(runs(pts((3, 120), (None, 140), (None, 160)))) == 1
    assert [len(r) for r in runs(pts((None, 140), (None, 160), (4, 0)))] == [2, 1]
    assert [len(r) for r in runs(pts((None, 20), (None, 40), (None, 20)))] == [2, 1]
