#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# An independent reference for the paddle-log format, written from formats.md section 4 and
# the table semantics documented in include/logscan/table.hpp (rule_table, pipe_table) with
# Python's re (it shares no code with the C++ module): prints the records of FILE as NDJSON.
# The forms added later (indented logs and tables, the `YYYY-MM-DD HH:MM:SS,mmm-LEVEL:` log
# form, the `[Epoch:E: ]iter: I, ...` train_step form and quoted keys, non-finite numbers,
# the legacy fluid `Profiling Report`) are written from the text of formats.md section 4 and
# its common rules alone.
# All matching is on bytes with ASCII semantics; table column positions count UTF-8 code
# points (a lead byte and the continuation bytes after it), as Paddle pads with str.format.
# Strings are decoded (UTF-8, invalid bytes as U+FFFD) only on output. A line is read with
# its trailing spaces and tabs removed (a `text` record keeps the rest, indent included).
# Choices where the contract is silent:
# - a `---Thread: NAME---` line is never a title (outside a table's rows it is an ordinary
#   line); a pipe table is read only right after a `Perf Summary` title and the region ends
#   with it;
# - a title's `table` record waits for its first header (or the region's end) so that a
#   `Time unit: X` note can fill time_unit, and the other notes seen meanwhile follow it;
# - every table opens with a title or a legacy banner: a rule line outside a table is `text`;
# - a title or a legacy banner is recognised after any leading spaces, also inside an open
#   table (it ends that table and opens its own, with its own indent); `---Thread: NAME---`
#   banners, rule lines, section banners, `Time unit` and the report's other lines are read
#   at the table's indent only;
# - legacy report: the banner's `table` record is emitted at the first line after it that is
#   neither blank nor one of the four structural lines (Note!, Place, Time unit, Sorted by),
#   or at the report's end, with the values those lines gave; a section banner's record at
#   its own line, with the values as they stand (`merged` never goes back to false). A
#   structural line after that changes the values of later section banners' records only.
#   The Note line is the exact text `Note! This Report merge all thread info into one.`,
#   `Place: X` takes the rest of the line, `Time unit: X` one word; `Sorted by ...` is any
#   line starting with `Sorted by `. An overhead row's NAME must hold a non-space; a pair is
#   `K: V` with one space after the colon. Event rows: NAME is the first C bytes (C the
#   header's `Calls` column: the report is padded by C++'s setw, which counts bytes); an empty NAME is allowed; `threadN::OP` needs a non-empty OP.
# - train_step: a value's quotes are removed when it starts and ends with `'`; a non-finite
#   number followed by a unit word gives metrics[key] null and units[key] the word; an `eta`
#   value that is no duration leaves eta_s null; `iter: I` with nothing after it (no `, `) is
#   no train_step, nor is `Epoch: [E] [I/N]` alone. Only the seven words of the common rules
#   (any case) are non-finite numbers (`+nan` and `+infinity` are not). A message whose pairs
#   give one key twice is no train_step (README: a record never holds two values under one key).
#   python3 paddle_log.py FILE            the records as NDJSON
#   python3 paddle_log.py --count FILE    parse only; prints the number of records per type
import json
import re
import sys

LEVELS = rb'(DEBUG|INFO|WARNING|ERROR|CRITICAL)'
# (a line is read without its trailing spaces: `LEVEL: ` with nothing after it is an empty message)
LOG = re.compile(rb'\[(\d\d/\d\d) (\d\d:\d\d:\d\d)\] (\S+) ' + LEVELS + rb':(?: (.*))?', re.S)
LOG_OLD = re.compile(rb'(\d\d\d\d-\d\d-\d\d) (\d\d:\d\d:\d\d,\d\d\d)-' + LEVELS + rb':(?: (.*))?', re.S)
EPOCH = re.compile(rb'Epoch: \[(\d+)\] \[ *(\d+)/(\d+)\] (.*)', re.S)
ITER = re.compile(rb'(?:Epoch:(\d+): )?iter: (\d+), (.*)', re.S)
KEY = re.compile(rb"(?:^|(?<=[ ,]))(?:'([A-Za-z0-9_]+)'|([A-Za-z0-9_]+)): ")
ETA = re.compile(rb'(?:(\d+) days?, )?(\d+):(\d\d):(\d\d)')
METRIC = re.compile(rb'(\S+)(?: (\S+))?')
TIME_UNIT = re.compile(rb'Time [Uu]nit: ([^,\s]+)(?:,.*)?', re.S)
NUMBER = re.compile(rb'[+-]?(?:[1-9][0-9]{0,2}(?:,[0-9]{3})+|[0-9]+)(\.[0-9]+)?([eE][+-]?[0-9]+)?')
NON_FINITE = {b'nan', b'-nan', b'inf', b'-inf', b'+inf', b'infinity', b'-infinity'}
# legacy fluid profiler report
LEGACY_BANNER = re.compile(rb'-+> +([A-Za-z].*?) +<-+')
SECTION_BANNER = re.compile(rb'-+ +([A-Za-z].*?) +-+')
MERGED_NOTE = b'Note! This Report merge all thread info into one.'
PLACE = re.compile(rb'Place: (\S.*)')
LEGACY_TIME_UNIT = re.compile(rb'Time unit: (\S+)')
TOTAL_TIME = re.compile(rb'Total time:[ \t]*(\S+)')
PAIRS = re.compile(rb'[A-Za-z]+: \S+(?: +[A-Za-z]+: \S+)*')
PAIR = re.compile(rb'([A-Za-z]+): (\S+)')
EVENT_COLUMNS = {b'Total', b'CPU Time (Ratio)', b'GPU Time (Ratio)', b'Min.', b'Max.', b'Ave.', b'Ratio.'}
X_R = re.compile(rb'([^ (]+) \(([^ )]+)\)')
TOKEN = re.compile(rb'[^ ]+')
THREAD_NAME = re.compile(rb'(thread[0-9]+)::(.+)', re.S)
SPACES = b' \t'
NOT_A_NUMBER = object()


def s(b):
    return b.decode('utf-8', 'replace')


def num(b):
    """The number the whole text b spells (None for a non-finite one), or NOT_A_NUMBER."""
    m = NUMBER.fullmatch(b)
    if not m:
        return None if b.lower() in NON_FINITE else NOT_A_NUMBER
    t = b.replace(b',', b'').decode('ascii')
    return float(t) if (m.group(1) or m.group(2)) else int(t)


def is_number(b):
    return num(b) is not NOT_A_NUMBER


def scalar(b):
    """`-` -> None, a number -> the number (None when non-finite), else the string."""
    if b == b'-':
        return None
    v = num(b)
    return s(b) if v is NOT_A_NUMBER else v


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

def text(n, raw):
    return dict(type='text', line=n, text=s(raw))


def log_match(stripped):
    """(date, time, logger or None, level, message) of a log line of either form, or None."""
    if m := LOG.fullmatch(stripped):
        return m[1], m[2], m[3], m[4], m[5] or b''
    if m := LOG_OLD.fullmatch(stripped):
        return m[1], m[2], None, m[3], m[4] or b''
    return None


def pairs(rest):
    """eta_s, metrics, units of the `k: v` pairs of a train_step message's rest."""
    keys = list(KEY.finditer(rest))
    eta_s = None
    metrics, units = {}, {}
    for i, k in enumerate(keys):
        v = rest[k.end():keys[i + 1].start() if i + 1 < len(keys) else len(rest)].strip(b' ')
        if v.endswith(b','):
            v = v[:-1].rstrip(b' ')
        if len(v) >= 2 and v[:1] == b"'" and v[-1:] == b"'":
            v = v[1:-1]
        key = s(k[1] if k[1] is not None else k[2])
        if key == 'eta':
            d = ETA.fullmatch(v)
            eta_s = None if not d else \
                int(d[1] or 0) * 86400 + int(d[2]) * 3600 + int(d[3]) * 60 + int(d[4])
            continue
        mv = METRIC.fullmatch(v)
        x = num(mv[1]) if mv else NOT_A_NUMBER
        if x is NOT_A_NUMBER:
            continue  # a pair whose value is no number yields nothing
        metrics[key] = x
        if mv[2] is not None:
            units[key] = s(mv[2])
    return eta_s, metrics, units


def log_records(n, lm):
    date, time, logger, level, message = lm
    out = [dict(type='log', line=n, date=s(date), time=s(time), logger=None if logger is None else s(logger),
                level=s(level), message=s(message))]
    if e := EPOCH.fullmatch(message):
        epoch, it, iters, rest = int(e[1]), int(e[2]), int(e[3]), e[4]
    elif e := ITER.fullmatch(message):
        epoch, it, iters, rest = None if e[1] is None else int(e[1]), int(e[2]), None, e[3]
    else:
        return out
    names = [k[1] if k[1] is not None else k[2] for k in KEY.finditer(rest)]
    if len(set(names)) != len(names):
        return out  # a key given twice (a cut line run into the next): no train_step, one value under a key
    eta_s, metrics, units = pairs(rest)
    out.append(dict(type='train_step', line=n, epoch=epoch, iter=it, iters=iters, eta_s=eta_s,
                    metrics=metrics, units=units))
    return out


def split_wide(t):
    """The cells of t split at runs of two or more spaces, with their code-point starts."""
    pos = unit_starts(t)
    index = {b: k for k, b in enumerate(pos)}
    out = []
    for m in re.finditer(rb'[^ ]+(?: [^ ]+)*', t):
        out.append((index.get(m.start(), len(pos)), m[0]))
    return out


def event_header(t):
    """The keys of the columns after `Event` and the code-point column of `Calls`, or None."""
    cells = split_wide(t)
    if len(cells) < 2 or cells[0] != (0, b'Event') or cells[1][1] != b'Calls':
        return None
    if not all(c in EVENT_COLUMNS for _, c in cells[2:]):
        return None
    return [s(c) for _, c in cells[1:]], cells[1][0]


def overhead_row(t):
    """(NAME, [(K, V)]) of an overhead or memcpy row's shape (V as printed), or None."""
    first = len(t) - len(t.lstrip(b' '))
    for m in re.finditer(rb'  +', t):
        if m.start() <= first:
            continue  # NAME holds a non-space
        if PAIRS.fullmatch(t, m.end()):
            return t[:m.start()], PAIR.findall(t, m.end())
    return None


def event_cells(rest):
    """The cells of an event row after its NAME: ('xr', X, R, as printed) or ('plain', text)."""
    out = []
    p, n = 0, len(rest)
    while True:
        while p < n and rest[p] == 0x20:
            p += 1
        if p == n:
            return out
        if m := X_R.match(rest, p):
            out.append(('xr', m[1], m[2], m[0]))
        else:
            m = TOKEN.match(rest, p)
            out.append(('plain', m[0]))
        p = m.end()


def depth_of(name):
    indent = len(name) - len(name.lstrip(b' '))
    return 0 if indent == len(name) else indent // 2


class Parser:
    # states: idle; profiler summaries: titled, want_header, want_header_rule, body, after_rows,
    # trailer, pipe; legacy report: report (before the event table's header), events (after it)
    def __init__(self):
        self.out = []
        self.state = 'idle'
        self.indent = b''      # the open table's indent (the leading spaces of its title/banner)
        self.title = None      # the current title (bytes) or None
        self.pending = None    # [line, title, time_unit, notes] until the title's record is due
        self.spans = []
        self.keys = []         # header keys of columns 1.. (str)
        self.thread = None
        self.held = None       # (line, text at the indent, whole line) of a header candidate
        self.pipe_keys = None  # pipe table header keys of columns 1.., None before the header
        # legacy report
        self.report = None     # {'time_unit','place','merged'} of the open report
        self.waiting = None    # the banner's table record until the report's values are known
        self.event_keys = None
        self.calls_col = 0

    # -- title and notes --
    def resolve(self):
        if self.pending is None:
            return
        n, title, unit, notes = self.pending
        self.pending = None
        self.out.append(dict(type='table', line=n, title=s(title), time_unit=unit, place=None, merged=None))
        self.out.extend(notes)

    def note(self, n, t, raw):
        if self.pending is not None:
            if self.pending[2] is None and (m := TIME_UNIT.fullmatch(t)):
                self.pending[2] = s(m[1])
                return
            self.pending[3].append(text(n, raw))
            return
        self.out.append(text(n, raw))

    def start_title(self, n, title, indent):
        self.resolve()
        self.title = title
        self.indent = indent
        self.pending = [n, title, None, []]
        self.state = 'titled'

    def end(self):
        self.resolve()
        self.release()
        self.state = 'idle'
        self.title = None
        self.indent = b''
        self.report = None

    def close(self):
        """Ends the table region (a log line, a new title or banner, a line off the indent, the end)."""
        if self.state == 'want_header_rule':
            self.note(*self.held)
        if self.state != 'idle':
            self.end()

    def retitle(self, n, title, indent):
        self.close()
        self.start_title(n, title, indent)

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

    def row(self, n, t, raw):
        cells = cut(t, self.spans)
        if is_binary(t) or not any(c.strip(SPACES) for c in cells[1:]):
            self.note(n, t, raw)  # binary, or no cell past the name: text, and the rows go on
            return
        first = cells[0]
        got = {}
        for key, c in zip(self.keys, cells[1:]):
            c = c.strip(SPACES)
            if c:
                got[key] = value(c)
        self.resolve()
        self.out.append(dict(type='table_row', line=n, table=None if self.title is None else s(self.title),
                             thread=None if self.thread is None else s(self.thread), depth=depth_of(first),
                             name=s(first.strip(SPACES)), cells=got))

    def trailer(self, n, t, raw, title, lead):
        if is_dash_line(t):
            self.end()
        elif title is not None:
            self.retitle(n, title, lead)
        elif t:
            self.note(n, t, raw)

    # -- pipe tables --
    def pipe(self, n, t, raw):
        if is_pipe_separator(t):
            return
        cells = pipe_cells(t)
        if self.pipe_keys is not None and (is_binary(t) or not any(c.strip(SPACES) for c in cells[1:])):
            self.note(n, t, raw)
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

    # -- legacy report --
    def emit(self, rec):
        self.release()
        self.out.append(rec)

    def report_table(self, n, title):
        rep = self.report
        return dict(type='table', line=n, title=s(title), time_unit=rep['time_unit'], place=rep['place'],
                    merged=rep['merged'])

    def release(self):
        """The banner's table record, with the values the report's lines gave so far."""
        if self.waiting is None:
            return
        n, title = self.waiting
        self.waiting = None
        self.out.append(self.report_table(n, title))

    def open_report(self, n, title, indent):
        self.state = 'report'
        self.indent = indent
        self.title = title
        self.report = dict(time_unit=None, place=None, merged=False)
        self.waiting = (n, title)

    def report_line(self, n, t, raw, title):
        if not t:
            if self.state == 'events':
                self.end()  # a blank line after the event table's header ends the report
            return
        if m := SECTION_BANNER.fullmatch(t):
            self.title = m[1]
            self.emit(self.report_table(n, m[1]))
            self.state = 'report'
            return
        if title is not None:  # a profiler summary title ends the report
            self.close()
            self.start_title(n, title, raw[:len(raw) - len(raw.lstrip(b' '))])
            return
        if is_binary(t):
            self.emit(text(n, raw))
            return
        if self.state == 'events':
            self.event_row(n, t, raw)
            return
        rep = self.report
        if t == MERGED_NOTE:
            rep['merged'] = True
        elif m := PLACE.fullmatch(t):
            rep['place'] = s(m[1])
        elif m := LEGACY_TIME_UNIT.fullmatch(t):
            rep['time_unit'] = s(m[1])
        elif t.startswith(b'Sorted by '):
            pass
        elif (m := TOTAL_TIME.fullmatch(t)) and is_number(m[1]):
            self.emit(dict(type='total', line=n, table=s(self.title), kind='Total time',
                           cells={'Total time': num(m[1])}))
        elif h := event_header(t):
            self.release()
            self.event_keys, self.calls_col = h
            self.state = 'events'
        elif o := overhead_row(t):
            name, kv = o
            cells = {}
            for k, v in kv:
                x = num(v[:-1] if v.endswith(b'%') else v)
                if x is NOT_A_NUMBER:
                    self.emit(text(n, raw))  # the shape with a V that is no number
                    return
                cells[s(k)] = x
            self.emit(dict(type='table_row', line=n, table=s(self.title), thread=None, depth=depth_of(name),
                           name=s(name.strip(b' ')), cells=cells))
        else:
            self.emit(text(n, raw))

    def event_row(self, n, t, raw):
        cut_at = min(self.calls_col, len(t))  # (setw pads bytes)
        name, rest = t[:cut_at], t[cut_at:]
        cells = event_cells(rest)
        if len(cells) != len(self.event_keys):
            self.emit(text(n, raw))  # a row cut short (or one cell too many)
            return
        got = {}
        for key, c in zip(self.event_keys, cells):
            if c[0] == 'xr':
                x, r = num(c[1]), num(c[2])
                got[key] = s(c[3]) if x is NOT_A_NUMBER or r is NOT_A_NUMBER else [x, r]
            else:
                got[key] = scalar(c[1])
        op = name.strip(b' ')
        thread = None
        if m := THREAD_NAME.fullmatch(op):
            thread, op = s(m[1]), m[2]
        self.emit(dict(type='table_row', line=n, table=s(self.title), thread=thread, depth=depth_of(name),
                       name=s(op), cells=got))

    # -- one line --
    def feed(self, n, raw):
        stripped = raw.lstrip(b' ')
        lead = raw[:len(raw) - len(stripped)]
        if lm := log_match(stripped):
            self.close()
            self.out.extend(log_records(n, lm))
            return
        if self.state != 'idle' and raw and not raw.startswith(self.indent):
            self.close()  # off the table's indent: the table ends, the line is read anew
        t = raw[len(self.indent):] if self.state != 'idle' else raw
        if m := LEGACY_BANNER.fullmatch(stripped):
            self.close()
            self.open_report(n, m[1], lead)
            return
        title = title_of(stripped)
        st = self.state
        if st in ('report', 'events'):
            self.report_line(n, t, raw, title)
            return
        if st == 'pipe':
            if t[:1] == b'|':
                self.pipe(n, t, raw)
                return
            self.end()
            st = 'idle'
            t = raw
        if st == 'idle':
            if title is not None:
                self.start_title(n, title, lead)
            elif raw:
                self.out.append(text(n, raw))  # a rule line outside a table included
        elif st == 'titled':
            if is_rule_line(t):
                self.open(t)
            elif title is not None:
                self.start_title(n, title, lead)
            elif is_dash_line(t):
                self.end()
            elif not t:
                pass
            elif t[:1] == b'|' and self.title == b'Perf Summary':
                self.state = 'pipe'
                self.pipe_keys = None
                self.pipe(n, t, raw)
            else:
                self.note(n, t, raw)
        elif st == 'want_header':
            if t and is_binary(t):
                self.note(n, t, raw)  # the header is still due
            elif t:
                self.held = (n, t, raw)
                self.state = 'want_header_rule'
        elif st == 'want_header_rule':
            if is_rule_line(t):
                self.begin_section()
            else:
                self.note(*self.held)  # not a header after all
                self.state = 'trailer'
                self.trailer(n, t, raw, title, lead)
        elif st == 'body':
            if self.same_geometry(t):
                self.state = 'after_rows'
            elif is_dash_line(t):
                self.end()
            elif (name := banner_name(t)) is not None:
                self.thread = name
            elif title is not None:
                self.retitle(n, title, lead)
            elif not t:
                self.end()  # rows without a closing rule
            else:
                self.row(n, t, raw)
        elif st == 'after_rows':
            if not t or self.same_geometry(t):
                pass
            elif is_dash_line(t):
                self.end()
            elif (name := banner_name(t)) is not None:
                self.thread = name
                self.state = 'body'
            elif title is not None:
                self.retitle(n, title, lead)
            elif is_binary(t):
                self.note(n, t, raw)
            else:
                self.held = (n, t, raw)  # a new section's header, or a note
                self.state = 'want_header_rule'
        else:  # trailer: notes after a table, up to a lone dash line or the next title
            self.trailer(n, t, raw, title, lead)

    def finish(self):
        self.close()


def records(data):
    data = data[3:] if data.startswith(b'\xef\xbb\xbf') else data  # (a UTF-8 byte order mark first is not text: README)
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
