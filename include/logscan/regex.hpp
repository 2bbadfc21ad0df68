// SPDX-License-Identifier: MIT
/// \file regex.hpp
/// Compile-time regular expressions: linear time, PCRE/Python captures, no allocation.
///
/// The pattern is a template argument. It is parsed and compiled when the program is
/// built; a malformed pattern is a compile error naming the problem and its offset
/// (e.g. `missing_close_paren_at_offset<3>`). Every call takes time linear in the input
/// (times the pattern size) and a fixed amount of stack: patterns are matched one-pass, by
/// a bounded backtracker that never explores a state twice, or by a Pike VM
/// (`regex_info<P>::engine` tells which).
///
/// \code
/// auto m = logscan::match<R"(\[(\d+) (?<time>\d\d:\d\d:\d\d)\] (.*))">(line); // whole input
/// if (m) {
///     std::string_view all = m.get<0>();
///     std::string_view day = m.get<1>();
///     std::string_view t = m.get<"time">();
///     auto d = m.to<1, int>();           // {value, ptr, ec} through the numbers layer
///     auto [whole, dd, hms, msg] = m;    // structured bindings over all groups
/// }
/// auto s = logscan::search<"bytes\\)">(text);              // leftmost match anywhere
/// for (auto hit : logscan::search_all<R"(\d+)">(text)) {    // every match, left to right
///     use(hit.get<0>());
/// }
/// \endcode
///
/// Syntax (bytes in, bytes out; UTF-8 passes through as bytes): literals and escapes
/// `\\ \. \( \) \[ \] \{ \} \| \* \+ \? \^ \$ \- \/ \t \n \r \f \v \xHH` (any escaped
/// punctuation is itself); `.` (any byte but `\n`); classes `[a-z_]`, `[^\]]` with the
/// shorthands `\d \D \w \W \s \S` (ASCII) inside and outside classes; anchors `^` (start
/// of text), `$` (end of text or before a final `\n`), `\b`, `\B`; groups `( )`, `(?: )`,
/// `(?<name> )`, `(?P<name> )`; alternation `|`; quantifiers `* + ? {n} {n,} {n,m} {,m}`
/// and their lazy forms with a trailing `?`. Captures are those of Python's `re` and PCRE
/// (leftmost-first, greedy/lazy priority, a group keeps the last text it captured).
/// Back-references and look-around are not regular and are rejected at compile time.
#ifndef LOGSCAN_REGEX_HPP_INCLUDED
#define LOGSCAN_REGEX_HPP_INCLUDED

#include <array>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <memory>
#include <string_view>
#include <tuple>
#include <type_traits>

#include "config.hpp"
#include "num.hpp"
#include "regex/exec.hpp"
#include "regex/parse.hpp"
#include "regex/program.hpp"

namespace logscan {

/// Compile errors of malformed patterns. Each problem is a class template whose argument
/// is the byte offset of the problem in the pattern; instantiating it fails with a message.
namespace regex_error {
template <std::size_t>
inline constexpr bool always_false = false;

#define LOGSCAN_REGEX_ERROR(name, text)                                                         \
    template <std::size_t Offset>                                                              \
    struct name##_at_offset {                                                                  \
        static_assert(always_false<Offset>, "logscan::regex: " text                              \
                                            " (the offset in the pattern is the template argument)"); \
    };
LOGSCAN_REGEX_ERROR(unmatched_close_paren, "unmatched ')'")
LOGSCAN_REGEX_ERROR(missing_close_paren, "missing ')' to close this group")
LOGSCAN_REGEX_ERROR(missing_close_bracket, "missing ']' to close this character class")
LOGSCAN_REGEX_ERROR(nothing_to_repeat, "quantifier with nothing to repeat")
LOGSCAN_REGEX_ERROR(multiple_repeat, "a quantifier cannot follow another quantifier")
LOGSCAN_REGEX_ERROR(bad_repeat_range, "in {n,m}, n is greater than m")
LOGSCAN_REGEX_ERROR(repeat_too_large, "repetition count greater than 1000")
LOGSCAN_REGEX_ERROR(bad_brace, "'{' that does not start {n}, {n,}, {n,m} or {,m}: write \\\\{ for a literal brace")
LOGSCAN_REGEX_ERROR(bad_class_range, "character class range out of order")
LOGSCAN_REGEX_ERROR(shorthand_in_range, "\\d, \\w or \\s cannot be a range endpoint")
LOGSCAN_REGEX_ERROR(trailing_backslash, "pattern ends with a backslash")
LOGSCAN_REGEX_ERROR(bad_hex_escape, "\\x must be followed by two hexadecimal digits")
LOGSCAN_REGEX_ERROR(unknown_escape, "unknown escape sequence")
LOGSCAN_REGEX_ERROR(backreference, "back-references are not regular and are not supported")
LOGSCAN_REGEX_ERROR(lookaround, "look-ahead and look-behind are not regular and are not supported")
LOGSCAN_REGEX_ERROR(bad_group_syntax, "unknown group syntax after '(?' (inline flags, atomic groups and comments are not supported)")
LOGSCAN_REGEX_ERROR(bad_group_name, "invalid group name (letters, digits and '_', not starting with a digit)")
LOGSCAN_REGEX_ERROR(duplicate_group_name, "two groups have the same name")
LOGSCAN_REGEX_ERROR(too_deeply_nested, "groups nested too deeply (at most 48 levels)")
LOGSCAN_REGEX_ERROR(pattern_too_large, "pattern too large once repetitions are expanded (at most 6000 instructions)")
LOGSCAN_REGEX_ERROR(nested_empty_loops, "more than 6 nested repetitions of groups that can match the empty string")
#undef LOGSCAN_REGEX_ERROR
} // namespace regex_error

namespace regex_internal {

/// Instantiates the error class of `E` (a compile error) unless E is `none`.
template <errc E, std::size_t Off>
constexpr bool report() noexcept {
    using namespace regex_error;
#define LOGSCAN_REGEX_CASE(name) \
    else if constexpr (E == errc::name) return sizeof(name##_at_offset<Off>) == 0;
    if constexpr (E == errc::none) return true;
    LOGSCAN_REGEX_CASE(unmatched_close_paren)
    LOGSCAN_REGEX_CASE(missing_close_paren)
    LOGSCAN_REGEX_CASE(missing_close_bracket)
    LOGSCAN_REGEX_CASE(nothing_to_repeat)
    LOGSCAN_REGEX_CASE(multiple_repeat)
    LOGSCAN_REGEX_CASE(bad_repeat_range)
    LOGSCAN_REGEX_CASE(repeat_too_large)
    LOGSCAN_REGEX_CASE(bad_brace)
    LOGSCAN_REGEX_CASE(bad_class_range)
    LOGSCAN_REGEX_CASE(shorthand_in_range)
    LOGSCAN_REGEX_CASE(trailing_backslash)
    LOGSCAN_REGEX_CASE(bad_hex_escape)
    LOGSCAN_REGEX_CASE(unknown_escape)
    LOGSCAN_REGEX_CASE(backreference)
    LOGSCAN_REGEX_CASE(lookaround)
    LOGSCAN_REGEX_CASE(bad_group_syntax)
    LOGSCAN_REGEX_CASE(bad_group_name)
    LOGSCAN_REGEX_CASE(duplicate_group_name)
    LOGSCAN_REGEX_CASE(too_deeply_nested)
    LOGSCAN_REGEX_CASE(pattern_too_large)
    LOGSCAN_REGEX_CASE(nested_empty_loops)
    else return false;
#undef LOGSCAN_REGEX_CASE
}

/// The compiled pattern, after reporting its errors.
template <fixed_string P>
struct checked {
    using C = compiled<P>;
    static_assert(report<C::error, C::error_offset>(), "logscan::regex: invalid pattern");
    static_assert(!C::ok || sizeof(pike_mem<C>) <= max_matcher_state,
                  "logscan::regex: pattern too large: its matcher state would exceed 256 KiB of stack");
    static constexpr bool ok = C::ok;
};

} // namespace regex_internal

/// The matcher a pattern runs on (see `regex_info`).
enum class regex_engine {
    one_pass,  ///< each byte decides the path: a table-driven walk, no backtracking
    backtrack, ///< a bounded backtracker: depth-first, each (instruction, position) once
    pike_vm,   ///< every path at once, capture slots copied per thread (slowest; any input)
};

/// What logscan does with pattern P, at compile time: `static_assert(regex_info<P>::engine ==
/// regex_engine::one_pass)` documents (and guards) that a pattern is on the fastest path.
///
/// - `engine`: the matcher for inputs up to `backtrack_limit` bytes (every input for
///   one-pass and Pike VM patterns);
/// - `backtrack_limit`: for backtracked patterns, the longest input (bytes from where
///   matching starts) whose visited bits fit its fixed 16 KiB buffer; longer inputs run on
///   the Pike VM, as does an input whose choices nest deeper than its job stack (2048 jobs).
///   0 for the other engines;
/// - `engine_for(bytes)`: the matcher for an input of that length;
/// - `groups`: capture groups including group 0.
///
/// Every engine gives the same results (Python/PCRE leftmost-first captures) in time linear
/// in the input; they differ in speed only. See docs/regex.md, "Fast patterns".
template <fixed_string P>
struct regex_info {
private:
    using K = regex_internal::checked<P>;
    using C = typename K::C;
    static constexpr regex_engine from(regex_internal::engine_kind k) noexcept {
        return k == regex_internal::engine_kind::one_pass    ? regex_engine::one_pass
               : k == regex_internal::engine_kind::backtrack ? regex_engine::backtrack
                                                             : regex_engine::pike_vm;
    }

public:
    /// Capture groups, including group 0.
    static constexpr std::size_t groups = static_cast<std::size_t>(C::ngroups);
    /// The matcher for an input of `bytes` bytes.
    static constexpr regex_engine engine_for(std::size_t bytes) noexcept {
        return from(regex_internal::engine_for<C>(bytes));
    }
    /// The matcher for inputs up to backtrack_limit bytes (all inputs, for the others).
    static constexpr regex_engine engine = engine_for(0);
    /// Longest input the backtracker takes (0 when the engine is not the backtracker).
    static constexpr std::size_t backtrack_limit =
        engine == regex_engine::backtrack ? regex_internal::backtrack<C>::max_input : 0;
};

/// The result of `match`, `search` or one step of `search_all`: whether the pattern
/// matched, and the text of every group as a view into the input.
///
/// `get<I>()` / `get<"name">()` return the group's text; a group that did not take part in
/// the match (or any group when there is no match) is a view with `data() == nullptr`.
/// Group 0 is the whole match. Unknown indices or names are compile errors.
template <fixed_string P>
class regex_result {
    using C = regex_internal::compiled<P>;

public:
    /// Number of groups, including group 0.
    static constexpr std::size_t groups = static_cast<std::size_t>(C::ngroups);

    /// An empty (not matched) result.
    constexpr regex_result() noexcept {
        // (the groups' bytes zeroed once, by 16-byte stores: a value-initialised array of
        // views is a `rep stos` at g++ -O2, tens of cycles on every line a rule tries, before
        // the same stores again; a variant member left alone until then)
        if (std::is_constant_evaluated()) {
            std::construct_at(&g_);
            offset_ = 0;
            matched_ = false;
        } else {
            internal::zero_bytes(*this);
        }
    }

    /// True when the pattern matched.
    constexpr bool matched() const noexcept { return matched_; }
    /// True when the pattern matched.
    constexpr explicit operator bool() const noexcept { return matched_; }

    /// Text of group I (0: the whole match).
    template <std::size_t I>
    constexpr std::string_view get() const noexcept {
        static_assert(I < groups, "logscan::regex: group index out of range for this pattern");
        return g_[I];
    }
    /// Text of the group called Name.
    template <fixed_string Name>
    constexpr std::string_view get() const noexcept {
        constexpr int gi = C::group_index(Name.view());
        static_assert(gi >= 0, "logscan::regex: the pattern has no group with this name");
        return g_[static_cast<std::size_t>(gi)];
    }
    /// Text of group i at run time (out of range: a null view).
    constexpr std::string_view operator[](std::size_t i) const noexcept {
        return i < groups ? g_[i] : std::string_view{};
    }
    /// Number of groups, including group 0.
    static constexpr std::size_t size() noexcept { return groups; }
    /// Byte offset of the match in the searched text (meaningful when matched).
    constexpr std::size_t offset() const noexcept { return offset_; }

    /// Group I parsed as a number of type T through `logscan::parse_grouped` (`,`
    /// thousands separators accepted): `{value, ptr, ec}`; `ec` is `invalid_argument` for
    /// a group that did not take part.
    template <std::size_t I, parsable_number T>
    constexpr value_result<T> to() const noexcept {
        return convert<T>(get<I>());
    }
    /// Group Name parsed as a number of type T; see above.
    template <fixed_string Name, parsable_number T>
    constexpr value_result<T> to() const noexcept {
        return convert<T>(get<Name>());
    }
    /// Group 0 (the whole match) parsed as a number of type T; see above.
    template <parsable_number T>
    constexpr value_result<T> to() const noexcept {
        return convert<T>(g_[0]);
    }

    /// The groups, for an assisted rule's hand reader to fill in place (internal; rules.hpp).
    constexpr std::array<std::string_view, groups>& assist_groups() noexcept { return g_; }
    /// Marks the result matched, its groups filled by a hand reader (internal; rules.hpp).
    constexpr void assist_matched() noexcept { matched_ = true; }
    /// Builds a result from slot offsets into `text` (internal).
    constexpr static regex_result from_slots(std::string_view text, const std::size_t* slots) noexcept {
        regex_result r;
        r.matched_ = true;
        r.offset_ = slots[0];
        for (std::size_t g = 0; g < groups; ++g) {
            const std::size_t b = slots[2 * g], e = slots[2 * g + 1];
            if (b != regex_internal::npos && e != regex_internal::npos && b <= e)
                r.g_[g] = std::string_view(text.data() + b, e - b);
        }
        return r;
    }

private:
    template <class T>
    static constexpr value_result<T> convert(std::string_view v) noexcept {
        if (v.data() == nullptr) {
            value_result<T> r{};
            r.ec = std::errc::invalid_argument;
            return r;
        }
        return parse_grouped<T>(v);
    }

    union { // (see the constructor)
        std::array<std::string_view, groups> g_;
    };
    std::size_t offset_;
    bool matched_;
};

/// Matches the whole of `text` against the pattern (like Python's `re.fullmatch`).
template <fixed_string P>
constexpr regex_result<P> match(std::string_view text) noexcept {
    using K = regex_internal::checked<P>;
    using C = typename K::C;
    std::size_t slots[static_cast<std::size_t>(C::nslots)];
    if (!regex_internal::full_match<C>(text.data(), text.size(), slots, nullptr)) return {};
    return regex_result<P>::from_slots(text, slots);
}

#ifdef LOGSCAN_CHECK_ASSISTS
namespace regex_internal {
/// Aborts when a hand reader took a text the pattern does not match with the same groups
/// (LOGSCAN_CHECK_ASSISTS builds: the tests and every Debug build of this project).
template <fixed_string P, class Groups>
void check_assist(std::string_view text, const Groups& g) {
    const auto m = logscan::match<P>(text);
    bool same = static_cast<bool>(m);
    for (std::size_t i = 0; same && i < g.size(); ++i)
        same = m[i].data() == g[i].data() && m[i].size() == g[i].size();
    if (!same) {
        std::fprintf(stderr, "logscan: a hand reader took a text its pattern %s does not match so: %.*s\n", P.chars,
                     static_cast<int>(text.size()), text.data());
        std::abort();
    }
}
// (a hand reader that decides declined `text`: the pattern must not match it)
template <fixed_string P>
void check_declined(std::string_view text) {
    if (logscan::match<P>(text)) {
        std::fprintf(stderr, "logscan: a hand reader declined a text its pattern %s matches: %.*s\n", P.chars,
                     static_cast<int>(text.size()), text.data());
        std::abort();
    }
}
} // namespace regex_internal
#endif

/// `match<P>(text)` with a hand-written reader of the common case tried first (rules.hpp's
/// assisted rules do the same for a rule): `read(text, groups)` fills the pattern's groups
/// (`std::array<std::string_view, N>`, group 0 the whole text; a group that does not take
/// part left as a null view) and returns true only when the pattern matches `text` with
/// exactly those groups; false hands the text to the pattern. With `LOGSCAN_CHECK_ASSISTS`
/// defined every text the reader takes is matched by the pattern too, and a difference aborts.
template <fixed_string P, class Reader>
regex_result<P> assisted_match(std::string_view text, Reader&& read) noexcept {
    regex_result<P> m; // (one object, filled in place)
    if (read(text, m.assist_groups())) {
#ifdef LOGSCAN_CHECK_ASSISTS
        regex_internal::check_assist<P>(text, m.assist_groups());
#endif
        m.assist_matched();
    } else {
        m = match<P>(text);
    }
    return m;
}

/// The leftmost match of the pattern in `text` (like Python's `re.search`).
template <fixed_string P>
constexpr regex_result<P> search(std::string_view text) noexcept {
    using K = regex_internal::checked<P>;
    using C = typename K::C;
    std::size_t slots[static_cast<std::size_t>(C::nslots)];
    if (!regex_internal::search_from<C>(text.data(), text.size(), 0, false, slots, nullptr)) return {};
    return regex_result<P>::from_slots(text, slots);
}

/// The leftmost match starting at or after `from` (assertions such as `^` and `\b` still
/// see the whole text). `from` past the end gives no match.
template <fixed_string P>
constexpr regex_result<P> search(std::string_view text, std::size_t from) noexcept {
    using K = regex_internal::checked<P>;
    using C = typename K::C;
    if (from > text.size()) return {};
    std::size_t slots[static_cast<std::size_t>(C::nslots)];
    if (!regex_internal::search_from<C>(text.data(), text.size(), from, false, slots, nullptr)) return {};
    return regex_result<P>::from_slots(text, slots);
}

/// The matches of `search_all`, in order, without overlap (Python's `re.finditer` rules:
/// after an empty match, the next match may not be empty at the same position). `Find`, when
/// given, finds them by hand instead of the pattern's search (a format's reader of a pattern
/// it implements whole, tested against it): `bool Find{}(text, pos, must_advance, slots)`
/// with the search's contract — the leftmost match at or after `pos`, its group offsets in
/// `slots` (two per group, group 0 first), false when there is none.
template <fixed_string P, class Find = void>
class regex_range {
public:
    /// Input iterator over the matches.
    class iterator {
    public:
        using value_type = regex_result<P>;      ///< a match
        using difference_type = std::ptrdiff_t;  ///< unused
        using iterator_category = std::input_iterator_tag; ///< single pass

        constexpr iterator() noexcept = default;
        constexpr const regex_result<P>& operator*() const noexcept { return cur_; }
        constexpr const regex_result<P>* operator->() const noexcept { return &cur_; }
        constexpr iterator& operator++() noexcept {
            advance();
            return *this;
        }
        constexpr void operator++(int) noexcept { advance(); }
        friend constexpr bool operator==(const iterator& a, std::default_sentinel_t) noexcept { return a.done_; }

    private:
        friend class regex_range;
        constexpr explicit iterator(std::string_view text) noexcept : text_(text), done_(false) { advance(); }
        constexpr void advance() noexcept {
            using C = regex_internal::compiled<P>;
            if (pos_ > text_.size()) {
                done_ = true;
                return;
            }
            std::size_t slots[static_cast<std::size_t>(C::nslots)];
            bool found = false;
            if constexpr (std::is_void_v<Find>)
                found = regex_internal::search_from<C>(text_.data(), text_.size(), pos_, must_advance_, slots, nullptr);
            else
                found = Find{}(text_, pos_, must_advance_, slots);
            if (!found) {
                done_ = true;
                return;
            }
            cur_ = regex_result<P>::from_slots(text_, slots);
            must_advance_ = slots[1] == slots[0];
            pos_ = slots[1];
        }
        std::string_view text_{};
        regex_result<P> cur_{};
        std::size_t pos_ = 0;
        bool must_advance_ = false;
        bool done_ = true;
    };

    /// The matches of the pattern in `text`.
    constexpr explicit regex_range(std::string_view text) noexcept : text_(text) {}
    /// First match.
    constexpr iterator begin() const noexcept { return iterator(text_); }
    /// End sentinel.
    constexpr std::default_sentinel_t end() const noexcept { return {}; }

private:
    std::string_view text_;
};

/// Every non-overlapping match of the pattern in `text`, left to right.
template <fixed_string P>
constexpr regex_range<P> search_all(std::string_view text) noexcept {
    using K = regex_internal::checked<P>;
    static_assert(K::ok || !K::ok);
    return regex_range<P>(text);
}

} // namespace logscan

/// Structured bindings over the groups of a result: `auto [all, a, b] = m;`.
template <logscan::fixed_string P>
struct std::tuple_size<logscan::regex_result<P>>
    : std::integral_constant<std::size_t, logscan::regex_result<P>::groups> {};
/// Every group is a `std::string_view`.
template <std::size_t I, logscan::fixed_string P>
struct std::tuple_element<I, logscan::regex_result<P>> {
    using type = std::string_view; ///< group text
};

#endif // LOGSCAN_REGEX_HPP_INCLUDED
