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
# The three header forms (formats.md section 1), tried in this order on a line without its
# indent; a line's trailing spaces are removed before it is read (so `] ` with an empty
# message ends at the bracket).
HEADER_A = re.compile(r'\[(\d\d) (\d\d:\d\d:\d\d) (\d+)@([^:]*):([^\]]*)\](?: (.*))?', re.S)
HEADER_B = re.compile(r'\[(?:(\d\d) (\d\d:\d\d:\d\d)|(\d+\.\d+)) ([^@\]]*)@([^:\]]*):(\d+)\]'
                      r'(?:\[(err|warn|debug)\])?(?: (.*))?', re.S | re.I)
HEADER_C = re.compile(r'(\d\d) (\d\d:\d\d:\d\d)(?: |(\[mgb\]) )(.*)', re.S)
LEVELS = ('DBG', 'WRN', 'ERR', 'CRIT', 'CRITICAL')
CONSOLE_LEVELS = ('DBG', 'WRN', 'ERR')


def header(text, n):
    """The log record of a header line (text: indent and trailing spaces removed), or None."""
    def level_of(rest, levels):
        for lv in levels:
            if rest.startswith(lv + ' '):
                return lv, rest[len(lv) + 1:]
        return 'INFO', rest
    if m := HEADER_A.fullmatch(text):
        day, time, src, file, logger, rest = m.groups()
        level, message = level_of(rest or '', LEVELS)
        return dict(type='log', line=n, form='file', day=int(day), time=time, func=None, file=file,
                    src_line=int(src), logger=logger, level=level, message=message)
    m = HEADER_B.fullmatch(text)
    if m and not re.fullmatch(r'\d+', m[4]):  # FUNC is never all digits (possibly empty)
        day, time, secs, func, file, src, tag, rest = m.groups()
        return dict(type='log', line=n, form='cpp', day=int(day) if day else None, time=time or secs, func=func,
                    file=file, src_line=int(src), logger=None, level=tag or 'INFO', message=rest or '')
    if m := HEADER_C.fullmatch(text):
        day, time, mgb, rest = m.groups()
        level, message = level_of(rest, CONSOLE_LEVELS)
        return dict(type='log', line=n, form='console', day=int(day), time=time, func=None, file=None,
                    src_line=None, logger='mgb' if mgb else None, level=level, message=message)
    return None
SHAPE = r'\(\s*(?:-?\d+\s*(?:,\s*-?\d+\s*)*,?\s*)?\)'
FPROP = re.compile(r'FpropEnv\(([^)]*)\): start fprop VarNode\(owner_opr=(.*)\{([^{}@]*)@(0x[0-9a-fA-F]+)\}\)')
VAR_SHAPE_MSG = re.compile(r'FpropEnv\([^)]*\): var node shape: +([^@: ]+)(?:@(\d+))?: (' + SHAPE + ')')
VAR_SHAPE_LINE = re.compile(r'([^@: ]+)(?:@(\d+))?: (' + SHAPE + ')')  # (its indent set aside)
GRAPH_OPT = re.compile(r'graph optimization: applied (\d+) passes, total (\d+) var\(s\) replaced; time=(\d+(?:\.\d+)?) ?ms')
OPR_SEQ = re.compile(r'opr seq of length (\d+):(.*)')
STATS = re.compile(r'static mem alloc: nr_opr=(\d+) nr_var=(\d+) realtime=(\d+(?:\.\d+)?)msec ?\(si(\d+(?:\.\d+)?) '
                   r'mp\+re(\d+(?:\.\d+)?) omp(\d+(?:\.\d+)?) alloc(\d+(?:\.\d+)?)\)')
STATS_PLAN = re.compile(r'static memory allocation: nr_opr=(\d+) nr_var=(\d+) realtime=(\d+(?:\.\d+)?)msec ?'
                        r'\(plan(\d+(?:\.\d+)?) alloc(\d+(?:\.\d+)?)\)')
BOUNDS = re.compile(r'.*bounds\(MiB\):(.*)')
BOUND_PAIR = re.compile(r'(CompNode\("[^"]*" from "[^"]*"\)|[^\s=]+)=(\d+(?:\.\d+)?|[-+]?[A-Za-z]+)(?=\s|$)')
STORAGE = re.compile(r'static storage on (.*): size=(\d+(?:\.\d+)?|[-+]?[A-Za-z]+) *MiB '
                     r'addr_range=\[(0x[0-9a-fA-F]+), (0x[0-9a-fA-F]+)(?:\)\.?)?')
TABLE_HEAD = re.compile(r' *comp_node +alloc +lower_bound +upper_bound *')
ROW_TAIL = re.compile(r'MiB\( *(\d+)bytes\) *([^ ()%]+)MiB\( *([^ ()%]+)%\) *([^ ()%]+)MiB\( *([^ ()%]+)%\)')
COMP_NODE = re.compile(r'CompNode\("([^"]*)" from "([^"]*)"\)')
NUMBER = re.compile(r'[+-]?\d+(\.\d+)?([eE][+-]?\d+)?')
NON_FINITE = {'nan', '-nan', 'inf', '-inf', '+inf', 'infinity', '-infinity'}

# load_and_run's own lines (formats.md section 1), every form as the contract writes it: I, N,
# K digits (%u); T, E, D, A, S, MIN, MAX values (%f); VARS the rest (%s). Each form: the
# record type, then its fields in order, each a %u or %f index (None: not printed).
LAR = [
    ('iter %u/%u: %fms (exec=%f,device=%f)', 'lar_iteration', ('u0', 'u1', 'f0', 'f1', 'f2')),
    ('iter %u/%u: %fms (exec=%fms)', 'lar_iteration', ('u0', 'u1', 'f0', 'f1', None)),
    ('iter %u/%u: %f ms (exec=%f ms)', 'lar_iteration', ('u0', 'u1', 'f0', 'f1', None)),
    ('iter %u/%u: e2e=%f ms (host=%f ms)', 'lar_iteration', ('u0', 'u1', 'f0', 'f1', None)),
    ('run iter %u time %f ms', 'lar_iteration', ('u0', None, 'f0', None, None)),
    ('=== finished run #%u: time=%fms', 'lar_iteration', ('u0', None, 'f0', None, None)),
    ('%fms  %fms (device=%f)', 'lar_iteration', (None, None, 'f0', 'f1', 'f2')),
    ('=== finished test #%u: time=%fms avg_time=%fms sd=%fms minmax=%f,%f', 'lar_summary',
     ('u0', 'f0', 'f1', 'f2', 'f3', 'f4')),
    ('=== finished test #%u: time=%fms avg_time=%fms sexec=%fms min=%fms max=%fms', 'lar_summary',
     ('u0', 'f0', 'f1', 'f2', 'f3', 'f4')),
    ('=== finished test #%u: time=%f ms avg_time=%f ms sexec=%f ms min=%f ms max=%f ms', 'lar_summary',
     ('u0', 'f0', 'f1', 'f2', 'f3', 'f4')),
    ('=== finished test #%u: time=%f ms avg_time=%f ms standard_deviation=%f ms min=%f ms max=%f ms', 'lar_summary',
     ('u0', 'f0', 'f1', 'f2', 'f3', 'f4')),
    ('avg time: %fms', 'lar_summary', (None, None, 'f0', None, None, None)),
    ('warmup %u: %fms', 'lar_warmup', ('u0', 'f0')),
    ('warm up %u  %fms', 'lar_warmup', ('u0', 'f0')),
    ('warm up %u time %f ms', 'lar_warmup', ('u0', 'f0')),
    ('load model: %fms', 'lar_phase', ('load', 'f0')),
    ('=== prepare: %fms; going to warmup', 'lar_phase', ('prepare', 'f0')),
    ('=== total time: %fms', 'lar_phase', ('total', 'f0')),
    ('config model time %f ms', 'lar_phase', ('config', 'f0')),
    ('=== going to run %u testcases; output vars: %s', 'lar_run', (None, 'u0', None, 's')),
    ('=== going to run %u testcases; output vars:', 'lar_run', (None, 'u0', None, '')),
    ('=== going to run test #%u for %u times', 'lar_run', ('u0', None, 'u1', None)),
    ('=== going to run input for %u times', 'lar_run', (None, None, 'u0', None)),
    ('=== going to run for %u times; output vars: %s', 'lar_run', (None, None, 'u0', 's')),
    ('=== going to run for %u times; output vars:', 'lar_run', (None, None, 'u0', '')),
    ('run testcase: %u', 'lar_run', ('u0', None, None, None)),
]
LAR_KEYS = {'lar_iteration': ('iter', 'iters', 'time_ms', 'exec_ms', 'device_ms'),
            'lar_summary': ('test', 'time_ms', 'avg_ms', 'sd_ms', 'min_ms', 'max_ms'),
            'lar_warmup': ('iter', 'time_ms'), 'lar_phase': ('phase', 'time_ms'),
            'lar_run': ('test', 'testcases', 'iters', 'output_vars')}
F_VALUE = r'(-?\d+(?:\.\d+)?|[-+]?(?:[Ii][Nn][Ff](?:[Ii][Nn][Ii][Tt][Yy])?|[Nn][Aa][Nn]))'


def lar_regex(form):
    out, i = '', 0
    while i < len(form):
        if form.startswith('%u', i):
            out += r'(\d+)'
        elif form.startswith('%f', i):
            out += F_VALUE
        elif form.startswith('%s', i):
            out += '(.*)'
        else:
            out += re.escape(form[i])
            i += 1
            continue
        i += 2
    return re.compile(out, re.S)


LAR_RE = [(lar_regex(f), re.findall(r'%[ufs]', f), t, fields) for f, t, fields in LAR]


def lar(text, n):
    """The load_and_run record of a line (not a header line) or a message, or None."""
    for rx, convs, t, fields in LAR_RE:
        m = rx.fullmatch(text)
        if not m:
            continue
        us, fs, ss, ok = [], [], None, True
        for c, g in zip(convs, m.groups()):
            if c == '%u':
                us.append(int(g))
            elif c == '%f':
                if g.lower() in NON_FINITE:
                    fs.append(None)
                elif re.fullmatch(r'-?\d+(?:\.\d+)?', g):
                    fs.append(float(g))
                else:
                    ok = False  # (`+nan`, `+infinity`: no number)
            else:
                ss = g
        if not ok:
            continue
        r = dict(type=t, line=n)
        for key, src in zip(LAR_KEYS[t], fields):
            if key == 'phase':
                r[key] = src
            elif src is None:
                r[key] = None
            elif src == 's':
                r[key] = ss
            elif src == '':
                r[key] = ''
            else:
                r[key] = us[int(src[1:])] if src[0] == 'u' else fs[int(src[1:])]
        return r
    return None
BAD = object()


def value(text, minus=False):
    """A number of a row, bound or storage message: digits with an optional fraction (a
    leading - too with minus) as a float, a non-finite word as None, anything else BAD."""
    if text.lower() in NON_FINITE:
        return None
    if re.fullmatch(r'-?\d+(?:\.\d+)?' if minus else r'\d+(?:\.\d+)?', text):
        return float(text)
    return BAD


def row(text, n):
    """The mem_alloc record of a memory-table row, read from the right, or None."""
    t = text.rstrip(' \t')
    pos = len(t)
    for _ in range(3):  # the third `MiB(` from the right starts the tail
        pos = t.rfind('MiB(', 0, pos)
        if pos < 0:
            return None
    m = ROW_TAIL.fullmatch(t, pos)
    if not m:
        return None
    nbytes = int(m[1])
    lo, lo_pct, up, up_pct = value(m[2]), value(m[3], True), value(m[4]), value(m[5], True)
    if BAD in (lo, lo_pct, up, up_pct):
        return None
    head = t[:pos]
    run = head[head.rfind(' ') + 1:]
    want = '%.2f' % (nbytes / 1048576.0)
    # (A touching COMP: only a value that fills %10.2f, 1,000,000 MiB or more)
    alloc = want if len(want) >= 10 and len(run) > len(want) and run.endswith(want) else run
    comp = head[:len(head) - len(alloc)].strip(' \t')
    a = value(alloc)
    if not comp or a is BAD or 'MiB(' in comp:  # (a row cut off, then the next: not a whole row)
        return None
    names = COMP_NODE.fullmatch(comp)
    return dict(type='mem_alloc', line=n, comp_node=comp, physical=names[1] if names else comp,
                logical=names[2] if names else None, alloc_mib=a, alloc_bytes=nbytes, lower_bound_mib=lo,
                lower_bound_pct=lo_pct, upper_bound_mib=up, upper_bound_pct=up_pct)


def number(text):
    m = NUMBER.fullmatch(text)
    if not m:
        return text
    return float(text) if (m.group(1) or m.group(2)) else int(text)


def shape(text):
    inner = text.strip()[1:-1].strip().rstrip(',')
    return [int(d) for d in inner.split(',')] if inner.strip() else []


def records(data):
    data = data[3:] if data.startswith(b'\xef\xbb\xbf') else data  # (a UTF-8 byte order mark first is not text: README)
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
        text = text.rstrip(' \t')   # (trailing spaces: no part of any record)
        bare = text.lstrip(' ')      # (the indent, set aside)
        log = header(bare, n)
        if log:
            mode = 'normal'
            out.append(log)
            message = log['message']
            if m2 := BOUNDS.fullmatch(message):  # (first, besides any record of the message below)
                for k, v in BOUND_PAIR.findall(m2[1]):
                    if (mib := value(v)) is not BAD:
                        out.append(dict(type='workspace_bound', line=n, comp_node=k, mib=mib))
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
                kv = re.findall(r'([^\s=]+)=(\S*)', m2[2])
                names = [k for k, _ in kv]
                # (a pair named as a key of the record's own, or a name given twice: no opr_seq,
                # a record never holds two values under one key)
                if len(set(names)) == len(names) and not {'type', 'line', 'length'} & set(names):
                    r = dict(type='opr_seq', line=n, length=int(m2[1]))
                    for k, v in kv:
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
            elif m2 := STORAGE.fullmatch(message):
                if (size := value(m2[2])) is not BAD:
                    out.append(dict(type='static_storage', line=n, comp_node=m2[1], size_mib=size, addr_begin=m2[3],
                                    addr_end=m2[4]))
            elif r := lar(message, n):
                out.append(r)
            continue
        if mode == 'shapes' and (m := VAR_SHAPE_LINE.fullmatch(bare)):
            out.append(dict(type='var_shape', line=n, var=m[1], replica=int(m[2]) if m[2] else None, shape=shape(m[3])))
            continue
        if r := lar(bare, n):
            out.append(r)
            continue
        if mode == 'table' and TABLE_HEAD.fullmatch(text):
            continue
        if mode == 'table' and (r := row(text, n)):
            out.append(r)
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
