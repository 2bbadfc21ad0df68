// SPDX-License-Identifier: MIT
// Fuzz target for the Python module's columns (python/src/columns.hpp: what frames() builds,
// without Python). The first byte chooses the format (any of the registry's), the second the
// part size (1 to 256 bytes), the third the source's piece size (1 to 256 bytes); the rest is
// the input. Invariants (abort on violation): no crash, hang, deadlock or undefined behaviour
// (ASan+UBSan) while any format's records are written into columns; and for a format read in
// parts (`F::splittable`: frames(threads=N)), the columns parse_in_parts gives on 2 threads
// with column_part (as the module reads the input) equal those of one parser: table for
// table in their order, column for column (names, in their order), cell for cell (kind,
// value, a string's text), each string column's strings in their order (its categories) and
// whether it is interned (past 8 distinct strings here, 4096 in the module), cells given twice,
// the rows, the records counted, the error records and the first one, a document's break.
// LOGSCAN_FUZZ_SHOW=1 prints both sides of a difference.
#include <logscan/formats/registry.hpp>
#include <logscan/parallel.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#define LOGSCAN_PY_DISTINCT_FROM 8 // (a column of more than 8 distinct strings in more than half its rows: not interned)
#include "columns.hpp"
#include "split_input.hpp"

namespace {
namespace lp = logscan_py;

// Everything of the columns a frame shows, as text: tables, columns, cells, the strings.
std::string dump(lp::columns& c) {
    std::string out = "seen " + std::to_string(c.seen.records) + "/" + std::to_string(c.seen.text) + "/" +
                      std::to_string(c.seen.errors) + "\n";
    for (lp::table& t : c.tables()) {
        out += "table " + t.type + " rows " + std::to_string(t.rows) + "\n";
        for (lp::column& col : t.columns) {
            col.pad_to(t.rows);
            out += " column " + col.name + (col.interned() ? " interned" : " distinct") + (col.overwritten() ? " overwritten" : "") +
                   " kinds " + std::to_string(col.kinds_seen()) + "\n  ";
            const bool strings = (col.kinds_seen() & ((1u << static_cast<unsigned>(lp::cell::string)) |
                                                      (1u << static_cast<unsigned>(lp::cell::big_integer)))) != 0;
            // an interned column's strings in their order (used ones, as the module makes its
            // categories; a column past the interning limit is an object column: its cells' texts)
            if (strings && col.interned()) {
                std::vector<char> used(col.pool.size(), 0);
                for (std::size_t i = 0; i < t.rows; ++i)
                    if (col.kind(i) == lp::cell::string || col.kind(i) == lp::cell::big_integer)
                        used[static_cast<std::size_t>(col.value(i))] = 1;
                out += "strings";
                for (std::size_t s = 0; s < col.pool.size(); ++s)
                    if (used[s]) out += " [" + std::string(col.pool.at(s)) + "]";
                out += "\n  ";
            }
            for (std::size_t i = 0; i < t.rows; ++i) {
                const lp::cell k = col.kind(i);
                out += std::to_string(static_cast<int>(k)) + ":";
                if (k == lp::cell::string || k == lp::cell::big_integer)
                    out += "[" + std::string(col.pool.at(static_cast<std::size_t>(col.value(i)))) + "]";
                else if (k != lp::cell::null)
                    out += std::to_string(col.value(i)); // (a double's bits)
                out += " ";
            }
            out += "\n";
        }
    }
    return out;
}

std::string describe(const logscan::error& e, std::uint64_t errors) {
    return std::to_string(errors) + " errors, first " + std::to_string(static_cast<int>(e.code)) + "@" +
           std::to_string(e.line) + ":" + std::to_string(e.column) + "+" + std::to_string(e.offset) + " " +
           std::string(e.message);
}

template <class F>
void check(std::string_view in, std::size_t part, std::size_t piece) {
    const lp::type_set all{};
    logscan::format_options o;
    o.max_line = 512; // (lines too long, and parts cut inside a line)
    o.scratch_capacity = 512;

    // one parser, fed the input in pieces
    lp::columns one(all);
    std::string one_errors;
    {
        typename lp::typed_columns_of<typename F::records>::type vis(one);
        typename F::template parser<decltype(vis)> p(vis, o);
        fuzz::pieces src{in, piece};
        for (logscan::chunk c = src.next(); !c.data.empty(); c = src.next()) (void)p.feed(c.data);
        (void)p.finish();
        one_errors = describe(vis.first_error(), vis.errors());
        if constexpr (requires { p.result(); }) one_errors += " result " + describe(p.result(), 0); // (a document's break)
    }
    const std::string expected = dump(one) + one_errors;

    if constexpr (F::splittable) {
        lp::columns parts(all);
        std::uint64_t errors = 0;
        logscan::error first{};
        logscan::parts_count count;
        std::string result; // (as parts_run keeps it: the last drained part's parser's; none without a part)
        if constexpr (requires(typename F::template parser<typename lp::column_part<F>::visitor_type> & p) { p.result(); })
            result = " result " + describe(logscan::error{}, 0);
        fuzz::pieces src{in, piece};
        const logscan::error failure = logscan::parse_in_parts<lp::column_part<F>>(
            src, {.threads = 2, .part_bytes = part}, [](std::string_view a, std::string_view b) { return F::split_point(a, b); },
            [&] {
                auto s = std::make_unique<lp::column_part<F>>(all);
                s->options = o;
                return s;
            },
            [&](lp::column_part<F>& s) {
                s.absorb_into(parts);
                if constexpr (requires { s.parser->result(); }) result = " result " + describe(s.parser->result(), 0);
            },
            errors, count, &first);
        if (!failure.ok()) std::abort(); // (the pieces never fail)
        const std::string got = dump(parts) + describe(first, errors) + result;
        if (got != expected) {
            if (std::getenv("LOGSCAN_FUZZ_SHOW") != nullptr)
                std::fprintf(stderr, "one parser:\n%s\nparts:\n%s\n", expected.c_str(), got.c_str());
            std::abort();
        }
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 3) return 0;
    const std::string_view in(reinterpret_cast<const char*>(data + 3), size - 3);
    const std::size_t part = std::size_t{data[1]} + 1, piece = std::size_t{data[2]} + 1;
    std::size_t formats = 0;
    logscan::for_each_format(logscan::all_formats{}, [&]<class>() { ++formats; });
    std::size_t i = 0;
    const std::size_t chosen = data[0] % formats;
    logscan::for_each_format(logscan::all_formats{}, [&]<class F>() {
        if (i++ == chosen) check<F>(in, part, piece);
    });
    return 0;
}
