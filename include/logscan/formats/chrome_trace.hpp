// SPDX-License-Identifier: MIT
/// \file formats/chrome_trace.hpp
/// The `chrome-trace` format: a trace in the Chrome Trace Event Format (the PyTorch profiler
/// through Kineto, `*.pt.trace.json`; Paddle's and MegEngine's profilers; TensorFlow's trace
/// viewer), read as a stream by the JSON reader (the record contract is formats.md, section
/// 6A): one record per event, in document order, in constant memory apart from the `B` events
/// still open.
///
/// \code
/// #include <logscan/formats/chrome_trace.hpp>        // (also in the umbrella <logscan.hpp>)
/// struct kernel_time {
///     double us = 0;
///     void on_span(const logscan::chrome_trace::span& s) {
///         if (s.cat && s.cat->text == "kernel") us += logscan::chrome_trace::number_of(s.dur_us).value_or(0);
///     }
/// };
/// kernel_time v;
/// logscan::file_source src("trace.json");                 // (a .json.gz: gzip.hpp's gzip_source)
/// logscan::error e = logscan::chrome_trace::parse(src, v);
/// \endcode
///
/// Events, in document order (records are views, valid during the call):
/// \code
/// void on_span(const chrome_trace::span&);             // an X event; a B matched with its E, at the E
/// void on_instant(const chrome_trace::instant&);       // i, I
/// void on_counter(const chrome_trace::counter&);       // C
/// void on_meta(const chrome_trace::meta&);             // M
/// void on_flow(const chrome_trace::flow_event&);       // s, t, f
/// void on_event(const chrome_trace::event&);           // any other phase, or none
/// void on_trace_info(const chrome_trace::trace_info&); // each top-level member but traceEvents
/// void on_error(const logscan::error&);                // `index`: the event's position, or none
/// \endcode
///
/// Values (formats.md 6A.2): a member the record maps is a `json_value`, empty when absent or
/// `null`, else a `string_or_json`: a string decoded (`json == false`), any other value its
/// compact JSON text (`json == true`): numbers byte for byte as the input has them
/// (`1712195495519689.047` stays so; `number_of` and `integer_of` read them), `pid`/`tid` a
/// number or a string as printed. `args`, `extra`, `values` are `json_object`s: the compact
/// JSON text of the object as it stands (members in input order, duplicates kept), or empty.
/// For the keys a record maps, the last occurrence in the event wins; every other member goes
/// to `extra` (`null` when there is none).
///
/// B/E: per thread (`pid` and `tid`, compared as their JSON text) a stack: an `E` closes the
/// most recent open `B` of its thread, and the span comes at the `E`'s place with the `B`'s
/// name, category, thread and `ts`, `dur_us` the exact decimal difference of the two `ts`
/// (num.hpp's `decimal_difference`), `args` and `extra` merged (the `E`'s members win).
///
/// Errors (`on_error`, formats.md 6A.3; `index` the event's position in `traceEvents`): an
/// element that is no object; an `E` without an open `B` on its thread; an `E` whose name
/// differs from its `B`'s (just before the span); a break — invalid or truncated JSON, a top
/// level that is neither an object nor an array, a `traceEvents` that is not an array — which
/// ends the parse (`index` the event being read, or the next one between events; none outside
/// `traceEvents`); each `B` never closed, at the end, in ascending index. A bare array whose
/// `]` is missing after a complete event (and maybe a `,`) ends normally. An event too large
/// for the scratch buffer (`format_options::scratch_capacity`, 64 KiB; a B/E span whose merged
/// members do not fit it too) and a `B` that does not fit the open-span store are errors at
/// their index, and the parse goes on; so is a top-level member (outside `traceEvents`)
/// whose value's compact text does not fit the scratch buffer ("top-level value too large for
/// the scratch buffer", no index, no line: it yields no `trace_info`). An empty or blank input
/// is a break ("expected a JSON value" at its end): a trace holds a document (the command and
/// the Python module pass over a blank input before parsing). `line`, `column` and `offset`
/// are 0 where the error has no place in the text (the rules above give an index instead).
/// The store (`format_options::open_capacity`, 4 MiB)
/// holds the open `B`s' text in `open_capacity` bytes and at most `open_capacity / 32 + 16` of
/// them (an index of 56 bytes each). A `B` that does not fit leaves a mark on its thread's
/// stack (its pid and tid, in 16 entries and 1 KiB kept for marks), so the `E` that closes it
/// is an error too ("E closes a B event that did not fit") and closes no other `B`; only past
/// that room can an `E` of that thread close the wrong `B` (the `B`'s error says so). Marks
/// take none of the store's own room. `dur_us` is null when the two `ts` are more than 400
/// decimal digits apart (`1e500` and `1`: num.hpp's `decimal_difference`). Invalid UTF-8 in
/// strings is kept as it is in the C++ records (NDJSON writes `\ufffd`; two strings compare
/// by their bytes); a `\u` surrogate escape without its pair decodes as U+FFFD (kept as
/// written inside `args` and the other objects).
///
/// Allocation: the JSON reader's buffers, two scratch buffers and the open-span store (about
/// 2.75 x `open_capacity` bytes in all), once, at construction; nothing while parsing.
/// Parsers made one after another (a parser per part of a trace, chrome_trace_parts.hpp) can
/// share one `parser<V>::buffers`, made once: `parser<V> p(vis, buffers)` allocates nothing
/// (one parser at a time on them: another made while one lives is refused, `io_error`).
#ifndef LOGSCAN_FORMATS_CHROME_TRACE_HPP_INCLUDED
#define LOGSCAN_FORMATS_CHROME_TRACE_HPP_INCLUDED

#include <array>
#include <atomic>
#include <bit>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <span>
#include <string_view>
#include <type_traits>
#include <utility>

#include "../format.hpp" // (config, error, lines, source, visit, num, record, ndjson)
#include "../json.hpp"

namespace logscan::chrome_trace {

/// The format's name, as the command line knows it.
inline constexpr std::string_view format_name = "chrome-trace";

/// A member's value: empty when absent or `null`; a string decoded, any other value its
/// compact JSON text (see the file comment).
using json_value = std::optional<string_or_json>;
/// An object (or an array) kept as its compact JSON text (`json == true`), members in input
/// order, duplicates kept; empty when absent or `null` (a string there is decoded, as any).
using json_object = json_value;

/// The number a value holds, when it is a JSON number (a string, `"1500"`, is none; so is a
/// number beyond the double range, `1e400`), correctly rounded.
inline std::optional<double> number_of(const json_value& v) noexcept {
    if (!v || !v->json) return std::nullopt;
    // (most `ts` and `dur`: a plain integer of at most 16 digits, below 2^53: that double exactly)
    if (const std::string_view t = v->text; !t.empty() && t.size() <= 16 && t[0] >= '1' && t[0] <= '9') {
        std::uint64_t m = 0;
        std::size_t digits = 0;
        if (json::internal::scan_digits(t.data(), t.data() + t.size(), m, digits) == t.data() + t.size() &&
            m <= (std::uint64_t{1} << 53))
            return static_cast<double>(m);
    }
    const auto n = json::number_token(v->text);
    if (!n) return std::nullopt;
    const double d = n->to_double();
    return d - d == 0 ? std::optional<double>(d) : std::nullopt; // (beyond the double range: none)
}
/// The integer a value holds, when it is a JSON number without fraction or exponent that
/// fits `std::int64_t`.
inline std::optional<std::int64_t> integer_of(const json_value& v) noexcept {
    if (!v || !v->json) return std::nullopt;
    const auto n = json::number_token(v->text);
    return n ? n->to_int64() : std::nullopt;
}

/// An `X` event, or a `B` matched with its `E` (then `ph` is `"B"`, the values the `B`'s,
/// `dur_us` computed, `args`/`extra` merged).
struct span {
    std::uint64_t index; ///< the event's position in `traceEvents` (the `E`'s for a B/E span)
    json_value name, cat, ph, pid, tid;
    json_value ts_us;  ///< `ts` as printed (microseconds)
    json_value dur_us; ///< `dur` as printed; for B/E the exact difference of the `ts`
    json_object args, extra;
};
/// An `i` or `I` event.
struct instant {
    std::uint64_t index;
    json_value name, cat, ph;
    json_value scope; ///< `s`: `g`, `p`, `t`, or none
    json_value pid, tid, ts_us;
    json_object args, extra;
};
/// A `C` event: `values` is its `args` as it is (one key per series).
struct counter {
    std::uint64_t index;
    json_value name, cat, id, pid, tid, ts_us;
    json_object values, extra;
};
/// An `M` event: `value` is `args.name` (`process_name`, `thread_name`), `args.labels`
/// (`process_labels`), `args.sort_index` (`process_sort_index`, `thread_sort_index`), else none.
struct meta {
    std::uint64_t index;
    json_value name, pid, tid, ts_us, value;
    json_object args, extra;
};
/// An `s`, `t` or `f` event (`bp` as printed: `"e"`, or none).
struct flow_event {
    std::uint64_t index;
    json_value ph, name, cat, id, bp, pid, tid, ts_us;
    json_object args, extra;
};
/// An event of any other phase, or of none.
struct event {
    std::uint64_t index;
    json_value ph, name, cat, id, pid, tid, ts_us, dur_us;
    json_object args, extra;
};
/// A top-level member other than `traceEvents` (`schemaVersion`, `deviceProperties`, ...).
struct trace_info {
    std::string_view key; ///< decoded
    json_value value;
};

LOGSCAN_EVENT(on_span, "void on_span(const logscan::chrome_trace::span&)");
LOGSCAN_EVENT(on_instant, "void on_instant(const logscan::chrome_trace::instant&)");
LOGSCAN_EVENT(on_counter, "void on_counter(const logscan::chrome_trace::counter&)");
LOGSCAN_EVENT(on_meta, "void on_meta(const logscan::chrome_trace::meta&)");
LOGSCAN_EVENT(on_flow, "void on_flow(const logscan::chrome_trace::flow_event&)");
LOGSCAN_EVENT(on_event, "void on_event(const logscan::chrome_trace::event&)");
LOGSCAN_EVENT(on_trace_info, "void on_trace_info(const logscan::chrome_trace::trace_info&)");

/// The format's records, described once (record.hpp), in formats.md's key order.
using records = record_list<
    record_kind<"span", span, on_span_event, field<"name", &span::name>, field<"cat", &span::cat>,
                field<"ph", &span::ph>, field<"pid", &span::pid>, field<"tid", &span::tid>,
                field<"ts_us", &span::ts_us>, field<"dur_us", &span::dur_us>, field<"args", &span::args>,
                field<"extra", &span::extra>>,
    record_kind<"instant", instant, on_instant_event, field<"name", &instant::name>, field<"cat", &instant::cat>,
                field<"ph", &instant::ph>, field<"scope", &instant::scope>, field<"pid", &instant::pid>,
                field<"tid", &instant::tid>, field<"ts_us", &instant::ts_us>, field<"args", &instant::args>,
                field<"extra", &instant::extra>>,
    record_kind<"counter", counter, on_counter_event, field<"name", &counter::name>, field<"cat", &counter::cat>,
                field<"id", &counter::id>, field<"pid", &counter::pid>, field<"tid", &counter::tid>,
                field<"ts_us", &counter::ts_us>, field<"values", &counter::values>, field<"extra", &counter::extra>>,
    record_kind<"meta", meta, on_meta_event, field<"name", &meta::name>, field<"pid", &meta::pid>,
                field<"tid", &meta::tid>, field<"ts_us", &meta::ts_us>, field<"value", &meta::value>,
                field<"args", &meta::args>, field<"extra", &meta::extra>>,
    record_kind<"flow", flow_event, on_flow_event, field<"ph", &flow_event::ph>, field<"name", &flow_event::name>,
                field<"cat", &flow_event::cat>, field<"id", &flow_event::id>, field<"bp", &flow_event::bp>,
                field<"pid", &flow_event::pid>, field<"tid", &flow_event::tid>, field<"ts_us", &flow_event::ts_us>,
                field<"args", &flow_event::args>, field<"extra", &flow_event::extra>>,
    record_kind<"event", event, on_event_event, field<"ph", &event::ph>, field<"name", &event::name>,
                field<"cat", &event::cat>, field<"id", &event::id>, field<"pid", &event::pid>,
                field<"tid", &event::tid>, field<"ts_us", &event::ts_us>, field<"dur_us", &event::dur_us>,
                field<"args", &event::args>, field<"extra", &event::extra>>,
    record_kind<"trace_info", trace_info, on_trace_info_event, field<"key", &trace_info::key>,
                field<"value", &trace_info::value>>,
    indexed_error_kind>;

/// Parser settings (format.hpp's, one type for every format): `scratch_capacity` (the bytes
/// of one event's compact text, and of the strings and merged members made from it) and
/// `open_capacity` (the bytes of the `B` events still open).
using options = format_options;

namespace detail {

// The members a record maps (formats.md 6A.2), as bits.
enum key : unsigned {
    k_ph, k_name, k_cat, k_pid, k_tid, k_ts, k_dur, k_args, k_s, k_id, k_bp, key_count,
};
constexpr unsigned bit(key k) noexcept { return 1u << k; }
enum class kind : unsigned char { span_x, span_b, span_e, instant, counter, meta, flow, other };
constexpr unsigned mapped_keys(kind k) noexcept {
    constexpr unsigned common = bit(k_ph) | bit(k_name) | bit(k_pid) | bit(k_tid) | bit(k_ts) | bit(k_args);
    switch (k) {
    case kind::span_x:
    case kind::span_b:
    case kind::span_e: return common | bit(k_cat) | bit(k_dur);
    case kind::instant: return common | bit(k_cat) | bit(k_s);
    case kind::counter: return common | bit(k_cat) | bit(k_id);
    case kind::meta: return common;
    case kind::flow: return common | bit(k_cat) | bit(k_id) | bit(k_bp);
    case kind::other: return common | bit(k_cat) | bit(k_id) | bit(k_dur);
    }
    return common;
}
// The member a key names (its decoded text), or key_count.
// (its length and up to 4 bytes packed into one word, the first byte lowest: one look-up in a
// table and one compare of the whole word tell them apart)
constexpr std::uint64_t packed_key(std::string_view k) noexcept {
    std::uint64_t w = std::uint64_t{k.size()} << 32;
    for (std::size_t i = 0; i < k.size() && i < 4; ++i) w |= std::uint64_t{static_cast<unsigned char>(k[i])} << (8 * i);
    return w;
}
// (the keys packed, by key; a table of 64 places indexed by a multiplicative hash without
// collisions among them, its multiplier found at compile time: one multiply, one load, one
// compare, no branch per key)
inline constexpr std::string_view key_names[key_count] = {"ph", "name", "cat", "pid", "tid", "ts", "dur", "args", "s", "id", "bp"};
inline constexpr std::array<std::uint64_t, key_count> packed_keys = [] {
    std::array<std::uint64_t, key_count> w{};
    for (unsigned k = 0; k < key_count; ++k) w[k] = packed_key(key_names[k]);
    return w;
}();
constexpr unsigned key_place(std::uint64_t w, std::uint64_t mul) noexcept { return static_cast<unsigned>((w * mul) >> 58); }
inline constexpr std::uint64_t key_hash_mul = [] {
    for (std::uint64_t mul = 0x9E3779B97F4A7C15ull;; mul += 0x3C6EF372FE94F82Aull) { // (odd plus even: odd)
        std::uint64_t used = 0;
        bool distinct = true;
        for (const std::uint64_t w : packed_keys) {
            const std::uint64_t b = std::uint64_t{1} << key_place(w, mul);
            distinct = distinct && (used & b) == 0;
            used |= b;
        }
        if (distinct) return mul;
    }
}();
struct key_entry {
    std::uint64_t w = 0; // (0: no key packs to it, its length being in the high word)
    key k = key_count;
};
inline constexpr std::array<key_entry, 64> key_table = [] {
    std::array<key_entry, 64> t{};
    for (unsigned k = 0; k < key_count; ++k) t[key_place(packed_keys[k], key_hash_mul)] = {packed_keys[k], static_cast<key>(k)};
    return t;
}();
constexpr key key_of_packed(std::uint64_t w) noexcept {
    const key_entry& e = key_table[key_place(w, key_hash_mul)];
    return e.w == w ? e.k : key_count;
}
static_assert([] {
    for (unsigned k = 0; k < key_count; ++k)
        if (key_of_packed(packed_keys[k]) != static_cast<key>(k)) return false;
    for (const std::string_view other : {"p", "pi", "nam", "ids", "arg", "x", "", "tss", "d", "b", "bpx", "Name"})
        if (key_of_packed(packed_key(other)) != key_count) return false;
    return true;
}());
constexpr key key_of(std::string_view k) noexcept {
    return k.empty() || k.size() > 4 ? key_count : key_of_packed(packed_key(k));
}
// key_of for a key of `n` bytes at `k` that has 4 bytes readable from its start (a key in a
// whole event: its closing quote, the `:` and the value follow it), in one load.
LOGSCAN_FORCE_INLINE key key_of_readable(const char* k, std::size_t n) noexcept {
    if (n == 0 || n > 4) return key_count;
    if constexpr (std::endian::native == std::endian::little) {
        std::uint32_t x = 0;
        std::memcpy(&x, k, 4);
        const std::uint32_t keep = n == 4 ? ~std::uint32_t{0} : (std::uint32_t{1} << (8 * n)) - 1;
        return key_of_packed(std::uint64_t{n} << 32 | (x & keep));
    } else {
        return key_of(std::string_view(k, n));
    }
}
// The key a member's key token names (a token with escapes compared decoded).
inline key key_of_token(std::string_view token) noexcept {
    if (token.size() < 2) return key_count;
    const std::string_view in = token.substr(1, token.size() - 2);
    if (in.find('\\') == std::string_view::npos) return key_of(in);
    constexpr std::string_view tokens[key_count] = {"\"ph\"", "\"name\"", "\"cat\"", "\"pid\"", "\"tid\"", "\"ts\"",
                                                    "\"dur\"", "\"args\"", "\"s\"", "\"id\"", "\"bp\""};
    for (unsigned i = 0; i < key_count; ++i)
        if (json::same_string(token, tokens[i])) return static_cast<key>(i);
    return key_count;
}
// The record an event's `ph` (its last one's compact text: a string of one character, maybe
// escaped, `"\u0058"`) asks for.
constexpr kind kind_of(std::string_view ph) noexcept {
    char c = 0;
    if (ph.size() == 3 && ph[0] == '"' && ph[2] == '"' && ph[1] != '\\') {
        c = ph[1];
    } else {
        for (const char x : std::string_view("XBEiICMstf")) {
            const char t[3] = {'"', x, '"'};
            if (json::same_string(ph, std::string_view(t, 3))) c = x;
        }
    }
    switch (c) {
    case 'X': return kind::span_x;
    case 'B': return kind::span_b;
    case 'E': return kind::span_e;
    case 'i':
    case 'I': return kind::instant;
    case 'C': return kind::counter;
    case 'M': return kind::meta;
    case 's':
    case 't':
    case 'f': return kind::flow;
    default: return kind::other;
    }
}
// Whether two member key tokens name the same key (decoded when either has an escape).
inline bool same_key(std::string_view a, std::string_view b) noexcept {
    if (a == b) return true;
    if (a.find('\\') == std::string_view::npos && b.find('\\') == std::string_view::npos) return false;
    return json::same_string(a, b);
}

// Whether two compact values are the same as records write them (strings decoded: `"a"` and
// `"\u0061"` are one thread; `1` and `"1"` two).
inline bool same_value(std::string_view a, std::string_view b) noexcept {
    if (a == b) return true;
    if (a.empty() || b.empty() || a.front() != '"' || b.front() != '"') return false;
    if (a.find('\\') == std::string_view::npos && b.find('\\') == std::string_view::npos) return false;
    return json::same_string(a, b);
}

// The members an event's record maps, the last occurrence of each: a member's text is set
// and read only when `present` has its bit (the slots are not cleared for each event).
struct mapped {
    struct slot {
        const char* p;
        std::size_t n;
    };
    slot s[key_count];
    unsigned present = 0;
    bool has(key k) const noexcept { return (present & bit(k)) != 0; }
    std::string_view operator[](key k) const noexcept { return has(k) ? std::string_view(s[k].p, s[k].n) : std::string_view{}; }
    void set(key k, std::string_view v) noexcept {
        s[k] = slot{v.data(), v.size()};
        present |= bit(k);
    }
};

// Bytes kept from one event to the next: an arena with a bump pointer (the open B events).
// An entry is an open B, or a mark of the B events of one thread that did not fit the store
// (`dropped` of them, opened one after the other: the E events that close them come first).
struct open_span {
    std::uint64_t index;
    std::size_t at;                         // its bytes in the arena: pid, tid, name, cat, ts, args, extra
    std::uint32_t len[7];
    std::uint32_t dropped;                  // 0: an open B; else a mark (its pid and tid only)
    unsigned char present;                  // bit i: piece i is present (name, cat, ts, args, extra)
};

// Room kept past the store's capacities for the marks: entries and bytes (their pid and tid).
inline constexpr std::size_t mark_entries = 16, mark_bytes = 1024;

// The bytes an event is made of and made into: the event's compact text, then what is made
// from it (decoded strings, `extra`, merged members, a duration), each a view of `buf`.
struct scratch {
    char* buf = nullptr;
    std::size_t cap = 0, used = 0;
    bool overflow = false;
    std::string_view keep(std::string_view s) noexcept {
        if (s.size() > cap - used) {
            overflow = true;
            return {};
        }
        if (!s.empty()) std::memcpy(buf + used, s.data(), s.size());
        const std::string_view v(buf + used, s.size());
        used += s.size();
        return v;
    }
    std::span<char> spare() noexcept { return {buf + used, cap - used}; }
};

// The JSON reader's visitor: the document's shape (object or bare array, `traceEvents`), each
// event captured whole (compact), made into its record; B/E stacks; the errors.
template <class V>
class core {
public:
    static constexpr bool wants_events =
        wants_any<V, on_span_event, on_instant_event, on_counter_event, on_meta_event, on_flow_event, on_event_event,
                  on_error_event>;
    static constexpr bool wants_info = wants_any<V, on_trace_info_event>;

    core(V& vis, char* ev, std::size_t ev_cap, char* work, std::size_t work_cap, char* arena, std::size_t arena_cap,
         open_span* spans, std::size_t spans_cap) noexcept
        : vis_(vis), ev_{ev, ev_cap}, work_{work, work_cap}, arena_(arena), arena_cap_(arena_cap), spans_(spans),
          spans_cap_(spans_cap) {}

    // -- json::reader's callbacks --
    json::action on_object_begin() {
        if (depth_ == 0) {
            depth_ = 1;
            top_ = top::object;
            return json::action::proceed;
        }
        if (expect_events_) return broken("traceEvents is not an array");
        if (in_events_ && depth_ == events_depth_) return element(true);
        return json::action::skip; // (not reached: members are captured)
    }
    json::action on_array_begin() {
        if (depth_ == 0) {
            depth_ = 1;
            top_ = top::array;
            in_events_ = true;
            events_depth_ = 1;
            return json::action::proceed;
        }
        if (expect_events_) {
            expect_events_ = false;
            in_events_ = true;
            depth_ = events_depth_ = 2;
            return json::action::proceed;
        }
        if (in_events_ && depth_ == events_depth_) return element(false);
        return json::action::skip;
    }
    json::action on_array_end() {
        if (in_events_ && depth_ == events_depth_) in_events_ = false;
        --depth_;
        return json::action::proceed;
    }
    json::action on_object_end() {
        --depth_;
        return json::action::proceed;
    }
    json::action on_key(std::string_view k) {
        if (depth_ != 1 || top_ != top::object) return json::action::skip;
        if (k == "traceEvents") {
            expect_events_ = true;
            return json::action::proceed;
        }
        if constexpr (!wants_info) return json::action::skip;
        work_.used = 0; // (the key, kept there until its value is read: the reader's scratch held it, so it fits)
        work_.overflow = false;
        key_ = work_.keep(k);
        in_member_ = true;
        begin_capture();
        return json::action::capture;
    }
    json::action on_string_part(std::string_view, bool last) { return last ? scalar() : json::action::proceed; } // (no length limit)
    json::action on_number(const json::number&) { return scalar(); }
    json::action on_bool(bool) { return scalar(); }
    json::action on_null() { return scalar(); }
    json::action on_value_text(std::string_view part, bool last) {
        cmp_.feed(part, [this](std::string_view run) { put(run); });
        if (!last) return json::action::proceed;
        cmp_.finish([this](std::string_view run) { put(run); });
        capturing_ = false;
        const flow f = in_member_ ? member_done() : element_done();
        in_member_ = false;
        return f == flow::stop ? json::action::stop : json::action::proceed;
    }

    // -- the parser's --
    // The reader is about to finish: a value it completes now (a number at the very end) is
    // known to end the input.
    void finishing(bool in_token) noexcept {
        finishing_ = true;
        cut_in_token_ = in_token;
    }
    // The input ended (the reader's outcome `r`): the break, if any, then the B events never
    // closed. Returns the parse's outcome.
    error finish(const error& r) {
        error out = r;
        if (!r.ok() && r.code != error_code::stopped && !broke_) {
            // a bare array cut after a complete element (and maybe its `,`) ends normally
            const bool cut_between = top_ == top::array && r.code == error_code::unexpected_end && !capturing_ &&
                                     index_ > 0 && (!cut_in_token_ || completed_at_end_);
            if (cut_between) {
                out = error{};
            } else {
                error e = r;
                e.document = false;
                e.index = in_events_ ? std::optional<std::uint64_t>(index_) : std::nullopt;
                if (report(e) == flow::stop) return error{error_code::stopped, 0, 0, 0, "stopped by visitor", 0};
            }
        } else if (broke_) {
            out = break_;
            if (stopped_) return error{error_code::stopped, 0, 0, 0, "stopped by visitor", 0};
        }
        if (r.code == error_code::stopped && !broke_) return out;
        for (std::size_t i = 0; i < open_n_; ++i) // (a mark's B events had their error, each at its index)
            if (spans_[i].dropped == 0 && report(error_at(spans_[i].index, "B is never closed")) == flow::stop)
                return error{error_code::stopped, 0, 0, 0, "stopped by visitor", 0};
        open_n_ = marks_n_ = marks_bytes_ = arena_used_ = 0;
        return out;
    }

    // Between two events of traceEvents, with no B open and nothing captured or broken: a
    // core started in the events (the parser's start_in_events) reads on as this one does.
    bool between_events() const noexcept {
        return !broke_ && in_events_ && depth_ == events_depth_ && !capturing_ && !in_member_ && open_n_ == 0;
    }
    // The elements of traceEvents read so far.
    std::uint64_t events_read() const noexcept { return index_; }

private:
    enum class top : unsigned char { none, object, array };

    flow report(const error& e) { return report_error(vis_, e); }
    static error error_at(std::optional<std::uint64_t> index, std::string_view message, error_code code = error_code::syntax) noexcept {
        error e{code, 0, 0, 0, message, 0};
        e.index = index;
        return e;
    }
    // A break of our own (the document's shape): its error now, and the end of the parse.
    json::action broken(std::string_view message) {
        broke_ = true;
        break_ = error_at(in_events_ ? std::optional<std::uint64_t>(index_) : std::nullopt, message);
        if (report(break_) == flow::stop) stopped_ = true; // (the visitor's stop, on the break's record)
        return json::action::stop;
    }
    json::action scalar() {
        if (depth_ == 0) return broken("the top level is neither an object nor an array");
        if (expect_events_) return broken("traceEvents is not an array");
        if (in_events_ && depth_ == events_depth_) {
            const std::uint64_t i = index_++;
            completed_at_end_ = finishing_;
            if constexpr (wants_events)
                if (report(error_at(i, "event is not a JSON object")) == flow::stop) return json::action::stop;
        }
        return json::action::proceed;
    }
    json::action element(bool object) {
        if constexpr (!wants_events) {
            ++index_; // (nobody wants the events: passed over, validated; its end event comes)
            ++depth_;
            return json::action::skip;
        }
        element_object_ = object;
        begin_capture();
        return json::action::capture;
    }
    void begin_capture() noexcept {
        cmp_.reset();
        ev_.used = 0;
        ev_.overflow = false;
        capturing_ = true;
    }
    void put(std::string_view run) noexcept { (void)ev_.keep(run); }

    // The record `make()` builds, to the visitor's callback for `Event` when it has one; an
    // error for the event instead when what the record is made of did not fit the scratch
    // buffer (nothing half made is delivered).
    template <class Event, class Make>
    flow deliver(std::optional<std::uint64_t> index, Make&& make) {
        if constexpr (Event::template named<V>()) {
            const auto r = make();
            if (work_.overflow) return report(error_at(index, "event too large for the scratch buffer", error_code::too_long));
            if constexpr (Event::template callable<V, decltype(r)>()) {
                return ::logscan::internal::call_as_flow([&]() -> decltype(auto) { return Event::invoke(vis_, r); });
            } else {
                static_assert(Event::template reject<V>());
                return flow::proceed;
            }
        } else {
            return flow::proceed;
        }
    }

    // -- values --
    // A value as its record gives it, of an event read in one pass (on_whole_object): its
    // strings have no escape (json::whole_scan leaves those to the reader), so a string's
    // text is between its quotes.
    static json_value plain_value_of(bool present, std::string_view raw) noexcept {
        if (!present || raw.empty() || internal::equals(raw, "null")) return std::nullopt;
        if (raw.front() != '"' || raw.size() < 2) return string_or_json{raw, true}; // (< 2: no token, never here)
        return string_or_json{std::string_view(raw.data() + 1, raw.size() - 2), false};
    }
    json_value value_of(bool present, std::string_view raw) noexcept {
        if (!present || raw.empty() || internal::equals(raw, "null")) return std::nullopt;
        if (raw.front() != '"') return string_or_json{raw, true};
        const auto t = json::string_text(raw, work_.spare());
        if (!t) {
            work_.overflow = true;
            return std::nullopt;
        }
        if (t->data() == work_.buf + work_.used) work_.used += t->size(); // (decoded into the spare bytes)
        return string_or_json{*t, false};
    }
    // The B's and E's members merged (formats.md 6A.3): the B's whose key the E's lack, then
    // the E's; the one present when only one is; the E's when not both are objects.
    json_object merged(bool b_has, std::string_view b, bool e_has, std::string_view e) noexcept {
        b_has = b_has && !internal::equals(b, "null"); // (`null` is no members: absent, as a key absent or null is null)
        e_has = e_has && !internal::equals(e, "null");
        if (!b_has) return value_of(e_has, e);
        if (!e_has) return value_of(true, b);
        if (b.front() != '{' || e.front() != '{') return value_of(true, e);
        const std::size_t from = work_.used;
        bool any = false;
        const auto member = [&](std::string_view k, std::string_view v) {
            (void)work_.keep(any ? std::string_view(",") : std::string_view("{"));
            (void)work_.keep(k);
            (void)work_.keep(":");
            (void)work_.keep(v);
            any = true;
        };
        json::for_each_member(b, [&](std::string_view k, std::string_view v) {
            bool in_e = false;
            json::for_each_member(e, [&](std::string_view ek, std::string_view) {
                if (same_key(k, ek)) in_e = true;
                return !in_e;
            });
            if (!in_e) member(k, v);
        });
        json::for_each_member(e, member);
        (void)work_.keep(any ? "}" : "{}");
        return string_or_json{std::string_view(work_.buf + from, work_.used - from), true};
    }

    // -- top-level members --
    flow member_done() {
        if (ev_.overflow) return report(error_at(std::nullopt, "top-level value too large for the scratch buffer", error_code::too_long));
        const std::string_view raw(ev_.buf, ev_.used);
        return deliver<on_trace_info_event>(std::nullopt, [&] { return trace_info{key_, value_of(true, raw)}; });
    }

    // -- events --
    // An event captured by the reader's events: its compact text, read member by member.
    flow element_done() {
        const std::uint64_t index = index_++;
        if (!element_object_) return report(error_at(index, "event is not a JSON object"));
        if (ev_.overflow) return report(error_at(index, "event too large for the scratch buffer", error_code::too_long));
        const std::string_view text(ev_.buf, ev_.used);
        const auto members = [&](auto&& f) {
            json::for_each_member(text, [&](std::string_view k, std::string_view v) { f(key_of_token(k), k, v); });
        };
        std::string_view ph = {}; // (the last `ph` says which record)
        members([&](key id, std::string_view, std::string_view v) {
            if (id == k_ph) ph = v;
        });
        return make_event(index, ph, members);
    }

public:
    /// (json::reader: an object at its opening brace.) An event lying whole in the chunk is
    /// read here in one pass (json::whole_scan): its members' keys told apart as they are
    /// read, scalars taken where they stand, objects and arrays compacted once; then the same
    /// record as from its captured text. Anything unusual (an escape, a non-finite word, an
    /// error, more than 64 members, an event larger than the scratch buffer) leaves it to the
    /// reader's events, from its brace, with nothing changed. `fuse_objects = false` turns
    /// this off (a test compares the two).
    bool on_whole_object(json::whole_object& w) {
        if constexpr (!wants_events) {
            return false;
        } else {
            if (!fuse_objects || !in_events_ || depth_ != events_depth_) return false;
            json::whole_scan s(w);
            const std::size_t levels = w.levels < 64 ? w.levels : 64;
            struct member { // (trivial: the array is not zeroed for each event)
                key id;
                const char* k;
                const char* v;
                std::uint32_t k_len, v_len;
            };
            member m[64];
            std::size_t n = 0;
            mapped at;            // (the members of known keys, the last of each: the last `ph` says which record)
            bool unknown = false; // (a member of another key)
            ev_.used = 0;
            ev_.overflow = false;
            const char* p = s.blanks(w.begin + 1);
            if (p == s.end) return false;
            if (*p == '}') {
                ++p;
            } else {
                for (;;) {
                    if (n == std::size(m)) return false;
                    const char* key_end;
                    const char* const key_at = p;
                    p = s.key(p, key_end);
                    if (p == nullptr) return false;
                    const char* q;
                    std::string_view v;
                    if (*p == '{' || *p == '[') {
                        char* out = ev_.buf + ev_.used;
                        q = s.skip_compact(p, levels - 1, out, ev_.buf + ev_.cap);
                        if (q == nullptr || out == nullptr) return false;
                        v = std::string_view(ev_.buf + ev_.used, static_cast<std::size_t>(out - (ev_.buf + ev_.used)));
                        ev_.used = static_cast<std::size_t>(out - ev_.buf);
                    } else {
                        q = s.skip_value(p, levels - 1);
                        if (q == nullptr) return false;
                        v = std::string_view(p, static_cast<std::size_t>(q - p));
                    }
                    const auto k_len = static_cast<std::uint32_t>(key_end + 1 - key_at);
                    const key id = key_of_readable(key_at + 1, k_len - 2);
                    if (id != key_count) at.set(id, v);
                    else unknown = true;
                    m[n++] = member{id, key_at, v.data(), k_len, static_cast<std::uint32_t>(v.size())};
                    bool done = false;
                    p = s.next(q, '}', done);
                    if (p == nullptr) return false;
                    if (done) break;
                }
            }
            if (static_cast<std::size_t>(p - w.begin) > ev_.cap) return false; // (the events tell whether it fits)
            const std::uint64_t index = index_++;
            const std::string_view ph = at[k_ph]; // (empty when none)
            const kind kd = kind_of(ph);
            flow f;
            if (!unknown && (at.present & ~mapped_keys(kd)) == 0) { // (every member one the record maps: no extra)
                work_.used = 0;
                work_.overflow = false;
                f = make_record<true>(index, kd, at, {}, false);
            } else {
                f = make_event<true>(index, ph, [&](auto&& each) {
                    for (std::size_t i = 0; i < n; ++i)
                        each(m[i].id, std::string_view(m[i].k, m[i].k_len), std::string_view(m[i].v, m[i].v_len));
                });
            }
            s.done(w, p);
            w.stop = f == flow::stop;
            w.stop_after_close = true; // (as the reader stops after an event it captured)
            ++whole_objects;
            return true;
        }
    }
    /// True (the default): events lying whole in the chunk are read in one pass (above).
    bool fuse_objects = true;
    /// Events read in one pass (a statistic, for tests and benchmarks).
    std::uint64_t whole_objects = 0;

private:
    // The record of the event at `index` whose last `ph` is `ph` and whose members
    // `members(f)` hands to `f(id, key token, compact value)` in input order: the last
    // occurrence of each key its record maps, the other members into `extra` in input order.
    // `Plain`: the members' strings have no escape (an event read in one pass).
    template <bool Plain = false, class Members>
    flow make_event(std::uint64_t index, std::string_view ph, Members&& members) {
        work_.used = 0;
        work_.overflow = false;
        const kind kd = kind_of(ph);
        const unsigned wanted = mapped_keys(kd);
        mapped at;
        const std::size_t extra_from = work_.used;
        bool any_extra = false;
        members([&](key id, std::string_view k, std::string_view v) {
            if (id != key_count && (wanted & bit(id)) != 0) {
                at.set(id, v);
                return;
            }
            (void)work_.keep(any_extra ? std::string_view(",") : std::string_view("{"));
            (void)work_.keep(k);
            (void)work_.keep(":");
            (void)work_.keep(v);
            any_extra = true;
        });
        if (any_extra) (void)work_.keep("}");
        const std::string_view extra_text(work_.buf + extra_from, work_.used - extra_from);
        return make_record<Plain>(index, kd, at, extra_text, any_extra);
    }
    // The record of kind `kd` at `index` of the mapped members `at` and the other members'
    // object text `extra_text` (`any_extra`: there is one), made in work_.
    template <bool Plain>
    flow make_record(std::uint64_t index, kind kd, const mapped& at, std::string_view extra_text, bool any_extra) {
        if (work_.overflow) return report(error_at(index, "event too large for the scratch buffer", error_code::too_long));
        const auto has = [&](key k) { return at.has(k); };
        const auto val = [&](key k) { return Plain ? plain_value_of(has(k), at[k]) : value_of(has(k), at[k]); };
        const auto obj = val;
        const json_object extra = any_extra ? json_object(string_or_json{extra_text, true}) : std::nullopt;
        flow f = flow::proceed;
        switch (kd) {
        case kind::span_x:
            f = deliver<on_span_event>(index, [&] {
                return span{index, val(k_name), val(k_cat), val(k_ph), val(k_pid), val(k_tid), val(k_ts), val(k_dur),
                            obj(k_args), extra};
            });
            break;
        case kind::span_b: f = push_b(index, at, extra_text, any_extra); break;
        case kind::span_e: f = close_b(index, at, extra_text, any_extra); break;
        case kind::instant:
            f = deliver<on_instant_event>(index, [&] {
                return instant{index, val(k_name), val(k_cat), val(k_ph), val(k_s), val(k_pid), val(k_tid), val(k_ts),
                               obj(k_args), extra};
            });
            break;
        case kind::counter:
            f = deliver<on_counter_event>(index, [&] {
                return counter{index, val(k_name), val(k_cat), val(k_id), val(k_pid), val(k_tid), val(k_ts), obj(k_args), extra};
            });
            break;
        case kind::meta:
            f = deliver<on_meta_event>(index, [&] {
                meta m{index, val(k_name), val(k_pid), val(k_tid), val(k_ts), std::nullopt, obj(k_args), extra};
                m.value = meta_value(m.name, has(k_args) ? at[k_args] : std::string_view{});
                return m;
            });
            break;
        case kind::flow:
            f = deliver<on_flow_event>(index, [&] {
                return flow_event{index, val(k_ph), val(k_name), val(k_cat), val(k_id), val(k_bp), val(k_pid), val(k_tid),
                                  val(k_ts), obj(k_args), extra};
            });
            break;
        case kind::other:
            f = deliver<on_event_event>(index, [&] {
                return event{index, val(k_ph), val(k_name), val(k_cat), val(k_id), val(k_pid), val(k_tid), val(k_ts),
                             val(k_dur), obj(k_args), extra};
            });
            break;
        }
        return f;
    }
    // An M event's value: the args member its name says (the last occurrence), else none.
    json_value meta_value(const json_value& name, std::string_view args) noexcept {
        if (!name || name->json || args.empty() || args.front() != '{') return std::nullopt;
        const std::string_view n = name->text;
        const std::string_view member = n == "process_name" || n == "thread_name" ? "\"name\""
                                        : n == "process_labels"                   ? "\"labels\""
                                        : n == "process_sort_index" || n == "thread_sort_index" ? "\"sort_index\""
                                                                                                : "";
        if (member.empty()) return std::nullopt;
        std::string_view found;
        bool has = false;
        json::for_each_member(args, [&](std::string_view k, std::string_view v) {
            if (k == member || (k.find('\\') != std::string_view::npos && json::same_string(k, member))) {
                found = v;
                has = true;
            }
        });
        return value_of(has, found);
    }

    // -- B/E --
    enum piece : unsigned { p_pid, p_tid, p_name, p_cat, p_ts, p_args, p_extra, piece_count };
    static std::string_view thread_text(bool present, std::string_view raw) noexcept { return present ? raw : "null"; }
    std::string_view piece_of(const open_span& s, unsigned i) const noexcept {
        std::size_t at = s.at;
        for (unsigned k = 0; k < i; ++k) at += s.len[k];
        return {arena_ + at, s.len[i]};
    }
    flow push_b(std::uint64_t index, const mapped& at, std::string_view extra, bool has_extra) {
        const auto has = [&](key k) { return at.has(k); };
        const std::string_view pieces[piece_count] = {thread_text(has(k_pid), at[k_pid]), thread_text(has(k_tid), at[k_tid]),
                                                       at[k_name], at[k_cat], at[k_ts], at[k_args], extra};
        std::size_t need = 0;
        for (std::string_view p : pieces) need += p.size();
        // (the store's entries and bytes are the Bs'; the marks have room of their own)
        if (open_n_ - marks_n_ >= spans_cap_ || !room(need, arena_cap_ + marks_bytes_))
            return drop_b(index, pieces[p_pid], pieces[p_tid]);
        open_span& s = store(index, pieces);
        s.present = static_cast<unsigned char>((has(k_name) ? 1u : 0u) | (has(k_cat) ? 2u : 0u) | (has(k_ts) ? 4u : 0u) |
                                               (has(k_args) ? 8u : 0u) | (has_extra ? 16u : 0u));
        return flow::proceed;
    }
    // A B that does not fit: an error at its index, and a mark on its thread's stack (one for
    // the B events dropped one after the other), so that the E events closing them close no
    // other B. Past the room kept for marks (`mark_entries`, `mark_bytes`), the E events of the
    // thread may close the wrong B: the error says so.
    flow drop_b(std::uint64_t index, std::string_view pid, std::string_view tid) {
        const std::size_t last = thread_top(pid, tid);
        if (last != 0 && spans_[last - 1].dropped != 0 && spans_[last - 1].dropped != ~std::uint32_t{0}) {
            ++spans_[last - 1].dropped;
        } else if (const std::size_t need = pid.size() + tid.size();
                   marks_n_ < mark_entries && need <= mark_bytes - marks_bytes_ && room(need, arena_cap_ + mark_bytes)) {
            const std::string_view pieces[piece_count] = {pid, tid, {}, {}, {}, {}, {}};
            store(index, pieces).dropped = 1;
            ++marks_n_;
            marks_bytes_ += need;
        } else {
            return report(error_at(index, "B event does not fit the open-span store (format_options::open_capacity), nor "
                                          "does a mark of it: the E events of its thread may close the wrong B"));
        }
        return report(error_at(index, "B event does not fit the open-span store (format_options::open_capacity)"));
    }
    open_span& store(std::uint64_t index, const std::string_view (&pieces)[piece_count]) noexcept {
        open_span& s = spans_[open_n_++];
        s.index = index;
        s.at = arena_used_;
        s.dropped = 0;
        s.present = 0;
        for (unsigned i = 0; i < piece_count; ++i) {
            s.len[i] = static_cast<std::uint32_t>(pieces[i].size());
            if (!pieces[i].empty()) std::memcpy(arena_ + arena_used_, pieces[i].data(), pieces[i].size());
            arena_used_ += pieces[i].size();
        }
        return s;
    }
    // One past the thread's most recent entry, or 0 when it has none.
    std::size_t thread_top(std::string_view pid, std::string_view tid) const noexcept {
        std::size_t i = open_n_;
        while (i > 0 && !(same_value(piece_of(spans_[i - 1], p_pid), pid) && same_value(piece_of(spans_[i - 1], p_tid), tid))) --i;
        return i;
    }
    // Room for `need` more bytes in the arena's first `cap`, the open spans' bytes moved to its
    // start when that makes it.
    bool room(std::size_t need, std::size_t cap) noexcept {
        if (arena_used_ <= cap && need <= cap - arena_used_) return true;
        std::size_t w = 0;
        for (std::size_t i = 0; i < open_n_; ++i) {
            std::size_t n = 0;
            for (unsigned k = 0; k < piece_count; ++k) n += spans_[i].len[k];
            if (spans_[i].at != w && n != 0) std::memmove(arena_ + w, arena_ + spans_[i].at, n);
            spans_[i].at = w;
            w += n;
        }
        arena_used_ = w;
        return arena_used_ <= cap && need <= cap - arena_used_;
    }
    flow close_b(std::uint64_t index, const mapped& at, std::string_view extra, bool has_extra) {
        const auto has = [&](key k) { return at.has(k); };
        const std::string_view pid = thread_text(has(k_pid), at[k_pid]), tid = thread_text(has(k_tid), at[k_tid]);
        const std::size_t i = thread_top(pid, tid);
        if (i == 0) return report(error_at(index, "E without an open B on its thread"));
        const open_span s = spans_[i - 1];
        if (s.dropped > 1) --spans_[i - 1].dropped;
        if (s.dropped <= 1) {
            for (std::size_t k = i; k < open_n_; ++k) spans_[k - 1] = spans_[k]; // (the others keep their order)
            --open_n_;
            if (s.dropped == 1) {
                --marks_n_;
                marks_bytes_ -= std::size_t{s.len[p_pid]} + s.len[p_tid];
            }
            if (open_n_ == 0) arena_used_ = 0;
        }
        if (s.dropped != 0) return report(error_at(index, "E closes a B event that did not fit the open-span store"));
        const auto b_has = [&](unsigned bitmask) { return (s.present & bitmask) != 0; };
        flow f = flow::proceed;
        // an E's name (present, not null, not "") that differs from its B's: an error first
        const json_value e_name = value_of(has(k_name), at[k_name]);
        if (e_name && !(e_name->text.empty() && !e_name->json)) {
            const json_value b_name = value_of(b_has(1), piece_of(s, p_name));
            if (!b_name || b_name->json != e_name->json || b_name->text != e_name->text)
                f = report(error_at(index, "E's name differs from the name of the B it closes"));
        }
        if (f == flow::stop) return f;
        return deliver<on_span_event>(index, [&] {
            const std::string_view b_ts = piece_of(s, p_ts);
            json_value dur;
            if (b_has(4) && has(k_ts) && number_token(b_ts) && number_token(at[k_ts])) {
                if (const auto d = decimal_difference(at[k_ts], b_ts, work_.spare())) {
                    work_.used += d->size();
                    dur = string_or_json{*d, true};
                }
            }
            return span{index,
                        value_of(b_has(1), piece_of(s, p_name)),
                        value_of(b_has(2), piece_of(s, p_cat)),
                        string_or_json{"B", false},
                        value_of(true, piece_of(s, p_pid)),
                        value_of(true, piece_of(s, p_tid)),
                        value_of(b_has(4), b_ts),
                        dur,
                        merged(b_has(8), piece_of(s, p_args), has(k_args), at[k_args]),
                        merged(b_has(16), piece_of(s, p_extra), has_extra, extra)};
        });
    }
    static constexpr bool number_token(std::string_view t) noexcept {
        return !t.empty() && (t.front() == '-' || (t.front() >= '0' && t.front() <= '9'));
    }

    V& vis_;
    scratch ev_;   // the captured event (or top-level value), compact
    scratch work_; // what is made from it
    json::compactor cmp_;
    char* arena_;
    std::size_t arena_cap_, arena_used_ = 0;
    open_span* spans_;
    std::size_t spans_cap_, open_n_ = 0;
    std::size_t marks_n_ = 0, marks_bytes_ = 0; // (the marks among the open_n_ entries, and their bytes)
    std::string_view key_{}; // (a top-level member's key, in work_)
    top top_ = top::none;
    std::size_t depth_ = 0, events_depth_ = 0;
    std::uint64_t index_ = 0;
    bool in_events_ = false, expect_events_ = false, in_member_ = false, element_object_ = false, capturing_ = false;
    bool broke_ = false, stopped_ = false, finishing_ = false, cut_in_token_ = false, completed_at_end_ = false;
    error break_{};
};

} // namespace detail

/// The push parser: `feed(chunk)` any number of times (any split), then `finish()`;
/// `result()` is the parse's outcome (a break's error, also delivered to `on_error`). A UTF-8
/// byte order mark at the start is skipped. Its buffers (`options::scratch_capacity` twice,
/// `options::open_capacity`, the JSON reader's) are allocated once, at construction, or are a
/// `buffers` the caller made once for parsers made one after another (a parse in parts,
/// chrome_trace_parts.hpp: a parser per part, nothing allocated per part). Not copyable or
/// movable.
template <class Visitor>
class parser {
    static_assert(records::template accepts<Visitor>());
    using reader_type = json::reader<detail::core<Visitor>>;
    static constexpr json::options reader_options(std::size_t cap) noexcept {
        return json::options{.scratch_capacity = cap, .validate_utf8 = false, .lone_surrogates = true};
    }

public:
    /// A parser's memory, in two blocks, for the capacities of `opt` (about 2.75 x
    /// `open_capacity` bytes and three times `scratch_capacity`: 11 MiB by default). A parser
    /// made on it (`parser(vis, buffers&)`) allocates nothing. One parser at a time uses it
    /// (on any thread): a parser made on buffers another live parser holds reports
    /// `io_error` and reads nothing. It outlives the parsers made on it. Not copyable or
    /// movable.
    class buffers {
    public:
        explicit buffers(const options& opt = {}) noexcept
            : cap_(opt.scratch_capacity ? opt.scratch_capacity : 1), arena_cap_(opt.open_capacity ? opt.open_capacity : 1),
              spans_cap_(arena_cap_ / 32 + 16) {
            // (capacities whose sum would overflow: no buffers, a parser on them says so)
            constexpr std::size_t most = ~std::size_t{0} / 8;
            if (cap_ > most || arena_cap_ > most || spans_cap_ > most / sizeof(detail::open_span) - detail::mark_entries)
                return;
            reader_bytes_ = reader_type::storage_size(reader_options(cap_));
            mem_ = static_cast<char*>(std::malloc(2 * cap_ + arena_cap_ + detail::mark_bytes + reader_bytes_));
            spans_ = static_cast<detail::open_span*>(std::malloc((spans_cap_ + detail::mark_entries) * sizeof(detail::open_span)));
        }
        buffers(const buffers&) = delete;
        buffers& operator=(const buffers&) = delete;
        ~buffers() {
            std::free(mem_);
            std::free(spans_);
        }
        /// False when they could not be allocated (a parser on them reports `io_error`).
        bool ok() const noexcept { return mem_ != nullptr && spans_ != nullptr; }

    private:
        friend class parser;
        // Taken by a parser until it is destroyed; false when another holds them (atomic: the
        // parser that is refused may be made on another thread).
        bool take() noexcept { return !held_.exchange(true, std::memory_order_acquire); }
        void give_back() noexcept { held_.store(false, std::memory_order_release); }
        std::size_t cap_, arena_cap_, spans_cap_, reader_bytes_ = 0;
        char* mem_ = nullptr;
        detail::open_span* spans_ = nullptr;
        std::atomic<bool> held_{false};
    };

    /// Reads into `vis` with the capacities of `opt` (its buffers allocated here, once).
    explicit parser(Visitor& vis, const options& opt = {}) : parser(vis, nullptr, opt) {}
    /// Reads into `vis` with the buffers `mem` (and the capacities they were made for):
    /// allocates nothing. `mem` outlives the parser, and no other parser uses it meanwhile
    /// (one that does is refused: its `result()` is an `io_error`).
    parser(Visitor& vis, buffers& mem) : parser(vis, &mem, {}) {}
    parser(const parser&) = delete;
    parser& operator=(const parser&) = delete;
    ~parser() {
        if (held_) mem_.give_back();
    }

    /// Feeds the next chunk. Returns `flow::stop` once the parse has ended.
    flow feed(std::string_view chunk) {
        if (done_) return flow::stop;
        if (!bom_.settled()) // (the first bytes: a byte order mark, maybe split, is dropped; positions still count its bytes)
            return bom_.feed(chunk, [&](std::string_view c) { return give(c); }, [&] { reader_.start_at(0, 3, 4); });
        return give(chunk);
    }
    /// Ends the input.
    flow finish() {
        if (done_) return flow::stop;
        // (an input that was a piece of a mark: those bytes are the document; a break: ended there)
        if (bom_.finish([&](std::string_view c) { return give(c); }) == flow::stop) return flow::stop;
        done_ = true;
        core_.finishing(reader_.in_token());
        (void)reader_.finish();
        result_ = core_.finish(reader_.result());
        return result_.ok() ? flow::proceed : flow::stop;
    }
    /// The parse's outcome: none, a break (its error, also the visitor's `error` record), or
    /// stopped.
    const error& result() const noexcept { return result_; }
    /// True (the default): each event lying whole in the chunk is read in one pass; false:
    /// through the JSON reader's events (the same records: a test compares the two).
    void fuse_objects(bool on) noexcept { core_.fuse_objects = on; }
    /// Events read in one pass so far (a statistic, for tests and benchmarks).
    std::uint64_t whole_objects() const noexcept { return core_.whole_objects; }

    /// Starts the parse in the middle of a document (a parse in parts: chrome_trace_parts.hpp):
    /// what is fed next is the rest of its `traceEvents` from an event's first byte, which is
    /// byte `offset` of the input and begins line `lines_before + 1` (errors say so);
    /// `bare_array`: the document is the array of events, else an object holding
    /// `traceEvents`. Events are indexed from 0 (the caller adds the events before). Call it
    /// before the first `feed`.
    void start_in_events(bool bare_array, std::uint64_t lines_before, std::uint64_t offset) {
        if (done_ || !bom_.at_start()) return;
        bom_.settle();
        (void)give(bare_array ? std::string_view("[") : std::string_view("{\"traceEvents\":["));
        reader_.start_at(lines_before, offset);
    }
    /// True when the input so far ends between two events of `traceEvents` (after its `[` or a
    /// `,`, blanks aside) with no `B` open and no error: a parser started there by
    /// `start_in_events` reads what follows as this one would (but for the indices).
    bool at_rest() const noexcept { return !done_ && reader_.at_value() && core_.between_events(); }
    /// The elements of `traceEvents` read so far (since `start_in_events`, if called).
    std::uint64_t events_read() const noexcept { return core_.events_read(); }

private:
    flow give(std::string_view chunk) {
        if (reader_.feed(chunk) == flow::stop) {
            done_ = true;
            result_ = core_.finish(reader_.result());
            return flow::stop;
        }
        return flow::proceed;
    }

    parser(Visitor& vis, buffers* given, const options& opt)
        : mem_(given != nullptr ? *given : owned_.emplace(opt)), held_(mem_.take()),
          core_(vis, ok() ? mem_.mem_ : nullptr, ok() ? mem_.cap_ : 0, ok() ? mem_.mem_ + mem_.cap_ : nullptr, ok() ? mem_.cap_ : 0,
                ok() ? mem_.mem_ + 2 * mem_.cap_ : nullptr, ok() ? mem_.arena_cap_ : 0, ok() ? mem_.spans_ : nullptr,
                ok() ? mem_.spans_cap_ : 0),
          reader_(core_, reader_options(mem_.cap_),
                  ok() ? std::span<std::byte>(reinterpret_cast<std::byte*>(mem_.mem_ + 2 * mem_.cap_ + mem_.arena_cap_ +
                                                                           detail::mark_bytes),
                                              mem_.reader_bytes_)
                       : std::span<std::byte>{}) {
        if (!ok()) {
            result_ = held_ ? error{error_code::io_error, 0, 0, 0, "cannot allocate the parser's buffers", ENOMEM}
                            : error{error_code::io_error, 0, 0, 0, "the parser's buffers are in use by another parser", EBUSY};
            done_ = true;
        }
    }
    bool ok() const noexcept { return held_ && mem_.ok(); }

    // (in this order: its own buffers, if any, made before and freed after what uses them)
    std::optional<buffers> owned_{}; // (its own, unless given)
    buffers& mem_;
    bool held_; // (it took mem_: no other parser held them)
    detail::core<Visitor> core_;
    reader_type reader_;
    error result_{};
    byte_order_mark bom_;
    bool done_ = false;
};

/// What `detect` counts, in a few words (for `logscan detect --help`).
inline constexpr std::string_view detect_signals =
    "a JSON object with \"traceEvents\" (or Kineto's \"schemaVersion\" and \"deviceProperties\"), or an array of "
    "event objects with \"ph\"";

/// How much the first bytes of an input (`head`, after a byte order mark: `detect_format`
/// passes over it) look like a Chrome trace: an object (its first non-blank byte `{`) with a
/// `"traceEvents"` key: 3, one more
/// with `"ph"` in the head; without it, Kineto's `"schemaVersion"` and `"deviceProperties"`
/// (written before the events): 2. A bare array whose first element is an object with
/// `"ph"`: 2, one more with `"ts"` (in a cut head of several lines, counted in its whole
/// lines only). Else 0 (a PyTorch execution trace, `"nodes"` without
/// `"traceEvents"`, is not claimed).
constexpr std::size_t detect(std::string_view head, bool cut = true) noexcept {
    const std::size_t first = head.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos) return 0;
    bool ph = head.find("\"ph\"") != std::string_view::npos;
    if (head[first] == '{') {
        if (head.find("\"traceEvents\"") != std::string_view::npos) return ph ? 4 : 3;
        if (head.find("\"schemaVersion\"") != std::string_view::npos &&
            head.find("\"deviceProperties\"") != std::string_view::npos)
            return 2;
        return 0;
    }
    if (head[first] != '[') return 0;
    // a bare array may be lines of events: in a cut head, what follows the last newline does not
    // count (formats/detect.hpp: as for every format read by lines)
    if (const std::size_t nl = head.rfind('\n'); cut && nl != std::string_view::npos) {
        head = head.substr(0, nl + 1);
        ph = head.find("\"ph\"") != std::string_view::npos;
    }
    const std::size_t second = head.find_first_not_of(" \t\r\n", first + 1);
    if (second == std::string_view::npos || head[second] != '{' || !ph) return 0;
    return head.find("\"ts\"") != std::string_view::npos ? 3 : 2;
}

/// The format's names (format.hpp's `LOGSCAN_FORMAT_MODULE`): `format`, `record_types` (formats.md
/// section 6A, `error` included), `visitor<V>`, `parse` (the source's error, a break's error
/// (delivered to `on_error` too), `stopped`, or none) and `ndjson_visitor<Writer>` (formats.md
/// 6A.2).
LOGSCAN_FORMAT_MODULE(format_name, records, detect, detect_signals, parser);

} // namespace logscan::chrome_trace

#endif // LOGSCAN_FORMATS_CHROME_TRACE_HPP_INCLUDED
