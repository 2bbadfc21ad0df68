#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Runs `logscan convert --format FORMAT INPUT` and an independent Python reference on INPUT,
# and checks that the records agree: every output line is one JSON object with "type" first
# and "line" second (where the reference has lines), the same records in the same order, the
# same keys, the same JSON types, strings equal, numbers equal within a relative 1e-12; and
# the exit status is EXPECTED_STATUS. For chrome-trace, whose numbers are copied byte for byte
# and whose objects keep duplicate keys (formats.md 6A.2), the lines must be equal as text,
# apart from an error's free-text message; in every other format no object of a record gives
# a key twice (README: a record never holds two values under one key), a table row's `cells`
# apart (keyed by the header's texts as the tool printed them).
#   check_convert.py LOGSCAN FORMAT REFERENCE.py INPUT EXPECTED_STATUS
import json
import subprocess
import sys


def same(a, b):
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, float) and isinstance(b, float):
        return a == b or abs(a - b) <= 1e-12 * max(abs(a), abs(b))
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


def main():
    logscan, fmt, reference, path, status = sys.argv[1:6]
    run = subprocess.run([logscan, 'convert', '--format', fmt, path], capture_output=True)
    ref = subprocess.run([sys.executable, reference, path], capture_output=True, check=True)
    got = [json.loads(l) for l in run.stdout.decode('utf-8').splitlines()]
    want = [json.loads(l) for l in ref.stdout.decode('utf-8').splitlines()]
    bad = 0
    if fmt == 'chrome-trace':
        def text(out):
            lines = out.decode('utf-8').splitlines()
            return [l[:l.index(',"message":')] + '}' if l.startswith('{"type":"error"') else l for l in lines]
        for i, (g, w) in enumerate(zip(text(run.stdout), text(ref.stdout))):
            if g != w:
                print(f'record {i} differs as text:\n  logscan:   {g}\n  reference: {w}')
                bad += 1
                if bad > 10:
                    break
    if fmt != 'chrome-trace':  # (a record never holds two values under one key: README; a trace's args keep theirs)
        class Pairs(list):
            pass

        def twice(o, skip=()):
            """The keys an object of `o` gives twice, `skip`'s values not looked into (a table
            row's cells are keyed by the header's texts as printed)."""
            if isinstance(o, Pairs):
                names = [k for k, _ in o]
                found = sorted({k for k in names if names.count(k) > 1})
                return found + [d for k, v in o if k not in skip for d in twice(v)]
            if isinstance(o, list):
                return [d for x in o for d in twice(x)]
            return []
        for i, line in enumerate(run.stdout.decode('utf-8').splitlines()):
            if found := twice(json.loads(line, object_pairs_hook=Pairs), ('cells',)):
                print(f'record {i}: a key given twice {found}: {line}')
                bad += 1
    for i, r in enumerate(got):
        keys = list(r)
        if keys[0] != 'type' or ('line' in r and keys[1] != 'line'):
            print(f'record {i}: "type" must come first, then "line": {r}')
            bad += 1
    for i, (g, w) in enumerate(zip(got, want)):
        if fmt == 'chrome-trace':
            break  # (compared as text above)
        if not same(g, w):
            print(f'record {i} differs:\n  logscan:   {json.dumps(g)}\n  reference: {json.dumps(w)}')
            bad += 1
            if bad > 10:
                break
    if len(got) != len(want):
        print(f'{len(got)} records from logscan, {len(want)} from the reference')
        bad += 1
    if run.returncode != int(status):
        print(f'exit status {run.returncode}, expected {status}; stderr: {run.stderr.decode()}')
        bad += 1
    print(f'{len(got)} records compared, {bad} problem(s)')
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()
