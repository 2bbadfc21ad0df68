#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The command's outputs, byte for byte, on every input the tests have: a guard for changes
# that must not change what users get (the format layer's rework, issue 22: "byte-identical
# output"). It does not say the outputs are right (the references of tests/reference/ and
# the unit tests do that, from the inputs and the contract); it says they did not move.
#
#   golden.py check  LOGSCAN SOURCE_DIR GOLDEN_DIR   compare; exit 1 with the first differences
#   golden.py update LOGSCAN SOURCE_DIR GOLDEN_DIR   write GOLDEN_DIR anew (when a change is
#                                                    meant to change outputs: say so in its commit)
#
# Inputs: the samples, every hand-written input of tests/data/ (and tests/data/detect/), the
# repeated and damaged copies that check_cli.py's `threads` check builds from its inputs, and
# the small inputs its `usage` check writes. For each: `convert` (NDJSON), `convert --to csv
# --out-dir` (every table), `stats` (without its timing lines) and `summary --top 5`, each with
# its exit status and standard error. Each input's outputs are one gzip file in GOLDEN_DIR.
import gzip
import os
import subprocess
import sys
import tempfile

SAMPLES = ['000_cf8afa6c099f806b.txt', '001_825e28a4f520ddc2.txt', '002_925085f7148f0ebf.txt',
           '003_1c776201c8b5b83e.txt', '004_d73c77cb3fb2895c.txt',
           'today/mge_docs_lar_tensorrt_nchw4_warn.txt', 'today/mge_documentation_lar_debug_static_mem_compnode_wide.txt',
           'today/mge_issue37_console_wrn_distributed_truncated.txt', 'today/paddle_pr22590_old_profiling_report.txt',
           'today/ppdet_repo_dy_loss_log_2020.txt', 'today/sharpiless_yolov5_readme_notebook_indented.txt',
           'today/arachne_readme_jetson_tensorrt_debug_table.txt', 'today/tvm_pr3727_old_vm_profiler_tabs.txt',
           'today/semcomm_tvm_report_json_text_tuned_top2.json.txt']
# check_cli.py threads' inputs (examples/logscan/CMakeLists.txt: logscan.threads.identical)
THREADS = ['samples/000_cf8afa6c099f806b.txt', 'samples/003_1c776201c8b5b83e.txt', 'samples/004_d73c77cb3fb2895c.txt',
           'tests/data/megengine_log_hand.txt', 'tests/data/paddle_log_hand.txt', 'tests/data/tvm_profile_hand.txt',
           'tests/data/paddle_log_crlf.txt', 'tests/data/paddle_log_pipe_title.txt']


def inputs(src):
    """(name, bytes, format or None) for every input."""
    out = []
    for s in SAMPLES:
        out.append(('sample.' + s.replace('/', '.'), open(os.path.join(src, 'samples', s), 'rb').read(), None))
    data = os.path.join(src, 'tests', 'data')
    for f in sorted(os.listdir(data)):
        p = os.path.join(data, f)
        if os.path.isfile(p):
            out.append(('data.' + f, open(p, 'rb').read(), None))
    for f in sorted(os.listdir(os.path.join(data, 'detect'))):
        out.append(('detect.' + f, open(os.path.join(data, 'detect', f), 'rb').read(), None))
    for rel in THREADS:  # as check_cli.py threads builds them
        d = open(os.path.join(src, rel), 'rb').read()
        name = os.path.basename(rel)
        out.append(('repeated.' + name, d * 2, None))
        out.append(('damaged.' + name, d + d[:len(d) // 3] + b'\n' + d[len(d) // 2:] + d[:len(d) * 2 // 3], None))
    # check_cli.py usage's inputs
    hdr = b'[06 15:13:35 330@env.py:meghair.train.env] WRN hello\n'
    out.append(('usage.long_line', hdr + b'x' * (2 << 20) + b'\n' + hdr, 'megengine-log'))
    prose = (b'root:x:0:0:root:/root:/bin/bash\n\n   \ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n'
             b'Just some prose, no log line at all.\n\x89PNG\x1a binary\n')
    for fmt in ('megengine-log', 'paddle-log', 'tvm-profile', 'chainer-memtrace', 'megengine-profile'):
        out.append(('usage.prose.' + fmt, prose, fmt))
    profile = open(os.path.join(src, 'samples', SAMPLES[1]), 'rb').read()
    out.append(('usage.profile_cut_100', profile[:100], 'megengine-profile'))
    out.append(('usage.profile_cut_5000', profile[:5000], 'megengine-profile'))
    return out


def run(args, stdin):
    r = subprocess.run(args, input=stdin, capture_output=True)
    return r.returncode, r.stdout, r.stderr


def outputs(logscan, text, fmt):
    """Every output of the command on one input, as one byte string."""
    given = ['--format', fmt] if fmt else []
    parts = []

    def section(title, status, out, err):
        parts.append(b'== %s: exit %d\n-- stderr\n%s-- stdout\n%s' % (title.encode(), status, err, out))

    section('convert', *run([logscan, 'convert'] + given + ['-'], text))
    with tempfile.TemporaryDirectory() as d:
        status, out, err = run([logscan, 'convert', '--to', 'csv', '--out-dir', d] + given + ['-'], text)
        for f in sorted(os.listdir(d)):
            out += b'-- ' + f.encode() + b'\n' + open(os.path.join(d, f), 'rb').read()
        section('convert --to csv', status, out, err)
    status, out, err = run([logscan, 'stats'] + given + ['-'], text)
    out = b''.join(l for l in out.splitlines(True) if l.split()[:1] not in ([b'elapsed'], [b'speed']))
    section('stats', status, out, err)
    section('summary --top 5', *run([logscan, 'summary', '--top', '5'] + given + ['-'], text))
    return b''.join(parts)


def first_difference(want, got):
    w, g = want.splitlines(), got.splitlines()
    for i in range(max(len(w), len(g))):
        a = w[i] if i < len(w) else b'<end>'
        b = g[i] if i < len(g) else b'<end>'
        if a != b:
            return f'line {i + 1}:\n    golden: {a[:300]!r}\n    now:    {b[:300]!r}'
    return 'identical lines, different bytes'


def main():
    mode, logscan, src, golden = sys.argv[1:5]
    cases = inputs(src)
    if mode == 'update':
        os.makedirs(golden, exist_ok=True)
        for f in os.listdir(golden):
            os.remove(os.path.join(golden, f))
        for name, text, fmt in cases:
            with open(os.path.join(golden, name + '.gz'), 'wb') as f:
                f.write(gzip.compress(outputs(logscan, text, fmt), mtime=0))
        print(f'{len(cases)} inputs written to {golden}')
        return
    problems = []
    known = set(os.listdir(golden))
    for name, text, fmt in cases:
        path = os.path.join(golden, name + '.gz')
        if name + '.gz' not in known:
            problems.append(f'{name}: no golden output (golden.py update, and say why in the commit)')
            continue
        known.discard(name + '.gz')
        want = gzip.decompress(open(path, 'rb').read())
        got = outputs(logscan, text, fmt)
        if got != want:
            problems.append(f'{name}: the output changed, first at {first_difference(want, got)}')
    for f in sorted(known):
        problems.append(f'{f}: a golden output of no input')
    for p in problems:
        print(p)
    print(f'{len(cases) - len(problems)} passed, {len(problems)} failed')
    sys.exit(1 if problems else 0)


if __name__ == '__main__':
    main()
