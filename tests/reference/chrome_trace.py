#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# An independent reference for the chrome-trace format's records, written from formats.md
# section 6A (with the common rules on JSON values) with a small recursive-descent JSON reader
# that keeps every number token and every container's text (it shares no code with the C++
# module): prints the records of FILE as NDJSON, in document order.
#   python3 chrome_trace.py FILE            the records as NDJSON
#   python3 chrome_trace.py --count FILE    parse only; prints the number of records per type
#
# Input starting with 1f 8b is gunzipped first (as the command does); a UTF-8 BOM is skipped.
# Records and their keys, in this order:
#   span        type name cat ph pid tid ts_us dur_us args extra
#   instant     type name cat ph scope pid tid ts_us args extra
#   counter     type name cat id pid tid ts_us values extra
#   meta        type name pid tid ts_us value args extra
#   flow        type ph name cat id bp pid tid ts_us args extra
#   event       type ph name cat id pid tid ts_us dur_us args extra
#   trace_info  type key value
#   error       type index message
# A value is written as the input has it: a string decoded and re-escaped, anything else as its
# input text without white space (number tokens byte for byte; strings inside objects and
# arrays with their escapes as written, invalid UTF-8 written as U+FFFD).
#
# Choices where the contract is silent (or reads two ways); the C++ side may differ here:
# - A value finishes where its last byte is read: a number at the very end of the input is
#   complete there (`{"a":12` yields the trace_info a=12, then the break); an event's records
#   come at its `}`, before the `,` or `]` after it is checked.
# - Array form: the missing `]` is a normal end only after at least one complete element
#   (an element that is not an object counts: its error 1 stands); `[` alone, or `[{...},,`,
#   is a break. The object form has no such tolerance (`{"traceEvents":[{...}` is a break at
#   index 1, the next event).
# - Break index: inside a traceEvents array (from its `[` to its `]`) it is the number of its
#   elements read so far over all traceEvents members; everywhere else (before `[`, a
#   traceEvents that is no array, after `]`, top-level members, trailing bytes) it is null.
# - Depth: at most 1024 open arrays/objects counting the top-level one (json.hpp's default
#   max_depth); opening one more is a break.
# - Lone surrogate escapes and invalid UTF-8 are no break (the contract makes them U+FFFD).
#   Inside a kept object/array the other escapes stay as written; a lone surrogate's is
#   `\ufffd` there too (6A.2: U+FFFD in NDJSON output).
# - Mapped keys compare by their decoded text (`"p\u0068"` is `ph`); `extra` keeps the key
#   text as written. Earlier occurrences of a mapped key are dropped (not put in `extra`).
# - `ph` decides the record only when it is a string; any other `ph` value gives an `event`
#   with that value as `ph`. B and E events map the span keys, so a `dur` on a B or E is
#   dropped, and an E's `cat`, `ts`, `pid`, `tid` serve only for matching and the duration.
# - Thread keys (pid, tid) compare as their NDJSON text: numbers as their token, strings
#   decoded (`"a"` and `"\u0061"` are one thread); an absent pid/tid is `null`, as `null`.
# - args/extra merge of B and E: an `args` that is `null` counts as absent (Chrome's importer
#   skips it); keys compare decoded; the B's members kept keep their duplicates.
# - Error 3 compares names as NDJSON text: an E named "x" closing a B without a name is one.
# - meta `value`: the last member of that key in `args` (when `args` is an object).
# - dur_us: exact decimal difference when both ts are number tokens; `-0` is written `0`.
import decimal
import json
import re
import sys
import zlib

MAX_DEPTH = 1024
WS = re.compile(rb'[ \t\n\r]*')
STR_RUN = re.compile(rb'[^"\\\x00-\x1f]*')
NUMBER = re.compile(rb'-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?')
HEX4 = re.compile(rb'[0-9A-Fa-f]{4}')
ESCAPES = {ord('"'): '"', ord('\\'): '\\', ord('/'): '/', ord('b'): '\b', ord('f'): '\f',
           ord('n'): '\n', ord('r'): '\r', ord('t'): '\t'}

MAPPED = {
    'span': {'ph', 'name', 'cat', 'pid', 'tid', 'ts', 'dur', 'args'},
    'instant': {'ph', 'name', 'cat', 'pid', 'tid', 'ts', 'args', 's'},
    'counter': {'ph', 'name', 'cat', 'id', 'pid', 'tid', 'ts', 'args'},
    'meta': {'ph', 'name', 'pid', 'tid', 'ts', 'args'},
    'flow': {'ph', 'name', 'cat', 'id', 'bp', 'pid', 'tid', 'ts', 'args'},
    'event': {'ph', 'name', 'cat', 'id', 'pid', 'tid', 'ts', 'dur', 'args'},
}
KIND = {'X': 'span', 'B': 'span', 'E': 'span', 'i': 'instant', 'I': 'instant', 'C': 'counter',
        'M': 'meta', 's': 'flow', 't': 'flow', 'f': 'flow'}
META_VALUE = {'process_name': 'name', 'thread_name': 'name', 'process_labels': 'labels',
              'process_sort_index': 'sort_index', 'thread_sort_index': 'sort_index'}


class Break(Exception):
    """The document cannot continue here."""


class Val:
    """A JSON value: kind o(bject) a(rray) s(tring) n(umber) l(iteral); raw = its compact input
    text (bytes); text = the decoded string (strings); members = [(key, key_raw, Val)] (objects)."""
    __slots__ = ('kind', 'raw', 'text', 'members')

    def __init__(self, kind, raw, text=None, members=None):
        self.kind, self.raw, self.text, self.members = kind, raw, text, members


def make_object(members):
    return Val('o', b'{' + b','.join(k + b':' + v.raw for _, k, v in members) + b'}', members=members)


def out(v):
    """A value as NDJSON text; None (absent) and a JSON null are both `null`."""
    if v is None:
        return 'null'
    if v.kind == 's':
        return json.dumps(v.text, ensure_ascii=False)
    return v.raw.decode('utf-8', 'replace')


class Reader:
    def __init__(self, data):
        self.d, self.p, self.n = data, 0, len(data)

    def peek(self):
        """Skips white space; the next byte, or None at the end of the input."""
        self.p = WS.match(self.d, self.p).end()
        return self.d[self.p] if self.p < self.n else None

    def expect(self, c):
        if self.peek() != ord(c):
            raise Break(f'expected {c!r}')
        self.p += 1

    def string(self):
        d, start = self.d, self.p
        p, parts = start + 1, []
        raw, kept = [], start  # the text as written, each lone surrogate's escape made \ufffd
        while True:
            m = STR_RUN.match(d, p)
            parts.append(m.group().decode('utf-8', 'replace'))
            p = m.end()
            if p >= self.n:
                raise Break('unterminated string')
            if d[p] == 0x22:  # the closing quote
                p += 1
                break
            if d[p] != 0x5C:
                raise Break('control character in a string')
            e = d[p + 1] if p + 1 < self.n else None
            if e in ESCAPES:
                parts.append(ESCAPES[e])
                p += 2
                continue
            if e != ord('u') or not HEX4.fullmatch(d, p + 2, p + 6):
                raise Break('invalid escape in a string')
            cp = int(d[p + 2:p + 6], 16)
            p += 6
            if 0xD800 <= cp < 0xDC00 and d[p:p + 2] == b'\\u' and HEX4.fullmatch(d, p + 2, p + 6) \
                    and 0xDC00 <= int(d[p + 2:p + 6], 16) < 0xE000:
                cp = 0x10000 + ((cp - 0xD800) << 10) + (int(d[p + 2:p + 6], 16) - 0xDC00)
                p += 6
            if 0xD800 <= cp < 0xE000:
                parts.append('\ufffd')
                raw += [d[kept:p - 6], b'\\ufffd']
                kept = p
            else:
                parts.append(chr(cp))
        self.p = p
        return Val('s', b''.join(raw) + d[kept:p], text=''.join(parts))

    def value(self, depth):
        """Reads one value; depth = the number of arrays/objects open around it."""
        c = self.peek()
        if c == 0x22:
            return self.string()
        if c == 0x7B or c == 0x5B:  # { or [
            if depth >= MAX_DEPTH:
                raise Break('nesting too deep')
            self.p += 1
            items, close = [], 0x7D if c == 0x7B else 0x5D
            if self.peek() == close:
                self.p += 1
            else:
                while True:
                    if c == 0x7B:
                        if self.peek() != 0x22:
                            raise Break('expected a key')
                        k = self.string()
                        self.expect(':')
                        items.append((k.text, k.raw, self.value(depth + 1)))
                    else:
                        items.append(self.value(depth + 1))
                    nxt = self.peek()
                    self.p += 1
                    if nxt == close:
                        break
                    if nxt != 0x2C:
                        raise Break("expected ',' or a closing bracket")
            if c == 0x7B:
                return make_object(items)
            return Val('a', b'[' + b','.join(v.raw for v in items) + b']')
        m = NUMBER.match(self.d, self.p)
        if m:
            self.p = m.end()
            if self.p < len(self.d) and self.d[self.p] in b'0123456789.eE+-':
                raise Break('malformed number')  # (`01`, `1.`, `1.e5`: no number token, not its prefix)
            return Val('n', m.group())
        for word in (b'true', b'false', b'null'):
            if self.d.startswith(word, self.p):
                self.p += len(word)
                return Val('l', word)
        raise Break('expected a JSON value' if c is not None else 'unexpected end of input')


def exact_difference(a, b):
    """a - b for two JSON number tokens, exactly, in plain decimal notation."""
    da, db = decimal.Decimal(a.decode()), decimal.Decimal(b.decode())
    lowest = min(da.as_tuple().exponent, db.as_tuple().exponent)
    prec = max(da.adjusted(), db.adjusted(), 0) - lowest + 3
    ctx = decimal.Context(prec=max(prec, 28), Emax=decimal.MAX_EMAX, Emin=decimal.MIN_EMIN)
    s = format(ctx.subtract(da, db), 'f')
    if '.' in s:
        s = s.rstrip('0').rstrip('.')
    return '0' if s == '-0' else s


def merge(b, e):
    """args (or extra) of a B and its E: the B's members whose key the E lacks, then the E's."""
    if b is None or b.kind == 'l' and b.raw == b'null':
        return e
    if e is None or e.kind == 'l' and e.raw == b'null':
        return b
    if b.kind != 'o' or e.kind != 'o':
        return e
    keys = {k for k, _, _ in e.members}
    return make_object([m for m in b.members if m[0] not in keys] + e.members)


class Trace:
    def __init__(self, emit):
        self.emit = emit          # takes a list of (key, NDJSON text) pairs
        self.index = 0            # the next traceEvents element's index
        self.in_events = False
        self.open = {}            # (pid text, tid text) -> stack of open B events

    def error(self, index, message):
        self.emit([('type', '"error"'), ('index', 'null' if index is None else str(index)),
                   ('message', json.dumps(message, ensure_ascii=False))])

    def run(self, data):
        if data.startswith(b'\xef\xbb\xbf'):
            data = data[3:]
        r = Reader(data)
        try:
            c = r.peek()
            if c == 0x7B:
                self.object_form(r)
            elif c == 0x5B:
                self.events(r, bare=True)
            else:
                raise Break('the document is neither an object nor an array')
            if r.peek() is not None:
                raise Break('bytes after the JSON document')
        except Break as b:
            self.error(self.index if self.in_events else None, f'invalid JSON: {b} at byte {r.p}')
        left = sorted((ev['index'], ev) for stack in self.open.values() for ev in stack)
        for i, ev in left:
            self.error(i, f'B {out(ev["name"])} on pid {ev["pid"]} tid {ev["tid"]} is never closed')

    def object_form(self, r):
        r.p += 1
        if r.peek() == 0x7D:
            r.p += 1
            return
        while True:
            if r.peek() != 0x22:
                raise Break('expected a key')
            key = r.string()
            r.expect(':')
            if key.text == 'traceEvents':
                if r.peek() != 0x5B:
                    raise Break('traceEvents is not an array')
                self.events(r, bare=False)
            else:
                v = r.value(1)
                self.emit([('type', '"trace_info"'), ('key', out(key)), ('value', out(v))])
            c = r.peek()
            r.p += 1
            if c == 0x7D:
                return
            if c != 0x2C:
                raise Break("expected ',' or '}'")

    def events(self, r, bare):
        r.p += 1
        self.in_events = True
        depth = 1 if bare else 2
        if r.peek() == 0x5D:
            r.p += 1
        else:
            while True:
                self.event(self.index, r.value(depth))
                self.index += 1
                c = r.peek()
                if c is None and bare:
                    return  # the missing `]` of a bare array: a normal end
                r.p += 1
                if c == 0x5D:
                    break
                if c != 0x2C:
                    raise Break("expected ',' or ']'")
                if bare and r.peek() is None:
                    return
        self.in_events = False

    def event(self, index, ev):
        if ev.kind != 'o':
            self.error(index, 'event is not a JSON object')
            return
        last = {k: v for k, _, v in ev.members}
        ph = last.get('ph')
        phase = ph.text if ph is not None and ph.kind == 's' else None
        kind = KIND.get(phase, 'event')
        extra = [m for m in ev.members if m[0] not in MAPPED[kind]]
        extra = make_object(extra) if extra else None
        f = {k: out(last.get(k)) for k in ('ph', 'name', 'cat', 'id', 'bp', 'pid', 'tid', 'ts', 'dur', 's')}
        args, xtra = out(last.get('args')), out(extra)
        if phase == 'B':
            self.open.setdefault((f['pid'], f['tid']), []).append(
                dict(index=index, name=last.get('name'), f=f, ts=last.get('ts'), args=last.get('args'),
                     extra=extra, pid=f['pid'], tid=f['tid']))
            return
        if phase == 'E':
            stack = self.open.get((f['pid'], f['tid']))
            if not stack:
                self.error(index, f'E without an open B on pid {f["pid"]} tid {f["tid"]}')
                return
            b = stack.pop()
            name = last.get('name')
            if name is not None and out(name) not in ('null', '""') and out(name) != out(b['name']):
                self.error(index, f'E {out(name)} closes B {out(b["name"])}')
            ts_b, ts_e = b['ts'], last.get('ts')
            dur = exact_difference(ts_e.raw, ts_b.raw) if ts_b is not None and ts_e is not None \
                and ts_b.kind == 'n' and ts_e.kind == 'n' else 'null'
            f = dict(b['f'], dur=dur)
            args, xtra = out(merge(b['args'], last.get('args'))), out(merge(b['extra'], extra))
        T = ('type', f'"{kind}"')
        if kind == 'span':
            rec = [T, ('name', f['name']), ('cat', f['cat']), ('ph', f['ph']), ('pid', f['pid']),
                   ('tid', f['tid']), ('ts_us', f['ts']), ('dur_us', f['dur']), ('args', args)]
        elif kind == 'instant':
            rec = [T, ('name', f['name']), ('cat', f['cat']), ('ph', f['ph']), ('scope', f['s']),
                   ('pid', f['pid']), ('tid', f['tid']), ('ts_us', f['ts']), ('args', args)]
        elif kind == 'counter':
            rec = [T, ('name', f['name']), ('cat', f['cat']), ('id', f['id']), ('pid', f['pid']),
                   ('tid', f['tid']), ('ts_us', f['ts']), ('values', args)]
        elif kind == 'meta':
            name, a, value = last.get('name'), last.get('args'), 'null'
            key = META_VALUE.get(name.text) if name is not None and name.kind == 's' else None
            if key is not None and a is not None and a.kind == 'o':
                found = [v for k, _, v in a.members if k == key]
                value = out(found[-1]) if found else 'null'
            rec = [T, ('name', f['name']), ('pid', f['pid']), ('tid', f['tid']), ('ts_us', f['ts']),
                   ('value', value), ('args', args)]
        elif kind == 'flow':
            rec = [T, ('ph', f['ph']), ('name', f['name']), ('cat', f['cat']), ('id', f['id']),
                   ('bp', f['bp']), ('pid', f['pid']), ('tid', f['tid']), ('ts_us', f['ts']), ('args', args)]
        else:
            rec = [T, ('ph', f['ph']), ('name', f['name']), ('cat', f['cat']), ('id', f['id']),
                   ('pid', f['pid']), ('tid', f['tid']), ('ts_us', f['ts']), ('dur_us', f['dur']),
                   ('args', args)]
        self.emit(rec + [('extra', xtra)])


def gunzip(data):
    """Every gzip member in turn, as far as it decompresses (a cut stream gives what it holds)."""
    parts = []
    while data[:2] == b'\x1f\x8b':
        z = zlib.decompressobj(16 + zlib.MAX_WBITS)
        try:
            parts.append(z.decompress(data))
        except zlib.error:
            break
        if not z.eof:
            break
        data = z.unused_data
    return b''.join(parts)


def main():
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 4 * MAX_DEPTH + 100))
    with open(sys.argv[-1], 'rb') as fh:
        data = fh.read()
    if data[:2] == b'\x1f\x8b':
        data = gunzip(data)
    if sys.argv[1] == '--count':  # parse only: the number of records of each type
        counts = {}

        def count(rec):
            t = json.loads(rec[0][1])
            counts[t] = counts.get(t, 0) + 1
        Trace(count).run(data)
        print(' '.join(f'{k}={v}' for k, v in sorted(counts.items())))
        return
    w = sys.stdout.buffer.write
    Trace(lambda rec: w(('{' + ','.join(f'"{k}":{v}' for k, v in rec) + '}\n').encode('utf-8'))).run(data)


if __name__ == '__main__':
    main()
