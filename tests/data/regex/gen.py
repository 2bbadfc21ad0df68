#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Generates the differential test data of logscan::regex from Python's `re`.

Writes, next to this script:
  patterns_<k>.inc  X-macro lists LOGSCAN_RX(index, R"lsrx(pattern)lsrx") split in 4 parts
  cases.txt         one line per (pattern, input): expected fullmatch, search and finditer spans

Line format of cases.txt (fields separated by one space):
  <pattern index> <input as hex, or '-' when empty> <full> <search> <all>
where <full> and <search> are 'n' (no match) or the groups' spans 'b:e,b:e,...' ('x' for a
group that did not take part), and <all> is the finditer matches joined by '/' ('n' if none).

The patterns are hand-written (log-line patterns, the issue's examples, empty-iteration
corner cases) plus generated from the supported syntax with a fixed seed, so the output is
reproducible:  python3 tests/data/regex/gen.py
"""
import os
import random
import re

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
INPUTS_PER_PATTERN = 32

HAND = [
    # log-line patterns
    r"\[(\d+) (\d\d:\d\d:\d\d) (\d+)@([^:]*):([^\]]*)\] (.*)",
    r"\[(?<day>\d\d) (?<time>\d\d:\d\d:\d\d) (?<line>\d+)@(?<file>[^:]+):(?<logger>[^\]]+)\] (?:(DBG|WRN|ERR|CRIT|CRITICAL) )?(.*)",
    r"\[(\d\d)/(\d\d) (\d\d:\d\d:\d\d)\] (\S+) (INFO|WARNING|ERROR|DEBUG): (.*)",
    r"(\d+) (\d+) (\S+)",
    r"(\d+) (\d+)",
    r"(\S+)\s+(\d{1,3}(?:,\d{3})*(?:\.\d+)?)\s+(\d+\.\d+)\s+(\w+)\s+(\d+)\s*(.*)",
    r"\d{1,3}(?:,\d{3})+(?:\.\d+)?",
    r"\d+(?:,\d{3})*\.\d+",
    r"static mem alloc",
    r"bytes\)",
    r"graph optimization: applied (\d+) passes, total (\d+) var\(s\) replaced; time=([\d.]+) ms",
    r"FpropEnv\((\w+)\): start fprop VarNode\(owner_opr=(\w+)\{(\w+)@(0x[0-9a-f]+)\}\)",
    r"FpropEnv\((\w+)\): var node shape:  (\w+): \(([\d, ]*)\)",
    r"\s*(\w+)(?:@(\d+))?: \(([\d, ]*)\)",
    r"Epoch: \[(\d+)\]\s*\[\s*(\d+)/(\d+)\]",
    r"(?P<key>\w+): (?P<val>[-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?)",
    r"(\w+)=([^ ,]+)",
    r"^\s*$",
    r"^(\w+)\s+(\d+(?:\.\d+)?)\s+(\d+(?:\.\d+)?)",
    r"(Mean|Median) (\w+) inference time \(std dev\): ([\d.]+) ms \(([\d.]+) ms\)",
    r"float32\[([\d, ]*)\]",
    r"0x[0-9a-fA-F]+",
    r"\b\w+\.py\b",
    r"(\d+(?:\.\d+)?)(us|ms|s)\b",
    r"\d\d:\d\d:\d\d",
    r"[A-Z][a-z]+",
    r"\bcpu\d+\b",
    r"(?:\d+, )*\d+",
    r"\(([^()]*)\)",
    r"\[([^\[\]]*)\]",
    r"[^ ]+",
    r"\S+ \S+",
    r"(.*)@(.*)",
    r"(.*?)@(.*?)",
    r"(.*):(.*)",
    r"(.*?):(.*)",
    r"[\x41-\x5a]+",
    r"\w+\W+\w+",
    r"\d+\D+\d+",
    r"\s\S\s",
    # the examples and pathological patterns
    r"(a|aa)*b",
    r"(a*)*b",
    r"(a*)*",
    r"(a|)+",
    r"(?:a?)*?",
    r"(a?)*?",
    r"(a*)+",
    r"(a*|b)*",
    r"(a|b)*?c",
    r"(a+|b+)*",
    r"(a*?)*",
    r"(a*)*?",
    r"((a)|b)*",
    r"(?:(a)|(b))*",
    r"(?:(a)|b)+",
    r"(a)|b",
    r"(a|ab)(c|bcd)(d*)",
    r"(a+)(a*)",
    r"(a+?)(a*)",
    r"(a*)(a+)",
    r"(a*?)(a+?)",
    r"(a|b)*(b)",
    r"((a*)b)*",
    r"((a*)(b*))*",
    r"(()|a)*",
    r"(a{0,2})*",
    r"(a{0,2}?)*",
    r"(a|b){2,4}",
    r"(a|b){2,4}?",
    r"(a?){3}",
    r"(a?){2,}",
    r"(a?){0,3}",
    r"(a?){1,3}?",
    r"(a*){2,3}",
    r"(?:(a*)|b)*",
    r"(a*)*(b)",
    r"(x*)(x*)",
    r"a{3}",
    r"a{2,}",
    r"a{,2}",
    r"a{1,3}b",
    r"a{0}b",
    r"(ab|a)(bc|c)?",
    r"(a|ab)(bc|c)?",
    r"^a*$",
    r"^$",
    r"$",
    r"^",
    r"a$",
    r"a\b",
    r"\ba",
    r"\Ba\B",
    r"\b",
    r"\B",
    r"(\b)(a*)(\b)",
    r"x*",
    r"x+?",
    r"",
    r"|a",
    r"a|",
    r"(|a)+",
    r"(a|)*?b",
    r"[a-c]+",
    r"[^a-c]+",
    r"[]a]+",
    r"[^]a]+",
    r"[a\-z]+",
    r"[-a]+",
    r"[a-]+",
    r"[\d\s]+",
    r"[\w.]+",
    r"[^\n]*",
    r".*",
    r".+?",
    r"a.c",
    r"\.\*\+\?\(\)\[\]\{\}\|\^\$\\\/\-",
    r"\t\n\r",
    r"\x00?\x7f",
    r"(?:ab)+",
    r"(?:a|b|c)+?c",
    r"((((a))))",
    r"(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)",
    r"(?P<x>a)(?<y>b)?",
]


def rnd_atom(r, depth):
    k = r.random()
    if depth > 2 or k < 0.45:
        return r.choice(["a", "b", "c", "a", "b", ".", "[ab]", "[^a]", "\\d", "\\w", "\\s", " ", "x", "[a-c]", "\\.", "1"])
    if k < 0.55:
        return r.choice(["^", "$", "\\b", "\\B", ""])
    if k < 0.8:
        return "(" + rnd_alt(r, depth + 1) + ")"
    return "(?:" + rnd_alt(r, depth + 1) + ")"


def rnd_quant(r):
    k = r.random()
    if k < 0.5:
        return ""
    q = r.choice(["*", "+", "?", "{2}", "{0,2}", "{1,3}", "{2,}", "{,2}", "*", "+"])
    if r.random() < 0.35:
        q += "?"
    return q


def rnd_concat(r, depth):
    parts = []
    for _ in range(r.randint(1, 4)):
        a = rnd_atom(r, depth)
        if a in ("^", "$", "\\b", "\\B", ""):
            parts.append(a)
        else:
            parts.append(a + rnd_quant(r))
    return "".join(parts)


def rnd_alt(r, depth):
    n = 1 if r.random() < 0.6 else r.randint(2, 3)
    return "|".join(rnd_concat(r, depth) for _ in range(n))


def sample_lines():
    lines = []
    for name in sorted(os.listdir(os.path.join(ROOT, "samples"))):
        if not name.endswith(".txt"):
            continue
        with open(os.path.join(ROOT, "samples", name), "rb") as f:
            for ln in f.read().split(b"\n"):
                if 0 < len(ln) <= 300:
                    lines.append(ln)
    return lines


def inputs_for(r, pat, log_lines, is_log):
    out = [b""]
    alphabet = b"abc x1.\n_"
    if is_log:
        out += r.sample(log_lines, 20)
        # lines that match or nearly match, from the samples
        rx = re.compile(py_pattern(pat))
        hits = [ln for ln in log_lines if rx.search(ln)]
        r.shuffle(hits)
        out += hits[:8]
        for ln in hits[:3]:
            k = r.randrange(len(ln))
            out.append(ln[:k] + ln[k + 1:])
    # random short strings, biased to the pattern's own letters
    lits = [c.encode() for c in pat if c.isalnum() or c in " .:@()[]_,"]
    while len(out) < INPUTS_PER_PATTERN:
        n = r.randint(1, 10)
        s = bytearray()
        for _ in range(n):
            if lits and r.random() < 0.5:
                s += r.choice(lits)
            else:
                s.append(r.choice(alphabet))
        out.append(bytes(s))
    seen, uniq = set(), []
    for s in out:
        if s not in seen:
            seen.add(s)
            uniq.append(s)
    while len(uniq) < INPUTS_PER_PATTERN:
        s = bytes(r.choice(alphabet) for _ in range(r.randint(1, 14)))
        if s not in seen:
            seen.add(s)
            uniq.append(s)
    return uniq


def py_pattern(p):
    """Python's re spells named groups (?P<name>...) only."""
    return re.sub(r"\(\?<(?![=!])", "(?P<", p).encode()


def spans(m, ngroups):
    if m is None:
        return "n"
    parts = []
    for g in range(ngroups):
        b, e = m.span(g)
        parts.append("x" if b < 0 else "%d:%d" % (b, e))
    return ",".join(parts)


def main():
    r = random.Random(20261122)
    log_lines = sample_lines()
    pats = list(HAND)
    nlog = 40  # the first 40 hand-written patterns are tested on log lines
    seen = set(pats)
    while len(pats) < 340:
        p = rnd_alt(r, 0)
        if p in seen or len(p) > 40:
            continue
        try:
            re.compile(py_pattern(p))
        except re.error:
            continue
        seen.add(p)
        pats.append(p)
    lines = []
    for i, p in enumerate(pats):
        rx = re.compile(py_pattern(p))
        ng = rx.groups + 1
        for s in inputs_for(r, p, log_lines, i < nlog):
            if not s and "\\B" in p:
                # Python < 3.14 never lets \B match an empty text; PCRE (and Python 3.14) do,
                # and so does logscan: tested in tests/regex.cpp instead.
                continue
            full = spans(rx.fullmatch(s), ng)
            srch = spans(rx.search(s), ng)
            alls = [spans(m, ng) for m in rx.finditer(s)]
            lines.append("%d %s %s %s %s" % (i, s.hex() if s else "-", full, srch, "/".join(alls) if alls else "n"))
    with open(os.path.join(HERE, "cases.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    parts = 4
    for k in range(parts):
        with open(os.path.join(HERE, "patterns_%d.inc" % k), "w") as f:
            f.write("// Generated by tests/data/regex/gen.py; do not edit.\n")
            for i, p in enumerate(pats):
                if i % parts == k:
                    assert ")lsrx" not in p
                    f.write('LOGSCAN_RX(%d, R"lsrx(%s)lsrx")\n' % (i, p))
    print("%d patterns, %d cases" % (len(pats), len(lines)))


if __name__ == "__main__":
    main()
