# SPDX-License-Identifier: MIT
"""An independent reference of `logscan summary --format chrome-trace --json`.

Written from formats.md section 6B (the summary on chrome traces, after Holistic Trace
Analysis) with the standard library only; it shares no code with the C++ module and is used by
the tests to check its figures.
    python3 chrome_summary.py FILE...     the ranks of one job; prints one JSON object

A file starting with 1f 8b is gunzipped first; a UTF-8 BOM is skipped. Figures are JSON
integers when integral, else Python's repr of the double; `null` where 6B says null.

Choices where the text is silent (the C++ side may differ here):
- document_errors holds one string per error record of 6A (A.3: element not an object, E
  without B, E closing a B of another name, the break, B never closed), in record order. A
  break keeps the events read before it (the records already emitted stand).
- Every event object with ts, dur and cat is a row candidate "whatever its ph", B and E
  included; a matched B/E pair with a cat (not "Trace") is a row too. A pair whose B has no ts
  (absent or null) is no candidate; one whose B or E ts is not a number is skipped.
- A `null` ts counts as "no ts" for the rounding flag; a string ts does not.
- A name or cat that is not a string is matched and grouped as its JSON text ("" for null).
- `device_type` of every rank is the type that decides (the lowest rank's).
- Window times (last_step_start_us, step_start_us, step_end_us) are in the file's µs (after
  the rounding of B.2, before the shift); a missing one is null.
- Division by zero (kernel_time 0, a type whose kernels sum to 0) gives null.

Where the expected files of samples/chrome/ decide against a literal reading:
- stddev is computed in two passes, mean = sum / n and then the squared deviations summed
  in row order: the expected figures hold that to the last bit, Welford's update does not
  (323.3421820095032 for 323.3421820095031, ampere_sgemm in benchmark_result_...).
- kernel_breakdown_hta: a type with at most 10 names reports each name's own figures (HTA
  folds and regroups only past 10 names); the names come by sum descending, equal sums in
  order of first appearance in the window (mi250: the `mse` kernel before `CUDAFunctor_add`,
  both 7 µs, the reverse of kernels_by_name's name order); `others` comes last.
"""
import argparse
import gzip
import json
import math
import re
import sys

STEP = re.compile(r'^ProfilerStep#(\d+)')
COMM = re.compile(r'(^nccl.*)|(^hip)|(^hccl)|(.*ncclKernel.*)')
MEMORY = re.compile(r'(^(hip)?Memcpy)|(^(hip)?Memset)|(^dma)')
NOT_COMPUTE = re.compile(
    r'(^nccl)|(.*Memcpy)|(.*Memset)|(.*dma)|(^.*Sync)|(^Stream Wait Event)|(cuda.*LaunchKernel)'
    r'|(^runFunction)|(^hip)|(^job_exe)|(^packet)|(^pe_exe)|(^cpum_exe_subgraph)|(^hccl)'
    r'|(^collective_subgraph_execution)')
CPU_EVENT_CAT = re.compile(r'(^cpu_op)|(^user_annotation$)|(^(.+)_runtime)')
KERNEL_CAT = re.compile(r'(kernel)|(gpu_mem.+)|(mtia_ccp_events)')
DECIMAL = re.compile(r'[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?')
WS = re.compile(r'[ \t\n\r]*')
TYPES = ('COMPUTATION', 'COMMUNICATION', 'MEMORY', 'OTHER')
BITS = (('COMPUTATION', 1), ('COMMUNICATION', 2), ('MEMORY', 4))
LAUNCHES = (('cudaLaunchKernel', 'NVIDIA GPU'), ('hipLaunchKernel', 'AMD GPU'),
            ('runFunction - job_prep_and_submit_for_execution', 'MTIA'))


class Frac(float):
    """A number whose token has a fraction or an exponent (B.2's rounding trigger)."""


def reject_constant(name):
    raise ValueError('%s is not JSON' % name)


def is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def text_of(v):
    return v if isinstance(v, str) else ('' if v is None else json.dumps(v))


def num(v):
    """A figure for the output: an integer when integral, null when not finite."""
    if isinstance(v, float):
        if not math.isfinite(v):
            return None
        if v.is_integer():
            return int(v)
    return v


def div(a, b):
    return a / b if b else None


def rint_to(x, digits):
    """numpy's round(x, digits): rint(x * 10**digits) / 10**digits (half to even)."""
    if x is None:
        return None
    scale = 10 ** digits
    return num(round(x * scale) / scale)


def kernel_type(name):
    if COMM.match(name):
        return 'COMMUNICATION'
    if MEMORY.match(name):
        return 'MEMORY'
    if not NOT_COMPUTE.match(name):
        return 'COMPUTATION'
    return 'OTHER'


# ---------------------------------------------------------------- the document (6A.1)

def read_document(data):
    """-> (members, events, errors): top-level members but traceEvents, the elements of
    every traceEvents in order, and the break (a list of at most one string)."""
    if data[:2] == b'\x1f\x8b':
        try:
            data = gzip.decompress(data)
        except Exception as e:  # a broken gzip stream: nothing is read
            return {}, [], ['break: gzip: %s' % e]
    text = data.decode('utf-8', 'replace')
    dec = json.JSONDecoder(parse_float=Frac, parse_constant=reject_constant)
    members, events = {}, []

    def skip(p):
        return WS.match(text, p).end()

    def read_array(p, tolerant):  # p is at '['; returns the position after it
        p = skip(p + 1)
        if text.startswith(']', p):
            return p + 1
        while True:
            value, p = dec.raw_decode(text, p)
            events.append(value)
            p = skip(p)
            if text.startswith(',', p):
                p = skip(p + 1)
                if tolerant and p == len(text):
                    return p
            elif text.startswith(']', p):
                return p + 1
            elif tolerant and p == len(text):
                return p
            else:
                raise ValueError("expected ',' or ']' at offset %d" % p)

    def expect(p, c):
        if not text.startswith(c, p):
            raise ValueError('expected %r at offset %d' % (c, p))
        return skip(p + 1)

    pos = skip(1 if text.startswith('\ufeff') else 0)
    try:
        if text.startswith('[', pos):
            pos = read_array(pos, True)
        elif text.startswith('{', pos):
            pos = skip(pos + 1)
            closed = text.startswith('}', pos)
            pos += closed
            while not closed:
                if not text.startswith('"', pos):
                    raise ValueError('expected a key at offset %d' % pos)
                key, pos = dec.raw_decode(text, pos)
                pos = expect(skip(pos), ':')
                if key == 'traceEvents':
                    if not text.startswith('[', pos):
                        raise ValueError('traceEvents is not an array')
                    pos = read_array(pos, False)
                else:
                    members[key], pos = dec.raw_decode(text, pos)
                pos = skip(pos)
                closed = text.startswith('}', pos)
                pos = pos + 1 if closed else expect(pos, ',')
        else:
            raise ValueError('the top level is neither an object nor an array')
        if skip(pos) != len(text):
            raise ValueError('data after the document at offset %d' % skip(pos))
    except (ValueError, RecursionError) as e:
        return members, events, ['break at event %d: %s' % (len(events), e)]
    return members, events, []


# ---------------------------------------------------------------- rows (B.1 - B.3)

def read_rank(path):
    with open(path, 'rb') as f:
        members, events, break_error = read_document(f.read())
    info = members.get('distributedInfo')
    info = info if isinstance(info, dict) else {}
    rank = info.get('rank')
    rank = rank if isinstance(rank, int) and not isinstance(rank, bool) and rank >= 0 else 0
    errors, candidates, open_b = [], [], {}
    rounding, skipped = False, 0
    for index, ev in enumerate(events):
        if not isinstance(ev, dict):
            errors.append('index %d: event is not a JSON object' % index)
            continue
        ts = ev.get('ts')
        if ts is None or isinstance(ts, Frac):
            rounding = True
        ph = ev.get('ph')
        if ph == 'B':
            key = (json.dumps(ev.get('pid')), json.dumps(ev.get('tid')))
            open_b.setdefault(key, []).append((index, ev))
        elif ph == 'E':
            stack = open_b.get((json.dumps(ev.get('pid')), json.dumps(ev.get('tid'))))
            if not stack:
                errors.append('index %d: E without an open B' % index)
            else:
                b = stack.pop()[1]
                if ev.get('name') not in (None, '') and ev.get('name') != b.get('name'):
                    errors.append('index %d: E %r closes B %r' % (index, ev['name'], b.get('name')))
                if b.get('cat') is not None and b.get('ts') is not None:
                    ba, ea = b.get('args'), ev.get('args')
                    if isinstance(ba, dict) and isinstance(ea, dict):
                        args = {k: v for k, v in ba.items() if k not in ea}
                        args.update(ea)
                    else:
                        args = ea if ea is not None else ba
                    both = is_num(b['ts']) and is_num(ev.get('ts'))
                    dur = ev['ts'] - b['ts'] if both else 'not a number'
                    candidates.append((b, b['ts'], dur, args))
        if ev.get('dur') is not None and ev.get('cat') is not None and ts is not None:
            candidates.append((ev, ts, ev['dur'], ev.get('args')))
    errors += break_error
    for stack in open_b.values():
        errors += ['index %d: B never closed' % i for i, _ in stack]
    rows, names = [], set()
    for ev, ts, dur, args in candidates:
        if ev.get('cat') == 'Trace':
            continue
        if not (is_num(ts) and is_num(dur)):
            skipped += 1
            continue
        if rounding:
            ts, end = math.ceil(ts), math.floor(ts + dur)
            dur = end - ts
        args = args if isinstance(args, dict) else {}
        stream = args.get('stream')
        if isinstance(stream, str) and DECIMAL.fullmatch(stream):
            stream = float(stream)
        stream = int(stream) if is_num(stream) and math.isfinite(stream) else -1
        corr = args.get('correlation')
        row = {'name': text_of(ev.get('name')), 'cat': text_of(ev.get('cat')), 'ts0': ts,
               'dur': dur, 'stream': stream, 'corr': corr if is_num(corr) else -1,
               'tid': ev.get('tid')}
        names.update((row['name'], row['cat']))
        rows.append(row)
    backend = info.get('backend')
    if isinstance(backend, str) and 'mtia:hccl' in backend:
        device = 'MTIA'
    else:
        device = next((d for n, d in LAUNCHES if n in names), 'UNKNOWN GPU')
    return {'rank': rank, 'file': path.rsplit('/', 1)[-1], 'device': device,
            'events': len(events), 'errors': errors, 'rounding': rounding,
            'skipped': skipped, 'rows': rows, 'names': names}


# ---------------------------------------------------------------- the window (B.4)

def window(rows, step_names, device):
    """-> (window object, kept rows in document order, each as often as it is kept)."""
    if len(step_names) < 2:
        plural = '' if len(step_names) == 1 else 's'
        return ({'rule': 'none (%d ProfilerStep name%s)' % (len(step_names), plural),
                 'kept_rows': len(rows)}, rows)
    is_step = [r['name'] in step_names for r in rows]
    if device == 'MTIA':
        cpu = [r for r in rows if CPU_EVENT_CAT.match(r['cat'])]
        steps = [r for r in cpu if r['name'] in step_names]
        t0 = min((r['ts'] for r in steps), default=None)
        t1 = max((r['ts'] + r['dur'] for r in steps), default=None)
        kept_cpu = [r for r in cpu if t0 is not None and r['ts'] >= t0 and r['ts'] + r['dur'] <= t1]
        corrs = {r['corr'] for r in kept_cpu} - {-1}
        kept_ids = {id(r) for r in kept_cpu}
        spans = [(r['ts'], r['ts'] + r['dur']) for r, s in zip(rows, is_step) if s]
        kept = []
        for r in rows:
            in_step = MEMORY.match(r['name']) and any(a <= r['ts'] <= b for a, b in spans)
            if in_step and r['stream'] == -1 and is_num(r['tid']):
                r['stream'] = int(r['tid'])
            if in_step or id(r) in kept_ids or (KERNEL_CAT.match(r['cat']) and r['corr'] in corrs):
                kept.append(r)
        w = {'rule': 'mtia',
             'step_start_us': None if t0 is None else num(min(r['ts0'] for r in steps)),
             'step_end_us': None if t1 is None else num(max(r['ts0'] + r['dur'] for r in steps)),
             'kept_rows': len(kept)}
        return w, kept
    gpu_side = [(r['stream'] >= 0 and r['corr'] >= 0) or r['name'] in ('Event Sync', 'Context Sync')
                for r in rows]
    cpu = [(r, s) for r, g, s in zip(rows, gpu_side, is_step) if not g]
    if not cpu:
        return {'rule': 'none (no CPU-side rows)', 'kept_rows': len(rows)}, rows
    steps = [r for r, s in cpu if s]
    if steps:
        last = max(steps, key=lambda r: r['ts'])
    else:
        last = min((r for r, _ in cpu), key=lambda r: r['ts'])
    mult = {}
    for r, _ in cpu:
        if r['ts'] < last['ts']:
            mult[r['corr']] = mult.get(r['corr'], 0) + 1
    kept = []
    for r, g in zip(rows, gpu_side):
        if g:
            kept += [r] * mult.get(r['corr'], 0)
        elif r['ts'] < last['ts']:
            kept.append(r)
    return ({'rule': 'cpu_correlation', 'last_step_start_us': num(last['ts0']),
             'kept_rows': len(kept)}, kept)


# ---------------------------------------------------------------- figures (B.6 - B.10)

class Agg:
    """The values of a group in row order: count, sum, min, max, sample standard deviation."""

    def __init__(self):
        self.values, self.sum = [], 0

    def add(self, v):
        self.values.append(v)
        self.sum += v

    n = property(lambda self: len(self.values))
    min = property(lambda self: min(self.values))
    max = property(lambda self: max(self.values))

    def std(self):  # two passes; see the module docstring
        if self.n < 2:
            return 0
        mean = self.sum / self.n
        return math.sqrt(sum((v - mean) ** 2 for v in self.values) / (self.n - 1))


def merge(kernels):
    """B.6: [(first ts, largest end)] of the groups, kernels sorted by ts (stable)."""
    groups, reach = [], None
    for k in sorted(kernels, key=lambda k: k['ts']):
        end = k['ts'] + k['dur']
        if reach is None or k['ts'] > reach:
            groups.append([k['ts'], end])
        else:
            groups[-1][1] = max(groups[-1][1], end)
        reach = end if reach is None else max(reach, end)
    return groups


def type_time(kernels):
    """B.7: {label: truncated µs} for the overlap of COMPUTATION, COMMUNICATION, MEMORY."""
    marks = []
    for label, bit in BITS:
        for start, end in merge([k for k in kernels if k['type'] == label]):
            marks += [(start, bit), (end, -bit)]
    marks.sort(key=lambda m: m[0])
    sums, running = {}, 0
    for (t, mark), nxt in zip(marks, marks[1:]):
        running += mark
        if running > 0:
            label = ' overlapping '.join(l for l, b in BITS if running & b)
            sums[label] = sums.get(label, 0) + int(nxt[0] - t)
    return {l: s for l, s in sums.items() if s != 0}


def by_sum(d):
    return sorted(d.items(), key=lambda kv: (-kv[1], kv[0]))


def temporal(kernels):
    """B.9."""
    keys = ('idle_time_us', 'compute_time_us', 'non_compute_time_us', 'kernel_time_us',
            'idle_time_pctg', 'compute_time_pctg', 'non_compute_time_pctg')
    if not kernels:
        return dict.fromkeys(keys)
    groups = merge(kernels)
    total = groups[-1][1] - groups[0][0]
    idle = total - (sum(g[1] for g in groups) - sum(g[0] for g in groups))
    comp = merge([k for k in kernels if k['type'] == 'COMPUTATION'])
    compute = sum(g[1] for g in comp) - sum(g[0] for g in comp)
    values = (idle, compute, total - compute - idle)
    pctg = [rint_to(None if d is None else 100 * d, 2)
            for d in (div(v, total) for v in values)]
    return dict(zip(keys, [num(v) for v in values + (total,)] + pctg))


def hta_table(entries, rank):
    """B.8's second table for one type; `entries` are its kernels_by_name entries in HTA's
    order. Up to 10 names: their own figures. More: names past the 10th or whose running
    total exceeds the 0.8 quantile of the running totals fold into `others` (not a negative
    sum); the rest report max = min = mean = their sum, stddev 0; `others` comes last."""
    def out(e, **figures):
        return dict({'kernel_type': e['kernel_type'], 'name': e['name'],
                     **{k: e[k] for k in ('sum_us', 'max_us', 'min_us', 'mean_us', 'stddev_us')}},
                    **figures, rank=rank)
    if len(entries) <= 10:
        return [out(e) for e in entries]
    cum, acc = [], 0
    for e in entries:
        acc += e['sum_us']
        cum.append(acc)
    ordered = sorted(cum)  # numpy's linear quantile
    virtual = (len(ordered) - 1) * 0.8
    i = math.floor(virtual)
    t = virtual - i
    a, b = ordered[i], ordered[min(i + 1, len(ordered) - 1)]
    q = b - (b - a) * (1 - t) if t >= 0.5 else a + (b - a) * t
    table, others = [], Agg()
    for pos, (e, c) in enumerate(zip(entries, cum)):
        s = e['sum_us']
        if (c > q or pos >= 10) and not s < 0:
            others.add(s)
        else:
            table.append(out(e, max_us=s, min_us=s, mean_us=s, stddev_us=0))
    if others.n:
        table.append(out(dict(entries[0], name='others'), sum_us=num(others.sum),
                         max_us=num(others.max), min_us=num(others.min),
                         mean_us=num(others.sum / others.n), stddev_us=num(others.std())))
    return table


def rank_figures(r, kept):
    kernels = []
    for row in kept:
        if row['stream'] != -1:
            kernels.append(dict(row, type=kernel_type(row['name'])))
    counts = {t: sum(1 for k in kernels if k['type'] == t) for t in TYPES}
    by_name = {}  # in the order of first appearance
    for k in kernels:
        by_name.setdefault((k['type'], k['name']), Agg()).add(k['dur'])
    type_sum = {t: sum(a.sum for (kt, _), a in by_name.items() if kt == t) for t in TYPES}
    names, hta = [], []
    for t in TYPES:
        entries = [{'kernel_type': t, 'name': n, 'count': a.n, 'sum_us': num(a.sum),
                    'mean_us': num(a.sum / a.n), 'min_us': num(a.min), 'max_us': num(a.max),
                    'stddev_us': num(a.std()), 'share_pct': num(div(100 * a.sum, type_sum[t]))}
                   for (kt, n), a in by_name.items() if kt == t]
        names += sorted(entries, key=lambda e: (-e['sum_us'], e['name']))
        if t != 'OTHER' and entries:
            # HTA's order: sum descending, equal sums in order of first appearance
            hta += hta_table(sorted(entries, key=lambda e: -e['sum_us']), r['rank'])
    ops = {}
    for row in kept:
        if row['cat'] == 'cpu_op':
            ops.setdefault(row['name'], Agg()).add(row['dur'])
    top = sorted(ops.items(), key=lambda na: (-na[1].sum, na[0]))[:20]
    times = type_time(kernels)
    return {
        'kernels': {'count': len(kernels), 'streams': sorted({k['stream'] for k in kernels}),
                    'by_type_count': counts},
        'kernel_type_time_us': {l: num(s) for l, s in by_sum(times)},
        'temporal_breakdown': temporal(kernels),
        'kernels_by_name': names,
        'kernel_breakdown_hta': hta,
        'top_cpu_ops': [{'name': n, 'count': a.n, 'total_us': num(a.sum),
                         'mean_us': num(a.sum / a.n), 'max_us': num(a.max)} for n, a in top],
    }, times


def summary(paths):
    ranks = sorted((read_rank(p) for p in paths), key=lambda r: r['rank'])
    all_rows = [row for r in ranks for row in r['rows']]
    min_ts = min((row['ts0'] for row in all_rows), default=0)
    for row in all_rows:
        row['ts'] = row['ts0'] - min_ts
    step_names = {n for r in ranks for n in r['names'] if STEP.match(n)}
    device = ranks[0]['device'] if ranks else 'UNKNOWN GPU'
    out_ranks, label_sums, hta = [], {}, []
    for r in ranks:
        win, kept = window(r['rows'], step_names, device)
        figures, times = rank_figures(r, kept)
        for label, s in times.items():
            label_sums[label] = label_sums.get(label, 0) + s
        hta += figures['kernel_breakdown_hta']
        out_ranks.append(dict({
            'rank': r['rank'], 'file': r['file'], 'device_type': device, 'events': r['events'],
            'document_errors': r['errors'], 'rounded_to_us': r['rounding'],
            'skipped_events': r['skipped'], 'rows': len(r['rows']), 'window': win}, **figures))
    total = sum(label_sums.values())
    breakdown = [{'kernel_type': l, 'sum_us': num(s),
                  'percentage': rint_to(s / total * 100, 1) if total else None}
                 for l, s in by_sum(label_sums)]
    hta.sort(key=lambda e: (e['kernel_type'], e['name'], e['rank']))
    return {'profiler_steps': sorted({int(STEP.match(n).group(1)) for n in step_names}),
            'ranks': out_ranks, 'kernel_type_breakdown': breakdown, 'kernel_breakdown_hta': hta}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('files', nargs='+', metavar='FILE')
    args = ap.parse_args()
    json.dump(summary(args.files), sys.stdout, separators=(',', ':'))
    sys.stdout.write('\n')


if __name__ == '__main__':
    main()
