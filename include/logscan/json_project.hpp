// SPDX-License-Identifier: MIT
/// \file json_project.hpp
/// JSON projection: records declared by the paths they stand at in a document, assembled
/// from a streamed JSON document (json.hpp's reader) in one pass, in bounded memory. A
/// format that reads a JSON document (`megengine_profile.hpp`) is a list of such routes.
///
/// \code
/// struct op { std::string_view id; std::optional<std::string_view> name;
///             std::optional<json::string_list> inputs; std::optional<std::string_view> param; };
/// LOGSCAN_EVENT(on_op, "void on_op(const op&)");
/// using routes = logscan::json::projection<
///     logscan::json::route<op, on_op_event, "graph.operator.*",        // each value of graph.operator
///                          logscan::json::take_key<&op::id>,            // the `*` key
///                          logscan::json::take<"name", &op::name>,
///                          logscan::json::take<"io.input", &op::inputs>,
///                          logscan::json::take_text<"param", &op::param>>>;
/// struct my_visitor { void on_op(const op& o); } vis;
/// logscan::json::projector<my_visitor, routes> p(vis, scratch);   // a json::reader visitor
/// logscan::json::parse(document, p);
/// \endcode
///
/// **Paths.** A route's path names where its record's values stand: keys separated by `.`;
/// `*` is any key of an object, `a|b` one of the keys `a` and `b`, and a `[]` after a step (or
/// alone) each element of an array. These three steps capture what they matched (the key,
/// or the element's 0-based index); a route's `take_key<&R::m>` fields receive the captures
/// in order (the key into a `std::string_view` or `std::optional<std::string_view>` member, an
/// index into a `std::uint64_t`). Every step but `[]` requires an object and `[]` an array:
/// where the document holds something else, nothing under it yields a record. An empty path
/// is the document itself.
///
/// **Fields.** `take<"a.b", &R::m>` reads the value at the key path `a.b` inside the record's
/// value (an empty path: the value itself, for a record standing at an array element or key
/// whose value is a scalar); the member's type says what it accepts, and anything else
/// leaves it empty (`std::nullopt`) — the last occurrence of a key wins:
/// - `std::optional<std::string_view>`: a string (its decoded text);
/// - `std::optional<std::uint64_t>`, `std::optional<std::int64_t>`: an integer in range;
///   `std::optional<double>`: any number;
/// - `std::optional<string_list>`: an array of strings;
/// - `std::optional<shape_list>`: an array of integers (num.hpp's list, made from the integers
///   the reader read and their compact text, `[1,2,3]`: the first 8 dims, what most shapes
///   have, are not read again; a longer list is iterated from its text);
///   `std::optional<shape_sequence>`: an array of arrays of integers (num.hpp's lazy list of
///   lists over their compact text);
/// - `take_text<"a", &R::m>` (a `std::optional<std::string_view>`): an object or an array (a
///   raw subtree, such as an operator's parameters) as its JSON text, compact: the input's
///   bytes with the blanks outside strings removed —
///   strings, escapes and numbers exactly as written, never decoded and re-encoded (the
///   reader's `action::capture`); a bare non-finite word (`nan`, with
///   `options::non_finite_words`) becomes `null`. With an empty path it is the record's own
///   value, whatever it is (an object, an array, a string, a number: `8`, `"VM"`), read
///   whole and unread by the other fields: a record per element of an array of objects of
///   arbitrary keys (`calls[]`), or per key of an object (`configuration.*`). (A scalar
///   element of an array has no text to capture: the member is then empty.)
/// - `complete_with<fn>` is no field but a hook, `fn(record&, std::span<char> spare)`, run
///   before each record is delivered: what it derives from the fields (a value found inside
///   a captured text, a string decoded into `spare`, the scratch buffer's unused part) is
///   delivered with them.
///
/// **Records.** A record is delivered to the visitor's callback (its route's `LOGSCAN_EVENT`)
/// when its value ends, in document order; the views in it point into the projector's
/// scratch buffer and are valid during the call. Routes whose callback the visitor lacks are
/// left out of the table at compile time, and everything under a key no wanted route or
/// field goes through is skipped unread (validated by the reader, no events): a visitor that
/// wants one record type pays for little else. A record whose strings and lists do not fit
/// the scratch buffer is an `error` record instead ("object too large for the scratch
/// buffer", `too_long`, `offset` = where the chunk in which it ended began), and the parse
/// goes on.
///
/// **How it runs.** The routes and fields are compiled into one table of nodes (a trie of
/// the paths, each node's children contiguous, literal keys before wildcards); the
/// projector keeps one node per open container — a stack parallel to the reader's own — so
/// each key costs a look-up among its node's children (lengths first) and each value one
/// store, whatever the number of routes. Strings are copied once, into the scratch buffer,
/// in stack order: what a record's keys captured stays while its records are made.
///
/// **Records' objects in one pass.** A record that is an object, lying whole in the chunk,
/// is not read through the reader's events: the projector reads it there itself (the reader's
/// `on_whole_object`), each key looked up among its node's children — or, when it repeats the
/// key at the same position in the last object at that node, as the records of a dump mostly
/// do, taken without a look-up — and each value parsed straight into its field or skipped,
/// validated. What that pass does not take on (an escape, a string or number cut by the chunk,
/// a non-finite word, an error, a record too large for the scratch buffer) goes through the
/// events from the object's brace, so the records and errors are the same either way (a test
/// compares the two on random and damaged documents; `projector::fuse_objects` turns the pass
/// off).
///
/// `projection_parser<Visitor, Records, Routes>` is the push parser of a JSON-document format
/// (`feed`, `finish`, `result`; format.hpp's `format_parse` drives it). Nothing allocates
/// while parsing: the scratch buffer and the reader's buffers are allocated at construction.
#ifndef LOGSCAN_JSON_PROJECT_HPP_INCLUDED
#define LOGSCAN_JSON_PROJECT_HPP_INCLUDED

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <span>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include "fixed_string.hpp"
#include "format.hpp" // (format_options, record.hpp, num.hpp, visit.hpp)
#include "json.hpp"

namespace logscan::json {

/// A list of strings held in a projector's scratch buffer (an array of strings in the
/// document): iterate it for `std::string_view`s.
class string_list {
public:
    /// Forward iterator over the strings.
    class iterator : public logscan::internal::iterator_ops<iterator> {
    public:
        using value_type = std::string_view;    ///< a string
        using difference_type = std::ptrdiff_t; ///< unused
        constexpr iterator() noexcept = default;
        /// The current string.
        std::string_view operator*() const noexcept { return {p_ + sizeof(std::uint32_t), len()}; }
        /// Next string.
        iterator& operator++() noexcept {
            p_ += sizeof(std::uint32_t) + len();
            return *this;
        }
        /// Same position.
        friend bool operator==(const iterator& a, const iterator& b) noexcept { return a.p_ == b.p_; }

    private:
        friend class string_list;
        explicit iterator(const char* p) noexcept : p_(p) {}
        std::size_t len() const noexcept {
            std::uint32_t n;
            std::memcpy(&n, p_, sizeof n);
            return n;
        }
        const char* p_ = nullptr;
    };

    constexpr string_list() noexcept = default;
    /// (Made by the projector: `bytes` holds `count` strings, each after its 4-byte length.)
    constexpr string_list(std::string_view bytes, std::size_t count) noexcept : bytes_(bytes), count_(count) {}
    /// Number of strings.
    constexpr std::size_t size() const noexcept { return count_; }
    /// True when there are none.
    constexpr bool empty() const noexcept { return count_ == 0; }
    /// First string.
    iterator begin() const noexcept { return iterator(bytes_.data()); }
    /// Past the last string.
    iterator end() const noexcept { return iterator(bytes_.data() + bytes_.size()); }

private:
    std::string_view bytes_{};
    std::size_t count_ = 0;
};

/// A field: the value at key path `Path` inside the record's value (see the file comment).
template <fixed_string Path, auto Member>
struct take {
    static constexpr std::string_view path = Path.view(); ///< the key path ("" = the value itself)
    static constexpr auto member = Member;                 ///< where it goes
    static constexpr bool as_text = false;                 ///< (take_text)
    static constexpr bool is_key = false;                  ///< (take_key)
    static constexpr bool is_hook = false;                 ///< (complete_with)
};
/// A field holding an object's or array's compact JSON text (see the file comment).
template <fixed_string Path, auto Member>
struct take_text : take<Path, Member> {
    static constexpr bool as_text = true; ///< the value's text
};
/// A field holding what the route path's next capturing step matched (a key or an index).
template <auto Member>
struct take_key {
    static constexpr std::string_view path{}; ///< (none)
    static constexpr auto member = Member;    ///< where it goes
    static constexpr bool as_text = false;    ///< (take_text)
    static constexpr bool is_key = true;      ///< a capture
    static constexpr bool is_hook = false;    ///< (complete_with)
};

/// What a `complete_with` hook says of its record.
enum class completion : unsigned char {
    deliver,   ///< the record goes to the visitor
    skip,      ///< no record here (its value is not one: a number where an object belongs)
    too_large, ///< what it derives does not fit the spare bytes: an `error` record instead
};

/// Not a field: `Complete(record, spare)` runs on each record of the route after its fields
/// are set and before it is delivered, to derive what its fields alone do not give (a value
/// inside a captured text, a string decoded), and returns a `completion` (or nothing:
/// deliver). `spare` is the scratch buffer's unused part: what the hook writes there is
/// valid while the record is delivered.
template <auto Complete>
struct complete_with {
    static constexpr std::string_view path{}; ///< (none)
    static constexpr auto member = nullptr;   ///< (none)
    static constexpr bool as_text = false;    ///< (take_text)
    static constexpr bool is_key = false;     ///< (take_key)
    static constexpr bool is_hook = true;     ///< a hook
    /// Runs the hook.
    template <class R>
    static completion apply(R& r, std::span<char> spare) {
        if constexpr (std::is_void_v<decltype(Complete(r, spare))>) {
            Complete(r, spare);
            return completion::deliver;
        } else {
            return Complete(r, spare);
        }
    }
};

/// A record type `Record`, delivered through `Event` (a `LOGSCAN_EVENT`), for each value
/// at `Path`, with its `Fields` (take, take_text, take_key).
template <class Record, class Event, fixed_string Path, class... Fields>
struct route {
    using record = Record;                                ///< the record type
    using event = Event;                                  ///< its callback
    static constexpr std::string_view path = Path.view(); ///< where its values stand
    using fields = std::tuple<Fields...>;                 ///< its fields
};

/// The routes of a document format.
template <class... Routes>
struct projection {
    static_assert(sizeof...(Routes) >= 1 && sizeof...(Routes) < 255, "logscan::json::projection: 1 to 254 routes");
};

namespace project_detail {

enum class step : unsigned char { root, key, alt, any, each };
// What the value at a node becomes.
enum class kind : unsigned char { object, array, text, u64, i64, f64, texts, ints, int_lists, raw, none };

inline constexpr std::uint16_t no_node = 0xFFFF;
inline constexpr std::uint8_t no_route = 0xFF;

struct node {
    std::string_view key{};           // step::key: the key; step::alt: "a|b|..."
    step how = step::root;            // how the node is reached from its parent
    kind what = kind::object;         // what its value becomes
    std::uint8_t route = no_route;    // a route's record stands here
    std::uint16_t field = no_node;    // a field's value stands here (global field index)
    std::uint16_t parent = 0, first = 0, count = 0, depth = 0; // children: [first, first + count)
    bool self_record = false;         // a record whose value may be anything (not an object/array)
    bool keep_key = false;            // a take_key of a wanted route receives the key matched here
};

constexpr bool container_kind(kind k) noexcept {
    return k == kind::object || k == kind::array || k == kind::texts || k == kind::ints || k == kind::int_lists;
}

template <class T>
constexpr kind kind_of() noexcept {
    if constexpr (std::is_same_v<T, std::optional<std::string_view>>) return kind::text;
    else if constexpr (std::is_same_v<T, std::optional<std::uint64_t>>) return kind::u64;
    else if constexpr (std::is_same_v<T, std::optional<std::int64_t>>) return kind::i64;
    else if constexpr (std::is_same_v<T, std::optional<double>>) return kind::f64;
    else if constexpr (std::is_same_v<T, std::optional<string_list>>) return kind::texts;
    else if constexpr (std::is_same_v<T, std::optional<shape_list>>) return kind::ints;
    else if constexpr (std::is_same_v<T, std::optional<shape_sequence>>) return kind::int_lists;
    else {
        static_assert(sizeof(T) == 0, "logscan::json::take: the member must be a std::optional of std::string_view, "
                                       "std::uint64_t, std::int64_t, double, json::string_list, shape_list or "
                                       "shape_sequence");
        return kind::none;
    }
}

template <class Record, class Field>
using member_t = std::remove_cvref_t<decltype(std::declval<Record&>().*(Field::member))>;

struct field_decl {
    std::string_view path{};
    kind what = kind::none;
    bool is_key = false;
    bool is_hook = false;
};

template <class Route>
struct route_info {
    static constexpr std::size_t count = std::tuple_size_v<typename Route::fields>;
    template <std::size_t J>
    using field = std::tuple_element_t<J, typename Route::fields>;
    template <std::size_t J>
    static constexpr field_decl decl() noexcept {
        using F = field<J>;
        if constexpr (F::is_key) {
            return {{}, kind::none, true};
        } else if constexpr (F::is_hook) {
            return {{}, kind::none, false, true};
        } else if constexpr (F::as_text) {
            static_assert(std::is_same_v<member_t<typename Route::record, F>, std::optional<std::string_view>>,
                          "logscan::json::take_text: the member must be a std::optional<std::string_view>");
            return {F::path, kind::raw, false};
        } else {
            return {F::path, kind_of<member_t<typename Route::record, F>>(), false};
        }
    }
    static constexpr auto fields = []<std::size_t... J>(std::index_sequence<J...>) {
        return std::array<field_decl, count + 1>{decl<J>()..., field_decl{}};
    }(std::make_index_sequence<count>{});
    // an upper bound on the steps of the route's path and fields
    static constexpr std::size_t steps = [] {
        std::size_t n = Route::path.size() + 1;
        for (std::size_t j = 0; j < count; ++j) n += fields[j].path.size() + 1;
        return n;
    }();
};

struct step_decl {
    step how;
    std::string_view key;
};

// (Plain loops, not string_view's find and ==: g++ 12 with -fsanitize=undefined does not
// evaluate those on a template argument's characters in a constant expression.)
constexpr bool same_text(std::string_view a, std::string_view b) noexcept {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i] != b[i]) return false;
    return true;
}
constexpr bool has_char(std::string_view s, char c) noexcept {
    for (const char x : s)
        if (x == c) return true;
    return false;
}

// Calls f(step) for each step of a path (see the file comment).
template <class F>
constexpr void each_step(std::string_view path, F&& f) {
    std::size_t i = 0;
    while (i < path.size()) {
        std::size_t j = i;
        while (j < path.size() && path[j] != '.') ++j;
        std::string_view seg = path.substr(i, j - i);
        const bool each = seg.size() >= 2 && seg[seg.size() - 2] == '[' && seg[seg.size() - 1] == ']';
        if (each) seg.remove_suffix(2);
        if (!seg.empty())
            f(step_decl{same_text(seg, "*") ? step::any : has_char(seg, '|') ? step::alt : step::key, seg});
        if (each) f(step_decl{step::each, {}});
        i = j + 1;
    }
}

template <std::size_t Cap>
struct built {
    std::array<node, Cap> nodes{};
    std::size_t size = 1;
    std::size_t max_depth = 0;
    const char* error = nullptr;
};

// The node table of the wanted routes (see the file comment): a trie of the paths, then put
// in breadth-first order so that each node's children are contiguous.
template <std::size_t Cap, class... Routes>
constexpr built<Cap> build(const std::array<bool, sizeof...(Routes)>& wanted) {
    built<Cap> b;
    std::array<node, Cap> t{};
    std::array<bool, Cap> fixed{};
    std::size_t n = 1;
    auto fail = [&](const char* why) {
        if (b.error == nullptr) b.error = why;
    };
    auto child = [&](std::size_t parent, const step_decl& s) -> std::size_t {
        for (std::size_t i = 1; i < n; ++i)
            if (t[i].parent == parent && t[i].how == s.how && same_text(t[i].key, s.key)) return i;
        if (n == Cap) {
            fail("too many steps");
            return parent;
        }
        t[n] = node{};
        t[n].key = s.key;
        t[n].how = s.how;
        t[n].parent = static_cast<std::uint16_t>(parent);
        return n++;
    };
    auto set_kind = [&](std::size_t at, kind k) {
        if (fixed[at] && t[at].what != k) fail("one path is both an object or array of one route and a value of another");
        t[at].what = k;
        fixed[at] = true;
    };
    std::size_t field_base = 0;
    std::size_t r = 0;
    auto add = [&]<class Route>(const Route*) {
        using info = route_info<Route>;
        if (wanted[r]) {
            std::size_t cur = 0, keys = 0, seen = 0;
            for (std::size_t j = 0; j < info::count; ++j)
                if (info::fields[j].is_key) ++keys;
            each_step(Route::path, [&](const step_decl& s) {
                set_kind(cur, s.how == step::each ? kind::array : kind::object);
                cur = child(cur, s);
                if (s.how != step::key && seen++ < keys) t[cur].keep_key = true;
            });
            if (t[cur].route != no_route) fail("two routes at one path");
            t[cur].route = static_cast<std::uint8_t>(r);
            for (std::size_t j = 0; j < info::count; ++j) {
                const field_decl& f = info::fields[j];
                if (f.is_key || f.is_hook) continue;
                std::size_t at = cur;
                each_step(f.path, [&](const step_decl& s) {
                    if (s.how != step::key) fail("a field's path is keys only");
                    set_kind(at, kind::object);
                    at = child(at, s);
                });
                if (t[at].field != no_node) fail("two fields at one path");
                set_kind(at, f.what);
                t[at].field = static_cast<std::uint16_t>(field_base + j);
            }
            if (!fixed[cur]) t[cur].what = kind::none; // only captures: any value
            t[cur].self_record = !container_kind(t[cur].what);
        }
        field_base += info::count;
        ++r;
    };
    (add(static_cast<const Routes*>(nullptr)), ...);
    // no record inside another
    for (std::size_t i = 1; i < n; ++i)
        if (t[i].route != no_route)
            for (std::size_t p = t[i].parent; p != 0; p = t[p].parent)
                if (t[p].route != no_route) fail("a route's path lies inside another route's record");
    // breadth-first, literal keys before alternatives before wildcards before elements
    std::array<std::uint16_t, Cap> order{}, index{};
    std::size_t done = 1;
    b.nodes[0] = t[0];
    for (std::size_t i = 0; i < done; ++i) {
        const std::size_t p = order[i];
        const std::size_t first = done;
        for (step how : {step::key, step::alt, step::any, step::each})
            for (std::size_t j = 1; j < n; ++j)
                if (t[j].parent == p && t[j].how == how) order[done++] = static_cast<std::uint16_t>(j);
        if (t[p].what == kind::array && done - first > 1) fail("an array's elements have one route or field");
        b.nodes[i] = t[p];
        b.nodes[i].first = static_cast<std::uint16_t>(first);
        b.nodes[i].count = static_cast<std::uint16_t>(done - first);
        index[p] = static_cast<std::uint16_t>(i);
    }
    for (std::size_t i = 1; i < done; ++i) {
        b.nodes[i].parent = index[t[order[i]].parent];
        b.nodes[i].depth = static_cast<std::uint16_t>(b.nodes[b.nodes[i].parent].depth + 1);
        if (b.nodes[i].depth > b.max_depth) b.max_depth = b.nodes[i].depth;
    }
    b.size = done;
    return b;
}

// The compiled table of a visitor's routes.
template <class V, class... Routes>
struct table {
    static constexpr std::array<bool, sizeof...(Routes)> wanted{Routes::event::template named<V>()...};
    static constexpr std::size_t cap = 1 + (route_info<Routes>::steps + ...);
    static constexpr built<cap> big = build<cap, Routes...>(wanted);
    static_assert(big.error == nullptr, "logscan::json::projection: the routes do not make one table (a path that is "
                                        "both an object and a value, two routes at one path, a route inside "
                                        "another's record, a field path with wildcards)");
    static constexpr std::size_t size = big.size;
    static constexpr std::array<node, size> nodes = [] {
        std::array<node, size> a{};
        for (std::size_t i = 0; i < size; ++i) a[i] = big.nodes[i];
        return a;
    }();
    static constexpr std::size_t max_depth = big.max_depth;
    // Each node's literal-key children by key length (a chain per length; 15: 15 and longer),
    // and where its wildcard children (alternatives, any key) begin.
    static constexpr std::size_t buckets = 16;
    struct key_index {
        std::array<std::array<std::uint16_t, buckets>, size> first{};
        std::array<std::uint16_t, size> next{};
        std::array<std::uint16_t, size> wild{};
    };
    static constexpr key_index keys = [] {
        key_index x{};
        for (auto& f : x.first) f.fill(no_node);
        x.next.fill(no_node);
        for (std::size_t p = 0; p < size; ++p) {
            std::array<std::uint16_t, buckets> last{};
            last.fill(no_node);
            x.wild[p] = static_cast<std::uint16_t>(nodes[p].first + nodes[p].count);
            for (std::size_t i = nodes[p].first; i < nodes[p].first + nodes[p].count; ++i) {
                if (nodes[i].how != step::key) {
                    if (x.wild[p] == nodes[p].first + nodes[p].count) x.wild[p] = static_cast<std::uint16_t>(i);
                    continue;
                }
                const std::size_t b = nodes[i].key.size() < buckets ? nodes[i].key.size() : buckets - 1;
                if (last[b] == no_node) x.first[p][b] = static_cast<std::uint16_t>(i);
                else x.next[last[b]] = static_cast<std::uint16_t>(i);
                last[b] = static_cast<std::uint16_t>(i);
            }
        }
        return x;
    }();
    static constexpr std::array<std::size_t, sizeof...(Routes) + 1> field_base = [] {
        std::array<std::size_t, sizeof...(Routes) + 1> a{};
        std::size_t i = 0;
        ((a[i + 1] = a[i] + route_info<Routes>::count, ++i), ...);
        return a;
    }();
    static constexpr std::size_t field_count = field_base[sizeof...(Routes)];
    // The objects inside records (a record's own, its fields' path steps), numbered (no_node:
    // another node); the projector remembers the keys of each one's last occurrence.
    struct guess_index {
        std::array<std::uint16_t, size> slot{};
        std::size_t count = 0;
    };
    static constexpr guess_index guesses = [] {
        guess_index g{};
        for (std::size_t i = 0; i < size; ++i) {
            g.slot[i] = no_node;
            bool inside = false;
            for (std::size_t a = i;; a = nodes[a].parent) {
                if (nodes[a].route != no_route) inside = true;
                if (a == 0) break;
            }
            if (inside && nodes[i].what == kind::object) g.slot[i] = static_cast<std::uint16_t>(g.count++);
        }
        return g;
    }();
    static constexpr const std::array<std::uint16_t, size>& guess_slot = guesses.slot;
    static constexpr std::size_t guess_slots = guesses.count;
};

// The depth of a route path's k-th capturing step (the value it names).
template <class Route>
constexpr std::size_t capture_depth(std::size_t k) noexcept {
    std::size_t depth = 0, seen = 0, at = 0;
    bool found = false;
    each_step(Route::path, [&](const step_decl& s) {
        ++depth;
        if (s.how != step::key) {
            if (seen++ == k && !found) {
                at = depth;
                found = true;
            }
        }
    });
    return found ? at : ~std::size_t{0};
}
template <class Route>
constexpr bool capture_is_index(std::size_t k) noexcept {
    std::size_t seen = 0;
    bool index = false;
    each_step(Route::path, [&](const step_decl& s) {
        if (s.how != step::key && seen++ == k) index = s.how == step::each;
    });
    return index;
}

// A field's new value, as the projector hands it to the field's setter.
struct field_value {
    std::string_view text{};    // a string, a list's bytes, a value's text
    const number* num = nullptr; // a number
    std::size_t count = 0;       // a string list's length
    bool has_text = false;
};

} // namespace project_detail

/// The projector of `Projection`'s routes for visitor `V`: a `json::reader` visitor (see the
/// file comment). Holds the visitor by reference and a scratch buffer it is given.
template <class V, class Projection>
class projector;

template <class V, class... Routes>
class projector<V, projection<Routes...>> {
    using table = project_detail::table<V, Routes...>;
    using node = project_detail::node;
    using kind = project_detail::kind;
    using step = project_detail::step;
    using field_value = project_detail::field_value;
    static constexpr std::uint16_t no_node = project_detail::no_node;
    static constexpr std::uint16_t skip_entry = 0xFFFF; // a container skipped
    static constexpr std::uint16_t inner_entry = 0xFFFE; // an inner list of an int_lists field
    static constexpr std::size_t stack_size = table::max_depth + 4;

public:
    /// Records assembled in `scratch` (which must outlive the projector).
    projector(V& vis, std::span<char> scratch) noexcept : vis_(vis), buf_(scratch.data()), cap_(scratch.size()) {}

    /// Where the chunk being read began (bytes): the offset of a `too_long` error record.
    std::uint64_t offset = 0;

    /// (json::reader's callbacks)
    action on_object_begin() { return open(true); }
    action on_array_begin() { return open(false); }            ///< (json::reader)
    action on_object_end() { return close(); }                 ///< (json::reader)
    action on_array_end() { return close(); }                  ///< (json::reader)
    action on_key(std::string_view k) {                        ///< (json::reader)
        const std::uint16_t c = find_child(stack_[depth_ - 1], k);
        if (c == no_node) return action::skip;
        const node& d = table::nodes[c];
        if (d.keep_key) { // a captured key, above any record: the keys before it are gone
            used_ = mark_[depth_ - 1];
            cap_bad_[depth_] = !copy(k, cap_text_[depth_]);
        }
        if (d.what == kind::raw) return begin_raw(d);
        pending_ = c;
        return action::proceed;
    }
    action on_string(std::string_view s) { ///< (json::reader)
        if (const std::uint16_t top = depth_ ? stack_[depth_ - 1] : no_node; top != no_node) {
            if (top == inner_entry) return bad_element();
            const kind k = table::nodes[top].what;
            if (k == kind::texts) {
                list_add(s);
                return action::proceed;
            }
            if (k == kind::ints || k == kind::int_lists) return bad_element();
        }
        return scalar([&](const node& d) {
            field_value v;
            if (d.what == kind::text) v.has_text = copy(s, v.text) || (overflow_ = true, false);
            return v;
        });
    }
    action on_number(const number& x) { ///< (json::reader)
        if (const std::uint16_t top = depth_ ? stack_[depth_ - 1] : no_node; top != no_node) {
            if (top == inner_entry || table::nodes[top].what == kind::ints) {
                add_dim(x);
                return action::proceed;
            }
            if (table::nodes[top].what == kind::texts || table::nodes[top].what == kind::int_lists)
                return bad_element();
        }
        return scalar([&](const node& d) {
            field_value v;
            if (d.what == kind::u64 || d.what == kind::i64 || d.what == kind::f64) v.num = &x;
            return v;
        });
    }
    action on_bool(bool) { return other_scalar(); } ///< (json::reader)
    action on_null() { return other_scalar(); }     ///< (json::reader)
    /// (json::reader: a `take_text` field's value, compacted into the scratch buffer)
    action on_value_text(std::string_view part, bool last) {
        const auto into_scratch = [this](std::string_view run) { put(run); };
        raw_.feed(part, into_scratch);
        if (!last) return action::proceed;
        raw_.finish(into_scratch);
        field_value v;
        const std::string_view text = span(raw_from_);
        const std::uint8_t record = raw_record_;
        // (a field takes an object or an array; a record's own value, anything)
        if (!overflow_ && !text.empty() && (text[0] == '{' || text[0] == '[' || record != project_detail::no_route)) {
            v.text = text;
            v.has_text = true;
        } else if (record == project_detail::no_route) {
            used_ = raw_from_; // (a field's scalar: nothing kept)
        }
        set(raw_field_, v);
        raw_field_ = no_node;
        raw_record_ = project_detail::no_route;
        return record != project_detail::no_route ? end_record(record) : action::proceed;
    }
    /// (json::reader: a syntax error, the visitor's `error` record)
    void on_error(const error& e) { (void)report_error(vis_, e); }

    /// True (the default): a record's object that lies whole in the chunk is read in one pass
    /// against its fields (`on_whole_object`); false: through the reader's events only (the
    /// same records: tests compare the two).
    bool fuse_objects = true;
    /// Records whose object `on_whole_object` read (a statistic, for tests and benchmarks).
    std::uint64_t whole_objects = 0;

    /// (json::reader: an object at its opening brace.) A record's object is read here, in one
    /// pass: each key looked up among its node's children, each value parsed into its field
    /// or skipped (validated), then the record delivered, exactly as the events would have
    /// made it. Anything this pass does not take on (an escape, a string or number cut by the
    /// chunk's end or longer than the reader accepts, a non-finite word, an error, a record
    /// too large for the scratch buffer, nesting past 64 levels) leaves the object to the
    /// reader's events, from its brace, with nothing changed.
    bool on_whole_object(whole_object& w)
        requires(table::guess_slots != 0) // (a record that is an object: else the reader's loop stays as it is)
    {
        if (!fuse_objects) return false;
        std::uint16_t n = 0;
        bool element = false;
        if (depth_ != 0) {
            const std::uint16_t top = stack_[depth_ - 1];
            if (top == skip_entry || top == inner_entry) return false;
            const node& t = table::nodes[top];
            if (t.what == kind::array) {
                n = t.first;
                element = true;
            } else if (t.what == kind::object) {
                n = pending_;
            } else {
                return false;
            }
        }
        if (n == no_node) return false;
        const node& d = table::nodes[n];
        if (d.route == project_detail::no_route || d.what != kind::object) return false;
        whole_ = whole_scan(w);
        if (element) cap_index_[depth_] = count_[depth_ - 1];
        begin_record(d.route);
        const char* const q = whole_members(w.begin, n, w.levels < 64 ? w.levels : 64);
        if (q == nullptr || overflow_) { // (the reader's events make it, or its error)
            used_ = rec_mark_;
            overflow_ = false;
            in_record_ = false;
            return false;
        }
        if (element) ++count_[depth_ - 1];
        pending_ = no_node;
        ++whole_objects;
        whole_.done(w, q);
        w.stop = end_record(d.route) == action::stop;
        return true;
    }

private:
    // -- the table --
    // True when a[0, n) == b[0, n): a word at a time, the last word overlapping (keys are short).
    LOGSCAN_FORCE_INLINE static bool same_bytes(const char* a, const char* b, std::size_t n) noexcept {
        auto word = [](const char* p) {
            std::uint64_t w;
            std::memcpy(&w, p, sizeof w);
            return w;
        };
        auto half = [](const char* p) {
            std::uint32_t w;
            std::memcpy(&w, p, sizeof w);
            return w;
        };
        if (n >= 8) {
            for (std::size_t i = 0; i + 8 < n; i += 8)
                if (word(a + i) != word(b + i)) return false;
            return word(a + n - 8) == word(b + n - 8);
        }
        if (n >= 4) return half(a) == half(b) && half(a + n - 4) == half(b + n - 4);
        for (std::size_t i = 0; i < n; ++i)
            if (a[i] != b[i]) return false;
        return true;
    }
    // The child of node t that key k leads to: the literal keys of k's length, then the
    // wildcards in order.
    static std::uint16_t find_child(std::uint16_t t, std::string_view k) noexcept {
        const std::size_t b = k.size() < table::buckets ? k.size() : table::buckets - 1;
        for (std::uint16_t i = table::keys.first[t][b]; i != no_node; i = table::keys.next[i]) {
            const std::string_view c = table::nodes[i].key;
            if (c.size() == k.size() && same_bytes(c.data(), k.data(), k.size())) return i;
        }
        const node& n = table::nodes[t];
        const std::uint16_t end = static_cast<std::uint16_t>(n.first + n.count);
        for (std::uint16_t i = table::keys.wild[t]; i != end; ++i) {
            const node& c = table::nodes[i];
            if (c.how == step::any) return i;
            if (c.how != step::alt) continue;
            std::string_view rest = c.key;
            for (;;) {
                const std::size_t bar = rest.find('|');
                if (rest.substr(0, bar) == k) return i;
                if (bar == std::string_view::npos) break;
                rest.remove_prefix(bar + 1);
            }
        }
        return no_node;
    }

    // A value captured as its compact text (take_text): a field's, or a record's own (a
    // record at an object's key or at an array's element, begun here and made at its end).
    action begin_raw(const node& d) {
        if (d.route != project_detail::no_route) {
            begin_record(d.route);
            raw_record_ = d.route;
        }
        raw_field_ = d.field;
        raw_from_ = used_;
        raw_.reset();
        return action::capture;
    }

    // The node of the value now starting (no_node: none of ours).
    std::uint16_t value_node() noexcept {
        if (depth_ == 0) return 0;
        const node& t = table::nodes[stack_[depth_ - 1]];
        if (t.what == kind::array) {
            cap_index_[depth_] = count_[depth_ - 1]++;
            return t.first;
        }
        const std::uint16_t p = pending_;
        pending_ = no_node;
        return p;
    }

    action push(std::uint16_t e) noexcept {
        mark_[depth_] = used_;
        stack_[depth_++] = e;
        return e == skip_entry ? action::skip : action::proceed;
    }

    action open(bool object) {
        if (depth_ != 0) {
            const std::uint16_t top = stack_[depth_ - 1];
            if (top == inner_entry) return bad_container();
            const kind k = table::nodes[top].what;
            if (k == kind::texts || k == kind::ints) return bad_container();
            if (k == kind::int_lists) {
                if (object) return bad_container();
                if (list_count_ > 0) put(",");
                put("[");
                dims_ = 0;
                return push(inner_entry);
            }
        }
        const std::uint16_t n = value_node();
        if (n == no_node) return push(skip_entry);
        const node& d = table::nodes[n];
        if (!d.self_record) {
            const bool fits = object ? d.what == kind::object
                                     : d.what == kind::array || d.what == kind::texts || d.what == kind::ints ||
                                           d.what == kind::int_lists;
            if (!fits) { // not what the path says: nothing under it, the field empty
                if (d.field != no_node) set(d.field, {});
                return push(skip_entry);
            }
            if (d.route != project_detail::no_route) begin_record(d.route);
            if (d.what == kind::array) count_[depth_] = 0;
            else if (d.what != kind::object) list_begin(d.what);
            return push(n);
        }
        if (d.what == kind::raw && depth_ != 0) return begin_raw(d); // (its text: the reader pushes nothing)
        // a record of any value, here a container: made at its end, its contents unread
        begin_record(d.route);
        if (d.field != no_node) set(d.field, {});
        (void)push(n);
        return action::skip;
    }

    action close() {
        const std::uint16_t e = stack_[--depth_];
        if (e == skip_entry) return action::proceed;
        if (e == inner_entry) {
            inner_end();
            return action::proceed;
        }
        const node& d = table::nodes[e];
        if (d.what == kind::texts || d.what == kind::ints || d.what == kind::int_lists) list_end(d);
        if (d.route != project_detail::no_route) return end_record(d.route);
        if (!in_record_) used_ = mark_[depth_];
        return action::proceed;
    }

    action other_scalar() {
        if (const std::uint16_t top = depth_ ? stack_[depth_ - 1] : no_node; top != no_node) {
            if (top == inner_entry) return bad_element();
            const kind k = table::nodes[top].what;
            if (k == kind::texts || k == kind::ints || k == kind::int_lists) return bad_element();
        }
        return scalar([](const node&) { return field_value{}; });
    }

    // A scalar value: its field's new value (`make(node)`), and the record it is, if any.
    template <class Make>
    action scalar(Make&& make) {
        const std::uint16_t n = value_node();
        if (n == no_node) return action::proceed;
        const node& d = table::nodes[n];
        if (d.self_record) begin_record(d.route);
        if (d.field != no_node) set(d.field, make(d));
        return d.self_record ? end_record(d.route) : action::proceed;
    }

    // -- lists: strings as 4-byte length + bytes; integers as their text "[1,2]" (and the first
    // dims of an integer list as integers) --
    void list_begin(kind k) noexcept {
        list_from_ = used_;
        list_count_ = 0;
        list_bad_ = false;
        dims_ = 0;
        if (k == kind::ints) put("[");
    }
    // The list's field, at its end: its text, or empty (an element of another kind, no room).
    void list_end(const node& d) {
        field_value v;
        if (!list_bad_ && !overflow_ && (d.what != kind::ints || put("]"))) {
            v.text = span(list_from_);
            v.count = d.what == kind::ints ? dims_ : list_count_;
            v.has_text = true;
        }
        set(d.field, v);
    }
    void inner_end() { // (an inner list of an int_lists field)
        if (put("]")) ++list_count_;
    }
    void list_add(std::string_view s) {
        const auto n = static_cast<std::uint32_t>(s.size());
        char len[sizeof n];
        std::memcpy(len, &n, sizeof n);
        if (put(std::string_view(len, sizeof n)) && put(s)) ++list_count_;
    }
    // (an integer list's text is kept for the record's list, its first dims as integers: the
    // list is made from both: up to 8 dims, each integer read once)
    void add_dim(const number& x) {
        const std::optional<std::int64_t> d = x.is_integer() ? x.to_int64() : std::nullopt;
        if (!d) {
            list_bad_ = true;
            return;
        }
        add_dim(*d, x.text());
    }
    void add_dim(std::int64_t d, std::string_view text) noexcept {
        if (dims_ < shape_list::inline_dims) kept_dims_[dims_] = d;
        const bool comma = dims_++ > 0;
        if (overflow_ || text.size() + comma > cap_ - used_) {
            overflow_ = true;
            return;
        }
        buf_[used_] = ',';
        logscan::internal::copy_bytes(buf_ + used_ + comma, text.data(), text.size());
        used_ += text.size() + comma;
    }
    action bad_element() noexcept {
        list_bad_ = true;
        return action::proceed;
    }
    action bad_container() noexcept {
        list_bad_ = true;
        return push(skip_entry);
    }

    // -- records --
    template <std::size_t R>
    using route_at = std::tuple_element_t<R, std::tuple<Routes...>>;

    void begin_record(std::uint8_t r) {
        rec_mark_ = used_;

        overflow_ = false;
        in_record_ = true;
        dispatch(r, [&]<std::size_t R>() { begin_as<R>(); });
    }
    template <std::size_t R>
    void begin_as() {
        using Rt = route_at<R>;
        auto& rec = std::get<R>(recs_);
        logscan::internal::reset_value(rec); // (its `{}`)
        captures_into<Rt>(rec, std::make_index_sequence<project_detail::route_info<Rt>::count>{});
    }
    template <class Rt, std::size_t... J>
    void captures_into(typename Rt::record& rec, std::index_sequence<J...>) {
        (capture_into<Rt, J>(rec), ...);
    }
    // The k-th take_key of a route receives what the k-th capturing step of its path matched.
    template <class Rt, std::size_t J>
    void capture_into(typename Rt::record& rec) {
        using info = project_detail::route_info<Rt>;
        using F = typename info::template field<J>;
        if constexpr (F::is_key) {
            using M = project_detail::member_t<typename Rt::record, F>;
            static constexpr std::size_t k = [] {
                std::size_t n = 0;
                for (std::size_t i = 0; i < J; ++i) if (info::fields[i].is_key) ++n;
                return n;
            }();
            static constexpr std::size_t d = project_detail::capture_depth<Rt>(k);
            static_assert(d != ~std::size_t{0}, "logscan::json::take_key: the route's path has fewer capturing steps "
                                                "(*, a|b, []) than it has take_key fields");
            if constexpr (project_detail::capture_is_index<Rt>(k)) {
                static_assert(std::is_same_v<M, std::uint64_t>,
                              "logscan::json::take_key: an element's index goes into a std::uint64_t");
                rec.*(F::member) = cap_index_[d];
            } else {
                static_assert(std::is_same_v<M, std::string_view> || std::is_same_v<M, std::optional<std::string_view>>,
                              "logscan::json::take_key: a key goes into a std::string_view");
                rec.*(F::member) = cap_text_[d];
                if (cap_bad_[d]) overflow_ = true;
            }
        }
    }

    action end_record(std::uint8_t r) {
        in_record_ = false;
        flow f = flow::proceed;
        if (overflow_) {
            f = report_error(vis_, too_large());
        } else {
            dispatch(r, [&]<std::size_t R>() { f = deliver<R>(); });
        }
        used_ = rec_mark_;
        overflow_ = false;

        return f == flow::stop ? action::stop : action::proceed;
    }
    template <std::size_t R>
    flow deliver() {
        using E = typename route_at<R>::event;
        using Rec = typename route_at<R>::record;
        if constexpr (table::wanted[R]) {
            const completion c =
                complete<R>(std::get<R>(recs_), std::make_index_sequence<project_detail::route_info<route_at<R>>::count>{});
            if (c == completion::skip) return flow::proceed;
            if (c == completion::too_large) return report_error(vis_, too_large());
            const Rec& rec = std::get<R>(recs_);
            if constexpr (E::template callable<V, Rec>()) {
                return ::logscan::internal::call_as_flow([&]() -> decltype(auto) { return E::invoke(vis_, rec); });
            } else {
                static_assert(E::template reject<V>());
            }
        }
        return flow::proceed;
    }

    // The route's complete_with hooks, in order, until one does not say deliver.
    template <std::size_t R, class Rec, std::size_t... J>
    completion complete(Rec& rec, std::index_sequence<J...>) {
        completion c = completion::deliver;
        const auto one = [&]<class F>(const F*) {
            if constexpr (F::is_hook) {
                if (c == completion::deliver) c = F::apply(rec, std::span<char>(buf_ + used_, cap_ - used_));
            }
        };
        (one(static_cast<const typename project_detail::route_info<route_at<R>>::template field<J>*>(nullptr)), ...);
        return c;
    }
    error too_large() const noexcept {
        return error{error_code::too_long, 0, 0, offset, "object too large for the scratch buffer", 0};
    }

    template <class F>
    static void dispatch(std::uint8_t r, F&& f) {
        [&]<std::size_t... R>(std::index_sequence<R...>) {
            (void)((r == R ? (f.template operator()<R>(), true) : false) || ...);
        }(std::index_sequence_for<Routes...>{});
    }

    // -- fields: one setter per field of every route, by global index --
    using setter = void (*)(projector&, const field_value&);
    template <std::size_t R, std::size_t J>
    static void set_as(projector& p, const field_value& v) {
        using Rt = route_at<R>;
        using F = typename project_detail::route_info<Rt>::template field<J>;
        if constexpr (!F::is_key && !F::is_hook) {
            auto& m = std::get<R>(p.recs_).*(F::member);
            using M = std::remove_cvref_t<decltype(m)>;
            if constexpr (std::is_same_v<M, std::optional<std::string_view>>) {
                m = v.has_text ? M(v.text) : std::nullopt;
            } else if constexpr (std::is_same_v<M, std::optional<std::uint64_t>>) {
                m = v.num ? v.num->to_uint64() : std::nullopt;
            } else if constexpr (std::is_same_v<M, std::optional<std::int64_t>>) {
                m = v.num ? v.num->to_int64() : std::nullopt;
            } else if constexpr (std::is_same_v<M, std::optional<double>>) {
                m = v.num ? M(v.num->to_double()) : std::nullopt;
            } else if constexpr (std::is_same_v<M, std::optional<string_list>>) {
                m = v.has_text ? M(string_list(v.text, v.count)) : std::nullopt;
            } else if constexpr (std::is_same_v<M, std::optional<shape_list>>) {
                m = std::nullopt;
                if (v.has_text) m = logscan::internal::shape_builder::of(v.text, p.kept_dims_.data(), v.count);
            } else if constexpr (std::is_same_v<M, std::optional<shape_sequence>>) {
                m = std::nullopt; // (its lists were checked as they were read: not read again)
                if (v.has_text) m = logscan::internal::shape_builder::sequence(v.text, v.count);
            }
        }
    }
    template <std::size_t R, std::size_t... J>
    static constexpr void fill_setters(std::array<setter, table::field_count + 1>& a, std::index_sequence<J...>) {
        ((a[table::field_base[R] + J] = &set_as<R, J>), ...);
    }
    template <std::size_t... R>
    static constexpr std::array<setter, table::field_count + 1> make_setters(std::index_sequence<R...>) {
        std::array<setter, table::field_count + 1> a{};
        (fill_setters<R>(a, std::make_index_sequence<project_detail::route_info<route_at<R>>::count>{}), ...);
        return a;
    }
    static constexpr std::array<setter, table::field_count + 1> setters =
        make_setters(std::index_sequence_for<Routes...>{});
    void set(std::uint16_t field, const field_value& v) { setters[field](*this, v); }

    // -- whole objects (on_whole_object): each function takes `p` at a value's first byte and
    // returns the byte after the value, or nullptr to leave the object to the reader --
    // The keys of an object's last occurrence, by position (the objects of one record type
    // mostly repeat them in one order): a key equal to the remembered one leads to the same
    // child without being scanned and looked up.
    struct key_guess {
        std::uint16_t child = no_node;
        std::uint8_t size = 0; // 0: none
        char key[29]{};
    };
    static constexpr std::size_t guessed_members = 24;

    // The members of an object at node n, p at its brace.
    const char* whole_members(const char* p, std::uint16_t n, std::size_t levels) {
        if (levels == 0) return nullptr;
        const char* const end = whole_.end;
        key_guess* const guesses = table::guess_slot[n] != no_node ? guesses_[table::guess_slot[n]].data() : nullptr;
        p = whole_.blanks(p + 1);
        if (p == end) return nullptr;
        if (*p == '}') return p + 1;
        for (std::size_t i = 0;; ++i) {
            if (*p != '"') return nullptr;
            std::uint16_t c;
            const char* q;
            key_guess* const g = guesses != nullptr && i < guessed_members ? guesses + i : nullptr;
            if (g != nullptr && g->size != 0 && static_cast<std::size_t>(end - p) > g->size + 1u &&
                p[1 + g->size] == '"' && same_bytes(p + 1, g->key, g->size) && g->size <= whole_.max_token) {
                c = g->child;
                q = p + 1 + g->size;
            } else {
                q = whole_.string(p);
                if (q == nullptr) return nullptr;
                const std::string_view k(p + 1, static_cast<std::size_t>(q - p - 1));
                c = find_child(n, k);
                if (g != nullptr) {
                    g->size = 0;
                    if (k.size() <= sizeof g->key) {
                        std::memcpy(g->key, k.data(), k.size());
                        g->size = static_cast<std::uint8_t>(k.size());
                        g->child = c;
                    }
                }
            }
            p = whole_.blanks(q + 1);
            if (p == end || *p != ':') return nullptr;
            p = whole_.blanks(p + 1);
            if (p == end) return nullptr;
            p = whole_value(p, c, levels - 1);
            if (p == nullptr) return nullptr;
            bool done = false;
            p = whole_.next(p, '}', done);
            if (p == nullptr || done) return p;
        }
    }

    // The value of a member whose key led to node c (no_node: a key no field goes through).
    LOGSCAN_FORCE_INLINE const char* whole_value(const char* p, std::uint16_t c, std::size_t levels) {
        const char ch = *p;
        if (ch == '"') {
            const char* const q = whole_.string(p);
            if (q == nullptr) return nullptr;
            if (c != no_node) {
                const node& d = table::nodes[c];
                if (d.field != no_node) {
                    field_value v;
                    if (d.what == kind::text)
                        v.has_text = copy(std::string_view(p + 1, static_cast<std::size_t>(q - p - 1)), v.text) ||
                                     (overflow_ = true, false);
                    else if (d.what == kind::raw)
                        raw_scalar(std::string_view(p, static_cast<std::size_t>(q + 1 - p)));
                    set(d.field, v);
                }
            }
            return q + 1;
        }
        if (whole_scan::number_start(ch)) {
            if (c == no_node) return whole_.skip_number(p);
            number x;
            const char* const q = whole_.number_value(p, x);
            if (q == nullptr) return nullptr;
            {
                const node& d = table::nodes[c];
                if (d.field != no_node) {
                    field_value v;
                    if (d.what == kind::u64 || d.what == kind::i64 || d.what == kind::f64) v.num = &x;
                    else if (d.what == kind::raw) raw_scalar(x.text());
                    set(d.field, v);
                }
            }
            return q;
        }
        if (ch == '{' || ch == '[') return whole_container(p, c, levels);
        const char* const q = whole_.literal(p);
        if (q != nullptr && c != no_node && table::nodes[c].field != no_node) {
            if (table::nodes[c].what == kind::raw) raw_scalar(std::string_view(p, static_cast<std::size_t>(q - p)));
            set(table::nodes[c].field, {});
        }
        return q;
    }
    // A scalar at a take_text field: empty, its text only needing room for a moment, as when
    // the events compact it (an overflow: the object goes to the events, and is an error there).
    void raw_scalar(std::string_view text) {
        const std::size_t from = used_;
        put(text);
        used_ = from;
    }

    // An object or array at node c.
    const char* whole_container(const char* p, std::uint16_t c, std::size_t levels) {
        if (c == no_node) return whole_.skip(p, levels);
        const node& d = table::nodes[c];
        if (d.keep_key || d.route != project_detail::no_route) return nullptr; // (not inside a record)
        const bool object = *p == '{';
        if (object && d.what == kind::object) return whole_members(p, c, levels);
        if (!object && (d.what == kind::texts || d.what == kind::ints || d.what == kind::int_lists))
            return whole_list(p, d, levels);
        if (d.what == kind::raw) {
            const std::size_t from = used_;
            const char* const q = keep_compact(p, levels);
            if (q == nullptr) return nullptr;
            field_value v; // (a text that overflowed: the object goes to the events, see on_whole_object)
            v.text = span(from);
            v.has_text = true;
            set(d.field, v);
            return q;
        }
        // not what the path says: nothing under it, the field empty
        const char* const q = whole_.skip(p, levels);
        if (q != nullptr && d.field != no_node) set(d.field, {});
        return q;
    }

    // The elements of an array, p at its bracket: `element(p)` reads each one (the byte after
    // it, or nullptr).
    template <class Element>
    const char* whole_elements(const char* p, std::size_t levels, Element&& element) {
        if (levels == 0) return nullptr;
        p = whole_.blanks(p + 1);
        if (p == whole_.end) return nullptr;
        bool done = *p == ']';
        if (done) return p + 1;
        while (!done) {
            p = element(p);
            if (p == nullptr) return nullptr;
            p = whole_.next(p, ']', done);
            if (p == nullptr) return nullptr;
        }
        return p;
    }
    // A list field's array (strings, integers, or lists of integers), p at its bracket.
    const char* whole_list(const char* p, const node& d, std::size_t levels) {
        list_begin(d.what);
        p = whole_elements(p, levels, [&](const char* e) -> const char* {
            if (d.what == kind::texts && *e == '"') {
                const char* const q = whole_.string(e);
                if (q == nullptr) return nullptr;
                list_add(std::string_view(e + 1, static_cast<std::size_t>(q - e - 1)));
                return q + 1;
            }
            if (d.what == kind::ints && whole_scan::number_start(*e)) return whole_dim(e);
            if (d.what == kind::int_lists && *e == '[') return whole_dims(e, levels - 1);
            list_bad_ = true;
            if (whole_scan::number_start(*e)) { // (read by the events, not skipped: the reader's length limit holds)
                number x;
                return whole_.number_value(e, x);
            }
            return whole_.skip_value(e, levels - 1);
        });
        if (p != nullptr) list_end(d);
        return p;
    }
    // An inner list of integers of an int_lists field, p at its bracket.
    const char* whole_dims(const char* p, std::size_t levels) {
        if (list_count_ > 0) put(",");
        put("[");
        dims_ = 0;
        p = whole_elements(p, levels, [&](const char* e) -> const char* {
            if (whole_scan::number_start(*e)) return whole_dim(e);
            list_bad_ = true;
            return whole_.skip_value(e, levels - 1);
        });
        if (p != nullptr) inner_end();
        return p;
    }
    // One integer of a list (what the events' add_dim makes of it): a plain one of up to 18
    // digits read here, any other through the reader's number.
    const char* whole_dim(const char* p) {
        using logscan::internal::is_digit;
        const char* q = p + (*p == '-');
        const char* const limit = whole_.end - q > 18 ? q + 18 : whole_.end;
        if (q != limit && is_digit(*q) && (*q != '0' || q + 1 == limit || !is_digit(q[1]))) {
            std::uint64_t acc = static_cast<std::uint64_t>(*q++ - '0');
            while (q != limit && is_digit(*q)) acc = acc * 10u + static_cast<std::uint64_t>(*q++ - '0');
            if (q != whole_.end && !is_digit(*q) && *q != '.' && *q != 'e' && *q != 'E' &&
                static_cast<std::size_t>(q - p) <= whole_.max_token) {
                const auto d = static_cast<std::int64_t>(acc);
                add_dim(*p == '-' ? -d : d, std::string_view(p, static_cast<std::size_t>(q - p)));
                return q;
            }
        }
        number x;
        p = whole_.number_value(p, x);
        if (p != nullptr) add_dim(x);
        return p;
    }

    // An object or array from its bracket, skipped (whole_scan::skip_compact) with its compact
    // text (what the events' compactor would write) kept in the scratch buffer: the byte after
    // it, or nullptr. (No room: an overflow, and the object goes to the events, which know
    // whether its compact text fits.)
    const char* keep_compact(const char* p, std::size_t levels) noexcept {
        char* out = buf_ + used_;
        const char* const q = whole_.skip_compact(p, levels, out, overflow_ ? out : buf_ + cap_);
        if (q != nullptr) {
            if (out == nullptr) overflow_ = true;
            else used_ = static_cast<std::size_t>(out - buf_);
        }
        return q;
    }

    // -- the scratch buffer --
    bool put(std::string_view s) noexcept {
        if (overflow_ || s.size() > cap_ - used_) {
            overflow_ = true;
            return false;
        }
        logscan::internal::copy_bytes(buf_ + used_, s.data(), s.size());
        used_ += s.size();
        return true;
    }
    bool copy(std::string_view s, std::string_view& out) noexcept {
        if (s.size() > cap_ - used_) return false;
        logscan::internal::copy_bytes(buf_ + used_, s.data(), s.size());
        out = std::string_view(buf_ + used_, s.size());
        used_ += s.size();
        return true;
    }
    std::string_view span(std::size_t from) const noexcept { return {buf_ + from, used_ - from}; }


    V& vis_;
    char* buf_;
    std::size_t cap_;
    std::size_t used_ = 0, rec_mark_ = 0;
    std::size_t depth_ = 0;
    std::uint16_t stack_[stack_size]{};
    std::size_t mark_[stack_size]{};            // used_ when the container at each level opened
    std::uint64_t count_[stack_size]{};         // elements so far of the array at each level
    std::uint64_t cap_index_[stack_size + 1]{}; // the index of the element at each level
    std::string_view cap_text_[stack_size + 1]{}; // the key of the value at each level
    bool cap_bad_[stack_size + 1]{};
    std::uint16_t pending_ = no_node;
    std::uint16_t raw_field_ = no_node;
    std::uint8_t raw_record_ = project_detail::no_route; // a record whose own value is being captured
    std::size_t raw_from_ = 0;
    std::size_t list_from_ = 0, list_count_ = 0, dims_ = 0;
    std::array<std::int64_t, shape_list::inline_dims> kept_dims_{}; // (an integer list's first dims)
    bool list_bad_ = false, overflow_ = false, in_record_ = false;
    compactor raw_; // (a take_text value's text, compacted into the scratch buffer)
    whole_scan whole_{}; // (the object read by on_whole_object)
    std::array<std::array<key_guess, guessed_members>, table::guess_slots> guesses_{};
    std::tuple<typename Routes::record...> recs_{};
};

/// The push parser of a JSON-document format: its records (`Records`, record.hpp) made by
/// `Projection`'s routes from a streamed document. `feed(chunk)` any number of times (any
/// split), then `finish()`; `result()` is the reader's outcome (a syntax error is also the
/// visitor's `error` record and ends the parse). `Reader`: the JSON reader's options (e.g.
/// `non_finite_words`). Allocates the scratch buffer (`format_options::scratch_capacity`)
/// and the reader's buffers once, at construction.
template <class Visitor, class Records, class Projection, options Reader = options{}>
class projection_parser {
    static_assert(Records::template accepts<Visitor>());

public:
    /// Reads into `vis` with the scratch capacity of `opt`.
    explicit projection_parser(Visitor& vis, const format_options& opt = {})
        : scratch_(static_cast<char*>(std::malloc(opt.scratch_capacity ? opt.scratch_capacity : 1))),
          proj_(vis, std::span<char>(scratch_, scratch_ ? opt.scratch_capacity : 0)), reader_(proj_, Reader) {}
    projection_parser(const projection_parser&) = delete;
    projection_parser& operator=(const projection_parser&) = delete;
    ~projection_parser() { std::free(scratch_); }

    /// Feeds the next chunk. Returns `flow::stop` once the parse has ended (an error in the
    /// document, or a callback stopped it).
    flow feed(std::string_view chunk) {
        proj_.offset = reader_.bytes();
        return reader_.feed(chunk);
    }
    /// Ends the input.
    flow finish() { return reader_.finish(); }
    /// Counts positions from byte `offset`, column `column` of line `lines_before + 1` (the
    /// JSON reader's `start_at`: bytes dropped before the document, a byte order mark). Call
    /// before `feed`.
    void start_at(std::uint64_t lines_before, std::uint64_t offset, std::uint64_t column = 1) noexcept {
        reader_.start_at(lines_before, offset, column);
    }
    /// The JSON reader's outcome: none, a syntax error (also delivered to `on_error`) or stopped.
    const error& result() const noexcept { return reader_.result(); }
    /// Whether records' objects are read in one pass (the default) or through the reader's
    /// events only (projector::fuse_objects: the same records).
    void fuse_objects(bool on) noexcept { proj_.fuse_objects = on; }
    /// Records whose object was read in one pass so far.
    std::uint64_t whole_objects() const noexcept { return proj_.whole_objects; }

private:
    char* scratch_;
    projector<Visitor, Projection> proj_;
    reader<projector<Visitor, Projection>> reader_;
};

} // namespace logscan::json

#endif // LOGSCAN_JSON_PROJECT_HPP_INCLUDED
