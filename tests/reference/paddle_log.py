#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# An independent reference for the paddle-log format, written from formats.md section 4 and
# the table semantics documented in include/logscan/table.hpp (rule_table, pipe_table) with
# Python's re (it shares no code with the C++ module): prints the records of FILE as NDJSON.
# All matching is on bytes with ASCII semantics; table column positions count UTF-8 code
# points (a lead byte and the continuation bytes after it), as Paddle pads with str.format.
# Strings are decoded (UTF-8, invalid bytes as U+FFFD) only on output. Choices where the
# contract is silent: a `---Thread: NAME---` line is never a title (outside a table's rows it
# is an ordinary line); a pipe table is read only right after a `Perf Summary` title and the
# region ends with it; a title's `table` record waits for its first header (or the region's
# end, a log line) so that a `Time unit: X` note can fill time_unit, and the other notes seen
# meanwhile follow it; a table without a title has table null.
#   python3 paddle_log.py FILE            the records as NDJSON
#   python3 paddle_log.py --count FILE    parse only; prints the number of records per type
import json
import re
import sys

LOG = re.compile(rb'\[(\d\d/\d\d) (\d\d:\d\d:\d\d)\] (\S+) (DEBUG|INFO|WARNING|ERROR|CRITICAL): (.*)', re.S)
EPOCH = re.compile(rb'Epoch: \[(\d+)\] \[ *(\d+)/(\d+)\] (.*)', re.S)
KEY = re.compile(rb'(?:^|(?<= ))([A-Za-z0-9_]+): ')
ETA = re.compile(rb'(?:(\d+) days?, )?(\d+):(\d\d):(\d\d)')
METRIC = re.compile(rb'(\S+)(?: (\S+))?')
TIME_UNIT = re.compile(rb'Time [Uu]nit: ([^,\s]+)(?:,.*)?', re.S)
NUMBER = re.compile(rb'[+-]?(?:[1-9][0-9]{0,2}(?:,[0-9]{3})+|[0-9]+)(\.[0-9]+)?([eE][+-]?[0-9]+)?')
SPACES = b' \t'


def s(b):
    return b.decode('utf-8', 'replace')


def number(b):
    """The number the whole text b spells, or None."""
    m = NUMBER.fullmatch(b)
    if not m:
        return None
    t = b.replace(b',', b'').decode('ascii')
    return float(t) if (m.group(1) or m.group(2)) else int(t)


def scalar(b):
    """`-` -> None, a number -> the number, else the string."""
    if b == b'-':
        return None
    v = number(b)
    return s(b) if v is None else v


def value(b):
    """A cell's value from its trimmed text: `a / b / c` is a list of scalars."""
    if b' / ' in b:
        return [scalar(p.strip(SPACES)) for p in b.split(b' / ')]
    return scalar(b)


def split_lines(data):
    lines = data.split(b'\n')
    if lines and lines[-1] == b'':
        lines.pop()
    return [l[:-1] if l.endswith(b'\r') else l for l in lines]


# --- line shapes (the lines are right-trimmed of spaces and tabs) ---

def is_binary(t):
    """A control character (tab included) or bytes that are not UTF-8: never structure or a row."""
    if any(b < 0x20 or b == 0x7F for b in t):
        return True
    try:
        t.decode('utf-8')
        return False
    except UnicodeDecodeError:
        return True


def is_rule_line(t):
    """Dash runs separated by spaces, from column 0, with at least one space."""
    return t[:1] == b'-' and b' ' in t and not t.replace(b'-', b'').replace(b' ', b'')


def is_dash_line(t):
    return len(t) >= 3 and not t.replace(b'-', b'')


def framed(t):
    """The trimmed text of a `---TEXT---` / `===TEXT===` line, or None."""
    if t[:1] not in (b'-', b'='):
        return None
    fill = t[0]
    n = len(t)
    b = 0
    while b < n and t[b] == fill:
        b += 1
    e = n
    while e > b and t[e - 1] == fill:
        e -= 1
    if b < 3 or n - e < 3 or b == e:
        return None
    inner = t[b:e].strip(SPACES)
    if not inner.replace(bytes((fill,)), b'').replace(b' ', b''):
        return None  # only fill characters and spaces: a rule, not a frame
    return inner


def banner_name(t):
    """NAME of a `---Thread: NAME---` banner, or None when t is no banner."""
    f = framed(t)
    if f is None or t[0] != ord('-') or not f.startswith(b'Thread:'):
        return None
    return f[len(b'Thread:'):].strip(SPACES)


def title_of(t):
    """The title text of a title line (a banner is no title), or None."""
    f = framed(t)
    if f is None or banner_name(t) is not None:
        return None
    return f


def dash_runs(t):
    return [(m.start(), m.end()) for m in re.finditer(rb'-+', t)]


def unit_starts(t):
    """Byte offset of every code point: a byte that is not a continuation byte (and byte 0)."""
    if t.isascii():
        return range(len(t))
    return [i for i in range(len(t)) if i == 0 or (t[i] & 0xC0) != 0x80]


def cut(t, spans):
    """The raw cells of t under the column spans [(start, end)] (code-point positions).
    Cell i runs from span i's start to span i+1's start; text in the gutter after a span
    means the cell overflowed: it runs to the next two spaces (or a final space / the end),
    the next cell starts a gutter's width later and every later cell shifts by as much."""
    pos = unit_starts(t)
    n, size = len(pos), len(t)

    def at(k):  # byte offset of code point k (the end when past it)
        return pos[k] if k < n else size

    out = []
    shift = 0
    for c in range(len(spans)):
        b = spans[c][0] + shift
        if c + 1 == len(spans):
            out.append(t[at(b):])
            break
        gutter = spans[c + 1][0] - spans[c][1]
        g = spans[c][1] + shift
        e = spans[c + 1][0] + shift
        if t[at(g):at(e)].strip(b' '):
            p = g
            while p < n:
                pb = pos[p]
                if t[pb] == 0x20 and (pb + 1 == size or t[pb + 1] == 0x20):
                    break
                p += 1
            e = p + gutter
            shift = e - spans[c + 1][0]
        out.append(t[at(b):at(e)])
    return out


def pipe_cells(t):
    """Cells between pipes; a last cell without a closing pipe counts too."""
    cells = []
    i, n = 1, len(t)
    while i <= n:
        j = t.find(b'|', i)
        if j < 0:
            if i == n:
                break
            j = n
        cells.append(t[i:j])
        i = j + 1
    return cells


def is_pipe_separator(t):
    return b'-' in t and not t.translate(None, b'-|: +')


# --- records ---

def log_records(n, m):
    out = [dict(type='log', line=n, date=s(m[1]), time=s(m[2]), logger=s(m[3]), level=s(m[4]), message=s(m[5]))]
    e = EPOCH.fullmatch(m[5])
    if not e:
        return out
    rest = e[4]
    keys = list(KEY.finditer(rest))
    eta_s = None
    metrics, units = {}, {}
    for i, k in enumerate(keys):
        v = rest[k.end():keys[i + 1].start() if i + 1 < len(keys) else len(rest)].rstrip(b' ')
        if v.endswith(b','):
            v = v[:-1]
        key = s(k[1])
        if key == 'eta':
            d = ETA.fullmatch(v)
            eta_s = None if not d else \
                int(d[1] or 0) * 86400 + int(d[2]) * 3600 + int(d[3]) * 60 + int(d[4])
            continue
        mv = METRIC.fullmatch(v)
        num = number(mv[1]) if mv else None
        if num is None:
            metrics[key] = s(v)
            continue
        metrics[key] = num
        if mv[2] is not None:
            units[key] = s(mv[2])
    out.append(dict(type='train_step', line=n, epoch=int(e[1]), iter=int(e[2]), iters=int(e[3]), eta_s=eta_s,
                    metrics=metrics, units=units))
    return out


class Parser:
    # states: idle, titled, want_header, want_header_rule, body, after_rows, trailer, pipe
    def __init__(self):
        self.out = []
        self.state = 'idle'
        self.title = None      # the current title (bytes) or None
        self.pending = None    # [line, title, time_unit, notes] until the title's record is due
        self.spans = []
        self.keys = []         # header keys of columns 1.. (str)
        self.thread = None
        self.held = None       # (line, text) of a header candidate
        self.pipe_keys = None  # pipe table header keys of columns 1.., None before the header

    # -- title and notes --
    def resolve(self):
        if self.pending is None:
            return
        n, title, unit, notes = self.pending
        self.pending = None
        self.out.append(dict(type='table', line=n, title=s(title), time_unit=unit))
        self.out.extend(notes)

    def note(self, n, t):
        if self.pending is not None:
            if self.pending[2] is None and (m := TIME_UNIT.fullmatch(t)):
                self.pending[2] = s(m[1])
                return
            self.pending[3].append(dict(type='text', line=n, text=s(t)))
            return
        self.out.append(dict(type='text', line=n, text=s(t)))

    def start_title(self, n, title):
        self.resolve()
        self.title = title
        self.pending = [n, title, None, []]
        self.state = 'titled'

    def end(self):
        self.resolve()
        self.state = 'idle'
        self.title = None

    def close(self):
        """Ends the table region (a log line, a new title, the end of input)."""
        if self.state == 'want_header_rule':
            self.note(*self.held)
        if self.state != 'idle':
            self.end()

    def retitle(self, n, title):
        self.close()
        self.start_title(n, title)

    # -- rule tables --
    def open(self, t):
        self.spans = dash_runs(t)
        self.thread = None
        self.state = 'want_header'

    def same_geometry(self, t):
        return is_rule_line(t) and dash_runs(t) == self.spans

    def begin_section(self):
        cells = cut(self.held[1], self.spans)
        self.keys = [s(c.strip(SPACES)) for c in cells[1:]]
        self.state = 'body'
        self.resolve()

    def row(self, n, t):
        cells = cut(t, self.spans)
        if is_binary(t) or not any(c.strip(SPACES) for c in cells[1:]):
            self.note(n, t)  # binary, or no cell past the name: text, and the rows go on
            return
        first = cells[0]
        indent = len(first) - len(first.lstrip(b' '))
        depth = 0 if indent == len(first) else indent // 2
        got = {}
        for key, c in zip(self.keys, cells[1:]):
            c = c.strip(SPACES)
            if c:
                got[key] = value(c)
        self.resolve()
        self.out.append(dict(type='table_row', line=n, table=None if self.title is None else s(self.title),
                             thread=None if self.thread is None else s(self.thread), depth=depth,
                             name=s(first.strip(SPACES)), cells=got))

    def trailer(self, n, t):
        if is_dash_line(t):
            self.end()
        elif (title := title_of(t)) is not None:
            self.retitle(n, title)
        elif t:
            self.note(n, t)

    # -- pipe tables --
    def pipe(self, n, t):
        if is_pipe_separator(t):
            return
        cells = pipe_cells(t)
        if self.pipe_keys is not None and (is_binary(t) or not any(c.strip(SPACES) for c in cells[1:])):
            self.note(n, t)
            return
        if self.pipe_keys is None:
            self.pipe_keys = [s(c.strip(SPACES)) for c in cells[1:]]
            self.resolve()
            return
        got = {}
        for key, c in zip(self.pipe_keys, cells[1:]):
            c = c.strip(SPACES)
            if c:
                got[key] = value(c)
        self.out.append(dict(type='table_row', line=n, table=s(self.title), thread=None, depth=0,
                             name=s(cells[0].strip(SPACES)) if cells else '', cells=got))

    # -- one line --
    def feed(self, n, t):
        if m := LOG.fullmatch(t):
            self.close()
            self.out.extend(log_records(n, m))
            return
        st = self.state
        if st == 'pipe':
            if t[:1] == b'|':
                self.pipe(n, t)
                return
            self.end()
            st = 'idle'
        if st == 'idle':
            if (title := title_of(t)) is not None:
                self.start_title(n, title)
            elif is_rule_line(t):
                self.title = None
                self.open(t)
            elif t:
                self.out.append(dict(type='text', line=n, text=s(t)))
        elif st == 'titled':
            if is_rule_line(t):
                self.open(t)
            elif (title := title_of(t)) is not None:
                self.start_title(n, title)
            elif is_dash_line(t):
                self.end()
            elif not t:
                pass
            elif t[:1] == b'|' and self.title == b'Perf Summary':
                self.state = 'pipe'
                self.pipe_keys = None
                self.pipe(n, t)
            else:
                self.note(n, t)
        elif st == 'want_header':
            if t and is_binary(t):
                self.note(n, t)  # the header is still due
            elif t:
                self.held = (n, t)
                self.state = 'want_header_rule'
        elif st == 'want_header_rule':
            if is_rule_line(t):
                self.begin_section()
            else:
                self.note(*self.held)  # not a header after all
                self.state = 'trailer'
                self.trailer(n, t)
        elif st == 'body':
            if self.same_geometry(t):
                self.state = 'after_rows'
            elif is_dash_line(t):
                self.end()
            elif (name := banner_name(t)) is not None:
                self.thread = name
            elif (title := title_of(t)) is not None:
                self.retitle(n, title)
            elif not t:
                self.end()  # rows without a closing rule
            else:
                self.row(n, t)
        elif st == 'after_rows':
            if not t or self.same_geometry(t):
                pass
            elif is_dash_line(t):
                self.end()
            elif (name := banner_name(t)) is not None:
                self.thread = name
                self.state = 'body'
            elif (title := title_of(t)) is not None:
                self.retitle(n, title)
            elif is_binary(t):
                self.note(n, t)
            else:
                self.held = (n, t)  # a new section's header, or a note
                self.state = 'want_header_rule'
        else:  # trailer: notes after a table, up to a lone dash line or the next title
            self.trailer(n, t)

    def finish(self):
        self.close()


def records(data):
    p = Parser()
    for n, raw in enumerate(split_lines(data), 1):
        p.feed(n, raw.rstrip(SPACES))
    p.finish()
    return p.out


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
