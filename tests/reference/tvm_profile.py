#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# An independent reference for the tvm-profile format, written from formats.md section 5 (with
# the common rules and section 2's streaming JSON) with Python's re and a small recursive-descent
# JSON reader (it shares no code with the C++ module): prints the records of FILE as NDJSON.
#   python3 tvm_profile.py FILE            the records as NDJSON
#   python3 tvm_profile.py --count FILE    parse only; prints the number of records per type
#
# An input whose first byte other than space, tab, CR and LF is `{` is a Report.json() document;
# any other input is read line by line. Matching is on bytes with ASCII semantics; strings are
# decoded (UTF-8, invalid bytes as U+FFFD) only on output. Positions in the VM report table are
# byte offsets (TVM pads by bytes); in the graph debug executor table they are code points
# (Python pads by characters).
#
# Records and their keys, in this order (fixed for each type, whatever form they come from):
#   run        type line model device
#   mean_time  type line mean_ms std_ms
#   call       type line name cells
#   total      type line kind device cells        (device null in every table)
#   config     type line key value
#   text       type line text
#   error      type message                       (a broken Report.json() document)
# Records of a Report.json() document have no "line".
#
# Choices where the contract is silent (or reads two ways); the C++ side may differ here:
# - Lines: a line is blank, and a text record's text loses its trailing whitespace, with spaces
#   and tabs alike (as the earlier reference, which trims tabs "like the C++ side"); table
#   cells are trimmed of spaces and tabs too.
# - Non-finite words are exactly the common rules' list, in any letter case: nan, -nan, inf,
#   -inf, +inf, infinity, -infinity (so `+nan` and `+infinity` are no numbers). A finite text
#   that overflows a double (`1e999`) is a non-finite number too: null.
# - mean_time: X and Y are digits with an optional fraction (as before) or a non-finite word
#   (null); they are written as doubles (`3 ms` gives 3.0), as the earlier reference did.
# - Graph debug table: the header's cells (runs of text separated by two or more spaces) must
#   be exactly as many as the dash runs of the next line, which holds only dashes and spaces,
#   and each run must start where its cell starts; the first cell must be `Node Name` and one
#   cell `Ops`. Invalid UTF-8 bytes count one position each. A line with anything but spaces
#   before the first column start (the table's indent) is not a row, as a line with an empty
#   cell. The header check comes before the row check (a new table starts there); any other
#   line is cut as a row, whatever it holds. A `Node Name` cell of `-` stays the name `"-"`.
# - `Shape`: a Python tuple of digit-only integers: `()`, `(d,)`, `(d, d, ...)` with any
#   spaces around the items and an optional trailing comma after several; `(4)` is a string.
#   `Measurements(us)`: `[]` or `[x, y, ...]`, each item (spaces trimmed) a number of the
#   common rules (no thousands separators: `,` separates items); otherwise a string.
# - Original VM table: the header is a line that begins with `#OpName` (no indent) and holds
#   at least one tab. A cell (spaces trimmed) is a number, else an array when it has exactly
#   four `/`-separated parts that are all numbers (each part trimmed), else a string (an empty
#   cell is the string ""). The summary line is `Total Duration X us`, or `Total Duration: X
#   us.` with or without TAB `Total Packed Functions: N`, trailing spaces and tabs aside, X a
#   number of the common rules; elsewhere than in the table it is text. Inside the table a
#   `Configuration` line is text (it is no table header); the headers that end the table are
#   the VM report header, a graph debug header (with its dash line) and `#OpName` (which
#   starts a new table).
# - The VM report table is read as before: inside its rows (before the rule) any line that is
#   not a row is text and the rows go on, whatever it holds (no header check there).
# - Report.json(): a metric is unwrapped when it is an object with exactly one member whose key
#   is one of string/count/microseconds/percent/ratio, whatever that member's value is. An
#   object with a key twice keeps the last value (at the first one's place) in output; a call
#   or entry with `Name` twice takes the last. Invalid UTF-8 inside a JSON string does not
#   break the document (it is written as U+FFFD); a `\u` escape of a lone surrogate is U+FFFD.
#   A number at the very end of the input is complete there (`{"configuration":{"n":8` yields
#   the config n=8, then the error). Nesting too deep for Python's recursion breaks the
#   document (a limit of this reference, not of the contract).
import json
import re
import sys

RUN = re.compile(rb'Evaluate vm inference cost of (\S+) on (\S+)')
NONFINITE_RE = rb'(?:-infinity|infinity|-nan|nan|-inf|\+inf|inf)'
NONFINITE = re.compile(NONFINITE_RE, re.I)
MEAN = re.compile(rb'Mean .* time \(std dev\): ((?i:[0-9]+(?:\.[0-9]+)?|' + NONFINITE_RE +
                  rb')) ms \(((?i:[0-9]+(?:\.[0-9]+)?|' + NONFINITE_RE + rb')) ms\)')
DASHES = re.compile(rb'-{3,}')  # as the C++ dashes line: three or more
CONFIG = re.compile(rb'([A-Za-z][A-Za-z0-9 _-]*): (.*)')
CELL_RUN = re.compile(rb'[^ ]+(?: [^ ]+)*')  # runs of text separated by two or more spaces
STR_CELL_RUN = re.compile(r'[^ ]+(?: [^ ]+)*')
DASH_LINE = re.compile(r' *-+(?: +-+)* *')
DASH_RUN = re.compile(r'-+')
NUMBER = re.compile(rb'[+-]?(?:[1-9][0-9]{0,2}(?:,[0-9]{3})+|[0-9]+)(\.[0-9]+)?([eE][+-]?[0-9]+)?')
SHAPE = re.compile(r'\( *(?:([0-9]+) *, *|([0-9]+(?: *, *[0-9]+)+) *,? *)?\)')
OPTAB_SUM1 = re.compile(rb'Total Duration (\S+) us')
OPTAB_SUM2 = re.compile(rb'Total Duration: (\S+) us\.(?:\tTotal Packed Functions: ([0-9]+))?')
GRAPH_NUMERIC = ('Time(us)', 'Time(%)', 'Inputs', 'Outputs')


def s(b):
    return b.decode('utf-8', 'replace')


def u(x):
    """A str decoded with surrogateescape, as output text."""
    return x.encode('utf-8', 'surrogateescape').decode('utf-8', 'replace')


def finite_or_null(v):
    return None if isinstance(v, float) and (v != v or v in (float('inf'), float('-inf'))) else v


def number(b):
    """(True, value) when the trimmed text b (bytes or str) parses as a number, the value None
    for a non-finite one; else (False, None)."""
    if isinstance(b, str):
        b = b.encode('utf-8', 'surrogateescape')
    if NONFINITE.fullmatch(b):
        return True, None
    m = NUMBER.fullmatch(b)
    if not m:
        return False, None
    t = b.replace(b',', b'').decode('ascii')
    return True, finite_or_null(float(t)) if (m.group(1) or m.group(2)) else int(t)


def mean_value(b):
    return None if NONFINITE.fullmatch(b) else finite_or_null(float(b))


def numeric_column(title):
    return title in (b'Duration (us)', b'Percent', b'Count') or title.startswith(b'perf::')


def split_lines(data):
    lines = data.split(b'\n')
    if lines and lines[-1] == b'':
        lines.pop()
    return [l[:-1] if l.endswith(b'\r') else l for l in lines]


# ---------------------------------------------------------------- VM report table (the seed's)

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
        ok, v = number(text) if numeric_column(title) else (False, None)
        cells[s(title)] = v if ok else s(text)
    return name, cells


# ---------------------------------------------------------------- graph debug executor table

def graph_header(raw, following):
    """(column starts, titles) when raw is a graph debug header line and following its dash
    line, else None. Positions in code points."""
    if following is None:
        return None
    line = raw.decode('utf-8', 'surrogateescape')
    cells = [(m.start(), m.group()) for m in STR_CELL_RUN.finditer(line)]
    if not cells or cells[0][1] != 'Node Name' or 'Ops' not in [c for _, c in cells[1:]]:
        return None
    dashes = following.decode('utf-8', 'surrogateescape')
    if not DASH_LINE.fullmatch(dashes):
        return None
    runs = [m.start() for m in DASH_RUN.finditer(dashes)]
    if runs != [start for start, _ in cells]:
        return None
    return runs, [c for _, c in cells]


def graph_row(raw, starts):
    """The trimmed cells of raw cut at the column starts, or None when it is no row."""
    line = raw.decode('utf-8', 'surrogateescape')
    if line[:starts[0]].strip(' ') != '':
        return None
    cells = []
    for i, start in enumerate(starts):
        end = starts[i + 1] if i + 1 < len(starts) else len(line)
        c = line[start:end].strip(' \t')
        if c == '':
            return None
        cells.append(c)
    return cells


def graph_value(title, c):
    if title in GRAPH_NUMERIC:
        ok, v = number(c)
        return v if ok else u(c)
    if title == 'Shape':
        m = SHAPE.fullmatch(c)
        if m:
            items = m.group(1) or m.group(2)
            return [int(x) for x in items.split(',')] if items else []
        return u(c)
    if title == 'Measurements(us)':
        if len(c) >= 2 and c[0] == '[' and c[-1] == ']':
            inner = c[1:-1].strip(' ')
            if inner == '':
                return []
            parts = [number(p.strip(' ')) for p in inner.split(',')]
            if all(ok for ok, _ in parts):
                return [v for _, v in parts]
        return u(c)
    return u(c)


def graph_record(n, cells, titles):
    name = cells[0]
    got = {}
    for title, c in zip(titles[1:], cells[1:]):
        if c == '-':
            continue
        got[u(title)] = graph_value(title, c)
    if name == 'Total_time':
        return dict(type='total', line=n, kind=u(name), device=None, cells=got)
    return dict(type='call', line=n, name=u(name), cells=got)


# ---------------------------------------------------------------- original VM profiler table

def optab_header(raw):
    """The keys of an original VM profiler table header line, else None."""
    if not raw.startswith(b'#OpName') or b'\t' not in raw:
        return None
    keys = []
    for c in raw.split(b'\t'):
        c = c.strip(b' ')
        keys.append(c[1:] if c.startswith(b'#') else c)
    return keys


def optab_value(c):
    ok, v = number(c)
    if ok:
        return v
    parts = c.split(b'/')
    if len(parts) == 4:
        got = [number(p.strip(b' ')) for p in parts]
        if all(ok for ok, _ in got):
            return [v for _, v in got]
    return s(c)


def optab_summary(t):
    """The cells of a `Total Duration` summary line t (trailing whitespace removed), else None."""
    m = OPTAB_SUM1.fullmatch(t)
    packed = None
    if not m:
        m = OPTAB_SUM2.fullmatch(t)
        if not m:
            return None
        packed = m[2]
    ok, v = number(m[1])
    if not ok:
        return None
    cells = {'Duration (us)': v}
    if packed is not None:
        cells['Total Packed Functions'] = int(packed)
    return cells


# ---------------------------------------------------------------- line-by-line input

def line_records(data):
    out = []
    lines = split_lines(data)
    mode = 'out'      # out | config | rows | footer | graph | optab
    columns = None    # VM report: [(title bytes, right edge)]
    gstarts = gtitles = None   # graph debug table: column starts (code points), titles
    okeys = None      # original VM table: header keys
    i = 0
    while i < len(lines):
        n = i + 1
        raw = lines[i]
        t = raw.rstrip(b' \t')
        following = lines[i + 1] if i + 1 < len(lines) else None
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
                    out.append(dict(type='total', line=n, kind=s(name), device=None, cells=cells))
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
        if mode == 'graph':
            if t == b'':
                mode = 'out'
                continue
            header = graph_header(raw, following)
            if header is None:
                cells = graph_row(raw, gstarts)
                if cells is not None:
                    out.append(graph_record(n, cells, gtitles))
                    continue
                mode = 'out'  # not a row: the table ends, handle the line below
        if mode == 'optab':
            if t == b'':
                continue  # blank lines do not end this table
            cells = optab_summary(t)
            if cells is not None:
                out.append(dict(type='total', line=n, kind='Total Duration', device=None, cells=cells))
                mode = 'out'
                continue
            if (RUN.fullmatch(t) or MEAN.fullmatch(t) or (t.startswith(b'Name') and b'Duration (us)' in t)
                    or graph_header(raw, following) is not None or optab_header(raw) is not None):
                mode = 'out'  # these end the table and yield what they yield anywhere
            else:
                parts = raw.split(b'\t')
                if len(parts) == len(okeys) and parts[0].strip(b' ') != b'':
                    got = {}
                    for key, c in zip(okeys[1:], parts[1:]):
                        got[s(key)] = optab_value(c.strip(b' '))
                    out.append(dict(type='call', line=n, name=s(parts[0].strip(b' ')), cells=got))
                else:
                    out.append(dict(type='text', line=n, text=s(t)))
                continue
        # mode 'out', or a line that ended a table
        mode = 'out'
        if t == b'':
            continue
        if m := RUN.fullmatch(t):
            out.append(dict(type='run', line=n, model=s(m[1]), device=s(m[2])))
            continue
        if m := MEAN.fullmatch(t):
            out.append(dict(type='mean_time', line=n, mean_ms=mean_value(m[1]), std_ms=mean_value(m[2])))
            continue
        if t.startswith(b'Name') and b'Duration (us)' in t:
            columns = [(m.group(), m.end()) for m in CELL_RUN.finditer(raw)]
            mode = 'rows'
            continue
        header = graph_header(raw, following)
        if header is not None:
            gstarts, gtitles = header
            i += 1  # the dash line is structural too
            mode = 'graph'
            continue
        keys = optab_header(raw)
        if keys is not None:
            okeys = keys
            mode = 'optab'
            continue
        if t == b'Configuration' and following is not None and DASHES.fullmatch(following.rstrip(b' \t')):
            i += 1  # the dashes line is structural too
            mode = 'config'
            continue
        out.append(dict(type='text', line=n, text=s(t)))
    return out


# ---------------------------------------------------------------- Report.json() document

class Break(Exception):
    """The document cannot continue here."""


class Obj:
    """A JSON object as its members in document order (duplicates kept)."""
    def __init__(self, pairs):
        self.pairs = pairs


WRAPPERS = ('string', 'count', 'microseconds', 'percent', 'ratio')
WS = b' \t\r\n'
JSON_NUMBER = re.compile(rb'-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?')
JSON_WORDS = [(w, len(w)) for w in (b'-infinity', b'infinity', b'-nan', b'-inf', b'+inf', b'nan', b'inf')]
ESCAPES = {ord('"'): b'"', ord('\\'): b'\\', ord('/'): b'/', ord('b'): b'\b', ord('f'): b'\f',
           ord('n'): b'\n', ord('r'): b'\r', ord('t'): b'\t'}
HEX = re.compile(rb'[0-9A-Fa-f]{4}')


def plain(v):
    """A parsed JSON value as the value written to NDJSON (objects as dicts, last key wins)."""
    if isinstance(v, Obj):
        d = {}
        for k, x in v.pairs:
            d[k] = plain(x)
        return d
    if isinstance(v, list):
        return [plain(x) for x in v]
    return v


def metric(v):
    """A metric's value: a one-key typed wrapper is removed, anything else stands for itself."""
    if isinstance(v, Obj) and len(v.pairs) == 1 and v.pairs[0][0] in WRAPPERS:
        return plain(v.pairs[0][1])
    return plain(v)


class JsonReader:
    def __init__(self, data, out):
        self.d = data
        self.i = 0
        self.out = out

    def ws(self):
        d, i, n = self.d, self.i, len(self.d)
        while i < n and d[i] in WS:
            i += 1
        self.i = i

    def peek(self):
        return self.d[self.i] if self.i < len(self.d) else None

    def expect(self, c):
        if self.peek() != ord(c):
            raise Break
        self.i += 1

    def string(self):
        self.expect('"')
        d, i, n = self.d, self.i, len(self.d)
        buf = bytearray()
        while True:
            if i >= n:
                raise Break
            c = d[i]
            if c == 0x22:  # "
                i += 1
                break
            if c < 0x20:
                raise Break
            if c != 0x5C:  # not a backslash
                j = i
                while j < n and d[j] != 0x22 and d[j] != 0x5C and d[j] >= 0x20:
                    j += 1
                buf += d[i:j]
                i = j
                continue
            if i + 1 >= n:
                raise Break
            e = d[i + 1]
            if e in ESCAPES:
                buf += ESCAPES[e]
                i += 2
                continue
            if e != ord('u') or not HEX.fullmatch(d, i + 2, i + 6):
                raise Break
            cp = int(d[i + 2:i + 6], 16)
            i += 6
            if 0xD800 <= cp < 0xDC00 and d[i:i + 2] == b'\\u' and HEX.fullmatch(d, i + 2, i + 6):
                lo = int(d[i + 2:i + 6], 16)
                if 0xDC00 <= lo < 0xE000:
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00)
                    i += 6
            if 0xD800 <= cp < 0xE000:
                cp = 0xFFFD  # a lone surrogate
            buf += chr(cp).encode('utf-8')
        self.i = i
        return bytes(buf).decode('utf-8', 'replace')

    def value(self):
        """Any JSON value (plus the bare non-finite words, as None) at the current position."""
        c = self.peek()
        if c is None:
            raise Break
        if c == ord('{'):
            return self.object(lambda key: self.value())
        if c == ord('['):
            self.i += 1
            self.ws()
            items = []
            if self.peek() == ord(']'):
                self.i += 1
                return items
            while True:
                self.ws()
                items.append(self.value())
                self.ws()
                if self.peek() == ord(','):
                    self.i += 1
                    continue
                self.expect(']')
                return items
        if c == ord('"'):
            return self.string()
        m = JSON_NUMBER.match(self.d, self.i)
        if m:
            self.i = m.end()
            t = m.group().decode('ascii')
            return finite_or_null(float(t)) if (m.group(1) or m.group(2)) else int(t)
        for word, size in JSON_WORDS:
            if self.d[self.i:self.i + size].lower() == word:
                self.i += size
                return None
        for word, v in ((b'true', True), (b'false', False), (b'null', None)):
            if self.d.startswith(word, self.i):
                self.i += len(word)
                return v
        raise Break

    def object(self, member):
        """An object at the current position; member(key) reads each member's value and
        returns what to keep (all kept values make an Obj)."""
        self.expect('{')
        self.ws()
        pairs = []
        if self.peek() == ord('}'):
            self.i += 1
            return Obj(pairs)
        while True:
            self.ws()
            key = self.string()
            self.ws()
            self.expect(':')
            self.ws()
            pairs.append((key, member(key)))
            self.ws()
            if self.peek() == ord(','):
                self.i += 1
                continue
            self.expect('}')
            return Obj(pairs)

    # the document's parts that yield records

    def calls(self):
        if self.peek() != ord('['):
            return self.value()
        self.i += 1
        self.ws()
        if self.peek() == ord(']'):
            self.i += 1
            return None
        while True:
            self.ws()
            if self.peek() == ord('{'):
                name, cells = self.metrics()
                self.out.append(dict(type='call', name=name, cells=cells))
            else:
                self.value()
            self.ws()
            if self.peek() == ord(','):
                self.i += 1
                continue
            self.expect(']')
            return None

    def metrics(self):
        name, cells = None, {}
        for key, v in self.value().pairs:
            if key == 'Name':
                name = metric(v)
            else:
                cells[key] = metric(v)
        return name, cells

    def device_metric(self, device):
        if self.peek() != ord('{'):
            return self.value()
        kind, cells = self.metrics()
        self.out.append(dict(type='total', kind=kind, device=device, cells=cells))

    def config_entry(self, key):
        v = metric(self.value())
        self.out.append(dict(type='config', key=key, value=v))

    def top_member(self, key):
        if key == 'calls':
            self.calls()
        elif key == 'device_metrics' and self.peek() == ord('{'):
            self.object(self.device_metric)
        elif key == 'configuration' and self.peek() == ord('{'):
            self.object(self.config_entry)
        else:
            self.value()

    def document(self):
        self.ws()
        self.object(self.top_member)
        self.ws()
        if self.i != len(self.d):
            raise Break  # a second value after the document


def json_records(data):
    out = []
    try:
        JsonReader(data, out).document()
    except (Break, RecursionError):
        out.append(dict(type='error', message='invalid JSON document'))
    return out


def records(data):
    data = data[3:] if data.startswith(b'\xef\xbb\xbf') else data  # (a UTF-8 byte order mark first is not text: README)
    first = data.lstrip(b' \t\r\n')[:1]
    return json_records(data) if first == b'{' else line_records(data)


def main():
    sys.setrecursionlimit(10000)
    with open(sys.argv[-1], 'rb') as f:
        data = f.read()
    if sys.argv[1] == '--count':  # parse only: the number of records of each type
        counts = {}
        for r in records(data):
            counts[r['type']] = counts.get(r['type'], 0) + 1
        print(' '.join(f'{k}={v}' for k, v in sorted(counts.items())))
        return
    w = sys.stdout.buffer.write
    for r in records(data):
        w((json.dumps(r, ensure_ascii=False, separators=(',', ':')) + '\n').encode('utf-8'))


if __name__ == '__main__':
    main()
