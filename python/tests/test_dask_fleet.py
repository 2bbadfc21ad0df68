# SPDX-License-Identifier: MIT
# examples/dask_fleet.py on a LocalCluster with 2 workers, over a few hundred generated files
# of mixed formats (the samples, each cut at its own line so that no two jobs are alike, and
# the Chrome traces): every aggregate must equal the same computed here in one process,
# independently, from logscan.records (plain dicts) and the command's summary.
import gzip
import json
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
        "samples/today/arachne_readme_jetson_tensorrt_debug_table.txt"]
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
    assert n > 250
    return str(d)


def expected(files):
    """The aggregates, computed from logscan.records and the command's summary --json."""
    ops, kernels, loss, peak, ranks = {}, {}, {}, {}, {}
    for p in files:
        fmt = logscan.detect(p)
        if fmt == "chrome-trace":
            s = json.loads(subprocess.run([CLI, "summary", "--json", p], capture_output=True, check=True).stdout)
            ranks[p] = [(r["rank"], r["kernel_type_time_us"], r["temporal_breakdown"]) for r in s["ranks"]]
            for r in s["ranks"]:
                for k in r["kernels_by_name"]:
                    t, c = kernels.get(k["name"], (0, 0))
                    kernels[k["name"]] = (t + k["sum_us"], c + k["count"])
            continue
        for r in logscan.records(p, format=fmt):
            if r["type"] == "call" and "Duration (us)" in r["cells"]:
                t, c = ops.get(r["name"], (0, 0))
                ops[r["name"]] = (t + r["cells"]["Duration (us)"], c + 1)
            elif r["type"] == "train_step" and r["metrics"].get("loss") is not None:
                loss.setdefault(p, []).append((r["epoch"], r["iter"], r["metrics"]["loss"]))
            elif r["type"] == "mem_alloc":
                node = r["physical"] or r["comp_node"]
                peak.setdefault(p, {})[node] = max(peak.get(p, {}).get(node, float("-inf")), r["alloc_mib"])
    return ops, kernels, loss, peak, ranks


def test_dask_fleet_equals_one_process(fleet_dir):
    from distributed import Client, LocalCluster

    files = dask_fleet.files_of([fleet_dir])
    ops, kernels, loss, peak, ranks = expected(files)
    assert ops and kernels and loss and peak and ranks  # every aggregate has data
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, Client(cluster) as client:
        assert len(client.scheduler_info()["workers"]) == 2
        got = dask_fleet.fleet(files, client, top=len(ops) + len(kernels))
    assert got["files"] == len(files) and got["failed"] == {}
    assert got["bytes"] == sum(os.path.getsize(p) for p in files)
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
    assert r.returncode == 0, r.stderr
    assert "2 Dask workers" in r.stdout and "loss curves of" in r.stdout
    got = json.load(open(out))
    assert got["files"] == len(dask_fleet.files_of([fleet_dir]))


def test_a_file_that_cannot_be_read_does_not_stop_the_fleet(tmp_path):
    good = tmp_path / "a.log"
    good.write_bytes(open(os.path.join(SRC, "samples", "003_1c776201c8b5b83e.txt"), "rb").read())
    cut = tmp_path / "b.log.gz"
    cut.write_bytes(gzip.compress(good.read_bytes())[:2000])
    got = dask_fleet.fleet(dask_fleet.files_of([str(tmp_path)]), None)
    assert list(got["failed"]) == [str(cut)] and "gzip" in got["failed"][str(cut)]
    assert list(got["loss_curves"]) == [str(good)]
