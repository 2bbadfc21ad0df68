#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# An independent reference for the tvm-profile format, written from formats.md section 5
# with Python's re (it shares no code with the C++ module): prints the records of FILE as
# NDJSON. Positions are byte offsets (TVM pads by bytes); all matching is on bytes with
# ASCII semantics, strings are decoded (UTF-8, invalid bytes as U+FFFD) only on output.
#   python3 tvm_profile.py FILE            the records as NDJSON
#   python3 tvm_profile.py --count FILE    parse only; prints the number of records per type
import json
import re
import sys

RUN = re.compile(rb'Evaluate vm inference cost of (\S+) on (\S+)')
MEAN = re.compile(rb'Mean .* time \(std dev\): (\d+(?:\.\d+)?) ms \((\d+(?:\.\d+)?) ms\)')
DASHES = re.compile(rb'-{3,}')  # as the C++ dashes line: three or more
CONFIG = re.compile(rb'([A-Za-z][A-Za-z0-9 _-]*): (.*)')
CELL_RUN = re.compile(rb'[^ ]+(?: [^ ]+)*')  # runs of text separated by two or more spaces
NUMBER = re.compile(rb'[+-]?(?:[1-9][0-9]{0,2}(?:,[0-9]{3})+|[0-9]+)(\.[0-9]+)?([eE][+-]?[0-9]+)?')


def s(b):
    return b.decode('utf-8', 'replace')


def number(b):
    """The number in the trimmed cell text b, or None when it is not a number."""
    m = NUMBER.fullmatch(b)
    if not m:
        return None
    t = b.replace(b',', b'').decode('ascii')
    return float(t) if (m.group(1) or m.group(2)) else int(t)


def numeric_column(title):
    return title in (b'Duration (us)', b'Percent', b'Count') or title.startswith(b'perf::')


def split_lines(data):
    lines = data.split(b'\n')
    if lines and lines[-1] == b'':
        lines.pop()
    return [l[:-1] if l.endswith(b'\r') else l for l in lines]


def row_cells(raw, columns):
    """(name, cells) when raw is a table row under columns [(title, right_edge)], else None."""
    runs = [(m.start(), m.end(), m.group()) for m in CELL_RUN.finditer(raw)]
    if not runs or runs[0][0] != 0:
        return None
    name = runs[0][2]
    got = {}
    col = 1  # column 0 (Name) holds the run at byte 0
    for start, end, text in runs[1:]:
        while col < len(columns) and columns[col][1] < end:
            col += 1
        if col >= len(columns) or columns[col][1] != end:
            return None
        got[col] = text
        col += 1
    if not got:
        return None
    cells = {}
    for i, text in got.items():  # ascending column order
        title = columns[i][0]
        v = number(text) if numeric_column(title) else None
        cells[s(title)] = text.decode('utf-8', 'replace') if v is None else v
    return name, cells


def records(data):
    out = []
    lines = split_lines(data)
    mode = 'out'      # out | config | rows | footer
    columns = None    # [(title bytes, right edge)]
    i = 0
    while i < len(lines):
        n = i + 1
        raw = lines[i]
        t = raw.rstrip(b' \t')
        i += 1
        if mode in ('rows', 'footer'):
            if t == b'':
                mode = 'out'
                continue
            if DASHES.fullmatch(t):
                if mode == 'rows':
                    mode = 'footer'
                    continue
                mode = 'out'  # a second dashes line ends the table and is read as any other line
            row = row_cells(raw, columns)
            if row is not None:
                name, cells = row
                if mode == 'rows':
                    out.append(dict(type='call', line=n, name=s(name), cells=cells))
                else:
                    out.append(dict(type='total', line=n, kind=s(name), cells=cells))
                continue
            if mode == 'rows':
                out.append(dict(type='text', line=n, text=s(t)))
                continue
            mode = 'out'  # not a row in the footer: the table ends, handle the line below
        if mode == 'config':
            if t == b'':
                mode = 'out'
                continue
            m = CONFIG.fullmatch(t)
            if m:
                out.append(dict(type='config', line=n, key=s(m[1]), value=s(m[2])))
                continue
            mode = 'out'  # handle the line below
        if t == b'':
            continue
        if m := RUN.fullmatch(t):
            out.append(dict(type='run', line=n, model=s(m[1]), device=s(m[2])))
            continue
        if m := MEAN.fullmatch(t):
            out.append(dict(type='mean_time', line=n, mean_ms=float(m[1]), std_ms=float(m[2])))
            continue
        if t.startswith(b'Name') and b'Duration (us)' in t:
            columns = [(m.group(), m.end()) for m in CELL_RUN.finditer(raw)]
            mode = 'rows'
            continue
        if t == b'Configuration' and i < len(lines) and DASHES.fullmatch(lines[i].rstrip(b' \t')):
            i += 1  # the dashes line is structural too
            mode = 'config'
            continue
        out.append(dict(type='text', line=n, text=s(t)))
    return out


def main():
    with open(sys.argv[-1], 'rb') as f:
        data = f.read()
    if sys.argv[1] == '--count':  # parse only: the number of records of each type
        counts = {}
        for r in records(data):
            counts[r['type']] = counts.get(r['type'], 0) + 1
        print(' '.join(f'{k}={v}' for k, v in sorted(counts.items())))
        return
    w = sys.stdout.write
    for r in records(data):
        w(json.dumps(r, ensure_ascii=False, separators=(',', ':')) + '\n')


if __name__ == '__main__':
    main()
