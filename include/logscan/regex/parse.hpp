// SPDX-License-Identifier: MIT
/// \file regex/parse.hpp
/// Internal: the compile-time pattern parser of logscan's regular expressions.
///
/// `parse<L>(pattern)` turns the pattern text into a small syntax tree held in fixed-size
/// arrays (no allocation, usable in constant expressions). Errors are recorded as an
/// `errc` plus the byte offset in the pattern; the facade turns them into compile errors.
/// Not part of the public API: include `<logscan/regex.hpp>`.
///
/// \code
/// constexpr auto a = logscan::regex_internal::parse<5>("a(b)*");
/// static_assert(a.err == logscan::regex_internal::errc::none && a.ngroups == 2);
/// \endcode
#ifndef LOGSCAN_REGEX_PARSE_HPP_INCLUDED
#define LOGSCAN_REGEX_PARSE_HPP_INCLUDED

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "../config.hpp"
#include "../fixed_string.hpp"
#include "../utf8.hpp"

namespace logscan {

namespace regex_internal {

/// A fixed-size array for the tables built at compile time. g++'s constant evaluator pays
/// for every call, about 2 us each (measured: 200000 accesses take 0.8 s through
/// std::array::operator[], which is two calls, and under 0.1 s as `a.v[i]`), and a pattern's
/// tables are built with hundreds of thousands of accesses: the builders' loops index `.v`
/// directly. At run time it is std::array's equal.
template <class T, std::size_t N>
struct carray {
    T v[N];
    constexpr T& operator[](std::size_t i) noexcept { return v[i]; }
    constexpr const T& operator[](std::size_t i) const noexcept { return v[i]; }
    constexpr T* data() noexcept { return v; }
    constexpr const T* data() const noexcept { return v; }
    static constexpr std::size_t size() noexcept { return N; }
    constexpr T* begin() noexcept { return v; }
    constexpr T* end() noexcept { return v + N; }
    constexpr const T* begin() const noexcept { return v; }
    constexpr const T* end() const noexcept { return v + N; }
};

/// 256-bit byte set.
struct byteset {
    std::uint64_t w[4]{}; ///< bit c set when byte c is in the set

    constexpr void set(unsigned c) noexcept { w[c >> 6] |= std::uint64_t{1} << (c & 63u); }
    constexpr bool test(unsigned c) const noexcept { return ((w[c >> 6] >> (c & 63u)) & 1u) != 0; }
    constexpr void set_range(unsigned lo, unsigned hi) noexcept {
        for (unsigned c = lo; c <= hi; ++c) set(c);
    }
    constexpr void merge(const byteset& o) noexcept {
        for (int i = 0; i < 4; ++i) w[i] |= o.w[i];
    }
    constexpr void invert() noexcept {
        for (int i = 0; i < 4; ++i) w[i] = ~w[i];
    }
    constexpr int count() const noexcept {
        return std::popcount(w[0]) + std::popcount(w[1]) + std::popcount(w[2]) + std::popcount(w[3]);
    }
    constexpr bool empty() const noexcept { return (w[0] | w[1] | w[2] | w[3]) == 0; }
    constexpr bool operator==(const byteset&) const = default;
};

/// What is wrong with a pattern (the facade turns each into a compile error).
enum class errc : std::uint8_t {
    none,
    unmatched_close_paren,
    missing_close_paren,
    missing_close_bracket,
    nothing_to_repeat,
    multiple_repeat,
    bad_repeat_range,
    repeat_too_large,
    bad_brace,
    bad_class_range,
    shorthand_in_range,
    trailing_backslash,
    bad_hex_escape,
    unknown_escape,
    backreference,
    lookaround,
    bad_group_syntax,
    bad_group_name,
    duplicate_group_name,
    too_deeply_nested,
    pattern_too_large,
    nested_empty_loops,
};

/// Kind of a syntax-tree node.
enum class nk : std::uint8_t { empty, byte, set, assertion, group, concat, alt, repeat };

/// Zero-width assertions (bit mask).
enum assert_bits : std::uint8_t {
    a_bol = 1,    ///< `^`: start of the text
    a_eol = 2,    ///< `$`: end of the text, or before a final `\n`
    a_wordb = 4,  ///< `\b`
    a_nwordb = 8, ///< `\B`
};

inline constexpr std::uint16_t rep_inf = 0xFFFF; ///< unbounded repetition maximum
inline constexpr std::uint16_t max_repeat = 1000; ///< largest count allowed in {n,m}
inline constexpr int max_nesting = 48;             ///< deepest group nesting allowed

/// One syntax-tree node; children are linked through `child` / `next`.
struct node {
    nk kind = nk::empty;       ///< what the node is
    std::uint8_t greedy = 1;   ///< repeat: greedy (1) or lazy (0)
    std::uint16_t val = 0;     ///< byte value, set index, group index or assertion bits
    std::uint16_t min = 0;     ///< repeat minimum
    std::uint16_t max = 0;     ///< repeat maximum (rep_inf: unbounded)
    std::int32_t child = -1;   ///< first child (group, concat, alt, repeat)
    std::int32_t next = -1;    ///< next sibling
    std::int32_t reg = -1;     ///< repeat with a nullable body: its progress register
};

/// The parsed pattern: nodes, byte sets, group names, and the first error if any.
template <std::size_t L>
struct ast {
    static constexpr std::size_t node_cap = 2 * L + 4; ///< nodes never exceed this
    static constexpr std::size_t set_cap = L + 2;      ///< sets never exceed this
    static constexpr std::size_t group_cap = L / 2 + 2; ///< groups never exceed this
    carray<node, node_cap> nodes{};                ///< the nodes
    carray<byteset, set_cap> sets{};               ///< byte sets referenced by set nodes
    carray<std::uint32_t, group_cap> name_pos{};   ///< offset of each group's name
    carray<std::uint32_t, group_cap> name_len{};   ///< length of each group's name (0: none)
    int nnodes = 0;                                    ///< nodes used
    int nsets = 0;                                     ///< sets used
    int ngroups = 1;                                   ///< groups including group 0
    int nregs = 0;                                     ///< progress registers needed
    int root = -1;                                     ///< root node
    errc err = errc::none;                             ///< first error
    std::size_t err_pos = 0;                           ///< its offset in the pattern
};

constexpr bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }
constexpr bool is_word_byte(unsigned char c) noexcept {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}
using internal::hex_value; // (utf8.hpp)

/// Byte set of a shorthand class letter (d, D, w, W, s, S); false if `c` is not one.
constexpr bool shorthand_set(char c, byteset& out) noexcept {
    byteset s;
    switch (c | 0x20) {
    case 'd': s.set_range('0', '9'); break;
    case 'w':
        s.set_range('0', '9');
        s.set_range('a', 'z');
        s.set_range('A', 'Z');
        s.set('_');
        break;
    case 's':
        s.set(' ');
        s.set('\t');
        s.set('\n');
        s.set('\r');
        s.set('\f');
        s.set('\v');
        break;
    default: return false;
    }
    if (c == 'D' || c == 'W' || c == 'S') s.invert();
    else if (c != 'd' && c != 'w' && c != 's') return false;
    out = s;
    return true;
}

/// The pattern parser (recursive descent, nesting bounded by `max_nesting`).
template <std::size_t L>
struct parser {
    const char* p;
    std::size_t n;
    std::size_t i = 0;
    int depth = 0;
    ast<L> a{};

    constexpr parser(const char* pat, std::size_t len) noexcept : p(pat), n(len) {}

    constexpr int fail(errc e, std::size_t at) noexcept {
        if (a.err == errc::none) {
            a.err = e;
            a.err_pos = at;
        }
        return -1;
    }
    constexpr bool failed() const noexcept { return a.err != errc::none; }
    constexpr int add(node nd) noexcept {
        if (static_cast<std::size_t>(a.nnodes) >= a.node_cap) return fail(errc::pattern_too_large, i);
        a.nodes[static_cast<std::size_t>(a.nnodes)] = nd;
        return a.nnodes++;
    }
    constexpr int add_set(const byteset& s) noexcept {
        for (int k = 0; k < a.nsets; ++k)
            if (a.sets[static_cast<std::size_t>(k)] == s) return add(node{nk::set, 1, static_cast<std::uint16_t>(k)});
        if (static_cast<std::size_t>(a.nsets) >= a.set_cap) return fail(errc::pattern_too_large, i);
        a.sets[static_cast<std::size_t>(a.nsets)] = s;
        node nd{nk::set, 1, static_cast<std::uint16_t>(a.nsets++)};
        return add(nd);
    }
    constexpr int add_byte(unsigned char c) noexcept {
        return add(node{nk::byte, 1, static_cast<std::uint16_t>(c)});
    }
    constexpr node& at(int k) noexcept { return a.nodes[static_cast<std::size_t>(k)]; }

    constexpr void run() noexcept {
        a.root = parse_alt();
        if (failed()) return;
        if (i < n) fail(errc::unmatched_close_paren, i); // parse_alt stops only at ')' here
    }

    constexpr int parse_alt() noexcept {
        const int first = parse_concat();
        if (failed()) return -1;
        if (i >= n || p[i] != '|') return first;
        const int alt = add(node{nk::alt});
        if (failed()) return -1;
        at(alt).child = first;
        int last = first;
        while (i < n && p[i] == '|') {
            ++i;
            const int c = parse_concat();
            if (failed()) return -1;
            at(last).next = c;
            last = c;
        }
        return alt;
    }

    constexpr int parse_concat() noexcept {
        int first = -1, last = -1, count = 0;
        while (i < n && p[i] != '|' && p[i] != ')') {
            const int c = parse_repeat();
            if (failed()) return -1;
            if (first < 0) first = c;
            else at(last).next = c;
            last = c;
            ++count;
        }
        if (count == 0) return add(node{nk::empty});
        if (count == 1) return first;
        const int cat = add(node{nk::concat});
        if (failed()) return -1;
        at(cat).child = first;
        return cat;
    }

    // Reads {n}, {n,}, {n,m}, {,m} at i (p[i] == '{'). Returns false if it is not one.
    constexpr bool read_brace(std::size_t& pos, std::uint32_t& lo, std::uint32_t& hi, bool& big) const noexcept {
        std::size_t k = pos + 1;
        std::uint32_t a1 = 0, a2 = 0;
        bool has1 = false, has2 = false, comma = false;
        big = false;
        while (k < n && is_digit(p[k])) {
            a1 = a1 * 10 + static_cast<std::uint32_t>(p[k] - '0');
            if (a1 > 100000) big = true, a1 = 100000;
            has1 = true;
            ++k;
        }
        if (k < n && p[k] == ',') {
            comma = true;
            ++k;
            while (k < n && is_digit(p[k])) {
                a2 = a2 * 10 + static_cast<std::uint32_t>(p[k] - '0');
                if (a2 > 100000) big = true, a2 = 100000;
                has2 = true;
                ++k;
            }
        }
        if (k >= n || p[k] != '}') return false;
        if (!has1 && !has2) return false;
        lo = has1 ? a1 : 0;
        hi = comma ? (has2 ? a2 : rep_inf) : a1;
        pos = k + 1;
        return true;
    }

    constexpr bool at_quantifier() const noexcept {
        if (i >= n) return false;
        if (p[i] == '*' || p[i] == '+' || p[i] == '?') return true;
        if (p[i] == '{') {
            std::size_t k = i;
            std::uint32_t lo = 0, hi = 0;
            bool big = false;
            return read_brace(k, lo, hi, big);
        }
        return false;
    }

    constexpr int parse_repeat() noexcept {
        const std::size_t start = i;
        bool repeatable = true;
        int atom = parse_atom(repeatable);
        if (failed()) return -1;
        if (!at_quantifier()) {
            if (i < n && p[i] == '{') return fail(errc::bad_brace, i);
            return atom;
        }
        const std::size_t qpos = i;
        if (!repeatable) return fail(errc::nothing_to_repeat, qpos);
        std::uint32_t lo = 0, hi = rep_inf;
        if (p[i] == '*') lo = 0, hi = rep_inf, ++i;
        else if (p[i] == '+') lo = 1, hi = rep_inf, ++i;
        else if (p[i] == '?') lo = 0, hi = 1, ++i;
        else {
            bool big = false;
            read_brace(i, lo, hi, big);
            if (big || lo > max_repeat || (hi != rep_inf && hi > max_repeat))
                return fail(errc::repeat_too_large, qpos);
            if (hi != rep_inf && lo > hi) return fail(errc::bad_repeat_range, qpos);
        }
        std::uint8_t greedy = 1;
        if (i < n && p[i] == '?') greedy = 0, ++i;
        if (at_quantifier()) return fail(errc::multiple_repeat, i);
        if (i < n && p[i] == '{') return fail(errc::bad_brace, i);
        (void)start;
        const int r = add(node{nk::repeat, greedy, 0, static_cast<std::uint16_t>(lo), static_cast<std::uint16_t>(hi)});
        if (failed()) return -1;
        at(r).child = atom;
        return r;
    }

    // An escape outside or inside a class, at i (p[i] == '\\'). Sets `is_set` and `set`,
    // or `byte`, or `assertion` (outside classes only).
    constexpr bool parse_escape(bool in_class, bool& is_set, byteset& set, unsigned char& byte,
                                std::uint8_t& assertion) noexcept {
        const std::size_t at_pos = i;
        is_set = false;
        assertion = 0;
        if (i + 1 >= n) return fail(errc::trailing_backslash, at_pos), false;
        const char c = p[i + 1];
        i += 2;
        if (shorthand_set(c, set)) {
            is_set = true;
            return true;
        }
        switch (c) {
        case 't': byte = '\t'; return true;
        case 'n': byte = '\n'; return true;
        case 'r': byte = '\r'; return true;
        case 'f': byte = '\f'; return true;
        case 'v': byte = '\v'; return true;
        case 'a': byte = '\a'; return true;
        case 'x': {
            if (i + 1 >= n || hex_value(p[i]) < 0 || hex_value(p[i + 1]) < 0)
                return fail(errc::bad_hex_escape, at_pos), false;
            byte = static_cast<unsigned char>(hex_value(p[i]) * 16 + hex_value(p[i + 1]));
            i += 2;
            return true;
        }
        case 'b':
            if (in_class) {
                byte = '\b';
                return true;
            }
            assertion = a_wordb;
            return true;
        case 'B':
            if (in_class) break;
            assertion = a_nwordb;
            return true;
        case 'k': return fail(errc::backreference, at_pos), false;
        default: break;
        }
        if (c >= '1' && c <= '9') return fail(errc::backreference, at_pos), false;
        const auto uc = static_cast<unsigned char>(c);
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '0' || uc >= 0x80)
            return fail(errc::unknown_escape, at_pos), false;
        byte = uc; // escaped punctuation, space, control byte: itself
        return true;
    }

    constexpr int parse_class() noexcept {
        const std::size_t open = i;
        ++i; // '['
        bool negate = false;
        if (i < n && p[i] == '^') negate = true, ++i;
        byteset s;
        bool first = true;
        for (;;) {
            if (i >= n) return fail(errc::missing_close_bracket, open);
            if (p[i] == ']' && !first) {
                ++i;
                break;
            }
            first = false;
            const std::size_t item = i;
            unsigned char lo = 0;
            bool lo_set = false;
            if (p[i] == '\\') {
                bool is_set = false;
                byteset es;
                std::uint8_t as = 0;
                if (!parse_escape(true, is_set, es, lo, as)) return -1;
                if (is_set) {
                    s.merge(es);
                    lo_set = true;
                }
            } else {
                lo = static_cast<unsigned char>(p[i]);
                ++i;
            }
            // a range?
            if (i + 1 < n && p[i] == '-' && p[i + 1] != ']') {
                if (lo_set) return fail(errc::shorthand_in_range, item);
                ++i;
                unsigned char hi = 0;
                if (p[i] == '\\') {
                    bool is_set = false;
                    byteset es;
                    std::uint8_t as = 0;
                    const std::size_t hpos = i;
                    if (!parse_escape(true, is_set, es, hi, as)) return -1;
                    if (is_set) return fail(errc::shorthand_in_range, hpos);
                } else {
                    hi = static_cast<unsigned char>(p[i]);
                    ++i;
                }
                if (hi < lo) return fail(errc::bad_class_range, item);
                s.set_range(lo, hi);
            } else if (!lo_set) {
                s.set(lo);
            }
        }
        if (negate) s.invert();
        return add_set(s);
    }

    constexpr bool name_char(char c, bool first_char) const noexcept {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
               (!first_char && is_digit(c));
    }

    constexpr int parse_group() noexcept {
        const std::size_t open = i;
        ++i; // '('
        int index = -1;
        if (i < n && p[i] == '?') {
            if (i + 1 >= n) return fail(errc::bad_group_syntax, open);
            const char c = p[i + 1];
            if (c == ':') {
                i += 2;
            } else if (c == '=' || c == '!') {
                return fail(errc::lookaround, open);
            } else if (c == '<' && i + 2 < n && (p[i + 2] == '=' || p[i + 2] == '!')) {
                return fail(errc::lookaround, open);
            } else if (c == 'P' && i + 2 < n && p[i + 2] == '=') {
                return fail(errc::backreference, open);
            } else if (c == '<' || (c == 'P' && i + 2 < n && p[i + 2] == '<')) {
                i += (c == '<') ? 2 : 3;
                const std::size_t name_start = i;
                while (i < n && p[i] != '>') {
                    if (!name_char(p[i], i == name_start)) return fail(errc::bad_group_name, name_start);
                    ++i;
                }
                if (i >= n || i == name_start) return fail(errc::bad_group_name, name_start);
                const std::size_t len = i - name_start;
                ++i; // '>'
                for (int g = 1; g < a.ngroups; ++g) {
                    const auto gi = static_cast<std::size_t>(g);
                    if (a.name_len[gi] != len) continue;
                    bool same = true;
                    for (std::size_t k = 0; k < len; ++k)
                        if (p[a.name_pos[gi] + k] != p[name_start + k]) same = false;
                    if (same) return fail(errc::duplicate_group_name, name_start);
                }
                index = a.ngroups++;
                a.name_pos[static_cast<std::size_t>(index)] = static_cast<std::uint32_t>(name_start);
                a.name_len[static_cast<std::size_t>(index)] = static_cast<std::uint32_t>(len);
            } else {
                return fail(errc::bad_group_syntax, open);
            }
        } else {
            index = a.ngroups++;
        }
        if (++depth > max_nesting) return fail(errc::too_deeply_nested, open);
        const int inner = parse_alt();
        if (failed()) return -1;
        --depth;
        if (i >= n || p[i] != ')') return fail(errc::missing_close_paren, open);
        ++i;
        if (index < 0) return inner;
        const int g = add(node{nk::group, 1, static_cast<std::uint16_t>(index)});
        if (failed()) return -1;
        at(g).child = inner;
        return g;
    }

    constexpr int parse_atom(bool& repeatable) noexcept {
        repeatable = true;
        const char c = p[i];
        switch (c) {
        case '(': return parse_group();
        case '[': return parse_class();
        case '.': {
            ++i;
            byteset s;
            s.set('\n');
            s.invert();
            return add_set(s);
        }
        case '^':
            ++i;
            repeatable = false;
            return add(node{nk::assertion, 1, a_bol});
        case '$':
            ++i;
            repeatable = false;
            return add(node{nk::assertion, 1, a_eol});
        case '*':
        case '+':
        case '?': return fail(errc::nothing_to_repeat, i);
        case '{':
            if (at_quantifier()) return fail(errc::nothing_to_repeat, i);
            return fail(errc::bad_brace, i);
        case '\\': {
            bool is_set = false;
            byteset s;
            unsigned char b = 0;
            std::uint8_t as = 0;
            if (!parse_escape(false, is_set, s, b, as)) return -1;
            if (is_set) return add_set(s);
            if (as != 0) {
                repeatable = false;
                return add(node{nk::assertion, 1, as});
            }
            return add_byte(b);
        }
        default: ++i; return add_byte(static_cast<unsigned char>(c));
        }
    }
};

/// True when the subtree can match the empty string.
template <std::size_t L>
constexpr bool nullable(const ast<L>& a, int k) noexcept {
    const node& nd = a.nodes[static_cast<std::size_t>(k)];
    switch (nd.kind) {
    case nk::empty:
    case nk::assertion: return true;
    case nk::byte:
    case nk::set: return false;
    case nk::group: return nullable(a, nd.child);
    case nk::repeat: return nd.min == 0 || nullable(a, nd.child);
    case nk::concat:
        for (int c = nd.child; c >= 0; c = a.nodes[static_cast<std::size_t>(c)].next)
            if (!nullable(a, c)) return false;
        return true;
    case nk::alt:
        for (int c = nd.child; c >= 0; c = a.nodes[static_cast<std::size_t>(c)].next)
            if (nullable(a, c)) return true;
        return false;
    }
    return false;
}

/// Deepest nesting of repetitions that have a progress register.
template <std::size_t L>
constexpr int reg_loop_depth(const ast<L>& a, int k) noexcept {
    const node& nd = a.nodes[static_cast<std::size_t>(k)];
    int d = 0;
    for (int c = nd.child; c >= 0; c = a.nodes[static_cast<std::size_t>(c)].next) {
        const int dc = reg_loop_depth(a, c);
        d = dc > d ? dc : d;
        if (nd.kind == nk::group || nd.kind == nk::repeat) break; // single child
    }
    return d + (nd.kind == nk::repeat && nd.reg >= 0 ? 1 : 0);
}

/// Parses `pattern` (length L) into a syntax tree; assigns progress registers to
/// repetitions whose body can match empty.
template <std::size_t L>
constexpr ast<L> parse(const char* pattern) noexcept {
    parser<L> ps(pattern, L);
    ps.run();
    if (ps.a.err == errc::none) {
        for (int k = 0; k < ps.a.nnodes; ++k) {
            node& nd = ps.a.nodes[static_cast<std::size_t>(k)];
            if (nd.kind == nk::repeat && nullable(ps.a, nd.child) &&
                (nd.max == rep_inf || nd.max - nd.min >= 2))
                nd.reg = ps.a.nregs++;
        }
        if (reg_loop_depth(ps.a, ps.a.root) > 6) ps.fail(errc::nested_empty_loops, 0);
    }
    return ps.a;
}

} // namespace regex_internal
} // namespace logscan

#endif // LOGSCAN_REGEX_PARSE_HPP_INCLUDED
