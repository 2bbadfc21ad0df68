#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# End-to-end checks of the logscan command (independent of its code: it only runs it).
#   check_cli.py detect LOGSCAN DIR        every file of DIR is detected as the format its
#                                          name starts with (`unknown.*`: unknown), exit 1
#                                          when any is unknown, 0 otherwise
#   check_cli.py csv LOGSCAN INPUT         CSV (--out-dir and --type T) reads back with
#                                          Python's csv module to the same values as NDJSON
#   check_cli.py stats LOGSCAN INPUT...    stats' counts per type equal the NDJSON records'
#   check_cli.py usage LOGSCAN SAMPLE      exit statuses and messages of usage errors,
#                                          unreadable and unrecognised inputs, --help, --version
#   check_cli.py threads LOGSCAN INPUT...  --threads: each input repeated (and damaged: cut
#                                          copies between whole ones, no final newline) gives
#                                          byte-identical NDJSON, stderr and exit status with
#                                          2 and 3 threads and parts of many sizes (records
#                                          across the cuts), from a file and from a pipe
#   check_cli.py chrome-summary LOGSCAN EXPECTED_DIR TRACE...
#                                          `summary --json` of each trace (a file, and a pipe
#                                          with --format; each also read in parts on 2 threads)
#                                          equals EXPECTED_DIR/<stem>.summary.json
#                                          (HTA's figures, formats.md 6B) apart from `file`;
#                                          the text report and --svg charts (valid SVG) work
#   check_cli.py chrome-summary-ref LOGSCAN JOB...
#                                          each JOB (its files joined by ',': the ranks of one
#                                          job) gives the same `summary --json` as the
#                                          independent reference, tests/reference/chrome_summary.py,
#                                          and with --threads 2 exactly what one thread prints
import csv
import io
import json
import os
import subprocess
import sys
import tempfile

problems = []


def check(cond, what):
    if not cond:
        problems.append(what)


def run(args, stdin=None):
    return subprocess.run(args, capture_output=True, input=stdin)


def detect(logscan, d):
    files = sorted(os.listdir(d))
    paths = [os.path.join(d, f) for f in files]
    r = run([logscan, 'detect'] + paths)
    got = dict(line.rsplit(': ', 1) for line in r.stdout.decode().splitlines())
    for f, p in zip(files, paths):
        want = f.split('.')[0]
        check(got.get(p) == want, f'{f}: detected {got.get(p)!r}, expected {want!r}')
    check(r.returncode == (1 if any(f.startswith('unknown') for f in files) else 0),
          f'detect exit status {r.returncode}')
    known = [p for f, p in zip(files, paths) if not f.startswith('unknown')]
    check(run([logscan, 'detect'] + known).returncode == 0, 'detect of known files only: exit status not 0')
    print(f'{len(files)} files detected')


def flatten(rec, prefix='', out=None):
    out = {} if out is None else out
    for k, v in rec.items():
        if isinstance(v, dict):
            flatten(v, prefix + k + '.', out)
        else:
            out[prefix + k] = v
    return out


def same(j, c):
    """NDJSON value j against CSV cell text c."""
    if j is None:
        return c == ''
    if isinstance(j, bool):
        return c == ('true' if j else 'false')
    if isinstance(j, int):
        return c.lstrip('-').isdigit() and int(c) == j
    if isinstance(j, float):
        try:
            f = float(c)
        except ValueError:
            return False
        return f == j or abs(f - j) <= 1e-12 * max(abs(f), abs(j))
    if isinstance(j, list):
        try:
            return json.loads(c) == j
        except ValueError:
            return False
    return c == j


def csv_check(logscan, path):
    nd = run([logscan, 'convert', '--with-filename', path])
    records = [json.loads(l) for l in nd.stdout.decode().splitlines()]
    check(all(r.get('input') == path for r in records), '--with-filename: a record without "input" = the path')
    types = sorted({r['type'] for r in records})
    with tempfile.TemporaryDirectory() as d:
        r = run([logscan, 'convert', '--to', 'csv', '--with-filename', '--out-dir', d, path])
        check(r.returncode == nd.returncode, f'csv exit {r.returncode}, ndjson exit {nd.returncode}')
        check(sorted(os.listdir(d)) == [t + '.csv' for t in types], f'csv files {sorted(os.listdir(d))}')
        compared = 0
        for t in types:
            raw = open(os.path.join(d, t + '.csv'), 'rb').read()
            rows = list(csv.DictReader(io.StringIO(raw.decode('utf-8'), newline='')))
            want = [flatten({k: v for k, v in r.items() if k != 'type'}) for r in records if r['type'] == t]
            check(len(rows) == len(want), f'{t}: {len(rows)} CSV rows, {len(want)} records')
            for row, rec in zip(rows, want):
                for col, cell in row.items():
                    if not same(rec.get(col), cell):
                        check(False, f'{t} line {rec.get("line")}: column {col!r}: CSV {cell!r}, NDJSON {rec.get(col)!r}')
                for col in rec:
                    check(col in row, f'{t}: column {col!r} missing from the CSV header')
                compared += 1
            # --type T to standard output: the same table
            one = run([logscan, 'convert', '--to', 'csv', '--with-filename', '--type', t, path])
            check(one.stdout == raw, f'{t}: --type {t} differs from --out-dir')
    print(f'{compared} CSV rows compared')


def stats(logscan, paths):
    for path in paths:
        nd = run([logscan, 'convert', path])
        counts = {}
        for l in nd.stdout.decode().splitlines():
            t = json.loads(l)['type']
            counts[t] = counts.get(t, 0) + 1
        st = run([logscan, 'stats', path])
        check(st.returncode == nd.returncode, f'{path}: stats exit {st.returncode}, convert exit {nd.returncode}')
        got = {}
        lines = st.stdout.decode().splitlines()
        for l in lines:
            parts = l.split()
            if l.startswith('    ') and len(parts) == 2:
                got[parts[0]] = int(parts[1])
        check(got == counts, f'{path}: stats {got} != records {counts}')
        total = [l for l in lines if l.split()[:1] == ['records']]
        check(bool(total) and int(total[0].split()[1]) == sum(counts.values()), f'{path}: records total')
        size = os.path.getsize(path)
        check(any(l.split() == ['bytes', str(size)] for l in lines), f'{path}: bytes is not {size}')
        check(any(l.split()[:1] == ['speed'] and l.endswith('MB/s') for l in lines), f'{path}: no speed line')
        # every type the input has is one --type knows, and selects just its records
        for t, n in counts.items():
            one = run([logscan, 'convert', '--type', t, path])
            check(one.returncode == nd.returncode, f'{path}: --type {t}: exit {one.returncode} ({one.stderr.decode()!r})')
            check(len(one.stdout.decode().splitlines()) == n, f'{path}: --type {t}: not {n} records')
    print(f'{len(paths)} inputs counted')


def usage(logscan, sample):
    def status(args, want, err=None, out=None, stdin=None):
        r = run([logscan] + args, stdin)
        check(r.returncode == want, f'{args}: exit {r.returncode}, expected {want}')
        if err is not None:
            check(err in r.stderr.decode(), f'{args}: stderr {r.stderr.decode()!r} lacks {err!r}')
        if out is not None:
            check(out in r.stdout.decode(), f'{args}: stdout lacks {out!r}')
    status([], 2, 'usage: logscan')
    status(['frobnicate'], 2, "unknown command 'frobnicate'")
    status(['convert'], 2, 'no FILE given')
    status(['convert', '--format', 'nope', sample], 2, "unknown format 'nope'")
    status(['convert', '--to', 'xml', sample], 2, '--to is ndjson or csv')
    status(['convert', '--to', 'csv', sample], 2, 'give --type T')
    status(['convert', '--bogus', sample], 2, "unknown option '--bogus'")
    status(['convert', '--threads', '0', sample], 2, '--threads needs a number from 1 to 256')
    status(['stats', '--threads', 'x', sample], 2, '--threads needs a number from 1 to 256')
    status(['convert', '--part-size', '0', sample], 2, '--part-size needs a number of bytes')
    status(['convert', '--threads', '2', '--to', 'csv', '--type', 'opr', sample], 2, '--threads is for NDJSON output')
    status(['summary', '--threads', '2', sample], 0, "megengine-profile's summary is read by one thread (--threads applies to chrome-trace)")
    status(['summary', '--threads', '0', sample], 2, '--threads needs a number from 1 to 256')
    # --part-size with one thread changes nothing: said (not an error: --threads "$(nproc)" may be 1)
    for cmd in ('convert', 'stats', 'summary'):
        status([cmd, '--part-size', '4096', sample], 0, 'note: --part-size applies with --threads N (N > 1)')
        status([cmd, '--threads', '1', '--part-size', '4096', sample], 0, 'one thread reads each input whole')
    status(['summary', '--part-size', '0', sample], 2, '--part-size needs a number of bytes from 1 to 2^30')
    # a misspelt record type is a usage error naming the types (the sample is a megengine-profile)
    status(['convert', '--type', 'calls', sample], 2, "'calls' is no record type of any format (types: opr, var,")
    status(['convert', '--format', 'megengine-profile', '--type', 'opr,call', sample], 2,
           "'call' is no record type of megengine-profile (types: opr, var, mem_chunk, exec, opr_time, opr_footprint, error)")
    status(['convert', '--type', 'call,opr', sample], 0)  # (call: a tvm-profile type)
    # --max-line: a 2 MiB line is an error record by default (exit 1, the next line still read),
    # a text record under a larger limit, in convert, stats and summary alike
    hdr = b'[06 15:13:35 330@env.py:meghair.train.env] WRN hello\n'
    big = hdr + b'x' * (2 << 20) + b'\n' + hdr
    status(['convert', '--format', 'megengine-log', '-'], 1, 'error record', stdin=big)
    r = run([logscan, 'convert', '--format', 'megengine-log', '-'], big)
    types = [json.loads(l)['type'] for l in r.stdout.decode().splitlines()]
    check(types == ['log', 'error', 'log'], f'--max-line default: {types}')
    r = run([logscan, 'convert', '--max-line', str(3 << 20), '--format', 'megengine-log', '-'], big)
    types = [json.loads(l)['type'] for l in r.stdout.decode().splitlines()]
    check(r.returncode == 0 and types == ['log', 'text', 'log'], f'--max-line 3 MiB: exit {r.returncode}, {types}')
    status(['stats', '--max-line=3145728', '--format', 'megengine-log', '-'], 0, stdin=big)
    status(['stats', '--threads', '2', '--max-line', '3145728', '--format', 'megengine-log', '-'], 0, stdin=big)
    status(['summary', '--max-line', '3145728', '--format', 'megengine-log', '-'], 0, stdin=big)
    status(['summary', '--format', 'megengine-log', '-'], 1, stdin=big)
    # the summary's note names the first error record (its line, from the input: the long one is
    # line 2) and the option that reads it
    status(['summary', '--format', 'megengine-log', '-'], 1, '-: 1 error record(s); the first at line 2:', stdin=big)
    status(['summary', '--format', 'megengine-log', '-'], 1, '(--max-line BYTES reads longer lines)', stdin=big)
    # convert (NDJSON and CSV) and stats say it alike, on one thread and two: the line counted
    # in the input (the long line is its second), the column past the default 1 MiB, the option
    for args in (['convert'], ['convert', '--threads', '2', '--part-size', '4096'], ['convert', '--to', 'csv', '--type', 'log'],
                 ['stats'], ['stats', '--threads', '2', '--part-size', '4096']):
        status(args + ['--format', 'megengine-log', '-'], 1,
               '-: 1 error record(s); the first at line 2:%d: line longer than the line buffer (max_line); it is skipped '
               '(--max-line BYTES reads longer lines)\n' % ((1 << 20) + 1), stdin=big)
    status(['convert', '--max-line', '0', sample], 2, '--max-line needs a number of bytes')
    # --max-event: a chrome-trace event of about 100 kB is an error record by default (64 KiB;
    # exit 1, the next event still read), a span under a larger limit, in convert, stats and
    # summary (one thread and two) alike
    trace = ('{"traceEvents":[\n{"ph":"X","cat":"kernel","name":"%s","pid":1,"tid":2,"ts":1,"dur":2,"args":{"stream":7}},\n'
             '{"ph":"X","cat":"kernel","name":"b","pid":1,"tid":2,"ts":5,"dur":3,"args":{"stream":7}}\n]}\n' % ('k' * 100000)).encode()
    for limit, want_status in (([], 1), (['--max-event', '200000'], 0)):
        r = run([logscan, 'convert', '--format', 'chrome-trace'] + limit + ['-'], trace)
        recs = [json.loads(l) for l in r.stdout.decode().splitlines()]
        got = [(x['type'], x.get('index'), len(x.get('name') or '')) for x in recs]
        want = [('error', 0, 0), ('span', None, 1)] if want_status else [('span', None, 100000), ('span', None, 1)]
        check(r.returncode == want_status and got == want, f'--max-event {limit}: exit {r.returncode}, {got}')
        status(['stats', '--format', 'chrome-trace'] + limit + ['-'], want_status, stdin=trace)
        for threads in ([], ['--threads', '2', '--part-size', '64']):
            r = run([logscan, 'summary', '--json', '--format', 'chrome-trace'] + threads + limit + ['-'], trace)
            rank = json.loads(r.stdout)['ranks'][0]
            check(r.returncode == want_status and rank['kernels']['count'] == 2 - want_status,
                  f'summary {threads} {limit}: exit {r.returncode}, kernels {rank["kernels"]}')
            hint = ('-: 1 error record(s); the first at event index 0: event too large for the scratch buffer; 1 event(s) larger '
                    'than the scratch buffer, not read (--max-event BYTES reads them)\n')
            check(r.stderr.decode().endswith(hint) if want_status else r.stderr == b'', f'summary {threads} {limit}: {r.stderr!r}')
    # a tvm-profile report cut before its Sum row: a kernel's share is `-`, never 0.00%
    head = b''.join(open(os.path.join(os.path.dirname(sample), '004_d73c77cb3fb2895c.txt'), 'rb').readlines()[:12])
    r = run([logscan, 'summary', '--format', 'tvm-profile', '-'], head)
    shares = [l.split()[-1] for l in r.stdout.decode().splitlines() if l.strip().startswith('vm_mod_')]
    check(len(shares) >= 5 and set(shares) == {'-'}, f'tvm summary without a Sum row: {shares}')
    status(['convert', '--max-event', '0', sample], 2, '--max-event needs a number of bytes from 1 to 2^30')
    status(['summary', '--max-event', 'x', sample], 2, '--max-event needs a number of bytes from 1 to 2^30')
    # a format that one thread reads says so, and its output is the one-thread output
    status(['convert', '--threads', '2', sample], 0, 'megengine-profile is read by one thread')
    # output that cannot be written (a full disk: /dev/full) is said once and exits 1, whatever
    # the command; nothing is a silent success
    if os.path.exists('/dev/full'):
        for args in (['detect', sample], ['convert', sample], ['convert', '--to', 'csv', '--type', 'opr', sample],
                     ['stats', sample], ['summary', sample], ['--help'], ['--version'],
                     ['summary', '--json', os.path.join(os.path.dirname(sample), 'chrome', 'event_sync_trace.json.gz')]):
            with open('/dev/full', 'wb') as full:
                r = subprocess.run([logscan] + args, stdout=full, stderr=subprocess.PIPE)
            said = r.stderr.decode().count('logscan: writing the output failed')
            check(r.returncode == 1 and said == 1, f'{args} > /dev/full: exit {r.returncode}, said {said} times: {r.stderr!r}')
    # summaries say what they could not read rather than print it as data:
    # - a memory table whose third row is cut is still one table (sample 000's first table
    #   with its header line; the rows counted here: the lines that end as a row ends)
    samples = os.path.dirname(sample)
    lines = open(os.path.join(samples, '000_cf8afa6c099f806b.txt'), 'rb').read().split(b'\n')[392:403]
    lines[4] = lines[4][:40]
    rows = sum(1 for l in lines if l.rstrip().endswith(b'%)'))
    status(['summary', '--format', 'megengine-log', '-'], 1, out=f'static memory allocation: {rows} rows in 1 table;',
           stdin=b'\n'.join(lines) + b'\n')
    # - a graph debug table row whose time is `nan` is not ranked as 0.00 us, but said
    r = run([logscan, 'summary', os.path.join(os.path.dirname(samples), 'tests', 'data', 'tvm_profile_today_hand.txt')])
    out = r.stdout.decode()
    check('without a finite duration, not ranked: reshape_0' in out and not any(
        l.split()[:1] == ['reshape_0'] for l in out.splitlines()), f'tvm summary, a nan time: {out!r}')
    # - a profiler dump cut before its operator list: its operators' names and types not read, said
    r = run([logscan, 'summary', '--format', 'megengine-profile', '-'], open(sample, 'rb').read()[:100001])
    out = r.stdout.decode()
    check('not in the operator list read: no name or type' in out and '(not in the operator list read)' in out and
          not any(l.split()[:1] == ['?'] for l in out.splitlines()), f'megengine-profile summary of a cut dump: {out!r}')
    # ... but a complete dump whose operator list names an operator with a null type says only that
    doc = b'{"graph_exec":{"operator":{"7":{"id":"7","type":null,"name":"add[7]"}}},"profiler":{"device":{"7":{"gpu0:0":{"start":0.001,"kern":0.002,"end":0.003}}}}}'
    r = run([logscan, 'summary', '--format', 'megengine-profile', '-'], doc)
    out = r.stdout.decode()
    check('(no type)' in out and 'not in the operator list' not in out and 'add[7]' in out, f'megengine-profile summary, a null type: {out!r}')
    # - a graph debug node timed on one row and `nan` on another is ranked, not also said as untimed
    table = (b'Node Name  Ops       Time(us)  Time(%)  Shape  Inputs  Outputs\n'
             b'---------  ---       --------  -------  -----  ------  -------\n'
             b'conv_a     conv      nan       nan      (4,)   1       1\n'
             b'conv_a     conv      5.0       50.0     (4,)   1       1\n'
             b'relu_b     relu      5.0       50.0     (4,)   1       1\n'
             b'Total_time -         10.0      -        -      -       -\n')
    r = run([logscan, 'summary', '--format', 'tvm-profile', '-'], table)
    out = r.stdout.decode()
    check('not ranked' not in out and any(l.split()[:2] == ['conv_a', '5.00'] for l in out.splitlines()),
          f'tvm summary, a node timed on its second row: {out!r}')
    status(['--version'], 0, out='logscan ')
    for c in ('detect', 'convert', 'stats'):
        status([c, '--help'], 0, out='usage: logscan ' + c)
    status(['--help'], 0, out='usage: logscan detect')
    status(['convert', '/nonexistent/file'], 1, '/nonexistent/file: cannot open file (No such file or directory)')
    status(['detect', '/nonexistent/file'], 1, '/nonexistent/file')
    status(['convert', '-'], 1, '-: format not recognised', stdin=b'just some prose\n')
    # an empty or blank input has no records, whatever its format: exit 0, a note on stderr
    for blank in (b'', b'\n', b' \r\n\t\n'):
        for c in ('convert', 'stats', 'summary'):
            status([c, '-'], 0, '-: empty input, no records', stdin=blank)
        status(['detect', '-'], 1, '-: empty input, no format to tell', out='-: unknown', stdin=blank)
    # an input of another kind given with --format yields only text: said, exit 1, in convert
    # (NDJSON, CSV, --threads), stats (also --threads) and summary, which prints no report;
    # the count is the input's non-blank lines, counted here
    prose = (b'root:x:0:0:root:/root:/bin/bash\n\n   \ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n'
             b'Just some prose, no log line at all.\n\x89PNG\x1a binary\n')
    nonblank = sum(1 for l in prose.split(b'\n') if l.strip())
    for fmt in ('megengine-log', 'paddle-log', 'tvm-profile'):
        r = run([logscan, 'convert', '--format', fmt, '-'], prose)
        types = [json.loads(l)['type'] for l in r.stdout.decode().splitlines()]
        check(types == ['text'] * nonblank, f'{fmt} on prose: {types}')  # (formats.md: any other line is text)
        said = f'-: no {fmt} records; {nonblank} non-blank lines were text'
        for args in (['convert'], ['convert', '--threads', '2', '--part-size', '16'], ['convert', '--to', 'csv', '--type', 'text'],
                     ['stats'], ['stats', '--threads', '2', '--part-size', '16'], ['summary']):
            status(args + ['--format', fmt, '-'], 1, said, stdin=prose)
        r = run([logscan, 'summary', '--format', fmt, '-'], prose)
        check(r.stdout == b'', f'summary {fmt} on prose printed a report: {r.stdout!r}')
        with tempfile.TemporaryDirectory() as d:  # a file, named in the message; one line: singular
            p = os.path.join(d, 'passwd')
            with open(p, 'wb') as f:
                f.write(b'root:x:0:0:root:/root:/bin/bash\n')
            status(['stats', '--format', fmt, p], 1, f'{p}: no {fmt} records; 1 non-blank line was text')
    status(['convert', '-'], 0, stdin=open(sample, 'rb').read())
    status(['convert', '--format', 'megengine-profile', '-'], 1, 'error record', stdin=open(sample, 'rb').read()[:100])
    # a pipe is detected from its first 16 KiB like a file; CSV reads a pipe twice (spooled)
    status(['detect', '-'], 0, out='-: megengine-profile', stdin=open(sample, 'rb').read())
    r = run(['sh', '-c', f'cat "{sample}" | "{logscan}" convert --to csv --type opr /dev/stdin | wc -l'])
    check(int(r.stdout.decode().split()[0]) > 200, f'CSV from /dev/stdin (a pipe): {r.stdout!r}')
    # summary: error records make the exit status 1
    status(['summary', '--format', 'megengine-profile', '-'], 1, 'error record', stdin=open(sample, 'rb').read()[:5000])
    print('usage checked')


def threads(logscan, paths, sanitized=False):
    def stat_line(out):
        for l in out.decode().splitlines():
            if l.split()[:1] == ['threads']:
                w = l.replace('(', ' ').split()
                return int(w[2]), int(w[7])  # kept, read again ("N parts read in parallel; M parts read again ...")
        return None
    kept_total = redone_total = 0
    with tempfile.TemporaryDirectory() as d:
        for path in paths:
            data = open(path, 'rb').read()
            name = os.path.basename(path)
            # whole copies, with copies cut short between them: records straddle every kind of cut
            variants = {'repeated': data * 2,
                        'damaged': data + data[:len(data) // 3] + b'\n' + data[len(data) // 2:] + data[:len(data) * 2 // 3]}
            for kind, text in variants.items():
                f = os.path.join(d, f'{kind}.{name}')
                open(f, 'wb').write(text)
                one = run([logscan, 'convert', '--with-filename', f])
                check(one.returncode in (0, 1) and one.stdout, f'{kind} {name}: one thread failed: {one.stderr!r}')
                st1 = run([logscan, 'stats', f])
                counts1 = [l for l in st1.stdout.decode().splitlines() if l.startswith('    ')]
                # parts of one line each (small inputs) or ~300 parts, then ~40 and ~9 parts, and
                # the default (a part costs a parser: bounded, for the sanitizer builds); under
                # the sanitizers (`--sanitized`: the driver's memory checked, its cuts already
                # checked in the Release build) ~40 parts and the default only (85 s of the clang
                # ASan+UBSan stage's tests with all four, 2026-12-07)
                n = len(text)
                sizes = ((2, 1 if text.count(b'\n') < 400 else n // 300), (3, n // 40 + 1), (2, n // 9 + 1), (2, None))
                if sanitized:
                    sizes = ((3, n // 40 + 1), (2, None))
                for t, size in sizes:
                    opt = ['--threads', str(t)] + (['--part-size', str(size)] if size else [])
                    many = run([logscan, 'convert', '--with-filename'] + opt + [f])
                    check(many.stdout == one.stdout, f'{kind} {name} {opt}: NDJSON differs from one thread')
                    check(many.returncode == one.returncode and many.stderr == one.stderr,
                          f'{kind} {name} {opt}: exit {many.returncode} {many.stderr!r} != {one.returncode} {one.stderr!r}')
                    st = run([logscan, 'stats'] + opt + [f])
                    counts = [l for l in st.stdout.decode().splitlines() if l.startswith('    ')]
                    check(counts == counts1 and st.returncode == st1.returncode, f'{kind} {name} {opt}: stats differ')
                    k = stat_line(st.stdout)
                    check(k is not None, f'{kind} {name} {opt}: stats has no threads line')
                    if k:
                        kept_total += k[0]
                        redone_total += k[1]
                # a pipe, and a type filter
                pipe = run(['sh', '-c', f'cat "{f}" | "{logscan}" convert --threads 2 --part-size 3000 -'])
                ref = run([logscan, 'convert', '-'], stdin=text)
                check(pipe.stdout == ref.stdout, f'{kind} {name}: a pipe with --threads differs')
                types = run([logscan, 'convert', '--type', 'text,error', f])
                types2 = run([logscan, 'convert', '--type', 'text,error', '--threads', '2', '--part-size', '500', f])
                check(types.stdout == types2.stdout, f'{kind} {name}: --type with --threads differs')
    # both ways a part can go happened: kept as parsed in parallel, and read again
    check(kept_total > 100 and redone_total > 100, f'parts kept {kept_total}, read again {redone_total}')
    print(f'{len(paths)} inputs: parts kept {kept_total}, read again {redone_total}')


def chrome_summary(logscan, expected_dir, traces):
    import xml.dom.minidom
    for t in traces:
        name = os.path.basename(t)
        stem = name[:name.index('.json')]
        with open(os.path.join(expected_dir, stem + '.summary.json')) as f:
            expected = json.load(f)
        for r in expected['ranks']:
            r.pop('file')
        with open(t, 'rb') as f:
            data = f.read()
        # (threads: the file read in parts of 2000 bytes on 2 threads, and a pipe so)
        for how, args, stdin in (('file', [t], None), ('pipe', ['--format', 'chrome-trace', '-'], data),
                                 ('threads', ['--threads', '2', '--part-size', '2000', t], None),
                                 ('threads, pipe', ['--threads', '2', '--part-size', '2000', '--format', 'chrome-trace', '-'], data)):
            r = run([logscan, 'summary', '--json'] + args, stdin=stdin)
            check(r.returncode == 0, f'{name} ({how}): exit status {r.returncode}: {r.stderr!r}')
            try:
                got = json.loads(r.stdout)
            except ValueError:
                check(False, f'{name} ({how}): not one JSON document: {r.stdout[:200]!r}')
                continue
            files = [x.pop('file', None) for x in got['ranks']]
            check(files == [name if 'pipe' not in how else '-'], f'{name} ({how}): file {files}')
            check(got == expected, f'{name} ({how}): the figures differ from HTA\'s')
        with tempfile.TemporaryDirectory() as d:
            r = run([logscan, 'summary', '--svg', d, t])
            check(r.returncode == 0 and b'temporal: idle' in r.stdout, f'{name}: text report: {r.stdout[:300]!r} {r.stderr!r}')
            charts = sorted(os.listdir(d))
            check(charts == ['chrome-trace.temporal-breakdown.svg', 'chrome-trace.top-kernels.svg'], f'{name}: charts {charts}')
            for c in charts:
                check(xml.dom.minidom.parse(os.path.join(d, c)).documentElement.tagName == 'svg', f'{name}: {c} is no SVG')
    print(f'{len(traces)} traces: HTA\'s figures')


def chrome_summary_ref(logscan, jobs):
    ref = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'chrome_summary.py')
    for job in jobs:
        files = job.split(',')
        mine = run([logscan, 'summary', '--json'] + files)
        theirs = run([sys.executable, ref] + files)
        # (each file read in parts of 100 bytes on 2 threads: the same output, errors and all)
        parted = run([logscan, 'summary', '--json', '--threads', '2', '--part-size', '100'] + files)
        check((parted.returncode, parted.stdout) == (mine.returncode, mine.stdout),
              f'{job}: --threads 2 gives another summary:\n{parted.stdout!r}\n{mine.stdout!r}')
        try:
            a, b = json.loads(mine.stdout), json.loads(theirs.stdout)
        except ValueError:
            check(False, f'{job}: not JSON: {mine.stdout[:200]!r} {theirs.stdout[:200]!r}')
            continue
        # (error records make the exit status 1; their messages are each program's own words)
        errors = sum(len(r['document_errors']) for r in a['ranks'])
        check(mine.returncode == (1 if errors else 0) and theirs.returncode == 0,
              f'{job}: exit status {mine.returncode} / {theirs.returncode}: {mine.stderr!r} {theirs.stderr!r}')
        for r in a['ranks'] + b['ranks']:
            r['document_errors'] = len(r['document_errors'])
        check(a == b, f'{job}: logscan and the reference differ:\n{mine.stdout!r}\n{theirs.stdout!r}')
    print(f'{len(jobs)} jobs: the reference\'s figures')


def main():
    mode, logscan = sys.argv[1], sys.argv[2]
    if mode == 'detect':
        detect(logscan, sys.argv[3])
    elif mode == 'csv':
        csv_check(logscan, sys.argv[3])
    elif mode == 'stats':
        stats(logscan, sys.argv[3:])
    elif mode == 'usage':
        usage(logscan, sys.argv[3])
    elif mode == 'threads':
        sanitized = sys.argv[3:4] == ['--sanitized']
        threads(logscan, sys.argv[4:] if sanitized else sys.argv[3:], sanitized)
    elif mode == 'chrome-summary':
        chrome_summary(logscan, sys.argv[3], sys.argv[4:])
    elif mode == 'chrome-summary-ref':
        chrome_summary_ref(logscan, sys.argv[3:])
    else:
        problems.append(f'unknown mode {mode}')
    for p in problems[:30]:
        print(p)
    if problems:
        print(f'{len(problems)} problem(s)')
        sys.exit(1)


if __name__ == '__main__':
    main()
