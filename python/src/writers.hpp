// SPDX-License-Identifier: MIT
// The Python module's two record writers. Each takes the calls of logscan's NDJSON writer
// (begin, key, value, raw_value, begin_object, ... : what every format's generic
// `records::ndjson<W>` visitor makes, record.hpp), so records become Python objects the way
// the NDJSON contract writes them, with no code per record type:
// - tape: the calls recorded compactly (GIL released), then made into dicts (GIL held):
//   `records()`;
// - columns: one table per record type, a column per flattened key as the CSV writer names
//   them (nested objects as dotted names, arrays as their JSON text), each cell typed; then
//   numpy arrays per column (GIL held): `frames()`.
// A JSON text in a record (`raw_value`: Chrome trace args, parameters) is replayed as the
// calls of its values (json::replay) while parsing, into either.
// Values follow the NDJSON writer (logscan/ndjson.hpp): a non-finite double is null; a value
// printed as text (`number_or_string`) a number when the whole text is one, an integer beyond
// 64 bits exact, a double beyond range null; JSON text (`raw_value`) as json.loads reads it.
#ifndef LOGSCAN_PYTHON_WRITERS_HPP
#define LOGSCAN_PYTHON_WRITERS_HPP

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <logscan/json.hpp>
#include <logscan/ndjson.hpp>
#include <logscan/num.hpp>
#include <logscan/utf8.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <algorithm>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace logscan_py {

namespace py = pybind11;

// The record types a caller asked for (empty: all).
struct type_set {
    std::vector<std::string> types;
    bool wants(std::string_view t) const {
        if (types.empty()) return true;
        for (const std::string& x : types)
            if (x == t) return true;
        return false;
    }
};

// A value printed as text, read as the NDJSON writer writes it (ndjson_writer::number_or_string).
struct loose {
    enum kind_t { integer, floating, big_integer, null, text } kind;
    std::int64_t i = 0;
    double d = 0;
    std::string digits; // big_integer: the exact digits (sign included)
};
inline loose read_loose(std::string_view text, bool grouped) {
    const auto n = grouped ? logscan::parse_grouped_value(text) : logscan::parse_number_value(text);
    if (n.ok()) {
        if (n.value.is_integer()) return {loose::integer, n.value.integer, 0, {}};
        return {loose::floating, 0, n.value.floating, {}};
    }
    if (n.ec == std::errc::result_out_of_range && n.value.is_integer()) {
        loose l{loose::big_integer, 0, 0, {}};
        std::size_t i = 0;
        if (text[0] == '-') l.digits += '-';
        if (text[0] == '-' || text[0] == '+') ++i;
        while (i + 1 < text.size() && text[i] == '0') ++i;
        for (; i < text.size(); ++i)
            if (text[i] != ',') l.digits += text[i];
        return l;
    }
    if (n.ec == std::errc::result_out_of_range) return {loose::null, 0, 0, {}};
    return {loose::text, 0, 0, {}};
}

// A JSON number token as json.loads reads it: an int when it has no fraction or exponent
// (exact, any size), else a float (beyond range: inf).
inline py::object steal(PyObject* o) {
    if (o == nullptr) throw py::error_already_set();
    return py::reinterpret_steal<py::object>(o);
}
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

// Strings interned: each distinct string once, known by its code (its index).
class string_pool {
public:
    std::int64_t code(std::string_view s) {
        if (slots_.empty() || 2 * (strings_.size() + 1) > slots_.size()) grow();
        std::size_t i = std::hash<std::string_view>{}(s) & (slots_.size() - 1);
        for (;;) {
            const std::int32_t c = slots_[i];
            if (c < 0) break;
            if (strings_[static_cast<std::size_t>(c)] == s) return c;
            i = (i + 1) & (slots_.size() - 1);
        }
        const auto c = static_cast<std::int32_t>(strings_.size());
        strings_.emplace_back(s);
        slots_[i] = c;
        return c;
    }
    const std::vector<std::string>& strings() const noexcept { return strings_; }
    std::size_t size() const noexcept { return strings_.size(); }
    void clear() noexcept {
        strings_.clear();
        slots_.clear();
    }

private:
    void grow() {
        std::vector<std::int32_t> s(slots_.empty() ? 64 : slots_.size() * 2, -1);
        for (std::size_t c = 0; c < strings_.size(); ++c) {
            std::size_t i = std::hash<std::string_view>{}(strings_[c]) & (s.size() - 1);
            while (s[i] >= 0) i = (i + 1) & (s.size() - 1);
            s[i] = static_cast<std::int32_t>(c);
        }
        slots_.swap(s);
    }
    std::vector<std::string> strings_;
    std::vector<std::int32_t> slots_;
};

// ---------------------------------------------------------------------------------------
// tape: the writer calls of a batch of records, replayed as dicts.
class tape {
public:
    explicit tape(const type_set& wanted) : wanted_(wanted) {}
    std::size_t records() const noexcept { return records_; }
    std::size_t bytes() const noexcept { return ops_.size(); }
    void clear() noexcept {
        ops_.clear();
        records_ = 0;
    }

    // --- the NDJSON writer's calls
    void begin(std::string_view type) { // (a record type's name: in static storage)
        on_ = wanted_.wants(type);
        if (!on_) return;
        put_op(op::begin);
        put_static(type);
    }
    void begin(std::string_view type, std::uint64_t line) {
        begin(type);
        if (!on_) return;
        put_op(op::static_key);
        put_static("line");
        put_op(op::uinteger);
        put_pod(line);
    }
    void end() {
        if (!on_) return;
        put_op(op::end);
        ++records_;
    }
    void key(std::string_view k) {
        if (on_) put_text(op::key, k);
    }
    // A declared field's name (record.hpp's write_fields): in static storage, so its address
    // is kept, not its text.
    void field_key(std::string_view k) {
        if (!on_) return;
        put_op(op::static_key);
        put_static(k);
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
        const std::size_t at = ops_.size();
        if (!logscan::json::replay(j, *this).ok()) { // (the modules hand out checked JSON only)
            ops_.resize(at);
            put_text(op::string, j);
        }
    }
    // A number token of a JSON text.
    void json_number(std::string_view t) {
        if (on_) put_text(op::number_token, t);
    }
    void begin_array() {
        if (on_) put_op(op::array_begin);
    }
    void end_array() {
        if (on_) put_op(op::array_end);
    }
    void begin_object() {
        if (on_) put_op(op::object_begin);
    }
    void end_object() {
        if (on_) put_op(op::object_end);
    }

    // Appends the batch's records to `out` as dicts (GIL held).
    void to_python(py::list& out) {
        const char* p = ops_.data();
        const char* const e = p + ops_.size();
        std::vector<py::object> stack; // open containers: the record, objects, arrays
        std::vector<py::object> keys;  // the pending key of each
        const auto put = [&](py::object v) {
            py::handle top = stack.back();
            if (PyList_Check(top.ptr())) PyList_Append(top.ptr(), v.ptr());
            else if (PyDict_SetItem(top.ptr(), keys.back().ptr(), v.ptr()) != 0) throw py::error_already_set();
        };
        while (p < e) {
            const auto o = static_cast<op>(*p++);
            switch (o) {
            case op::begin: {
                const std::string_view t = take_static(p);
                stack.clear();
                keys.clear();
                stack.push_back(py::dict());
                keys.emplace_back();
                static constexpr std::string_view type_key = "type";
                PyDict_SetItem(stack.back().ptr(), static_object(type_key).ptr(), static_object(t).ptr());
                break;
            }
            case op::end:
                out.append(stack.front());
                stack.clear();
                keys.clear();
                break;
            case op::key: keys.back() = key_object(take_text(p)); break;
            case op::static_key: keys.back() = static_object(take_static(p)); break;
            case op::string: put(value_object(take_text(p))); break;
            case op::null: put(py::none()); break;
            case op::true_: put(py::bool_(true)); break;
            case op::false_: put(py::bool_(false)); break;
            case op::integer: put(py::reinterpret_steal<py::object>(PyLong_FromLongLong(take_pod<std::int64_t>(p)))); break;
            case op::uinteger:
                put(py::reinterpret_steal<py::object>(PyLong_FromUnsignedLongLong(take_pod<std::uint64_t>(p))));
                break;
            case op::floating: put(py::reinterpret_steal<py::object>(PyFloat_FromDouble(take_pod<double>(p)))); break;
            case op::loose:
            case op::loose_grouped: {
                const std::string_view t = take_text(p);
                const loose l = read_loose(t, o == op::loose_grouped);
                switch (l.kind) {
                case loose::integer: put(py::reinterpret_steal<py::object>(PyLong_FromLongLong(l.i))); break;
                case loose::floating: put(py::reinterpret_steal<py::object>(PyFloat_FromDouble(l.d))); break;
                case loose::big_integer:
                    put(steal(PyLong_FromString(l.digits.c_str(), nullptr, 10)));
                    break;
                case loose::null: put(py::none()); break;
                case loose::text: put(str_object(t)); break;
                }
                break;
            }
            case op::number_token: put(json_number_object(take_text(p))); break;
            case op::array_begin:
            case op::object_begin: {
                py::object c = o == op::array_begin ? py::object(py::list()) : py::object(py::dict());
                put(c);
                stack.push_back(std::move(c));
                keys.emplace_back();
                break;
            }
            case op::array_end:
            case op::object_end:
                stack.pop_back();
                keys.pop_back();
                break;
            }
        }
    }

private:
    enum class op : char {
        begin, end, key, static_key, string, null, true_, false_, integer, uinteger, floating, loose, loose_grouped, number_token,
        array_begin, array_end, object_begin, object_end
    };
    void put_op(op o) { ops_.push_back(static_cast<char>(o)); }
    template <class T>
    void put_pod(T v) {
        char b[sizeof(T)];
        std::memcpy(b, &v, sizeof(T));
        ops_.append(b, sizeof(T));
    }
    void put_text_only(std::string_view s) {
        put_pod(static_cast<std::uint64_t>(s.size()));
        ops_.append(s);
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
    py::object key_object(std::string_view k) {
        if (key_pool_.size() >= 65536) { // (map keys of every row distinct: made afresh past that)
            key_pool_.clear();
            key_objects_.clear();
        }
        const auto c = static_cast<std::size_t>(key_pool_.code(k));
        if (c == key_objects_.size()) key_objects_.push_back(str_object(k));
        return key_objects_[c];
    }
    // A text in static storage (a field's name, a record type): found by its address first.
    py::object static_object(std::string_view k) {
        static_slot& s = static_cache_[(reinterpret_cast<std::uintptr_t>(k.data()) >> 3) % std::size(static_cache_)];
        if (s.text.data() != k.data() || s.text.size() != k.size()) s = {k, key_object(k)};
        return s.object;
    }
    // Short string values repeat too (a device, an operator's name): one str object each,
    // up to 65536 of them (then they are made afresh).
    py::object value_object(std::string_view v) {
        if (v.size() > 48) return str_object(v);
        if (value_pool_.size() >= 65536) {
            value_pool_.clear();
            value_objects_.clear();
        }
        const auto c = static_cast<std::size_t>(value_pool_.code(v));
        if (c == value_objects_.size()) value_objects_.push_back(str_object(v));
        return value_objects_[c];
    }

    const type_set& wanted_;
    std::string ops_;
    std::size_t records_ = 0;
    bool on_ = false;
    string_pool key_pool_, value_pool_;
    std::vector<py::object> key_objects_, value_objects_;
    struct static_slot {
        std::string_view text;
        py::object object;
    };
    static_slot static_cache_[256];
};

// ---------------------------------------------------------------------------------------
// columns: one table per record type.

// A cell's kind; a column remembers which kinds it holds.
enum class cell : std::uint8_t { null, integer, uinteger, floating, boolean, string, big_integer };

// A column's cells, in blocks (256 cells, then twice as many each block up to 65536): cells
// are appended without moving the earlier ones (no copy on growth, each byte touched once).
struct column {
    std::string name;
    string_pool pool;  // the column's strings: a string cell's value is its code
    unsigned seen = 0; // bit per cell kind present (counts_ says how many)

    std::size_t size() const noexcept { return size_; }
    void pad_to(std::size_t rows) {
        while (size_ < rows) push(cell::null, 0);
    }
    // Row `row`'s cell (a key given twice in one record: the last stands, as in json.loads and
    // the CSV writer).
    void set(std::size_t row, cell k, std::int64_t v) {
        if (size_ > row) {
            block& b = blocks_.back();
            forget(b.kinds[b.n - 1]);
            b.kinds[b.n - 1] = k;
            b.values[b.n - 1] = v;
            count(k);
        } else {
            push(k, v);
        }
    }
    // Calls f(kind, value) for every cell in order.
    template <class F>
    void for_each(F&& f) const {
        for (const block& b : blocks_)
            for (std::size_t i = 0; i < b.n; ++i) f(b.kinds[i], b.values[i]);
    }
    // Copies every cell's value (an integer column's integers) to `out`.
    void copy_values(std::int64_t* out) const {
        for (const block& b : blocks_) {
            std::memcpy(out, b.values.get(), b.n * sizeof(std::int64_t));
            out += b.n;
        }
    }
    void release() noexcept {
        blocks_.clear();
        blocks_.shrink_to_fit();
        pool = string_pool{};
    }

private:
    struct block {
        std::size_t n = 0, capacity = 0;
        std::unique_ptr<cell[]> kinds;
        std::unique_ptr<std::int64_t[]> values;
    };
    void push(cell k, std::int64_t v) {
        if (blocks_.empty() || blocks_.back().n == blocks_.back().capacity) {
            const std::size_t cap = blocks_.empty() ? 256 : std::min<std::size_t>(blocks_.back().capacity * 2, 65536);
            blocks_.push_back(block{0, cap, std::unique_ptr<cell[]>(new cell[cap]), std::unique_ptr<std::int64_t[]>(new std::int64_t[cap])});
        }
        block& b = blocks_.back();
        b.kinds[b.n] = k;
        b.values[b.n] = v;
        ++b.n;
        ++size_;
        count(k);
    }
    void count(cell k) noexcept {
        ++counts_[static_cast<unsigned>(k)];
        seen |= 1u << static_cast<unsigned>(k);
    }
    void forget(cell k) noexcept {
        if (--counts_[static_cast<unsigned>(k)] == 0) seen &= ~(1u << static_cast<unsigned>(k));
    }
    std::size_t counts_[8] = {};
    std::vector<block> blocks_;
    std::size_t size_ = 0;
};

struct table {
    std::string type;
    std::vector<column> columns;
    std::size_t rows = 0;
    // The columns of the last row, in order: the next row's guess. A top-level key whose text
    // is at the same address as in the last row (a field's name: static) is that column
    // without a compare.
    struct slot {
        const char* key = nullptr;
        std::size_t size = 0, column = 0;
    };
    std::vector<slot> last_order;
};

class columns {
public:
    explicit columns(const type_set& wanted) : wanted_(wanted) {}
    columns(const columns&) = delete;
    columns& operator=(const columns&) = delete;

    std::vector<table>& tables() noexcept { return tables_; }

    // --- the NDJSON writer's calls
    void begin(std::string_view type) {
        on_ = wanted_.wants(type);
        if (!on_) return;
        t_ = &table_of(type);
        prefix_.clear();
        array_depth_ = 0;
        position_ = 0;
    }
    void begin(std::string_view type, std::uint64_t line) {
        begin(type);
        if (!on_) return;
        key_ = "line";
        static_key_ = true;
        put(cell::integer, static_cast<std::int64_t>(line));
    }
    void end() {
        if (!on_) return;
        ++t_->rows;
        t_->last_order.resize(position_);
    }
    void key(std::string_view k) {
        if (!on_) return;
        if (array_depth_ > 0) return json_->key(k);
        if (replaying_) { // (valid during the call only: kept until the value)
            replay_key_.assign(k);
            k = replay_key_;
        }
        key_ = k;
        static_key_ = false;
    }
    // A declared field's name (record.hpp's write_fields): in static storage.
    void field_key(std::string_view k) {
        if (!on_) return;
        if (array_depth_ > 0) return json_->key(k);
        key_ = k;
        static_key_ = true;
    }
    template <class T>
    void field(std::string_view k, const T& v) {
        key(k);
        value(v);
    }
    void value(std::string_view s) {
        if (!on_) return;
        if (array_depth_ > 0) return json_->value(s);
        put_string(cell::string, s);
    }
    void value(const char* s) { value(std::string_view(s)); }
    void value(std::nullptr_t) {
        if (!on_) return;
        if (array_depth_ > 0) return json_->value(nullptr);
        put(cell::null, 0);
    }
    void value(bool b) {
        if (!on_) return;
        if (array_depth_ > 0) return json_->value(b);
        put(cell::boolean, b ? 1 : 0);
    }
    template <class T>
        requires(std::is_integral_v<T> && !std::is_same_v<T, bool>)
    void value(T v) {
        if (!on_) return;
        if (array_depth_ > 0) return json_->value(v);
        if constexpr (std::is_unsigned_v<T>) {
            if (static_cast<std::uint64_t>(v) > static_cast<std::uint64_t>(INT64_MAX))
                return put(cell::uinteger, static_cast<std::int64_t>(static_cast<std::uint64_t>(v)));
        }
        put(cell::integer, static_cast<std::int64_t>(v));
    }
    void value(double v) {
        if (!on_) return;
        if (array_depth_ > 0) return json_->value(v);
        if (!std::isfinite(v)) return put(cell::null, 0);
        put(cell::floating, bits(v));
    }
    void value(float v) { value(static_cast<double>(v)); }
    void value(const logscan::number& n) {
        if (n.is_integer()) value(n.integer);
        else value(n.floating);
    }
    void number_or_string(std::string_view t, bool grouped = false) {
        if (!on_) return;
        if (array_depth_ > 0) return json_->number_or_string(t, grouped);
        const loose l = read_loose(t, grouped);
        switch (l.kind) {
        case loose::integer: return put(cell::integer, l.i);
        case loose::floating: return put(cell::floating, bits(l.d));
        case loose::big_integer: return put_string(cell::big_integer, l.digits);
        case loose::null: return put(cell::null, 0);
        case loose::text: return put_string(cell::string, t);
        }
    }
    // JSON text: its objects flattened into dotted columns, as the CSV writer does.
    void raw_value(std::string_view j) {
        if (!on_) return;
        if (array_depth_ > 0) return json_->raw_value(j);
        // (keys are decoded into the reader's scratch: `key` is told, to keep its own copy)
        replaying_ = true;
        const std::size_t depth = prefix_.size();
        const std::string own_key(key_);
        const bool ok = logscan::json::replay(j, *this).ok();
        replaying_ = false;
        if (!ok) { // (a text the modules' readers accepted replays whole; else its text, as a string)
            prefix_.resize(depth);
            array_depth_ = 0;
            replay_key_ = own_key;
            key_ = replay_key_;
            static_key_ = false; // (its address is no longer the field's name)
            put_string(cell::string, j);
        }
    }
    // A number token of a JSON text (json::replay): an integer when it has no fraction or
    // exponent (beyond 64 bits: exact, an object cell), else a double, as json.loads reads it.
    void json_number(std::string_view t) {
        if (array_depth_ > 0) return json_->raw_value(t);
        if (t.find_first_of("NI") != std::string_view::npos) // (NaN, Infinity, -Infinity: json.loads reads them)
            return put(cell::floating, bits(t[0] == 'N' ? std::nan("") : t[0] == '-' ? -HUGE_VAL : HUGE_VAL));
        if (t.find_first_of(".eE") == std::string_view::npos) {
            const auto n = logscan::parse_number<std::int64_t>(t);
            if (n.ok()) return put(cell::integer, n.value);
            return put_string(cell::big_integer, t);
        }
        const auto d = logscan::parse_number<double>(t);
        put(cell::floating, bits(d.ok() ? d.value : (t.starts_with('-') ? -HUGE_VAL : HUGE_VAL)));
    }
    void begin_array() {
        if (!on_) return;
        if (array_depth_++ == 0) {
            json_.emplace(sink{&json_text_}, json_buf_);
            array_static_ = static_key_;
            array_key_view_ = key_;
            if (!static_key_) array_key_ = key_;
            json_text_.clear();
        }
        json_->begin_array();
    }
    void end_array() {
        if (!on_) return;
        json_->end_array();
        if (--array_depth_ == 0) {
            json_->flush();
            static_key_ = array_static_;
            key_ = array_static_ ? array_key_view_ : std::string_view(array_key_);
            put_string(cell::string, json_text_);
            json_text_.clear();
        }
    }
    void begin_object() {
        if (!on_) return;
        if (array_depth_ > 0) return json_->begin_object();
        prefix_.push_back(column_name());
    }
    void end_object() {
        if (!on_) return;
        if (array_depth_ > 0) return json_->end_object();
        if (!prefix_.empty()) prefix_.pop_back();
    }

private:
    struct sink {
        std::string* out;
        bool operator()(std::string_view s) const {
            out->append(s);
            return true;
        }
    };
    static std::int64_t bits(double d) {
        std::int64_t b;
        std::memcpy(&b, &d, sizeof b);
        return b;
    }
    table& table_of(std::string_view type) {
        if (t_ != nullptr && t_->type == type) return *t_;
        for (table& t : tables_)
            if (t.type == type) return t;
        tables_.push_back(table{std::string(type), {}, 0, {}});
        t_ = nullptr; // (the vector may have moved)
        return tables_.back();
    }
    // The flattened name of the current key: "args.External id".
    std::string column_name() const {
        if (prefix_.empty()) return std::string(key_);
        std::string n = prefix_.back();
        n += '.';
        n += key_;
        return n;
    }
    column& current_column() {
        table& t = *t_;
        // the usual case: the same column as at this position in the last row
        if (position_ < t.last_order.size()) {
            const table::slot& s = t.last_order[position_];
            if (static_key_ && prefix_.empty() && s.key == key_.data() && s.size == key_.size()) return t.columns[s.column];
            column& c = t.columns[s.column];
            if (matches(c.name)) return c;
        }
        const std::string name = column_name();
        std::size_t i = 0;
        while (i < t.columns.size() && t.columns[i].name != name) ++i;
        if (i == t.columns.size()) {
            t.columns.emplace_back();
            t.columns.back().name = name;
        }
        const table::slot s{static_key_ && prefix_.empty() ? key_.data() : nullptr, key_.size(), i};
        if (position_ < t.last_order.size()) t.last_order[position_] = s;
        else t.last_order.push_back(s);
        return t.columns[i];
    }
    bool matches(const std::string& name) const {
        if (prefix_.empty()) return name == key_;
        const std::string& p = prefix_.back();
        return name.size() == p.size() + 1 + key_.size() && name.compare(0, p.size(), p) == 0 && name[p.size()] == '.' &&
               name.compare(p.size() + 1, std::string::npos, key_) == 0;
    }
    void put(cell k, std::int64_t v) {
        column& c = current_column();
        ++position_;
        c.pad_to(t_->rows);
        c.set(t_->rows, k, v);
    }
    void put_string(cell k, std::string_view s) {
        column& c = current_column();
        ++position_;
        c.pad_to(t_->rows);
        c.set(t_->rows, k, c.pool.code(s));
    }

    const type_set& wanted_;
    std::vector<table> tables_;
    table* t_ = nullptr;
    bool on_ = false;
    std::string_view key_;     // the current key (valid until its value is written)
    std::string replay_key_;   // a JSON text's key (decoded into the reader's scratch: copied)
    bool static_key_ = false;  // key_ is a declared field's name (field_key)
    bool replaying_ = false;   // inside raw_value's JSON text (json::replay)
    bool array_static_ = false;
    std::string_view array_key_view_;
    std::string array_key_;
    std::vector<std::string> prefix_;
    int array_depth_ = 0;
    std::size_t position_ = 0;
    std::string json_text_;
    char json_buf_[4096];
    std::optional<logscan::ndjson_writer<sink>> json_; // an array's JSON text (a fresh writer per top-level array)
};

} // namespace logscan_py

#endif
