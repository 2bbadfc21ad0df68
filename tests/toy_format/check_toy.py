#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The toy format (a seventh) (toy_format.hpp) through the command's generic code: detection,
# NDJSON, CSV, stats, --threads, --type and the usage texts, each checked against what this
# script reads off the input itself.
#   check_toy.py LOGSCAN_WITH_TOY
import csv
import io
import json
import re
import subprocess
import sys

problems = []


def check(cond, what):
    if not cond:
        problems.append(what)


def run(args, stdin=None):
    return subprocess.run(args, input=stdin, capture_output=True)


def number(v):
    try:
        f = float(v)
    except ValueError:
        return None
    return f if f == f and f not in (float('inf'), float('-inf')) else None


def main():
    exe = sys.argv[1]
    block = 'TOY alpha=1\nTOY beta=2.5\na stray line   \nTOY gamma=x\n\nTOY delta=-3\n'
    text = (block * 50).encode()
    # what the input holds, read off it here
    want = []
    for n, line in enumerate(text.decode().split('\n')[:-1], 1):
        m = re.fullmatch(r'TOY (\w+)=(\S*) *', line)
        if m:
            want.append({'type': 'pair', 'line': n, 'key': m[1], 'value': m[2], 'number': number(m[2])})
        elif line.strip():
            want.append({'type': 'text', 'line': n, 'text': line.rstrip(' ')})
    r = run([exe, 'detect', '-'], text)
    check(r.stdout == b'-: toy-kv\n' and r.returncode == 0, f'detect: {r.stdout!r} exit {r.returncode}')
    one = run([exe, 'convert', '-'], text)
    got = [json.loads(l) for l in one.stdout.decode().splitlines()]
    check(one.returncode == 0 and got == want, f'convert: exit {one.returncode}, {len(got)} records, {len(want)} expected')
    for part in ('7', '40', '1000'):
        many = run([exe, 'convert', '--threads', '2', '--part-size', part, '-'], text)
        check(many.stdout == one.stdout, f'--threads 2 --part-size {part}: differs from one thread')
    c = run([exe, 'convert', '--to', 'csv', '--type', 'pair', '-'], text)
    rows = list(csv.DictReader(io.StringIO(c.stdout.decode(), newline='')))
    pairs = [w for w in want if w['type'] == 'pair']
    check(c.returncode == 0 and len(rows) == len(pairs), f'csv: exit {c.returncode}, {len(rows)} rows, {len(pairs)} pairs')
    check(all(row['key'] == p['key'] and row['value'] == p['value'] and int(row['line']) == p['line'] and
              (row['number'] == '' if p['number'] is None else float(row['number']) == p['number'])
              for row, p in zip(rows, pairs)), 'csv rows differ from the input')
    st = run([exe, 'stats', '-'], text)
    counts = {l.split()[0]: int(l.split()[1]) for l in st.stdout.decode().splitlines() if l.startswith('    ')}
    check(counts == {'pair': len(pairs), 'text': len(want) - len(pairs)}, f'stats: {counts}')
    t = run([exe, 'convert', '--type', 'nope', '-'], text)
    check(t.returncode == 2 and b'pair' in t.stderr, f'--type nope: exit {t.returncode}, {t.stderr!r}')
    h = run([exe, '--help'])
    check(b'toy-kv' in h.stdout, 'the usage text does not name toy-kv')
    d = run([exe, 'detect', '--help'])
    check(b'toy-kv' in d.stdout and b'`TOY key=value` lines' in d.stdout, 'detect --help does not name the toy signals')
    s = run([exe, 'summary', '-'], text)
    check(s.returncode == 1 and b'toy-kv has no summary report' in s.stderr, f'summary: exit {s.returncode} {s.stderr!r}')
    f = run([exe, 'convert', '--format', 'toy-kv', '-'], b'nothing of the toy\n')
    check(f.returncode == 1 and b'no toy-kv records; 1 non-blank line was text' in f.stderr, f'prose: {f.stderr!r}')
    for p in problems:
        print(p)
    print(f'{12 - len(problems)} passed, {len(problems)} failed')
    sys.exit(1 if problems else 0)


if __name__ == '__main__':
    main()
