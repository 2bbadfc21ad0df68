// SPDX-License-Identifier: MIT
// The Python module's two record writers. Each takes the calls of logscan's NDJSON writer
// (begin, key, value, raw_value, begin_object, ... : what every format's generic
// `records::ndjson<W>` visitor makes, record.hpp), so records become Python objects the way
// the NDJSON contract writes them, with no code per record type:
// - tape: the calls recorded compactly (GIL released), then made into dicts (GIL held):
//   `records()`;
// - columns (columns.hpp, no Python there): one table per record type, a column per
//   flattened key as the CSV writer names them (nested objects as dotted names, arrays as
//   their JSON text), each cell typed; then numpy arrays per column (GIL held): `frames()`.
// A JSON text in a record (`raw_value`: Chrome trace args, parameters) is replayed as the
// calls of its values (json::replayer) while parsing, into either.
// Values follow the NDJSON writer (logscan/ndjson.hpp): a non-finite double is null; a value
// printed as text (`number_or_string`) a number when the whole text is one, an integer beyond
// 64 bits exact, a double beyond range null; JSON text (`raw_value`) as json.loads reads it.
#ifndef LOGSCAN_PYTHON_WRITERS_HPP
#define LOGSCAN_PYTHON_WRITERS_HPP

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "columns.hpp"

namespace logscan_py {

namespace py = pybind11;

// A new reference as an object (a null one: the Python error raised).
inline py::object steal(PyObject* o) {
    if (o == nullptr) throw py::error_already_set();
    return py::reinterpret_steal<py::object>(o);
}
// A JSON number token as json.loads reads it: an int when it has no fraction or exponent
// (exact, any size), else a float (beyond range: inf).
inline py::object json_number_object(std::string_view t) {
    const bool word = t.find_first_of("NI") != std::string_view::npos; // (NaN, Infinity, -Infinity)
    if (!word && t.find_first_of(".eE") == std::string_view::npos) {
        const auto n = logscan::parse_number<std::int64_t>(t);
        if (n.ok()) return steal(PyLong_FromLongLong(n.value));
        const std::string s(t);
        return steal(PyLong_FromString(s.c_str(), nullptr, 10));
    }
    const std::string s(t);
    const double d = PyOS_string_to_double(s.c_str(), nullptr, nullptr);
    if (d == -1.0 && PyErr_Occurred()) throw py::error_already_set();
    return steal(PyFloat_FromDouble(d));
}

// UTF-8 text as a str; invalid bytes replaced by U+FFFD as the NDJSON writer does (one per
// maximal ill-formed subpart, which is what Python's "replace" handler gives too).
inline py::object str_object(std::string_view s) {
    PyObject* o = PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "replace");
    if (o == nullptr) throw py::error_already_set();
    return py::reinterpret_steal<py::object>(o);
}

// The str objects of texts seen lately, found by the text's hash (one slot per hash: a text
// whose slot another took is made again): repeated keys and values become one object each,
// in bounded memory and one probe. GIL held.
template <std::size_t Slots>
class str_cache {
    static_assert((Slots & (Slots - 1)) == 0, "a power of two");

public:
    py::object get(std::string_view s) {
        const std::uint64_t h = hash_text(s);
        slot& x = slots_[h & (Slots - 1)];
        if (x.hash == h && x.object && same_text(x.text, s)) return x.object;
        x.object = str_object(s);
        x.hash = h;
        x.text.assign(s);
        return x.object;
    }

private:
    struct slot {
        std::uint64_t hash = 0;
        std::string text; // (the bytes it was made of: invalid UTF-8 is replaced in the str)
        py::object object;
    };
    std::unique_ptr<slot[]> slots_{new slot[Slots]};
};

// ---------------------------------------------------------------------------------------
// A tape's bytes: appended inline (a compare and a copy; std::string's append and push_back
// were calls, 9% of records()' instructions on a TVM report), grown by doubling.
class byte_buffer {
public:
    byte_buffer() { grow(1); } // (never null: a copy of no bytes has somewhere to go)
    byte_buffer(const byte_buffer&) = delete;
    byte_buffer& operator=(const byte_buffer&) = delete;
    ~byte_buffer() { std::free(p_); }
    LOGSCAN_FORCE_INLINE void append(const void* b, std::size_t n) {
        if (cap_ - size_ < n) [[unlikely]] grow(n);
        std::memcpy(p_ + size_, b, n);
        size_ += n;
    }
    LOGSCAN_FORCE_INLINE void push_back(char c) {
        if (cap_ == size_) [[unlikely]] grow(1);
        p_[size_++] = c;
    }
    char* data() noexcept { return p_; }
    const char* data() const noexcept { return p_; }
    std::size_t size() const noexcept { return size_; }
    void clear() noexcept { size_ = 0; }
    void shrink_to(std::size_t n) noexcept { size_ = n < size_ ? n : size_; } // (a replay undone)

private:
    void grow(std::size_t n) {
        std::size_t cap = cap_ == 0 ? 1 << 16 : cap_ * 2;
        while (cap - size_ < n) cap *= 2;
        char* const p = static_cast<char*>(std::realloc(p_, cap));
        if (p == nullptr) throw std::bad_alloc();
        p_ = p;
        cap_ = cap;
    }
    char* p_ = nullptr;
    std::size_t size_ = 0, cap_ = 0;
};

// ---------------------------------------------------------------------------------------
// tape: the writer calls of a batch of records, replayed as dicts.
class tape {
public:
    explicit tape(const type_set& wanted) : wanted_(wanted) {}
    logscan::yield_tally seen; // every record, wanted or not
    std::size_t records() const noexcept { return records_; }
    std::size_t bytes() const noexcept { return ops_.size(); }
    void clear() noexcept {
        ops_.clear();
        read_ = 0;
        records_ = 0;
    }

    // --- the NDJSON writer's calls
    void begin(std::string_view type) { // (a record type's name: in static storage)
        seen.count(type);
        on_ = wanted_.wants(type);
        if (!on_) return;
        put_op(op::begin);
        put_static(type);
        open_.clear();
        open_keys();
    }
    void begin(std::string_view type, std::uint64_t line) {
        begin(type);
        if (!on_) return;
        put_op(op::static_key);
        put_static("line");
        count_key();
        put_op(op::uinteger);
        put_pod(line);
    }
    void end() {
        if (!on_) return;
        close_keys();
        put_op(op::end);
        ++records_;
    }
    void key(std::string_view k) {
        if (!on_) return;
        put_text(op::key, k);
        count_key();
    }
    // A declared field's name (record.hpp's write_fields): in static storage, so its address
    // is kept, not its text.
    void field_key(std::string_view k) {
        if (!on_) return;
        put_op(op::static_key);
        put_static(k);
        count_key();
    }
    template <class T>
    void field(std::string_view k, const T& v) {
        key(k);
        value(v);
    }
    void value(std::string_view s) {
        if (on_) put_text(op::string, s);
    }
    void value(const char* s) { value(std::string_view(s)); }
    void value(std::nullptr_t) {
        if (on_) put_op(op::null);
    }
    void value(bool b) {
        if (on_) put_op(b ? op::true_ : op::false_);
    }
    template <class T>
        requires(std::is_integral_v<T> && !std::is_same_v<T, bool>)
    void value(T v) {
        if (!on_) return;
        if constexpr (std::is_signed_v<T>) {
            put_op(op::integer);
            put_pod(static_cast<std::int64_t>(v));
        } else {
            put_op(op::uinteger);
            put_pod(static_cast<std::uint64_t>(v));
        }
    }
    void value(double v) {
        if (!on_) return;
        if (!std::isfinite(v)) return put_op(op::null);
        put_op(op::floating);
        put_pod(v);
    }
    void value(float v) { value(static_cast<double>(v)); }
    void value(const logscan::number& n) {
        if (n.is_integer()) value(n.integer);
        else value(n.floating);
    }
    void number_or_string(std::string_view t, bool grouped = false) {
        if (on_) put_text(grouped ? op::loose_grouped : op::loose, t);
    }
    // JSON text: replayed into the tape as values (json::replay), read as json.loads reads it.
    void raw_value(std::string_view j) {
        if (!on_) return;
        const std::size_t at = ops_.size(), depth = open_.size();
        if (!replay_(j, *this).ok()) { // (the modules hand out checked JSON only)
            ops_.shrink_to(at);
            open_.resize(depth);
            put_text(op::string, j);
        }
    }
    // A number token of a JSON text.
    void json_number(std::string_view t) {
        if (on_) put_text(op::number_token, t);
    }
    // A number as the reader read it: its value kept when it is one json.loads makes the same
    // (an int64, a finite-syntax float: both read exactly, correctly rounded), else its token.
    void json_number(const logscan::json::number& n) {
        if (!on_) return;
        if (n.is_finite()) {
            if (!n.is_integer()) {
                put_op(op::floating); // (as read: an overflow's infinity too, as json.loads makes it)
                put_pod(n.to_double());
                return;
            }
            if (const auto v = n.to_int64()) {
                put_op(op::integer);
                put_pod(*v);
                return;
            }
        }
        put_text(op::number_token, n.text());
    }
    void begin_array() {
        if (on_) put_op(op::array_begin);
    }
    void end_array() {
        if (on_) put_op(op::array_end);
    }
    void begin_object() {
        if (!on_) return;
        put_op(op::object_begin);
        open_keys();
    }
    void end_object() {
        if (!on_) return;
        close_keys();
        put_op(op::object_end);
    }

    // The batch's next record as a dict, or a null object when the batch is read (GIL held).
    // One dict at a time: a record the caller drops dies young, as json.loads's do, so the
    // garbage collector never sees a batch of live dicts (it promoted them and then walked the
    // whole heap: 40% of records()' time with pandas loaded, 2026-12-03).
    py::object next_record() {
        const char* p = ops_.data() + read_;
        const char* const e = ops_.data() + ops_.size();
        const auto put = [&](py::object v) {
            py::handle top = stack_.back();
            if (PyList_Check(top.ptr())) {
                if (PyList_Append(top.ptr(), v.ptr()) != 0) throw py::error_already_set();
            } else if (PyDict_SetItem(top.ptr(), keys_of_.back().ptr(), v.ptr()) != 0) {
                throw py::error_already_set();
            }
        };
        while (p < e) {
            const auto o = static_cast<op>(*p++);
            switch (o) {
            case op::begin: {
                const std::string_view t = take_static(p);
                stack_.clear();
                keys_of_.clear();
                stack_.push_back(sized_dict(take_pod<std::uint32_t>(p) + 1)); // (+ "type")
                keys_of_.emplace_back();
                static constexpr std::string_view type_key = "type";
                if (PyDict_SetItem(stack_.back().ptr(), static_object(type_key).ptr(), static_object(t).ptr()) != 0)
                    throw py::error_already_set();
                break;
            }
            case op::end: {
                read_ = static_cast<std::size_t>(p - ops_.data());
                py::object r = std::move(stack_.front());
                stack_.clear();
                keys_of_.clear();
                return r;
            }
            case op::key: keys_of_.back() = key_object(take_text(p)); break;
            case op::static_key: keys_of_.back() = static_object(take_static(p)); break;
            case op::string: put(value_object(take_text(p))); break;
            case op::null: put(py::none()); break;
            case op::true_: put(py::bool_(true)); break;
            case op::false_: put(py::bool_(false)); break;
            case op::integer: put(steal(PyLong_FromLongLong(take_pod<std::int64_t>(p)))); break;
            case op::uinteger: put(steal(PyLong_FromUnsignedLongLong(take_pod<std::uint64_t>(p)))); break;
            case op::floating: put(steal(PyFloat_FromDouble(take_pod<double>(p)))); break;
            case op::loose:
            case op::loose_grouped: {
                const std::string_view t = take_text(p);
                const loose l = read_loose(t, o == op::loose_grouped);
                switch (l.kind) {
                case loose::integer: put(steal(PyLong_FromLongLong(l.i))); break;
                case loose::floating: put(steal(PyFloat_FromDouble(l.d))); break;
                case loose::big_integer: put(steal(PyLong_FromString(l.digits.c_str(), nullptr, 10))); break;
                case loose::null: put(py::none()); break;
                case loose::text: put(str_object(t)); break;
                }
                break;
            }
            case op::number_token: put(json_number_object(take_text(p))); break;
            case op::array_begin:
            case op::object_begin: {
                py::object c = o == op::array_begin ? py::object(py::list()) : sized_dict(take_pod<std::uint32_t>(p));
                put(c);
                stack_.push_back(std::move(c));
                keys_of_.emplace_back();
                break;
            }
            case op::array_end:
            case op::object_end:
                stack_.pop_back();
                keys_of_.pop_back();
                break;
            }
        }
        read_ = ops_.size();
        return py::object();
    }

private:
    enum class op : char {
        begin, end, key, static_key, string, null, true_, false_, integer, uinteger, floating, loose, loose_grouped, number_token,
        array_begin, array_end, object_begin, object_end
    };
    void put_op(op o) { ops_.push_back(static_cast<char>(o)); }
    // A record's or an object's number of keys, written after its op when it closes: next_record
    // makes each dict at its final size (a dict made empty grows 8 -> 16 -> 32 slots, rehashing
    // each time, as a TVM call's 15 cells fill it).
    void open_keys() {
        open_.push_back(ops_.size());
        put_pod(std::uint32_t{0});
    }
    void count_key() {
        if (open_.empty()) return;
        char* const c = ops_.data() + open_.back();
        std::uint32_t n;
        std::memcpy(&n, c, sizeof n);
        ++n;
        std::memcpy(c, &n, sizeof n);
    }
    void close_keys() {
        if (!open_.empty()) open_.pop_back();
    }
    static py::object sized_dict(std::uint32_t keys) {
#if PY_VERSION_HEX < 0x030E0000
        return steal(_PyDict_NewPresized(static_cast<Py_ssize_t>(keys)));
#else
        (void)keys;
        return py::dict();
#endif
    }
    template <class T>
    void put_pod(T v) {
        char b[sizeof(T)];
        std::memcpy(b, &v, sizeof(T));
        ops_.append(b, sizeof(T));
    }
    void put_text_only(std::string_view s) {
        put_pod(static_cast<std::uint64_t>(s.size()));
        ops_.append(s.data(), s.size());
    }
    void put_text(op o, std::string_view s) {
        put_op(o);
        put_text_only(s);
    }
    template <class T>
    static T take_pod(const char*& p) {
        T v;
        std::memcpy(&v, p, sizeof(T));
        p += sizeof(T);
        return v;
    }
    static std::string_view take_text(const char*& p) {
        const auto n = take_pod<std::uint64_t>(p);
        const std::string_view s(p, static_cast<std::size_t>(n));
        p += n;
        return s;
    }
    void put_static(std::string_view s) {
        put_pod(s.data());
        put_pod(static_cast<std::uint64_t>(s.size()));
    }
    static std::string_view take_static(const char*& p) {
        const char* a = take_pod<const char*>(p);
        return {a, static_cast<std::size_t>(take_pod<std::uint64_t>(p))};
    }
    // Keys repeat: one str object each, found by their text.
    py::object key_object(std::string_view k) { return keys_.get(k); }
    // A text in static storage (a field's name, a record type): found by its address first.
    py::object static_object(std::string_view k) {
        static_slot& s = static_cache_[(reinterpret_cast<std::uintptr_t>(k.data()) >> 3) % std::size(static_cache_)];
        if (s.text.data() != k.data() || s.text.size() != k.size()) s = {k, key_object(k)};
        return s.object;
    }
    // Short string values repeat too (a device, an operator's name).
    py::object value_object(std::string_view v) {
        if (v.size() > 48) return str_object(v);
        return values_.get(v);
    }

    const type_set& wanted_;
    byte_buffer ops_;
    std::size_t read_ = 0; // (next_record's place in ops_)
    std::size_t records_ = 0;
    std::vector<py::object> stack_;   // (next_record's open containers: the record, objects, arrays)
    std::vector<py::object> keys_of_; // (the pending key of each)
    std::vector<std::size_t> open_;   // (where the key count of each open record or object is, in ops_)
    bool on_ = false;
    str_cache<1024> keys_;
    str_cache<8192> values_;
    struct static_slot {
        std::string_view text;
        py::object object;
    };
    static_slot static_cache_[256];
    logscan::json::replayer<tape> replay_; // (one reader's storage for every JSON text)
};

} // namespace logscan_py

#endif
