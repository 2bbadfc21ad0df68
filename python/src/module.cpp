// SPDX-License-Identifier: MIT
// logscan._logscan: the C++ half of the Python module (the package, python/logscan/, is the
// API users call). Generic over the format registry (logscan::all_formats) and over the
// record descriptions: every format's `records::ndjson<W>` visitor renders its records
// through the writers of writers.hpp, so there is no code here per format or per record type.
// The GIL is released while parsing (a file-like input takes it for each read).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <logscan/formats/chrome_trace_parts.hpp>
#include <logscan/formats/chrome_trace_summary.hpp>
#include <logscan/formats/detect.hpp>
#include <logscan/formats/registry.hpp>
#include <logscan/parallel.hpp>

#include <cerrno>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "inputs.hpp"
#include "writers.hpp"

namespace logscan_py {

// A RuntimeWarning `m`, begun with "logscan: " as every message of the module and the command
// is (added when `m` lacks it). `level`: the Python frame it names (1: the one calling into
// C++; 2: its caller, the user's call of records() or frames() through the package).
void warn(std::string m, int level) {
    if (!m.starts_with("logscan: ")) m.insert(0, "logscan: ");
    if (PyErr_WarnEx(PyExc_RuntimeWarning, m.c_str(), level) != 0) throw py::error_already_set(); // (warnings as errors)
}

using formats = logscan::all_formats;

// Records per batch of records() (one feed loop with the GIL released, then dicts).
constexpr std::size_t batch_records = 4096;
constexpr std::size_t batch_bytes = std::size_t{4} << 20;

std::vector<std::string> format_names() {
    std::vector<std::string> n;
    logscan::for_each_format(formats{}, [&]<class F>() { n.emplace_back(F::name); });
    return n;
}

std::vector<std::string> record_types(const std::string& format) {
    std::vector<std::string> t;
    if (!logscan::with_format(formats{}, format, [&]<class F>() {
            for (std::string_view k : F::record_types) t.emplace_back(k);
        }))
        throw py::value_error("unknown format '" + format + "' (formats: " + py::str(py::cast(format_names())).cast<std::string>() + ")");
    return t;
}

// An I/O failure as OSError (its errno subclass: FileNotFoundError, ...), with the file name.
// (Any failure of the source: a read, a corrupt or cut gzip stream.)
// (its errno and words)
// (`read`: what is said of a gzip stream's own failure, the bytes before it)
std::pair<int, std::string> io_failure(const input& in, const logscan::error& e,
                                       std::string_view read = " (the records before it were read)") {
    // (a gzip stream's own failure: its words, gzip.hpp's, as the command says them)
    const bool stream = in.gzip() && (e.code == logscan::error_code::unexpected_end || e.code == logscan::error_code::syntax);
    const int err = e.sys_errno;
    std::string what = err != 0 && !stream ? std::string(std::strerror(err)) : std::string(e.message);
    if (stream) what += read;
    return {err == 0 ? EIO : err, what};
}
[[noreturn]] void raise_io(input& in, const logscan::error& e, std::string_view read = " (the records before it were read)") {
    in.raise_python_error(); // (a file-like's own exception first)
    const auto [err, what] = io_failure(in, e, read);
    PyErr_SetObject(PyExc_OSError, py::make_tuple(err, what, in.filename()).ptr());
    throw py::error_already_set();
}
// The same for frames() and summary(), which with `partial` keep what was read before the
// failure and say it with a RuntimeWarning instead (a killed job's cut trace, a damaged disk).
// A file-like's own exception is raised as it was, with a note that partial=True keeps what
// was read; with it, said in the warning in its place (`read() raised EOFError: ...`).
// Any other exception of a file-like (KeyboardInterrupt, a bug in the object) is raised as it
// was, partial or not.
void fail_io(input& in, const logscan::error& e, bool partial) {
    if (!partial) {
        in.raise_python_error("logscan: partial=True keeps the records read before it");
        raise_io(in, e, " (the records before it were read: partial=True keeps them)");
    }
    const std::string raised = in.take_python_error();
    in.raise_python_error(); // (not a failure of the data: KeyboardInterrupt, read() returned text, ...)
    const std::string what = raised.empty() ? io_failure(in, e).second : raised;
    warn(in.name() + ": " + what + "; partial=True: what was read before it is kept", 2);
}

// Why no format was told from an input's head, in words (as the command says it): compressed
// data logscan does not undo, or no format's signals.
std::string not_recognised(const input& in) {
    const logscan::compression c = logscan::unread_compression(in.head());
    if (c.name.empty()) return "format not recognised (give format=...; logscan.formats() lists them)";
    const std::string_view python = c.name == "xz"      ? "lzma.open(path)"
                                    : c.name == "bzip2" ? "bz2.open(path)"
                                    : c.name == "zip"   ? "zipfile.ZipFile(path).open(member)"
                                                        : "";
    return c.what() + ": give it the " +
           (python.empty() ? "output of `" + std::string(c.command) + " FILE`" : "file object " + std::string(python) + " opens") +
           " instead";
}

// Opens `in`, reads its head and names its format (given, or detected). Empty string: the
// input holds only blanks (no format to tell, no records). Raises ValueError when the format
// is unknown or not recognised.
std::string open_format(input& in, const std::optional<std::string>& format) {
    logscan::error e;
    {
        py::gil_scoped_release nogil;
        e = in.read_head();
    }
    if (!e.ok()) raise_io(in, e);
    if (format) {
        (void)record_types(*format); // (checks the name; an empty input is said after its parse: warn_empty)
        // (read as asked; said, as the command says it, when it looks like another format)
        if (const std::string_view other = in.looks_like_instead(*format); !other.empty()) {
            const std::string m = "logscan: " + in.name() + ": read as " + *format + " as asked, but it looks like " +
                                  std::string(other);
            warn(m, 2); // (level 2: the caller of records()/frames())
        }
        return *format;
    }
    bool blank = false;
    const std::string_view f = in.detect(blank);
    if (f.empty() && !in.head_error().ok()) raise_io(in, in.head_error()); // (no format in what it gave: its failure)
    if (f.empty() && blank) {
        warn("logscan: " + logscan::empty_input_message(in.name()), 2); // (as the command says it)
        return {};
    }
    if (f.empty())
        throw py::value_error(in.name() + ": " + not_recognised(in));
    return std::string(f);
}

type_set types_of(const std::string& format, const std::optional<std::vector<std::string>>& types) {
    type_set t;
    if (!types) return t;
    const std::vector<std::string> known = record_types(format);
    for (const std::string& x : *types) {
        if (std::find(known.begin(), known.end(), x) == known.end())
            throw py::value_error("'" + x + "' is not a record type of " + format + " (types: " +
                                  py::str(py::cast(known)).cast<std::string>() + ")");
    }
    t.types = *types;
    return t;
}

// Where a JSON document breaks: a warning with its file, line and column (the records before
// it are kept, and an `error` record says it in the data, formats.md).
// `level`: the Python frame the warning names (1: the one calling into C++).
void warn_break(const input& in, const logscan::error& e, int level) {
    if (e.ok() || e.line == 0 || e.code == logscan::error_code::stopped) return;
    const std::string m = in.name() + ":" + std::to_string(e.line) + ":" + std::to_string(e.column) + ": " +
                          std::string(e.message) + " (the document breaks there; the records before it are kept" +
                          (e.code == logscan::error_code::too_long         ? "; max_event=BYTES reads longer ones)"
                           : e.code == logscan::error_code::unexpected_end && !in.blank() ? "; the input ends there, inside the document: cut short?)"
                                                                           : ")");
    warn(m, level); // (warnings as errors)
}

// An input read as a format it is not (nothing of the format came of it: only text, or
// nothing where something was to be expected): said as the command says it, with the input's
// name. `level`: as for warn_break.
void warn_only_text(const input& in, const std::string& format, const logscan::yield_tally& seen, int level) {
    if (!seen.none_of_format(in.may_be_empty(format))) return;
    const std::string m = "logscan: " + seen.none_message(in.name(), format);
    warn(m, level);
}

// An empty input read as a format given: said, as the command says it, after its parse, unless
// it gave an error record (a JSON format's blank input breaks: that is what is said).
void warn_empty(const input& in, const logscan::yield_tally& seen, int level) {
    if (in.blank() && seen.records == 0 && seen.errors == 0) warn("logscan: " + logscan::empty_input_message(in.name()), level);
}

// An input of lines that ends inside its last line: said as the command says it (the record
// read from that line may be cut short); not where a JSON format's document broke (`result`:
// the parse's outcome; its break is what is said, as the command does). `level`: as for warn_break.
void warn_cut_line(const input& in, const logscan::error& result, int level) {
    if (!in.ends_inside_line() || (!result.ok() && result.code != logscan::error_code::stopped)) return;
    const std::string m = "logscan: " + logscan::cut_line_message(in.name());
    warn(m, level);
}

// The input's error records: said, as the command says them (how many, the first, the
// setting that reads a line or an object that was too long), so that no error passes unseen
// by a caller who reads one frame or one record type; when the `types` given leave them out,
// that too. `first`: the first of them; `broke`: one of them is the document's break, said by
// warn_break already: when it is the only one, nothing more is said (the command says it
// twice). `level`: as for warn_break.
void warn_errors(const input& in, const type_set& wanted, const logscan::yield_tally& seen, const logscan::error& first, bool broke,
                 int level) {
    if (seen.errors == 0 || (broke && seen.errors == 1)) return;
    const std::uint64_t n = seen.errors; // (all of them, the break too: the command's count)
    std::string m = "logscan: " + in.name() + ": " + logscan::error_records_note(n, first);
    if (first.code == logscan::error_code::line_too_long) m += " (max_line=BYTES reads longer lines)";
    else if (first.code == logscan::error_code::too_long) m += " (max_event=BYTES reads larger objects)";
    if (!wanted.wants("error"))
        m += std::string(n == 1 ? "; it is" : "; they are") + " left out by `types` (add \"error\" to them to read " +
             (n == 1 ? "it)" : "them)");
    warn(m, level);
}

// Cells given twice in one row of a frame (a key repeated in an object, or dotted names that
// meet: `"a.b"` and `"a": {"b"}` are one column, `a.b`): the last stands, as in the command's
// CSV, which says it too; said, naming the columns, so that no value is lost unseen.
// `level`: as for warn_break.
void warn_cells_given_twice(const input& in, columns& cols, int level) {
    std::string named;
    std::size_t n = 0;
    for (const table& t : cols.tables())
        for (const column& c : t.columns)
            if (c.overwritten() && n++ < 3) named += (named.empty() ? "" : ", ") + t.type + "'s " + c.name;
    if (n == 0) return;
    const std::string m = "logscan: " + in.name() + ": " + std::to_string(n) + (n == 1 ? " column" : " columns") +
                          " with a cell given twice in a row (a key repeated in an object, or dotted names that meet: "
                          "\"a.b\" and \"a\": {\"b\"}); the last stands: " + named + (n > 3 ? ", ..." : "");
    warn(m, level);
}

// One parse of one input by format F into writer W, fed a chunk at a time.
struct parse_run {
    virtual ~parse_run() = default;
    // Feeds chunks until `full()` says so or the input ends (true: ended). GIL released.
    virtual bool step(const std::function<bool()>& full) = 0;
    logscan::error source_error; // the input's I/O error, if any
    logscan::error result;       // the document's own error (JSON formats), if any
    logscan::error first_error;  // the first error record, if any
    logscan::parts_count parts;  // read in parts (frames()' threads): how the parts went
};

// (The visitor: the format's NDJSON visitor into W, or for columns the visitor made from
// the format's record descriptions, typed_columns.)
template <class F, class W>
using visitor_for = std::conditional_t<std::is_same_v<W, columns>, typename typed_columns_of<typename F::records>::type,
                                       typename F::template ndjson_visitor<W>>;

template <class F, class W>
class parse_run_of final : public parse_run {
public:
    parse_run_of(input& in, W& w, const logscan::format_options& o) : in_(in), vis_(w), parser_(vis_, o) {}
    bool step(const std::function<bool()>& full) override {
        while (!ended_) {
            if (full && full()) return false;
            const logscan::chunk c = in_.next();
            if (c.code != logscan::error_code::none) {
                source_error = logscan::chunk_error(c, bytes_read_); // (at the bytes read before it, as pump says it)
                end();
            } else if (c.data.empty()) {
                end();
            } else {
                bytes_read_ += c.data.size();
                (void)parser_.feed(c.data);
            }
        }
        return true;
    }

private:
    void end() {
        (void)parser_.finish();
        if constexpr (requires { parser_.result(); }) result = parser_.result();
        if constexpr (requires { vis_.first_error(); }) first_error = vis_.first_error();
        else first_error = vis_.first_error;
        ended_ = true;
    }
    input& in_;
    visitor_for<F, W> vis_;
    typename F::template parser<visitor_for<F, W>> parser_;
    bool ended_ = false;
    std::uint64_t bytes_read_ = 0;
};

// The parsers' settings from the package's max_line and max_event (the command's --max-line
// and --max-event).
logscan::format_options options_of(std::size_t max_line, std::size_t max_event) {
    logscan::format_options o;
    o.max_line = max_line;
    o.scratch_capacity = max_event;
    return o;
}

template <class W>
std::unique_ptr<parse_run> make_run(const std::string& format, input& in, W& w, const logscan::format_options& fo) {
    std::unique_ptr<parse_run> r;
    logscan::with_format(formats{}, format, [&]<class F>() { r = std::make_unique<parse_run_of<F, W>>(in, w, fo); });
    return r;
}

// frames() on `threads` threads, for a format whose input can be cut into parts (the line
// formats; not a JSON document): this thread reads the input and cuts it, the others parse
// the parts, each into columns of its own, which `w` absorbs in input order (parallel.hpp's
// parse_in_parts, as `logscan convert --threads`): the columns one parser makes.
template <class F>
class parts_run final : public parse_run {
    using slot = column_part<F>;

public:
    parts_run(input& in, columns& w, const type_set& wanted, const logscan::format_options& o, const logscan::parts_options& po)
        : in_(in), w_(w), wanted_(wanted), options_(o), parts_(po) {}
    bool step(const std::function<bool()>&) override {
        std::uint64_t errors = 0;
        source_error = logscan::parse_in_parts<slot>(
            in_, parts_, [](std::string_view a, std::string_view b) { return F::split_point(a, b); },
            [&] {
                auto s = std::make_unique<slot>(wanted_);
                s->options = options_;
                return s;
            },
            [&](slot& s) {
                s.absorb_into(w_);
                // (a document's outcome: a TVM Report.json() whose first byte came after the
                // head, read whole by the first part's parser, never at rest)
                if constexpr (requires { s.parser->result(); }) result = s.parser->result();
            },
            errors, parts, &first_error);
        return true;
    }

private:
    input& in_;
    columns& w_;
    const type_set& wanted_;
    logscan::format_options options_;
    logscan::parts_options parts_;
};

// frames()' parse: on `po.threads` threads where the format's input can be cut (a line
// format, its input no JSON document: a TVM `Report.json()` is one), else on this thread.
std::unique_ptr<parse_run> make_columns_run(const std::string& format, input& in, columns& w, const type_set& wanted,
                                            const logscan::format_options& fo, const logscan::parts_options& po) {
    std::unique_ptr<parse_run> r;
    logscan::with_format(formats{}, format, [&]<class F>() {
        if constexpr (F::splittable) {
            if (po.threads > 1 && !logscan::json_document(in.head())) {
                r = std::make_unique<parts_run<F>>(in, w, wanted, fo, po);
                return;
            }
        }
        r = std::make_unique<parse_run_of<F, columns>>(in, w, fo);
    });
    return r;
}

// ---------------------------------------------------------------------------------------
// records(): an iterator of dicts, a batch at a time.
class record_iterator {
public:
    record_iterator(const std::string& kind, py::object obj, const std::optional<std::string>& format,
                    const std::optional<std::vector<std::string>>& types, std::size_t max_line, std::size_t max_event)
        : in_(std::make_unique<input>(kind, obj)) {
        format_ = open_format(*in_, format);
        if (format_.empty()) return;
        wanted_ = types_of(format_, types);
        tape_ = std::make_unique<tape>(wanted_);
        run_ = make_run(format_, *in_, *tape_, options_of(max_line, max_event));
    }
    const std::string& format() const { return format_; }

    // The next record as a dict; a null object at the end. The input is parsed a batch of
    // records at a time with the GIL released (the batch kept in C++, as a tape), and each
    // dict is made when it is asked for. The records before an input's failure come first;
    // the call after them raises.
    py::object next() {
        if (busy_) throw py::value_error("records() iterator already executing (one iterator is read by one thread at a time)");
        busy_ = true;
        struct done_guard {
            bool& b;
            ~done_guard() { b = false; }
        } guard{busy_};
        for (;;) {
            if (tape_) {
                if (py::object r = tape_->next_record()) return r;
            }
            // (the input's failure, or where its document breaks: once the records before
            // it are handed out)
            if (failed_) {
                failed_ = false;
                said_ = true; // (the input's failure is what is said of it)
                raise_io(*in_, run_->source_error);
            }
            if (broken_) {
                broken_ = false;
                warn_break(*in_, run_->result, 1); // (level 1: the frame reading the records)
            }
            if (!run_ || done_) {
                if (run_ && !said_) { // (once every record is handed out)
                    said_ = true;
                    warn_only_text(*in_, format_, tape_->seen, 1);
                    warn_empty(*in_, tape_->seen, 1);
                    warn_cut_line(*in_, run_->result, 1);
                    warn_errors(*in_, wanted_, tape_->seen, run_->first_error, !run_->result.ok() && run_->result.line != 0, 1);
                }
                return py::object();
            }
            tape_->clear();
            bool ended;
            {
                py::gil_scoped_release nogil;
                ended = run_->step([this] { return tape_->records() >= batch_records || tape_->bytes() >= batch_bytes; });
            }
            // (a C loop over the iterator, list() or a DataFrame's constructor, checks for
            // Ctrl-C nowhere else)
            if (PyErr_CheckSignals() != 0) throw py::error_already_set();
            if (ended) {
                done_ = true;
                failed_ = !run_->source_error.ok();
                broken_ = !failed_;
            }
        }
    }

    // Ends the iteration: the input is closed (a file opened by path) and the next call
    // raises StopIteration. For a loop that stops early and wants its file closed now.
    void close() {
        if (busy_) throw py::value_error("records() iterator already executing (one iterator is read by one thread at a time)");
        done_ = true;
        failed_ = broken_ = false;
        if (tape_) tape_->clear();
        run_.reset();
        in_.reset();
    }

    // Makes `type`'s tp_iternext call next() straight from C: a `for` loop over records()
    // then costs no method look-up or Python frame per record (the `__next__` method above
    // stays for explicit calls and for collections.abc.Iterator).
    static void install_next(py::handle type) {
        auto* t = reinterpret_cast<PyTypeObject*>(type.ptr());
        t->tp_iternext = &iternext;
        PyType_Modified(t);
    }

private:
    static PyObject* iternext(PyObject* self) noexcept {
        try {
            // (the type is final, so `self` is a record_iterator's instance: its value is found
            // without pybind11's cast, whose type look-up per record was 4% of records())
            const auto v = reinterpret_cast<py::detail::instance*>(self)->get_value_and_holder();
            if (!v.holder_constructed()) throw py::type_error("logscan: a RecordIterator made without its __init__");
            return v.value_ptr<record_iterator>()->next().release().ptr(); // (null, no error: the end)
        } catch (py::error_already_set& e) {
            e.restore();
        } catch (...) { // (as pybind11 translates what a bound function throws)
            py::detail::translate_exception(std::current_exception());
        }
        return nullptr;
    }

    std::unique_ptr<input> in_;
    std::string format_;
    type_set wanted_;
    std::unique_ptr<tape> tape_;
    std::unique_ptr<parse_run> run_;
    bool done_ = false, failed_ = false, broken_ = false, busy_ = false, said_ = false;
};

// ---------------------------------------------------------------------------------------
// frames(): per record type, its columns as numpy arrays.

// The column's values' buffer as a numpy array of T (the values rewritten as T in place
// first, where they are not): no copy. The array frees the buffer (a T narrower than the
// cells: the buffer shrunk to the array's bytes first).
template <class T>
py::array_t<T> array_over(column& c, std::size_t rows) {
    static_assert(sizeof(T) <= sizeof(std::int64_t));
    const auto free_block = [](void* p) {
        auto* b = static_cast<grown_block*>(p);
        b->free();
        delete b;
    };
    grown_block taken = c.take_values();
    if constexpr (sizeof(T) < sizeof(std::int64_t)) taken.shrink(rows * sizeof(T));
    std::unique_ptr<grown_block, decltype(free_block)> block(nullptr, free_block);
    try {
        block.reset(new grown_block(taken));
    } catch (...) {
        taken.free(); // (the values too, not only their holder)
        throw;
    }
    if (block->data == nullptr) return py::array_t<T>(static_cast<py::ssize_t>(rows)); // (no rows)
    T* const values = static_cast<T*>(block->data);
    py::capsule owner(block.get(), free_block); // (until it is made, `block` frees the values)
    (void)block.release(); // (the capsule owns it now)
    return py::array_t<T>({static_cast<py::ssize_t>(rows)}, {static_cast<py::ssize_t>(sizeof(T))}, values, owner);
}

// One column as (name, kind, data, categories): kind "int64" (no value missing), "float64"
// (numbers, NaN where missing), "bool" (no value missing), "category" (data: codes,
// -1 where missing, as int8, int16, int32 or int64 by the number of categories, as pandas
// keeps them; categories: the strings), "object" (str/int/float/bool/None per row).
// The int64, float64 and category arrays are the column's own buffer, rewritten in place.
py::tuple column_to_python(column& c, std::size_t rows) {
    c.pad_to(rows);
    const py::object name = str_object(c.name); // (a header's invalid UTF-8 as U+FFFD, as in records())
    const unsigned seen = c.kinds_seen();
    const auto has = [&](cell k) { return (seen & (1u << static_cast<unsigned>(k))) != 0; };
    const bool nulls = has(cell::null);
    const unsigned values = seen & ~(1u << static_cast<unsigned>(cell::null));
    const auto only = [&](std::initializer_list<cell> ks) {
        unsigned m = 0;
        for (cell k : ks) m |= 1u << static_cast<unsigned>(k);
        return values != 0 && (values & ~m) == 0;
    };
    const auto n = static_cast<py::ssize_t>(rows);
    const auto as_double = [](cell k, std::int64_t v) {
        double d;
        if (k == cell::floating) std::memcpy(&d, &v, sizeof d);
        else d = static_cast<double>(v);
        return d;
    };
    if (only({cell::integer}) && !nulls) return py::make_tuple(name, "int64", array_over<std::int64_t>(c, rows), py::none());
    if (only({cell::integer, cell::floating})) {
        if (!only({cell::floating}) || nulls) { // (a double's bits already where every cell is one)
            std::int64_t* v = c.values();
            for (std::size_t i = 0; i < rows; ++i) {
                const cell k = c.kind(i);
                const double d = k == cell::null ? std::nan("") : as_double(k, v[i]);
                std::memcpy(&v[i], &d, sizeof d);
            }
        }
        return py::make_tuple(name, "float64", array_over<double>(c, rows), py::none());
    }
    if (only({cell::boolean}) && !nulls) {
        py::array_t<bool> a(n);
        bool* d = a.mutable_data();
        for (std::size_t i = 0; i < rows; ++i) d[i] = c.value(i) != 0;
        return py::make_tuple(name, "bool", a, py::none());
    }
    // strings: each distinct one used made once (a cell overwritten by a key given twice may
    // have left one unused; else every pooled string is used)
    std::vector<char> used(c.pool.size(), c.overwritten() ? 0 : 1);
    std::size_t distinct = c.overwritten() ? 0 : c.pool.size();
    for (std::size_t i = 0; c.overwritten() && i < rows; ++i) {
        const cell k = c.kind(i);
        const auto x = static_cast<std::size_t>(c.value(i));
        if ((k == cell::string || k == cell::big_integer) && !used[x]) {
            used[x] = 1;
            ++distinct;
        }
    }
    std::vector<py::object> strs(c.pool.size());
    for (std::size_t i = 0; i < strs.size(); ++i)
        if (used[i]) strs[i] = str_object(c.pool.at(i));
    if (only({cell::string}) && c.interned() && rows >= 16 && 2 * distinct <= rows) {
        // categories: the distinct str values (two byte strings with invalid UTF-8 may read as
        // one), each pool code mapped to its category, in place
        py::dict index;
        py::list cats;
        std::vector<std::int64_t> code_of(strs.size(), -1);
        bool same = true; // every pool code its category's code (the usual case: nothing to rewrite)
        for (std::size_t i = 0; i < strs.size(); ++i) {
            if (!used[i]) continue;
            PyObject* at = PyDict_GetItemWithError(index.ptr(), strs[i].ptr());
            if (at == nullptr && PyErr_Occurred()) throw py::error_already_set();
            if (at == nullptr) {
                code_of[i] = static_cast<std::int64_t>(PyList_GET_SIZE(cats.ptr()));
                index[strs[i]] = code_of[i];
                cats.append(strs[i]);
            } else {
                code_of[i] = PyLong_AsLongLong(at);
            }
            same = same && code_of[i] == static_cast<std::int64_t>(i);
        }
        // the codes in the narrowest type pandas would give them (pandas.Categorical's
        // coerce_indexer_dtype: int8 below 127 categories, then int16, int32), written over
        // the cells in place: no copy of them for pandas to make
        const std::size_t k = static_cast<std::size_t>(PyList_GET_SIZE(cats.ptr()));
        const bool remap = !same;
        const auto codes = [&]<class T>(T) {
            std::int64_t* v = c.values();
            if (remap || nulls || sizeof(T) < sizeof(std::int64_t))
                for (std::size_t i = 0; i < rows; ++i) { // (T's i-th ends at or before cell i's end: read first, then written)
                    std::int64_t x = v[i];
                    x = nulls && c.kind(i) == cell::null ? -1 : remap ? code_of[static_cast<std::size_t>(x)] : x;
                    const T t = static_cast<T>(x);
                    std::memcpy(reinterpret_cast<char*>(v) + i * sizeof(T), &t, sizeof(T));
                }
            return py::make_tuple(name, "category", array_over<T>(c, rows), cats);
        };
        if (k < 127) return codes(std::int8_t{});
        if (k < 32767) return codes(std::int16_t{});
        if (k < 2147483647) return codes(std::int32_t{});
        return codes(std::int64_t{});
    }
    py::array a(py::dtype("O"), std::vector<py::ssize_t>{n});
    auto** d = static_cast<PyObject**>(a.mutable_data());
    const auto put = [&](std::size_t i, py::object o) {
        Py_XDECREF(d[i]);
        d[i] = o.release().ptr();
    };
    for (std::size_t i = 0; i < rows; ++i) {
        const std::int64_t x = c.value(i);
        switch (c.kind(i)) {
        case cell::null: put(i, py::none()); break;
        case cell::integer: put(i, steal(PyLong_FromLongLong(x))); break;
        case cell::uinteger: put(i, steal(PyLong_FromUnsignedLongLong(static_cast<std::uint64_t>(x)))); break;
        case cell::floating: put(i, steal(PyFloat_FromDouble(as_double(cell::floating, x)))); break;
        case cell::boolean: put(i, py::bool_(x != 0)); break;
        case cell::string: put(i, strs[static_cast<std::size_t>(x)]); break;
        case cell::big_integer: // (beyond Python's digit limit: its ValueError, as json.loads gives)
            put(i, steal(PyLong_FromString(std::string(c.pool.at(static_cast<std::size_t>(x))).c_str(), nullptr, 10)));
            break;
        }
    }
    return py::make_tuple(name, "object", a, py::none());
}

// How the parts of this thread's last frames() went (none: read on one thread), for the tests
// (that threads > 1 read in parts, in parallel).
thread_local logscan::parts_count last_frames_parts{};

// {type: [(name, kind, data, categories), ...]} for frames(); `format` set to the format read.
py::dict columns_of(const std::string& kind, py::object obj, const std::optional<std::string>& format,
                    const std::optional<std::vector<std::string>>& types, std::size_t max_line, std::size_t max_event,
                    bool partial, unsigned threads, std::size_t part_bytes) {
    input in(kind, obj);
    const std::string f = open_format(in, format);
    py::dict out;
    if (f.empty()) return out;
    const type_set wanted = types_of(f, types);
    columns cols(wanted);
    std::unique_ptr<parse_run> run =
        make_columns_run(f, in, cols, wanted, options_of(max_line, max_event), {.threads = threads, .part_bytes = part_bytes});
    {
        py::gil_scoped_release nogil;
        run->step({});
    }
    last_frames_parts = run->parts;
    if (!run->source_error.ok()) fail_io(in, run->source_error, partial); // (partial: its warning, the only one)
    if (run->source_error.ok()) warn_break(in, run->result, 2); // (after a failure, partial=True: its warning, the only one)
    if (run->source_error.ok()) warn_only_text(in, f, cols.seen, 2);
    warn_empty(in, cols.seen, 2);
    warn_cut_line(in, run->result, 2);
    warn_errors(in, wanted, cols.seen, run->first_error, !run->result.ok() && run->result.line != 0, 2);
    warn_cells_given_twice(in, cols, 2);
    for (table& t : cols.tables()) {
        py::list cs;
        for (column& c : t.columns) {
            cs.append(column_to_python(c, t.rows));
            c.release(); // (free as we go)
        }
        out[py::str(t.type)] = py::make_tuple(t.rows, cs);
    }
    return out;
}

// detect(): the format's name, or None.
py::object detect(const std::string& kind, py::object obj) {
    input in(kind, obj);
    logscan::error e;
    {
        py::gil_scoped_release nogil;
        e = in.read_head();
    }
    constexpr std::string_view untold = " (before the format could be told)";
    if (!e.ok()) raise_io(in, e, untold);
    bool blank = false;
    const std::string_view f = in.detect(blank);
    if (!in.head_error().ok()) { // (a cut gzip stream, a file-like's EOFError: as `logscan detect`, said)
        if (f.empty()) raise_io(in, in.head_error(), untold); // (no format in what it gave: its failure is what to say)
        const std::string raised = in.take_python_error();    // (a failure of the data, in words)
        in.raise_python_error();                              // (any other exception: raised as it was)
        // (the format its bytes show, and a warning with the failure)
        const std::string m = in.name() + ": " + (raised.empty() ? io_failure(in, in.head_error(), "").second : raised) +
                              " after " + std::to_string(in.head_size()) + " bytes (the format is told from them)";
        warn(m, 2);
    }
    if (f.empty() && !logscan::unread_compression(in.head()).name.empty()) { // (compressed: None, and how to read it, said)
        const std::string m = "logscan: " + in.name() + ": " + not_recognised(in);
        warn(m, 2);
    }
    if (f.empty()) return py::none();
    return py::str(std::string(f));
}

// After a parse that read up to where its document broke, or failed: the break said (a
// warning), then the source's failure (a read, a cut or corrupt gzip stream) raised, or with
// `partial` said. In a gzip input the rest of the stream is read after a break: its check
// may find the corrupt data that broke the document (logscan::rest_failure), as the command
// does.
void check_after_break(input& in, const logscan::error& result, bool partial) {
    warn_break(in, result, 2);
    logscan::error e = result;
    if (in.gzip() && !e.ok() && !logscan::source_failed(e) && e.code != logscan::error_code::stopped) {
        // (GIL released; an interrupt, Ctrl-C, ends the reading: asked every 64 chunks)
        bool interrupted = false;
        logscan::error rest;
        {
            py::gil_scoped_release nogil;
            rest = logscan::rest_failure(in, [&] {
                py::gil_scoped_acquire gil;
                interrupted = PyErr_CheckSignals() != 0;
                return !interrupted;
            });
        }
        if (interrupted) throw py::error_already_set();
        if (!rest.ok()) e = rest;
    }
    if (logscan::source_failed(e)) fail_io(in, e, partial);
}

// summary(): what `logscan summary --json` prints, as JSON text (the package loads it).
std::string summary_json(const std::vector<std::pair<std::string, py::object>>& inputs, const std::optional<std::string>& format,
                         std::size_t top_cpu_ops, std::size_t max_line, std::size_t max_event, unsigned threads,
                         std::size_t part_bytes, bool partial) {
    namespace ct = logscan::chrome_trace;
    std::vector<ct::rank_rows> ranks;
    if (inputs.empty()) throw py::value_error("summary() needs one input at least (the ranks of one job)");
    for (const auto& [kind, obj] : inputs) {
        input in(kind, obj);
        const std::string f = open_format(in, format);
        if (f != ct::format::name)
            throw py::value_error(in.name() + ": " + (f.empty() ? std::string("empty input") : f) +
                                  ": summary() gives the figures of chrome-trace inputs (the ranks of one job); the other "
                                  "formats' summaries are text reports (logscan summary)");
        logscan::error e;
        if (threads > 1) { // (in parts on `threads` threads: chrome_trace_parts.hpp, the same rows)
            ct::parts_read r;
            {
                py::gil_scoped_release nogil;
                r = ct::read_rank_in_parts(in, in.name(), {.threads = threads, .part_bytes = part_bytes},
                                         options_of(max_line, max_event));
            }
            e = r.result;
            check_after_break(in, e, partial);
            ranks.push_back(std::move(r.rows));
        } else {
            ct::rank_reader reader(in.name());
            {
                py::gil_scoped_release nogil;
                e = ct::parse(in, reader, options_of(max_line, max_event));
            }
            check_after_break(in, e, partial);
            ranks.push_back(reader.take());
        }
        if (!ranks.back().errors.empty()) {
            const std::string m = in.name() + ": " + ct::error_note(ranks.back().errors, "max_event=BYTES") +
                                  "; the figures are of the events read";
            warn(m, 2);
        }
    }
    ct::job_summary job;
    std::string json;
    {
        py::gil_scoped_release nogil;
        job = ct::summarize(std::move(ranks), {.top_cpu_ops = top_cpu_ops});
        json = ct::summary_json(job);
    }
    for (const std::string& n : job.notes) { // (files that claim one rank, that look like no single job's ranks: as the command says it)
        const std::string m = "logscan: " + n;
        warn(m, 2);
    }
    return json;
}

} // namespace logscan_py

PYBIND11_MODULE(_logscan, m) {
    namespace lp = logscan_py;
    namespace py = pybind11;
    m.doc() = "logscan's C++ core (use the logscan package: logscan.records, logscan.frames, ...)";
    m.def("formats", &lp::format_names, "The formats logscan reads, in the order that breaks detection ties.");
    m.attr("version") = LOGSCAN_VERSION_STRING; // (config.hpp's, as `logscan --version` says it)
    m.attr("default_max_line") = logscan::format_options{}.max_line; // (the command's)
    m.attr("default_max_event") = logscan::format_options{}.scratch_capacity;
    m.def("record_types", &lp::record_types, py::arg("format"), "The record types of a format.");
    m.def("detect", &lp::detect, py::arg("kind"), py::arg("obj"));
    m.def("columns", &lp::columns_of, py::arg("kind"), py::arg("obj"), py::arg("format"), py::arg("types"),
          py::arg("max_line"), py::arg("max_event"), py::arg("partial"), py::arg("threads"), py::arg("part_bytes"));
    m.def("last_frames_parts", [] { return py::make_tuple(lp::last_frames_parts.kept, lp::last_frames_parts.redone); },
          "How the parts of this thread's last frames() went: (kept as read in parallel, read again by the parser "
          "before); (0, 0) when it read on one thread. For tests.");
    m.def("summary_json", &lp::summary_json, py::arg("inputs"), py::arg("format"), py::arg("top_cpu_ops"),
          py::arg("max_line"), py::arg("max_event"), py::arg("threads"), py::arg("part_bytes"), py::arg("partial"));
    py::class_<lp::record_iterator> iterator_type(m, "RecordIterator", py::is_final());
    iterator_type
        .def(py::init<const std::string&, py::object, const std::optional<std::string>&,
                      const std::optional<std::vector<std::string>>&, std::size_t, std::size_t>(),
             py::arg("kind"), py::arg("obj"), py::arg("format"), py::arg("types"), py::arg("max_line"), py::arg("max_event"))
        .def_property_readonly("format", &lp::record_iterator::format)
        .def("__iter__", [](py::object self) { return self; })
        .def("__next__", [](lp::record_iterator& it) {
            py::object r = it.next();
            if (!r) throw py::stop_iteration();
            return r;
        })
        .def("close", &lp::record_iterator::close,
             "Ends the iteration early: the input is closed and the next call raises StopIteration.")
        .def("__enter__", [](py::object self) { return self; })
        .def("__exit__", [](lp::record_iterator& it, py::args) { it.close(); return false; },
             "Closes the iterator (a `with` block over records(): its input closed at the end of the block).");
    lp::record_iterator::install_next(iterator_type);
}
