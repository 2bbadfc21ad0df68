#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# An independent reference for the megengine-log format, written from formats.md section 1
# with Python's re (it shares no code with the C++ module): prints the records of FILE as
# NDJSON. Used by the tests (compare with `logscan convert`) and by the benchmark (the
# "straightforward Python script" a user would otherwise write).
#   python3 megengine_log.py FILE            the records as NDJSON
#   python3 megengine_log.py --count FILE    parse only; prints the number of records per type
import json
import re
import sys

ANSI = re.compile(rb'\x1b\[[0-9;:]*m')
HEADER = re.compile(r'\[(\d\d) (\d\d:\d\d:\d\d) (\d+)@([^:]*):([^\]]*)\] (.*)', re.S)
LEVELS = ('DBG', 'WRN', 'ERR', 'CRIT', 'CRITICAL')
SHAPE = r'\(\s*(?:-?\d+\s*(?:,\s*-?\d+\s*)*,?\s*)?\)'
FPROP = re.compile(r'FpropEnv\(([^)]*)\): start fprop VarNode\(owner_opr=(.*)\{([^{}@]*)@(0x[0-9a-fA-F]+)\}\)')
VAR_SHAPE_MSG = re.compile(r'FpropEnv\([^)]*\): var node shape: +([^@: ]+)(?:@(\d+))?: (' + SHAPE + ')')
VAR_SHAPE_LINE = re.compile(r' ([^@: ]+)(?:@(\d+))?: (' + SHAPE + ')')
GRAPH_OPT = re.compile(r'graph optimization: applied (\d+) passes, total (\d+) var\(s\) replaced; time=(\d+(?:\.\d+)?) ?ms')
OPR_SEQ = re.compile(r'opr seq of length (\d+):(.*)')
STATS = re.compile(r'static mem alloc: nr_opr=(\d+) nr_var=(\d+) realtime=(\d+(?:\.\d+)?)msec ?\(si(\d+(?:\.\d+)?) '
                   r'mp\+re(\d+(?:\.\d+)?) omp(\d+(?:\.\d+)?) alloc(\d+(?:\.\d+)?)\)')
STATS_PLAN = re.compile(r'static memory allocation: nr_opr=(\d+) nr_var=(\d+) realtime=(\d+(?:\.\d+)?)msec ?'
                        r'\(plan(\d+(?:\.\d+)?) alloc(\d+(?:\.\d+)?)\)')
BOUNDS = re.compile(r'.*bounds\(MiB\):(.*)')
TABLE_HEAD = re.compile(r' *comp_node +alloc +lower_bound +upper_bound *')
ROW = re.compile(r' *(\S+?) *(\d+\.\d\d)MiB\( *(\d+)bytes\) *(\d+\.\d\d)MiB\( *([^()%]*)%\) *(\d+\.\d\d)MiB\( *([^()%]*)%\) *')
NUMBER = re.compile(r'[+-]?\d+(\.\d+)?([eE][+-]?\d+)?')


def number(text):
    m = NUMBER.fullmatch(text)
    if not m:
        return text
    return float(text) if (m.group(1) or m.group(2)) else int(text)


def shape(text):
    inner = text.strip()[1:-1].strip().rstrip(',')
    return [int(d) for d in inner.split(',')] if inner.strip() else []


def records(data):
    out = []
    mode = 'normal'
    lines = data.split(b'\n')
    if lines and lines[-1] == b'':
        lines.pop()
    for n, raw in enumerate(lines, 1):
        if raw.endswith(b'\r'):
            raw = raw[:-1]
        raw = ANSI.sub(b'', raw)
        text = raw.decode('utf-8', 'surrogateescape')
        if text.strip(' \t') == '':
            continue
        m = HEADER.fullmatch(text)
        if m:
            mode = 'normal'
            day, time, src, file, logger, rest = m.groups()
            level, message = 'INFO', rest
            for lv in LEVELS:
                if rest.startswith(lv + ' '):
                    level, message = lv, rest[len(lv) + 1:]
            out.append(dict(type='log', line=n, day=int(day), time=time, src_line=int(src), file=file,
                            logger=logger, level=level, message=message))
            if m2 := FPROP.fullmatch(message):
                out.append(dict(type='fprop_start', line=n, env=m2[1], var=m2[2], opr_type=m2[3], addr=m2[4]))
            elif m2 := VAR_SHAPE_MSG.fullmatch(message):
                out.append(dict(type='var_shape', line=n, var=m2[1], replica=int(m2[2]) if m2[2] else None,
                                shape=shape(m2[3])))
            elif re.fullmatch(r'FpropEnv\([^)]*\): shapes of var nodes:', message):
                mode = 'shapes'
            elif m2 := GRAPH_OPT.fullmatch(message):
                out.append(dict(type='graph_opt', line=n, passes=int(m2[1]), vars_replaced=int(m2[2]),
                                time_ms=float(m2[3])))
            elif m2 := OPR_SEQ.fullmatch(message):
                r = dict(type='opr_seq', line=n, length=int(m2[1]))
                for k, v in re.findall(r'([^\s=]+)=(\S*)', m2[2]):
                    r[k] = number(v)
                out.append(r)
            elif message == 'static memory allocation:':
                mode = 'table'
            elif m2 := STATS.fullmatch(message):
                out.append(dict(type='mem_alloc_stats', line=n, nr_opr=int(m2[1]), nr_var=int(m2[2]),
                                realtime_ms=float(m2[3]), si_ms=float(m2[4]), mp_re_ms=float(m2[5]),
                                omp_ms=float(m2[6]), alloc_ms=float(m2[7]), plan_ms=None))
            elif m2 := STATS_PLAN.fullmatch(message):
                out.append(dict(type='mem_alloc_stats', line=n, nr_opr=int(m2[1]), nr_var=int(m2[2]),
                                realtime_ms=float(m2[3]), si_ms=None, mp_re_ms=None, omp_ms=None,
                                alloc_ms=float(m2[5]), plan_ms=float(m2[4])))
            elif m2 := BOUNDS.fullmatch(message):
                for k, v in re.findall(r'([^\s=]+)=(\d+(?:\.\d+)?)(?=\s|$)', m2[1]):
                    out.append(dict(type='workspace_bound', line=n, comp_node=k, mib=float(v)))
            continue
        if mode == 'shapes' and (m := VAR_SHAPE_LINE.fullmatch(text)):
            out.append(dict(type='var_shape', line=n, var=m[1], replica=int(m[2]) if m[2] else None, shape=shape(m[3])))
            continue
        if mode == 'table' and TABLE_HEAD.fullmatch(text):
            continue
        if mode == 'table' and (m := ROW.fullmatch(text)):
            comp, alloc, nbytes = m[1], m[2], int(m[3])
            want = '%.2f' % (nbytes / 1048576.0)
            run = comp + alloc
            if text.find(run) >= 0 and len(run) > len(want) and run.endswith(want):
                comp, alloc = run[:-len(want)], want
            out.append(dict(type='mem_alloc', line=n, comp_node=comp, alloc_mib=float(alloc), alloc_bytes=nbytes,
                            lower_bound_mib=float(m[4]), lower_bound_pct=float(m[5]), upper_bound_mib=float(m[6]),
                            upper_bound_pct=float(m[7])))
            continue
        t = text.rstrip(' \t')
        if mode == 'table' and 'MiB(' in t:
            out.append(dict(type='error', line=n, column=len(t.encode('utf-8', 'surrogateescape')) + 1,
                            message='memory table row cut off'))
            continue
        out.append(dict(type='text', line=n, text=t))
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
