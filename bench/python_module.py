#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The Python module against its bars (issue 25), one run, Debian's python3, each seed sample
# repeated to --mb MB (the megengine-profile document enlarged to one document of --mb MB,
# every section's members repeated with unique keys, as bench_megengine_profile does; the
# Chainer graph copied side by side with its ids remapped, as bench_chainer_memtrace does) and
# read from a file in the page cache:
#   - logscan.frames(path), its default threads (the cores, at most 8, or OMP_NUM_THREADS:
#     in parts where the format is read so, megengine-log, paddle-log and tvm-profile),
#     against `logscan stats` on the same file (bar: >= 0.5) and against the straightforward
#     Python parser of tests/reference/<format>.py --count (bar: >= 20x; it runs at a few MB/s,
#     so on the first --ref-mb MB of the input); and frames(path, threads=1) (`1 thr`,
#     `f1/st`) against the same stats;
#   - logscan.records(path), every record, against json.loads over each line of the
#     command's NDJSON of the same file (bar: >= 5x; the NDJSON made beforehand, not timed);
#     both sides consume their dicts the same way, one at a time, keeping none (a list of
#     one side's dicts only would time the other's garbage collector over millions of live
#     objects: it made json.loads look 1.2-3x slower than it is); and, as the floor of making
#     those objects at all, marshal.loads of each record's marshal bytes (CPython's own loader:
#     no text to parse, the same dicts, strs, ints and floats made); and the floor of any
#     reader of these records: the parse alone (as `logscan stats` times it) plus each dict and list
#     copied from one made already (dict.copy: no key inserted) and each number made anew
#     (object_floor), given as json.loads' time over it: the most records() could reach;
#   - many small files: frames() of sample 001 as it is (0.4 MB, one profiler dump), per call,
#     against the parse alone (the module's columns without pandas) and `logscan stats` on the
#     same file given --mb/0.4 times;
#   - threads: frames() of two megengine-log files of up to 50 MB each on two threads against
#     one of them on one thread (the GIL is released while parsing: about 1x on 2 cores).
# pandas and numpy are imported before timing (a notebook has them already).
#   /usr/bin/python3 bench/python_module.py BUILD_DIR [--mb 200] [--runs 1] [--ref-mb 10]
# BUILD_DIR: a tree built with -DLOGSCAN_BUILD_PYTHON=ON (its python/ and its logscan command).
import json
import marshal
import os
import re
import subprocess
import sys
import tempfile
import threading
import time

args = sys.argv[1:]
if not args or args[0].startswith("-"):
    sys.exit(__doc__ or "usage: python_module.py BUILD_DIR [--mb N] [--runs R] [--ref-mb N]")
build = os.path.abspath(args[0])


def opt(name, default):
    return float(args[args.index(name) + 1]) if name in args else default


mb, runs, ref_mb = opt("--mb", 200), int(opt("--runs", 1)), opt("--ref-mb", 10)
sys.path.insert(0, os.path.join(build, "python"))
import numpy  # noqa: E402,F401  (imported before timing)
import pandas  # noqa: E402,F401

import logscan  # noqa: E402

SRC = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
CLI = os.path.join(build, "examples", "logscan", "logscan")
SAMPLES = [
    ("megengine-log", "000_cf8afa6c099f806b.txt", "megengine_log.py"),
    ("megengine-profile", "001_825e28a4f520ddc2.txt", "megengine_profile.py"),
    ("chainer-memtrace", "002_925085f7148f0ebf.txt", "chainer_memtrace.py"),
    ("paddle-log", "003_1c776201c8b5b83e.txt", "paddle_log.py"),
    ("tvm-profile", "004_d73c77cb3fb2895c.txt", "tvm_profile.py"),
]


def drain(records):
    """Consumes an iterator of records, keeping none (how both records() and json.loads are timed)."""
    for _ in records:
        pass


def _string_end(t, i):
    """Index of the quote closing the JSON string that opens at t[i]."""
    j = i + 1
    while t[j] != '"':
        j += 2 if t[j] == "\\" else 1
    return j


def _close_of(t, i):
    """Index one past the container opening at t[i] (strings skipped)."""
    depth = 0
    while i < len(t):
        c = t[i]
        if c == '"':
            i = _string_end(t, i)
        elif c in "{[":
            depth += 1
        elif c in "}]":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return len(t)


def _key_pieces(inner):
    """An object's inner text cut after each of its own keys (before the closing quote)."""
    pieces, start, depth, expect_key, i = [], 0, 0, True, 0
    while i < len(inner):
        c = inner[i]
        if c == '"':
            j = _string_end(inner, i)
            if depth == 0 and expect_key:
                pieces.append(inner[start:j])
                start = j
            expect_key = False
            i = j + 1
            continue
        if c in "{[":
            depth += 1
        elif c in "}]":
            depth -= 1
        elif depth == 0 and c == ",":
            expect_key = True
        i += 1
    return pieces + [inner[start:]]


def profile_document(data, k):
    """Sample 001 with each section (the containers three levels down) repeated k times, an
    object's keys given the suffix #r in copy r (bench_megengine_profile's input)."""
    t = data.decode()
    out, start, depth, i = [], 0, 0, 0
    while i < len(t):
        c = t[i]
        if c == '"':
            i = _string_end(t, i) + 1
            continue
        if c in "{[" and depth == 2:  # a section: profiler.host, graph_exec.var, ...
            end = _close_of(t, i)
            inner = t[i + 1 : end - 1]
            out.append(t[start : i + 1])
            if inner.strip(" \t\n"):
                if c == "{":
                    pieces = _key_pieces(inner)
                    out.append(",".join(f"#{r}".join(pieces) for r in range(k)))
                else:
                    out.append(",".join([inner] * k))
            out.append(t[end - 1])
            start = i = end
            continue
        if c in "{[":
            depth += 1
        elif c in "}]":
            depth -= 1
        i += 1
    out.append(t[start:])
    return "".join(out).encode()


def chainer_graph(data, k):
    """Sample 002's graph copied k times side by side (bench_chainer_memtrace's input): one
    header, copy j's buffers with ids + B*j, then the function records cycled k times, copy
    j's input and output ids + B*j."""
    lines = data.decode().splitlines()
    nb, nf = (int(x) for x in lines[0].split())
    buffers, rest = lines[1 : 1 + nb], lines[1 + nb :]
    functions, at = [], 0
    while at < len(rest) and rest[at] in ("forward", "backward"):
        nin, nout = (int(x) for x in rest[at + 1].split())
        functions.append((rest[at], nin, nout, rest[at + 2 : at + 2 + nin], rest[at + 2 + nin : at + 2 + nin + nout], rest[at + 2 + nin + nout : at + 4 + nin + nout]))
        at += 4 + nin + nout
    assert len(functions) == nf, (len(functions), nf)
    out = [f"{nb * k} {nf * k}"]
    for j in range(k):
        for b in buffers:
            i, size, name = b.split(" ", 2)
            out.append(f"{int(i) + nb * j} {size} {name}")
    for j in range(k):
        for direction, nin, nout, ins, outs, tail in functions:
            out += [direction, f"{nin} {nout}"]
            for x in ins:
                i, role = x.split(" ", 1)
                out.append(f"{int(i) + nb * j} {role}")
            out += [str(int(x) + nb * j) for x in outs] + tail
    return ("\n".join(out) + "\n").encode()


def best(f, n=runs):
    t = float("inf")
    for _ in range(n):
        s = time.perf_counter()
        f()
        t = min(t, time.perf_counter() - s)
    return t


def stats_parse_seconds(path, fmt, times):
    """The parse's own time as `logscan stats` reports it (its bytes over its speed, summed over
    the files), best of the runs: without the process's start, which on a small input would
    be most of `t_stats` and lower the floor below what records() reaches."""
    def once():
        out = subprocess.run([CLI, "stats", "--format", fmt] + [path] * times, capture_output=True, check=True).stdout.decode()
        size = [float(x) for x in re.findall(r"^  bytes +(\d+)$", out, re.M)]
        speed = [float(x) for x in re.findall(r"^  speed +([0-9.]+) MB/s$", out, re.M)]
        assert len(size) == len(speed) == times and all(v > 0 for v in speed), out
        return sum(b / (v * 1e6) for b, v in zip(size, speed))
    return min(once() for _ in range(max(runs, 1)))


def object_floor(ndjson, times):
    """The least time any reader takes to make the objects json.loads makes of these NDJSON
    lines (times over): each dict and list copied from one already made (dict.copy: one
    memcpy of its table, the cheapest way CPython makes a dict with those entries; no key
    looked up or inserted) and each float and int beyond CPython's cache of small ints made
    anew (its value given, no text read). Strings and keys are taken as made already (a
    reader may cache them). With the parse alone (`logscan stats`) it bounds what records()
    can reach: no reader that makes these objects runs faster."""
    import collections
    import gc
    import operator

    dicts, lists, floats, ints = [], [], [], []

    def walk(o):
        if isinstance(o, dict):
            dicts.append(o)
            values = o.values()
        else:
            lists.append(o)
            values = o
        for v in values:
            if isinstance(v, (dict, list)):
                walk(v)
            elif isinstance(v, float):
                floats.append(v)
            elif isinstance(v, int) and not isinstance(v, bool) and not -5 <= v <= 256:
                ints.append(v)

    for line in ndjson:
        walk(json.loads(line))
    zeros_f, zeros_i = [0.0] * len(floats), [0] * len(ints)
    consume = collections.deque  # (a C loop, cheaper than drain's: the floor is lower for it)
    gc.freeze()  # (the objects kept for the copies are not walked by the collector)
    try:
        t = best(lambda: [(consume(map(dict.copy, dicts), 0), consume(map(list.copy, lists), 0),
                           consume(map(operator.add, floats, zeros_f), 0), consume(map(operator.add, ints, zeros_i), 0))
                          for _ in range(times)])
    finally:
        gc.unfreeze()
    return t


def main():
    tmp = tempfile.mkdtemp(prefix="logscan-pybench-")
    print(f"Python module (build {build}), {mb:g} MB inputs, best of {runs}; ratios in the same run")
    print(f"  {'format':18} {'stats':>8} {'frames':>8} {'f/stats':>8} {'1 thr':>7} {'f1/st':>6} {'ref':>7} {'f/ref':>7} {'records':>8} {'loads':>7} {'r/loads':>8} {'marshal':>8} {'m/loads':>8} {'floor':>7}  (MB/s)")
    for fmt, sample, ref in SAMPLES:
        data = open(os.path.join(SRC, "samples", sample), "rb").read()
        copies = max(1, int(mb * 1e6 // len(data)))
        whole = True
        if fmt == "chainer-memtrace":
            data = chainer_graph(data, copies)
            copies = 1
        elif fmt == "megengine-profile":
            data = profile_document(data, copies)
            copies = 1
        path = os.path.join(tmp, sample)
        with open(path, "wb") as f:
            f.write(data * copies if whole else data)
        size = len(data) * copies / 1e6
        times = 1 if whole else copies

        def each(fn):
            return lambda: [fn() for _ in range(times)]

        # (the command reads the document's copies as one job's files, in one process)
        t_stats = best(lambda: subprocess.run([CLI, "stats", "--format", fmt] + [path] * times, capture_output=True, check=True))
        t_frames = best(each(lambda: logscan.frames(path, format=fmt)))
        t_frames1 = best(each(lambda: logscan.frames(path, format=fmt, threads=1)))
        t_records = best(each(lambda: drain(logscan.records(path, format=fmt))))
        ndjson = subprocess.run([CLI, "convert", "--format", fmt, path], capture_output=True, check=True).stdout.splitlines()
        t_loads = best(each(lambda: drain(map(json.loads, ndjson))))
        packed = [marshal.dumps(json.loads(line)) for line in ndjson]
        t_marshal = best(each(lambda: drain(map(marshal.loads, packed))))
        del packed
        t_floor = stats_parse_seconds(path, fmt, times) + object_floor(ndjson, times)
        del ndjson
        # the reference parser on the first ref_mb MB (whole copies of the sample)
        ref_copies = max(1, int(ref_mb * 1e6 // len(data))) if whole else 1
        ref_path = os.path.join(tmp, "ref." + sample)
        with open(ref_path, "wb") as f:
            if fmt in ("chainer-memtrace", "megengine-profile"):
                raw = open(os.path.join(SRC, "samples", sample), "rb").read()
                data = (chainer_graph if fmt == "chainer-memtrace" else profile_document)(raw, max(1, int(ref_mb * 1e6 // len(raw))))
                ref_copies = 1
            f.write(data * ref_copies)
        ref_times = 1 if whole else max(1, int(ref_mb * 1e6 // len(data)))
        t_ref = best(lambda: [subprocess.run([sys.executable, os.path.join(SRC, "tests", "reference", ref), "--count", ref_path],
                                             capture_output=True, check=True) for _ in range(ref_times)], 1)
        ref_size = len(data) * ref_copies * ref_times / 1e6
        os.remove(ref_path)
        os.remove(path)
        r = lambda t: size / t  # noqa: E731
        ref_rate = ref_size / t_ref
        print(f"  {fmt:18} {r(t_stats):8.0f} {r(t_frames):8.0f} {t_stats / t_frames:8.2f} {r(t_frames1):7.0f} {t_stats / t_frames1:6.2f} {ref_rate:7.1f} {r(t_frames) / ref_rate:6.0f}x"
              f" {r(t_records):8.0f} {r(t_loads):7.1f} {t_loads / t_records:7.1f}x {r(t_marshal):8.0f} {t_loads / t_marshal:7.1f}x {t_loads / t_floor:6.1f}x")
    print("  bars (issue 25): frames >= 0.5 of stats and >= 20x the reference parser; records >= 5x json.loads")
    print(f"  (frames: its default threads, {logscan._threads(None)} on this host, in parts where the format is read so; 1 thr: threads=1)")
    print("  (marshal: the same objects made by marshal.loads, CPython's own loader; m/loads its speed-up on json.loads)")
    print("  (floor: json.loads over the least time any reader takes to parse this input and make its objects: the parse")
    print("   alone, as `logscan stats` times it, and each dict and list copied from one made already, each number made anew;")
    print("   no reader of these records reaches more than this on json.loads)")
    small_files_figure(tmp)
    threads_figure(tmp)
    os.rmdir(tmp)


def small_files_figure(tmp):
    sample = os.path.join(SRC, "samples", SAMPLES[1][1])
    fmt = SAMPLES[1][0]
    times = max(1, int(mb * 1e6 // os.path.getsize(sample)))
    lib = logscan._logscan
    t_stats = best(lambda: subprocess.run([CLI, "stats", "--format", fmt] + [sample] * times, capture_output=True, check=True)) / times
    t_frames = best(lambda: [logscan.frames(sample, format=fmt) for _ in range(times)]) / times
    t_parse = best(lambda: [lib.columns(*logscan._input(sample), fmt, None, logscan.DEFAULT_MAX_LINE, logscan.DEFAULT_MAX_EVENT, False, 1, 1 << 20) for _ in range(times)]) / times
    print(f"  many small files: frames() of one {fmt} dump ({os.path.getsize(sample) / 1e6:.1f} MB) {t_frames * 1e3:.2f} ms per call,"
          f" its columns without pandas {t_parse * 1e3:.2f} ms, `logscan stats` {t_stats * 1e3:.2f} ms per file"
          f" ({times} files): pandas' construction of the frames is {(t_frames - t_parse) * 1e3:.2f} ms")


def threads_figure(tmp):
    fmt, sample = SAMPLES[0][0], SAMPLES[0][1]
    data = open(os.path.join(SRC, "samples", sample), "rb").read()
    data *= max(1, int(min(mb, 50) * 1e6 // len(data)))
    paths = [os.path.join(tmp, "thread%d.%s" % (j, sample)) for j in range(2)]
    for p in paths:
        with open(p, "wb") as f:
            f.write(data)

    def two():
        ts = [threading.Thread(target=logscan.frames, args=(p,), kwargs={"format": fmt, "threads": 1}) for p in paths]
        for t in ts:
            t.start()
        for t in ts:
            t.join()

    t_one = best(lambda: logscan.frames(paths[0], format=fmt, threads=1), max(runs, 2))
    t_two = best(two, max(runs, 2))
    for p in paths:
        os.remove(p)
    print(f"  threads: frames() of two {len(data) / 1e6:.0f} MB {fmt} files on two threads {t_two:.2f} s, one on one thread"
          f" {t_one:.2f} s: {t_two / t_one:.2f}x (about 1 on 2 cores: the GIL is released while parsing)")


if __name__ == "__main__":
    main()
