// SPDX-License-Identifier: MIT
/// \file regex/exec.hpp
/// Internal: the matchers of logscan's regular expressions.
///
/// - `onepass_run`: for patterns where each byte decides the path (most log-line patterns),
///   a table-driven matcher with memchr shortcuts for self-loops such as `.*` or `[^:]*`
///   (a plain DFA walk when only group 0 is captured);
/// - `may_match`: a bit-parallel position automaton that tells, at a few ns a byte, when
///   an input cannot match, so the Pike VM does not run on it;
/// - `backtrack_run`: a bounded backtracker for the other patterns on log-line-sized inputs
///   (depth-first in priority order, a visited bit per instruction and position, loops over
///   one byte class taken as runs); time O(input x pattern), fixed storage;
/// - `pike_run`: a Pike VM (threads in priority order, capture registers copied per
///   thread) for every pattern; time O(input x pattern), fixed storage;
/// - `find_literal`: literal prefilter (SSE2, and AVX2 when the CPU has it);
/// - `search_from`: leftmost-first search, one-pass attempts at candidate starts found by a
///   literal or first-byte prefilter, under a step budget linear in the input; when the
///   budget runs out the Pike VM takes over, so every search is linear.
///
/// Positions are absolute offsets into the text; `npos` marks an unset capture slot.
/// Not part of the public API.
///
/// \code
/// using C = logscan::regex_internal::compiled<"a+">;
/// std::size_t caps[C::nslots];
/// bool found = logscan::regex_internal::search_from<C>("xaay", 4, 0, false, caps, nullptr);
/// \endcode
#ifndef LOGSCAN_REGEX_EXEC_HPP_INCLUDED
#define LOGSCAN_REGEX_EXEC_HPP_INCLUDED

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__) && !defined(LOGSCAN_NO_AVX2)
#include <immintrin.h>
#define LOGSCAN_REGEX_AVX2 1
#endif

#include "program.hpp"

namespace logscan::regex_internal {

#if defined(LOGSCAN_REGEX_AVX2)
/// AVX2 part of find_literal (used when the CPU has AVX2, whatever the build flags): the
/// first s' >= s, in steps of 64, whose 64 candidates [s', s' + 64) include one with
/// t[k + i1] == c1 and t[k + i2] == c2; stops before s' + 63 > last. Needs i1, i2 < the
/// literal's length and last = n - that length, so every load stays inside the text.
__attribute__((target("avx2"))) inline std::size_t pair_scan_avx2(const char* t, std::size_t s, std::size_t last,
                                                                 char c1, char c2, std::size_t i1,
                                                                 std::size_t i2) noexcept {
    const __m256i v1 = _mm256_set1_epi8(c1);
    const __m256i v2 = _mm256_set1_epi8(c2);
    while (s + 63 <= last) {
        const __m256i a0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(t + s + i1));
        const __m256i b0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(t + s + i2));
        const __m256i a1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(t + s + 32 + i1));
        const __m256i b1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(t + s + 32 + i2));
        const __m256i h0 = _mm256_and_si256(_mm256_cmpeq_epi8(a0, v1), _mm256_cmpeq_epi8(b0, v2));
        const __m256i h1 = _mm256_and_si256(_mm256_cmpeq_epi8(a1, v1), _mm256_cmpeq_epi8(b1, v2));
        if (_mm256_movemask_epi8(_mm256_or_si256(h0, h1)) != 0) break;
        s += 64;
    }
    return s;
}
#endif

inline constexpr std::size_t npos = ~std::size_t{0}; ///< unset capture slot

/// True when the assertion bits hold at `pos` of text[0, n).
constexpr bool check_asserts(std::uint8_t bits, const char* t, std::size_t n, std::size_t pos) noexcept {
    if ((bits & a_bol) && pos != 0) return false;
    if ((bits & a_eol) && !(pos == n || (pos + 1 == n && t[pos] == '\n'))) return false;
    if (bits & (a_wordb | a_nwordb)) {
        const bool before = pos > 0 && is_word_byte(static_cast<unsigned char>(t[pos - 1]));
        const bool after = pos < n && is_word_byte(static_cast<unsigned char>(t[pos]));
        const bool at_boundary = before != after;
        if ((bits & a_wordb) && !at_boundary) return false;
        if ((bits & a_nwordb) && at_boundary) return false;
    }
    return true;
}

/// First position >= from of byte c in t[from, to), or `to`.
constexpr std::size_t find_byte(const char* t, std::size_t from, std::size_t to, char c) noexcept {
    if (from >= to) return to;
    if (std::is_constant_evaluated()) { // (g++'s -fsanitize=null makes `r != nullptr` below non-constant)
        while (from < to && t[from] != c) ++from;
        return from;
    }
    const char* r = std::char_traits<char>::find(t + from, to - from, c);
    return r ? static_cast<std::size_t>(r - t) : to;
}

/// Guessed commonness of a byte in logs and text (higher: more common), to pick the rarest
/// bytes of a literal as the ones to look for first.
constexpr int byte_rank(unsigned char c) noexcept {
    if (c == ' ') return 255;
    constexpr std::string_view common = "etaoinsrhldcumfpgwybv";
    for (std::size_t k = 0; k < common.size(); ++k)
        if (c == static_cast<unsigned char>(common[k])) return 240 - static_cast<int>(k) * 3;
    if (c >= 'a' && c <= 'z') return 150;
    if (c >= '0' && c <= '9') return 170;
    if (c == '.' || c == ',' || c == '_' || c == ':' || c == '/' || c == '=' || c == '-' || c == '\n') return 160;
    if (c >= 'A' && c <= 'Z') return 110;
    if (c == '(' || c == ')' || c == '[' || c == ']' || c == '"' || c == '\'' || c == '@') return 120;
    if (c < 0x80) return 60;
    return 30;
}

/// A literal known at compile time, with the two rarest positions to look for first.
template <std::size_t Cap>
struct literal_plan {
    std::size_t len = 0;
    std::size_t i1 = 0, i2 = 0; // positions of the rarest and second-rarest bytes
};
template <std::size_t Cap>
constexpr literal_plan<Cap> plan_literal(const carray<char, Cap>& lit, std::size_t len) noexcept {
    literal_plan<Cap> p;
    p.len = len;
    if (len < 2) return p;
    auto rank = [&](std::size_t k) { return byte_rank(static_cast<unsigned char>(lit[k])); };
    for (std::size_t k = 1; k < len; ++k)
        if (rank(k) < rank(p.i1)) p.i1 = k;
    p.i2 = p.i1 == 0 ? 1 : 0;
    for (std::size_t k = 0; k < len; ++k)
        if (k != p.i1 && (rank(k) < rank(p.i2) || (lit[p.i2] == lit[p.i1] && lit[k] != lit[p.i1]))) p.i2 = k;
    return p;
}

/// First position >= from of the literal lit[0, len) in t[from, n), or npos. i1 and i2 are
/// two positions of the literal to filter with (SSE2: 16 candidates at a time).
constexpr std::size_t find_literal(const char* t, std::size_t n, std::size_t from, const char* lit,
                                   std::size_t len, std::size_t i1 = 0, std::size_t i2 = 1) noexcept {
    if (from > n || len > n - from) return npos;
    if (len == 1) {
        const std::size_t r = find_byte(t, from, n, lit[0]);
        return r == n ? npos : r;
    }
    std::size_t s = from;
    const std::size_t last = n - len; // last possible start
#if defined(__SSE2__)
    if (!std::is_constant_evaluated()) {
        const __m128i v1 = _mm_set1_epi8(lit[i1]);
        const __m128i v2 = _mm_set1_epi8(lit[i2]);
#if defined(LOGSCAN_REGEX_AVX2)
        const bool avx2 = __builtin_cpu_supports("avx2");
#endif
        for (;;) {
#if defined(LOGSCAN_REGEX_AVX2)
            if (avx2) s = pair_scan_avx2(t, s, last, lit[i1], lit[i2], i1, i2);
#endif
            while (s <= last && last - s >= 31) { // 32 candidates per round while nothing is found
                const __m128i a0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(t + s + i1));
                const __m128i b0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(t + s + i2));
                const __m128i a1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(t + s + 16 + i1));
                const __m128i b1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(t + s + 16 + i2));
                const __m128i h0 = _mm_and_si128(_mm_cmpeq_epi8(a0, v1), _mm_cmpeq_epi8(b0, v2));
                const __m128i h1 = _mm_and_si128(_mm_cmpeq_epi8(a1, v1), _mm_cmpeq_epi8(b1, v2));
                if (_mm_movemask_epi8(_mm_or_si128(h0, h1)) != 0) break;
                s += 32;
            }
            if (s > last || last - s < 15) break;
            const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(t + s + i1));
            const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(t + s + i2));
            auto m = static_cast<unsigned>(_mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(a, v1), _mm_cmpeq_epi8(b, v2))));
            while (m != 0) {
                const std::size_t k = s + static_cast<std::size_t>(__builtin_ctz(m));
                if (std::memcmp(t + k, lit, len) == 0) return k;
                m &= m - 1;
            }
            s += 16;
        }
    }
#endif
    for (; s <= last; ++s) {
        if (t[s + i1] != lit[i1] || t[s + i2] != lit[i2]) continue;
        std::size_t k = 0;
        while (k < len && t[s + k] == lit[k]) ++k;
        if (k == len) return s;
    }
    return npos;
}

/// Analyses needed at run time, computed once per pattern.
template <class C>
struct info {
    static constexpr start_info start = make_start_info<C>();
    static constexpr inner_literal inner = make_inner_literal<C>();
    static constexpr bool use_inner = start.prefix_len == 0 && inner.len >= 2;
    static constexpr byte_classes bc = onepass_builder<C>::bc;
    static constexpr carray<std::uint8_t, 256> make_first_table() noexcept {
        carray<std::uint8_t, 256> tab{};
        for (unsigned c = 0; c < 256; ++c) tab[c] = ((start.first.w[c >> 6] >> (c & 63u)) & 1u) != 0 ? 1 : 0; // (no call: see onepass::build)
        return tab;
    }
    static constexpr carray<std::uint8_t, 256> first_table = make_first_table();
    // the first bytes as one range [first_lo, first_hi], when they are one (\d, [a-z], ...)
    static constexpr int range_end(bool hi) noexcept {
        int lo = -1, h = -1;
        for (unsigned c = 0; c < 256; ++c) {
            if (((start.first.w[c >> 6] >> (c & 63u)) & 1u) == 0) continue;
            if (lo < 0) lo = static_cast<int>(c);
            else if (h != static_cast<int>(c) - 1) return -1;
            h = static_cast<int>(c);
        }
        return hi ? h : lo;
    }
    static constexpr int first_lo = range_end(false);
    static constexpr int first_hi = range_end(true);
    static constexpr bool first_is_range = start.has_first && first_lo >= 0 && first_hi >= 0 && range_end(false) >= 0;
    static constexpr auto prefix_plan = plan_literal(start.prefix, start.prefix_len);
    static constexpr auto inner_plan = plan_literal(inner.text, inner.len);
};

/// First position in [p, to) whose byte has a non-zero entry in `tab`, or `to`.
constexpr std::size_t scan_table(const char* t, std::size_t p, std::size_t to,
                                 const carray<std::uint8_t, 256>& tab) noexcept {
    while (p + 4 <= to) {
        if (tab[static_cast<unsigned char>(t[p])]) return p;
        if (tab[static_cast<unsigned char>(t[p + 1])]) return p + 1;
        if (tab[static_cast<unsigned char>(t[p + 2])]) return p + 2;
        if (tab[static_cast<unsigned char>(t[p + 3])]) return p + 3;
        p += 4;
    }
    while (p < to && !tab[static_cast<unsigned char>(t[p])]) ++p;
    return p;
}

/// First position in [p, to) whose byte is in [lo, hi], or `to` (SSE2: 16 bytes at a time).
constexpr std::size_t scan_range(const char* t, std::size_t p, std::size_t to, unsigned char lo,
                                 unsigned char hi) noexcept {
#if defined(__SSE2__)
    if (!std::is_constant_evaluated()) {
        const __m128i vlo = _mm_set1_epi8(static_cast<char>(lo));
        const __m128i vspan = _mm_set1_epi8(static_cast<char>(hi - lo));
        while (p + 16 <= to) {
            const __m128i x = _mm_sub_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(t + p)), vlo);
            const auto m = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(x, vspan), vspan)));
            if (m != 0) return p + static_cast<std::size_t>(__builtin_ctz(m));
            p += 16;
        }
    }
#endif
    while (p < to && static_cast<unsigned char>(static_cast<unsigned char>(t[p]) - lo) > static_cast<unsigned char>(hi - lo)) ++p;
    return p;
}

/// Outcome of a bounded matcher run.
enum class run_status : std::uint8_t { match, no_match, gave_up };

/// The pattern-independent view of a one-pass program's tables: one copy of each one-pass
/// executor serves every pattern (which keeps compile time and code size per pattern small).
struct onepass_view {
    const op_entry* trans;                     ///< per (state, class)
    const std::uint32_t* fast;                 ///< per (state, class), see onepass::with_stops
    const op_rt_state* states;                 ///< per state
    const carray<std::uint8_t, 256>* stops;    ///< self-loop stop tables
    const std::uint8_t* cls;                   ///< byte class of each byte
    std::size_t ncls;                          ///< number of byte classes
    std::size_t ns;                            ///< slots
    bool asserts;                              ///< any assertion anywhere
};

/// Whether the literal run of state `st` (op_rt_state::lit) is at t[pos...]: its bytes
/// compared at once when 16 are readable there, else one by one (the budget must outlast the
/// run).
LOGSCAN_FORCE_INLINE constexpr bool literal_at(const op_rt_state& st, const char* t, std::size_t n, std::size_t pos,
                                               std::size_t budget) noexcept {
    if (n - pos < st.lit_len || budget <= st.lit_len) return false;
#if defined(__SSE2__)
    if (!std::is_constant_evaluated() && n - pos >= 16) {
        const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(t + pos));
        const __m128i l = _mm_loadu_si128(reinterpret_cast<const __m128i*>(st.lit));
        const auto eq = static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(x, l)));
        const std::uint32_t want = (std::uint32_t{1} << st.lit_len) - 1u;
        return (eq & want) == want;
    }
#endif
    for (std::size_t i = 0; i < st.lit_len; ++i)
        if (static_cast<unsigned char>(t[pos + i]) != st.lit[i]) return false;
    return true;
}

/// Takes the literal run of state `s` when it is at t[pos...] (see literal_at): `pos` past
/// it, the budget charged, the run's last state returned; `s` otherwise.
LOGSCAN_FORCE_INLINE constexpr std::size_t take_literal(const onepass_view& w, std::size_t s, const char* t,
                                                        std::size_t n, std::size_t& pos, std::size_t& budget) noexcept {
    const op_rt_state& ls = w.states[s];
    if (ls.lit_len == 0 || !literal_at(ls, t, n, pos, budget)) return s;
    pos += ls.lit_len;
    budget -= ls.lit_len;
    return ls.lit_next;
}

/// onepass_exec for group-0-only patterns (onepass<C>::simple): a plain DFA walk that
/// remembers the last accepting position.
constexpr run_status onepass_simple_exec(const onepass_view& w, bool full, const char* t, std::size_t n,
                                         std::size_t start, bool must_advance, std::size_t* caps,
                                         std::size_t& budget) noexcept {
    const std::size_t ncls = w.ncls;
    const std::uint8_t* cls = w.cls;
    std::size_t last = (w.states[0].has_match && !must_advance) ? start : npos;
    std::size_t row = 0; // state * ncls
    std::size_t pos = start;
    std::uint32_t e = (w.states[0].loop != 0 ? simple_loop : 0u) | (w.states[0].lit_len != 0 ? simple_literal : 0u);
    for (;;) {
        if ((e & simple_literal) != 0) { // (a literal run: no loop here)
            const op_rt_state& st = w.states[row / ncls];
            if (literal_at(st, t, n, pos, budget)) {
                pos += st.lit_len;
                budget -= st.lit_len;
                e = st.lit_fast;
                row = e & simple_row;
                if (e & simple_accept) last = pos;
                continue;
            }
        }
        if ((e & simple_loop) != 0 && pos < n) {
            const auto& st = w.states[row / ncls];
            const std::size_t lim = (n - pos > budget) ? pos + budget : n;
            const std::size_t q = st.loop == 1 ? find_byte(t, pos, lim, static_cast<char>(st.loop_byte))
                                               : scan_table(t, pos, lim, w.stops[st.loop_table]);
            budget -= q - pos;
            if (st.has_match && q != pos) last = q;
            pos = q;
            if (budget == 0) return run_status::gave_up;
        }
        // simple_dead has the simple_loop bit too: one test leaves for both
        const std::size_t lim = (n - pos > budget) ? pos + budget : n;
        const std::size_t from = pos;
        while (pos < lim) {
            e = w.fast[row + cls[static_cast<unsigned char>(t[pos])]];
            if (e & (simple_loop | simple_literal)) break;
            row = e & simple_row;
            ++pos;
            last = (e & simple_accept) ? pos : last;
        }
        if (pos < lim && e != simple_dead) { // a step into a self-loop state or a literal run
            row = e & simple_row;
            ++pos;
            if (e & simple_accept) last = pos;
        }
        budget -= pos - from;
        if (budget == 0) return run_status::gave_up;
        if (pos >= n || e == simple_dead) break;
    }
    if (full) {
        if (pos != n || !w.states[row / ncls].has_match) return run_status::no_match;
        last = n;
    }
    if (last == npos) return run_status::no_match;
    caps[0] = start;
    caps[1] = last;
    return run_status::match;
}

/// One-pass matcher anchored at `start`. `Full`: the match must end at n. `must_advance`:
/// an empty match at `start` is not allowed. Consumes at most `budget` steps (then gave_up).
///
/// Steps that need nothing but a state change (the lean table) run in a tight inner loop;
/// a remembered fallback match (a greedy loop passing accepting states) costs a position
/// store: the slots are copied only when a later step would overwrite them.
constexpr run_status onepass_exec(const onepass_view& w, bool full, const char* t, std::size_t n,
                                  std::size_t start, bool must_advance, std::size_t* caps,
                                  std::size_t& budget) noexcept {
    const std::size_t ns = w.ns;
    const std::size_t ncls = w.ncls;
    const bool asserts = w.asserts;
    const std::uint8_t* cls = w.cls;
    std::size_t fb[64]; // ns <= 64 (onepass_builder::candidate); read only once written (fb_saved)
    bool has_fb = false;
    bool fb_saved = false;     // fb holds the slots; otherwise caps still do
    std::size_t fb_pos = 0;    // where the fallback match ends
    std::uint64_t fb_mask = 0; // slots its match sets
    for (std::size_t k = 0; k < ns; ++k) caps[k] = npos;
    auto take_fallback = [&]() noexcept {
        if (fb_saved)
            for (std::size_t k = 0; k < ns; ++k) caps[k] = fb[k];
        for (std::uint64_t m = fb_mask; m != 0; m &= m - 1) caps[__builtin_ctzll(m)] = fb_pos;
    };
    std::size_t s = 0;
    std::size_t pos = start;
    for (;;) {
        const auto& st = w.states[s];
        if (st.loop != 0 && pos < n) {
            const std::size_t lim = (n - pos > budget) ? pos + budget : n;
            const std::size_t q = st.loop == 1 ? find_byte(t, pos, lim, static_cast<char>(st.loop_byte))
                                               : scan_table(t, pos, lim, w.stops[st.loop_table]);
            budget -= q - pos;
            pos = q;
            if (budget == 0) return run_status::gave_up;
        }
        // `step`: whether a transition is taken at pos (a flag, not a null `e`: g++'s
        // -fsanitize=null makes a pointer into a static table compared with null non-constant).
        const op_entry* e = &w.trans[0];
        bool step = false;
        if (pos < n) {
            e = &w.trans[s * ncls + cls[static_cast<unsigned char>(t[pos])]];
            step = !(e->next == 0xFFFF || (asserts && e->asserts != 0 && !check_asserts(e->asserts, t, n, pos)));
        }
        if (full) {
            if (!step) {
                if (pos != n || !st.has_match) return run_status::no_match;
                if (asserts && st.match_asserts != 0 && !check_asserts(st.match_asserts, t, n, pos))
                    return run_status::no_match;
                for (std::uint64_t m = st.match_mask; m != 0; m &= m - 1) caps[__builtin_ctzll(m)] = pos;
                return run_status::match;
            }
        } else if (st.has_match || !step) {
            const bool m_ok = st.has_match && !(must_advance && pos == start) &&
                              (!asserts || st.match_asserts == 0 || check_asserts(st.match_asserts, t, n, pos));
            if (m_ok && (!step || e->match_first)) {
                for (std::uint64_t m = st.match_mask; m != 0; m &= m - 1) caps[__builtin_ctzll(m)] = pos;
                return run_status::match;
            }
            if (!step) {
                if (!has_fb) return run_status::no_match;
                take_fallback();
                return run_status::match;
            }
            if (m_ok) {
                has_fb = true;
                fb_saved = false;
                fb_pos = pos;
                fb_mask = st.match_mask;
            }
        }
        if (e->mask != 0) {
            if (!full && has_fb && !fb_saved) {
                for (std::size_t k = 0; k < ns; ++k) fb[k] = caps[k];
                fb_saved = true;
            }
            for (std::uint64_t m = e->mask; m != 0; m &= m - 1) caps[__builtin_ctzll(m)] = pos;
        }
        s = e->next;
        ++pos;
        if (--budget == 0) return run_status::gave_up;
        s = take_literal(w, s, t, n, pos, budget); // (a run after a step with slots: `(\d+) passes, total`)
        // lean steps: nothing to do but change state (and maybe note a fallback match)
        while (pos < n) {
            const std::uint32_t le = w.fast[s * ncls + cls[static_cast<unsigned char>(t[pos])]];
            const std::uint32_t kind = le >> 16;
            if (kind != lean_plain) {
                if (kind == lean_fallback) {
                    if (!full) { // pos > start here: must_advance cannot forbid this match
                        has_fb = true;
                        fb_saved = false;
                        fb_pos = pos;
                        fb_mask = w.states[s].match_mask;
                    }
                } else if (kind == lean_literal) { // the step, then the run at once when it is there
                    s = le & 0xFFFFu;
                    ++pos;
                    if (--budget == 0) return run_status::gave_up;
                    s = take_literal(w, s, t, n, pos, budget);
                    continue;
                } else {
                    break;
                }
            }
            s = le & 0xFFFFu;
            ++pos;
            if (--budget == 0) return run_status::gave_up;
        }
    }
}

/// One-pass run of pattern C (see onepass_exec).
template <class C, bool Full>
constexpr run_status onepass_run(const char* t, std::size_t n, std::size_t start, bool must_advance,
                                 std::size_t* caps, std::size_t& budget) noexcept {
    using O = onepass<C>;
    static_assert(C::nslots <= 64, "onepass_exec keeps fallback slots in a 64-entry array");
    const onepass_view w{O::table.trans.data(), O::loops.fast.data(), O::loops.states.data(), O::loops.stops.data(),
                         info<C>::bc.map.data(), static_cast<std::size_t>(O::ncls),
                         static_cast<std::size_t>(C::nslots), O::loops.any_asserts};
    if constexpr (O::simple)
        return onepass_simple_exec(w, Full, t, n, start, must_advance, caps, budget);
    else
        return onepass_exec(w, Full, t, n, start, must_advance, caps, budget);
}

/// Index of each consuming or match instruction in a thread list (-1 for the others).
template <class C>
struct thread_slots {
    carray<std::int32_t, C::size> index{};
    std::size_t count = 0;
};
template <class C>
constexpr thread_slots<C> make_thread_slots() noexcept {
    thread_slots<C> t;
    for (std::size_t pc = 0; pc < C::size; ++pc) {
        const op o = C::code[pc].o;
        t.index[pc] = (o == op::byte || o == op::set || o == op::match) ? static_cast<std::int32_t>(t.count++) : -1;
    }
    return t;
}

/// A work item of the Pike VM's closure: explore pc, or (pc == -1) restore a slot.
struct pike_job {
    std::int32_t pc;   ///< instruction to explore, or -1: restore
    std::int32_t slot; ///< slot to restore
    std::size_t val;   ///< value to restore
};

/// Storage of the Pike VM: two thread lists, the visit marks and the closure stack. Its size
/// is fixed by the pattern; it lives on the stack of the matching call.
template <class C>
struct pike_mem {
    static constexpr std::size_t n = C::size;
    static constexpr std::size_t nt = make_thread_slots<C>().count; // threads per list at most
    static constexpr std::size_t ns = static_cast<std::size_t>(C::nslots);
    static constexpr int depth = C::loop_depth > 6 ? 6 : C::loop_depth;
    std::int32_t pc[2][nt];
    std::size_t caps[2][nt * ns];
    std::uint32_t mark[n << depth];
    pike_job stack[2 * n + 4];
    std::size_t work[ns];
};

/// The pattern-independent view of a program the Pike VM runs (one Pike VM is compiled for
/// all patterns, which keeps the cost of each pattern in compile time and code size small).
struct prog_view {
    const inst* code;                            ///< instructions
    const byteset* sets;                         ///< byte sets
    std::size_t size;                            ///< instruction count
    std::size_t ns;                              ///< capture and progress slots
    std::size_t depth;                           ///< empty-loop nesting depth used in keys
    const std::uint8_t* nest_depth;              ///< per pc: enclosing empty-loop count
    const carray<std::uint16_t, 8>* nest_regs; ///< per pc: their progress slots
};

/// Where the Pike VM works: pointers into a pike_mem.
struct pike_space {
    std::int32_t* pc[2];  ///< thread pcs of the two lists
    std::size_t* caps[2]; ///< thread slots of the two lists (ns per thread)
    std::uint32_t* mark;  ///< visit marks
    pike_job* stack;      ///< closure work stack
    std::size_t* work;    ///< slots of a new thread (ns)
};

/// Run-time form of the candidate scanner for the Pike VM (see `candidates`).
struct cand_rt {
    const char* t;
    std::size_t n;
    const char* prefix;
    std::size_t prefix_len, p1, p2;
    const char* inner;
    std::size_t inner_len, i1, i2, pre_min, pre_max;
    bool use_inner;
    const carray<std::uint8_t, 256>* first; // null: no first-byte filter
    std::size_t win_lo = 0, win_hi = 0;
    bool dead = false;

    constexpr std::size_t first_byte_from(std::size_t p, std::size_t to) const noexcept {
        return first ? scan_table(t, p, to, *first) : p;
    }
    constexpr std::size_t next(std::size_t from) noexcept {
        if (dead || from > n) return npos;
        if (prefix_len > 0) {
            const std::size_t r = find_literal(t, n, from, prefix, prefix_len, p1, p2);
            if (r == npos) dead = true;
            return r;
        }
        if (use_inner && pre_max < wide_inf) {
            for (;;) {
                if (from < win_lo) from = win_lo;
                if (from < win_hi) {
                    const std::size_t p = first_byte_from(from, win_hi);
                    if (p < win_hi) return p;
                    from = win_hi;
                }
                const std::size_t q = find_literal(t, n, from + pre_min, inner, inner_len, i1, i2);
                if (q == npos) {
                    dead = true;
                    return npos;
                }
                win_lo = q >= pre_max ? q - pre_max : 0;
                if (win_lo < from) win_lo = from;
                win_hi = q - pre_min + 1;
            }
        }
        if (use_inner && find_literal(t, n, from + pre_min, inner, inner_len, i1, i2) == npos) {
            dead = true;
            return npos;
        }
        if (first) {
            const std::size_t p = first_byte_from(from, n);
            return p < n ? p : npos;
        }
        return from;
    }
};

/// Largest matcher state accepted on the stack (a bigger pattern is a compile error).
inline constexpr std::size_t max_matcher_state = std::size_t{256} << 10;

/// Candidate-start scanner shared by the matchers: next position >= from where a match may
/// start, or npos. Uses the literal prefix, a required literal or the first-byte set.
template <class C>
struct candidates {
    using I = info<C>;
    const char* t;
    std::size_t n;
    std::size_t win_lo = 0, win_hi = 0; // pending window of starts (required literal)
    bool dead = false;

    constexpr std::size_t first_byte_from(std::size_t p, std::size_t to) const noexcept {
        if constexpr (I::first_is_range)
            return scan_range(t, p, to, static_cast<unsigned char>(I::first_lo), static_cast<unsigned char>(I::first_hi));
        else if constexpr (I::start.has_first)
            return scan_table(t, p, to, I::first_table);
        return p;
    }

    constexpr std::size_t next(std::size_t from) noexcept {
        if (dead || from > n) return npos;
        if constexpr (I::start.prefix_len > 0) {
            const std::size_t r = find_literal(t, n, from, I::start.prefix.data(), I::start.prefix_len, I::prefix_plan.i1, I::prefix_plan.i2);
            if (r == npos) dead = true;
            return r;
        } else if constexpr (I::use_inner && I::inner.pre_max < wide_inf) {
            for (;;) {
                if (from < win_lo) from = win_lo;
                if (from < win_hi) {
                    const std::size_t p = first_byte_from(from, win_hi);
                    if (p < win_hi) return p;
                    from = win_hi;
                }
                const std::size_t q = find_literal(t, n, from + I::inner.pre_min, I::inner.text.data(), I::inner.len, I::inner_plan.i1, I::inner_plan.i2);
                if (q == npos) {
                    dead = true;
                    return npos;
                }
                win_lo = q >= I::inner.pre_max ? q - I::inner.pre_max : 0;
                if (win_lo < from) win_lo = from;
                win_hi = q - I::inner.pre_min + 1;
            }
        } else {
            if constexpr (I::use_inner) {
                if (find_literal(t, n, from + I::inner.pre_min, I::inner.text.data(), I::inner.len, I::inner_plan.i1, I::inner_plan.i2) == npos) {
                    dead = true;
                    return npos;
                }
            }
            if constexpr (I::start.has_first) {
                const std::size_t p = first_byte_from(from, n);
                return p < n ? p : npos;
            } else {
                return from;
            }
        }
    }
};

/// Pike VM. Anchored (only start) or unanchored (leftmost-first from start), `full`
/// (match must end at n), `must_advance` (no empty match at start). Writes the slots of the
/// match into out. `steps` (optional) accumulates the work done.
constexpr bool pike_core(const prog_view& P, cand_rt& cand, pike_space& m, const char* t, std::size_t n,
                         std::size_t start, bool anchored, bool full, bool must_advance, std::size_t* out,
                         std::size_t* steps) noexcept {
    const std::size_t ns = P.ns;
    const std::size_t depth = P.depth;
    for (std::size_t k = 0; k < (P.size << depth); ++k) m.mark[k] = 0;
    std::uint32_t gen = 1;
    std::size_t* wk = m.work;
    for (std::size_t k = 0; k < ns; ++k) wk[k] = npos;
    std::size_t work_count = 0;
    std::size_t count[2] = {0, 0};

    // Adds the threads reachable from pc0 without consuming, in priority order. The first
    // branch is followed directly; alternatives and capture restores go on the work stack.
    auto add = [&](int li, std::int32_t pc0, std::size_t pos, std::size_t* caps) {
        std::size_t sp = 0;
        std::int32_t next = pc0;
        for (;;) {
            if (next < 0) { // take the next job
                if (sp == 0) return;
                const pike_job j = m.stack[--sp];
                if (j.pc < 0) {
                    caps[j.slot] = j.val;
                    continue;
                }
                next = j.pc;
            }
            const auto pc = static_cast<std::size_t>(next);
            const inst& in = P.code[pc];
            std::size_t key = pc << depth;
            if (depth > 0 && in.o != op::byte && in.o != op::set && in.o != op::match) {
                // inside empty-matchable loops, which of them started here changes the future
                // (a thread that consumes a byte leaves every loop start behind: its future
                // depends on its pc only, so those are keyed by pc alone)
                const std::size_t d = P.nest_depth[pc];
                for (std::size_t k = 0; k < d && k < depth; ++k)
                    if (caps[P.nest_regs[pc][k]] == pos) key |= std::size_t{1} << k;
            }
            if (m.mark[key] == gen) {
                next = -1;
                continue;
            }
            m.mark[key] = gen;
            ++work_count;
            switch (in.o) {
            case op::byte:
            case op::set:
            case op::match: {
                const std::size_t k = count[li]++; // each such pc enters a list at most once
                m.pc[li][k] = next;
                std::size_t* dst = m.caps[li] + k * ns;
                for (std::size_t s = 0; s < ns; ++s) dst[s] = caps[s];
                next = -1;
                break;
            }
            case op::jmp: next = in.x; break;
            case op::split:
                m.stack[sp++] = pike_job{in.y, 0, 0};
                next = in.x;
                break;
            case op::save:
                m.stack[sp++] = pike_job{-1, static_cast<std::int32_t>(in.arg), caps[in.arg]};
                caps[in.arg] = pos;
                next = next + 1;
                break;
            case op::assertion: next = check_asserts(in.b, t, n, pos) ? next + 1 : -1; break;
            case op::progress: next = caps[in.arg] == pos ? in.x : in.y; break;
            }
        }
    };

    bool matched = false;
    int cl = 0; // current list; the other is the next one
    std::size_t pos = start;
    if (!anchored) {
        pos = cand.next(start);
        if (pos == npos) return false;
    }
    add(cl, 0, pos, wk);
    for (;;) {
        if (count[cl] == 0) {
            if (matched || anchored || pos >= n) break;
            const std::size_t q = cand.next(pos + 1);
            if (q == npos) break;
            pos = q;
            ++gen;
            add(cl, 0, pos, wk);
            continue;
        }
        ++gen;
        const int nl = 1 - cl;
        count[nl] = 0;
        const unsigned char c = pos < n ? static_cast<unsigned char>(t[pos]) : 0;
        for (std::size_t i = 0; i < count[cl]; ++i) {
            const inst& in = P.code[static_cast<std::size_t>(m.pc[cl][i])];
            std::size_t* caps = m.caps[cl] + i * ns;
            if (in.o == op::match) {
                if ((full && pos != n) || (must_advance && pos == start)) continue;
                matched = true;
                for (std::size_t s = 0; s < ns; ++s) out[s] = caps[s];
                break; // lower-priority threads are cut off
            }
            if (pos < n && (in.o == op::byte ? in.b == c : P.sets[in.arg].test(c)))
                add(nl, m.pc[cl][i] + 1, pos + 1, caps);
        }
        if (pos >= n) break;
        ++pos;
        if (!matched && !anchored && !cand.dead) {
            if (cand.first == nullptr || (pos < n && (*cand.first)[static_cast<unsigned char>(t[pos])]))
                add(nl, 0, pos, wk);
        }
        cl = nl;
    }
    if (steps) *steps += work_count;
    return matched;
}

/// Diagnostics (compile time): the byte offset in `t` where an anchored match of C's
/// program ran out of threads, i.e. the first byte no path of the pattern can take; t.size()
/// when every byte was taken but the pattern needed more. Empty-loop checks are followed
/// both ways, so the answer is the furthest any path could get.
template <class C>
constexpr std::size_t match_stop(std::string_view t) noexcept {
    constexpr std::size_t S = C::size;
    carray<bool, S> cur{}, nxt{}, seen{};
    carray<std::int32_t, 2 * S + 2> stack{};
    const std::size_t n = t.size();
    auto add = [&](carray<bool, S>& set, std::int32_t pc0, std::size_t pos) {
        std::size_t sp = 0;
        stack[sp++] = pc0;
        while (sp != 0) {
            const std::int32_t pc = stack[--sp];
            const auto u = static_cast<std::size_t>(pc);
            if (seen[u]) continue;
            seen[u] = true;
            const inst& in = C::code[u];
            switch (in.o) {
            case op::byte:
            case op::set:
            case op::match: set[u] = true; break;
            case op::jmp: stack[sp++] = in.x; break;
            case op::split:
            case op::progress:
                stack[sp++] = in.y;
                stack[sp++] = in.x;
                break;
            case op::save: stack[sp++] = pc + 1; break;
            case op::assertion:
                if (check_asserts(in.b, t.data(), n, pos)) stack[sp++] = pc + 1;
                break;
            }
        }
    };
    add(cur, 0, 0);
    for (std::size_t pos = 0; pos < n; ++pos) {
        seen = {};
        nxt = {};
        bool any = false;
        const auto c = static_cast<unsigned char>(t[pos]);
        for (std::size_t pc = 0; pc < S; ++pc) {
            if (!cur[pc]) continue;
            const inst& in = C::code[pc];
            if ((in.o == op::byte && in.b == c) || (in.o == op::set && C::sets[in.arg].test(c))) {
                add(nxt, static_cast<std::int32_t>(pc + 1), pos + 1);
                any = true;
            }
        }
        if (!any) return pos;
        cur = nxt;
    }
    return n;
}

/// Pike VM on the program of C, with its storage on the stack.
template <class C>
constexpr bool pike_run(const char* t, std::size_t n, std::size_t start, bool anchored, bool full,
                        bool must_advance, std::size_t* out, std::size_t* steps) noexcept {
    using I = info<C>;
    using M = pike_mem<C>;
    const prog_view P{C::code.data(), C::sets.data(), C::size, static_cast<std::size_t>(C::nslots),
                      static_cast<std::size_t>(M::depth), C::nesting.depth.data(), C::nesting.regs.data()};
    cand_rt cand{t, n, I::start.prefix.data(), I::start.prefix_len, I::prefix_plan.i1, I::prefix_plan.i2,
                 I::inner.text.data(), I::use_inner ? I::inner.len : 0, I::inner_plan.i1, I::inner_plan.i2,
                 I::inner.pre_min, I::inner.pre_max, I::use_inner,
                 I::start.has_first ? &I::first_table : nullptr};
    if (std::is_constant_evaluated()) {
        M m{};
        pike_space sp{{m.pc[0], m.pc[1]}, {m.caps[0], m.caps[1]}, m.mark, m.stack, m.work};
        return pike_core(P, cand, sp, t, n, start, anchored, full, must_advance, out, steps);
    }
    M m; // left uninitialised: every field is written before it is read
    pike_space sp{{m.pc[0], m.pc[1]}, {m.caps[0], m.caps[1]}, m.mark, m.stack, m.work};
    return pike_core(P, cand, sp, t, n, start, anchored, full, must_advance, out, steps);
}

// ---------------------------------------------------------------------------------------
// Bounded backtracker (the approach of RE2's BitState and of the Rust regex crate's
// bounded backtracker): depth-first search of the program in priority order, which gives
// leftmost-first captures directly, with a bit per (instruction, position) so that no state
// is explored twice: time O(program x input). It runs when the bits fit a fixed buffer
// (log-line-sized inputs) and the job stack does not overflow; otherwise the Pike VM runs.
//
// What makes it fast on log lines:
// - only instructions that can be reached in more than one way have a row of bits (a state
//   with one way in is explored at most as often as that way: at most once);
// - a loop over one byte or set (`.*`, `\d+`, `[^\]]*`, greedy or lazy) is one run: the
//   bytes it takes are found with memchr or a set test, its states are marked in words, and
//   the places where the rest of the pattern may go on are tried longest (greedy) or
//   shortest (lazy) first, skipping those whose next byte or literal cannot follow;
// - a run of literal bytes is compared at once.
// Patterns with loops whose body may match empty (`(a*)*`) keep the Pike VM: whether such a
// loop may go round again depends on captured positions, not on (instruction, position).
// ---------------------------------------------------------------------------------------

#if !defined(LOGSCAN_BT_THREADED)
#if defined(__GNUC__) // GCC and Clang: labels as values (threaded dispatch in bt_attempt)
#define LOGSCAN_BT_THREADED 1
#else
#define LOGSCAN_BT_THREADED 0
#endif
#endif

/// Per-instruction facts of the bounded backtracker, computed at compile time.
struct bt_inst {
    inst c{};                   ///< the instruction itself (one load brings both)
    std::int32_t row = -1;      ///< row of this instruction in the visited bits; -1: not needed
    std::int32_t exit = 0;      ///< loop head: where the loop goes on
    std::int32_t body = 0;      ///< loop head: the byte or set instruction repeated
    std::int32_t need = -1;     ///< first byte/set instruction reached from here through save/jmp, -1 none
    std::uint16_t need_len = 0; ///< need is a byte: bytes of the literal starting there
    std::uint16_t need_i1 = 0;  ///< need literal: position of its rarest byte
    std::uint16_t need_i2 = 0;  ///< need literal: position of another rare byte (0 if one byte)
    std::uint16_t lit = 1;      ///< byte: bytes compared in one step (the later ones have one way in)
    std::int16_t stop = -1;     ///< loop head: the one byte its body does not take, -1 if not one
    std::uint8_t loop = 0;      ///< split heading a one-instruction loop: 1 greedy, 2 lazy
    std::uint8_t possessive = 0;///< greedy loop whose exit needs a byte its body never takes:
                                ///< only the run's end can be an exit (nothing to come back to)
};

/// Most instructions a program run by the backtracker may have (larger ones use the Pike VM).
inline constexpr std::size_t bt_max_program = 1024;
/// Words of visited bits on the stack (16 KiB: 131072 instruction-position pairs).
inline constexpr std::size_t bt_words = 2048;
/// Jobs of the backtracker's stack (16 bytes each); more pending work falls to the Pike VM.
inline constexpr std::size_t bt_jobs = 2048;

/// The backtracker's tables for pattern C.
template <class C>
struct backtrack {
    static constexpr std::size_t S = C::size;
    static constexpr bool has_progress = [] {
        for (const inst& in : C::code)
            if (in.o == op::progress) return true;
        return false;
    }();
    /// Whether the backtracker can run this program at all.
    static constexpr bool ok = C::ok && !has_progress && S <= bt_max_program;

    struct tables {
        carray<bt_inst, S> in{};
        carray<char, S> lits{}; // byte of each byte instruction
        carray<carray<std::uint8_t, 256>, C::nsets> out{}; // per set: 1 for the bytes not in it
        std::size_t rows = 0;
    };
    static constexpr bool consumes(const inst& i) noexcept { return i.o == op::byte || i.o == op::set; }
    static constexpr tables make() noexcept {
        tables tb;
        if constexpr (!ok) {
            return tb;
        } else {
            const auto& code = C::code;
            for (std::size_t k = 0; k < C::nsets; ++k)
                for (unsigned c = 0; c < 256; ++c) tb.out[k][c] = ((C::sets[k].w[c >> 6] >> (c & 63u)) & 1u) != 0 ? 0 : 1;
            // one-instruction loops first: their runs take the body without exploring it
            for (std::size_t pc = 0; pc < S; ++pc) {
                const inst& in = code[pc];
                bt_inst& b = tb.in[pc];
                b.c = in;
                if (in.o == op::byte) tb.lits[pc] = static_cast<char>(in.b);
                if (in.o != op::split) continue;
                const auto s = static_cast<std::int32_t>(pc);
                const auto star = [&](std::int32_t to) {
                    return to == s + 1 && pc + 2 < S && consumes(code[pc + 1]) && code[pc + 2].o == op::jmp &&
                           code[pc + 2].x == s;
                };
                const auto plus = [&](std::int32_t to) { return to == s - 1 && pc >= 1 && consumes(code[pc - 1]); };
                if (star(in.x) || plus(in.x)) {
                    b.loop = 1;
                    b.body = in.x;
                    b.exit = in.y;
                } else if (star(in.y) || plus(in.y)) {
                    b.loop = 2;
                    b.body = in.y;
                    b.exit = in.x;
                }
                if (b.loop == 0) continue;
                const inst& body = code[static_cast<std::size_t>(b.body)];
                if (body.o == op::set) {
                    byteset out = C::sets[body.arg];
                    out.invert();
                    if (out.count() == 1)
                        for (unsigned c = 0; c < 256; ++c)
                            if (out.test(c)) b.stop = static_cast<std::int16_t>(c);
                }
            }
            // ways into each instruction as the backtracker explores: a loop head's edge to its
            // body is taken by runs, and so are the edges out of a star loop's body and jmp
            // (when nothing else leads there)
            auto count_preds = [&](const carray<bool, S>& implicit) {
                carray<int, S> preds{};
                preds[0] = 1; // the entry
                for (std::size_t pc = 0; pc < S; ++pc) {
                    if (implicit[pc]) continue;
                    const inst& in = code[pc];
                    const bt_inst& b = tb.in[pc];
                    switch (in.o) {
                    case op::byte:
                    case op::set:
                    case op::save:
                    case op::assertion:
                        if (pc + 1 < S) ++preds[pc + 1];
                        break;
                    case op::jmp: ++preds[static_cast<std::size_t>(in.x)]; break;
                    case op::split:
                    case op::progress:
                        if (b.loop == 0 || b.body != in.x) ++preds[static_cast<std::size_t>(in.x)];
                        if (b.loop == 0 || b.body != in.y) ++preds[static_cast<std::size_t>(in.y)];
                        break;
                    case op::match: break;
                    }
                }
                return preds;
            };
            carray<bool, S> implicit{};
            const carray<int, S> raw = count_preds(implicit);
            for (std::size_t pc = 0; pc < S; ++pc) {
                const bt_inst& b = tb.in[pc];
                if (b.loop != 0 && static_cast<std::size_t>(b.body) == pc + 1 && raw[pc + 1] == 0 && raw[pc + 2] == 1)
                    implicit[pc + 1] = implicit[pc + 2] = true;
            }
            const carray<int, S> preds = count_preds(implicit);
            for (std::size_t pc = 0; pc < S; ++pc) {
                bt_inst& b = tb.in[pc];
                if (preds[pc] > 1 || b.loop != 0) b.row = static_cast<std::int32_t>(tb.rows++);
            }
            for (std::size_t pc = 0; pc < S; ++pc) {
                bt_inst& b = tb.in[pc];
                if (code[pc].o == op::byte) {
                    std::size_t k = pc + 1;
                    while (k < S && code[k].o == op::byte && tb.in[k].row < 0 && k - pc < 0xFFFF) ++k;
                    b.lit = static_cast<std::uint16_t>(k - pc);
                }
                std::size_t q = pc;
                for (std::size_t guard = 0; guard < S; ++guard) {
                    if (code[q].o == op::save) ++q;
                    else if (code[q].o == op::jmp) q = static_cast<std::size_t>(code[q].x);
                    else break;
                }
                if (consumes(code[q])) {
                    b.need = static_cast<std::int32_t>(q);
                    std::size_t k = q;
                    while (k < S && code[k].o == op::byte && k - q < 0xFFFF) ++k;
                    b.need_len = static_cast<std::uint16_t>(k - q);
                    if (b.need_len >= 2) {
                        auto rank = [&](std::size_t i) { return byte_rank(code[q + i].b); };
                        std::size_t i1 = 0;
                        for (std::size_t i = 1; i < b.need_len; ++i)
                            if (rank(i) < rank(i1)) i1 = i;
                        std::size_t i2 = i1 == 0 ? 1 : 0;
                        for (std::size_t i = 0; i < b.need_len; ++i)
                            if (i != i1 && rank(i) < rank(i2)) i2 = i;
                        b.need_i1 = static_cast<std::uint16_t>(i1);
                        b.need_i2 = static_cast<std::uint16_t>(i2);
                    }
                }
            }
            for (std::size_t pc = 0; pc < S; ++pc) {
                bt_inst& b = tb.in[pc];
                const std::int32_t nd = tb.in[static_cast<std::size_t>(b.exit)].need;
                if (b.loop != 1 || nd < 0) continue;
                const auto bytes = [&](const inst& i) {
                    byteset s;
                    if (i.o == op::byte) s.set(i.b);
                    else s = C::sets[i.arg];
                    return s;
                };
                const byteset body = bytes(code[static_cast<std::size_t>(b.body)]);
                const byteset next = bytes(code[static_cast<std::size_t>(nd)]);
                bool meet = false;
                for (int w = 0; w < 4; ++w) meet = meet || (body.w[w] & next.w[w]) != 0;
                b.possessive = meet ? 0 : 1;
            }
            return tb;
        }
    }
    static constexpr tables tab = make();

    /// A byte every match contains (the rarest such), or -1: bytes consumed on every path
    /// from an instruction to `match`, a greatest fixed point over the program.
    static constexpr int make_required() noexcept {
        if constexpr (!ok) {
            return -1;
        } else {
            const auto& code = C::code;
            carray<byteset, S> req{};
            for (auto& r : req) r.invert(); // start from "every byte", shrink until stable
            bool stable = false;
            for (int pass = 0; pass < 32 && !stable; ++pass) {
                stable = true;
                for (std::size_t k = S; k-- > 0;) {
                    const inst& in = code[k];
                    byteset r;
                    switch (in.o) {
                    case op::match: break;
                    case op::byte:
                        r = req[k + 1];
                        r.set(in.b);
                        break;
                    case op::set:
                    case op::save:
                    case op::assertion: r = req[k + 1]; break;
                    case op::jmp: r = req[static_cast<std::size_t>(in.x)]; break;
                    case op::split:
                    case op::progress:
                        r = req[static_cast<std::size_t>(in.x)];
                        for (int w = 0; w < 4; ++w) r.w[w] &= req[static_cast<std::size_t>(in.y)].w[w];
                        break;
                    }
                    if (!(r == req[k])) {
                        req[k] = r;
                        stable = false;
                    }
                }
            }
            if (!stable) return -1;
            int best = -1;
            for (unsigned c = 0; c < 256; ++c)
                if (req[0].test(c) && (best < 0 || byte_rank(static_cast<unsigned char>(c)) < byte_rank(static_cast<unsigned char>(best))))
                    best = static_cast<int>(c);
            return best;
        }
    }
    static constexpr int required = make_required();
    /// Longest input (bytes from where matching starts) whose visited bits fit the buffer.
    static constexpr std::size_t max_input = ok ? bt_words * 64 / (tab.rows > 0 ? tab.rows : 1) - 1 : 0;
};

/// A job of the backtracker: explore (pc >= 0), restore a slot (pc == -1), try the exits of
/// a greedy loop run from b down to a (pc == -2), step a lazy loop on from a (pc == -3).
/// Positions are relative to the start of the span searched.
struct bt_job {
    std::int32_t pc;
    std::int32_t aux; ///< slot to restore, or the loop head
    std::uint32_t a, b;
};

/// The pattern-independent view of a program the backtracker runs.
struct bt_view {
    const bt_inst* in;                        ///< per pc
    const char* lits;                         ///< per pc: the byte of a byte instruction
    const carray<std::uint8_t, 256>* out; ///< per set: 1 for the bytes not in it
};

/// Where the backtracker works: its visited bits and its job stack.
struct bt_space {
    std::uint64_t* bits;  ///< rows x (span + 1) bits
    std::size_t words;    ///< words of bits in use
    bt_job* stack;        ///< bt_jobs entries
    bool cleared = false; ///< bits cleared (done at the first choice of the first attempt, or
                          ///< before a later attempt)
};

/// Index of the first set bit in [k0, k1), or k1.
inline std::size_t bt_first_set(const std::uint64_t* bits, std::size_t k0, std::size_t k1) noexcept {
    if (k0 >= k1) return k1;
    std::size_t w = k0 >> 6;
    const std::size_t last = (k1 - 1) >> 6;
    std::uint64_t word = bits[w] & (~std::uint64_t{0} << (k0 & 63u));
    for (;;) {
        if (word != 0) {
            const std::size_t k = (w << 6) + static_cast<std::size_t>(__builtin_ctzll(word));
            return k < k1 ? k : k1;
        }
        if (w == last) return k1;
        word = bits[++w];
    }
}

/// Sets the bits [k0, k1) (k0 < k1) until one is found set already; returns that one's
/// index, or k1.
inline std::size_t bt_mark_run(std::uint64_t* bits, std::size_t k0, std::size_t k1) noexcept {
    std::size_t w = k0 >> 6;
    const std::size_t last = (k1 - 1) >> 6;
    std::uint64_t mask = ~std::uint64_t{0} << (k0 & 63u);
    for (;; ++w, mask = ~std::uint64_t{0}) {
        if (w == last) mask &= ~std::uint64_t{0} >> (63u - ((k1 - 1) & 63u));
        const std::uint64_t hit = bits[w] & mask;
        if (hit != 0) {
            const auto first = static_cast<unsigned>(__builtin_ctzll(hit));
            bits[w] |= mask & ((std::uint64_t{1} << first) - 1);
            return (w << 6) + first;
        }
        bits[w] |= mask;
        if (w == last) return k1;
    }
}

/// Last position in [from, to) of byte c in t, or npos (memrchr where the C library has it).
inline std::size_t find_byte_back(const char* t, std::size_t from, std::size_t to, char c) noexcept {
#if defined(__GLIBC__)
    if (from >= to) return npos;
    const void* r = ::memrchr(t + from, c, to - from);
    return r ? static_cast<std::size_t>(static_cast<const char*>(r) - t) : npos;
#else
    while (to > from)
        if (t[--to] == c) return to;
    return npos;
#endif
}

/// Whether a[0, k) == b[0, k) (short literals: inline, 8 bytes at a time).
inline bool bt_same(const char* a, const char* b, std::size_t k) noexcept {
    const auto eq = [](const char* x, const char* y, auto w) noexcept {
        decltype(w) p, q;
        std::memcpy(&p, x, sizeof p);
        std::memcpy(&q, y, sizeof q);
        return p == q;
    };
    if (k >= 8) { // 8 bytes at a time, the last 8 overlapping
        for (; k > 8; k -= 8, a += 8, b += 8)
            if (!eq(a, b, std::uint64_t{})) return false;
        return eq(a + k - 8, b + k - 8, std::uint64_t{});
    }
    if (k >= 4) return eq(a, b, std::uint32_t{}) && eq(a + k - 4, b + k - 4, std::uint32_t{});
    if (k >= 2) return eq(a, b, std::uint16_t{}) && eq(a + k - 2, b + k - 2, std::uint16_t{});
    return k == 0 || *a == *b;
}

/// Last x in [lo, hi] with t[x, x + len) == lit (len >= 2, hi + len <= the text's length),
/// or npos; filters candidates on the bytes at i1 and i2 (SSE2: 16 at a time).
inline std::size_t find_literal_back(const char* t, std::size_t lo, std::size_t hi, const char* lit, std::size_t len,
                                     std::size_t i1, std::size_t i2) noexcept {
    if (hi < lo) return npos;
    std::size_t end = hi + 1; // candidates [lo, end) remain
#if defined(__SSE2__)
    const __m128i v1 = _mm_set1_epi8(lit[i1]);
    const __m128i v2 = _mm_set1_epi8(lit[i2]);
    while (end - lo >= 16) {
        const std::size_t s = end - 16;
        const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(t + s + i1));
        const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(t + s + i2));
        auto m = static_cast<unsigned>(_mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(a, v1), _mm_cmpeq_epi8(b, v2))));
        while (m != 0) {
            const std::size_t k = 31u - static_cast<unsigned>(__builtin_clz(m));
            if (bt_same(t + s + k, lit, len)) return s + k;
            m &= ~(1u << k);
        }
        end = s;
    }
#endif
    while (end > lo) {
        --end;
        if (t[end + i1] == lit[i1] && t[end + i2] == lit[i2] && bt_same(t + end, lit, len)) return end;
    }
    return npos;
}

/// One anchored attempt of the backtracker at `start`, over positions [base, n] (the bits
/// have `width` = n - base + 1 columns and are shared by the attempts of one search).
/// Returns match (slots in caps), no_match, or gave_up when the job stack overflows.
///
/// `first`: the first attempt on these bits (an anchored match, or a search's first start).
/// Until its first choice is pushed, the path is a line that cannot meet itself: nothing is
/// marked and the bits are not even cleared. A state seen there may be explored once more
/// later (after a backtrack, or by a later attempt), which marks it: at most twice the work,
/// still linear. Later attempts mark from their start.
#if LOGSCAN_BT_THREADED
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpedantic" // labels as values are a GNU extension
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wgnu-label-as-value"
#endif
#endif
inline run_status bt_attempt(const bt_view& v, bt_space& m, const char* t, std::size_t n, std::size_t base,
                             std::size_t start, bool full, bool must_advance, bool first, std::size_t ns,
                             std::size_t* caps, std::size_t* steps) noexcept {
    const std::size_t width = n - base + 1;
    const bt_inst* bi = v.in;
    const auto* u = reinterpret_cast<const unsigned char*>(t);
    std::uint64_t* bits = m.bits;
    bt_job* stack = m.stack;
    std::size_t sp = 0;
    std::size_t visits = 0;
    for (std::size_t k = 0; k < ns; ++k) caps[k] = npos;

    auto seen = [&](std::int32_t row, std::size_t pos) noexcept {
        const std::size_t k = static_cast<std::size_t>(row) * width + (pos - base);
        std::uint64_t& w = bits[k >> 6];
        const std::uint64_t b = std::uint64_t{1} << (k & 63u);
        if ((w & b) != 0) return true;
        w |= b;
        return false;
    };
    auto takes = [&](const inst& body, std::size_t pos) noexcept {
        return pos < n && (body.o == op::byte ? u[pos] == body.b : !v.out[body.arg][u[pos]]);
    };
    // end of the run of bytes `body` takes from pos
    auto run_end = [&](const inst& body, std::size_t pos, std::size_t to) noexcept {
        if (body.o == op::set) {
            const auto& out = v.out[body.arg];
#if defined(__SSE2__)
            if (!out[' ']) { // a set with the space (\s, [ \t]): table padding, 16 spaces at a time
                const __m128i sp16 = _mm_set1_epi8(' ');
                while (to - pos >= 16 && _mm_movemask_epi8(_mm_cmpeq_epi8(
                                             _mm_loadu_si128(reinterpret_cast<const __m128i*>(t + pos)), sp16)) == 0xFFFF)
                    pos += 16;
            }
#endif
            return scan_table(t, pos, to, out);
        }
        while (pos < to && u[pos] == body.b) ++pos;
        return pos;
    };
    // end of a run up to the byte `stop`: the 16 bytes from pos looked at inline, else
    // memchr; for '\n' (the `.` of `.*`), the last answer is kept: the next `.*` of a line
    // is answered without reading it again
    std::size_t nl_from = npos, nl_at = npos; // the first '\n' at or after any p in [nl_from, nl_at] is nl_at
    auto stop_at = [&](int stop, std::size_t pos, std::size_t to) noexcept {
        const char c = static_cast<char>(stop);
        if (c == '\n' && pos >= nl_from && pos <= nl_at) return nl_at < to ? nl_at : to;
        std::size_t q;
#if defined(__SSE2__)
        if (to - pos >= 16) {
            const auto hit = static_cast<unsigned>(_mm_movemask_epi8(
                _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(t + pos)), _mm_set1_epi8(c))));
            q = hit != 0 ? pos + static_cast<std::size_t>(__builtin_ctz(hit)) : find_byte(t, pos + 16, to, c);
        } else {
            q = find_byte(t, pos, to, c);
        }
#else
        q = find_byte(t, pos, to, c);
#endif
        if (c == '\n' && (q < to || to == n)) nl_from = pos, nl_at = q;
        return q;
    };
    // may the program go on at `pos` from the instruction described by e (its first byte or
    // literal is there)
    auto need_ok = [&](const bt_inst& e, std::size_t pos) noexcept {
        if (e.need < 0) return true;
        const inst& c = bi[e.need].c;
        if (c.o == op::set) return pos < n && !v.out[c.arg][u[pos]];
        if (pos >= n || u[pos] != c.b) return false;
        return e.need_len == 1 || (n - pos >= e.need_len && bt_same(t + pos + 1, v.lits + e.need + 1, e.need_len - 1u));
    };
    // the last position in [lo, hi] where need_ok(e, .) holds, or npos
    auto last_ok = [&](const bt_inst& e, std::size_t lo, std::size_t hi) noexcept {
        if (e.need < 0) return hi;
        const inst& c = bi[e.need].c;
        if (c.o == op::set) {
            for (std::size_t x = hi + 1; x > lo;)
                if (--x < n && !v.out[c.arg][u[x]]) return x;
            return npos;
        }
        if (e.need_len == 1) return find_byte_back(t, lo, hi < n ? hi + 1 : n, static_cast<char>(c.b));
        if (n - lo < e.need_len) return npos;
        if (hi > n - e.need_len) hi = n - e.need_len;
        return find_literal_back(t, lo, hi, v.lits + e.need, e.need_len, e.need_i1, e.need_i2);
    };
    auto rel = [&](std::size_t p) noexcept { return static_cast<std::uint32_t>(p - base); };
    std::size_t choices = 0; // jobs on the stack other than restores: while none, a failure
                             // ends the attempt and slots need no restoring
    if (!first && !m.cleared) {
        std::memset(bits, 0, m.words * sizeof(std::uint64_t));
        m.cleared = true;
    }
    auto push = [&](std::int32_t pc, std::int32_t aux, std::uint32_t a, std::uint32_t b) noexcept {
        if (sp == bt_jobs) return false;
        stack[sp++] = bt_job{pc, aux, a, b};
        if (pc != -1) {
            ++choices;
            if (!m.cleared) { // the first choice: from here on, states are marked
                std::memset(bits, 0, m.words * sizeof(std::uint64_t));
                m.cleared = true;
            }
        }
        return true;
    };

    std::int32_t pc = 0;
    std::size_t pos = start;
    run_status result = run_status::no_match;
    const bt_inst* e = nullptr;
    // Explore (pc, pos) until it fails, then take the next job. With GCC and Clang each
    // instruction ends in its own indirect jump to the next one (threaded code: the branch
    // predictor learns each successor), elsewhere a switch in a loop.
#if LOGSCAN_BT_THREADED
    static const void* const next_op[] = {&&k_byte, &&k_set, &&k_split, &&k_jmp, &&k_save, &&k_assertion, &&k_progress, &&k_match};
#define LOGSCAN_BT_NEXT                                                                          \
    do {                                                                                         \
        e = bi + pc;                                                                             \
        ++visits;                                                                                \
        if (e->row >= 0 && m.cleared && seen(e->row, pos)) goto fail;                           \
        goto* next_op[static_cast<std::size_t>(e->c.o)];                                         \
    } while (false)
#define LOGSCAN_BT_CASE(name) k_##name:
#else
#define LOGSCAN_BT_NEXT continue
#define LOGSCAN_BT_CASE(name) case op::name:
#endif
    for (;;) {
#if LOGSCAN_BT_THREADED
        LOGSCAN_BT_NEXT;
        {
#else
        for (;;) {
            e = bi + pc;
            ++visits;
            if (e->row >= 0 && m.cleared && seen(e->row, pos)) goto fail;
            switch (e->c.o) {
#endif
            LOGSCAN_BT_CASE(byte) {
                const std::size_t k = e->lit;
                if (pos >= n || u[pos] != e->c.b) goto fail;
                if (k > 1 && (n - pos < k || !bt_same(t + pos + 1, v.lits + pc + 1, k - 1))) goto fail;
                pc += static_cast<std::int32_t>(k);
                pos += k;
                LOGSCAN_BT_NEXT;
            }
            LOGSCAN_BT_CASE(set) {
                if (pos >= n || v.out[e->c.arg][u[pos]]) goto fail;
                ++pc;
                ++pos;
                LOGSCAN_BT_NEXT;
            }
            LOGSCAN_BT_CASE(jmp) {
                pc = e->c.x;
                LOGSCAN_BT_NEXT;
            }
            LOGSCAN_BT_CASE(save) {
                const std::size_t slot = e->c.arg;
                if (choices != 0 && !push(-1, static_cast<std::int32_t>(slot), caps[slot] == npos ? ~std::uint32_t{0} : rel(caps[slot]), 0))
                    goto overflow;
                caps[slot] = pos;
                ++pc;
                LOGSCAN_BT_NEXT;
            }
            LOGSCAN_BT_CASE(assertion) {
                if (!check_asserts(e->c.b, t, n, pos)) goto fail;
                ++pc;
                LOGSCAN_BT_NEXT;
            }
            LOGSCAN_BT_CASE(match) {
                if ((full && pos != n) || (must_advance && pos == start)) goto fail;
                result = run_status::match;
                goto done;
            }
            LOGSCAN_BT_CASE(progress) { goto fail; } // not in programs run here
            LOGSCAN_BT_CASE(split) {
                if (e->loop == 0) {
                    if (!push(e->c.y, 0, rel(pos), 0)) goto overflow;
                    pc = e->c.x;
                    LOGSCAN_BT_NEXT;
                }
                const inst& body = bi[e->body].c;
                const bt_inst& ex = bi[e->exit];
                if (e->loop == 1) { // greedy: take the whole run, then try the exits from its end
                    std::size_t q = pos, hi = pos;
                    bool blocked = false; // the run reached a loop state explored before
                    if (!m.cleared) { // nothing marked yet: the whole run
                        q = hi = e->stop >= 0 ? stop_at(e->stop, pos, n) : run_end(body, pos, n);
                    } else {
                        // read the text only up to the first explored state of the loop: a
                        // block of positions at a time, each twice the last, bits first
                        const std::size_t row0 = static_cast<std::size_t>(e->row) * width - base;
                        std::size_t x = pos;
                        for (std::size_t len = 512;; len *= 2) {
                            const std::size_t end = n - x > len ? x + len : n;
                            const std::size_t f = bt_first_set(bits, row0 + x + 1, row0 + end + 1) - row0;
                            const std::size_t to = f <= end ? f : end;
                            q = e->stop >= 0 ? stop_at(e->stop, x, to) : run_end(body, x, to);
                            if (q < to) break;
                            if (f <= end) {
                                blocked = true;
                                break;
                            }
                            x = to;
                            if (x >= n) break;
                        }
                        hi = blocked ? q - 1 : q;
                        if (hi > pos) bt_mark_run(bits, row0 + pos + 1, row0 + hi + 1); // all clear
                    }
                    visits += q - pos;
                    if (e->possessive) { // the run's end is the one place the exit may follow
                        if (blocked || !need_ok(ex, q)) goto fail;
                        pc = e->exit;
                        pos = q;
                        LOGSCAN_BT_NEXT;
                    }
                    hi = last_ok(ex, pos, hi);
                    if (hi == npos) goto fail;
                    if (hi > pos && !push(-2, pc, rel(pos), rel(hi - 1))) goto overflow;
                    pc = e->exit;
                    pos = hi;
                    LOGSCAN_BT_NEXT;
                }
                // lazy: the exit first (a job takes one more byte when it fails)
                if (!push(-3, pc, rel(pos), 0)) goto overflow;
                if (!need_ok(ex, pos)) goto fail;
                pc = e->exit;
                LOGSCAN_BT_NEXT;
            }
#if !LOGSCAN_BT_THREADED
            }
#endif
        }
#undef LOGSCAN_BT_NEXT
#undef LOGSCAN_BT_CASE
    fail:
        // take the next job
        for (;;) {
            if (sp == 0) goto done;
            bt_job& j = stack[sp - 1];
            if (j.pc >= 0) {
                pc = j.pc;
                pos = base + j.a;
                --sp;
                --choices;
                break;
            }
            if (j.pc == -1) {
                caps[j.aux] = j.a == ~std::uint32_t{0} ? npos : base + j.a;
                --sp;
                continue;
            }
            const bt_inst& lh = bi[j.aux];
            const bt_inst& ex = bi[lh.exit];
            if (j.pc == -2) { // greedy exits from b down to a
                const std::size_t lo = base + j.a;
                const std::size_t hi = last_ok(ex, lo, base + j.b);
                if (hi == npos) {
                    --sp;
                    --choices;
                    continue;
                }
                if (hi > lo) {
                    j.b = rel(hi - 1);
                } else {
                    --sp;
                    --choices;
                }
                pc = lh.exit;
                pos = hi;
                break;
            }
            // lazy: the exit at a failed; take one more byte, and more while the exit cannot follow
            const inst& body = bi[lh.body].c;
            std::size_t x = base + j.a;
            bool found = false;
            for (;;) {
                if (!takes(body, x)) break;
                ++x;
                ++visits;
                if (seen(lh.row, x)) break;
                if (need_ok(ex, x)) {
                    found = true;
                    break;
                }
            }
            if (!found) {
                --sp;
                --choices;
                continue;
            }
            j.a = rel(x);
            pc = lh.exit;
            pos = x;
            break;
        }
    }
overflow:
    result = run_status::gave_up;
done:
    if (steps) *steps += visits;
    return result;
}
#if LOGSCAN_BT_THREADED
#pragma GCC diagnostic pop
#endif

/// The bounded backtracker on pattern C over t[from, n): anchored at `from` or searching
/// leftmost-first from it. Needs backtrack<C>::ok and n - from <= backtrack<C>::max_input;
/// gave_up when its job stack overflowed (the caller then runs the Pike VM).
template <class C>
inline run_status backtrack_run(const char* t, std::size_t n, std::size_t from, bool anchored, bool full,
                                bool must_advance, std::size_t* caps, std::size_t* steps) noexcept {
    using B = backtrack<C>;
    static_assert(B::ok, "backtrack_run: the program has empty-matchable loops or is too large");
    if (n - from > B::max_input) return run_status::gave_up;
    if constexpr (B::required >= 0) // a byte every match has: one memchr rejects most inputs
        if (find_byte(t, from, n, static_cast<char>(B::required)) == n) return run_status::no_match;
    std::uint64_t bits[bt_words];
    bt_job stack[bt_jobs];
    const std::size_t words = (B::tab.rows * (n - from + 1) + 63) / 64;
    const bt_view v{B::tab.in.data(), B::tab.lits.data(), B::tab.out.data()};
    bt_space m{bits, words, stack};
    constexpr auto ns = static_cast<std::size_t>(C::nslots);
    if (anchored) return bt_attempt(v, m, t, n, from, from, full, must_advance, true, ns, caps, steps);
    candidates<C> cand{t, n};
    const std::size_t first = cand.next(from);
    for (std::size_t s = first; s != npos; s = s >= n ? npos : cand.next(s + 1)) {
        const run_status r = bt_attempt(v, m, t, n, from, s, full, must_advance && s == from, s == first, ns, caps, steps);
        if (r != run_status::no_match) return r;
    }
    return run_status::no_match;
}

/// The pattern-independent view of a bitnfa's tables (one filter loop serves all patterns).
struct bitnfa_view {
    const std::uint64_t* on_class;                 ///< per byte class
    const std::uint8_t* cls;                       ///< byte class of each byte
    const carray<std::uint64_t, 16>* follow;   ///< nchunks entries
    std::size_t nchunks;                           ///< 4-position chunks
    std::uint64_t start, accept;                   ///< see bitnfa::tables
    const carray<std::uint8_t, 256>* first;    ///< bytes a match can start with
};

/// Whether a pattern may match: searching from `from` (full false) or the whole text (full
/// true). False is exact; true may be wrong (assertions and empty-loop checks are not looked
/// at). Adds the bytes it read to *steps.
inline bool bitnfa_scan(const bitnfa_view& v, const char* t, std::size_t n, std::size_t from, bool full,
                        std::size_t* steps) noexcept {
    auto follow = [&](std::uint64_t d) noexcept {
        std::uint64_t r = 0;
        for (std::size_t ch = 0; ch < v.nchunks; ++ch, d >>= 4) r |= v.follow[ch][d & 0xFu];
        return r;
    };
    std::size_t pos = from;
    std::uint64_t d = 0;
    bool maybe = false;
    if (full) {
        if (pos < n) {
            d = v.start & v.on_class[v.cls[static_cast<unsigned char>(t[pos])]];
            ++pos;
            while (d != 0 && pos < n) {
                d = follow(d) & v.on_class[v.cls[static_cast<unsigned char>(t[pos])]];
                ++pos;
            }
            maybe = (d & v.accept) != 0 && pos == n;
        }
    } else {
        while (pos < n) {
            if (d == 0) { // nothing under way: skip to a byte a match can start with
                pos = scan_table(t, pos, n, *v.first);
                if (pos == n) break;
            }
            d = (follow(d) | v.start) & v.on_class[v.cls[static_cast<unsigned char>(t[pos])]];
            ++pos;
            if ((d & v.accept) != 0) {
                maybe = true;
                break;
            }
        }
    }
    if (steps) *steps += pos - from;
    return maybe;
}

/// bitnfa_scan for pattern C (always true where the filter does not apply: during
/// constant evaluation, patterns over bitnfa_max_positions, patterns that match empty).
template <class C>
constexpr bool may_match(const char* t, std::size_t n, std::size_t from, bool full, std::size_t* steps) noexcept {
    using B = bitnfa<C>;
    if constexpr (!B::ok) {
        return true;
    } else {
        if (std::is_constant_evaluated()) return true;
        constexpr const auto& T = B::table;
        if constexpr (T.start_accepts) {
            return true;
        } else {
            const bitnfa_view v{T.on_class.data(), info<C>::bc.map.data(), T.follow.data(), B::nchunks, T.start, T.accept, &info<C>::first_table};
            return bitnfa_scan(v, t, n, from, full, steps);
        }
    }
}

/// The matchers a pattern can run on (see regex_info in regex.hpp).
enum class engine_kind : std::uint8_t { one_pass, backtrack, pike };

/// The matcher that runs C over `span` bytes (the whole text for a match, from the start
/// position for a search). A backtracker run whose job stack overflows (deeply nested
/// choices) and a one-pass search that would take more than linear time hand over to the
/// Pike VM.
template <class C>
constexpr engine_kind engine_for(std::size_t span) noexcept {
    if constexpr (onepass<C>::ok) return engine_kind::one_pass;
    else if constexpr (backtrack<C>::ok) return span <= backtrack<C>::max_input ? engine_kind::backtrack : engine_kind::pike;
    else return engine_kind::pike;
}

/// Whole-text match: slots of the match into caps (C::nslots entries).
template <class C>
constexpr bool full_match(const char* t, std::size_t n, std::size_t* caps, std::size_t* steps) noexcept {
    if constexpr (onepass<C>::ok) {
        std::size_t budget = npos;
        const bool r = onepass_run<C, true>(t, n, 0, false, caps, budget) == run_status::match;
        if (steps) *steps += npos - budget;
        return r;
    } else {
        if constexpr (info<C>::start.prefix_len > 0) {
            constexpr std::size_t pl = info<C>::start.prefix_len;
            if (n < pl) return false;
            for (std::size_t k = 0; k < pl; ++k)
                if (t[k] != info<C>::start.prefix[k]) return false;
        }
        // the backtracker rejects as fast as the filter would; the Pike VM needs the filter
        if constexpr (backtrack<C>::ok) {
            if (!std::is_constant_evaluated() && engine_for<C>(n) == engine_kind::backtrack) {
                const run_status r = backtrack_run<C>(t, n, 0, true, true, false, caps, steps);
                if (r != run_status::gave_up) return r == run_status::match;
            }
        }
        if (!may_match<C>(t, n, 0, true, steps)) return false;
        return pike_run<C>(t, n, 0, true, true, false, caps, steps);
    }
}

/// Leftmost-first search in t[from, n) (assertions see the whole text t[0, n)).
template <class C>
constexpr bool search_from(const char* t, std::size_t n, std::size_t from, bool must_advance, std::size_t* caps,
                           std::size_t* steps) noexcept {
    if constexpr (onepass<C>::ok) {
        candidates<C> cand{t, n};
        const std::size_t total = 2 * (n - from) + 256;
        std::size_t budget = total;
        std::size_t used_before = 0;
        std::size_t s = cand.next(from);
        while (s != npos) {
            const std::size_t b0 = budget;
            const run_status r = onepass_run<C, false>(t, n, s, must_advance && s == from, caps, budget);
            used_before += b0 - budget;
            if (r == run_status::match) {
                if (steps) *steps += used_before;
                return true;
            }
            if (r == run_status::gave_up) {
                if (steps) *steps += used_before;
                if (!may_match<C>(t, n, s, false, steps)) return false;
                return pike_run<C>(t, n, s, false, false, must_advance && s == from, caps, steps);
            }
            if (s >= n) break;
            const std::size_t s2 = cand.next(s + 1);
            if (s2 == npos) break;
            budget += 4 * (s2 - s);
            s = s2;
        }
        if (steps) *steps += used_before;
        return false;
    } else {
        if constexpr (backtrack<C>::ok) {
            if (!std::is_constant_evaluated() && engine_for<C>(n - from) == engine_kind::backtrack) {
                const run_status r = backtrack_run<C>(t, n, from, false, false, must_advance, caps, steps);
                if (r != run_status::gave_up) return r == run_status::match;
            }
        }
        if (!may_match<C>(t, n, from, false, steps)) return false;
        return pike_run<C>(t, n, from, false, false, must_advance, caps, steps);
    }
}

} // namespace logscan::regex_internal

#endif // LOGSCAN_REGEX_EXEC_HPP_INCLUDED
