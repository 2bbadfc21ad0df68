// SPDX-License-Identifier: MIT
// The Python module's inputs: a path (a file, read with the library's file_source), bytes in
// memory, or a binary file-like object (its read1(n) or read(n) called with the GIL held); each
// decompressed when its first bytes are gzip's (logscan/gzip.hpp) and read as UTF-8 when it is
// UTF-16 with its byte order mark (logscan/utf16.hpp), as the command does; the
// head read for detection and handed out again first (logscan::replay_source).
#ifndef LOGSCAN_PYTHON_INPUTS_HPP
#define LOGSCAN_PYTHON_INPUTS_HPP

#include <pybind11/pybind11.h>

#include <logscan/formats/detect.hpp>
#include <logscan/gzip.hpp>
#include <logscan/source.hpp>
#include <logscan/utf16.hpp>

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace logscan_py {

namespace py = pybind11;

// A byte source of any kind, behind one virtual call (the parse loop is not templated on it).
struct any_source {
    virtual ~any_source() = default;
    virtual logscan::chunk next() = 0;
    virtual bool gzip() const noexcept = 0; // the input was found to be gzip
};

// Bytes in memory handed out a MiB at a time (a parse loop that stops between chunks, as
// records() does between batches, then holds a batch's worth, not the whole input).
class sliced_memory_source {
public:
    explicit sliced_memory_source(std::string_view bytes) noexcept : rest_(bytes) {}
    logscan::chunk next() noexcept {
        const std::string_view c = rest_.substr(0, std::size_t{1} << 20);
        rest_.remove_prefix(c.size());
        return {c, logscan::error_code::none, 0};
    }

private:
    std::string_view rest_;
};

// Calls f(bytes) with a buffer's bytes while its buffer is held (bytes, bytearray, a
// C-contiguous memoryview; anything else with the buffer protocol is copied by bytes() first).
template <class F>
void with_buffer(py::handle obj, F&& f) {
    Py_buffer view;
    if (PyObject_GetBuffer(obj.ptr(), &view, PyBUF_C_CONTIGUOUS) != 0) {
        PyErr_Clear();
        const py::object copy = py::reinterpret_steal<py::object>(PyBytes_FromObject(obj.ptr()));
        if (!copy) throw py::error_already_set();
        return f(std::string_view(PyBytes_AS_STRING(copy.ptr()), static_cast<std::size_t>(PyBytes_GET_SIZE(copy.ptr()))));
    }
    struct release {
        Py_buffer* v;
        ~release() { PyBuffer_Release(v); }
    } r{&view};
    f(std::string_view(static_cast<const char*>(view.buf), static_cast<std::size_t>(view.len)));
}

// A binary file-like object: `read1(n)` where the class that defines its `read` defines `read1`
// too (io.BufferedIOBase's: a file opened 'rb', gzip.open, lzma.open, bz2.open, BytesIO, a
// tar or zip member), else `read(n)`, with the GIL held. read1 hands out what the object has
// before a failure: a cut gzip or xz stream's read(n) raises EOFError and drops the bytes it
// had decompressed for the call, read1 returns them first. A wrapper that defines `read` alone
// (a progress bar's, one that transforms the bytes; one that forwards other attributes to the
// file it wraps) is read through its `read`. A Python exception (or a read that returns text)
// is kept and the source reports an I/O error; the caller raises it (or, partial=True, says a
// failure of the data: python_data_failure).
class pyfile_source {
public:
    explicit pyfile_source(py::object file) : read_(file.attr("read")) {
        if (read1_goes_with_read(file)) read1_ = file.attr("read1");
    }
    ~pyfile_source() {
        py::gil_scoped_acquire gil;
        read_ = py::object();
        read1_ = py::object();
    }
    pyfile_source(const pyfile_source&) = delete;
    pyfile_source& operator=(const pyfile_source&) = delete;

    logscan::chunk next() noexcept { // (nothing may leave: the gzip source's next() is noexcept)
        if (done_) return {};
        try {
            py::gil_scoped_acquire gil;
            return read();
        } catch (...) {
            done_ = true;
            try {
                failure_ = "reading the file-like object failed";
            } catch (...) {
            }
            return {{}, logscan::error_code::io_error, 0};
        }
    }
    // The exception read() raised, if any (raise it again with the GIL held).
    std::optional<py::error_already_set>& python_error() { return error_; }
    const std::string& failure() const { return failure_; }
    // The call that raised it: "read1()" or "read()".
    const char* raised_by() const noexcept { return read1_ ? "read1()" : "read()"; }

private:
    // True when `file`'s read1 belongs with its read: `read` not set on the object itself, and
    // the first class of its type's MRO that defines `read` defines `read1` too.
    static bool read1_goes_with_read(py::handle file) {
        if (py::hasattr(file, "__dict__")) {
            py::object own = file.attr("__dict__");
            if (py::isinstance<py::dict>(own) && own.cast<py::dict>().contains("read")) return false;
        }
        for (py::handle cls : py::type::handle_of(file).attr("__mro__")) {
            py::object d = cls.attr("__dict__");
            if (PyMapping_HasKeyString(d.ptr(), "read")) return PyMapping_HasKeyString(d.ptr(), "read1") != 0;
        }
        return false;
    }
    // read1(n), or read(n) where read1 fails before it ever gave bytes with the error of a
    // read1 that is not there (a BufferedIOBase's that says it is not supported; one that
    // forwards to a text file, which has none; another signature). read1's b'' is asked of
    // read once more: a non-blocking stream's read1 gives b'' where it has nothing yet, its
    // read None (said); b'' from both is the end.
    py::object read_some(std::size_t n) {
        if (read1_) {
            try {
                py::object r = read1_(n);
                if (PyBytes_Check(r.ptr()) && PyBytes_GET_SIZE(r.ptr()) == 0) return read_(n);
                read1_gave_ = true;
                return r;
            } catch (py::error_already_set& e) {
                if (read1_gave_ || !(e.matches(PyExc_AttributeError) || e.matches(PyExc_TypeError) ||
                                     e.matches(py::module_::import("io").attr("UnsupportedOperation"))))
                    throw;
                read1_ = py::object();
            }
        }
        return read_(n);
    }
    logscan::chunk read() {
        try {
            py::object r = read_some(std::size_t{1} << 18);
            if (py::isinstance<py::str>(r)) {
                failure_ = "read() returned str: open the file in binary mode ('rb')";
                done_ = true;
                return {{}, logscan::error_code::io_error, 0};
            }
            if (r.is_none()) { // (a non-blocking stream with nothing to read now)
                failure_ = "read() returned None: a non-blocking stream cannot be read";
                done_ = true;
                return {{}, logscan::error_code::io_error, 0};
            }
            if (!PyObject_CheckBuffer(r.ptr())) {
                failure_ = std::string("read() returned ") + Py_TYPE(r.ptr())->tp_name + ", not bytes";
                done_ = true;
                return {{}, logscan::error_code::io_error, 0};
            }
            with_buffer(r, [&](std::string_view b) { buf_.assign(b); });
            if (buf_.empty()) {
                done_ = true;
                return {};
            }
            return {buf_, logscan::error_code::none, 0};
        } catch (py::error_already_set& e) {
            error_.emplace(std::move(e));
            done_ = true;
            return {{}, logscan::error_code::io_error, 0};
        } catch (const std::exception& e) {
            failure_ = e.what();
            done_ = true;
            return {{}, logscan::error_code::io_error, 0};
        }
    }

    py::object read_, read1_;
    std::string buf_;
    bool done_ = false, read1_gave_ = false;
    std::optional<py::error_already_set> error_;
    std::string failure_;
};

// `Inner` as the command reads an input: decompressed when it is gzip, read as UTF-8 when it
// is UTF-16 with its byte order mark (logscan/utf16.hpp).
template <class Inner>
class gz_over final : public any_source {
public:
    template <class... A>
    explicit gz_over(A&&... a) : inner_(std::forward<A>(a)...), gz_(inner_), text_(gz_) {}
    logscan::chunk next() override { return text_.next(); }
    bool gzip() const noexcept override { return gz_.gzip(); }
    Inner& inner() { return inner_; }

private:
    Inner inner_;
    logscan::maybe_gzip_source<Inner> gz_;
    logscan::maybe_utf16_source<logscan::maybe_gzip_source<Inner>> text_;
};

// What the caller passed, resolved by the package (logscan/__init__.py): ("path", the path's
// bytes, os.fsencode), ("bytes", a buffer), ("file", an object with read).
class input {
public:
    input(const std::string& kind, py::object obj) : obj_(obj) {
        if (kind == "path") {
            path_ = obj.cast<std::string>(); // (bytes: any file name the system has)
            filename_ = py::reinterpret_steal<py::object>(
                PyUnicode_DecodeFSDefaultAndSize(path_.data(), static_cast<Py_ssize_t>(path_.size())));
            if (!filename_) throw py::error_already_set();
            name_ = display(path_);
            src_ = std::make_unique<gz_over<logscan::file_source>>(path_.c_str());
        } else if (kind == "bytes") {
            name_ = "<bytes>";
            std::string_view b;
            if (PyBytes_Check(obj.ptr())) { // (immutable: held, not copied)
                keep_ = obj;
                b = std::string_view(PyBytes_AS_STRING(obj.ptr()), static_cast<std::size_t>(PyBytes_GET_SIZE(obj.ptr())));
            } else { // (a mutable buffer may change while parsing: copied)
                with_buffer(obj, [&](std::string_view v) { bytes_.assign(v); });
                b = bytes_;
            }
            src_ = std::make_unique<gz_over<sliced_memory_source>>(b);
        } else {
            name_ = "<file>";
            py::object n = py::getattr(obj, "name", py::none());
            if (py::isinstance<py::str>(n)) name_ = n.cast<std::string>();
            auto f = std::make_unique<gz_over<pyfile_source>>(obj);
            file_ = &f->inner();
            src_ = std::move(f);
        }
    }
    input(const input&) = delete;
    input& operator=(const input&) = delete;
    ~input() {
        py::gil_scoped_acquire gil;
        src_.reset();
        obj_ = py::object();
        keep_ = py::object();
        filename_ = py::object();
    }

    // The input's name in messages (a path as the system gives it, invalid UTF-8 replaced).
    const std::string& name() const { return name_; }
    // The file name for OSError (the path as Python had it), or None.
    py::object filename() const { return filename_ ? filename_ : py::object(py::str(name_)); }
    // True when the input was found to be gzip.
    bool gzip() const noexcept { return src_->gzip(); }

    // Reads the head (GIL released by the caller or not: a file-like takes it itself).
    // A failure after some bytes (a cut gzip stream) is not one yet: those bytes are read
    // first, then it (replay_source::end).
    logscan::error read_head() {
        const logscan::error e = logscan::read_head(*src_, head_, more_);
        if (e.ok() || head_.empty()) return e;
        head_error_ = e;
        head_failure_ = logscan::head_failure(e);
        return {};
    }
    // The failure that cut the head short (none: it did not), for where no format is told
    // from those bytes: the failure, not "empty" or "not recognised", is what to say.
    const logscan::error& head_error() const noexcept { return head_error_; }
    // The bytes read as the head.
    std::size_t head_size() const noexcept { return head_.size(); }
    // The bytes read as the head.
    std::string_view head() const noexcept { return head_; }
    // What detection reads of the head, and whether more of the input follows it.
    std::string_view window() const noexcept { return logscan::detect_window(head_, more_).window; }
    bool cut() const noexcept { return logscan::detect_window(head_, more_).cut; }
    // True when no record need come of the input read as `format`: its head is blank, or shows
    // the format's signals (an empty document of the format; registry.hpp's none_of_format).
    bool may_be_empty(std::string_view format) const noexcept {
        return logscan::blank_input(head_) || logscan::shows_format(window(), format, cut());
    }
    // The format the head looks like when it looks nothing like `format` (detect.hpp's
    // looks_like_instead), else empty.
    std::string_view looks_like_instead(std::string_view format) const noexcept {
        return logscan::looks_like_instead(window(), format, cut());
    }
    // True when the whole input is in the head, read without failure, and holds only blanks
    // (an empty input).
    bool blank() const noexcept { return !more_ && head_error_.ok() && logscan::blank_input(head_); }
    // The format named by the head (empty: unknown); `blank`: the input holds only blanks.
    std::string_view detect(bool& blank) const {
        blank = this->blank();
        return logscan::detect_format(window(), cut()).format;
    }
    // The whole input: the head, then the rest.
    logscan::chunk next() {
        if (!replay_) replay_.emplace(logscan::replay_source<any_source>{head_, *src_, false, !more_, head_failure_});
        const logscan::chunk c = replay_->next();
        tail_.see(c);
        return c;
    }
    // True when the input has been read to its end and ends inside a line, and is lines (not a
    // JSON document): the record read from its last line may be cut short (cut_line_message).
    bool ends_inside_line() const noexcept { return tail_.ends_inside_line() && !blank() && !logscan::json_document(head_); }
    // Raises the Python exception a file-like's read() raised (GIL held); `note`, when given
    // and the exception is a failure of the data (python_data_failure), is added to it (PEP
    // 678's add_note, where the Python has it; once).
    void raise_python_error(const char* note = nullptr) {
        if (file_ == nullptr) return;
        if (file_->python_error()) {
            const bool data = python_data_failure();
            py::error_already_set e = std::move(*file_->python_error());
            file_->python_error().reset();
            if (note != nullptr && data && py::hasattr(e.value(), "add_note")) {
                const py::object notes = py::getattr(e.value(), "__notes__", py::list());
                if (!py::bool_(notes.attr("__contains__")(note))) e.value().attr("add_note")(note);
            }
            throw e;
        }
        if (!file_->failure().empty()) throw py::type_error(file_->failure());
    }
    // True when a file-like's read() raised a failure of its data or its device (OSError,
    // EOFError: a cut or corrupt compressed stream, a read error; lzma's and zlib's own
    // errors), which partial=True keeps the records before; false for any other exception
    // (KeyboardInterrupt, MemoryError, a bug in the object: raised as it was) or none.
    bool python_data_failure() const {
        if (file_ == nullptr || !file_->python_error()) return false;
        const py::error_already_set& e = *file_->python_error();
        if (e.matches(PyExc_OSError) || e.matches(PyExc_EOFError)) return true;
        for (const auto& [module, name] : {std::pair{"lzma", "LZMAError"}, std::pair{"zlib", "error"}}) {
            try {
                if (e.matches(py::module_::import(module).attr(name))) return true;
            } catch (py::error_already_set&) { // (no such module here)
            }
        }
        return false;
    }
    // The failure of the data a file-like's read() raised, in words (`read1() raised EOFError:
    // Compressed file ended ...`), taken (no longer raised), or empty (none, or another
    // exception: raise_python_error raises it); GIL held.
    std::string take_python_error() {
        if (!python_data_failure()) return {};
        py::error_already_set& e = *file_->python_error();
        std::string what = std::string(file_->raised_by()) + " raised " + py::str(e.type().attr("__name__")).cast<std::string>();
        try {
            if (const std::string v = py::str(e.value()).cast<std::string>(); !v.empty()) what += ": " + v;
        } catch (py::error_already_set&) { // (an exception whose str() fails: its type's name)
        }
        file_->python_error().reset();
        return what;
    }

private:
    static std::string display(const std::string& path) {
        PyObject* u = PyUnicode_DecodeUTF8(path.data(), static_cast<Py_ssize_t>(path.size()), "replace");
        if (u == nullptr) {
            PyErr_Clear();
            return path;
        }
        std::string out = py::reinterpret_steal<py::str>(u).cast<std::string>();
        return out;
    }
    py::object obj_, keep_, filename_;
    std::string name_, path_, bytes_, head_;
    bool more_ = true;
    logscan::error head_error_{};    // (the source's failure while the head was read, after some bytes)
    logscan::chunk head_failure_{}; // (what follows the head then)
    std::unique_ptr<any_source> src_;
    pyfile_source* file_ = nullptr;
    std::optional<logscan::replay_source<any_source>> replay_;
    logscan::input_tail tail_; // (how the input ends, as next() hands it out)
};

} // namespace logscan_py

#endif
