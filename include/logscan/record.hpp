// SPDX-License-Identifier: MIT
/// \file record.hpp
/// Records described once. A format lists its record types, each with its `"type"` name, its
/// C++ struct, its callback (a `LOGSCAN_EVENT`) and its fields in the contract's order; from
/// that one list come, generically:
/// - `record_types` (the `"type"` of every record, `text` and `error` included);
/// - the visitor check (`accepts<V>`: V has one of the callbacks, or derives from
///   `validate_only`) and its compile error, which names the callbacks;
/// - the NDJSON writer of every record (`ndjson<Writer>`, the visitor the command, the
///   parallel driver and the tests render with), hence the CSV columns the command flattens
///   from it, and the fixed set of keys per record type (formats.md, common rules: every
///   field is written, `null` when absent);
/// - `write_value(emitter, value)` and `write_fields(emitter, record, fields)`: any field
///   value through an *emitter*, anything with the `ndjson_writer` calls `key`, `value`
///   (integers, `double`, `bool`, `std::string_view`, `nullptr`), `number_or_string`,
///   `raw_value`, `begin_array`/`end_array`, `begin_object`/`end_object` (other outputs: CSV
///   cells, a binding's objects). An emitter with `field_key(k)` gets the declared fields'
///   keys through it instead of `key`: their text is in static storage, so its address names
///   the field (the Python module's columns find a field's column so);
/// - `keys_clash<Kind>(items, key_of)`: whether a map's keys would give a record two values
///   under one key (two keys alike, or an `entries<>` key named as one of Kind's own), which
///   a format checks before it yields a record from a line that may be two lines run together.
///
/// \code
/// struct run { std::uint64_t line; std::string_view model, device; };
/// LOGSCAN_EVENT(on_run, "void on_run(const my::run&)");
/// using records = logscan::record_list<
///     logscan::record_kind<"run", run, on_run_event,
///                          logscan::field<"model", &run::model>,
///                          logscan::field<"device", &run::device>>,
///     logscan::text_kind, logscan::error_kind>;
/// // records::types == {"run", "text", "error"}; records::ndjson<W> writes
/// // {"type":"run","line":3,"model":"resnet18","device":"cpu(0)"}
/// \endcode
///
/// A field is `field<"name", get>` with `get` a data member pointer or a function of the
/// record (a computed field). Its value's C++ type says how it is written:
/// - integers, `double` (non-finite: `null`), `bool`, `std::string_view`: `w.value(v)`;
/// - `shape_list`: an array of integers, `null` when it is not valid;
/// - `std::optional<T>`: `null` when empty, else T;
/// - `loose_number`: a number when its text is one (`grouped`: with `,` separators), else a string;
/// - `json_text`: JSON text written as it is (a raw subtree);
/// - `string_or_json`: a string, or JSON text written as it is (a value printed either way);
/// - a type with `for_each_entry(f)` calling `f(key, value)`: an object (a map: cells, metrics);
/// - a type with `for_each_item(f)` calling `f(value)`, or a range: an array;
/// - a struct described by an ADL function `describe(const T&)` returning `record_fields<...>`
///   (declared only): an object of those fields.
/// `entries<get>` writes the entries of a map as the record's own keys (`opr_seq`'s pairs).
/// The line number comes from the record's `line` member (a `logscan::line`'s `number`);
/// records without one, or whose `line` is 0 (a format that reads both lines and JSON
/// documents: a record of a document), have no `"line"`. An `error` whose `document` flag is
/// set (the JSON reader's) is written `{"type":"error","message":"invalid JSON document"}`.
#ifndef LOGSCAN_RECORD_HPP_INCLUDED
#define LOGSCAN_RECORD_HPP_INCLUDED

#include <array>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string_view>
#include <type_traits>

#include "config.hpp"
#include "error.hpp"
#include "fixed_string.hpp"
#include "lines.hpp"
#include "num.hpp"
#include "visit.hpp"

namespace logscan {

/// A value written as a JSON number when its text is one (`grouped`: `,` thousands
/// separators allowed), as a string otherwise (`ndjson_writer::number_or_string`).
struct loose_number {
    std::string_view text; ///< the value's text
    bool grouped = false;  ///< `1,234` is a number
};

/// Text that is JSON already (a subtree copied from a JSON input), written as it is.
struct json_text {
    std::string_view text; ///< the JSON text
};

/// A value that is a string (`json == false`: `text` is written as a JSON string) or JSON
/// text already (`json == true`: written as it is).
struct string_or_json {
    std::string_view text; ///< the string, or the JSON text
    bool json = false;     ///< `text` is JSON
};

/// A field of a record: its key and how to get its value from the record (`Get`: a data
/// member pointer or a function taking the record).
template <fixed_string Name, auto Get>
struct field {
    static constexpr std::string_view name = Name.view(); ///< the key
    /// The field's value in `r`.
    template <class R>
    static constexpr decltype(auto) get(const R& r) {
        if constexpr (std::is_member_object_pointer_v<decltype(Get)>) return (r.*Get);
        else return Get(r);
    }
};

/// A map whose entries are the record's own keys (after the fields before it).
template <auto Get>
struct entries {
    /// The map in `r`.
    template <class R>
    static constexpr decltype(auto) get(const R& r) {
        if constexpr (std::is_member_object_pointer_v<decltype(Get)>) return (r.*Get);
        else return Get(r);
    }
};

/// The fields of a nested struct, as returned by its `describe(const T&)` (declared only).
template <class... Fields>
struct record_fields {};

/// One record type: its `"type"`, its struct, its callback's event and its fields in order.
template <fixed_string Type, class Record, class Event, class... Fields>
struct record_kind {
    static constexpr std::string_view type = Type.view(); ///< `"run"`
    using record = Record;                                 ///< the struct the callback takes
    using event = Event;                                   ///< the callback (`on_run_event`)
    /// Calls `f(Field{})` for each field in order.
    template <class F>
    static constexpr void for_each_field(F&& f) {
        (f(Fields{}), ...);
    }
};

/// The `text` record of formats.md's common rules: a line no rule took (`on_text`).
using text_kind = record_kind<"text", line, on_text_event, field<"text", &line::text>>;

/// The `error` record of formats.md's common rules (`on_error`): `"line"` and `"column"`
/// (`null` where the error has no column) where the error has a line, then `"message"` (an
/// error without a line, such as a document's object too
/// large for the parser's scratch buffer, has only its message: the byte offset it carries
/// in C++ depends on how the input was split into chunks). An error whose `document` flag
/// is set is `{"type":"error","message":"invalid JSON document"}`.
struct error_kind {
    static constexpr std::string_view type = "error"; ///< `"error"`
    using record = error;                              ///< the struct the callback takes
    using event = on_error_event;                      ///< `on_error`
};

/// The `error` record of a JSON document (formats.md's common rules: `megengine-profile`,
/// TVM's `Report.json()`): no `"line"`. An error of the document itself (the reader's: it has
/// a position, line >= 1, and ends the document) is written
/// `{"type":"error","message":"invalid JSON document"}` — its position and reason stay in the
/// C++ record `on_error` receives; any other (a record too large for the parser's storage,
/// after which the parse goes on) is `{"type":"error","message":M}` with its own message.
struct document_error_kind : error_kind {};

/// The `error` record of a stream of events (chrome-trace, formats.md section 6A):
/// `{"type":"error","index":N,"message":M}`, `index` the event's position (the error's
/// `index`; `null` when it has none, as for a break outside the events).
struct indexed_error_kind : error_kind {};

namespace internal {
template <class T>
struct is_optional : std::false_type {};
template <class T>
struct is_optional<std::optional<T>> : std::true_type {};

template <class T>
concept has_line_member = requires(const T& r) { r.line; };

template <class T>
concept described = requires(const T& v) { describe(v); };

template <class T>
struct is_entries : std::false_type {};
template <auto G>
struct is_entries<entries<G>> : std::true_type {};

// The record kind of a callback's event among Kinds, and its fields.
template <class Event, class K, class... Rest>
constexpr std::size_t kind_index() noexcept {
    if constexpr (std::is_same_v<typename K::event, Event>) return 0;
    else return 1 + kind_index<Event, Rest...>();
}
template <fixed_string T, class Rec, class E, class... Fields>
record_fields<Fields...> fields_in(record_kind<T, Rec, E, Fields...>*);
template <class Event, class K, class... Rest>
constexpr auto fields_of() noexcept {
    if constexpr (std::is_same_v<typename K::event, Event>) return decltype(fields_in(static_cast<K*>(nullptr))){};
    else return fields_of<Event, Rest...>();
}
template <class Event, class K, class... Rest>
constexpr std::string_view kind_of() noexcept {
    if constexpr (std::is_same_v<typename K::event, Event>) return K::type;
    else return kind_of<Event, Rest...>();
}

// True when no two names are equal (a record list's types).
template <std::size_t N>
constexpr bool distinct_names(const std::array<std::string_view, N>& names) noexcept {
    for (std::size_t i = 0; i < N; ++i)
        for (std::size_t j = i + 1; j < N; ++j)
            if (names[i] == names[j]) return false;
    return true;
}

// "on_a, on_b, on_c" as a fixed_string, for the visitor check's error
template <const std::string_view&... Names>
constexpr auto join_names() noexcept {
    constexpr std::size_t n = (Names.size() + ... + 0) + (sizeof...(Names) > 0 ? 2 * (sizeof...(Names) - 1) : 0) + 1;
    fixed_string<n> out{};
    std::size_t at = 0;
    bool first = true;
    const auto put = [&](std::string_view s) {
        if (!first) {
            out.chars[at++] = ',';
            out.chars[at++] = ' ';
        }
        first = false;
        for (char c : s) out.chars[at++] = c;
    };
    (put(Names), ...);
    return out;
}

/// Fails to compile when `Accepted` is false, showing the format's callbacks in the error's
/// context: each event type (`on_mem_alloc_event` for the callback `on_mem_alloc`), which
/// every compiler prints by name (clang prints a `fixed_string` argument as character codes).
template <bool Accepted, class... Events>
struct visitor_check {
    static_assert(Accepted, "logscan: the visitor has none of the format's callbacks (the event types of "
                            "visitor_check<false, ...> in this error's context: on_NAME_event is the callback "
                            "on_NAME): a misspelt name? Derive it from logscan::validate_only if it "
                            "deliberately has none");
    static constexpr bool value = Accepted;
};

/// Fails to compile when the visitor's callback of `Event` returns `Result`, which is not a
/// callback's result, showing the event (`on_mem_alloc_event`: the callback `on_mem_alloc`)
/// in the error's context.
template <class Event, class Result>
struct callback_result_check {
    static_assert(std::is_void_v<Result> || std::is_same_v<Result, bool> || std::is_same_v<Result, flow>,
                  "logscan: a visitor callback must return void, bool (false stops) or logscan::flow: the one "
                  "of the event type of callback_result_check<EVENT, RESULT> in this error's context "
                  "(on_NAME_event is the callback on_NAME) returns RESULT");
    static constexpr bool value = true;
};
/// True, or a compile error naming the callback, when V's callback of Kind's event, called with
/// Kind's record, returns something else than void, bool or logscan::flow.
template <class V, class Kind>
constexpr bool callback_result_ok() noexcept {
    using R = typename Kind::record;
    if constexpr (Kind::event::template callable<V, R>())
        return callback_result_check<typename Kind::event,
                                     std::remove_cvref_t<decltype(Kind::event::invoke(std::declval<V&>(), std::declval<const R&>()))>>::value;
    else
        return true;
}
// True when `k` is a key a record of `Kind` has of its own: `type`, `line` or a field's name.
template <class Kind>
constexpr bool own_key(std::string_view k) noexcept {
    bool own = k == "type" || k == "line";
    Kind::for_each_field([&](auto f) {
        if constexpr (!is_entries<decltype(f)>::value) own = own || k == decltype(f)::name;
    });
    return own;
}
} // namespace internal

/// formats.md's common rules give a record one value under each key. True when two of the
/// keys `key_of` gives for `items` (a multi-pass range) are one key, or, with `Kind` the
/// `record_kind` whose `entries<>` they are, when one is a key the record has of its own
/// (`type`, `line`, a field's name). A line cut short that runs into the next repeats the
/// keys the two share: a format yields no record whose map would break the rule (the line
/// stays what it also is: `log`, `text`). One walk, on the stack: a key is compared with the
/// keys before it only where one of them has its length and last byte. The keys are views
/// into text that outlives the walk (the first 32 are kept as they come; a key past them is
/// compared by walking `items` again).
template <class Kind = void, class Items, class KeyOf>
constexpr bool keys_clash(const Items& items, KeyOf key_of) noexcept {
    std::uint64_t seen = 0;         // a bit per (length, last byte) of the keys so far
    constexpr std::size_t most = 32;
    const char* kept[most];         // the first 32 keys, not zeroed (past them, a key is compared
    std::size_t sizes[most];        // with the keys before it where the bit says, by walking them again)
    static_assert(std::is_same_v<std::invoke_result_t<KeyOf&, decltype(*std::begin(items))>, std::string_view>,
                  "keys_clash: key_of gives a std::string_view into text that outlives the walk");
    std::size_t i = 0;
    for (const auto& item : items) {
        const std::string_view k = key_of(item);
        if constexpr (!std::is_void_v<Kind>)
            if (internal::own_key<Kind>(k)) return true;
        const unsigned last = k.empty() ? 0u : static_cast<unsigned char>(k.back());
        const std::uint64_t bit = std::uint64_t{1} << ((k.size() * 7 + last) & 63);
        if ((seen & bit) != 0) {
            if (i <= most) {
                for (std::size_t j = 0; j < i; ++j)
                    if (std::string_view(kept[j], sizes[j]) == k) return true;
            } else {
                std::size_t j = 0;
                for (const auto& before : items) {
                    if (j++ == i) break;
                    if (key_of(before) == k) return true;
                }
            }
        }
        if (i < most) {
            kept[i] = k.data();
            sizes[i] = k.size();
        }
        seen |= bit;
        ++i;
    }
    return false;
}
/// `keys_clash` of a range of keys (`std::string_view`s).
template <class Kind = void, class Keys>
constexpr bool keys_clash(const Keys& keys) noexcept {
    return keys_clash<Kind>(keys, [](std::string_view k) noexcept { return k; });
}

/// Writes a field value through an emitter with the `ndjson_writer` calls (see the file comment
/// for how each type is written).
template <class W, class T>
void write_value(W& w, const T& v) {
    if constexpr (internal::is_optional<T>::value) {
        if (v) write_value(w, *v);
        else w.value(nullptr);
    } else if constexpr (std::is_same_v<T, loose_number>) {
        w.number_or_string(v.text, v.grouped);
    } else if constexpr (std::is_same_v<T, json_text>) {
        w.raw_value(v.text);
    } else if constexpr (std::is_same_v<T, string_or_json>) {
        if (v.json) w.raw_value(v.text);
        else w.value(v.text);
    } else if constexpr (std::is_arithmetic_v<T> || std::is_same_v<T, std::string_view> ||
                         std::is_same_v<T, std::nullptr_t>) {
        w.value(v);
    } else if constexpr (std::is_same_v<T, shape_list>) {
        if (!v.ok()) return w.value(nullptr);
        w.begin_array();
        for (const std::int64_t d : v) w.value(d);
        w.end_array();
    } else if constexpr (requires { v.for_each_entry([](std::string_view, const auto&) {}); }) {
        w.begin_object();
        v.for_each_entry([&](std::string_view k, const auto& x) {
            w.key(k);
            write_value(w, x);
        });
        w.end_object();
    } else if constexpr (requires { v.for_each_item([](const auto&) {}); }) {
        w.begin_array();
        v.for_each_item([&](const auto& x) { write_value(w, x); });
        w.end_array();
    } else if constexpr (internal::described<T>) {
        w.begin_object();
        write_fields(w, v, decltype(describe(v)){});
        w.end_object();
    } else if constexpr (requires { v.begin() != v.end(); }) {
        w.begin_array();
        for (const auto& x : v) write_value(w, x);
        w.end_array();
    } else {
        static_assert(sizeof(T) == 0, "logscan::write_value: a field of a type record.hpp cannot write");
    }
}

/// Writes the fields of `r` (keys and values) through an emitter.
template <class W, class R, class... Fields>
void write_fields(W& w, const R& r, record_fields<Fields...>) {
    const auto one = [&](auto f) {
        using F = decltype(f);
        if constexpr (internal::is_entries<F>::value) {
            F::get(r).for_each_entry([&](std::string_view k, const auto& x) {
                w.key(k);
                write_value(w, x);
            });
        } else {
            if constexpr (requires { w.field_key(F::name); }) w.field_key(F::name); // (a name in static storage)
            else w.key(F::name);
            write_value(w, F::get(r));
        }
    };
    (one(Fields{}), ...);
}

/// The `"line"` a record is written with: a `line`'s number, a record's `line` member when
/// it is not 0; none for a record without one (a record of a JSON document).
template <class R>
constexpr std::optional<std::uint64_t> record_line(const R& r) noexcept {
    if constexpr (std::is_same_v<R, line>) return r.number;
    else if constexpr (internal::has_line_member<R>) {
        if (r.line != 0) return static_cast<std::uint64_t>(r.line);
        return std::nullopt;
    } else {
        return std::nullopt;
    }
}

template <class Writer, class... Kinds>
class ndjson_records;
template <class Inner, class... Kinds>
class counting_records;

/// A format's record types (see the file comment), `text_kind` and `error_kind` among them
/// when it yields those.
template <class... Kinds>
struct record_list {
    /// The `"type"` of every record, in the list's order.
    static constexpr std::array<std::string_view, sizeof...(Kinds)> types{Kinds::type...};
    static_assert(internal::distinct_names(types), "logscan::record_list: two record kinds have the same \"type\"");
    /// The callbacks, `"on_run, on_call, ..."`.
    static constexpr auto callbacks = internal::join_names<Kinds::event::callback...>();
    /// True when V has one of the callbacks or derives from `validate_only`.
    template <class V>
    static constexpr bool accepted_by = has_some_callback<V, typename Kinds::event...>;
    /// True when V has at least one of the callbacks (false for a `validate_only` visitor
    /// with none: a line format then has nothing to read past the framing).
    template <class V>
    static constexpr bool wants_some = (Kinds::event::template named<V>() || ...);
    /// `accepted_by<V>`, and a compile error naming the callbacks otherwise:
    /// `static_assert(records::accepts<Visitor>());` in a parser.
    template <class V>
    static constexpr bool accepts() noexcept {
        return internal::visitor_check<accepted_by<V>, typename Kinds::event...>::value &&
               (internal::callback_result_ok<V, Kinds>() && ...);
    }
    /// The visitor that writes every record as formats.md's NDJSON through `Writer` (an
    /// `ndjson_writer`): `records::ndjson<W> v{writer}`.
    template <class Writer>
    using ndjson = ndjson_records<Writer, Kinds...>;
    /// A visitor that counts every record and hands each on to `inner` when it has the
    /// callback (`counting_records`).
    template <class Inner>
    using counting = counting_records<Inner, Kinds...>;
};

/// The counting visitor of a `record_list` (`record_list::counting<Inner>`): has every
/// callback of the format, counts each record (`text`, `error` and the others apart), and
/// calls `inner`'s callback for the record when `inner` has one (its flow is returned). A
/// report that wants a few records still learns what else the input held:
/// \code
/// peak_memory report;                                            // only on_mem_alloc
/// logscan::megengine_log::records::counting<peak_memory> v{report};
/// logscan::megengine_log::parse(src, v);                         // v.records, v.text, v.errors
/// \endcode
/// (Every record is then read: the parse does what a visitor with every callback costs.)
template <class Inner, class... Kinds>
class counting_records : public Kinds::event::template forward<counting_records<Inner, Kinds...>>... {
public:
    Inner& inner;              ///< the visitor handed every record it has a callback for
    std::uint64_t records = 0; ///< records other than `text` and `error`
    std::uint64_t text = 0;    ///< `text` records
    std::uint64_t errors = 0;  ///< `error` records
    error first_error{};       ///< the first `error` record (none: `ok()`)

    counting_records(Inner& in) noexcept : inner(in) {} // (implicit: `counting<V> c{v}`)

    /// Counts one record and hands it on (called by the callbacks `forward` gives this class).
    template <class Event, class R>
    flow on_record(Event, const R& r) {
        if constexpr (std::is_same_v<Event, on_text_event>) ++text;
        else if constexpr (std::is_same_v<Event, on_error_event>) {
            if (errors++ == 0) first_error = r;
        } else {
            ++records;
        }
        if constexpr (Event::template named<Inner>())
            return internal::call_as_flow([&]() -> decltype(auto) { return Event::invoke(inner, r); });
        else
            return flow::proceed;
    }
};

/// The NDJSON visitor of a `record_list` (`record_list::ndjson<Writer>`): every record as one
/// line, `"type"`, `"line"` where the record has one, then its fields. Counts the records
/// and the `error` records, and keeps the first of them (what a command says of them).
template <class Writer, class... Kinds>
class ndjson_records : public Kinds::event::template forward<ndjson_records<Writer, Kinds...>>... {
public:
    Writer& w;                 ///< the writer
    std::uint64_t records = 0; ///< records written
    std::uint64_t errors = 0;  ///< `error` records among them
    error first_error{};       ///< the first `error` record (none: `ok()`)

    ndjson_records(Writer& writer) noexcept : w(writer) {} // (implicit: `ndjson<W> v{writer}`)

    /// Writes one record (called by the callbacks `forward` gives this class).
    template <class Event, class R>
    void on_record(Event, const R& r) {
        ++records;
        if constexpr (std::is_same_v<Event, on_error_event>)
            if (errors == 0) first_error = r;
        if constexpr (std::is_same_v<Event, on_error_event> && (std::is_same_v<Kinds, indexed_error_kind> || ...)) {
            ++errors;
            w.begin("error");
            w.key("index");
            if (r.index) w.value(*r.index);
            else w.value(nullptr);
            w.field("message", r.message);
        } else if constexpr (std::is_same_v<Event, on_error_event> && (std::is_same_v<Kinds, document_error_kind> || ...)) {
            ++errors;
            w.begin("error");
            w.field("message", r.line != 0 ? std::string_view("invalid JSON document") : r.message);
        } else if constexpr (std::is_same_v<Event, on_error_event>) {
            ++errors;
            w.begin("error");
            if (r.document) {
                w.field("message", std::string_view("invalid JSON document"));
            } else {
                if (r.line != 0) {
                    w.field("line", r.line);
                    // (every error record with a line has a column: null where the error has none, as
                    // a value a form does not print is null, never an absent key)
                    if (r.column != 0) w.field("column", r.column);
                    else w.field("column", nullptr);
                }
                w.field("message", r.message);
            }
        } else {
            constexpr std::string_view type = internal::kind_of<Event, Kinds...>();
            if (const auto n = record_line(r)) w.begin(type, *n);
            else w.begin(type);
            write_fields(w, r, internal::fields_of<Event, Kinds...>());
        }
        w.end();
    }
};

} // namespace logscan

#endif // LOGSCAN_RECORD_HPP_INCLUDED
