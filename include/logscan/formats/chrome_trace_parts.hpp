// SPDX-License-Identifier: MIT
/// \file formats/chrome_trace_parts.hpp
/// One rank's trace read for the summary in parts, in parallel (what `logscan summary
/// --threads N` does with a Chrome trace): the same `rank_rows` as one `rank_reader` over the
/// whole input, whatever the cuts. Needs threads: link `logscan::parallel`.
///
/// \code
/// #include <logscan/formats/chrome_trace_parts.hpp>
/// namespace ct = logscan::chrome_trace;
/// logscan::file_source src{"rank0.pt.trace.json"};
/// ct::parts_read r = ct::read_rank_in_parts(src, "rank0.pt.trace.json", {.threads = 4});
/// if (!r.result.ok()) report(r.result);                  // (as ct::parse(src, reader) returns it)
/// std::vector<ct::rank_rows> ranks;
/// ranks.push_back(std::move(r.rows));
/// const ct::job_summary s = ct::summarize(std::move(ranks));
/// \endcode
///
/// How (parallel.hpp's driver, `parse_in_parts`): the calling thread reads the input and cuts
/// it where a line that begins an event (`{`, blanks aside) follows a line that ends with `,`
/// (`split_point`: one event per line, or Kineto's layout). Each part after the first is read
/// by a fresh parser started in the events (`parser::start_in_events`, the document's form —
/// an object or the bare array of events — taken from its first byte) and a `rank_reader` of
/// its own. In input order, a part's rows are kept when the parser of the part before ended
/// between two events with no `B` open (`parser::at_rest`), the part begins a line with an
/// event and its own reading had no error; otherwise (a cut inside a string that looked like a line
/// start, a `B` open across the cut, a part cut inside a long line, an error) the parser
/// before reads the part, as one parser would have. Kept rows are handed over in order
/// (`rank_reader::hand_over`: names, classes, event indices made the whole input's). Once
/// the document breaks, nothing more is read (a later read failure is not seen, as with one
/// parser). Memory: at most `2 * threads` parts of about `part_bytes` at once, each with a
/// parser (its buffers made once per slot, not per part) and a reader (whose names and
/// classes stay from part to part while its readings are kept: each name looked up once per
/// reader, not per part), and the rows. An exception (`bad_alloc`) in a worker is thrown again here.
#ifndef LOGSCAN_FORMATS_CHROME_TRACE_PARTS_HPP_INCLUDED
#define LOGSCAN_FORMATS_CHROME_TRACE_PARTS_HPP_INCLUDED

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "../parallel.hpp"
#include "../source.hpp"
#include "chrome_trace.hpp"
#include "chrome_trace_summary.hpp"

namespace logscan::chrome_trace {

/// Where a trace may be cut into parts (`previous` and `next` are lines): before a line
/// beginning with `{` (blanks aside) after a line ending with `,`. A cut that is not between
/// two events (inside a string, or an array of objects in an event) costs only time.
constexpr bool split_point(std::string_view previous, std::string_view next) noexcept {
    const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
    while (!previous.empty() && blank(previous.back())) previous.remove_suffix(1);
    while (!next.empty() && blank(next.front())) next.remove_prefix(1);
    return !previous.empty() && previous.back() == ',' && !next.empty() && next.front() == '{';
}

namespace parts_detail {
using counted = records::counting<rank_reader>;

// A part (parallel.hpp's slot): its bytes, its parser and reader.
struct slot {
    std::string bytes;
    std::uint64_t lines_before = 0, offset = 0;
    bool starts_line = true;
    bool parsed = false, at_rest = false;
    bool form_known = true;      // the document's first byte was found (else no fresh reading is kept)
    bool bare_array = false;     // the document is the array of events
    bool broke = false;          // (its parser's document broke while it read, before finish)
    options opt{};
    rank_reader reader{};
    std::optional<counted> vis{};
    std::optional<chrome_trace::parser<counted>::buffers> mem{}; // (made once, for every part the slot reads)
    std::optional<chrome_trace::parser<counted>> parser{};
    bool fresh_ok = true;        // (this part's own reading may be kept)
    bool handed = false;         // (its rows went to the gathered ones at least once)
    bool clean = true;           // (its reader holds nothing but names and classes the gathered rows have)
    std::uint64_t index_base = 0, records_handed = 0;

    void parse() {
        release();
        clean = false;
        vis.emplace(reader);
        if (!mem || !mem->ok()) mem.emplace(opt); // (made once; again only after a failed allocation)
        parser.emplace(*vis, *mem);
        if (offset != 0) parser->start_in_events(bare_array, lines_before, offset);
        read(bytes);
        // (a fresh reading counts from a line's start, in a document of the form assumed, from
        // an event, without an error: else the parser before reads the part)
        fresh_ok = offset == 0 || (form_known && starts_line && begins_event() && vis->errors == 0);
    }
    void read(std::string_view more) {
        parser->feed(more);
        at_rest = parser->at_rest();
        broke = !parser->result().ok();
    }
    bool takes_over() const noexcept { return fresh_ok; }
    bool stopped() const noexcept { return broke; }
    void finish() { parser->finish(); }
    std::uint64_t errors() const noexcept { return vis->errors; }
    void release() {
        parser.reset();
        vis.reset();
        // (a reading handed over: the reader keeps its tables for the next part, which then
        // looks each name up once; one dropped, whose rows may be no one reader's: forgotten)
        if (!clean) {
            if (handed) reader.next_part();
            else reader.start({});
            clean = true;
        }
        at_rest = broke = false;
        handed = false;
        index_base = records_handed = 0;
    }
    // Whether the part's first byte that is not blank begins an object (an event).
    bool begins_event() const noexcept {
        for (const char c : bytes)
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return c == '{';
        return false;
    }
};

// A source whose first chunks were read already (to learn the document's form).
template <class Source>
struct peeked {
    Source& src;
    std::string head{};
    chunk held{};
    bool have_held = false, head_given = false;
    chunk next() {
        if (!head_given) {
            head_given = true;
            if (!head.empty()) return chunk{head};
        }
        if (have_held) {
            have_held = false;
            return held;
        }
        return src.next();
    }
};
} // namespace parts_detail

/// What `read_rank_in_parts` gives.
struct parts_read {
    rank_rows rows{};          ///< the rows one `rank_reader` of the whole input gives
    error result{};            ///< as `parse(src, reader)` returns it: the source's failure, else the document's break, else none
    std::uint64_t records = 0; ///< the records read, error records aside (`records::counting`'s count)
    parts_count parts{};       ///< parts kept as read in parallel, and parts read again by the parser before
};

/// Reads one rank's trace from `src` in parts on `o.threads` threads (see the file comment):
/// the `rank_rows` one `rank_reader` named `file` would give, with the parse's outcome.
template <byte_source Source>
parts_read read_rank_in_parts(Source& src, std::string file, const parts_options& o, const options& opt = {}) {
    // the document's form, from its first byte that is not blank (after a byte order mark), in
    // its first 64 KiB (past them, no part's fresh reading is kept: one parser reads it all)
    parts_detail::peeked<Source> in{src};
    bool bare_array = false, form_known = false;
    while (in.head.size() < (std::size_t{64} << 10)) {
        const chunk c = src.next();
        if (c.code != error_code::none || c.data.empty()) {
            in.held = c;
            in.have_held = true;
            break;
        }
        in.head.append(c.data);
        constexpr std::string_view bom = "\xEF\xBB\xBF";
        std::string_view h(in.head);
        if (h.size() < bom.size() && bom.starts_with(h)) continue;
        h = without_byte_order_mark(h);
        if (const std::size_t at = h.find_first_not_of(" \t\r\n"); at != std::string_view::npos) {
            bare_array = h[at] == '[';
            form_known = true;
            break;
        }
    }

    parts_read out;
    rank_parts gathered;
    gathered.rows.file = std::move(file);
    std::uint64_t events_before = 0; // the events of the parts handed over before the current parser's
    std::uint64_t errors = 0;
    bool broke = false; // (the document broke before the end: one parser reads no further, a later read failure unseen)
    const auto make = [&] {
        auto s = std::make_unique<parts_detail::slot>();
        s->bare_array = bare_array;
        s->form_known = form_known;
        s->opt = opt;
        return s;
    };
    const auto drain = [&](parts_detail::slot& s) {
        if (!s.handed) {
            s.handed = true;
            s.index_base = events_before;
        }
        s.reader.hand_over(gathered, s.index_base);
        events_before = s.index_base + s.parser->events_read();
        out.records += s.vis->records - s.records_handed;
        s.records_handed = s.vis->records;
        out.result = s.parser->result();
        broke = s.broke;
    };
    const error failure = parse_in_parts<parts_detail::slot>(in, o, split_point, make, drain, errors, out.parts);
    if (out.parts.kept == 0) { // (no byte at all: no part; the empty document's outcome)
        parts_detail::slot s;
        s.opt = opt;
        s.parse();
        s.finish();
        drain(s);
    }
    if (!failure.ok() && !broke) out.result = failure;
    out.rows = std::move(gathered.rows);
    return out;
}

} // namespace logscan::chrome_trace

#endif // LOGSCAN_FORMATS_CHROME_TRACE_PARTS_HPP_INCLUDED
