// SPDX-License-Identifier: MIT
/// \file regex/program.hpp
/// Internal: compiles a parsed pattern into a fixed-size NFA program and analyses it
/// (byte classes, one-pass transition table, literal prefix, required literal, first bytes).
///
/// Everything here runs at compile time; the results are `static constexpr` members of
/// `regex_internal::compiled<Pattern>`. Not part of the public API.
///
/// \code
/// using c = logscan::regex_internal::compiled<"a(b|c)*d">;
/// static_assert(c::ok && c::ngroups == 2);
/// \endcode
#ifndef LOGSCAN_REGEX_PROGRAM_HPP_INCLUDED
#define LOGSCAN_REGEX_PROGRAM_HPP_INCLUDED

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>

#include "parse.hpp"

namespace logscan::regex_internal {

/// Instruction opcodes of the NFA program.
enum class op : std::uint8_t {
    byte,     ///< consume `b`
    set,      ///< consume a byte of set `arg`
    split,    ///< try x, then y (x has priority)
    jmp,      ///< go to x
    save,     ///< slot `arg` = position
    assertion,///< zero-width test of the bits in `b`
    progress, ///< if position == slot `arg`: go to x (empty iteration), else go to y
    match,    ///< the pattern matched
};

/// One instruction.
struct inst {
    op o = op::match;       ///< opcode
    std::uint8_t b = 0;     ///< byte value or assertion bits
    std::uint16_t arg = 0;  ///< set index or slot
    std::int32_t x = 0;     ///< first target
    std::int32_t y = 0;     ///< second target
};

/// Largest program accepted (instructions after expanding counted repetitions).
inline constexpr std::size_t max_program = 6000;

/// Number of instructions `k` compiles to (saturates above max_program).
template <std::size_t L>
constexpr std::size_t code_size(const ast<L>& a, int k) noexcept {
    const node& nd = a.nodes[static_cast<std::size_t>(k)];
    auto sat = [](std::size_t v) { return v > max_program ? max_program + 1 : v; };
    switch (nd.kind) {
    case nk::empty: return 0;
    case nk::byte:
    case nk::set:
    case nk::assertion: return 1;
    case nk::group: return sat(code_size(a, nd.child) + 2);
    case nk::concat: {
        std::size_t s = 0;
        for (int c = nd.child; c >= 0; c = a.nodes[static_cast<std::size_t>(c)].next)
            s = sat(s + code_size(a, c));
        return s;
    }
    case nk::alt: {
        std::size_t s = 0;
        for (int c = nd.child; c >= 0; c = a.nodes[static_cast<std::size_t>(c)].next)
            s = sat(s + code_size(a, c) + 2);
        return sat(s - 2);
    }
    case nk::repeat: {
        const std::size_t x = code_size(a, nd.child);
        if (x > max_program) return max_program + 1;
        const bool nul = nd.reg >= 0;
        std::size_t s = 0;
        if (nd.max == rep_inf) {
            if (!nul && nd.min >= 1) return sat((nd.min) * x + 1);
            s = nd.min * x + x + (nul ? 3 : 2);
        } else {
            const std::size_t opt = static_cast<std::size_t>(nd.max - nd.min);
            s = nd.min * x + opt * (x + 1) + (nul && opt > 0 ? 2 * (opt - 1) : 0);
        }
        return sat(s);
    }
    }
    return 0;
}

/// Emits the program of a syntax tree into an array of N instructions.
template <std::size_t L, std::size_t N>
struct emitter {
    const ast<L>& a;
    carray<inst, N> code{};
    int slot_base = 0; // first progress register slot (2 * ngroups)

    constexpr const node& nd(int k) const noexcept { return a.nodes[static_cast<std::size_t>(k)]; }
    constexpr void put(int pc, inst in) noexcept { code[static_cast<std::size_t>(pc)] = in; }

    constexpr int emit(int k, int pc) noexcept {
        const node& n = nd(k);
        switch (n.kind) {
        case nk::empty: return pc;
        case nk::byte: put(pc, inst{op::byte, static_cast<std::uint8_t>(n.val)}); return pc + 1;
        case nk::set: {
            // a one-byte set is a byte
            const byteset& s = a.sets[n.val];
            if (s.count() == 1) {
                for (unsigned c = 0; c < 256; ++c)
                    if (s.test(c)) put(pc, inst{op::byte, static_cast<std::uint8_t>(c)});
            } else {
                put(pc, inst{op::set, 0, n.val});
            }
            return pc + 1;
        }
        case nk::assertion: put(pc, inst{op::assertion, static_cast<std::uint8_t>(n.val)}); return pc + 1;
        case nk::group: {
            put(pc, inst{op::save, 0, static_cast<std::uint16_t>(2 * n.val)});
            const int e = emit(n.child, pc + 1);
            put(e, inst{op::save, 0, static_cast<std::uint16_t>(2 * n.val + 1)});
            return e + 1;
        }
        case nk::concat:
            for (int c = n.child; c >= 0; c = nd(c).next) pc = emit(c, pc);
            return pc;
        case nk::alt: {
            // split L1, next; L1: c1; jmp end; next: split L2, next2; ... last: ck
            const int end = pc + static_cast<int>(code_size(a, k));
            for (int c = n.child; c >= 0; c = nd(c).next) {
                if (nd(c).next < 0) {
                    pc = emit(c, pc);
                } else {
                    const int body = pc + 1;
                    const int after = body + static_cast<int>(code_size(a, c)) + 1;
                    put(pc, inst{op::split, 0, 0, body, after});
                    const int e = emit(c, body);
                    put(e, inst{op::jmp, 0, 0, end});
                    pc = e + 1;
                }
            }
            return pc;
        }
        case nk::repeat: return emit_repeat(k, pc);
        }
        return pc;
    }

    constexpr inst split(bool greedy, int body, int out) const noexcept {
        return greedy ? inst{op::split, 0, 0, body, out} : inst{op::split, 0, 0, out, body};
    }

    constexpr int emit_repeat(int k, int pc) noexcept {
        const node& n = nd(k);
        const bool greedy = n.greedy != 0;
        const bool nul = n.reg >= 0;
        const auto reg = static_cast<std::uint16_t>(slot_base + n.reg);
        const int x = static_cast<int>(code_size(a, n.child));
        const int end = pc + static_cast<int>(code_size(a, k));
        if (n.max == rep_inf && !nul && n.min >= 1) {
            for (int r = 0; r + 1 < n.min; ++r) pc = emit(n.child, pc);
            const int loop = pc;
            pc = emit(n.child, pc);
            put(pc, split(greedy, loop, pc + 1));
            return pc + 1;
        }
        for (int r = 0; r < n.min; ++r) pc = emit(n.child, pc);
        if (n.max == rep_inf) {
            // L: split B, OUT; B: [save reg]; X; [progress reg OUT L | jmp L]; OUT:
            const int loop = pc;
            put(pc, split(greedy, pc + 1, end));
            ++pc;
            if (nul) put(pc++, inst{op::save, 0, reg});
            pc = emit(n.child, pc);
            if (nul) put(pc, inst{op::progress, 0, reg, end, loop});
            else put(pc, inst{op::jmp, 0, 0, loop});
            return pc + 1;
        }
        const int opt = n.max - n.min;
        for (int r = 0; r < opt; ++r) {
            const bool last = r + 1 == opt;
            put(pc, split(greedy, pc + 1, end));
            ++pc;
            if (nul && !last) put(pc++, inst{op::save, 0, reg});
            pc = emit(n.child, pc);
            if (nul && !last) {
                put(pc, inst{op::progress, 0, reg, end, pc + 1});
                ++pc;
            }
        }
        (void)x;
        return pc;
    }
};

/// A compiled pattern: the program and everything the matchers need, all computed at
/// compile time from the pattern text.
template <fixed_string P>
struct compiled {
    static constexpr std::size_t L = P.size();
    static constexpr ast<L> tree = parse<L>(P.chars);
    static constexpr bool parsed_ok = tree.err == errc::none;
    static constexpr std::size_t body_size = parsed_ok ? code_size(tree, tree.root) : 0;
    static constexpr bool too_large = body_size > max_program;
    static constexpr bool ok = parsed_ok && !too_large;
    static constexpr errc error = !parsed_ok ? tree.err : too_large ? errc::pattern_too_large : errc::none;
    static constexpr std::size_t error_offset = !parsed_ok ? tree.err_pos : 0;

    static constexpr int ngroups = ok ? tree.ngroups : 1;
    static constexpr int nregs = ok ? tree.nregs : 0;
    static constexpr int nslots = 2 * ngroups + nregs;
    static constexpr std::size_t size = ok ? body_size + 3 : 3; // save 0, body, save 1, match

    static constexpr carray<inst, size> make_code() noexcept {
        if constexpr (!ok) {
            carray<inst, size> c{};
            c[0] = inst{op::save, 0, 0};
            c[1] = inst{op::save, 0, 1};
            c[2] = inst{op::match};
            return c;
        } else {
            emitter<L, size> e{tree};
            e.slot_base = 2 * tree.ngroups;
            e.put(0, inst{op::save, 0, 0});
            const int end = e.emit(tree.root, 1);
            e.put(end, inst{op::save, 0, 1});
            e.put(end + 1, inst{op::match});
            return e.code;
        }
    }
    static constexpr carray<inst, size> code = make_code();

    /// Progress registers of the empty-matchable loops enclosing each instruction: a thread's
    /// future at such an instruction depends on which of them started at the current position.
    struct loop_nesting {
        carray<std::uint8_t, size> depth{};
        carray<carray<std::uint16_t, 8>, size> regs{};
        int max_depth = 0;
    };
    static constexpr loop_nesting make_nesting() noexcept {
        loop_nesting ln;
        const int base = 2 * ngroups;
        for (std::size_t ps = 0; ps < size; ++ps) {
            const inst& sv = code[ps];
            if (sv.o != op::save || sv.arg < base) continue;
            std::size_t pp = ps + 1;
            while (pp < size && !(code[pp].o == op::progress && code[pp].arg == sv.arg)) ++pp;
            for (std::size_t k = ps + 1; k <= pp && k < size; ++k) {
                if (ln.depth[k] < 8) ln.regs[k][ln.depth[k]] = sv.arg;
                ++ln.depth[k];
                if (ln.depth[k] > ln.max_depth) ln.max_depth = ln.depth[k];
            }
        }
        return ln;
    }
    static constexpr loop_nesting nesting = make_nesting();
    static constexpr int loop_depth = nesting.max_depth;

    static constexpr std::size_t nsets = ok && tree.nsets > 0 ? static_cast<std::size_t>(tree.nsets) : 1;
    static constexpr carray<byteset, nsets> make_sets() noexcept {
        carray<byteset, nsets> s{};
        for (std::size_t k = 0; k < nsets && k < static_cast<std::size_t>(tree.nsets); ++k) s[k] = tree.sets[k];
        return s;
    }
    static constexpr carray<byteset, nsets> sets = make_sets();

    /// Group names: index of the group called `name`, or -1.
    static constexpr int group_index(std::string_view name) noexcept {
        for (int g = 1; g < ngroups; ++g) {
            const auto gi = static_cast<std::size_t>(g);
            if (tree.name_len[gi] == name.size() &&
                P.view().substr(tree.name_pos[gi], tree.name_len[gi]) == name)
                return g;
        }
        return -1;
    }
};

/// Byte equivalence classes: bytes no instruction tells apart share a class.
struct byte_classes {
    carray<std::uint8_t, 256> map{}; ///< class of each byte
    int count = 1;                       ///< number of classes
};

/// Membership of byte c in the set consumed by instruction `in`.
template <class C>
constexpr bool accepts(const inst& in, unsigned c) noexcept {
    if (in.o == op::byte) return in.b == c;
    return C::sets[in.arg].test(c);
}

/// Bytes consumed by instruction `in`.
template <class C>
constexpr byteset consumed(const inst& in) noexcept {
    if (in.o == op::byte) {
        byteset b;
        b.set(in.b);
        return b;
    }
    return C::sets[in.arg];
}

template <class C>
constexpr byte_classes make_byte_classes() noexcept {
    // refine by every distinct byte and set used (not every instruction: counted
    // repetitions repeat them), keeping constant evaluation cheap: the classes are kept as
    // bytesets while refining (a set splits a class with a few word operations), and the
    // map of bytes is written once at the end
    byteset bytes_used;
    carray<bool, C::nsets> sets_used{};
    for (const inst& in : C::code) {
        if (in.o == op::byte) bytes_used.set(in.b);
        else if (in.o == op::set) sets_used[in.arg] = true;
    }
    carray<byteset, 256> cls{};
    int count = 1;
    cls[0].invert(); // every byte
    // each byte used its own class, unless it is alone in its class already
    int left = 256; // (bytes in class 0)
    for (unsigned w = 0; w < 4; ++w)
        for (std::uint64_t m = bytes_used.w[w]; m != 0 && left > 1; m &= m - 1, --left) {
            const std::uint64_t bit = m & (~m + 1);
            cls[0].w[w] &= ~bit;
            cls[static_cast<std::size_t>(count++)].w[w] = bit;
        }
    for (std::size_t k = 0; k < C::nsets; ++k) {
        if (!sets_used[k]) continue;
        const byteset& m = C::sets[k];
        const int n = count;
        for (int c = 0; c < n; ++c) {
            byteset in, out;
            for (int w = 0; w < 4; ++w) {
                in.w[w] = cls[static_cast<std::size_t>(c)].w[w] & m.w[w];
                out.w[w] = cls[static_cast<std::size_t>(c)].w[w] & ~m.w[w];
            }
            if ((in.w[0] | in.w[1] | in.w[2] | in.w[3]) == 0 || (out.w[0] | out.w[1] | out.w[2] | out.w[3]) == 0) continue;
            cls[static_cast<std::size_t>(c)] = in;
            cls[static_cast<std::size_t>(count++)] = out;
        }
    }
    byte_classes bc;
    bc.count = count;
    for (int c = 0; c < count; ++c)
        for (unsigned w = 0; w < 4; ++w)
            for (std::uint64_t m = cls[static_cast<std::size_t>(c)].w[w]; m != 0; m &= m - 1)
                bc.map[w * 64 + static_cast<unsigned>(__builtin_ctzll(m))] = static_cast<std::uint8_t>(c);
    return bc;
}

/// What the start of the pattern tells a searcher.
struct start_info {
    byteset first{};           ///< bytes a match can start with (when `has_first`)
    bool has_first = false;    ///< false when the pattern can match empty
    carray<char, 64> prefix{}; ///< literal every match starts with
    std::size_t prefix_len = 0;    ///< its length (0: none)
};

/// Walks the instructions reachable from pc0 without consuming a byte (assertions assumed
/// to pass, progress checks taken both ways): calls f(pc) once for each consuming
/// instruction reached, and returns whether the match instruction is reachable.
/// Scratch of `walk_free`, made once for many walks (constant evaluation pays for every
/// element it initialises): a pc is seen in the current walk when its mark is the stamp.
template <class C>
struct walk_space {
    carray<std::uint16_t, C::size> mark{};
    carray<std::int32_t, 2 * C::size + 2> stack; // only read below sp
    std::uint16_t stamp = 0;
};
template <class C, class F>
constexpr bool walk_free(walk_space<C>& ws, std::int32_t pc0, F&& f) noexcept {
    const std::uint16_t stamp = ++ws.stamp;
    std::size_t sp = 0;
    bool ends = false;
    ws.stack[sp++] = pc0;
    while (sp > 0) {
        const auto pc = static_cast<std::size_t>(ws.stack[--sp]);
        if (pc >= C::size || ws.mark[pc] == stamp) continue;
        ws.mark[pc] = stamp;
        const inst& in = C::code[pc];
        switch (in.o) {
        case op::byte:
        case op::set: f(pc); break;
        case op::match: ends = true; break;
        case op::split:
        case op::progress:
            ws.stack[sp++] = in.y;
            ws.stack[sp++] = in.x;
            break;
        case op::jmp: ws.stack[sp++] = in.x; break;
        case op::save:
        case op::assertion: ws.stack[sp++] = static_cast<std::int32_t>(pc + 1); break;
        }
    }
    return ends;
}
template <class C, class F>
constexpr bool walk_free(std::int32_t pc0, F&& f) noexcept {
    walk_space<C> ws{};
    return walk_free<C>(ws, pc0, f);
}

template <class C>
constexpr start_info make_start_info() noexcept {
    start_info si;
    // literal prefix: follow the straight line of saves, assertions and bytes from pc 0
    for (std::size_t pc = 0; pc < C::size && si.prefix_len < si.prefix.size(); ++pc) {
        const inst& in = C::code[pc];
        if (in.o == op::save || in.o == op::assertion) continue;
        if (in.o != op::byte) break;
        si.prefix[si.prefix_len++] = static_cast<char>(in.b);
    }
    // first bytes: every consuming instruction reachable without consuming
    const bool nullable_start = walk_free<C>(0, [&](std::size_t pc) { si.first.merge(consumed<C>(C::code[pc])); });
    si.has_first = !nullable_start;
    return si;
}

/// Width bounds of a subtree (wide_inf: unbounded).
inline constexpr std::size_t wide_inf = std::size_t{1} << 40;
template <std::size_t L>
constexpr void widths(const ast<L>& a, int k, std::size_t& lo, std::size_t& hi) noexcept {
    const node& nd = a.nodes[static_cast<std::size_t>(k)];
    auto cap = [](std::size_t v) { return v > wide_inf ? wide_inf : v; };
    switch (nd.kind) {
    case nk::empty:
    case nk::assertion: lo = hi = 0; return;
    case nk::byte:
    case nk::set: lo = hi = 1; return;
    case nk::group: widths(a, nd.child, lo, hi); return;
    case nk::concat:
        lo = hi = 0;
        for (int c = nd.child; c >= 0; c = a.nodes[static_cast<std::size_t>(c)].next) {
            std::size_t l = 0, h = 0;
            widths(a, c, l, h);
            lo = cap(lo + l);
            hi = cap(hi + h);
        }
        return;
    case nk::alt:
        lo = wide_inf;
        hi = 0;
        for (int c = nd.child; c >= 0; c = a.nodes[static_cast<std::size_t>(c)].next) {
            std::size_t l = 0, h = 0;
            widths(a, c, l, h);
            lo = l < lo ? l : lo;
            hi = h > hi ? h : hi;
        }
        return;
    case nk::repeat: {
        std::size_t l = 0, h = 0;
        widths(a, nd.child, l, h);
        lo = cap(l * nd.min);
        hi = (nd.max == rep_inf && h > 0) ? wide_inf : cap(h * nd.max);
        return;
    }
    }
}

/// A literal every match contains, at a distance in [pre_min, pre_max] from the match start.
struct inner_literal {
    carray<char, 64> text{}; ///< the literal
    std::size_t len = 0;         ///< its length (0: none)
    std::size_t pre_min = 0;     ///< least bytes of the match before it
    std::size_t pre_max = 0;     ///< most bytes of the match before it (wide_inf: unbounded)
};

template <class C>
constexpr inner_literal make_inner_literal() noexcept {
    inner_literal best;
    const auto& a = C::tree;
    int r = a.root;
    while (r >= 0 && a.nodes[static_cast<std::size_t>(r)].kind == nk::group) r = a.nodes[static_cast<std::size_t>(r)].child;
    if (r < 0 || a.nodes[static_cast<std::size_t>(r)].kind != nk::concat) return best;
    std::size_t lo = 0, hi = 0;
    inner_literal cur;
    for (int c = a.nodes[static_cast<std::size_t>(r)].child; c >= 0; c = a.nodes[static_cast<std::size_t>(c)].next) {
        const node& nd = a.nodes[static_cast<std::size_t>(c)];
        if (nd.kind == nk::byte && cur.len < cur.text.size()) {
            if (cur.len == 0) {
                cur.pre_min = lo;
                cur.pre_max = hi;
            }
            cur.text[cur.len++] = static_cast<char>(nd.val);
            if (cur.len > best.len) best = cur;
        } else {
            cur.len = 0;
        }
        std::size_t l = 0, h = 0;
        widths(a, c, l, h);
        lo = lo + l > wide_inf ? wide_inf : lo + l;
        hi = hi + h > wide_inf ? wide_inf : hi + h;
    }
    return best;
}

/// One-pass transition of the table: taking byte class c in a state.
struct op_entry {
    std::uint16_t next = 0xFFFF;   ///< next state (0xFFFF: no transition)
    std::uint8_t asserts = 0;      ///< assertions to check before taking it
    std::uint8_t match_first = 0;  ///< the state's match has priority over this transition
    std::uint32_t pad = 0;
    std::uint64_t mask = 0;        ///< slots set to the current position
};

/// One-pass state: its match exit and its self-loop shortcut.
struct op_state {
    std::uint8_t has_match = 0;     ///< the pattern can end here
    std::uint8_t match_asserts = 0; ///< assertions the end needs
    std::uint8_t loop = 0;          ///< 0 none, 1 memchr(loop_byte) stops it, 2 loop_set
    std::uint8_t loop_byte = 0;     ///< the one byte that leaves the loop (loop == 1)
    std::uint16_t loop_table = 0;   ///< index of its stop table (loop == 2)
    std::uint64_t match_mask = 0;   ///< slots set to the position on matching
    byteset loop_set{};             ///< bytes that stay in this state without any action
};

/// Compact run-time copy of a one-pass state.
struct op_rt_state {
    std::uint64_t match_mask = 0;  ///< slots set to the position on matching
    std::uint16_t loop_table = 0;  ///< index of its stop table (loop == 2)
    std::uint8_t has_match = 0;    ///< the pattern can end here
    std::uint8_t match_asserts = 0;///< assertions the end needs
    std::uint8_t loop = 0;         ///< 0 none, 1 memchr(loop_byte) stops it, 2 stop table
    std::uint8_t loop_byte = 0;    ///< the one byte that leaves the loop (loop == 1)
    /// A literal run: the state goes on only with these `lit_len` bytes (0: no run; else 4 to
    /// 16), one way each (no slots, assertions, match or self-loop on the way), to state
    /// `lit_next`; a run compares them at once instead of stepping byte by byte.
    std::uint8_t lit_len = 0;
    std::uint16_t lit_next = 0;
    std::uint32_t lit_fast = 0;    ///< (group-0-only tables) the step word of entering lit_next
    std::uint8_t lit[16]{};
};

/// Kinds of lean one-pass steps (see onepass::with_stops::fast).
inline constexpr std::uint32_t lean_plain = 0, lean_fallback = 1, lean_slow = 2, lean_literal = 3;
/// Flags of the group-0-only table (see onepass::with_stops::fast).
inline constexpr std::uint32_t simple_accept = 1u << 31, simple_loop = 1u << 30, simple_literal = 1u << 29,
                               simple_dead = 0xFFFFFFFFu, simple_row = simple_literal - 1;
/// The shortest literal run worth a compare of 16 bytes.
inline constexpr std::size_t min_literal_run = 4;

/// Upper bounds for building one-pass tables.
inline constexpr std::size_t onepass_max_program = 256;

template <class C>
struct onepass_builder {
    static constexpr bool candidate = C::ok && C::size <= onepass_max_program && C::nslots <= 64;
    static constexpr byte_classes bc = make_byte_classes<C>();

    /// The states: 0 the start, then one per consuming instruction in program order.
    struct numbering {
        carray<std::int32_t, C::size> state_of{};    ///< a consuming pc's state, else -1
        carray<std::int32_t, C::size + 1> pc_of{};   ///< a state's pc (state 0: none)
        int count = 1;                                   ///< states
    };
    static constexpr numbering make_numbering() noexcept {
        numbering n{};
        for (std::size_t pc = 0; pc < C::size; ++pc) {
            const op o = C::code[pc].o;
            n.state_of[pc] = -1;
            if (o == op::byte || o == op::set) {
                n.pc_of[static_cast<std::size_t>(n.count)] = static_cast<std::int32_t>(pc);
                n.state_of[pc] = n.count++;
            }
        }
        return n;
    }
    static constexpr numbering states = make_numbering();
    static constexpr int nstates_all = states.count;
    /// Where state s goes on from: the pc after its instruction (the start: pc 0).
    static constexpr std::int32_t start_pc(int s) noexcept {
        return s == 0 ? 0 : states.pc_of[static_cast<std::size_t>(s)] + 1;
    }

    struct centry {
        std::int32_t pc;
        std::uint8_t asserts;
        std::uint64_t mask;
    };
    /// Scratch of `closure`, made once for every state's closure (constant evaluation pays
    /// for every element it initialises): a pc is seen in the current closure when its
    /// mark is the closure's stamp.
    struct closure_space {
        carray<std::uint16_t, C::size> mark{};
        carray<std::uint8_t, C::size> under{}; // seen under an assertion (when marked)
        carray<centry, 2 * C::size + 2> stack;  // only read below sp
        std::uint16_t stamp = 0;
    };

    // Static epsilon closure from pc0 in priority order. Calls out(pc, mask, asserts) for
    // each consuming or match instruction reached. False when the closure is not static.
    template <class Out>
    static constexpr bool closure(closure_space& cs, std::int32_t pc0, Out&& out) noexcept {
        const std::uint16_t stamp = ++cs.stamp;
        std::size_t sp = 0;
        cs.stack[sp++] = centry{pc0, 0, 0};
        while (sp > 0) {
            const centry e = cs.stack[--sp];
            const auto pc = static_cast<std::size_t>(e.pc);
            if (cs.mark[pc] == stamp) {
                if (cs.under[pc] != 0 || e.asserts != 0) return false;
                continue;
            }
            cs.mark[pc] = stamp;
            cs.under[pc] = e.asserts != 0 ? 1 : 0;
            const inst& in = C::code[pc];
            switch (in.o) {
            case op::byte:
            case op::set:
            case op::match: out(e.pc, e.mask, e.asserts); break;
            case op::split:
                cs.stack[sp++] = centry{in.y, e.asserts, e.mask};
                cs.stack[sp++] = centry{in.x, e.asserts, e.mask};
                break;
            case op::jmp: cs.stack[sp++] = centry{in.x, e.asserts, e.mask}; break;
            case op::save:
                cs.stack[sp++] = centry{e.pc + 1, e.asserts, e.mask | (std::uint64_t{1} << in.arg)};
                break;
            case op::assertion:
                cs.stack[sp++] = centry{e.pc + 1, static_cast<std::uint8_t>(e.asserts | in.b), e.mask};
                break;
            case op::progress: return false;
            }
        }
        return true;
    }
};

/// The one-pass table of a pattern (empty when the pattern is not one-pass).
template <class C>
struct onepass {
    using B = onepass_builder<C>;
    static constexpr int nclasses = B::bc.count;

    // First pass: decide whether the pattern is one-pass.
    static constexpr bool decide() noexcept {
        if constexpr (!B::candidate) {
            return false;
        } else {
            typename B::closure_space cs{};
            for (int s = 0; s < B::nstates_all; ++s) {
                byteset taken;
                int matches = 0;
                bool disjoint = true; // no byte starts two ways
                const bool static_ok = B::closure(cs, B::start_pc(s), [&](std::int32_t pc, std::uint64_t, std::uint8_t) {
                    const inst& in = C::code[static_cast<std::size_t>(pc)];
                    if (in.o == op::match) {
                        ++matches;
                        return;
                    }
                    if (in.o == op::byte) {
                        if (taken.test(in.b)) disjoint = false;
                        taken.set(in.b);
                        return;
                    }
                    const byteset& b = C::sets[in.arg];
                    for (int w = 0; w < 4; ++w) {
                        if (taken.w[w] & b.w[w]) disjoint = false;
                        taken.w[w] |= b.w[w];
                    }
                });
                if (!static_ok || !disjoint || matches > 1) return false;
            }
            return true;
        }
    }
    static constexpr bool ok = decide();
    static constexpr int nstates = ok ? B::nstates_all : 1;
    static constexpr int ncls = ok ? nclasses : 1;

    /// The transitions (the run's slow path reads them) and the states as built.
    struct tables {
        carray<op_entry, static_cast<std::size_t>(nstates * ncls)> trans{};
        carray<op_state, static_cast<std::size_t>(nstates)> states{};
        bool any_asserts = false; ///< a transition or a match needs an assertion
        bool any_match_first = false; ///< a state's match has priority over going on
        std::size_t loop_tables = 0;  ///< states whose self-loop needs a stop table (loop == 2)
    };

    // (constant evaluation pays for every call: the loops below test bits in place)
    static constexpr tables build() noexcept {
        tables t{};
        if constexpr (ok) {
            // the bytes of each class (a class lies wholly inside or outside every set)
            carray<byteset, static_cast<std::size_t>(ncls)> class_bytes{};
            for (unsigned c = 0; c < 256; ++c) class_bytes[B::bc.map[c]].w[c >> 6] |= std::uint64_t{1} << (c & 63u);
            typename B::closure_space cs{};
            for (int s = 0; s < nstates; ++s) {
                op_state& st = t.states[static_cast<std::size_t>(s)];
                const std::size_t row = static_cast<std::size_t>(s * ncls);
                B::closure(cs, B::start_pc(s), [&](std::int32_t pc, std::uint64_t mask, std::uint8_t asserts) {
                    const inst& in = C::code[static_cast<std::size_t>(pc)];
                    if (in.o == op::match) {
                        st.has_match = 1;
                        st.match_asserts = asserts;
                        st.match_mask = mask;
                        if (asserts != 0) t.any_asserts = true;
                        return;
                    }
                    const auto next = static_cast<std::uint16_t>(B::states.state_of[static_cast<std::size_t>(pc)]);
                    const bool one = in.o == op::byte; // (one class: the byte's own)
                    const int first = one ? B::bc.map[in.b] : 0, last = one ? first + 1 : ncls;
                    const byteset& set = C::sets[one ? 0 : in.arg];
                    for (int k = first; k < last; ++k) {
                        const byteset& cb = class_bytes[static_cast<std::size_t>(k)];
                        if (!one && ((cb.w[0] & set.w[0]) | (cb.w[1] & set.w[1]) | (cb.w[2] & set.w[2]) | (cb.w[3] & set.w[3])) == 0)
                            continue;
                        op_entry& e = t.trans[row + static_cast<std::size_t>(k)];
                        e.next = next;
                        e.asserts = asserts;
                        e.mask = mask;
                        e.match_first = st.has_match;
                        if (asserts != 0) t.any_asserts = true; // (a set that takes no byte: no entry, no flag)
                        if (st.has_match) t.any_match_first = true;
                    }
                });
                // self loop shortcut: bytes that come back to s with nothing to do
                if (st.has_match && st.match_asserts != 0) continue;
                byteset loop;
                for (std::size_t k = 0; k < static_cast<std::size_t>(ncls); ++k) {
                    const op_entry& e = t.trans[row + k];
                    if (e.next != s || e.mask != 0 || e.asserts != 0 || e.match_first != 0) continue;
                    for (int w = 0; w < 4; ++w) loop.w[w] |= class_bytes[k].w[w];
                }
                const int stay = __builtin_popcountll(loop.w[0]) + __builtin_popcountll(loop.w[1]) +
                                 __builtin_popcountll(loop.w[2]) + __builtin_popcountll(loop.w[3]);
                if (stay < 2) continue;
                st.loop_set = loop;
                st.loop = 2;
                if (stay == 255) {
                    st.loop = 1;
                    for (unsigned w = 0; w < 4; ++w)
                        if (~loop.w[w] != 0) st.loop_byte = static_cast<std::uint8_t>(w * 64 + static_cast<unsigned>(__builtin_ctzll(~loop.w[w])));
                } else {
                    ++t.loop_tables;
                }
            }
        }
        return t;
    }
    static constexpr tables table = build();

    /// Per self-loop state: 1 for the bytes that leave the loop.
    static constexpr std::size_t nstop = table.loop_tables > 0 ? table.loop_tables : 1;
    /// What the run reads besides the transitions (`table.trans`).
    struct with_stops {
        carray<op_rt_state, static_cast<std::size_t>(nstates)> states{};
        carray<carray<std::uint8_t, 256>, nstop> stops{};
        /// Per (state, class), the step in one word. For `simple` patterns: the next state's
        /// row (state * ncls), plus simple_accept when it can end a match, simple_loop
        /// when it has a self-loop shortcut and simple_literal when a literal run starts
        /// there; simple_dead when there is no transition.
        /// Otherwise: the next state in the low 16 bits and, above them, what the step
        /// needs: lean_plain (nothing), lean_literal (nothing, and a literal run starts at
        /// the next state), lean_fallback (the state's match is a fallback to remember,
        /// nothing else) or lean_slow (anything else: no transition, slots, assertions,
        /// match priority, a self-loop state next).
        carray<std::uint32_t, static_cast<std::size_t>(nstates * ncls)> fast{};
        bool any_asserts = false;
    };
    /// Only group 0, no assertions, no match that takes priority over going on: a match is
    /// the start plus the last accepting position before the automaton stops, so the run
    /// needs no slots.
    static constexpr bool simple = ok && C::nslots == 2 && !table.any_asserts && !table.any_match_first;
    static constexpr with_stops make_stops() noexcept {
        with_stops w{};
        w.any_asserts = table.any_asserts;
        std::size_t k = 0;
        for (std::size_t i = 0; i < table.states.size(); ++i) {
            const op_state& st = table.states[i];
            op_rt_state& r = w.states[i];
            r.match_mask = st.match_mask;
            r.has_match = st.has_match;
            r.match_asserts = st.match_asserts;
            r.loop = st.loop;
            r.loop_byte = st.loop_byte;
            if (st.loop != 2) continue;
            r.loop_table = static_cast<std::uint16_t>(k);
            for (unsigned c = 0; c < 256; ++c) w.stops[k][c] = ((st.loop_set.w[c >> 6] >> (c & 63u)) & 1u) != 0 ? 0 : 1;
            ++k;
        }
        // literal runs: the states that go on with one byte only, one way, chained
        if constexpr (ok) {
            constexpr auto nc = static_cast<std::size_t>(ncls);
            carray<std::uint16_t, nc> class_size{};
            carray<std::uint8_t, nc> class_byte{};
            for (unsigned c = 0; c < 256; ++c) {
                ++class_size[B::bc.map[c]];
                class_byte[B::bc.map[c]] = static_cast<std::uint8_t>(c);
            }
            carray<std::int32_t, static_cast<std::size_t>(nstates)> only{}; // the one class, or -1
            for (std::size_t i = 0; i < table.states.size(); ++i) {
                only[i] = -1;
                const op_state& st = table.states[i];
                if (st.has_match || st.loop != 0) continue;
                std::int32_t one = -1;
                bool several = false;
                for (std::size_t c = 0; c < nc && !several; ++c) {
                    if (table.trans[i * nc + c].next == 0xFFFF) continue;
                    several = one >= 0;
                    one = static_cast<std::int32_t>(c);
                }
                if (several || one < 0) continue;
                const op_entry& e = table.trans[i * nc + static_cast<std::size_t>(one)];
                // (a group-0-only walk sets no slots: its start's step may begin a run too)
                if ((e.mask == 0 || simple) && e.asserts == 0 && e.match_first == 0 && class_size[static_cast<std::size_t>(one)] == 1)
                    only[i] = one;
            }
            for (std::size_t i = 0; i < table.states.size(); ++i) {
                std::size_t len = 0, at = i;
                while (len < 16 && only[at] >= 0) {
                    const auto c = static_cast<std::size_t>(only[at]);
                    w.states[i].lit[len++] = class_byte[c];
                    at = table.trans[at * nc + c].next;
                }
                if (len < min_literal_run) continue;
                w.states[i].lit_len = static_cast<std::uint8_t>(len);
                w.states[i].lit_next = static_cast<std::uint16_t>(at);
            }
        }
        const auto simple_word = [&](std::size_t to) {
            const op_state& st = table.states[to];
            return static_cast<std::uint32_t>(to) * static_cast<std::uint32_t>(ncls) | (st.has_match ? simple_accept : 0u) |
                   (st.loop != 0 ? simple_loop : 0u) | (w.states[to].lit_len != 0 ? simple_literal : 0u);
        };
        for (std::size_t i = 0; i < table.states.size(); ++i)
            if (w.states[i].lit_len != 0) w.states[i].lit_fast = simple_word(w.states[i].lit_next);
        for (std::size_t i = 0; i < table.trans.size(); ++i) {
            const op_entry& e = table.trans[i];
            if constexpr (simple) {
                w.fast[i] = e.next == 0xFFFF ? simple_dead : simple_word(e.next);
            } else {
                const op_state& from = table.states[i / static_cast<std::size_t>(ncls)];
                std::uint32_t kind = lean_slow;
                if (e.next != 0xFFFF && e.mask == 0 && e.asserts == 0 && table.states[e.next].loop == 0) {
                    if (!from.has_match) kind = w.states[e.next].lit_len != 0 ? lean_literal : lean_plain;
                    else if (from.match_asserts == 0 && !e.match_first) kind = lean_fallback;
                }
                w.fast[i] = (kind << 16) | e.next;
            }
        }
        return w;
    }
    static constexpr with_stops loops = make_stops();
    static constexpr const auto& stop_tables = loops.stops;
};

/// Most consuming instructions the bit-parallel filter handles (one 64-bit word of states).
inline constexpr std::size_t bitnfa_max_positions = 64;

/// Bit-parallel position automaton over the consuming instructions of a program: a state
/// is the set of instructions that just consumed a byte, one bit each. Assertions are
/// assumed to hold and progress checks to go both ways, so it accepts a superset of the
/// pattern's matches: its "no match" is exact, and it finds that at a few nanoseconds a
/// byte, which lets the matchers skip the Pike VM on inputs that cannot match.
template <class C>
struct bitnfa {
    static constexpr std::size_t count_positions() noexcept {
        std::size_t k = 0;
        for (const inst& in : C::code) k += (in.o == op::byte || in.o == op::set) ? 1 : 0;
        return k;
    }
    static constexpr std::size_t npositions = count_positions();
    static constexpr bool ok = C::ok && npositions > 0 && npositions <= bitnfa_max_positions;
    static constexpr std::size_t nchunks = ok ? (npositions + 3) / 4 : 1; // 4 positions a chunk
    static constexpr auto nclasses = static_cast<std::size_t>(onepass_builder<C>::bc.count);

    struct tables {
        carray<std::uint64_t, nclasses> on_class{};               ///< positions consuming each byte class
        carray<carray<std::uint64_t, 16>, nchunks> follow{}; ///< per 4-position chunk: union of followers
        std::uint64_t start = 0;      ///< positions a match can begin with
        std::uint64_t accept = 0;     ///< positions after which the match can end
        bool start_accepts = false;   ///< the empty string may match
    };

    /// Position (bit) of each consuming instruction, -1 for the others.
    static constexpr carray<std::int32_t, C::size> make_pos_of() noexcept {
        carray<std::int32_t, C::size> p{};
        std::int32_t k = 0;
        for (std::size_t pc = 0; pc < C::size; ++pc) {
            const op o = C::code[pc].o;
            p[pc] = (o == op::byte || o == op::set) ? k++ : -1;
        }
        return p;
    }

    /// Positions reachable from pc without consuming; `ends`: the match is reachable too.
    static constexpr std::uint64_t closure(walk_space<C>& ws, const carray<std::int32_t, C::size>& pos_of,
                                           std::int32_t pc0, bool& ends) noexcept {
        std::uint64_t set = 0;
        ends = walk_free<C>(ws, pc0, [&](std::size_t pc) { set |= std::uint64_t{1} << pos_of[pc]; });
        return set;
    }

    static constexpr tables build() noexcept {
        tables t{};
        if constexpr (ok) {
            const auto pos_of = make_pos_of();
            const auto& bc = onepass_builder<C>::bc;
            carray<unsigned, 256> rep{}; // a representative byte of each byte class
            for (unsigned c = 256; c-- > 0;) rep[bc.map[c]] = c;
            auto& on_class = t.on_class;
            walk_space<C> ws{};
            t.start = closure(ws, pos_of, 0, t.start_accepts);
            carray<std::uint64_t, bitnfa_max_positions> follow_of{};
            for (std::size_t pc = 0; pc < C::size; ++pc) {
                const inst& in = C::code[pc];
                if (pos_of[pc] < 0) continue;
                const auto k = static_cast<std::size_t>(pos_of[pc]);
                if (in.o == op::byte) { // (one class: the byte's own; no calls in these loops)
                    on_class[bc.map[in.b]] |= std::uint64_t{1} << k;
                } else {
                    const byteset& set = C::sets[in.arg];
                    for (std::size_t cl = 0; cl < static_cast<std::size_t>(bc.count); ++cl)
                        if (((set.w[rep[cl] >> 6] >> (rep[cl] & 63u)) & 1u) != 0) on_class[cl] |= std::uint64_t{1} << k;
                }
                bool ends = false;
                follow_of[k] = closure(ws, pos_of, static_cast<std::int32_t>(pc + 1), ends);
                if (ends) t.accept |= std::uint64_t{1} << k;
            }
            for (std::size_t ch = 0; ch < nchunks; ++ch)
                for (unsigned v = 1; v < 16; ++v) { // a set of 4 positions: its lowest one plus the rest
                    const std::size_t low = ch * 4 + static_cast<unsigned>(std::countr_zero(v));
                    t.follow[ch][v] = t.follow[ch][v & (v - 1)] | (low < npositions ? follow_of[low] : 0);
                }
        }
        return t;
    }
    static constexpr tables table = build();
};

} // namespace logscan::regex_internal

#endif // LOGSCAN_REGEX_PROGRAM_HPP_INCLUDED
