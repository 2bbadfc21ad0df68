#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# `logscan --threads`: throughput of `logscan stats` and `logscan convert` (NDJSON to
# /dev/null) with one thread and with N, on each splittable format's sample repeated to
# --mb MB, in one run (alternating, best of --runs), and the ratio. The outputs of the
# two are compared too (they must be byte-identical). For scale, the machine's own ceiling:
# N one-thread processes on the same input at once, their total throughput against one
# process alone (what N cores give this work here, with no splitting at all).
#   bench/threads.py LOGSCAN [--mb 200] [--runs 5] [--threads 2]
import argparse
import hashlib
import os
import subprocess
import tempfile
import time

SAMPLES = [('megengine-log', '000_cf8afa6c099f806b.txt'), ('paddle-log', '003_1c776201c8b5b83e.txt'),
           ('tvm-profile', '004_d73c77cb3fb2895c.txt')]


def timed(args, out):
    t = time.perf_counter()
    r = subprocess.run(args, stdout=out, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t, r.returncode


def concurrent(args, n):
    t = time.perf_counter()
    ps = [subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for _ in range(n)]
    for p in ps:
        assert p.wait() == 0
    return time.perf_counter() - t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('logscan')
    ap.add_argument('--mb', type=int, default=200)
    ap.add_argument('--runs', type=int, default=5)
    ap.add_argument('--threads', type=int, default=2)
    a = ap.parse_args()
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'samples')
    print(f'logscan --threads {a.threads} against one thread, {a.mb} MB inputs, best of {a.runs} (MB/s)')
    print(f'{"format":<15} {"command":<8} {"1 thread":>9} {str(a.threads) + " threads":>10} {"ratio":>6}'
          f' {str(a.threads) + " processes":>12}')
    with tempfile.TemporaryDirectory() as d:
        for fmt, name in SAMPLES:
            data = open(os.path.join(root, name), 'rb').read()
            path = os.path.join(d, name)
            with open(path, 'wb') as f:
                for _ in range(a.mb * 1000000 // len(data) + 1):
                    f.write(data)
            size = os.path.getsize(path)
            digests = set()
            for t in (1, a.threads):
                r = subprocess.run([a.logscan, 'convert', '--format', fmt, '--threads', str(t), path], capture_output=True)
                digests.add(hashlib.sha256(r.stdout).hexdigest())
            if len(digests) != 1:
                raise SystemExit(f'{fmt}: the NDJSON of 1 and {a.threads} threads differ')
            for cmd in ('stats', 'convert'):
                best = {1: float('inf'), a.threads: float('inf'), 'p': float('inf')}
                for _ in range(a.runs):
                    for t in (1, a.threads):
                        args = [a.logscan, cmd, '--format', fmt, '--threads', str(t), path]
                        s, rc = timed(args, subprocess.DEVNULL)
                        assert rc == 0, f'{args}: exit {rc}'
                        best[t] = min(best[t], s)
                    best['p'] = min(best['p'], concurrent([a.logscan, cmd, '--format', fmt, path], a.threads))
                one, many = size / best[1] / 1e6, size / best[a.threads] / 1e6
                procs = a.threads * size / best['p'] / 1e6
                print(f'{fmt:<15} {cmd:<8} {one:9.0f} {many:10.0f} {many / one:6.2f} {procs / one:12.2f}')


if __name__ == '__main__':
    main()
