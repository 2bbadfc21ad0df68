# SPDX-License-Identifier: MIT
# The Python module against the command: records() must be what `logscan convert` writes
# (json.loads of each NDJSON line, keys in the same order), frames() the same records
# flattened as the CSV writer names its columns (computed here from the NDJSON, in Python),
# summary() what `logscan summary --json` prints and the figures HTA computes on the public
# traces (samples/chrome/expected). Inputs: every sample and every hand-written input of
# tests/data. Run by ctest (python.pytest) with PYTHONPATH=<build>/python, LOGSCAN_CLI and
# LOGSCAN_SOURCE_DIR set.
import collections.abc
import gzip
import zlib
import io
import json
import lzma
import math
import os
import re
import tempfile
import pickle
import subprocess
import sys
import threading
import time
import warnings

import numpy as np
import pandas as pd
import pytest

import logscan

SRC = os.environ.get("LOGSCAN_SOURCE_DIR") or os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CLI = os.environ.get("LOGSCAN_CLI")
if not CLI:
    pytest.exit("LOGSCAN_CLI (the logscan command) is not set: run through ctest", returncode=2)


def _inputs():
    out = []
    for d in ("samples", "samples/today", "samples/chrome"):
        for f in sorted(os.listdir(os.path.join(SRC, d))):
            p = os.path.join(SRC, d, f)
            if os.path.isfile(p) and not f.endswith(".md") and not f.startswith("LICENSE"):
                out.append(p)
    for d in ("tests/data", "tests/data/detect", "tests/data/chrome_summary"):
        for f in sorted(os.listdir(os.path.join(SRC, d))):
            p = os.path.join(SRC, d, f)
            if os.path.isfile(p):
                out.append(p)
    return out


INPUTS = _inputs()


def run(*args, input=None):
    return subprocess.run([CLI, *args], capture_output=True, input=input)


def cli_format(path):
    r = run("detect", path)
    if r.returncode != 0:
        return None
    return r.stdout.decode().rsplit(": ", 1)[1].strip()


def cli_records(path, fmt, *options):
    r = run("convert", "--format", fmt, *options, path)
    return [json.loads(line) for line in r.stdout.decode("utf-8").splitlines()]


def ids(paths):
    return [os.path.relpath(p, SRC) for p in paths]


@pytest.mark.parametrize("path", INPUTS, ids=ids(INPUTS))
def test_detect_is_the_commands(path):
    assert logscan.detect(path) == cli_format(path)


@pytest.mark.parametrize("path", INPUTS, ids=ids(INPUTS))
def test_records_are_the_ndjson(path):
    fmt = cli_format(path)
    if fmt is None:
        if open(path, "rb").read().strip() == b"":
            assert list(logscan.records(path)) == []  # blanks only: no format, no records
        else:
            with pytest.raises(ValueError, match="format not recognised"):
                list(logscan.records(path))
        return
    expected = cli_records(path, fmt)
    got = list(logscan.records(path, format=fmt))
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        assert g == e
        # the same keys in the same order at every depth, ints as ints and floats as floats
        assert json.dumps(g) == json.dumps(e)
    if fmt == cli_format(path):
        assert list(logscan.records(path)) == got  # detected


def flatten(record):
    """The CSV writer's columns of one record: nested objects as dotted names, arrays as
    their JSON text, without "type"."""
    out = {}

    def walk(prefix, obj):
        for k, v in obj.items():
            if prefix == "" and k == "type":
                continue
            name = prefix + k
            if isinstance(v, dict):
                walk(name + ".", v)
            elif isinstance(v, list):
                out.setdefault(name, json.dumps(v, separators=(",", ":"), ensure_ascii=False))
            else:
                out.setdefault(name, v)

    walk("", record)
    return out


def cell(v):
    """A frame's cell as a plain Python value (None where missing)."""
    if v is None:
        return None
    if isinstance(v, float) and math.isnan(v):
        return None
    if isinstance(v, np.generic):
        return v.item()
    return v


@pytest.mark.parametrize("path", INPUTS, ids=ids(INPUTS))
def test_frames_are_the_records_flattened(path):
    fmt = cli_format(path)
    if fmt is None:
        return
    expected = {}
    for r in cli_records(path, fmt):
        expected.setdefault(r["type"], []).append(flatten(r))
    frames = logscan.frames(path, format=fmt)
    assert sorted(frames) == sorted(expected)
    for t, rows in expected.items():
        f = frames[t]
        columns = []
        for row in rows:
            for c in row:
                if c not in columns:
                    columns.append(c)
        assert list(f.columns) == columns, t
        assert len(f) == len(rows)
        for c in columns:
            got = [cell(v) for v in f[c].tolist()]
            want = [row.get(c) for row in rows]
            assert got == want, (t, c)


@pytest.mark.parametrize("path", INPUTS, ids=ids(INPUTS))
def test_frames_on_threads_are_one_threads(path):
    # frames(threads=2) parses an input in parts on two threads where the command's --threads
    # does (megengine-log, paddle-log, tvm-profile, a chainer-memtrace graph; not a JSON
    # document): the same frames, column for column (names, their order, dtypes, categories and
    # their order, values), and the same warnings or failure, whatever the parts' size (1
    # byte: a part per line, most of them read again by the parser before, a record across
    # the cut)
    fmt = cli_format(path)
    if fmt is None:
        return

    def read(**kw):
        with warnings.catch_warnings(record=True) as said:
            warnings.simplefilter("always")
            try:
                f, failure = logscan.frames(path, format=fmt, **kw), None
            except OSError as e:
                f, failure = {}, str(e)
        return f, [str(w.message) for w in said], failure

    one = read(threads=1)
    # (the formats the command reads in parts: not a JSON document)
    one_thread = fmt not in ("megengine-log", "paddle-log", "tvm-profile", "chainer-memtrace") or open(path, "rb").read(1) == b"{"
    for part_size in (1, 97, 4096, 1 << 20):
        many = read(threads=2, part_size=part_size)
        kept, redone = logscan._logscan.last_frames_parts()
        if one_thread or os.path.getsize(path) <= part_size:
            assert kept + redone <= 1, part_size  # (one thread, or one part)
        elif os.path.getsize(path) > 2 * part_size:
            assert kept + redone > 1, part_size  # (read in parts)
        if os.path.basename(path) == "000_cf8afa6c099f806b.txt" and part_size == 4096:
            assert kept > 10, (kept, redone)  # (the seed log: most parts read in parallel)
        if os.path.basename(path) == "002_925085f7148f0ebf.txt" and part_size == 97:
            assert kept > 10, (kept, redone)  # (the graph: parts resumed after the records before)
        assert many[1:] == one[1:], part_size
        assert list(many[0]) == list(one[0]), part_size
        for t in one[0]:
            pd.testing.assert_frame_equal(many[0][t], one[0][t], check_exact=True, obj=f"{t} (part_size {part_size})")


def test_a_key_given_twice_on_threads():
    # a record that gives a key twice leaves its first string in the column's pool, unused:
    # it still orders the categories and counts toward the interning limit, on threads as on
    # one (the part's pool replayed in its order, at its rows)
    def same(data, **kw):
        with warnings.catch_warnings(record=True) as said:
            warnings.simplefilter("always")
            one = logscan.frames(data, **kw)
            many = logscan.frames(data, threads=2, part_size=256, **kw)
        assert logscan._logscan.last_frames_parts()[0] > 1
        assert list(many) == list(one)
        for t in one:
            pd.testing.assert_frame_equal(many[t], one[t], check_exact=True)
        assert len(said) == 2 and said[0].message.args == said[1].message.args and "given twice" in str(said[0].message)
        return one

    # (a table whose header prints one column name twice: its rows' cells give that key twice,
    # as the tool printed them; each table ended by a log line, so that the parts are kept)
    def tables(rows):
        return "".join("[09/20 12:00:35] ppdet INFO: x\n-----Operator Summary-----\n-----  -  -\nName   K  K\n-----  -  -\n"
                       "op     %s  %s\n" % r for r in rows).encode()

    s = same(tables([("B", "A"), ("X", "B")] * 40), format="paddle-log")["table_row"]["cells.K"]
    assert list(s.cat.categories) == ["B", "A"] and s.tolist() == ["A", "B"] * 40  # (B came first, overwritten)
    s = same(tables(("u%d" % i, "k%d" % (i % 2)) for i in range(5000)), format="paddle-log")["table_row"]["cells.K"]
    assert s.dtype == object and s.tolist() == ["k%d" % (i % 2) for i in range(5000)]  # (the u's count toward the limit)


def test_a_document_after_a_head_of_blank_lines_on_threads():
    # a TVM Report.json() whose first byte comes after the head (read to tell the format) is
    # read whole by one parser on threads too, and its break said as one thread says it
    d = open(os.path.join(SRC, "tests", "data", "tvm_profile_report_broken.json"), "rb").read()
    data = b"\n" * (1 << 20) + d
    said = []
    for kw in ({}, {"threads": 2}):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            f = logscan.frames(data, format="tvm-profile", **kw)
        said.append(([str(x.message) for x in w], {t: len(v) for t, v in f.items()}))
    assert said[0] == said[1] and "the document breaks there" in said[0][0][0]


def test_frames_threads_and_part_size_are_checked():
    p = os.path.join(SRC, "samples", "000_cf8afa6c099f806b.txt")
    for bad in (0, 257, True, 1.5, "2"):
        with pytest.raises(ValueError, match="threads is a number of threads"):
            logscan.frames(p, threads=bad)
        with pytest.raises(ValueError, match="threads is a number of threads"):
            logscan.summary(p, threads=bad)
    for bad in (0, 1 << 31, False, 2.0):
        with pytest.raises(ValueError, match="part_size is a number of bytes"):
            logscan.frames(p, threads=2, part_size=bad)


def test_default_threads(monkeypatch, tmp_path):
    # threads=None (the default): OMP_NUM_THREADS where it is set, else the cores this process
    # may run on (at most 8); one thread for a path or bytes smaller than two parts. The
    # frames are one thread's whatever the number.
    data = open(os.path.join(SRC, "samples", "000_cf8afa6c099f806b.txt"), "rb").read()
    assert len(data) > 2 * 4096
    one = logscan.frames(data, threads=1)
    assert logscan._logscan.last_frames_parts() == (0, 0)

    def parts(source, part_size=4096, **kw):
        f = logscan.frames(source, part_size=part_size, **kw)
        kept = logscan._logscan.last_frames_parts()[0]
        want = one if source is data else logscan.frames(source, threads=1)
        assert list(f) == list(want)
        for t in want:
            pd.testing.assert_frame_equal(f[t], want[t], check_exact=True)
        return kept

    monkeypatch.setenv("OMP_NUM_THREADS", "2")
    assert parts(data) > 10  # (in parts)
    monkeypatch.setenv("OMP_NUM_THREADS", "1")
    assert parts(data) == 0  # (Dask's worker processes: one thread)
    assert parts(data, threads=2) > 10  # (a number given wins)
    monkeypatch.setenv("OMP_NUM_THREADS", "3,2")  # (OpenMP's nested form: the first level)
    assert parts(data) > 10
    monkeypatch.delenv("OMP_NUM_THREADS")
    cores = len(os.sched_getaffinity(0))
    assert (parts(data) > 10) == (cores > 1)
    assert parts(data[: 2 * 4096 - 1]) == 0  # (smaller than two parts: one thread)
    p = os.path.join(SRC, "samples", "002_925085f7148f0ebf.txt")  # (a path's size: 22 KB)
    logscan.frames(p)
    assert logscan._logscan.last_frames_parts() == (0, 0)
    gz = tmp_path / "seed.log.gz"  # (a small .gz: its text may be many parts)
    gz.write_bytes(gzip.compress(data * 8))
    assert len(gz.read_bytes()) < 2 * 65536 < 8 * len(data)
    monkeypatch.setenv("OMP_NUM_THREADS", "2")
    assert parts(str(gz), part_size=65536) > 10
    assert parts(gzip.compress(data * 8), part_size=65536) > 10  # (gzip bytes: the same)
    assert parts(data, threads=np.int64(2)) > 10  # (numpy's integers are counts too)
    # OMP_NUM_THREADS lowers the cores' number, never raises it; a value that is no number >= 1 is not used
    for env, want in (("64", min(cores, 8)), ("1", 1), ("0", min(cores, 8)), ("abc", min(cores, 8)), ("", min(cores, 8))):
        monkeypatch.setenv("OMP_NUM_THREADS", env)
        assert logscan._threads(None) == want, env
    # a named pipe: its size is not known and its bytes are the parse's alone (none read to
    # look for gzip: a buffered peek lost the log's head)
    monkeypatch.setenv("OMP_NUM_THREADS", "2")
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)

    def feed():
        with open(fifo, "wb") as w:
            w.write(data)

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    f = logscan.frames(str(fifo), part_size=4096)
    writer.join(10)
    assert logscan._logscan.last_frames_parts()[0] > 10
    for t in one:
        pd.testing.assert_frame_equal(f[t], one[t], check_exact=True)
    # summary(): the same default, the same figures
    trace = os.path.join(SRC, "samples", "chrome", "event_sync_trace.json.gz")
    monkeypatch.setenv("OMP_NUM_THREADS", "2")
    assert logscan.summary(trace, part_size=4096) == logscan.summary(trace, threads=1)


def test_frames_dtypes():
    p = os.path.join(SRC, "samples", "003_1c776201c8b5b83e.txt")  # paddle-log
    f = logscan.frames(p)
    steps = f["train_step"]
    assert steps["line"].dtype == np.int64  # no value missing
    assert steps["epoch"].dtype == np.int64
    assert steps["metrics.loss"].dtype == np.float64
    assert steps["units.ips"].dtype == "category"  # one unit on every line
    assert f["log"]["logger"].dtype == "category"
    expected_loss = [r["metrics"]["loss"] for r in logscan.records(p, types="train_step")]
    assert steps["metrics.loss"].tolist() == expected_loss
    # a column where some records have no value: float64 with NaN
    rows = f["table_row"]
    numeric_with_gaps = [c for c in rows.columns if rows[c].dtype == np.float64 and rows[c].isna().any()]
    assert numeric_with_gaps, "the profiler rows have cells some tables lack"


def test_types_filter():
    p = os.path.join(SRC, "samples", "003_1c776201c8b5b83e.txt")
    everything = list(logscan.records(p))
    steps = list(logscan.records(p, types=["train_step"]))
    assert steps == [r for r in everything if r["type"] == "train_step"]
    assert len(steps) == sum(1 for line in open(p, encoding="utf-8") if "Epoch: [" in line and "loss:" in line)
    assert list(logscan.frames(p, types="train_step")) == ["train_step"]
    with pytest.raises(ValueError, match="not a record type of paddle-log"):
        logscan.records(p, types=["train_stepp"])


@pytest.mark.parametrize(
    "name",
    ["samples/000_cf8afa6c099f806b.txt", "samples/001_825e28a4f520ddc2.txt", "samples/chrome/event_sync_trace.json.gz"],
)
def test_inputs_of_every_kind(name):
    path = os.path.join(SRC, name)
    expected = list(logscan.records(path))
    data = open(path, "rb").read()
    plain = gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data
    packed = gzip.compress(plain)
    import pathlib

    for source in (pathlib.Path(path), plain, bytearray(plain), memoryview(plain), packed, io.BytesIO(plain), io.BytesIO(packed)):
        assert list(logscan.records(source)) == expected
    with open(path, "rb") as f:
        assert list(logscan.records(f)) == expected
    assert logscan.detect(io.BytesIO(packed)) == logscan.detect(path)


def test_chunks_of_any_size():
    # a file-like that hands out 1 to 7 bytes per read gives the same records and frames
    path = os.path.join(SRC, "samples", "004_d73c77cb3fb2895c.txt")
    data = open(path, "rb").read()

    class Trickle:
        def __init__(self, b):
            self.b, self.at, self.n = b, 0, 0

        def read(self, n):
            self.n = self.n % 7 + 1
            piece = self.b[self.at : self.at + min(n, self.n)]
            self.at += len(piece)
            return piece

    assert list(logscan.records(Trickle(data))) == list(logscan.records(path))
    a, b = logscan.frames(Trickle(data)), logscan.frames(path)
    assert sorted(a) == sorted(b)
    for t in a:
        pd.testing.assert_frame_equal(a[t], b[t])


def test_large_input_in_batches():
    # more records than one batch (4096): all of them, in order
    path = os.path.join(SRC, "samples", "000_cf8afa6c099f806b.txt")
    data = open(path, "rb").read()
    one = list(logscan.records(path))
    many = list(logscan.records(data * 5))
    assert len(many) == 5 * len(one) > 4096
    assert [r["type"] for r in many] == [r["type"] for r in one] * 5


def test_columns_past_their_first_buffers():
    # 80 copies of the megengine-log sample: 314,080 var_shape rows, so each of that frame's
    # columns outgrows its malloc'd buffer (64 KiB: 8192 rows), then its first mapping (2 MiB:
    # 262,144 rows) and is moved by mremap; every value is the one copy's, copy after copy
    path = os.path.join(SRC, "samples", "000_cf8afa6c099f806b.txt")
    data = open(path, "rb").read()
    lines = data.count(b"\n")
    one, many = logscan.frames(data), logscan.frames(data * 80)
    for t, f in one.items():
        g = many[t]
        assert len(g) == 80 * len(f), t
        assert list(g.columns) == list(f.columns), t
        for c in f.columns:
            want = f[c].tolist() * 80 if c != "line" else [n + k * lines for k in range(80) for n in f[c].tolist()]
            assert [cell(v) for v in g[c].tolist()] == [cell(v) for v in want], (t, c)
            assert g[c].dtype == f[c].dtype, (t, c)
    assert len(many["var_shape"]) > 262144


def test_errors():
    with pytest.raises(FileNotFoundError) as e:
        list(logscan.records("/nonexistent/logscan.log"))
    assert e.value.filename == "/nonexistent/logscan.log"
    with pytest.raises(IsADirectoryError):
        logscan.frames(SRC)
    with pytest.raises(ValueError, match="unknown format 'paddle'"):
        logscan.records(os.path.join(SRC, "samples", "003_1c776201c8b5b83e.txt"), format="paddle")
    with pytest.raises(ValueError, match="format not recognised"):
        logscan.frames(b"hello\nworld\n")
    with pytest.raises(TypeError, match="binary mode"):
        with open(os.path.join(SRC, "samples", "003_1c776201c8b5b83e.txt"), encoding="utf-8") as f:
            list(logscan.records(f))

    class Broken:
        def read(self, n):
            raise RuntimeError("disk on fire")

    with pytest.raises(RuntimeError, match="disk on fire"):
        list(logscan.records(Broken(), format="paddle-log"))
    with pytest.raises(TypeError, match="path"):
        logscan.records(42)
    assert list(logscan.records(b"  \n\n")) == []  # blanks only: no format, no records
    assert logscan.frames(b"") == {}


def test_broken_document_keeps_records_and_warns():
    doc = open(os.path.join(SRC, "samples", "001_825e28a4f520ddc2.txt"), "rb").read()
    cut = doc[: len(doc) // 2]
    whole = list(logscan.records(doc))
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        got = list(logscan.records(cut))
    assert got[-1] == {"type": "error", "message": "invalid JSON document"}
    assert got[:-1] == whole[: len(got) - 1]  # the records before the break, as in the whole document
    assert len(got) > 100
    assert any("<bytes>:" in str(x.message) and "the document breaks there" in str(x.message) for x in w)
    line = cut.count(b"\n") + 1
    assert any(f"<bytes>:{line}:" in str(x.message) for x in w), [str(x.message) for x in w]
    # the input ends inside the document: said (a killed job's dump); a document broken before
    # its input ends is not said to be cut
    assert any("the input ends there, inside the document: cut short?" in str(x.message) for x in w)
    at = doc.index(b"},", len(cut)) + 1  # (a comma between two values: a syntax error there)
    bad = doc[:at] + b"@" + doc[at + 1 :]
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        got = list(logscan.records(bad))
    said = [str(x.message) for x in w if "the document breaks there" in str(x.message)]
    assert got[-1]["type"] == "error" and len(said) == 1 and "cut short" not in said[0], said


CHROME = sorted(f for f in os.listdir(os.path.join(SRC, "samples", "chrome")) if f.endswith(".json.gz"))


@pytest.mark.parametrize("name", CHROME)
def test_summary_is_htas_and_the_commands(name):
    path = os.path.join(SRC, "samples", "chrome", name)
    got = logscan.summary(path)
    expected = json.load(open(os.path.join(SRC, "samples", "chrome", "expected", name.replace(".json.gz", ".summary.json"))))

    def no_file(s):
        s = json.loads(json.dumps(s))
        for r in s["ranks"]:
            r.pop("file")
        return s

    assert no_file(got) == no_file(expected)
    assert got == json.loads(run("summary", "--json", path).stdout)
    # read in parts of 3000 bytes on 2 threads, from the path and from a file object
    assert logscan.summary(path, threads=2, part_size=3000) == got
    with open(path, "rb") as f:
        assert no_file(logscan.summary(f, threads=3, part_size=3000)) == no_file(got)
    with pytest.raises(ValueError, match="threads"):
        logscan.summary(path, threads=0)


def test_summary_of_ranks():
    d = os.path.join(SRC, "tests", "data", "chrome_summary")
    paths = [os.path.join(d, "rank0.json"), os.path.join(d, "rank1.json")]
    got = logscan.summary(paths)
    assert [r["file"] for r in got["ranks"]] == ["rank0.json", "rank1.json"]  # (the file's name, as the command gives it)
    assert got == json.loads(run("summary", "--json", *paths).stdout)
    # two inputs that both say rank 0 (rank0.json, mtia.json): a warning naming them, and two
    # ranks numbered 0 in the figures; rank 0 and rank 1 above warned only that their device
    # types differ (rank0.json launches with hipLaunchKernel, rank1.json with cudaLaunchKernel:
    # the lowest rank's decides, formats.md 6B.4)
    with pytest.warns(RuntimeWarning, match=r"^logscan: 2 files claim rank 0 .*rank0\.json, .*mtia\.json; each is"):
        two = logscan.summary(paths + [os.path.join(d, "mtia.json")])
    assert [r["rank"] for r in two["ranks"]] == [0, 0, 1]
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        logscan.summary(paths)
    assert [str(x.message) for x in w] == [
        f"logscan: the files' device types differ: rank 1 ({paths[1]}) NVIDIA GPU; the lowest rank's, AMD GPU, decides for all "
        "(HTA's Trace.get_device_type): are they one job's ranks?"]
    with pytest.raises(ValueError, match="chrome-trace"):
        logscan.summary(os.path.join(SRC, "samples", "003_1c776201c8b5b83e.txt"))


def test_parsing_releases_the_gil():
    # while one thread parses a large input in C++, this one keeps running Python code: the
    # longest pause between its steps is a small part of the parse (with the GIL held
    # throughout, it would be all of it). The input grows until its parse takes 0.2 s.
    from logscan import _logscan

    sample = open(os.path.join(SRC, "samples", "000_cf8afa6c099f806b.txt"), "rb").read()
    copies = 100
    for _ in range(6):
        data = sample * copies
        started, done = threading.Event(), threading.Event()
        took = []

        def parse():
            started.set()
            try:
                start = time.perf_counter()
                _logscan.columns("bytes", data, "megengine-log", ["mem_alloc"], 1 << 20, 1 << 16, False, 1, 1 << 20)  # (few records: parsing is all)
                took.append(time.perf_counter() - start)
            finally:
                done.set()  # (also when the call fails: the loop below must end)

        t = threading.Thread(target=parse)
        t.start()
        started.wait()
        last, longest = time.perf_counter(), 0.0
        while not done.is_set():
            now = time.perf_counter()
            longest = max(longest, now - last)
            last = now
        t.join()
        assert took, "the parse failed (see the thread's exception above)"
        if took[0] >= 0.2:
            break
        copies *= 2
    assert took[0] >= 0.2, took
    assert longest < 0.5 * took[0], (longest, took)


# --- what a review found (each fails without its mend) ---------------------------------------


def chrome(events):
    return json.dumps({"traceEvents": events}).encode()


def test_read_returning_a_non_buffer_is_a_type_error():
    class R:
        def read(self, n):
            return [1]

    with pytest.raises(TypeError, match="read\\(\\) returned list"):
        logscan.records(R())  # (detecting its format)
    with pytest.raises(TypeError, match="not bytes"):
        list(logscan.records(R(), format="paddle-log"))


def test_one_iterator_shared_by_two_threads():
    data = open(os.path.join(SRC, "samples", "000_cf8afa6c099f806b.txt"), "rb").read() * 20
    total = sum(1 for _ in logscan.records(data))
    it = logscan.records(data)
    got, errors = [[], []], []

    def read(k):
        try:
            for r in it:
                got[k].append(r["type"])
        except ValueError as e:
            errors.append(str(e))

    ts = [threading.Thread(target=read, args=(k,)) for k in range(2)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert len(got[0]) + len(got[1]) == total  # every record once, no crash
    assert all("already executing" in e for e in errors)


def test_detect_refuses_a_stream_it_cannot_put_back():
    # what detect() reads of a pipe could not be put back: a records() after it would miss the
    # head without a word, so it is refused before anything is read; records(stream).format
    # names the format and loses nothing
    data = open(os.path.join(SRC, "samples", "003_1c776201c8b5b83e.txt"), "rb").read()

    class Stream:  # (read only: no seek, as a socket or an HTTP body)
        def __init__(self, b):
            self.b = io.BytesIO(b)

        def read(self, n=-1):
            return self.b.read(n)

    class Seeks(Stream):  # (seek and tell, no seekable(): put back as before)
        def seek(self, n):
            return self.b.seek(n)

        def tell(self):
            return self.b.tell()

    k = Seeks(data)
    assert logscan.detect(k) == "paddle-log" and k.tell() == 0
    s = Stream(data)
    with pytest.raises(ValueError, match="not seekable"):
        logscan.detect(s)
    assert s.b.tell() == 0
    it = logscan.records(s)
    assert it.format == "paddle-log"
    assert [r["line"] for r in it] == [r["line"] for r in logscan.records(data)]
    r, w = os.pipe()
    os.write(w, data[:1000])
    os.close(w)
    with open(r, "rb") as pipe:
        with pytest.raises(ValueError, match="not seekable"):
            logscan.detect(pipe)


def test_records_in_a_with_block_closes_its_input():
    p = os.path.join(SRC, "samples", "003_1c776201c8b5b83e.txt")
    f = open(p, "rb")
    with logscan.records(f) as it:
        assert next(it)["type"]
    assert list(it) == []  # (closed: ended)
    f.close()


def test_an_iterator_made_without_its_init_is_a_type_error():
    # next() reads the C++ iterator straight from the instance (the type is final): one never
    # initialised is said, not read
    it = logscan._logscan.RecordIterator.__new__(logscan._logscan.RecordIterator)
    with pytest.raises(TypeError, match="without its __init__"):
        next(it)
    with pytest.raises(TypeError):
        type("Sub", (logscan._logscan.RecordIterator,), {})


def test_records_is_an_iterator_that_makes_each_dict_when_asked():
    # a record handed out is held by nothing else (no batch of live dicts behind it, which the
    # garbage collector would promote and walk); the iterator is its own, ends for good, and
    # names the reader's line in its warning
    path = os.path.join(SRC, "samples", "003_1c776201c8b5b83e.txt")
    it = logscan.records(path)
    assert isinstance(it, collections.abc.Iterator) and iter(it) is it
    first = next(it)
    assert sys.getrefcount(first) <= 2  # `first` and getrefcount's argument (a batch's list made it 3)
    rest = [it.__next__()] + list(it)
    assert [first] + rest == cli_records(path, "paddle-log")
    for call in (lambda: next(it), it.__next__):
        with pytest.raises(StopIteration):
            call()
    cut = open(os.path.join(SRC, "samples", "001_825e28a4f520ddc2.txt"), "rb").read()[:100000]
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        for _ in logscan.records(cut):
            pass
    assert [x.filename for x in w if "document breaks" in str(x.message)] == [__file__]


def test_records_close_interrupt_and_a_break_warned_after_its_records():
    path = os.path.join(SRC, "samples", "003_1c776201c8b5b83e.txt")
    # close(): the input let go (a file-like object's reference dropped), the iteration over
    with open(path, "rb") as f:
        before = sys.getrefcount(f)
        it = logscan.records(f, format="paddle-log")
        assert next(it)["line"] == 1
        it.close()
        assert sys.getrefcount(f) == before
        with pytest.raises(StopIteration):
            next(it)
    # a signal's handler runs while a C loop (deque, list) drains the iterator, not after it
    class Stop(Exception):
        pass

    def stop(signum, frame):
        raise Stop()

    import signal

    data = open(path, "rb").read() * 400  # 40 MB: seconds of records
    old = signal.signal(signal.SIGALRM, stop)
    try:
        it = logscan.records(data)
        signal.setitimer(signal.ITIMER_REAL, 0.05)
        with pytest.raises(Stop):
            collections.deque(it, maxlen=0)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    assert next(it)["type"]  # stopped part way: records remain
    it.close()
    # where a document breaks, its records come first, then the warning (as an error here)
    cut = open(os.path.join(SRC, "samples", "001_825e28a4f520ddc2.txt"), "rb").read()[:100000]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = list(logscan.records(cut))
    got = []
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        it = logscan.records(cut)
        with pytest.raises(RuntimeWarning, match="the document breaks there"):
            for r in it:
                got.append(r)
    assert got == want and len(got) > 100
    assert list(it) == []


def test_invalid_utf8_strings_and_names():
    # two names that differ only in invalid bytes read as one str: one category
    data = b"40 0\n" + b"".join((b"%d 100 name\xff\n" if i % 2 else b"%d 100 name\xfe\n") % i for i in range(40))
    f = logscan.frames(data, format="chainer-memtrace")["buffer"]
    assert list(f["name"].astype(object).unique()) == ["name\ufffd"]
    # a table header with invalid UTF-8: the column's name as in records()
    lines = open(os.path.join(SRC, "tests", "data", "tvm_profile_hand.txt"), "rb").read().splitlines(keepends=True)
    header = [i for i, l in enumerate(lines) if l.startswith(b"Name ") and b"Argument Shapes" in l][0]
    lines[header] = lines[header].replace(b"Argument Shapes", b"Argume\xfft Shapes")
    data = b"".join(lines)
    keys = {k for r in logscan.records(data) if r["type"] == "call" for k in r["cells"]}
    assert "Argume\ufffdt Shapes" in keys
    assert "cells.Argume\ufffdt Shapes" in logscan.frames(data)["call"].columns


def test_json_texts_the_reader_accepted():
    data = chrome([{"ph": "X", "name": "k", "ts": 1, "dur": 1, "pid": 1, "tid": 1, "args": {"n": 1, "s": "\ud800"}}])
    span = [r for r in logscan.records(data) if r["type"] == "span"][0]
    assert isinstance(span["args"], dict) and span["args"]["n"] == 1 and isinstance(span["args"]["s"], str)
    f = logscan.frames(data)["span"]
    assert "args.n" in f.columns and "args.s" in f.columns and "s" not in f.columns


def test_a_deep_array_does_not_blank_the_next_ones():
    deep = 1
    for _ in range(70):
        deep = [deep]
    events = [{"ph": "X", "name": "k", "ts": 1, "dur": 1, "pid": 1, "tid": 1, "args": {"v": deep}}]
    events += [{"ph": "X", "name": "k", "ts": i, "dur": 1, "pid": 1, "tid": 1, "args": {"v": [i, i]}} for i in range(2, 6)]
    f = logscan.frames(chrome(events))["span"]
    assert f["args.v"].tolist()[1:] == ["[%d,%d]" % (i, i) for i in range(2, 6)]


def test_memoryview_with_strides():
    mv = memoryview(b"aXbXcX\n")[::2]
    with pytest.warns(RuntimeWarning, match="no paddle-log records; 1 non-blank line was text"):
        assert [r["text"] for r in logscan.records(mv, format="paddle-log")] == ["abc"]


def test_a_key_given_twice():
    def frame(pairs):
        text = "".join(
            '{"ph":"X","name":"k","ts":%d,"dur":1,"pid":1,"tid":1,"args":{%s}},' % (i, pairs(i)) for i in range(20)
        )
        return logscan.frames(('{"traceEvents":[' + text.rstrip(",") + "]}").encode())["span"]["args.a"]

    assert frame(lambda i: '"a":"x","a":%d' % i).dtype == np.int64  # the last stands: all ints
    assert frame(lambda i: '"a":"u%d","a":"v"' % i).dtype == "category"
    assert frame(lambda i: '"a":%d,"a":null' % i).isna().all()


def test_records_before_a_failure_are_yielded_first():
    data = open(os.path.join(SRC, "samples", "003_1c776201c8b5b83e.txt"), "rb").read()

    class Failing:
        def __init__(self):
            self.at = 0

        def read(self, n):
            if self.at >= 60000:
                raise OSError(5, "the disk went away")
            piece = data[self.at : self.at + 1000]
            self.at += len(piece)
            return piece

    got = []
    with pytest.raises(OSError, match="the disk went away"):
        for r in logscan.records(Failing(), format="paddle-log"):
            got.append(r)
    before = list(logscan.records(data[:60000], format="paddle-log"))
    assert len(got) >= len(before) - 1 > 100  # (the last line may be cut at the failure)
    assert got[: len(before) - 1] == before[:-1]


def test_a_cut_gzip_stream(tmp_path):
    whole = gzip.compress(open(os.path.join(SRC, "samples", "003_1c776201c8b5b83e.txt"), "rb").read())
    p = tmp_path / "cut.log.gz"
    p.write_bytes(whole[: len(whole) // 2])
    got = []
    with pytest.raises(OSError, match="gzip stream cut short") as e:
        for r in logscan.records(p):
            got.append(r)
    assert e.value.filename == str(p)
    assert len(got) > 100
    # read as a format it is not, all text and then the cut: the cut is said, and after it nothing
    it = logscan.records(p, format="tvm-profile")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(OSError, match="gzip stream cut short"):
            list(it)
        assert list(it) == []
    r = run("convert", str(p))
    # the command does not pass it silently, and says it in the same words, with where: after
    # the bytes the stream gave (what zlib gives of it), the records before it written
    given = len(zlib.decompressobj(31).decompress(whole[: len(whole) // 2]))
    said = f"logscan: {p}: gzip stream cut short after {given} bytes of data; the records before it are"
    assert r.returncode == 1 and f"{said} written\n".encode() in r.stderr
    assert [json.loads(x) for x in r.stdout.splitlines()] == got
    r = run("stats", str(p))
    assert r.returncode == 1 and f"{said} counted\n".encode() in r.stderr
    # corrupt data (bytes changed after the header): said as such by both
    bad = bytearray(whole)
    bad[20:60] = b"\xff" * 40
    q = tmp_path / "corrupt.log.gz"
    q.write_bytes(bytes(bad))
    with pytest.raises(OSError, match="corrupt gzip data"):
        list(logscan.records(q))
    r = run("convert", str(q))
    assert r.returncode == 1 and f"logscan: {q}: corrupt gzip data".encode() in r.stderr


@pytest.mark.parametrize("sample", ["000_cf8afa6c099f806b.txt", "002_925085f7148f0ebf.txt", "003_1c776201c8b5b83e.txt", "004_d73c77cb3fb2895c.txt"])
def test_a_utf8_byte_order_mark_first_is_passed_over(tmp_path, sample):
    # (what Windows editors and PowerShell's Set-Content -Encoding UTF8 write first): the same
    # records as without it, detected the same, in the command and the module
    text = open(os.path.join(SRC, "samples", sample), "rb").read()
    p = tmp_path / sample
    p.write_bytes(b"\xef\xbb\xbf" + text)
    want = list(logscan.records(text))
    assert list(logscan.records(p)) == want
    assert logscan.detect(p) == logscan.detect(io.BytesIO(text))
    r = run("convert", str(p))
    assert r.returncode == 0 and [json.loads(x) for x in r.stdout.splitlines()] == want
    q = tmp_path / ("many." + sample)  # (--threads: every sample's format is splittable)
    q.write_bytes(b"\xef\xbb\xbf" + text * 30)
    r = run("convert", "--threads", "2", "--part-size", "65536", str(q))
    one = run("convert", "--part-size", "65536", "-", input=text * 30)  # (a graph repeated is broken where copies meet: exit 1)
    assert r.returncode == one.returncode and r.stdout == one.stdout and r.stdout


def test_a_byte_order_mark_before_a_json_document_and_alone(tmp_path):
    # tvm-profile's Report.json() and chrome-trace read the document after it; megengine-profile
    # may not begin with one (formats.md section 2): its document breaks there. A file of the
    # mark alone (Notepad's empty UTF-8 file) or with blank lines is an empty input.
    for name in ("semcomm_tvm_report_json_text_tuned_top2.json.txt",):
        doc = open(os.path.join(SRC, "samples", "today", name), "rb").read()
        p = tmp_path / name
        p.write_bytes(b"\xef\xbb\xbf" + doc)
        assert logscan.detect(p) == "tvm-profile"
        assert list(logscan.records(p)) == list(logscan.records(doc)) and len(list(logscan.records(doc))) > 5
    trace = gzip.decompress(open(os.path.join(SRC, "samples", "chrome", "event_sync_trace.json.gz"), "rb").read())
    assert list(logscan.records(b"\xef\xbb\xbf" + trace)) == list(logscan.records(trace))
    for blank in (b"\xef\xbb\xbf", b"\xef\xbb\xbf\r\n  \n"):
        p = tmp_path / "empty.txt"
        p.write_bytes(blank)
        # (said, as the command says it, with a format given or not: a job's empty log is news)
        said = f"logscan: {p}: empty input, no records"
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            assert list(logscan.records(p)) == []
            assert logscan.frames(p, format="paddle-log") == {}
        assert [str(x.message) for x in w] == [said, said]
        r = run("convert", str(p))
        assert r.returncode == 0 and r.stdout == b"" and r.stderr.decode() == said + "\n"
        r = run("convert", "--format", "paddle-log", str(p))
        assert r.returncode == 0 and r.stdout == b"" and r.stderr.decode() == said + "\n"


def test_blank_lines_past_the_head_before_a_log(tmp_path):
    # (helper-59: 16 KiB of blank lines or more made a log "format not recognised" and a file
    # of blank lines alone an error) detection looks past leading blank lines (up to 1 MiB):
    # the log's format and records, its line numbers counted from the file's first line; a file
    # of blank lines alone is an empty input, whatever its size
    log = open(os.path.join(SRC, "samples", "003_1c776201c8b5b83e.txt"), "rb").read()
    for lead in (b"\n" * 16384, b" \t\r\n" * 30000):
        p = tmp_path / "late.log"
        p.write_bytes(lead + log)
        assert logscan.detect(p) == "paddle-log"
        got, want = list(logscan.records(p)), list(logscan.records(log))
        shift = lead.count(b"\n")
        assert len(got) == len(want) > 100
        assert all(g["line"] == w["line"] + shift and {**g, "line": 0} == {**w, "line": 0} for g, w in zip(got, want))
        r = run("detect", str(p))
        assert r.returncode == 0 and r.stdout.decode() == f"{p}: paddle-log\n"
        r = run("convert", str(p))
        assert r.returncode == 0 and [json.loads(x) for x in r.stdout.splitlines()] == got
    for n in (16384, 300000):
        p = tmp_path / "blank.log"
        p.write_bytes(b"\n" * n)
        said = f"logscan: {p}: empty input, no records"
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            assert list(logscan.records(p)) == [] and logscan.frames(p) == {}
        assert [str(x.message) for x in w] == [said, said]
        r = run("convert", str(p))
        assert r.returncode == 0 and r.stdout == b"" and r.stderr.decode() == said + "\n"


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be"])
def test_utf16_with_its_byte_order_mark_is_read_as_utf8(tmp_path, encoding):
    # what Windows PowerShell 5.1 writes for `python tools/train.py > train.log` (UTF-16, little
    # endian, the mark FF FE first); gzip-compressed too: the records of the UTF-8 text
    text = open(os.path.join(SRC, "samples", "003_1c776201c8b5b83e.txt"), "rb").read()
    encoded = text.decode("utf-8").encode(encoding)
    if encoding == "utf-16-be":
        encoded = b"\xfe\xff" + encoded
    assert encoded[:2] in (b"\xff\xfe", b"\xfe\xff")
    want = list(logscan.records(text))
    for name, data in (("train.log", encoded), ("train.log.gz", gzip.compress(encoded))):
        p = tmp_path / name
        p.write_bytes(data)
        assert logscan.detect(p) == "paddle-log"
        assert list(logscan.records(p)) == want
        assert list(logscan.records(data)) == want
        r = run("convert", str(p))
        assert r.returncode == 0 and [json.loads(x) for x in r.stdout.splitlines()] == want
    assert {t: len(f) for t, f in logscan.frames(encoded).items()} == {t: len(f) for t, f in logscan.frames(text).items()}


def test_compressed_data_logscan_does_not_undo_is_said_with_how_to_read_it(tmp_path):
    # xz, bzip2, zip: not "format not recognised" or a file of text records, but what it is and
    # the command (or Python object) that reads it out; the object named reads as the log
    import bz2
    import lzma
    import zipfile

    text = open(os.path.join(SRC, "samples", "003_1c776201c8b5b83e.txt"), "rb").read()
    want = list(logscan.records(text))
    p = tmp_path / "train.log.xz"
    p.write_bytes(lzma.compress(text))
    b = tmp_path / "train.log.bz2"
    b.write_bytes(bz2.compress(text))
    z = tmp_path / "train.zip"
    with zipfile.ZipFile(z, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("train.log", text)
    for path, name, command, opened in ((p, "xz", "xz -dc", "lzma.open(path)"), (b, "bzip2", "bzip2 -dc", "bz2.open(path)"),
                                        (z, "zip", "unzip -p", "zipfile.ZipFile(path).open(member)")):
        r = run("convert", str(path))
        assert r.returncode == 1 and r.stdout == b""
        assert f"logscan: {path}: {name}-compressed data, which logscan does not decompress (it reads gzip): {command} {path} | logscan ... -\n".encode() == r.stderr
        r = run("detect", str(path))
        assert r.returncode == 1 and r.stdout == f"{path}: unknown\n".encode() and f"{name}-compressed data".encode() in r.stderr
        with pytest.raises(ValueError, match=f"{name}-compressed data, .*{re.escape(opened)}"):
            logscan.records(path)
    assert list(logscan.records(lzma.open(p))) == want
    assert list(logscan.records(bz2.open(b))) == want
    assert list(logscan.records(zipfile.ZipFile(z).open("train.log"))) == want


def cut_inside_the_head(tmp_path, sample, n):
    """The sample gzip-compressed and cut after n bytes, so that it fails while the head for
    detection (16 KiB) is read: (its path, the whole stream, the bytes the cut one gives)."""
    text = open(os.path.join(SRC, "samples", sample), "rb").read()
    whole = gzip.compress(text)
    p = tmp_path / "cut.log.gz"
    p.write_bytes(whole[:n])
    given = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(whole[:n])
    assert 0 < len(given) < 16384 and text.startswith(given)
    return p, whole, given


def corrupt_inside(data):
    """A gzip stream of `data` (a JSON document) with one byte changed inside its deflate data
    such that it still inflates, to other bytes that break the document, and only the stream's
    check at its end finds it."""
    z = gzip.compress(data, mtime=0)
    for at in range(len(z) // 2, len(z) - 8):
        y = bytearray(z)
        y[at] ^= 0x5A
        try:
            out = zlib.decompressobj(-zlib.MAX_WBITS).decompress(bytes(y[10:-8]))  # (raw deflate: no check)
        except zlib.error:
            continue
        if len(out) == len(data) and out != data:
            try:
                json.loads(out)
            except ValueError:
                return bytes(y), out  # (the bytes it gives break the document)
    raise AssertionError("no such byte")


def test_corrupt_gzip_data_that_breaks_a_json_document_is_said(tmp_path):
    # the document breaks where the changed bytes come out; the stream's check, at its end,
    # says why: the command and summary() read on to it (helper-33's report)
    data = gzip.decompress(open(os.path.join(SRC, "samples", "chrome", "benchmark_result_2869224_1695835535_trace.json.gz"), "rb").read())
    bad, out = corrupt_inside(data)
    p = tmp_path / "trace.json.gz"
    p.write_bytes(bad)
    for args in (("convert",), ("convert", "--to", "csv", "--type", "span"), ("stats",), ("summary", "--json"), ("summary", "--json", "--threads", "2")):
        r = run(*args, str(p))
        assert r.returncode == 1, args
        assert b"the document breaks there" in r.stderr and f"logscan: {p}: corrupt gzip data\n".encode() in r.stderr, args
    for threads in (1, 2):
        with pytest.warns(RuntimeWarning, match="the document breaks there"):
            with pytest.raises(OSError, match="corrupt gzip data"):
                logscan.summary(p, threads=threads)
    with pytest.raises(OSError, match="corrupt gzip data"):
        list(logscan.records(p))
    # a break of the document's shape (no line) in a stream whose check fails: said too
    z = bytearray(gzip.compress(b'{"traceEvents": 5, "pad": "' + b"x" * 100000 + b'"}', mtime=0))
    z[-8] ^= 0x5A  # (its CRC-32)
    q = tmp_path / "shape.json.gz"
    q.write_bytes(bytes(z))
    r = run("convert", "--format", "chrome-trace", str(q))
    assert r.returncode == 1 and f"logscan: {q}: corrupt gzip data\n".encode() in r.stderr
    with pytest.raises(OSError, match="corrupt gzip data"):
        logscan.summary(q, format="chrome-trace")


def test_a_gzip_member_whose_check_fails_gives_every_byte_first(tmp_path):
    # its CRC-32 changed: all its records, then the failure (the last bytes and the failed
    # check come from one inflate call; they were dropped)
    raw = open(os.path.join(SRC, "samples", "chrome", "event_sync_trace.json.gz"), "rb").read()
    bad = bytearray(raw)
    bad[-8] ^= 0x5A
    p = tmp_path / "trace.json.gz"
    p.write_bytes(bytes(bad))
    want = list(logscan.records(gzip.decompress(raw)))
    got = []
    with pytest.raises(OSError, match="corrupt gzip data"):
        for r in logscan.records(p):
            got.append(r)
    assert got == want and len(want) > 50
    r = run("convert", str(p))
    assert r.returncode == 1 and f"logscan: {p}: corrupt gzip data\n".encode() in r.stderr
    assert [json.loads(x) for x in r.stdout.splitlines()] == want


def test_detect_names_the_format_of_a_cut_gzip_stream_and_says_the_cut(tmp_path):
    # the head a cut stream gave shows its format: named, and the cut said (status 1)
    p, whole, given = cut_inside_the_head(tmp_path, "000_cf8afa6c099f806b.txt", 1000)
    r = run("detect", str(p))
    assert r.returncode == 1
    assert r.stdout == f"{p}: megengine-log\n".encode()
    assert r.stderr == f"logscan: {p}: gzip stream cut short after {len(given)} bytes (the format is told from them)\n".encode()
    with pytest.warns(RuntimeWarning, match=f"gzip stream cut short after {len(given)} bytes") as w:
        assert logscan.detect(p) == "megengine-log"
    assert w[0].filename == __file__  # (said where the user called it)
    q = tmp_path / "early.log.gz"
    q.write_bytes(whole[:10])  # (nothing of it came: the cut is what is said)
    with pytest.raises(OSError, match="gzip stream cut short \\(before the format could be told\\)"):
        logscan.detect(q)
    r = run("detect", str(q))
    assert r.returncode == 1 and r.stdout == b"" and r.stderr == f"logscan: {q}: gzip stream cut short\n".encode()


def test_partial_keeps_what_a_cut_gzip_stream_gave(tmp_path):
    # frames() and summary() raise on a cut stream; with partial=True they keep the records
    # read before the cut (as many as records() yields before its OSError), with a warning
    whole = gzip.compress(open(os.path.join(SRC, "samples", "003_1c776201c8b5b83e.txt"), "rb").read())
    p = tmp_path / "cut.log.gz"
    p.write_bytes(whole[: len(whole) // 2])
    got = collections.Counter()
    with pytest.raises(OSError, match="gzip stream cut short"):
        for r in logscan.records(p):
            got[r["type"]] += 1
    with pytest.raises(OSError, match="gzip stream cut short"):
        logscan.frames(p)
    for threads in (1, 2):
        with pytest.raises(OSError, match="gzip stream cut short"):
            logscan.frames(p, threads=threads)
        with pytest.warns(RuntimeWarning, match="gzip stream cut short .*; partial=True: what was read before it is kept"):
            f = logscan.frames(p, partial=True, threads=threads, part_size=4096)
        assert {t: len(d) for t, d in f.items()} == dict(got) and sum(got.values()) > 100
    trace = open(os.path.join(SRC, "samples", "chrome", "event_sync_trace.json.gz"), "rb").read()
    t = tmp_path / "cut.json.gz"
    t.write_bytes(trace[: len(trace) // 2])
    with pytest.raises(OSError, match="gzip stream cut short"):
        logscan.summary(t)
    for threads in (1, 2):
        with pytest.warns(RuntimeWarning, match="gzip stream cut short"):
            s = logscan.summary(t, partial=True, threads=threads)
        cli = run("summary", "--json", str(t))  # (the command: the figures of what was read, exit 1)
        assert cli.returncode == 1
        assert s["ranks"][0]["events"] == json.loads(cli.stdout)["ranks"][0]["events"] > 0


def test_partial_keeps_what_a_file_objects_failure_gave(tmp_path):
    # a cut .gz or .xz opened by Python (gzip.open, lzma.open), or a file object whose read()
    # raises part way (a network file): records() yields what the object gave, then raises
    # its exception; frames() raises it (noting partial=True) and with partial=True keeps the
    # records, said in a warning (helper-54: read(n) of gzip and lzma drops what it had
    # decompressed for the call when the stream ends early; read1 hands it out first)
    data = open(os.path.join(SRC, "samples", "003_1c776201c8b5b83e.txt"), "rb").read()
    (tmp_path / "cut.gz").write_bytes(gzip.compress(data)[: len(gzip.compress(data)) // 2])
    (tmp_path / "cut.xz").write_bytes(lzma.compress(data)[: len(lzma.compress(data)) // 2])

    class Flaky(io.RawIOBase):  # (read() alone: its first 70,000 bytes, then an OSError)
        def __init__(self, b):
            self.b, self.n = b, 0
        def readable(self):
            return True
        def read(self, n=-1):
            if self.n >= 70000:
                raise OSError(5, "the network share went away")
            out = self.b[self.n : min(self.n + n, 70000)]
            self.n += len(out)
            return out

    for opened, error in ((lambda: gzip.open(tmp_path / "cut.gz"), EOFError), (lambda: lzma.open(tmp_path / "cut.xz"), EOFError),
                          (lambda: Flaky(data), OSError)):
        got = collections.Counter()
        with pytest.raises(error):
            for r in logscan.records(opened()):
                got[r["type"]] += 1
        assert sum(got.values()) > 100  # (the table rows of the first half, at least)
        with pytest.raises(error) as raised:
            logscan.frames(opened())
        if sys.version_info >= (3, 11):  # (PEP 678's notes)
            assert raised.value.__notes__ == ["logscan: partial=True keeps the records read before it"]
        with pytest.warns(RuntimeWarning, match=f"read1?\\(\\) raised {error.__name__}: .*; partial=True: what was read before it is kept"):
            f = logscan.frames(opened(), partial=True)
        assert {t: len(d) for t, d in f.items()} == dict(got)
    # the flaky object's records: those of the bytes it gave (counted from them alone)
    assert dict(got) == dict(collections.Counter(r["type"] for r in logscan.records(data[:70000])))

    # what is no failure of the data is raised as it was, partial=True or not, with no note
    # (helper-55: Ctrl-C in read() became a warning, and frames() went on)
    class Broken(Flaky):
        def __init__(self, b, error):
            super().__init__(b)
            self.error = error
        def read(self, n=-1):
            if self.n >= 70000:
                raise self.error
            return super().read(n)

    trace = gzip.decompress(open(os.path.join(SRC, "samples", "chrome", "benchmark_result_2869224_1695835535_trace.json.gz"), "rb").read())
    for error in (KeyboardInterrupt(), ValueError("I/O operation on closed file"), MemoryError()):
        for call, given in ((lambda x: logscan.frames(x, partial=True), data), (lambda x: logscan.frames(x), data),
                            (lambda x: logscan.summary([x], partial=True), trace)):
            with pytest.raises(type(error)) as raised:
                call(Broken(given, error))
            assert not getattr(raised.value, "__notes__", None)


def test_a_file_objects_own_read_is_called_where_it_defines_read_alone(tmp_path):
    # read1 only where the class that defines read defines it too: a wrapper's read (a progress
    # bar's, one that changes the bytes, set on the object or in a subclass) is what is read
    # through, though the object forwards read1 to the file it wraps (helper-55)
    data = open(os.path.join(SRC, "samples", "003_1c776201c8b5b83e.txt"), "rb").read()
    want = len(list(logscan.records(data)))
    seen = []

    class Forwarding:  # (as tqdm.wrapattr(f, "read"): read set on the object, the rest forwarded)
        def __init__(self, f):
            self._f = f
            self.read = lambda n=-1: seen.append(n) or f.read(n)
        def __getattr__(self, name):
            return getattr(self._f, name)

    assert len(list(logscan.records(Forwarding(io.BytesIO(data))))) == want and seen

    class Counted(io.BufferedReader):  # (read alone overridden)
        def read(self, n=-1):
            out = super().read(n)
            seen.append(len(out))
            return out

    seen.clear()
    assert len(list(logscan.records(Counted(io.BytesIO(data))))) == want and sum(seen) == len(data)

    # a text file behind a read1 (a SpooledTemporaryFile opened "w+"): the binary mode asked for
    t = tempfile.SpooledTemporaryFile(mode="w+")
    t.write(data.decode())
    t.seek(0)
    with pytest.raises(TypeError, match=r"open the file in binary mode \('rb'\)"):
        logscan.frames(t)


def test_a_non_blocking_stream_with_nothing_yet_is_said_not_ended(tmp_path):
    # a non-blocking pipe whose writer is still open: its read1 gives b'' where it has nothing
    # yet, which is no end; read() then gives None, said (helper-55: 203 of 986 records, silently)
    data = open(os.path.join(SRC, "samples", "003_1c776201c8b5b83e.txt"), "rb").read()
    part = data[: data.index(b"\n", 30000) + 1]
    r, w = os.pipe()
    try:
        os.write(w, part)
        os.set_blocking(r, False)
        with open(r, "rb", closefd=False) as f, pytest.raises(TypeError, match="non-blocking stream cannot be read"):
            list(logscan.records(f, format="paddle-log"))
    finally:
        os.close(r)
        os.close(w)


def test_a_gzip_stream_cut_inside_the_head_keeps_what_it_gave(tmp_path):
    # cut so early that it fails while the head for detection is read (16 KiB): the records of
    # the bytes it did give come first, as they come from those bytes as plain text, then the
    # failure; the command's convert and summary keep them too (helper-23 found zero records)
    p, whole, given = cut_inside_the_head(tmp_path, "003_1c776201c8b5b83e.txt", 3000)
    want = list(logscan.records(given))
    assert len(want) > 10
    got = []
    with pytest.raises(OSError, match="gzip stream cut short"):
        for r in logscan.records(p):
            got.append(r)
    assert got == want
    r = run("convert", "--format", "paddle-log", str(p))
    assert r.returncode == 1 and b"gzip stream cut short" in r.stderr
    assert [json.loads(x) for x in r.stdout.splitlines()] == want
    r = run("summary", str(p))  # the summary of what was read, and the failure said
    assert r.returncode == 1 and b"gzip stream cut short" in r.stderr and b"before that" in r.stderr
    assert r.stdout.startswith(str(p).encode() + b": paddle-log")


def test_a_gzip_stream_that_fails_after_only_blank_lines_is_not_an_empty_input(tmp_path):
    # (helper-24's review: the head's failure must not pass as "empty input, no records")
    whole = gzip.compress(b"\n" * 200000 + open(os.path.join(SRC, "samples", "003_1c776201c8b5b83e.txt"), "rb").read())
    cut = next(k for k in range(12, len(whole)) if zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(whole[:k]))
    given = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(whole[:cut])
    assert given and given.strip() == b""
    p = tmp_path / "blank.log.gz"
    p.write_bytes(whole[:cut])
    with pytest.raises(OSError, match="gzip stream cut short"):
        list(logscan.records(p))
    with pytest.raises(OSError, match="gzip stream cut short"):
        logscan.detect(p)
    r = run("convert", str(p))
    assert r.returncode == 1 and b"gzip stream cut short" in r.stderr and b"empty input" not in r.stderr


def test_a_file_name_that_is_not_utf8(tmp_path):
    name = os.path.join(os.fsencode(str(tmp_path)), b"\xff.log")
    with open(name, "wb") as f:
        f.write(open(os.path.join(SRC, "samples", "003_1c776201c8b5b83e.txt"), "rb").read())
    import pathlib

    n = len(list(logscan.records(os.path.join(SRC, "samples", "003_1c776201c8b5b83e.txt"))))
    assert len(list(logscan.records(os.fsdecode(name)))) == n  # (bytes are an input's data, not its name)
    assert len(list(logscan.records(pathlib.Path(os.fsdecode(name))))) == n
    assert logscan.detect(os.fsdecode(name)) == "paddle-log"
    with pytest.raises(FileNotFoundError) as e:
        logscan.frames(os.fsdecode(name) + ".missing")
    assert e.value.filename == os.fsdecode(name) + ".missing"


def test_detect_puts_a_file_back():
    with open(os.path.join(SRC, "samples", "003_1c776201c8b5b83e.txt"), "rb") as f:
        assert logscan.detect(f) == "paddle-log"
        assert f.tell() == 0
        assert len(list(logscan.records(f))) == len(list(logscan.records(os.path.join(SRC, "samples", "003_1c776201c8b5b83e.txt"))))


def test_max_line_is_the_commands():
    data = b"x" * (2 << 20) + b"\n"
    p = os.path.join(tempfile.mkdtemp(), "long.log")
    with open(p, "wb") as f:
        f.write(data)
    assert list(logscan.records(p, format="paddle-log")) == cli_records(p, "paddle-log")
    assert logscan.records(p, format="paddle-log").__next__()["type"] == "error"
    with pytest.raises(ValueError, match="max_line"):
        logscan.records(p, max_line=-1)
    # past the command's range (2**31) a line buffer cannot be had, and every line would be an
    # error record: said instead, in every function
    assert logscan.records(p, format="paddle-log", max_line=4 << 20).__next__()["type"] == "text"
    for big in ((1 << 31) + 1, 25 << 30, 2**64):
        for f in (logscan.records, logscan.frames, logscan.summary):
            with pytest.raises(ValueError, match=r"max_line is a number of bytes \(an int from 1 to 2\*\*31\)"):
                f(p, format="paddle-log", max_line=big)
    with pytest.raises(ValueError, match="one input at least"):
        logscan.summary([])
    with pytest.raises(TypeError, match="an input is a path"):
        logscan.summary(None)


def test_error_records_that_types_leave_out_are_said():
    # a training log with one line past max_line (2 MiB of 'x': one error record, counted here
    # from the input) read for its training steps only: the error is said, as the command says it
    paddle = open(os.path.join(SRC, "samples", "003_1c776201c8b5b83e.txt"), "rb").read()
    data = paddle[:2000] + b"\n" + b"x" * (2 << 20) + b"\n" + paddle[2000:6000] + b"\n"  # (its last line ended)
    errors = sum(1 for line in data.split(b"\n") if len(line) > logscan.DEFAULT_MAX_LINE)
    assert errors == 1
    p = os.path.join(tempfile.mkdtemp(), "train.log")
    with open(p, "wb") as f:
        f.write(data)
    # (the long line's number and where the line buffer ends in it, counted from the input)
    long_line = paddle[:2000].count(b"\n") + 2
    at = f"line {long_line}:{logscan.DEFAULT_MAX_LINE + 1}"
    said = (f"logscan: {p}: 1 error record(s); the first at {at}: line longer than the line buffer (max_line); it is "
            "skipped (max_line=BYTES reads longer lines)")
    left_out = "; it is left out by `types` (add \"error\" to them to read it)"
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        frames = logscan.frames(p, format="paddle-log", types=["train_step"])
        assert [str(x.message) for x in w] == [said + left_out]
    assert list(frames) == ["train_step"]
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        assert {r["type"] for r in logscan.records(p, format="paddle-log", types="train_step")} == {"train_step"}
        assert [str(x.message) for x in w] == [said + left_out]
    # asked for, the error records are in the data, and said all the same, as the command
    # says them on standard error: a caller who reads one frame does not miss them
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        assert len(logscan.frames(p, format="paddle-log", types=["train_step", "error"])["error"]) == errors
        assert sum(r["type"] == "error" for r in logscan.records(p, format="paddle-log")) == errors
        assert [str(x.message) for x in w] == [said, said]
    assert f"logscan: {p}: 1 error record(s); the first at {at}: ".encode() in run("stats", "--format", "paddle-log", p).stderr


def test_types_and_a_format_that_does_not_fit_are_said():
    p = os.path.join(SRC, "samples", "003_1c776201c8b5b83e.txt")  # a paddle-log
    for bad in (("train_step", 3), 7, [None]):
        with pytest.raises(TypeError, match="logscan: types"):
            logscan.records(p, types=bad)
        with pytest.raises(TypeError, match="logscan: types"):
            logscan.frames(p, types=bad)
    for bad in (b"log", bytearray(b"log")):  # (bytes are no name: said, not read as a list of ints)
        with pytest.raises(TypeError, match="logscan: types .* got (bytes|bytearray)"):
            logscan.records(p, types=bad)
    for empty in ([], ()):  # (a filter that came out empty reads nothing, said: not every type)
        with pytest.raises(ValueError, match="types is empty"):
            logscan.records(p, types=empty)
        with pytest.raises(ValueError, match="types is empty"):
            logscan.frames(p, types=empty)
    # given as tvm-profile it is all text: the command's words (the file named, the count of
    # its non-blank lines), from frames() and, after its records, from records(); whatever
    # types are wanted
    # (and first, before it is read, that it looks like a paddle-log: the command's words too)
    said = run("stats", "--format", "tvm-profile", p).stderr.decode()
    n = sum(1 for line in open(p, "rb").read().split(b"\n") if line.strip())
    looks = f"logscan: {p}: read as tvm-profile as asked, but it looks like paddle-log"
    want = f"logscan: {p}: no tvm-profile records; {n} non-blank lines were text"
    assert said == looks + "\n" + want + "\n"
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        f = logscan.frames(p, format="tvm-profile")
        assert [str(x.message) for x in w] == [looks, want] and {x.category for x in w} == {RuntimeWarning}
    assert list(f) == ["text"] and len(f["text"]) == n
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        it = logscan.records(p, format="tvm-profile")
        got = [next(it) for _ in range(n)]
        assert [str(x.message) for x in w] == [looks] and all(r["type"] == "text" for r in got)  # (the rest not before the records)
        assert list(it) == []
        assert [str(x.message) for x in w] == [looks, want]
    for wanted in ("run", ["text", "call"]):
        with pytest.warns(RuntimeWarning, match=f"{n} non-blank lines were text"):
            logscan.frames(p, format="tvm-profile", types=wanted)
    with pytest.warns(RuntimeWarning, match="<bytes>: no tvm-profile records; 1 non-blank line was text"):
        assert list(logscan.records(b"hello\n", format="tvm-profile"))[0]["type"] == "text"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        logscan.frames(p)  # (detected: no warning)
        logscan.frames(p, format="paddle-log")
        list(logscan.records(p, format="paddle-log", types="text"))  # (records of the format, not wanted: no warning)
    # text and an error record (a line past max_line): the error record says it (no warning
    # that the input is of another format), and a warning says the error, as the command does
    long = b"hello\n" + b"x" * 100 + b"\nworld\n"
    err = ("logscan: <bytes>: 1 error record(s); the first at line 2:51: line longer than the line buffer (max_line); it is "
           "skipped (max_line=BYTES reads longer lines)")
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        assert [r["type"] for r in logscan.records(long, format="tvm-profile", max_line=50)] == ["text", "error", "text"]
        assert sorted(logscan.frames(long, format="tvm-profile", max_line=50)) == ["error", "text"]
        assert [str(x.message) for x in w] == [err, err]


def test_a_json_document_of_another_kind_is_said(tmp_path):
    # a Chrome trace read as megengine-profile or tvm-profile yields nothing (none of their
    # members is in it): said, as an input of only text is, with what it looks like; the
    # command exits 1 (an empty input read so says nothing: no record is to be expected)
    p = os.path.join(SRC, "samples", "chrome", "event_sync_trace.json.gz")
    for fmt in ("megengine-profile", "tvm-profile"):
        looks = f"logscan: {p}: read as {fmt} as asked, but it looks like chrome-trace"
        none = f"logscan: {p}: no {fmt} records; nothing in it is of that format"
        r = run("stats", "--format", fmt, p)
        assert r.returncode == 1 and r.stderr.decode() == looks + "\n" + none + "\n"
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            assert logscan.frames(p, format=fmt) == {}
            assert list(logscan.records(p, format=fmt)) == []
            assert [str(x.message) for x in w] == [looks, none, looks, none]
    # nothing is to be expected of a blank input, of any size (past the 16 KiB head too), nor of
    # an empty document of the format (its head shows the format: `traceEvents`, `calls`)
    blank = tmp_path / "blank.json"
    big_blank = tmp_path / "big_blank.json"
    empty_trace = tmp_path / "empty_trace.json"
    empty_report = tmp_path / "empty_report.json"
    blank.write_bytes(b"\n\n")
    big_blank.write_bytes(b" \n" * 20000)
    empty_trace.write_bytes(b'{"traceEvents": []}')
    empty_report.write_bytes(b'{"calls": [], "device_metrics": {}, "configuration": {}}')
    for path, fmt in ((blank, "tvm-profile"), (big_blank, "tvm-profile"), (big_blank, "megengine-profile"),
                      (empty_trace, "chrome-trace"), (empty_trace, None), (empty_report, "tvm-profile"), (empty_report, None)):
        r = run("stats", *(("--format", fmt) if fmt else ()), str(path))
        assert b"nothing in it is of that format" not in r.stderr, (path, fmt)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            list(logscan.records(str(path), format=fmt))
            logscan.frames(str(path), format=fmt)
            assert not any("nothing in it" in str(x.message) for x in w), (path, fmt)
    assert run("stats", "--format", "tvm-profile", str(blank)).returncode == 0
    assert run("stats", str(empty_trace)).returncode == 0
    # a format that is no name: said as the other arguments are
    for bad in (3, b"paddle-log", ["paddle-log"]):
        with pytest.raises(TypeError, match="logscan: format is a format's name"):
            logscan.records(p, format=bad)
        with pytest.raises(TypeError, match="logscan: format is a format's name"):
            logscan.frames(p, format=bad)
        with pytest.raises(TypeError, match="logscan: format is a format's name"):
            logscan.summary(p, format=bad)


def test_detect_says_how_to_read_compressed_data_it_does_not_undo(tmp_path):
    # xz data: None, as for any input of no format, and a warning that says how to read it
    import lzma
    p = tmp_path / "train.log.xz"
    p.write_bytes(lzma.compress(open(os.path.join(SRC, "samples", "003_1c776201c8b5b83e.txt"), "rb").read()))
    with pytest.warns(RuntimeWarning, match=r"train\.log\.xz: xz-compressed data, which logscan does not decompress .*lzma\.open"):
        assert logscan.detect(p) is None
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert logscan.detect(b"nothing of any format\n") is None


def test_error_records_are_said_as_the_command_says_them(tmp_path):
    # a trace cut after an open B: the break, then the B never closed (2 error records, counted
    # from the contract's rules), said by the module with the command's count and first one
    cut = b'{"traceEvents":[{"ph":"B","name":"a","pid":1,"tid":1,"ts":1},{"ph":"X","name":'
    p = tmp_path / "cut.json"
    p.write_bytes(cut)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        got = list(logscan.records(p))
    assert [r["type"] for r in got] == ["error", "error"]
    said = [str(x.message) for x in w if "error record(s)" in str(x.message)]
    assert len(said) == 1 and said[0].startswith(f"logscan: {p}: 2 error record(s); the first at ")
    command = [l for l in run("stats", str(p)).stderr.decode().splitlines() if "error record(s)" in l]
    assert command == [said[0]]
    # a document whose break is its only error: said once, by the break's warning
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        list(logscan.records(b'{"traceEvents":[{"ph":"X"'))
        assert len(w) == 1 and "the document breaks there" in str(w[0].message)


def test_a_log_cut_inside_its_last_line_is_said(tmp_path):
    # sample 003 cut in the middle of a profiler table row (a killed job's log): the row's GPU
    # cell, cut to its first digits, reads as a number; nothing in the record shows the cut, so
    # it is said, by the module as by the command (status 0: a running job's log ends so too)
    data = open(os.path.join(SRC, "samples", "003_1c776201c8b5b83e.txt"), "rb").read()
    row = data.index(b"566.98") + 2  # (in a row's GPU cell: `566.98 / 0.50 / ...` cut to `56`)
    p, whole = tmp_path / "cut.log", tmp_path / "whole.log"
    p.write_bytes(data[:row])
    whole.write_bytes(data[:row] + b"\n")  # (the same bytes, the line ended)
    said = f"logscan: {p}: the input ends inside its last line (no newline after it): the record read from that line may be cut short"
    for read in (lambda x: list(logscan.records(x)), lambda x: logscan.frames(x)):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            read(p)
        assert [str(x.message) for x in w if "ends inside" in str(x.message)] == [
            said + " (a killed job's log, or one still being written?)"]
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            read(whole)  # (ended: nothing said)
    r = run("stats", str(p))
    assert r.returncode == 0 and r.stderr.decode().splitlines() == [said + " (a killed job's log, or one still being written?)"]
    assert run("stats", str(whole)).stderr == b""
    # a JSON document ends with its document, not a line: not said (its cut is its break)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        list(logscan.records(os.path.join(SRC, "samples", "001_825e28a4f520ddc2.txt")))  # (ends with `}`)
        list(logscan.records(b'[{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":2}]'))
    # nor text with no newline read as a JSON format: its document breaks at 1:1, and that alone is said
    for read in (lambda x: list(logscan.records(x, format="chrome-trace")), lambda x: logscan.frames(x, format="megengine-profile")):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            read(b"x, a line of text")
        said = [str(x.message) for x in w]
        assert len(said) == 1 and ":1:1: expected a JSON value" in said[0] and "(the document breaks there" in said[0], said


def test_a_file_of_nothing_is_no_rank_of_the_job(tmp_path):
    # `{}` read as a Chrome trace: nothing of one (and no signal of one in it): said, and no
    # rank of the job's report (the other file's rank alone, as when it is given alone)
    good = os.path.join(SRC, "samples", "chrome", "event_sync_trace.json.gz")
    nothing = tmp_path / "nothing.json"
    nothing.write_bytes(b"{}")
    r = run("summary", "--json", "--format", "chrome-trace", good, str(nothing))
    assert r.returncode == 1
    assert f"logscan: {nothing}: no chrome-trace records; nothing in it is of that format\n".encode() in r.stderr
    alone = json.loads(run("summary", "--json", good).stdout)
    assert [x["file"] for x in json.loads(r.stdout)["ranks"]] == [x["file"] for x in alone["ranks"]] == ["event_sync_trace.json.gz"]


def test_traces_of_different_jobs_given_as_one_jobs_ranks_are_said():
    # HTA's rules over two jobs' traces given as one job's ranks (formats.md 6B.4): the job's two
    # profiler steps are mi250's, and the benchmark trace, of no step, keeps none of its rows in
    # the job's window (HTA's rows of it alone: samples/chrome/expected); the lowest rank's
    # device type decides for both (NVIDIA's, where mi250's is AMD). Said, by the module and the
    # command alike, not left to the empty figures
    chrome = os.path.join(SRC, "samples", "chrome")
    b = os.path.join(chrome, "benchmark_result_2869224_1695835535_trace.json.gz")
    m = os.path.join(chrome, "mi250_minitoy_train_ROCm6_2_kineto.json.gz")
    expected = json.load(open(os.path.join(chrome, "expected", "benchmark_result_2869224_1695835535_trace.summary.json")))
    rows = expected["ranks"][0]["rows"]
    devices = (f"the files' device types differ: rank 0 ({m}) AMD GPU; the lowest rank's, NVIDIA GPU, decides for all "
               "(HTA's Trace.get_device_type): are they one job's ranks?")
    window = (f"rank 0 ({b}): none of its {rows} rows is in the job's window (formats.md 6B.4: before the last of the job's 2 "
              "profiler steps), so its figures are empty: are the files one job's ranks?")
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        s = logscan.summary([b, m])
    said = [str(x.message) for x in w]
    assert "logscan: " + devices in said and "logscan: " + window in said, said
    assert s["ranks"][0]["window"]["kept_rows"] == 0 and s["ranks"][0]["rows"] == rows
    notes = run("summary", b, m).stderr.decode().splitlines()
    assert "logscan: note: " + devices in notes and "logscan: note: " + window in notes, notes
    # each alone, one job's ranks: nothing of the sort
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        logscan.summary(m)
        logscan.summary(b)


def test_a_restarted_paddle_log_is_said_in_its_summary(tmp_path):
    # sample 003 twice in one file (a job restarted into the same log, or two logs joined):
    # its steps go back once, where the second copy's first step is; its operators are listed
    # once, from the last of its profiler's Operator Summary tables (a profiler prints its
    # totals so far), not twice at half their share. Expected values from the sample's records.
    sample = os.path.join(SRC, "samples", "003_1c776201c8b5b83e.txt")
    data = open(sample, "rb").read()
    p = tmp_path / "twice.log"
    p.write_bytes(data + data)
    recs = list(logscan.records(sample))
    steps = [r for r in recs if r["type"] == "train_step"]
    x = lambda r: r["epoch"] * r["iters"] + r["iter"]  # (the step across epochs)
    tables = sum(1 for r in recs if r["type"] == "table" and r["title"] == "Operator Summary")
    assert len(steps) > 10 and tables >= 1 and data.endswith(b"\n")
    out = run("summary", "--top", "3", str(p)).stdout.decode()
    at = data.count(b"\n") + steps[0]["line"]  # (the second copy's first step)
    assert (f"; the steps go back 1 time, first at line {at} (step {x(steps[0])} after step "
            f"{x(steps[-1])}): a restarted job, or logs joined? The figures are of all of them\n") in out, out
    assert f"top operators by GPU total (ms) of the last of {2 * tables} Operator Summary tables" in out, out
    names = [l.split()[0] for l in out.split("Operator Summary tables")[1].splitlines()[1:4]]
    assert len(set(names)) == 3, out  # (each operator once)
    alone = run("summary", "--top", "3", sample).stdout.decode()
    assert "go back" not in alone and ("of the last of" in alone) == (tables > 1)


def test_a_cell_given_twice_is_said(tmp_path):
    # "a.b" and "a": {"b"} are one flattened column: the last value stands in frames() and in
    # the CSV (as json.loads keeps a repeated key's last), and both say so; records() keeps both
    p = tmp_path / "twice.json"
    p.write_bytes(b'{"traceEvents":[{"ph":"X","name":"k","pid":1,"tid":1,"ts":1,"dur":1,"args":{"a.b":1,"a":{"b":2}}}]}')
    assert [r["args"] for r in logscan.records(p)] == [{"a.b": 1, "a": {"b": 2}}]
    with pytest.warns(RuntimeWarning, match=r"1 column with a cell given twice in a row .*the last stands: span's args\.a\.b"):
        assert list(logscan.frames(p)["span"]["args.a.b"]) == [2]
    r = run("convert", "--to", "csv", "--type", "span", str(p))
    assert r.returncode == 0 and r.stdout.splitlines()[1].decode().split(",")[7] == "2"
    assert f"logscan: {p}: 1 cell(s) given twice in a row".encode() in r.stderr and b"the first: span's args.a.b\n" in r.stderr
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # (a frame of distinct columns: nothing to say)
        logscan.frames(os.path.join(SRC, "samples", "chrome", "event_sync_trace.json.gz"))


def test_a_token_past_max_event_names_the_setting(tmp_path):
    # a key longer than the scratch buffer (`traceEvents`, 11 bytes, past 8) breaks the document
    # (the JSON reader's words): the warning and the command name the setting that reads it
    p = tmp_path / "t.json"
    p.write_bytes(b'{"traceEvents":[{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":1}]}')
    with pytest.warns(RuntimeWarning, match=r"t.json:1:2: object key longer than options::scratch_capacity \(the document breaks "
                      r"there; the records before it are kept; max_event=BYTES reads longer ones\)"):
        list(logscan.records(p, max_event=8))
    said = run("convert", "--max-event", "8", str(p)).stderr
    assert b"t.json:1:2: object key longer than options::scratch_capacity (the document breaks there; the records before it " \
        b"are written; --max-event BYTES reads longer ones)\n" in said


def test_max_event_is_the_commands(tmp_path):
    # a chrome-trace event of about 100 kB: an error record under the default (64 KiB), whole
    # under a larger max_event, in records(), frames() and summary() as in the command
    name = "k" * 100000
    trace = ('{"traceEvents":[\n{"ph":"X","cat":"kernel","name":"%s","pid":1,"tid":2,"ts":1,"dur":2,"args":{"stream":7}},\n'
             '{"ph":"X","cat":"kernel","name":"b","pid":1,"tid":2,"ts":5,"dur":3,"args":{"stream":7}}\n]}\n' % name).encode()
    p = tmp_path / "big.json"
    p.write_bytes(trace)
    assert logscan.DEFAULT_MAX_EVENT == 65536
    assert [r["type"] for r in logscan.records(p)] == ["error", "span"]
    assert list(logscan.records(p)) == cli_records(str(p), "chrome-trace")
    assert [r.get("name") for r in logscan.records(p, max_event=200000)] == [name, "b"]
    assert list(logscan.records(p, max_event=200000)) == cli_records(str(p), "chrome-trace", "--max-event", "200000")
    assert list(logscan.frames(trace, max_event=200000)["span"]["name"]) == [name, "b"]
    assert "error" in logscan.frames(trace)
    with pytest.warns(RuntimeWarning, match=r"1 error record\(s\); the first at event index 0: event too large for the scratch "
                      r"buffer; 1 event\(s\) larger than the scratch buffer, not read \(max_event=BYTES reads them\)"):
        assert logscan.summary(trace)["ranks"][0]["kernels"]["count"] == 1
    for threads in (1, 2):
        assert logscan.summary(trace, max_event=200000, threads=threads, part_size=64)["ranks"][0]["kernels"]["count"] == 2
    for bad in (0, -1, 1 << 31, True, "1"):
        for call in (logscan.records, logscan.frames, logscan.summary):
            with pytest.raises(ValueError, match="max_event"):
                call(p, max_event=bad)


def test_a_number_beyond_range_is_null_everywhere(tmp_path):
    # a cell printed as 1e400: null in NDJSON, NaN in the frame, an empty CSV cell (not "null")
    text = open(os.path.join(SRC, "tests", "data", "tvm_profile_hand.txt"), encoding="utf-8").read()
    text = text.replace("  2,290,805.04  ", "         1e400  ", 1)
    p = tmp_path / "range.txt"
    p.write_text(text, encoding="utf-8")
    call = [r for r in cli_records(str(p), "tvm-profile") if r["type"] == "call"][0]
    assert call["cells"]["Duration (us)"] is None
    assert math.isnan(logscan.frames(p)["call"]["cells.Duration (us)"][0])
    out = tmp_path / "csv"
    out.mkdir()
    assert run("convert", "--to", "csv", "--out-dir", str(out), str(p)).returncode == 0
    import csv

    rows = list(csv.DictReader(open(out / "call.csv", encoding="utf-8")))
    assert rows[0]["cells.Duration (us)"] == ""
    assert rows[1]["cells.Duration (us)"] != ""


def test_a_lone_surrogate_escape_is_u_fffd_in_records_frames_and_the_ndjson(tmp_path):
    # formats.md 6A.2: a lone `\ud800`-style escape is U+FFFD in every output, inside args too
    # (the JSON text the NDJSON writer copies), so no output holds a str that UTF-8 cannot encode
    p = tmp_path / "surrogates.json"
    p.write_bytes(b'{"traceEvents":[{"ph":"X","name":"a\\ud800b","pid":1,"tid":1,"ts":1,"dur":2,'
                  b'"args":{"k":"x\\ud800y","\\udc00":1,"pair":"\\ud83d\\ude00","esc":"\\\\ud800"}}]}')
    want_args = {"k": "x\ufffdy", "\ufffd": 1, "pair": "\U0001f600", "esc": "\\ud800"}
    (span,) = [r for r in cli_records(str(p), "chrome-trace") if r["type"] == "span"]
    assert span["name"] == "a\ufffdb" and span["args"] == want_args
    (rec,) = [r for r in logscan.records(p) if r["type"] == "span"]
    assert rec == span
    f = logscan.frames(p)["span"]
    assert f["args.k"][0] == "x\ufffdy" and f["args.\ufffd"][0] == 1 and f["args.esc"][0] == "\\ud800"


def test_a_trace_of_the_wrong_shape_is_an_error_record_not_a_failure(tmp_path):
    # chrome-trace's own break of the document's shape has no line: not the source's failure
    data = b'{"traceEvents": 5}'
    records = list(logscan.records(data))
    assert records[-1]["type"] == "error" and records[-1]["message"] == "traceEvents is not an array"
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        s = logscan.summary(data)
    assert s["ranks"][0]["document_errors"]
    assert any("1 error record(s)" in str(x.message) for x in w)
    p = tmp_path / "shape.json"
    p.write_bytes(data)
    r = run("summary", "--json", str(p))
    assert b"1 error record(s)" in r.stderr
    assert json.loads(r.stdout)["ranks"][0]["document_errors"] == s["ranks"][0]["document_errors"]


def test_an_integer_beyond_pythons_digit_limit():
    doc = ('{"traceEvents":[{"ph":"X","name":"k","ts":1,"dur":1,"pid":1,"tid":1,"args":{"n":%s}}]}' % ("9" * 5000)).encode()
    with pytest.raises(ValueError):
        list(logscan.records(doc))  # (as json.loads of the NDJSON: Python's limit on int digits)
    with pytest.raises(ValueError):
        logscan.frames(doc)


def test_distinct_strings_past_the_interning_limit():
    # a column whose values stop repeating (past 4096 distinct, more than half its rows) keeps
    # them without a look-up: an object column, every value as the records give it; a column
    # of few values beside it stays a category
    n = 9000
    events = [{"ph": "X", "name": "k%d" % (i // 2 if i < 1000 else i), "cat": "c%d" % (i % 3), "ts": i, "dur": 1, "pid": 1, "tid": 1}
              for i in range(n)]
    f = logscan.frames(chrome(events))["span"]
    assert f["name"].dtype == object
    assert f["name"].tolist() == [e["name"] for e in events]
    assert f["cat"].dtype == "category"
    assert f["cat"].tolist() == [e["cat"] for e in events]
    assert f["name"].tolist() == [r["name"] for r in logscan.records(chrome(events)) if r["type"] == "span"]


def test_category_codes_in_the_narrowest_type():
    # a category's codes come as pandas keeps them (int8 below 127 categories, then int16,
    # int32): written over the cells in place, no copy for pandas to make; missing values -1,
    # and codes remapped where two byte strings read as one str
    from logscan import _logscan

    for k in (1, 126, 127, 300, 32766, 32767):
        # (each string three times before the next: below the interning limit's half of the rows)
        rows = 3 * k + 16
        events = [{"ph": "X", "name": "k", "ts": i, "dur": 1, "pid": 1, "tid": 1} for i in range(rows)]
        for i, e in enumerate(events):
            if i % 7 != 3:
                e["cat"] = "c%d" % min(i // 3, k - 1)
        data = chrome(events)
        cols = {name: (kind, values) for name, kind, values, _ in _logscan.columns("bytes", data, "chrome-trace", ["span"], 1 << 20, 1 << 16, False, 1, 1 << 20)["span"][1]}
        kind, values = cols["cat"]
        assert kind == "category"
        assert values.dtype == (np.int8 if k < 127 else np.int16 if k < 32767 else np.int32)
        f = logscan.frames(data)["span"]
        assert len(values) == rows and len(f["cat"].cat.categories) == k
        assert f["cat"].astype(object).where(f["cat"].notna(), None).tolist() == [e.get("cat") for e in events]
        assert owner(f["cat"].cat.codes.to_numpy()) == "PyCapsule"  # (the module's buffer: pandas made no copy)
    # two names that differ only in invalid bytes: one category, the codes remapped; `_` is a
    # missing name (-1); 30,000 rows: the cells in a mapped block, shrunk to the int8 codes
    n = 30000

    def name(i):
        return [b"a\xff", b"b", b"a\xfe", b"_"][i % 4]

    data = b"%d 0\n" % n + b"".join(b"%d 100 %s\n" % (i, name(i)) for i in range(n))
    cols = {c[0]: c[1:] for c in _logscan.columns("bytes", data, "chainer-memtrace", ["buffer"], 1 << 20, 1 << 16, False, 1, 1 << 20)["buffer"][1]}
    kind, values, cats = cols["name"]
    assert kind == "category" and values.dtype == np.int8 and list(cats) == ["a\ufffd", "b"]
    assert values.tolist() == [[0, 1, 0, -1][i % 4] for i in range(n)]
    f = logscan.frames(data, format="chainer-memtrace")["buffer"]
    assert f["name"].astype(object).where(f["name"].notna(), None).tolist() == [["a\ufffd", "b", "a\ufffd", None][i % 4] for i in range(n)]
    assert owner(f["name"].cat.codes.to_numpy()) == "PyCapsule"


def owner(a):
    """The type name of what holds an array's memory (a view's base, followed to its end)."""
    while isinstance(a, np.ndarray) and a.base is not None:
        a = a.base
    return type(a).__name__


def test_distinct_strings_past_the_interning_limit_on_threads(tmp_path):
    # a column that passes the limit (4096 distinct values, more than half its rows so far)
    # and repeats one value after: an object column, as one thread and two make it (its
    # parts' strings given the absorbing column's codes row by row)
    p = tmp_path / "train.log"
    lines = ["[09/20 12:00:35] ppdet.engine INFO: step %d" % i for i in range(5000)]
    lines += ["[09/20 12:00:36] ppdet.engine INFO: the same"] * 10000
    p.write_text("\n".join(lines) + "\n")
    one = logscan.frames(p, threads=1)["log"]
    assert one["message"].dtype == object and one["logger"].dtype == "category"
    assert one["message"].tolist() == [line.split("INFO: ")[1] for line in lines]
    for part_size in (4096, 65536):
        many = logscan.frames(p, threads=2, part_size=part_size)["log"]
        assert logscan._logscan.last_frames_parts()[0] > 1
        pd.testing.assert_frame_equal(many, one, check_exact=True)
    few = tmp_path / "few.log"  # (below the limit: a category, on threads too)
    few.write_text("\n".join(lines[:4000] + lines[5000:]) + "\n")
    assert logscan.frames(few)["log"]["message"].dtype == "category"
    pd.testing.assert_frame_equal(logscan.frames(few, threads=2, part_size=4096)["log"], logscan.frames(few)["log"], check_exact=True)


def test_frames_columns_of_keys_in_changing_orders(tmp_path):
    # (frames() guesses a key's column from the key before it in the last row that wrote that
    # one: rows whose keys come in other orders, leave keys out, add new ones, nest objects,
    # and repeat a key, must each land in their own columns, as the records flattened)
    args = [
        {"a": 1, "b": 2},
        {"b": 3, "a": 4},
        {"c": 5},
        {"a": 6, "c": 7, "b": 8},
        {"x": {"y": 1, "a": 2}, "a": 9},
        {"a": 10, "x": {"a": 3}},
        {},
        {"b": "s", "a": [1, 2], "c": None},
        {"a": 1, "b": 2},
        {"a": 11, "a2": 12, "b": 13},
    ]
    events = [{"ph": "X", "name": "k%d" % i, "ts": i * 10, "dur": 5, "pid": 1, "tid": 1, "args": a} for i, a in enumerate(args)]
    p = tmp_path / "orders.json"
    p.write_text(json.dumps({"traceEvents": events}))
    expected = {}
    for r in logscan.records(str(p), format="chrome-trace"):
        expected.setdefault(r["type"], []).append(flatten(r))
    assert len(expected["span"]) == len(args)
    frames = logscan.frames(str(p), format="chrome-trace")
    f = frames["span"]
    for c in {c for row in expected["span"] for c in row}:
        got = [cell(v) for v in f[c].tolist()]
        want = [row.get(c) for row in expected["span"]]
        assert got == want, c
    # the args, read from the input: row 4's x.y, row 5's x.a, row 9's a2
    assert cell(f["args.x.y"].tolist()[4]) == 1 and cell(f["args.x.a"].tolist()[5]) == 3 and cell(f["args.a2"].tolist()[9]) == 12


def test_version_home_and_record_types_of_no_name(tmp_path, monkeypatch):
    # logscan.__version__ is the headers' (config.hpp's LOGSCAN_VERSION_STRING, as the command's
    # --version says it); a path's ~ is the home directory, as pandas reads it; record_types of
    # no name says what it takes (helper-54)
    config = open(os.path.join(SRC, "include", "logscan", "config.hpp")).read()
    assert logscan.__version__ == re.search(r'#define LOGSCAN_VERSION_STRING "([^"]+)"', config).group(1)
    assert run("--version").stdout.decode() == f"logscan {logscan.__version__}\n"
    monkeypatch.setenv("HOME", str(tmp_path))
    (tmp_path / "train.log").write_bytes(open(os.path.join(SRC, "samples", "003_1c776201c8b5b83e.txt"), "rb").read())
    assert logscan.detect("~/train.log") == "paddle-log"
    assert len(list(logscan.records("~/train.log"))) == len(list(logscan.records(tmp_path / "train.log")))
    with pytest.raises(TypeError, match="a format's name, one of"):
        logscan.record_types(None)


def test_a_legacy_paddle_reports_summary_is_its_last_reports_top_level_events(tmp_path):
    # helper-56: nested rows were ranked beside their parent, two reports added together, and the
    # shares taken of the rows read: 'matmul_v2 37.50%' where its Ratio. column says 0.6. Now the
    # last report's top-level events, each share of its `Total time`, as the report's own
    # Ratio. column gives it (tests/data/paddle_log_legacy_two_reports.txt: 6 and 4 of 10)
    p = os.path.join(SRC, "tests", "data", "paddle_log_legacy_two_reports.txt")
    out = run("summary", p).stdout.decode().splitlines()
    assert out[1:] == ["  legacy profiler report (the last of 2): top events by total time (ms), of 2 top-level events; "
                       "share of its Total time:",
                       "    matmul_v2                                              6.0000  60.00%",
                       "    relu                                                   4.0000  40.00%"], out
    # the published report: each share is its Ratio. cell (x 100)
    sample = os.path.join(SRC, "samples", "today", "paddle_pr22590_old_profiling_report.txt")
    rows = {r["name"]: r["cells"]["Ratio."] for r in logscan.records(sample, types="table_row")
            if r["table"] == "Event Summary" and r["depth"] == 0}
    got = {l.split()[0]: float(l.split()[-1].rstrip("%")) for l in run("summary", sample).stdout.decode().splitlines()[2:]}
    assert got and got == {n: round(100 * v, 2) for n, v in rows.items()}


def test_a_tvm_report_jsons_summary_sums_the_calls_of_a_kernel(tmp_path):
    # helper-56: each call ranked alone hid the top kernel (ten calls of fused_conv2d2_add2, 37%);
    # now a name's calls are summed and counted. Expected from the document itself (json.loads)
    sample = os.path.join(SRC, "samples", "today", "semcomm_tvm_report_json_text_tuned_top2.json.txt")
    doc = json.loads(open(sample).read())
    sums, counts = collections.defaultdict(float), collections.Counter()
    for c in doc["calls"]:
        sums[c["Name"]["string"]] += c["Duration (us)"]["microseconds"]
        counts[c["Name"]["string"]] += 1
    total = sum(m["Duration (us)"]["microseconds"] for m in doc["device_metrics"].values())
    top = sorted(sums, key=lambda n: -sums[n])[:3]
    lines = run("summary", "--top", "3", sample).stdout.decode().splitlines()[2:5]
    assert [l.split()[0] for l in lines] == top and counts[top[0]] > 1
    for l, n in zip(lines, top):
        assert l.split()[1:] == [f"{sums[n]:.2f}", "us", f"{100 * sums[n] / total:.2f}%", f"x{counts[n]}"], l


def test_convert_with_threads_says_where_a_document_breaks(tmp_path):
    # a JSON document is one part whatever the threads: read on one, its break said as without
    # --threads (helper-56: the note was lost with --threads 2)
    sample = os.path.join(SRC, "samples", "today", "semcomm_tvm_report_json_text_tuned_top2.json.txt")
    p = tmp_path / "cut.json"
    p.write_bytes(open(sample, "rb").read()[:20000])
    for cmd in ("convert", "stats"):
        one, two = run(cmd, "--threads", "1", str(p)), run(cmd, "--threads", "2", str(p))
        assert b"the document breaks there" in one.stderr and b"inside the document: cut short?" in one.stderr
        if cmd == "convert":
            assert one.stdout == two.stdout and one.stderr == two.stderr and one.returncode == two.returncode == 1


def test_a_memory_table_whose_rows_are_cut_is_said_so(tmp_path):
    # the CompNode sample cut inside its table's first row: no complete row, and the cut said
    # (helper-56: "no memory tables", beside the error record of the cut row)
    data = open(os.path.join(SRC, "samples", "today", "mge_documentation_lar_debug_static_mem_compnode_wide.txt"), "rb").read()
    first = next(r for r in logscan.records(data) if r["type"] == "mem_alloc")
    lines = data.split(b"\n")
    p = tmp_path / "cut.log"
    row = lines[first["line"] - 1]
    p.write_bytes(b"\n".join(lines[: first["line"] - 1]) + b"\n" + row[: row.index(b"MiB(") + 8] + b"\n")  # (cut inside its numbers)
    out = run("summary", str(p)).stdout.decode()
    assert f"static memory allocation: no complete row; 1 row cut off (the first at line {first['line']}), not counted\n" in out, out


def _frames_match_records(frames, records):
    expected = {}
    for r in records:
        expected.setdefault(r["type"], []).append(flatten(r))
    assert sorted(frames) == sorted(expected)
    for t, rows in expected.items():
        f = frames[t]
        assert len(f) == len(rows)
        for c in f.columns:
            assert [cell(v) for v in f[c].tolist()] == [row.get(c) for row in rows], (t, c)


def test_frames_of_large_columns_with_and_without_huge_pages(tmp_path):
    # columns and string pools past 64 KiB (their own mappings; the pool grown by mremap) with
    # transparent huge pages asked for (the default) and not (LOGSCAN_HUGEPAGES=0, read once
    # in a process: a process of its own each): the command's records, flattened, either way
    # (the seed's header lines, each with a message of its own: 40,000 rows, so that the
    # message pool passes 2 MiB: grown by mremap past its first mapping of 2 MiB)
    big = tmp_path / "big.log"
    big.write_bytes(b"".join(b"[06 15:13:35 330@env.py:meghair.train.env] WRN step %d of a warning that no line repeats, "
                             b"printed long enough that the messages pass two mebibytes\n" % i for i in range(40_000)))
    records = cli_records(str(big), "megengine-log")
    assert len(records) == 40_000 and all(r["type"] == "log" for r in records)
    assert sum(len(r["message"]) for r in records) > 2 << 20
    code = "import pickle, sys, logscan; sys.stdout.buffer.write(pickle.dumps(logscan.frames(sys.argv[1], threads=1)))"
    default = {k: v for k, v in os.environ.items() if k != "LOGSCAN_HUGEPAGES"}
    for env in (default, {**default, "LOGSCAN_HUGEPAGES": "0"}):
        r = subprocess.run([sys.executable, "-c", code, str(big)], env=env, capture_output=True, check=True)
        _frames_match_records(pickle.loads(r.stdout), records)
