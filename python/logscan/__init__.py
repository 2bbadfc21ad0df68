# SPDX-License-Identifier: MIT
"""logscan: the logs, tables and traces deep-learning tools print, read at C++ speed.

Every function takes an input as
  - a path (``str`` or ``os.PathLike``),
  - ``bytes`` (or ``bytearray``, ``memoryview``): the input itself, or
  - a binary file-like object (anything with ``read(n)`` returning bytes),
and reads it decompressed when it is gzip (``.json.gz`` traces), as the ``logscan`` command
does. ``format`` is one of ``formats()`` or ``None`` to detect it from the first bytes.

    >>> import logscan
    >>> logscan.detect("train.log")
    'paddle-log'
    >>> for r in logscan.records("train.log", types=["train_step"]):
    ...     print(r["epoch"], r["metrics"]["loss"])
    >>> frames = logscan.frames("train.log")          # {"train_step": DataFrame, ...}
    >>> logscan.summary(["rank0.pt.trace.json.gz", "rank1.pt.trace.json.gz"])["ranks"]

Records are exactly what the NDJSON contract writes (``logscan convert``): the same keys in
the same order, ``None`` for ``null``; ``error`` records stand in the data where the input
breaks. Where a JSON document breaks, a ``RuntimeWarning`` also gives its file, line and
column. I/O failures raise ``OSError`` (``FileNotFoundError``, ...) with the file name; an
unknown format, an unrecognised input or an unknown record type ``ValueError``.

The parse runs with the GIL released: threads parse files in parallel. ``frames`` and
``summary`` parse one large log or trace on several threads by default (``threads=None``:
``OMP_NUM_THREADS``, else the cores, at most 8); threads of your own that each read a file,
or a Dask worker, pass ``threads=1``.
"""

import json as _json
import operator as _operator
import stat as _stat
import os as _os

from . import _logscan

__all__ = ["detect", "records", "frames", "summary", "formats", "record_types"]

#: The version of the headers the module was built from (``logscan --version``'s).
__version__ = _logscan.version

#: The longest line (bytes) a line format reads whole; a longer one is an ``error`` record
#: (the command's default, ``logscan --max-line``).
DEFAULT_MAX_LINE = _logscan.default_max_line
#: The largest event (chrome-trace) or object (megengine-profile) read whole; a larger one is
#: an ``error`` record and reading goes on (the command's default, ``logscan --max-event``).
DEFAULT_MAX_EVENT = _logscan.default_max_event


def formats():
    """The names of the formats logscan reads, e.g. ``['megengine-profile', 'chrome-trace', ...]``."""
    return _logscan.formats()


def record_types(format):
    """The record types (``"type"`` values) a format yields, ``text`` and ``error`` included."""
    if not isinstance(format, str):
        raise TypeError("logscan: record_types(format): a format's name, one of %s; got %r" % (formats(), format))
    return _logscan.record_types(format)


def _input(source):
    """(kind, object) for the C++ side: 'bytes', 'file' or 'path'."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        return "bytes", source
    if hasattr(source, "read"):
        return "file", source
    try:
        path = _os.fspath(source)
    except TypeError:
        raise TypeError(
            "logscan: an input is a path (str or os.PathLike), bytes, or a binary file-like object; got %s"
            % type(source).__name__
        ) from None
    return "path", _os.fsencode(_os.path.expanduser(path))  # (any name the file system has; ~ expanded, as pandas does)


def _int_in(name, value, top, what, top_text):
    """`value` as an int when it is an integer from 1 to `top` (an int, or numpy's integers:
    anything with __index__; a bool is no count), else ValueError."""
    try:
        n = None if isinstance(value, bool) else _operator.index(value)
    except TypeError:
        n = None
    if n is None or not 1 <= n <= top:
        raise ValueError("logscan: %s is a number of %s (an int from 1 to %s); got %r" % (name, what, top_text, value))
    return n


def _max_line(max_line):
    # (the command's --max-line range: a larger line buffer cannot be had, and every line would
    # be an error record for want of it)
    return _int_in("max_line", max_line, 1 << 31, "bytes", "2**31")


def _max_event(max_event):
    return _int_in("max_event", max_event, 1 << 30, "bytes", "2**30")


def _threads(threads, kind=None, obj=None, part_size=1 << 20):
    """`threads`, checked; for None, the default: the cores this process may run on, or fewer
    where `OMP_NUM_THREADS` says so (its first number, as pyarrow reads it; a Dask worker's
    nanny sets it to 1; a value that is no number >= 1 is not used), at most 8; one for an
    input known to be smaller than two parts (bytes or a regular file, not gzip)."""
    if threads is not None:
        return _int_in("threads", threads, 256, "threads", "256")
    size = None
    try:
        if kind == "bytes":
            head = memoryview(obj).cast("B")
            size = None if head[:2].tobytes() == b"\x1f\x8b" else head.nbytes  # (gzip: its text is larger)
        elif kind == "path":
            st = _os.stat(obj)
            if _stat.S_ISREG(st.st_mode):  # (a pipe's bytes are not read here: the parse reads them all)
                size = st.st_size
                if size < 2 * part_size:
                    with open(obj, "rb", buffering=0) as f:
                        if f.read(2) == b"\x1f\x8b":
                            size = None
    except (OSError, TypeError, ValueError):
        size = None  # (the parse says what is wrong with the input)
    if size is not None and size < 2 * part_size:
        return 1
    try:
        cores = len(_os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = _os.cpu_count() or 1
    env = _os.environ.get("OMP_NUM_THREADS", "").split(",")[0].strip()
    if env.isdigit() and int(env) >= 1:
        cores = min(cores, int(env))
    return max(1, min(cores, 8))


def _part_size(part_size):
    return _int_in("part_size", part_size, 1 << 30, "bytes", "2**30")


def _format(format):
    if format is None or isinstance(format, str):
        return format
    raise TypeError("logscan: format is a format's name (a str, one of logscan.formats()) or None to detect it; got %s %r"
                    % (type(format).__name__, format))


def _types(types):
    if types is None:
        return None
    if isinstance(types, str):
        return [types]
    if isinstance(types, (bytes, bytearray, memoryview)):
        raise TypeError("logscan: types is a record type's name (str) or a list of them; got %s %r" % (type(types).__name__, types))
    try:
        types = list(types)
    except TypeError:
        raise TypeError("logscan: types is a record type's name or a list of them; got %r" % (types,)) from None
    for t in types:
        if not isinstance(t, str):
            raise TypeError("logscan: types holds record types' names (str); got %r in %r" % (t, types))
    if not types:
        raise ValueError("logscan: types is empty, so no record would be read (None reads every type)")
    return types


def detect(source):
    """The format of an input (``'paddle-log'``, ...), or ``None`` when it is none of them.

    Reads the input's first 16 KiB past the blank lines it begins with (up to 1 MiB of them;
    decompressed when it is gzip). An input that fails after
    some bytes (a gzip stream cut short) is named from them when they show its format, with a
    ``RuntimeWarning`` that says the failure, as ``logscan detect`` does; when they do not, the
    failure is raised (``OSError``). A file-like object is read
    from where it stands and put back there; one that is not seekable (a pipe, a stream) is a
    ``ValueError``, since what was read could not be put back: ``records(stream).format``
    names its format without losing any of it. Compressed data logscan does not undo (xz,
    zstd, bzip2, ...) is ``None`` with a ``RuntimeWarning`` that says how to read it."""
    kind, obj = _input(source)
    if kind == "file":
        seekable = getattr(obj, "seekable", None)
        if not (seekable() if seekable is not None else hasattr(obj, "seek") and hasattr(obj, "tell")):
            # (what it read could not be put back: a records() or frames() after it would
            # silently miss the input's head)
            raise ValueError(
                "logscan: detect() reads the head of a file-like object and puts it back, which this one (not seekable: "
                "a pipe, a socket, a stream) cannot do; records() and frames() detect the format themselves, and "
                "records(stream).format names it with nothing of the stream lost"
            )
        at = obj.tell()
        try:
            return _logscan.detect(kind, obj)
        finally:
            obj.seek(at)
    return _logscan.detect(kind, obj)


def records(source, format=None, types=None, max_line=DEFAULT_MAX_LINE, max_event=DEFAULT_MAX_EVENT):
    """An iterator of the input's records, each a dict exactly as the NDJSON contract writes it.

    ``types``: the record types wanted (a name or a non-empty list; ``None``: all). ``max_line``: the
    longest line read whole, ``max_event``: the largest JSON event or object read whole (a
    longer one is an ``error`` record and reading goes on). The input is parsed
    a batch of records at a time (about 4096) and each dict made when it is asked for, so
    memory stays bounded on any size of input.
    An input of blank lines only yields nothing. Where the input fails (a read error, a cut
    gzip stream), the records before are yielded, then ``OSError`` is raised; where a JSON
    document breaks, its records before the break, then a ``RuntimeWarning``. Said with a
    ``RuntimeWarning`` as the command says them on standard error: a ``format`` given for an
    input that looks like another format (when the iterator is made); once the records are
    read to their end, an input read as a format it is not (only ``text`` came of it, or
    nothing where something was to be expected: a JSON document of another kind), and the
    error records (how many, the first, ``max_line``/``max_event`` when one was too long;
    those ``types`` leaves out too, said so), as ``frames`` says them. ``close()`` ends the
    iteration early and lets the input go (a file opened by path is closed), as does the end
    of a ``with logscan.records(...) as it:`` block. ``.format`` is the format read (given or
    detected). One iterator is read by one thread at a time (another thread's ``next``
    raises ``ValueError``). Numbers are what ``json.loads`` makes of the NDJSON: a number
    with a fraction is a ``float`` (a Kineto ``ts`` of 16 digits and 3 decimals is the
    nearest float64)."""
    return _logscan.RecordIterator(*_input(source), _format(format), _types(types), _max_line(max_line), _max_event(max_event))


def frames(source, format=None, types=None, max_line=DEFAULT_MAX_LINE, max_event=DEFAULT_MAX_EVENT, partial=False,
           threads=None, part_size=1 << 20):
    """One ``pandas.DataFrame`` per record type of the input: ``{type: DataFrame}``.

    Built column by column in C++ from the record descriptions (no dict per record). Columns
    are named as the CSV writer names them: nested objects flattened into dotted names
    (``cells.Duration (us)``, ``args.External id``), arrays as their JSON text; in the order
    they first appear. Integer columns stay ``int64`` where no value is missing, numbers with
    a missing value are ``float64`` with ``NaN``; strings are a ``category`` when repeated
    in a frame of 16 rows or more (at most half as many distinct values as rows; a column
    whose distinct values pass 4096 and half its rows so far is ``object`` from there), else
    ``object`` (so a short file's column may be ``object`` where a long one's is a
    ``category``: ``astype("category")`` makes them alike); a column that mixes
    kinds (a value printed as text that is sometimes a number) is ``object``, ``None`` where
    missing. Types without records have no frame. ``max_line`` and ``max_event`` as for
    ``records``. Said with a ``RuntimeWarning`` naming the input, as the command says them: a
    ``format`` given for an input that looks like another format; an input read as a format
    it is not (only ``text`` came of it, or nothing where something was to be expected: a
    file of another kind given a ``format``); its error records (how many, the first, the
    setting that reads a line or an event that was too long), which are also the ``error``
    frame. Where the input fails (a read error, a
    cut or corrupt gzip stream: a killed job's trace) ``OSError`` is raised; with
    ``partial=True`` the frames of the records read before it are returned instead, and the
    failure is a ``RuntimeWarning``. ``threads`` > 1 parses the input in parts of about
    ``part_size`` bytes on that many threads where ``logscan convert --threads`` does
    (megengine-log, paddle-log and tvm-profile logs and chainer-memtrace graphs; a JSON
    document is read on one): the same frames, sooner on a large log where cores are free.
    ``threads=None`` (the default): the cores this process may run on, or fewer where
    ``OMP_NUM_THREADS`` says so (its first number, as pyarrow reads it; Dask's worker
    processes have it at 1, so that workers reading file after file do not share their
    cores; a value that is no number >= 1 is not used), at most 8; one thread for bytes or a
    regular file smaller than two parts (not gzip, whose text is larger). ``threads=1``: this
    thread only; a number given is used as it is (up to 256)."""
    import numpy as np
    import pandas as pd

    out = {}
    source_kind, source_obj = _input(source)
    part_size = _part_size(part_size)
    threads = _threads(threads, source_kind, source_obj, part_size)
    for type_name, (rows, columns) in _logscan.columns(source_kind, source_obj, _format(format), _types(types), _max_line(max_line),
                                                       _max_event(max_event), bool(partial), threads, part_size).items():
        data = {}
        for name, kind, values, categories in columns:
            if kind == "category":
                data[name] = pd.Categorical.from_codes(values, categories=pd.Index(categories, dtype=object))
            else:
                data[name] = values
        out[type_name] = pd.DataFrame(data, index=pd.RangeIndex(rows), copy=False)
    return out


def summary(sources, format=None, top_cpu_ops=20, max_line=DEFAULT_MAX_LINE, threads=None, part_size=1 << 20,
            max_event=DEFAULT_MAX_EVENT, partial=False):
    """The figures ``logscan summary --json`` prints, as a dict.

    ``sources``: one input or a list of them, the ranks of one job (Chrome traces: PyTorch
    Kineto, Paddle, MegEngine, TensorFlow). The figures are Holistic Trace Analysis's
    (formats.md 6B): per rank the kernel-type breakdown, kernels by name, the temporal
    breakdown and the top ``top_cpu_ops`` CPU ops. An input of another format raises
    ``ValueError`` (their summaries are text reports: the ``logscan summary`` command).
    ``threads`` > 1 reads each input in parts of about ``part_size`` bytes on that many
    threads (``logscan summary --threads``): the same figures, sooner on a large trace.
    ``threads=None`` (the default) as for ``frames`` (the largest of the inputs decides
    whether one thread is enough).
    ``max_event``: the largest event read whole (a larger one is an ``error`` record).
    ``partial=True``: an input that fails (a cut ``.gz``) counts with the events read before
    the failure, said with a ``RuntimeWarning``, instead of raising ``OSError``."""
    if isinstance(sources, (str, bytes, bytearray, memoryview, _os.PathLike)) or hasattr(sources, "read"):
        sources = [sources]
    elif not hasattr(sources, "__iter__"):
        _input(sources)  # (the error every function gives for what is no input)
    if isinstance(top_cpu_ops, bool) or not isinstance(top_cpu_ops, int) or top_cpu_ops < 0:
        raise ValueError("logscan: top_cpu_ops is a count (an int >= 0); got %r" % (top_cpu_ops,))
    inputs = [_input(s) for s in sources]
    part_size = _part_size(part_size)
    if threads is None:
        threads = max((_threads(None, kind, obj, part_size) for kind, obj in inputs), default=1)
    return _json.loads(_logscan.summary_json(inputs, _format(format), top_cpu_ops, _max_line(max_line),
                                              _max_event(max_event), _threads(threads), part_size, bool(partial)))
