#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The tvm-profile extraction the way a pandas user would write it, for bench_tvm_profile:
# the report lines (run, mean time, Configuration blocks, other text) with `re`, and each
# report table (rows and footer) with one pandas.read_fwf call. Its column spans come from
# the header: the first column from 0 to where the second column's name starts, the second
# from there to its name's right edge, every other one from the previous name's right edge
# to its own (TVM right-aligns them). The numeric columns (`Duration (us)`, `Percent`,
# `Count`, `perf::*`) are parsed as numbers (`,` thousands separators), the others kept as
# text. A benchmark contender, not a reference: it tells a table's rows from the debug
# prints between them only by a cell past the first column, and counts characters, not
# bytes (tests/reference/tvm_profile.py is the exact reading of formats.md; on sample 004
# both give the same records and cells).
#   python3 tvm_profile_pandas.py --count FILE   prints the number of records per type
import io
import re
import sys

import pandas as pd

RUN = re.compile(r'Evaluate vm inference cost of (\S+) on (\S+)')
MEAN = re.compile(r'Mean .* time \(std dev\): (\d+(?:\.\d+)?) ms \((\d+(?:\.\d+)?) ms\)')
DASHES = re.compile(r'-{3,}')
CONFIG = re.compile(r'([A-Za-z][A-Za-z0-9 _-]*): (.*)')
COLUMN = re.compile(r'[^ ]+(?: [^ ]+)*')  # header names are separated by two or more spaces


def numeric_column(title):
    return title in ('Duration (us)', 'Percent', 'Count') or title.startswith('perf::')


def read_table(header, rows, footer):
    """One read_fwf over a table's rows and footer rows: (calls, totals) DataFrames."""
    spans = [(m.start(), m.end(), m.group()) for m in COLUMN.finditer(header)]
    names = [t for _, _, t in spans]
    colspecs = [(0, spans[1][0] if len(spans) > 1 else None)]
    colspecs += [(spans[i][0] if i == 1 else spans[i - 1][1], spans[i][1]) for i in range(1, len(spans))]
    df = pd.read_fwf(io.StringIO('\n'.join(rows + footer)), colspecs=colspecs, names=names, header=None,
                     thousands=',', dtype={t: str for t in names if not numeric_column(t)})
    return df.iloc[:len(rows)], df.iloc[len(rows):]


def records(text):
    counts = dict(run=0, mean_time=0, call=0, total=0, config=0, text=0)
    frames = []
    lines = text.split('\n')
    if lines and lines[-1] == '':
        lines.pop()
    lines = [l[:-1] if l.endswith('\r') else l for l in lines]
    i = 0
    while i < len(lines):
        t = lines[i].rstrip(' \t')
        i += 1
        if t == '':
            continue
        if t.startswith('Name') and 'Duration (us)' in t:
            header, rows, footer = lines[i - 1], [], []
            name_end = header.index('Duration (us)')
            part = rows
            while i < len(lines):
                raw = lines[i]
                s = raw.rstrip(' \t')
                if s == '':
                    i += 1
                    break
                if DASHES.fullmatch(s):
                    if part is footer:
                        break  # a second dashes line ends the table and is read as any other line
                    part = footer
                elif raw[:1] != ' ' and raw[name_end:].strip():
                    part.append(raw)
                elif part is rows:
                    counts['text'] += 1  # a debug print between the rows
                else:
                    break  # not a footer row: the table has ended
                i += 1
            if rows or footer:
                calls, totals = read_table(header, rows, footer)
                frames.append((calls, totals))
                counts['call'] += len(calls)
                counts['total'] += len(totals)
            continue
        if t == 'Configuration' and i < len(lines) and DASHES.fullmatch(lines[i].rstrip(' \t')):
            i += 1
            while i < len(lines) and CONFIG.fullmatch(lines[i].rstrip(' \t')):
                counts['config'] += 1
                i += 1
            continue
        if RUN.fullmatch(t):
            counts['run'] += 1
        elif MEAN.fullmatch(t):
            counts['mean_time'] += 1
        else:
            counts['text'] += 1
    return counts, frames


def main():
    with open(sys.argv[-1], encoding='utf-8', errors='replace') as f:
        counts, _ = records(f.read())
    print(' '.join(f'{k}={v}' for k, v in sorted(counts.items()) if v))


if __name__ == '__main__':
    main()
