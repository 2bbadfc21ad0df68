// SPDX-License-Identifier: MIT
/// \file format.hpp
/// What every format module is built on, in one place: the options every format's `parse`
/// takes, the push parser of a line format (carry buffer, line framing, stop flag,
/// `feed`/`finish`/`start_at`, `at_rest`), and the two `parse` entry points.
///
/// A line format writes only its reader of lines, a *core*, and names the parser:
/// \code
/// template <class Visitor>
/// struct core {
///     core(Visitor& vis, const logscan::format_options& o);  // builds its readers
///     logscan::flow read_line(const logscan::line& l);        // every line, blank ones included
///     logscan::flow line_too_long(const logscan::error& e);   // a line over max_line: its error
///                                                             // record, and the state it ends
///     logscan::flow finish();                                 // optional: after the last line
///     auto readers() const noexcept;                          // optional: std::tie of the parts
///                                                             // that carry state across lines
///     logscan::line_taken take_line(const char* p, const char* e, std::uint64_t number,
///                                   std::uint64_t offset);    // optional: lines its fused rules
///                                                             // read from the chunk, or that
///                                                             // nobody wants, passed over
///                                                             // (rule_reader::take_line)
/// };
/// template <class Visitor> using parser = logscan::line_parser<core<Visitor>>;
/// inline constexpr logscan::format_parse<parser> parse{};   // parse(source or text, vis, options)
/// \endcode
///
/// `line_parser::at_rest()` (for cutting an input into parts parsed apart, `--threads`) is
/// derived, not listed: between lines, not stopped, and every part `readers()` names at
/// rest — each reader answers for its own state (`rule_reader::at_rest`, `rule_table::at_rest`,
/// ...; a format's own state struct has an `at_rest()` too). A core without `readers()`
/// has no `at_rest` (its inputs are read by one parser).
///
/// Stopping: a callback that returns `flow::stop` makes `read_line`/`finish` return it; the
/// parser remembers it (`stopped()`), ignores further input and `finish()` returns `stop`.
#ifndef LOGSCAN_FORMAT_HPP_INCLUDED
#define LOGSCAN_FORMAT_HPP_INCLUDED

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

// (what every format module is built from: a format header includes this and its readers)
#include "config.hpp"
#include "error.hpp"
#include "lines.hpp"
#include "ndjson.hpp"
#include "num.hpp"
#include "record.hpp"
#include "source.hpp"
#include "visit.hpp"

namespace logscan {

/// Limits of one format parser, fixed at construction. One type for every format; each
/// reads the fields it has a use for.
struct format_options {
    /// The longest line (bytes) read (line formats): a longer one, whether it lies in one chunk
    /// or straddles several, is a `line_too_long` error record and reading goes on. (It is
    /// also the carry buffer's size, allocated at construction.)
    std::size_t max_line = line_buffer::default_capacity;
    std::size_t max_io = 4096;          ///< chainer-memtrace: most inputs + outputs of one function
    std::size_t text_capacity = 65536;  ///< chainer-memtrace: bytes of one function's roles and type
    /// The JSON formats: bytes of scratch space for one object (megengine-profile: its strings,
    /// lists and `param` text; tvm-profile's `Report.json()`: a call) or event (chrome-trace);
    /// a larger one is an error record (code `too_long`) and reading goes on.
    std::size_t scratch_capacity = std::size_t{64} << 10;
    /// chrome-trace: bytes for the `B` events still open (each kept until its `E`: its name,
    /// category, thread, `ts`, `args` and other members).
    std::size_t open_capacity = std::size_t{4} << 20;
};

namespace internal {
template <class T>
concept has_at_rest = requires(const T& t) {
    { t.at_rest() } -> std::convertible_to<bool>;
};
/// True when every element of the tuple of references `t` is at rest.
template <class Tuple>
constexpr bool all_at_rest(const Tuple& t) noexcept {
    return std::apply([](const auto&... r) { return (static_cast<bool>(r.at_rest()) && ...); }, t);
}
} // namespace internal

/// `text_record(vis, l)`: the `text` record of a line (formats.md's common rules): the line
/// with its trailing spaces removed, to the visitor's `on_text`; a blank line yields nothing.
/// (A function object, as `report_error`: never found by argument-dependent lookup.)
struct text_record_fn {
    template <class Visitor>
    flow operator()(Visitor& vis, const line& l) const {
        const std::string_view t = internal::trim_right(l.text);
        if (t.empty()) return flow::proceed;
        return LOGSCAN_VISIT(vis, on_text, line{t, l.number, l.offset});
    }
};
inline constexpr text_record_fn text_record{};

/// The push parser of a line format around its core (see the file comment): `feed(chunk)`
/// any number of times (chunks may split lines anywhere), then `finish()`. Holds the visitor
/// by reference; allocates its carry buffer once, at construction. Not copyable or movable
/// (the core's readers refer to each other).
template <class Core>
class line_parser {
public:
    template <class Visitor>
    explicit line_parser(Visitor& vis, const format_options& o = {})
        : core_(vis, o), carry_(o.max_line), sink_{this}, splitter_(sink_, carry_.span()) {}
    line_parser(const line_parser&) = delete;
    line_parser& operator=(const line_parser&) = delete;

    /// Feeds the next chunk. Returns `flow::stop` once a callback has stopped the parse. A
    /// UTF-8 byte order mark that begins the input is dropped (its line is read without it;
    /// offsets still count its bytes).
    flow feed(std::string_view chunk) {
        if (LOGSCAN_UNLIKELY(!bom_.settled()))
            return bom_.feed(chunk, [&](std::string_view c) { return feed_lines(c); }, [&] { splitter_.start_at(0, 3); });
        return feed_lines(chunk);
    }
    /// Ends the input (the last line may lack its newline).
    flow finish() {
        if (bom_.finish([&](std::string_view c) { return feed_lines(c); }) == flow::stop) return flow::stop;
        if constexpr (requires { core_.escape_free(true); }) core_.escape_free(escape_free_); // (the last line's chunks)
        if (splitter_.finish() == flow::stop || stopped_) return flow::stop;
        if constexpr (requires { core_.finish(); }) return note(core_.finish());
        return flow::proceed;
    }
    /// True when a callback stopped the parse.
    bool stopped() const noexcept { return stopped_; }
    /// For parsing one input in parts (see the format's `split_point`): numbers lines and
    /// offsets as if `lines_before` lines and `offset` bytes came before the first chunk (a
    /// part that does not start the input has no byte order mark to drop). Call before `feed`.
    void start_at(std::uint64_t lines_before, std::uint64_t offset) noexcept {
        if (lines_before != 0 || offset != 0) bom_.settle();
        splitter_.start_at(lines_before, offset);
    }
    /// For a core whose state at rest is more than its mode (chainer-memtrace: how many function
    /// records came before, the header's counts), the parts' hand-over (parallel.hpp):
    /// `part_units(bytes)` counts what a part holds of what the state counts (a guess: a wrong
    /// count only costs the part's reading again); `resume(units)`, before `feed`, makes a fresh
    /// parser begin as one at rest after that many units; `resumes(units)` is true when this
    /// parser, at rest, ended where a fresh one resumed at `units` begins; `inherit(before)`
    /// gives the fresh parser, once kept, what it could not guess (the header's counts, which
    /// `finish()` checks).
    static std::uint64_t part_units(std::string_view bytes) noexcept
        requires requires { Core::part_units(bytes); }
    {
        return Core::part_units(bytes);
    }
    void resume(std::uint64_t units) noexcept
        requires requires(Core& c) { c.resume(units); }
    {
        core_.resume(units);
    }
    bool resumes(std::uint64_t units) const noexcept
        requires requires(const Core& c) { c.resumes(units); }
    {
        return core_.resumes(units);
    }
    void inherit(const line_parser& before) noexcept
        requires requires(Core& c, const Core& b) { c.inherit(b); }
    {
        core_.inherit(before.core_);
    }
    /// True when nothing read so far can change a later record and `finish()` would add none:
    /// between lines, not stopped, and every reader of the core at rest. A fresh parser given
    /// the rest of the input (with `start_at`, and `resume` where the core has it) then yields
    /// what this one would.
    bool at_rest() const noexcept
        requires requires(const Core& c) { internal::all_at_rest(c.readers()); }
    {
        return splitter_.at_line_start() && !stopped_ && (bom_.settled() || bom_.at_start()) &&
               internal::all_at_rest(core_.readers());
    }
    /// The format's core (its readers' counters, for tests and benchmarks).
    const Core& core() const noexcept { return core_; }

private:
    flow feed_lines(std::string_view chunk) {
        if constexpr (requires { core_.escape_free(true); }) {
            // A core that removes colour sequences learns, from one memchr over the chunk,
            // that its lines hold none (the line carried in from earlier chunks too), and
            // then looks for none line by line.
            const bool none = chunk.empty() || std::memchr(chunk.data(), '\x1b', chunk.size()) == nullptr;
            escape_free_ = none && (splitter_.at_line_start() || escape_free_);
            core_.escape_free(escape_free_);
        }
        return splitter_.feed(chunk);
    }
    flow note(flow f) noexcept {
        if (f == flow::stop) stopped_ = true;
        return f;
    }
    struct sink {
        line_parser* p;
        flow on_line(const line& l) { return p->note(p->core_.read_line(l)); }
        flow on_error(const error& e) { return p->note(p->core_.line_too_long(e)); }
        // (a core that reads some lines straight from the chunk, or passes over lines nobody
        // wants: lines.hpp's take_line)
        line_taken take_line(const char* b, const char* e, std::uint64_t number, std::uint64_t offset)
            requires requires(Core& c) { c.take_line(b, e, number, offset); }
        {
            const line_taken t = p->core_.take_line(b, e, number, offset);
            if (t.next != nullptr) p->note(t.result);
            return t;
        }
    };

    Core core_;
    byte_order_mark bom_;
    bool stopped_ = false;
    bool escape_free_ = false; // the chunks since the current line began hold no ESC byte
    line_buffer carry_;
    sink sink_;
    line_splitter<sink> splitter_;
};

/// The push parser of a format whose input is either a document or lines (tvm-profile: a
/// `Report.json()` document or the text reports): an input whose first byte other than
/// space, tab, CR and LF is `Opening` is read by `Document` (a parser with `result()`, such
/// as json_project.hpp's `projection_parser`), any other by `Lines` (a `line_parser`). Until
/// that byte the document parser is fed the blanks (they yield nothing there) and the line
/// parser's are held (4 KiB; a line of blanks may yield a record, `\r` inside it as text):
/// given to it once the input is lines, dropped once it is a document. (Past 4 KiB of leading
/// blanks the line parser is fed them as they come.) An input of blanks only is lines. A UTF-8
/// byte order mark that begins the input is dropped before that byte is looked for (both
/// parsers count positions after its 3 bytes). `at_rest()` (cutting an input into parts) holds only once the input is
/// lines, and a part that does not start the input (`start_at` past its first byte) is
/// lines whatever its first byte.
template <class Document, class Lines, char Opening = '{'>
class document_or_lines {
public:
    /// Builds both parsers (each allocates its buffers once, here).
    template <class Visitor>
    document_or_lines(Visitor& vis, const format_options& o = {}) : doc_(vis, o), lines_(vis, o) {}
    document_or_lines(const document_or_lines&) = delete;
    document_or_lines& operator=(const document_or_lines&) = delete;

    /// Feeds the next chunk (any split).
    flow feed(std::string_view chunk) {
        if (LOGSCAN_UNLIKELY(!bom_.settled()))
            return bom_.feed(chunk, [&](std::string_view c) { return feed_after_mark(c); }, [&] { marked(); });
        return feed_after_mark(chunk);
    }
    /// Ends the input.
    flow finish() {
        if (bom_.finish([&](std::string_view c) { return feed_after_mark(c); }) == flow::stop) return flow::stop;
        if (mode_ == mode::undecided) {
            mode_ = mode::lines;
            if (release() == flow::stop) return flow::stop;
        }
        return mode_ == mode::document ? doc_.finish() : lines_.finish();
    }
    /// The document's outcome (none for lines: their problems are records).
    error result() const noexcept { return mode_ == mode::document ? doc_.result() : error{}; }
    /// True when a callback stopped the parse.
    bool stopped() const noexcept {
        return mode_ == mode::document ? doc_.result().code == error_code::stopped : lines_.stopped();
    }
    /// Lines: see `line_parser::start_at` (call before `feed`).
    void start_at(std::uint64_t lines_before, std::uint64_t offset) noexcept {
        if (offset != 0 || lines_before != 0) { // (a later part of lines; call before feed)
            mode_ = mode::lines;
            bom_.settle();
        }
        lines_.start_at(lines_before, offset);
    }
    /// Lines at rest (`line_parser::at_rest`); never inside a document nor before the first
    /// byte that tells.
    bool at_rest() const noexcept
        requires requires(const Lines& l) { l.at_rest(); }
    {
        return mode_ == mode::lines && lines_.at_rest();
    }
    /// True once the input has shown itself a document.
    bool document() const noexcept { return mode_ == mode::document; }
    /// The line parser (its core's counters, for tests and benchmarks).
    const Lines& lines() const noexcept { return lines_; }

private:
    enum class mode : unsigned char { undecided, document, lines };
    // A byte order mark dropped: both parsers count positions after its 3 bytes.
    void marked() noexcept {
        if constexpr (requires { doc_.start_at(0, 3, 4); }) doc_.start_at(0, 3, 4);
        lines_.start_at(0, 3);
    }
    flow feed_after_mark(std::string_view chunk) {
        if (LOGSCAN_UNLIKELY(mode_ == mode::undecided)) {
            const std::size_t i = chunk.find_first_not_of(" \t\r\n");
            if (i == std::string_view::npos) {
                if (doc_.feed(chunk) == flow::stop) return flow::stop;
                return hold(chunk);
            }
            mode_ = chunk[i] == Opening ? mode::document : mode::lines;
            if (mode_ == mode::lines && release() == flow::stop) return flow::stop;
        }
        return mode_ == mode::document ? doc_.feed(chunk) : lines_.feed(chunk);
    }
    // Leading blanks kept for the line parser (past the buffer, they go to it as they come).
    flow hold(std::string_view blanks) {
        if (blanks.empty()) return flow::proceed;
        if (blanks.size() > sizeof held_ - held_n_) {
            if (release() == flow::stop) return flow::stop;
            if (blanks.size() > sizeof held_) return lines_.feed(blanks);
        }
        std::memcpy(held_ + held_n_, blanks.data(), blanks.size());
        held_n_ += blanks.size();
        return flow::proceed;
    }
    flow release() {
        const std::size_t n = held_n_;
        held_n_ = 0;
        return n != 0 ? lines_.feed(std::string_view(held_, n)) : flow::proceed;
    }
    Document doc_;
    Lines lines_;
    byte_order_mark bom_;
    mode mode_ = mode::undecided;
    std::size_t held_n_ = 0;
    char held_[4096];
};

/// A format's `parse`: a function object (`format_entry::parse`, which
/// `LOGSCAN_FORMAT_MODULE` names `parse`).
/// - `parse(source, visitor, options)` reads a whole source (`file_source`, `fd_source`,
///   `memory_source`, ...) into the visitor. Returns the source's error (with errno),
///   `stopped` when a callback stopped, or none — problems inside the input go to
///   `on_error` and do not stop the parse (a parser with `result()`, such as the JSON
///   formats', returns that instead: the document's own break, the same that `on_error` got
///   as the `error` record, so a program that says both says it twice; a document cut short
///   has code `unexpected_end`, its message what was expected where the input ended; on a gzip source it
///   may have been broken by corrupt data, which `rest_failure(src)` then tells: gzip.hpp).
/// - `parse(text, visitor, options)` reads a buffer in memory: a `std::string_view` (or a
///   `std::string`). A C string is rejected when compiled (a path, or the text?
///   `parse("train.log", v)` would read the name as a log of one line): a file is read
///   through a source, `logscan::file_source src{path}; parse(src, v)`.
template <template <class> class Parser>
struct format_parse {
    template <byte_source Source, class Visitor>
    error operator()(Source& src, Visitor& vis, const format_options& o = {}) const {
        Parser<Visitor> p(vis, o);
        const error e = pump(src, p); // the parser is a chunk consumer
        if constexpr (requires { p.result(); }) {
            if (!e.ok() && e.code != error_code::stopped) return e;
            const error& r = p.result();
            return r.ok() ? e : r;
        } else {
            return e;
        }
    }
    template <class Visitor>
    error operator()(std::string_view text, Visitor& vis, const format_options& o = {}) const {
        memory_source src(text);
        return (*this)(src, vis, o);
    }
    // A C string: a path, or the text? `parse("train.log", v)` read the name as a log of one
    // line, silently. Rejected: a file is read through a source, text given as a string_view.
    template <class C, class Visitor>
        requires std::same_as<std::remove_cv_t<C>, char>
    error operator()(C* path_or_text, Visitor& vis, const format_options& o = {}) const {
        static_assert(sizeof(C) == 0, "logscan: parse(const char*, visitor): a path, or the text? A file: "
                                      "logscan::file_source src{path}; parse(src, visitor). Text in memory: "
                                      "parse(std::string_view(text), visitor).");
        return (*this)(std::string_view(path_or_text), vis, o);
    }
};

/// A format as generic code sees it (the registry, formats/registry.hpp; the command): one
/// line at the end of each format header declares it and the names the module's users write
/// (`LOGSCAN_FORMAT_MODULE`, below),
/// \code
/// LOGSCAN_FORMAT_MODULE(format_name, records, detect, detect_signals, parser, split_point);
/// \endcode
/// - `name`: the format's name (`"paddle-log"`), as `--format` and `detect` know it;
/// - `records`: its `record_list` (record.hpp), whence `record_types` (the `"type"` of every
///   record it yields, `text` and `error` included) and `ndjson_visitor<Writer>`;
/// - `detect(head, cut)`: how much the first bytes of an input look like it (0: not at all),
///   and `detect_signals`, what it counts in a few words;
/// - `parser<Visitor>`, `parse(source, visitor, options)`;
/// - `splittable` and `split_point(previous, next)`: where an input can be cut into parts
///   parsed apart (line formats with `at_rest`; absent: one parser reads an input).
template <const std::string_view& Name, class Records, auto Detect, const std::string_view& Signals,
          template <class> class Parser, auto SplitPoint = nullptr>
struct format_entry {
    static constexpr std::string_view name = Name;
    using records = Records;
    static constexpr std::span<const std::string_view> record_types{Records::types};
    static constexpr std::size_t detect(std::string_view head, bool cut) noexcept { return Detect(head, cut); }
    static constexpr std::string_view detect_signals = Signals;
    template <class Visitor>
    using parser = Parser<Visitor>;
    template <class Writer>
    using ndjson_visitor = typename Records::template ndjson<Writer>;
    static constexpr format_parse<Parser> parse{};
    static constexpr bool splittable = !std::is_null_pointer_v<decltype(SplitPoint)>;
    static constexpr bool split_point(std::string_view previous, std::string_view next) noexcept
        requires splittable
    {
        return SplitPoint(previous, next);
    }
};

} // namespace logscan

/// Declares, in a format module's namespace, the format and the names its users write, from
/// `format_entry`'s arguments (the format's name, `records`, `detect`, `detect_signals`,
/// `parser`, and `split_point` where the format has one), so that every module has the same
/// ones, declared in this one place:
/// - `format`: the `format_entry` (generic code, the registry);
/// - `record_types`: the `"type"` of every record the format yields, in its `records`' order;
/// - `visitor<V>`: true when V has at least one of the format's callbacks (or derives from
///   `validate_only`);
/// - `parse(source, vis, options)` (a whole source: `file_source`, `fd_source`,
///   `memory_source`, ...) and `parse(text, vis, options)` (a buffer in memory, a
///   `std::string_view`; not a C string, which may be a path): `format_parse`;
/// - `ndjson_visitor<Writer>`: the visitor that writes every record as formats.md's NDJSON
///   through an `ndjson_writer` (`records`' `ndjson`).
#define LOGSCAN_FORMAT_MODULE(...)                                                  \
    using format = ::logscan::format_entry<__VA_ARGS__>;                            \
    inline constexpr const auto& record_types = format::records::types;             \
    template <class V>                                                              \
    concept visitor = format::records::template accepted_by<V>;                     \
    template <class Writer>                                                         \
    using ndjson_visitor = format::ndjson_visitor<Writer>;                          \
    inline constexpr auto parse = format::parse

#endif // LOGSCAN_FORMAT_HPP_INCLUDED
