#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# An independent reference for the chainer-memtrace format, written from formats.md
# section 3 with Python's re and json modules (it shares no code with the C++ module):
# prints the records of FILE as NDJSON. Lines are matched as bytes with ASCII semantics,
# with trailing spaces removed; strings are decoded (UTF-8, invalid bytes as U+FFFD) on output.
#   python3 chainer_memtrace.py FILE            the records as NDJSON
#   python3 chainer_memtrace.py --count FILE    parse only; prints the number of records per type
import json
import re
import sys

PAIR = re.compile(rb'(\d+)\s+(\d+)')          # the header `B F` and a record's `NIN NOUT`
BUFFER = re.compile(rb'(\d+)\s+(\d+)\s+(.+)')
INPUT = re.compile(rb'(\d+)\s+(\S+)')
OUTPUT = re.compile(rb'(\d+)')
DIRECTIONS = (b'forward', b'backward')
EXPECTED = {
    'counts': 'the counts `NIN NOUT`',
    'inputs': 'an input line `ID ROLE`',
    'outputs': 'an output line `ID`',
    'params': 'a JSON object of parameters',
}


def s(b):
    return b.decode('utf-8', 'replace')


def no_constant(name):
    raise ValueError(f'{name} is not JSON')


def params(b):
    """The JSON object on line b, or None."""
    try:
        v = json.loads(s(b), parse_constant=no_constant)
    except ValueError:
        return None
    return v if isinstance(v, dict) else None


def split_lines(data):
    lines = data.split(b'\n')
    if lines and lines[-1] == b'':
        lines.pop()
    return [l[:-1] if l.endswith(b'\r') else l for l in lines]


def records(data):
    data = data[3:] if data.startswith(b'\xef\xbb\xbf') else data  # (a UTF-8 byte order mark first is not text: README)
    out = []
    state = 'pre'        # pre | buffers | direction | record | skip
    header_line = None
    nbuf = nfunc = 0     # from the header
    buffers = 0          # buffer lines seen
    started = 0          # function records started (direction lines)
    seen_direction = False
    buffer_cut_reported = False
    rec = None           # the function record being read
    part = None          # the part of rec expected next: counts inputs outputs type params
    left = 0             # inputs or outputs still expected
    nout = 0             # outputs expected after the inputs

    def error(line, message):
        out.append(dict(type='error', line=line, column=None, message=message))  # (no column: null, never an absent key)

    def start(n, t):
        nonlocal state, rec, part, started, seen_direction
        seen_direction = True
        rec = dict(type='function', line=n, index=started, direction=s(t), func_type=None,
                   inputs=[], outputs=[], params=None)
        started += 1
        part = 'counts'
        state = 'record'

    for n, raw in enumerate(split_lines(data), 1):
        t = raw.rstrip(b' \t')
        if t == b'':
            continue
        direction = t in DIRECTIONS
        if state == 'pre':
            if m := PAIR.fullmatch(t):
                header_line, nbuf, nfunc = n, int(m[1]), int(m[2])
                out.append(dict(type='header', line=n, buffers=nbuf, functions=nfunc))
                state = 'buffers' if nbuf > 0 else 'direction'
            else:
                out.append(dict(type='text', line=n, text=s(t)))
            continue
        if state == 'buffers':
            if m := BUFFER.fullmatch(t):
                name = None if m[3] == b'_' else s(m[3])
                out.append(dict(type='buffer', line=n, id=int(m[1]), size=int(m[2]), name=name))
                buffers += 1
                if buffers == nbuf:
                    state = 'direction'
            elif direction:
                error(n, 'buffer list cut short')
                buffer_cut_reported = True
                start(n, t)
            else:
                error(n, 'expected a buffer line `ID SIZE NAME`')
                state = 'skip'
            continue
        if state in ('direction', 'skip'):
            if direction:
                start(n, t)
            elif state == 'skip':
                out.append(dict(type='text', line=n, text=s(t)))
            else:
                error(n, 'expected a direction line (forward or backward)')
                state = 'skip'
            continue
        # state == 'record'
        if direction:
            error(rec['line'], 'function record cut short')
            start(n, t)
            continue
        ok = True
        if part == 'counts':
            if m := PAIR.fullmatch(t):
                part, left, nout = 'inputs', int(m[1]), int(m[2])
            else:
                ok = False
        elif part == 'inputs':
            if m := INPUT.fullmatch(t):
                rec['inputs'].append(dict(id=int(m[1]), role=None if m[2] == b'_' else s(m[2])))
                left -= 1
            else:
                ok = False
        elif part == 'outputs':
            if m := OUTPUT.fullmatch(t):
                rec['outputs'].append(int(m[1]))
                left -= 1
            else:
                ok = False
        elif part == 'type':
            rec['func_type'] = s(t)
            part = 'params'
        elif part == 'params':
            p = params(t)
            if p is None:
                ok = False
            else:
                rec['params'] = p
                out.append(rec)
                rec = None
                state = 'direction'
                continue
        if not ok:
            error(n, 'function record: expected ' + EXPECTED[part])
            rec = None
            state = 'skip'
            continue
        # move past the parts that are complete
        if part == 'inputs' and left == 0:
            part, left = 'outputs', nout
        if part == 'outputs' and left == 0:
            part = 'type'
    if state == 'record':
        error(rec['line'], 'function record cut short')
    if header_line is not None:
        if buffers < nbuf and not seen_direction and not buffer_cut_reported:
            error(header_line, 'buffer list cut short')
        if started != nfunc:
            error(header_line, 'function count does not match the header')
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
