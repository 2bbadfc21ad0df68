/// SPDX-License-Identifier: MIT
/// \file parallel.hpp
/// One input parsed in parts, in parallel, with output identical to one thread (the driver of
/// `logscan --threads N`, usable by any program). Needs threads: link the CMake target
/// `logscan::parallel` (the library with `Threads::Threads`); the other headers need none.
/// Unlike the parsers it allocates: each part's bytes and output (at most 2N parts at once).
///
/// \code
/// #include <logscan/parallel.hpp>
/// // Out: what a part's visitor writes to; writer() and clear() (the command's NDJSON parts)
/// using slot = logscan::part_slot<logscan::paddle_log::parser, logscan::paddle_log::ndjson_visitor, my_out>;
/// logscan::parts_count count;
/// std::uint64_t errors = 0;
/// logscan::error e = logscan::parse_in_parts<slot>(
///     src, {.threads = 4, .part_bytes = 256 << 10}, logscan::paddle_log::split_point,
///     [] { return std::make_unique<slot>(); },          // a slot (its Out built from the arguments)
///     [&](slot& s) { write(s.out); },                   // a kept part's output so far, in input order
///     errors, count);
/// \endcode
///
/// The calling thread reads the input and cuts it into parts of about part-size bytes at the
/// format's `split_point` places (`logscan::find_split`: the first such place from part-size
/// bytes into the part to half a part further, else the first line start there). N workers parse
/// the parts, each with a fresh parser that numbers lines and offsets from where its part
/// starts (`parser::start_at`), into an output buffer of its own; at most 2N parts are in
/// flight, so memory stays bounded.
///
/// Then, in order: a part's output is kept when the parser of the part before it ended at
/// rest (`parser::at_rest`: nothing it read can change a later record, and `finish()` would
/// add none): the fresh parser saw what the one before would have seen. Otherwise (a record
/// straddles the cut) the part's output is dropped and the parser of the part before reads
/// the part itself, as one thread would have. So the result is the one-thread result whatever
/// the cuts; the cuts only decide how much runs in parallel. This step and the drain of what
/// the kept parser holds run on whichever thread finds the oldest part in flight parsed: a
/// worker after its parse, or the calling thread when it has no room to read ahead. Never two
/// at once, so `drain` needs no lock of its own, but it may run on any of these threads.
#ifndef LOGSCAN_PARALLEL_HPP_INCLUDED
#define LOGSCAN_PARALLEL_HPP_INCLUDED

#include "config.hpp"
#include "error.hpp"
#include "format.hpp"
#include "lines.hpp"
#include "source.hpp"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <cstddef>
#include <exception>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace logscan {

/// What every part of parse_in_parts holds, whatever its output: the output (`Out`, made
/// first and gone last), its bytes and where they start in the input, its visitor and parser,
/// and the hand-over of a format whose state at rest is more than a mode (format.hpp's
/// `resume`). part_slot below and the Python module's column_part add what they write.
template <class Out, class Visitor, class Parser>
struct part_reading {
    using visitor_type = Visitor;
    using parser_type = Parser;

    Out out;
    std::optional<Visitor> vis;
    std::optional<Parser> parser;
    std::string bytes;                      // the part
    std::uint64_t lines_before = 0, offset = 0; // where it starts in the input
    std::uint64_t units_before = 0;         // what the parts before hold of what a resumed parser counts (format.hpp's `part_units`)
    bool starts_line = true;                // it begins at a line's start (not where a part with no line end was cut)
    logscan::format_options options{};      // the parser's settings (its longest line, ...)
    bool parsed = false;                    // (guarded by the driver's mutex)
    bool at_rest = false;

    template <class... A>
    explicit part_reading(A&&... a) : out(std::forward<A>(a)...) {}

    static constexpr bool resumable = requires(Parser& p) { p.resume(0); };
    // What a part's bytes hold of what a resumed parser counts (the calling thread's count).
    static std::uint64_t part_units(std::string_view b) noexcept
        requires resumable
    {
        return Parser::part_units(b);
    }
    // A fresh parser over `vis` (made by the caller) reads the part, resumed after the units
    // before it when not the first.
    void read_fresh() {
        parser.emplace(*vis, options);
        parser->start_at(lines_before, offset);
        if constexpr (resumable)
            if (offset != 0) parser->resume(units_before);
        read(bytes);
    }
    // This parser reads on.
    void read(std::string_view more) {
        (void)parser->feed(more);
        at_rest = parser->at_rest();
    }
    // A part's fresh parser read it as the parser before would, when that one ends at rest
    // (and the part begins a line: where start_at starts; and, resumed, where that one ended).
    bool takes_over(const part_reading& before) const noexcept {
        if constexpr (resumable) return starts_line && before.parser->resumes(units_before);
        else return starts_line;
    }
    // Kept after `before`: what its fresh parser could not guess, from the parser before.
    void inherit(const part_reading& before) noexcept {
        if constexpr (resumable) parser->inherit(*before.parser);
    }
    void finish() { (void)parser->finish(); }
    // The parser and visitor gone (the output is the caller's to clear).
    void drop_parser() noexcept {
        parser.reset();
        vis.reset();
        at_rest = false;
    }
};

/// One part: its bytes, where it starts, and its parser, visitor and output. Out has
/// `writer()` (what the visitor writes to) and `clear()` (drops what was written).
template <template <class> class Parser, template <class> class Visitor, class Out>
struct part_slot
    : part_reading<Out, Visitor<std::remove_reference_t<decltype(std::declval<Out&>().writer())>>,
                   Parser<Visitor<std::remove_reference_t<decltype(std::declval<Out&>().writer())>>>> {
    using writer_type = std::remove_reference_t<decltype(std::declval<Out&>().writer())>;
    using visitor_type = Visitor<writer_type>;

    template <class... A>
    explicit part_slot(A&&... a) : part_slot::part_reading(std::forward<A>(a)...) {}

    // A fresh parser reads the part.
    void parse() {
        release();
        this->vis.emplace(visitor_type{this->out.writer()}); // (an aggregate: no parenthesised init in clang 14)
        this->read_fresh();
    }
    std::uint64_t errors() const noexcept { return this->vis->errors; }
    // (the first error record, where the visitor keeps it: record.hpp's ndjson and counting visitors)
    error first_error() const noexcept {
        if constexpr (requires { this->vis->first_error; }) return this->vis->first_error;
        else return {};
    }
    void release() {
        this->drop_parser();
        this->out.clear();
    }
};

namespace internal {
// The number of '\n' in s (16 bytes at a time with SSE2, counted in byte lanes summed every
// 255 blocks: a JSON trace has a newline every 20 bytes, where a memchr call per newline
// would cost more than the parse's share).
inline std::uint64_t newlines(std::string_view s) {
    std::uint64_t n = 0;
    const char* p = s.data();
    const char* const end = p + s.size();
#if LOGSCAN_SSE2
    const __m128i nl = _mm_set1_epi8('\n'), zero = _mm_setzero_si128();
    while (end - p >= 16) {
        __m128i lanes = zero; // (each byte lane counts up to 255 newlines)
        for (int k = 0; k < 255 && end - p >= 16; ++k, p += 16)
            lanes = _mm_sub_epi8(lanes, _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)), nl));
        const __m128i sums = _mm_sad_epu8(lanes, zero); // (two 64-bit sums of 8 lanes each)
        n += static_cast<std::uint64_t>(_mm_cvtsi128_si64(sums)) + static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(sums, sums)));
    }
#endif
    for (; p != end; ++p) n += *p == '\n' ? 1 : 0;
    return n;
}
} // namespace internal

/// How to cut: `threads` workers, parts of about `part_bytes` bytes.
struct parts_options {
    unsigned threads = 2;
    std::size_t part_bytes = std::size_t{256} << 10;
};

/// How the parts went: kept as parsed in parallel, or read again by the parser before them.
struct parts_count {
    std::uint64_t kept = 0, redone = 0;
};

/// Parses `src` in parts with Slot (a part_slot, or a type with its members `bytes`,
/// `lines_before`, `offset`, `starts_line`, `parsed`, `at_rest`, `parse()`, `read(more)`,
/// `takes_over(before)` or `takes_over()` (false: this part's fresh reading is not to be kept
/// after the slot `before`, whose parser ended at rest; that parser reads the part), `finish()`,
/// `errors()`, `release()`, and optionally `units_before` with a static `part_units(bytes)`
/// (summed over the parts before each, by the calling thread: a resumed parser's guess, see
/// format.hpp's `resume`) and `inherit(before)` (a kept part's parser takes from the one
/// before what it could not guess), and optionally `stopped()` (true: the
/// parser that has read everything kept so far ended, and nothing more is read from `src`)
/// and `first_error()` (the part's first error record, then given in `*first`: the input's
/// first, as the parts are taken in order; `first` may be null));
/// `make()` returns a new Slot (unique_ptr),
/// `drain(slot)` takes what a kept part's output holds so far, in input order (on one thread at
/// a time, not always the caller's: see above). Returns the
/// source's error (everything read before it is parsed); adds the error records to `errors`
/// and the parts to `count`. `split_point(previous, next)` is the format's.
template <class Slot, class Source, class Point, class Make, class Drain>
logscan::error parse_in_parts(Source& src, const parts_options& o, Point split_point, Make make, Drain drain,
                              std::uint64_t& errors, parts_count& count, error* first = nullptr) {
    const unsigned threads = o.threads == 0 ? 1 : o.threads;
    const std::size_t part = o.part_bytes == 0 ? 1 : o.part_bytes;
    const std::size_t in_flight = 2 * std::size_t{threads};

    std::vector<std::unique_ptr<Slot>> pool;
    std::vector<Slot*> idle;
    // a kept part's error records counted (its first, the input's first when none came before)
    const auto note_errors = [&](const Slot& s) {
        const std::uint64_t n = s.errors();
        if constexpr (requires { s.first_error(); })
            if (first != nullptr && errors == 0 && n != 0) *first = s.first_error();
        errors += n;
    };

    // reading: the next part's bytes (those after the last cut, then the source's)
    std::string carry;
    std::uint64_t lines_before = 0, offset = 0, bytes_read = 0, units = 0;
    bool eof = false, line_start = true;
    logscan::error failure{};
    auto fill = [&](Slot* s) -> bool {
        s->bytes.swap(carry);
        carry.clear();
        while (!eof && s->bytes.size() < part + part / 2) {
            const logscan::chunk c = src.next();
            if (c.code != logscan::error_code::none) {
                failure = logscan::chunk_error(c, bytes_read); // (at the bytes read before it, as pump says it)
                eof = true;
            } else if (c.data.empty()) {
                eof = true;
            } else {
                s->bytes.append(c.data);
                bytes_read += c.data.size();
            }
        }
        if (s->bytes.empty()) return false;
        const std::string_view b(s->bytes);
        std::size_t e = b.size();
        if (!eof) {
            const std::size_t nl = b.rfind('\n');
            // (no line end at all: a part that ends inside a line, which the next part's
            // parser cannot start after, so that part is read again by this one)
            if (nl != std::string_view::npos) e = b.size() <= part ? nl + 1 : logscan::find_split(b.substr(0, nl + 1), part, part / 2, split_point);
        }
        carry.assign(b.substr(e));
        s->bytes.resize(e);
        s->lines_before = lines_before;
        s->offset = offset;
        s->starts_line = line_start;
        line_start = b[e - 1] == '\n';
        lines_before += internal::newlines(s->bytes);
        offset += e;
        if constexpr (requires { Slot::part_units(std::string_view()); }) {
            s->units_before = units;
            units += Slot::part_units(s->bytes);
        }
        return true;
    };

    // Shared, under `m`: the parts to parse (`queue`), the parts in flight in input order
    // (`order`, parsed or not), the slots free to fill (`idle`). The sequence (a part kept or
    // read again by the parser before it, then drained, in input order) is run by whichever
    // thread finds the oldest part in flight parsed and no one sequencing: a worker after its
    // parse, or this thread when it has no room to read ahead. So the drain (an output
    // written, frames()' columns appended) runs beside the reading, not after it on this
    // thread alone. An exception (bad_alloc, a drain's) is kept and thrown again by this thread.
    std::mutex m;
    std::condition_variable work_cv, done_cv;
    std::deque<Slot*> queue, order;
    bool closing = false, sequencing = false, stop = false;
    std::exception_ptr thrown;
    Slot* chain = nullptr; // the parser that has read everything kept so far (the sequencer's)
    const auto takes_over = [](const Slot& s, const Slot& before) {
        if constexpr (requires { s.takes_over(before); }) return s.takes_over(before);
        else return s.takes_over();
    };
    // (`l` holds m on entry and on return; released while a part is sequenced)
    auto sequence = [&](std::unique_lock<std::mutex>& l) {
        while (!sequencing && !thrown && !order.empty() && order.front()->parsed) {
            Slot* s = order.front();
            order.pop_front();
            sequencing = true;
            const bool after_stop = stop;
            l.unlock();
            Slot* freed = nullptr;
            bool stopped = false;
            std::exception_ptr e;
#if defined(__cpp_exceptions) && __cpp_exceptions
            try {
#endif
                if (after_stop) { // (the parser before ended: a part still in flight is dropped unread)
                    s->release();
                    freed = s;
                } else if (chain == nullptr || (chain->at_rest && takes_over(*s, *chain))) {
                    if (chain != nullptr) {
                        if constexpr (requires { s->inherit(*chain); }) s->inherit(*chain);
                        note_errors(*chain);
                        chain->release();
                        freed = chain;
                    }
                    chain = s;
                    ++count.kept;
                } else { // a record across the cut: the parser before reads the part
                    s->release();
                    chain->read(s->bytes);
                    freed = s;
                    ++count.redone;
                }
                if (!after_stop) drain(*chain);
                if constexpr (requires { chain->stopped(); }) stopped = chain->stopped();
#if defined(__cpp_exceptions) && __cpp_exceptions
            } catch (...) {
                e = std::current_exception();
            }
#endif
            l.lock();
            sequencing = false;
            if (freed != nullptr) idle.push_back(freed);
            if (e && !thrown) thrown = e;
            if (stopped) stop = true; // (nothing more is read, and what is in flight is dropped)
            done_cv.notify_all();
        }
    };
    // the workers: parse the queued parts, oldest first, then go on with the sequence
    auto work = [&] {
        std::unique_lock l(m);
        for (;;) {
            work_cv.wait(l, [&] { return closing || !queue.empty(); });
            if (queue.empty() || thrown) return;
            Slot* s = queue.front();
            queue.pop_front();
            l.unlock();
            std::exception_ptr e;
#if defined(__cpp_exceptions) && __cpp_exceptions
            try {
                s->parse();
            } catch (...) {
                e = std::current_exception();
            }
#else
            s->parse(); // (no exceptions: a failed allocation ends the program, as elsewhere)
#endif
            l.lock();
            s->parsed = true;
            if (e && !thrown) thrown = e;
            sequence(l);
            done_cv.notify_all();
        }
    };
    std::vector<std::jthread> workers;
    // (on the way out, an exception's too: the workers are told to end before they are joined)
    struct closer {
        std::mutex& m;
        std::condition_variable& cv;
        bool& closing;
        ~closer() {
            {
                std::lock_guard l(m);
                closing = true;
            }
            cv.notify_all();
        }
    } close_on_exit{m, work_cv, closing};
    for (unsigned t = 0; t < threads; ++t) workers.emplace_back(work);

    // this thread: read and cut parts while fewer than in_flight are in flight; else sequence,
    // or wait for room
    bool read_all = false;
    for (;;) {
        Slot* s = nullptr;
        {
            std::unique_lock l(m);
            if (thrown) std::rethrow_exception(thrown);
            if (stop) read_all = eof = true;
            if (!read_all && order.size() < in_flight && !idle.empty()) {
                s = idle.back();
                idle.pop_back();
            }
        }
        if (!read_all && s == nullptr && pool.size() < in_flight + 1) { // (in flight, and the chain's)
            pool.push_back(make());
            s = pool.back().get();
        }
        if (s != nullptr) {
            const bool filled = fill(s);
            std::lock_guard l(m);
            if (!filled) {
                idle.push_back(s);
                read_all = true;
            } else {
                s->parsed = false;
                queue.push_back(s);
                order.push_back(s);
                work_cv.notify_one();
                continue;
            }
        }
        std::unique_lock l(m);
        sequence(l);
        if (thrown) std::rethrow_exception(thrown);
        if (read_all && order.empty() && !sequencing) break;
        done_cv.wait(l, [&] {
            return thrown || (stop && !read_all) || (!sequencing && !order.empty() && order.front()->parsed) ||
                   (!read_all && order.size() < in_flight && !idle.empty()) || (read_all && order.empty() && !sequencing);
        });
    }
    {
        std::lock_guard l(m);
        closing = true;
    }
    work_cv.notify_all();
    workers.clear(); // (joins)
    if (chain != nullptr) {
        chain->finish();
        drain(*chain);
        note_errors(*chain);
        chain->release();
    }
    return failure;
}

} // namespace logscan

#endif // LOGSCAN_PARALLEL_HPP_INCLUDED
