// SPDX-License-Identifier: MIT
/// \file ndjson.hpp
/// Writes records as NDJSON (one JSON object a line) the way formats.md prescribes: `"type"`
/// first, then `"line"` where the format has lines; integers without a fraction; doubles in
/// the shortest form that reads back to the same value (`std::to_chars`), non-finite ones as
/// `null`; strings JSON-escaped with invalid UTF-8 replaced by `\ufffd` (one per maximal
/// ill-formed subpart); nested arrays and objects.
///
/// \code
/// logscan::ndjson_file out(stdout);                 // or ndjson_writer with your own sink
/// out.begin("log", 12);                             // {"type":"log","line":12
/// out.field("level", "WRN");                        // ,"level":"WRN"
/// out.key("shape"); out.begin_array(); out.value(std::int64_t{4}); out.end_array();
/// out.end();                                        // }\n
/// out.flush();
/// \endcode
///
/// Output goes through a fixed buffer handed to a sink when full (or when a number, which is
/// formatted in place, would not fit in what is left of it) and at `flush()`; nothing
/// allocates per record. The sink is any callable taking `std::string_view` and returning
/// `bool` (false: the write failed; `ok()` turns false and later output is dropped).
/// Records longer than the buffer are written in pieces. Calls out of order, which would not
/// give JSON, turn `ok()` false the same way (`misused()` then tells): a value in an object
/// without its key, a key outside an object or right after another, `end_array()` or
/// `end_object()` where they close nothing of their kind, `end()` with a container still
/// open, `begin()` before the last record's `end()`, nesting deeper than 64 levels.
#ifndef LOGSCAN_NDJSON_HPP_INCLUDED
#define LOGSCAN_NDJSON_HPP_INCLUDED

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <span>
#include <string_view>
#include <system_error>
#include <type_traits>

#include "config.hpp"
#include "error.hpp"
#include "lines.hpp"
#include "num.hpp"
#include "utf8.hpp"

namespace logscan {

/// The NDJSON writer over a sink; see the file comment.
template <class Sink>
class ndjson_writer {
public:
    /// `buffer` is the output buffer (at least 64 bytes), owned by the caller.
    ndjson_writer(Sink sink, std::span<char> buffer) noexcept : sink_(std::move(sink)), buf_(buffer) {}

    /// Starts a record: `{"type":"TYPE"`.
    void begin(std::string_view type) {
        if (depth_ != 0 || after_key_) misuse();
        depth_ = 0;
        after_key_ = false;
        in_record_ = true;
        put('{');
        first_ = 0;
        push(true, true);
        field("type", type);
    }
    /// Starts a record with a line number: `{"type":"TYPE","line":N`.
    void begin(std::string_view type, std::uint64_t line) {
        begin(type);
        field("line", line);
    }
    /// Ends the record: `}` and a newline.
    void end() {
        if (depth_ != 1 || after_key_ || (object_ & 1u) == 0 || !in_record_) misuse();
        put('}');
        put('\n');
        depth_ = 0;
        after_key_ = false;
        in_record_ = false;
    }

    /// Writes `,"k":` (the comma when needed); a value must follow.
    void key(std::string_view k) {
        comma(true);
        string_body(k);
        put(':');
        after_key_ = true;
    }
    /// `"k":v` for a string, integer, double, bool, `nullptr` (null), `number` or `shape_list`.
    template <class T>
    void field(std::string_view k, const T& v) {
        key(k);
        value(v);
    }

    /// A string value, escaped.
    void value(std::string_view s) {
        comma();
        string_body(s);
    }
    /// A string value (C string).
    void value(const char* s) { value(std::string_view(s)); }
    /// An integer value.
    template <class T>
        requires(std::is_integral_v<T> && !std::is_same_v<T, bool>)
    void value(T v) {
        comma();
        constexpr std::size_t n = std::numeric_limits<T>::digits10 + 3; // (every digit and a sign: 21 for 64 bits, 41 for 128)
        formatted<n>([v](char* b) { return std::to_chars(b, b + n, v).ptr; });
    }
    /// A double: the shortest text that reads back to the same value, with `.0` added when that
    /// text looks like an integer (`196.0`, so it reads back as a double too); NaN and
    /// infinities as null.
    void value(double v) {
        comma();
        if (!std::isfinite(v)) return write("null");
        formatted<40>([v](char* b) {
            char* e = std::to_chars(b, b + 38, v).ptr;
            if (std::string_view(b, static_cast<std::size_t>(e - b)).find_first_of(".e") == std::string_view::npos) {
                *e++ = '.';
                *e++ = '0';
            }
            return e;
        });
    }
    /// A parsed number (`parse_number_value`): an integer or a double as its text was.
    void value(const number& n) {
        if (n.is_integer()) value(n.integer);
        else value(n.floating);
    }
    /// formats.md's rule for a value printed as text: a number when the whole text is one
    /// (`grouped`: `,` thousands separators allowed) — an integer when it has no fraction or
    /// exponent, written exactly even beyond 64 bits — else the text as a string.
    void number_or_string(std::string_view text, bool grouped = false) {
        if (const std::size_t n = shortest_decimal(text); n != 0) { // its beginning, as the conversion writes it: what it would give back
            comma();
            return write(text.substr(0, n));
        }
        const auto n = grouped ? parse_grouped_value(text) : parse_number_value(text);
        if (n.ok()) return value(n.value);
        if (n.ec == std::errc::result_out_of_range && n.value.is_integer()) { // digits only: exact
            comma();
            std::size_t i = 0;
            if (text[0] == '-') put('-');
            if (text[0] == '-' || text[0] == '+') ++i;
            while (i + 1 < text.size() && text[i] == '0') ++i;
            for (; i < text.size(); ++i)
                if (text[i] != ',') put(text[i]);
            return;
        }
        if (n.ec == std::errc::result_out_of_range) return value(n.value.floating); // beyond double: null
        value(text);
    }
    /// When `text` is a decimal `-?D.F` that `value(double)` writes as its own beginning, the
    /// length of that beginning; else 0. D is `0` or digits without a leading zero. F less its
    /// trailing zeros is written (`1.50` as `1.5`) when it keeps at most 15 significant digits
    /// (then no other decimal of as few digits reads as the same double, and the shortest form
    /// is this one) and fixed notation is no longer than scientific (at most two zeros after
    /// `0.`); an F of zeros only leaves `D.0` (`100.00` as `100.0`) where D has at most 5
    /// digits (scientific is no shorter: `1e+05` is, for `100000`).
    static constexpr std::size_t shortest_decimal(std::string_view t) noexcept {
        std::size_t i = t.starts_with('-') ? 1 : 0;
        const std::size_t int_begin = i;
        while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i;
        const std::size_t int_len = i - int_begin;
        if (int_len == 0 || i == t.size() || t[i] != '.' || (int_len > 1 && t[int_begin] == '0')) return 0;
        const std::size_t frac_begin = ++i;
        while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i;
        if (i != t.size() || i == frac_begin) return 0;
        std::size_t end = t.size();
        while (end > frac_begin && t[end - 1] == '0') --end;
        if (end == frac_begin) return int_len <= 5 ? frac_begin + 1 : 0; // (D.0)
        std::size_t significant = end - frac_begin;
        if (t[int_begin] != '0') {
            significant += int_len;
        } else {
            std::size_t z = frac_begin;
            while (t[z] == '0') ++z;
            if (z - frac_begin > 2) return 0;
            significant -= z - frac_begin;
        }
        return significant <= 15 ? end : 0;
    }
    /// A shape as an array of integers (`[4,64,224,224]`, `[]`), or null when it is not valid.
    void value(const shape_list& s) {
        if (!s.ok()) return value(nullptr);
        begin_array();
        for (std::int64_t d : s) value(d);
        end_array();
    }
    /// A boolean.
    void value(bool v) {
        comma();
        write(v ? "true" : "false");
    }
    /// null.
    void value(std::nullptr_t) {
        comma();
        write("null");
    }
    /// Text that is already JSON (e.g. a value copied from a JSON input), written as is; a
    /// byte sequence in it that is not UTF-8 (in a string: a reader that let invalid UTF-8
    /// through) is written `\ufffd`, one per maximal ill-formed subpart, as strings are, and
    /// so is a lone surrogate's `\u` escape (`"\ud800"`: formats.md, U+FFFD in NDJSON output;
    /// the output never holds a string a UTF-8 reader cannot take).
    void raw_value(std::string_view json) {
        comma();
        if (internal::all_ascii(json)) return write_escapes_checked(json);
        const char* p = json.data();
        const char* const e = p + json.size();
        while (p != e) {
            const char* q = p;
            while (q != e && static_cast<unsigned char>(*q) < 0x80) ++q;
            while (q != e && static_cast<unsigned char>(*q) >= 0x80) {
                const std::size_t n = internal::utf8_complete(q, e);
                if (n == 0) break;
                q += n;
                while (q != e && static_cast<unsigned char>(*q) < 0x80) ++q;
            }
            write_escapes_checked(std::string_view(p, static_cast<std::size_t>(q - p)));
            p = q;
            if (p == e) break;
            write("\\ufffd");
            p += internal::utf8_invalid_length(p, e);
        }
    }

    /// `[`, then values, then `end_array()`.
    void begin_array() {
        comma();
        put('[');
        push(true, false);
    }
    /// `]`.
    void end_array() {
        pop(false);
        put(']');
    }
    /// `{`, then `key`/`field`s, then `end_object()`.
    void begin_object() {
        comma();
        put('{');
        push(true, true);
    }
    /// `}`.
    void end_object() {
        pop(true);
        put('}');
    }

    /// Hands the buffered output to the sink. Returns `ok()`.
    bool flush() {
        if (used_ != 0 && ok_) ok_ = static_cast<bool>(sink_(std::string_view(buf_.data(), used_)));
        used_ = 0;
        return ok_;
    }
    /// False once the sink failed or a call came out of order.
    bool ok() const noexcept { return ok_; }
    /// True once a call came out of order (see the file comment).
    bool misused() const noexcept { return misused_; }
    /// The sink.
    Sink& sink() noexcept { return sink_; }

private:
    // JSON text (UTF-8) with each lone surrogate's escape written `\ufffd`.
    void write_escapes_checked(std::string_view t) {
        const char* p = t.data();
        const char* const e = p + t.size();
        if (t.empty() || std::memchr(p, '\\', t.size()) == nullptr) return write(t); // (no escape at all: most texts)
        for (const char* q = internal::lone_surrogate_escape(p, e); q != e; q = internal::lone_surrogate_escape(p, e)) {
            write(std::string_view(p, static_cast<std::size_t>(q - p)));
            write("\\ufffd");
            p = q + 6;
        }
        write(std::string_view(p, static_cast<std::size_t>(e - p)));
    }

    static constexpr unsigned max_depth = 64;
    void misuse() noexcept {
        misused_ = true;
        ok_ = false;
    }
    void push(bool fresh, bool object) {
        if (depth_ == max_depth) return misuse(); // (depth_ stays: the bits hold 64 levels)
        const std::uint64_t bit = std::uint64_t{1} << depth_;
        first_ = fresh ? first_ | bit : first_ & ~bit;
        object_ = object ? object_ | bit : object_ & ~bit;
        ++depth_;
    }
    void pop(bool object) {
        // what closes must be open, of its kind, and not after a key; the record itself
        // (depth 1 after begin()) is closed by end(), not end_object()
        if (depth_ == 0 || after_key_ || ((object_ >> (depth_ - 1) & 1u) != 0) != object || (in_record_ && depth_ == 1))
            return misuse();
        --depth_;
    }
    // A comma before every value or key but the first of its array or object (and none
    // right after a key); checks that a key comes where one belongs and a value after it.
    void comma(bool is_key = false) {
        const bool in_object = depth_ != 0 && (object_ >> (depth_ - 1) & 1u) != 0;
        if (after_key_) {
            after_key_ = false;
            if (is_key) misuse(); // two keys in a row
            return;
        }
        if (is_key != in_object) misuse(); // a key outside an object, a value without its key
        if (depth_ == 0) return;
        const std::uint64_t bit = std::uint64_t{1} << (depth_ - 1);
        if (first_ & bit) first_ &= ~bit;
        else put(',');
    }
    // What `format(at)` writes (at most N bytes; it returns where it ended), written in place
    // where the buffer can hold N bytes (flushed first when it has less room left): formatted
    // on the stack byte by byte and then copied, a number's bytes were read back as words,
    // which waits for those byte stores to retire (most of the time of writing the integers of
    // a Chainer graph's arrays into frames()' columns).
    template <std::size_t N, class Format>
    void formatted(Format&& format) {
        if (buf_.size() >= N) [[likely]] {
            if (buf_.size() - used_ < N) flush();
            char* const b = buf_.data() + used_;
            used_ += static_cast<std::size_t>(format(b) - b);
            return;
        }
        char b[N];
        write(std::string_view(b, static_cast<std::size_t>(format(b) - b)));
    }
    void put(char c) {
        if (used_ == buf_.size()) flush();
        buf_[used_++] = c;
    }
    void write(std::string_view s) {
        if (s.size() <= buf_.size() - used_) [[likely]] { // (most are a few bytes: no call)
            internal::copy_bytes(buf_.data() + used_, s.data(), s.size());
            used_ += s.size();
            return;
        }
        while (!s.empty()) {
            if (used_ == buf_.size()) flush();
            const std::size_t n = s.size() < buf_.size() - used_ ? s.size() : buf_.size() - used_;
            std::memcpy(buf_.data() + used_, s.data(), n);
            used_ += n;
            s.remove_prefix(n);
        }
    }
    void string_body(std::string_view s) {
        static constexpr char hex[] = "0123456789abcdef";
        put('"');
        const char* p = s.data();
        const char* const e = p + s.size();
        while (p != e) {
            const char* q = p; // the longest run that needs no escape: eight bytes at a time, then one
            {
                constexpr std::uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
                while (e - q >= 8) {
                    std::uint64_t v = 0;
                    std::memcpy(&v, q, 8);
                    const std::uint64_t quote = v ^ (ones * 0x22), slash = v ^ (ones * 0x5C);
                    // (each test is exact as a whole: a byte < 0x20, >= 0x80, '"' or '\\' somewhere)
                    if ((((v - ones * 0x20) & ~v) | v | ((quote - ones) & ~quote) | ((slash - ones) & ~slash)) & highs) break;
                    q += 8;
                }
            }
            while (q != e) {
                const auto c = static_cast<unsigned char>(*q);
                if (c < 0x20 || c == '"' || c == '\\' || c >= 0x80) break;
                ++q;
            }
            write(std::string_view(p, static_cast<std::size_t>(q - p)));
            p = q;
            if (p == e) break;
            const auto c = static_cast<unsigned char>(*p);
            if (c >= 0x80) {
                if (const std::size_t n = internal::utf8_complete(p, e); n != 0) {
                    write(std::string_view(p, n));
                    p += n;
                } else {
                    write("\\ufffd");
                    p += internal::utf8_invalid_length(p, e);
                }
                continue;
            }
            ++p;
            switch (c) {
            case '"': write("\\\""); break;
            case '\\': write("\\\\"); break;
            case '\n': write("\\n"); break;
            case '\r': write("\\r"); break;
            case '\t': write("\\t"); break;
            case '\b': write("\\b"); break;
            case '\f': write("\\f"); break;
            default: {
                const char u[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
                write(std::string_view(u, 6));
            }
            }
        }
        put('"');
    }

    Sink sink_;
    std::span<char> buf_;
    std::size_t used_ = 0;
    // (first_ and object_ are kept apart: side by side, g++ updates both in push() with one
    // 16-byte load and store, and that load waits for comma()'s 8-byte store to first_ just
    // before it to retire: a stall at every array or object opened, 70 % of begin_object's
    // time in frames()' columns of a Chainer graph)
    std::uint64_t first_ = 0;  // bit d: nothing written yet at depth d
    unsigned depth_ = 0;
    bool after_key_ = false;
    bool ok_ = true;
    bool misused_ = false;
    bool in_record_ = false;   // between begin() and end()
    std::uint64_t object_ = 0; // bit d: the container at depth d is an object
};

/// A sink writing to a `FILE*` (fwrite); false when it fails.
struct file_sink {
    std::FILE* f; ///< the stream (not closed)
    /// Writes `s`; false on a short write.
    bool operator()(std::string_view s) const noexcept { return std::fwrite(s.data(), 1, s.size(), f) == s.size(); }
};

/// An NDJSON writer to a `FILE*` with its own 64 KiB buffer (no allocation).
class ndjson_file : public ndjson_writer<file_sink> {
public:
    /// Writes to `f` (e.g. `stdout`).
    explicit ndjson_file(std::FILE* f) noexcept : ndjson_writer<file_sink>(file_sink{f}, storage_) {}
    ndjson_file(const ndjson_file&) = delete;
    ndjson_file& operator=(const ndjson_file&) = delete;
    ~ndjson_file() { flush(); }

private:
    char storage_[65536];
};

} // namespace logscan

#endif // LOGSCAN_NDJSON_HPP_INCLUDED
