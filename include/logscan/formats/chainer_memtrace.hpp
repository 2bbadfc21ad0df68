// SPDX-License-Identifier: MIT
/// \file formats/chainer_memtrace.hpp
/// The `chainer-memtrace` format: a Chainer computational graph dumped with the sizes of its
/// buffers (the record contract is formats.md, section 3). Built from the toolkit's parts
/// only: line framing, compile-time patterns for each kind of line, the numbers layer and the
/// JSON reader (which checks each parameter line without allocating).
///
/// \code
/// #include <logscan/formats/chainer_memtrace.hpp>        // (also in the umbrella <logscan.hpp>)
/// struct sizes {                                         // every callback is optional
///     void on_buffer(const logscan::chainer_memtrace::buffer& b) { size[b.id] = b.size; }
///     void on_function(const logscan::chainer_memtrace::function& f) {
///         for (auto in : f.inputs) use(in.id, in.role.value_or("_"));
///         for (std::uint64_t out : f.outputs) use(out);
///     }
/// };
/// sizes v;
/// logscan::file_source src("graph.txt");
/// logscan::error e = logscan::chainer_memtrace::parse(src, v);
/// // or, for your own I/O: logscan::chainer_memtrace::parser<sizes> p(v); p.feed(chunk); ...; p.finish();
/// \endcode
///
/// Layout: line 1 `B F` (the number of buffers and of functions); B buffer lines `ID SIZE
/// NAME` (NAME is the rest of the line and may hold spaces; `_` is none); then F function
/// records, each a direction line (`forward` or `backward`), `NIN NOUT`, NIN lines `ID ROLE`
/// (ROLE `_` is none), NOUT lines `ID`, the function's type, and one line holding a JSON
/// object of parameters. Trailing spaces are ignored and blank lines skipped everywhere.
///
/// Events (views into the input or the parser's storage, valid during the call):
/// \code
/// void on_header(const chainer_memtrace::header&);     // the `B F` line
/// void on_buffer(const chainer_memtrace::buffer&);     // each buffer line
/// void on_function(const chainer_memtrace::function&); // each whole function record (at its last line)
/// void on_text(const logscan::line&);                  // a line before the header, or skipped after an error
/// void on_error(const logscan::error&);                // see below
/// \endcode
///
/// Broken structure is an `error` record and the parse goes on (formats.md: "resume at the
/// next direction line"):
/// - `expected a buffer line `ID SIZE NAME``, `expected a direction line (forward or
///   backward)`, `function record: expected the counts `NIN NOUT``, `... an input line `ID
///   ROLE``, `... an output line `ID``, `... a JSON object of parameters`: at the line that
///   does not fit; the lines after it are `text` up to the next direction line;
/// - `function record cut short`: at the direction line of a record that a new direction
///   line (or the end of the input) interrupted;
/// - `buffer list cut short`: at a direction line that comes before B buffers were listed
///   (or at the header line, when the input ends first);
/// - `function count does not match the header`: at the header line, after everything,
///   when the number of function records (whole or broken) differs from F;
/// - `function record larger than the parser's storage`: at the line that does not fit
///   (`options::max_io` inputs and outputs, `options::text_capacity` bytes of roles and type);
/// - a line longer than `options::max_line`: `line_too_long`.
///
/// Allocation: the parser allocates its carry buffer, the storage of one function record and
/// the JSON reader's scratch once, at construction; nothing while parsing.
#ifndef LOGSCAN_FORMATS_CHAINER_MEMTRACE_HPP_INCLUDED
#define LOGSCAN_FORMATS_CHAINER_MEMTRACE_HPP_INCLUDED

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <optional>
#include <span>
#include <string_view>
#include <tuple>
#include <utility>

#include "../format.hpp" // (config, error, lines, source, visit, num, record, ndjson)
#include "../json.hpp"
#include "../regex.hpp"

namespace logscan::chainer_memtrace {

/// The format's name, as the command line and `detect` know it.
inline constexpr std::string_view format_name = "chainer-memtrace";

/// The first line: `86 92`.
struct header {
    std::uint64_t line;      ///< line number
    std::uint64_t buffers;   ///< 86
    std::uint64_t functions; ///< 92
};

/// A buffer line: `0 12845056 _`, `3 802816 input image batch`.
struct buffer {
    std::uint64_t line;                    ///< line number
    std::uint64_t id;                      ///< 0
    std::uint64_t size;                    ///< bytes: 12845056
    std::optional<std::string_view> name;  ///< none for `_`
};

/// An input of a function: `17 _`, `4 gradient`.
struct input {
    std::uint64_t id;                      ///< the buffer id
    std::optional<std::string_view> role;  ///< `input`, `output`, `gradient`; none for `_`
};

/// A whole function record.
struct function {
    std::uint64_t line;                ///< line number of its direction line
    std::uint64_t index;               ///< counts function records from 0 (broken ones too)
    std::string_view direction;        ///< `forward` or `backward`
    std::string_view func_type;        ///< `ReLU`, `Convolution2DFunction`
    std::span<const input> inputs;     ///< in order
    std::span<const std::uint64_t> outputs; ///< buffer ids, in order
    std::string_view params;           ///< the JSON object text as printed (checked: valid JSON), from `{` to `}`
    std::optional<std::int64_t> rank;  ///< the integer `rank` key of params, when there is one
};

/// Limits of one parser, fixed at construction: `max_line`, `max_io` (most inputs + outputs
/// of one function), `text_capacity` (bytes of one function's roles and type).
using options = format_options;

LOGSCAN_EVENT(on_header, "void on_header(const logscan::chainer_memtrace::header&)");
LOGSCAN_EVENT(on_buffer, "void on_buffer(const logscan::chainer_memtrace::buffer&)");
LOGSCAN_EVENT(on_function, "void on_function(const logscan::chainer_memtrace::function&)");

/// How an `input` is written: an object of `id` and `role` (record.hpp; declared only).
record_fields<field<"id", &input::id>, field<"role", &input::role>> describe(const input&);
/// A function's `params`: its JSON text as it is.
constexpr json_text params_of(const function& f) noexcept { return {f.params}; }

/// The format's records, described once (record.hpp): `record_types`, the visitor check,
/// `ndjson_visitor` come from here.
using records = record_list<
    record_kind<"header", header, on_header_event, field<"buffers", &header::buffers>,
                field<"functions", &header::functions>>,
    record_kind<"buffer", buffer, on_buffer_event, field<"id", &buffer::id>, field<"size", &buffer::size>,
                field<"name", &buffer::name>>,
    record_kind<"function", function, on_function_event, field<"index", &function::index>,
                field<"direction", &function::direction>, field<"func_type", &function::func_type>,
                field<"inputs", &function::inputs>, field<"outputs", &function::outputs>,
                field<"params", params_of>>,
    text_kind, error_kind>;

namespace detail {

// A parameter line is one JSON object with a top-level integer `rank`: the reader checks the
// whole line, and everything but the top-level `rank` values is skipped unread (validated,
// no events); the last `rank` wins, an integer in range or else null (json_project.hpp's
// `take` into a std::optional<std::int64_t>, without a projection's tables for one key).
struct params_check {
    bool is_object = false;
    std::optional<std::int64_t> rank;
    bool rank_next = false; // (the value after a top-level `rank` key)
    json::action on_object_begin() noexcept {
        if (!is_object && !rank_next) { // (the document itself)
            is_object = true;
            return json::action::proceed;
        }
        return value_is_not_rank();
    }
    void on_object_end() const noexcept {}
    json::action on_array_begin() noexcept { return value_is_not_rank(); }
    void on_array_end() const noexcept {}
    json::action on_key(std::string_view k) noexcept {
        rank_next = k == "rank";
        return rank_next ? json::action::proceed : json::action::skip;
    }
    void on_number(const json::number& n) noexcept {
        if (rank_next) rank = n.to_int64();
        rank_next = false;
    }
    void on_string(std::string_view) noexcept { (void)value_is_not_rank(); }
    void on_bool(bool) noexcept { (void)value_is_not_rank(); }
    void on_null() noexcept { (void)value_is_not_rank(); }
    json::action value_is_not_rank() noexcept {
        if (rank_next) rank = std::nullopt;
        rank_next = false;
        return json::action::skip;
    }
};
using params_reader = json::reader<params_check>;

constexpr std::string_view expected_counts = "function record: expected the counts `NIN NOUT`";
constexpr std::string_view expected_input = "function record: expected an input line `ID ROLE`";
constexpr std::string_view expected_output = "function record: expected an output line `ID`";
constexpr std::string_view expected_params = "function record: expected a JSON object of parameters";

// The format's reader of lines (a line_parser core, format.hpp).
template <class Visitor>
class core {
    static_assert(records::accepts<Visitor>());

public:
    core(Visitor& vis, const format_options& opt)
        : vis_(vis), opt_(opt), inputs_(new (std::nothrow) input[opt.max_io ? opt.max_io : 1]),
          outputs_(new (std::nothrow) std::uint64_t[opt.max_io ? opt.max_io : 1]),
          text_(new (std::nothrow) char[opt.text_capacity ? opt.text_capacity : 1]),
          json_opt_{.max_depth = 1024, .scratch_capacity = opt.max_line},
          json_storage_(new (std::nothrow) std::byte[detail::params_reader::storage_size(json_opt_)]) {}

    // After the last line: a record or buffer list cut short, counts that do not match.
    flow finish() {
        if (state_ == state::record && fail(rec_line_, "function record cut short") == flow::stop) return flow::stop;
        state_ = state::done;
        if (header_line_ != 0) {
            if (buffers_ < nbuf_ && !seen_direction_ && !buffer_cut_reported_ &&
                fail(header_line_, "buffer list cut short") == flow::stop)
                return flow::stop;
            if (started_ != nfunc_ && fail(header_line_, "function count does not match the header") == flow::stop)
                return flow::stop;
        }
        return flow::proceed;
    }
    flow line_too_long(const error& e) { return report_error(vis_, e); }

    // --- one input in parts (parallel.hpp; format.hpp's `resume`). A parser is at rest between
    // function records (the header read, or resumed); a part's fresh parser resumes there after
    // the records the parts before it start (their direction lines, counted by the calling
    // thread), and once kept takes the header's counts from the parser before (for `finish`).
    bool at_rest() const noexcept { return state_ == state::direction && (header_line_ != 0 || resumed_); }
    std::tuple<const core&> readers() const noexcept { return {*this}; }
    // The direction lines of `bytes` (whole lines: `forward` or `backward`, trailing blanks
    // allowed): a guess of the records they start (a line before the header is text, and
    // costs the part's reading again).
    static std::uint64_t part_units(std::string_view bytes) noexcept {
        static constexpr std::string_view directions[] = {"forward", "backward"};
        return internal::count_word_lines(bytes, directions);
    }
    void resume(std::uint64_t functions) noexcept {
        state_ = state::direction;
        started_ = functions;
        resumed_ = true;
    }
    bool resumes(std::uint64_t functions) const noexcept { return at_rest() && started_ == functions; }
    void inherit(const core& before) noexcept {
        header_line_ = before.header_line_;
        nbuf_ = before.nbuf_;
        nfunc_ = before.nfunc_;
        buffers_ = before.buffers_;
        buffer_cut_reported_ = before.buffer_cut_reported_;
        seen_direction_ = seen_direction_ || before.seen_direction_;
    }

private:
    enum class state : unsigned char { pre, buffers, direction, record, skip, done };
    enum class part : unsigned char { counts, inputs, outputs, type, params };

    flow fail(std::uint64_t line, std::string_view message) {
        return report_error(vis_, error{error_code::syntax, line, 0, 0, message, 0});
    }
    flow text(const line& l, std::string_view t) { return LOGSCAN_VISIT(vis_, on_text, line{t, l.number, l.offset}); }

    void start(const line& l, std::string_view t) {
        seen_direction_ = true;
        state_ = state::record;
        part_ = part::counts;
        rec_line_ = l.number;
        rec_index_ = started_++;
        direction_ = t == "forward" ? std::string_view("forward") : std::string_view("backward");
        nin_ = nout_ = left_ = 0;
        text_used_ = 0;
        func_type_ = {};
    }
    // Copies s into the record's text storage; false when it does not fit.
    bool keep(std::string_view s, std::string_view& out) noexcept {
        if (text_ == nullptr || s.size() > opt_.text_capacity - text_used_) return false;
        internal::copy_bytes(text_.get() + text_used_, s.data(), s.size());
        out = std::string_view(text_.get() + text_used_, s.size());
        text_used_ += s.size();
        return true;
    }
    flow broken(const line& l, std::string_view message) {
        state_ = state::skip;
        return fail(l.number, message);
    }

public:
    flow read_line(const line& l) {
        // a visitor that wants no record at all (validate_only): nothing a line holds can reach it
        if constexpr (!records::wants_some<Visitor>) return flow::proceed;
        const std::string_view t = internal::trim_right(l.text);
        if (t.empty()) return flow::proceed;
        const bool direction = t == "forward" || t == "backward";
        switch (state_) {
        case state::pre:
            if (std::uint64_t b = 0, f = 0; read_counts(t, b, f)) {
                header_line_ = l.number;
                nbuf_ = b;
                nfunc_ = f;
                state_ = nbuf_ > 0 ? state::buffers : state::direction;
                const header h{l.number, nbuf_, nfunc_};
                return LOGSCAN_VISIT(vis_, on_header, h);
            }
            return text(l, t);
        case state::buffers:
            // `(\d+)\s+(\d+)\s+(\S.*)` (t has no trailing spaces), the numbers converted as read
            {
                text_cursor c(t);
                std::uint64_t id = 0, size = 0;
                std::string_view name;
                if (c.unsigned_integer(id) && c.whitespace() && c.unsigned_integer(size) && c.whitespace() && c.rest(name)) {
                    if (++buffers_ == nbuf_) state_ = state::direction;
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push // (g++ -O3 warns that a disengaged optional's payload may be
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized" // used uninitialized: GCC bug 80635)
#endif
                    const buffer b{l.number, id, size, name == "_" ? std::nullopt : std::optional<std::string_view>(name)};
                    return LOGSCAN_VISIT(vis_, on_buffer, b);
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
                }
            }
            if (direction) {
                buffer_cut_reported_ = true;
                if (fail(l.number, "buffer list cut short") == flow::stop) return flow::stop;
                start(l, t);
                return flow::proceed;
            }
            return broken(l, "expected a buffer line `ID SIZE NAME`");
        case state::direction:
        case state::skip:
            if (direction) {
                start(l, t);
                return flow::proceed;
            }
            if (state_ == state::skip) return text(l, t);
            return broken(l, "expected a direction line (forward or backward)");
        case state::record:
            if (direction) {
                if (fail(rec_line_, "function record cut short") == flow::stop) return flow::stop;
                start(l, t);
                return flow::proceed;
            }
            return record_line(l, t);
        case state::done: break;
        }
        return flow::proceed;
    }

private:
    // `(\d+)\s+(\d+)`, the header's and a record's counts, converted as read.
    static constexpr bool read_counts(std::string_view t, std::uint64_t& a, std::uint64_t& b) noexcept {
        text_cursor c(t);
        return c.unsigned_integer(a) && c.whitespace() && c.unsigned_integer(b) && c.at_end();
    }
    // A line of the function record being read.
    flow record_line(const line& l, std::string_view t) {
        switch (part_) {
        case part::counts: {
            std::uint64_t a = 0, b = 0;
            if (!read_counts(t, a, b)) return broken(l, detail::expected_counts);
            nin_ = a;
            nout_ = b;
            left_ = nin_;
            part_ = part::inputs;
            break;
        }
        case part::inputs: {
            text_cursor c(t); // `(\d+)\s+(\S+)`
            std::uint64_t id = 0;
            std::string_view r;
            if (!(c.unsigned_integer(id) && c.whitespace() && c.word(r) && c.at_end())) return broken(l, detail::expected_input);
            const std::size_t k = static_cast<std::size_t>(nin_ - left_);
            if (k >= opt_.max_io || inputs_ == nullptr) return too_large(l);
            input& in = inputs_[k]; // (filled in place: no optional built and copied per line)
            in.id = id;
            if (r == "_") {
                in.role = std::nullopt;
            } else {
                std::string_view kept;
                if (!keep(r, kept)) return too_large(l);
                in.role = kept;
            }
            --left_;
            break;
        }
        case part::outputs: {
            text_cursor c(t); // `\d+`
            std::uint64_t id = 0;
            if (!(c.unsigned_integer(id) && c.at_end())) return broken(l, detail::expected_output);
            const std::size_t k = static_cast<std::size_t>(nout_ - left_);
            if (nin_ + k >= opt_.max_io || outputs_ == nullptr) return too_large(l);
            outputs_[k] = id;
            --left_;
            break;
        }
        case part::type:
            if (!keep(t, func_type_)) return too_large(l);
            part_ = part::params;
            return flow::proceed;
        case part::params: {
            detail::params_check c;
            {
                detail::params_reader r(c, json_opt_, std::span<std::byte>(json_storage_.get(), storage_bytes()));
                r.feed(t);
                r.finish();
                if (!r.ok() || !c.is_object) return broken(l, detail::expected_params);
            }
            state_ = state::direction;
            while (!t.empty() && (t.front() == ' ' || t.front() == '\t' || t.front() == '\r')) t.remove_prefix(1);
            while (!t.empty() && (t.back() == ' ' || t.back() == '\t' || t.back() == '\r')) t.remove_suffix(1);
            const function f{rec_line_, rec_index_, direction_, func_type_,
                             std::span<const input>(inputs_.get(), static_cast<std::size_t>(nin_)),
                             std::span<const std::uint64_t>(outputs_.get(), static_cast<std::size_t>(nout_)), t, c.rank};
            return LOGSCAN_VISIT(vis_, on_function, f);
        }
        }
        // past the parts that are complete
        if (part_ == part::inputs && left_ == 0) {
            part_ = part::outputs;
            left_ = nout_;
        }
        if (part_ == part::outputs && left_ == 0) part_ = part::type;
        return flow::proceed;
    }
    flow too_large(const line& l) { return broken(l, "function record larger than the parser's storage"); }
    std::size_t storage_bytes() const noexcept {
        return json_storage_ ? detail::params_reader::storage_size(json_opt_) : 0;
    }

    Visitor& vis_;
    format_options opt_;
    std::unique_ptr<input[]> inputs_;
    std::unique_ptr<std::uint64_t[]> outputs_;
    std::unique_ptr<char[]> text_;
    json::options json_opt_;
    std::unique_ptr<std::byte[]> json_storage_;
    state state_ = state::pre;
    part part_ = part::counts;
    bool seen_direction_ = false;
    bool buffer_cut_reported_ = false;
    bool resumed_ = false; // (begun at a part's start after the header: resume)
    std::uint64_t header_line_ = 0, nbuf_ = 0, nfunc_ = 0, buffers_ = 0, started_ = 0;
    std::uint64_t rec_line_ = 0, rec_index_ = 0, nin_ = 0, nout_ = 0, left_ = 0;
    std::string_view direction_, func_type_;
    std::size_t text_used_ = 0;
};

} // namespace detail

/// The push parser (format.hpp's `line_parser`): `feed(chunk)` any number of times (chunks
/// may split lines anywhere), then `finish()`. Holds the visitor by reference. Not copyable
/// or movable.
template <class Visitor>
using parser = line_parser<detail::core<Visitor>>;

/// What `detect` counts, in a few words (for `logscan detect --help`).
inline constexpr std::string_view detect_signals = "a `B F` line followed by buffer lines `ID SIZE NAME` or function records";

/// Where an input may be cut into parts parsed apart (`logscan --threads`, parallel.hpp): before
/// a direction line, where a function record begins. The part's parser resumes after the
/// records before it (format.hpp's `resume`); where it guessed wrong (a cut in the buffer
/// list, a record cut short across it), the parser before reads the part again.
constexpr bool split_point(std::string_view, std::string_view next) noexcept {
    next = internal::trim_right(next);
    return next == "forward" || next == "backward";
}

/// How much the first bytes of an input (`head`; `cut`: more input follows) look like a
/// chainer-memtrace: after a `B F` counts line, the number of buffer lines `ID SIZE NAME`
/// that follow it directly, plus the direction lines (`forward`, `backward`) followed by a
/// `NIN NOUT` line, among the first 256 lines; 0 without the counts line and a buffer line
/// (or a function record) after it.
constexpr std::size_t detect(std::string_view head, bool cut = true) noexcept {
    std::size_t score = 0, buffers = 0;
    bool header = false, in_buffers = false, after_direction = false;
    internal::for_each_head_line(head, cut, 256, [&](std::string_view l) {
        l = internal::trim_right(l);
        if (!header) {
            header = static_cast<bool>(match<R"(\d+\s+\d+)">(l));
            in_buffers = header;
            return;
        }
        if (in_buffers && match<R"(\d+\s+\d+\s+\S.*)">(l)) {
            ++buffers;
            return;
        }
        in_buffers = false;
        if (after_direction && match<R"(\d+\s+\d+)">(l)) ++score;
        after_direction = l == "forward" || l == "backward";
    });
    return header && (buffers + score) > 0 ? buffers + score + 1 : 0;
}

/// The format's names (format.hpp's `LOGSCAN_FORMAT_MODULE`): `format`, `record_types` (formats.md
/// section 3, `text` and `error` included), `visitor<V>`, `parse` (the source's error, `stopped`,
/// or none; problems inside the input go to `on_error` and do not stop the parse) and
/// `ndjson_visitor<Writer>` (`"line"` after `"type"`; `params` as the checked JSON text).
LOGSCAN_FORMAT_MODULE(format_name, records, detect, detect_signals, parser, split_point);

} // namespace logscan::chainer_memtrace

#endif // LOGSCAN_FORMATS_CHAINER_MEMTRACE_HPP_INCLUDED
