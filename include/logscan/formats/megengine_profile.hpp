// SPDX-License-Identifier: MIT
/// \file formats/megengine_profile.hpp
/// The `megengine-profile` format: the MegEngine profiler's JSON dump (the record contract is
/// formats.md, section 2), streamed through the JSON SAX reader: the document is never held
/// whole, and each record is assembled from its object's keys in whatever order they come
/// (in the real dumps `id` is last) in a scratch buffer of fixed size chosen at construction.
///
/// \code
/// #include <logscan/formats/megengine_profile.hpp>        // (also in the umbrella <logscan.hpp>)
/// struct device_time {
///     double total = 0;
///     void on_opr_time(const logscan::megengine_profile::opr_time& t) {
///         if (t.source == "device" && t.start && t.end) total += *t.end - *t.start;
///     }
/// };
/// device_time v;
/// logscan::file_source src("profile.json");
/// logscan::error e = logscan::megengine_profile::parse(src, v);
/// \endcode
///
/// Events, in document order (records are views, valid during the call; a field whose JSON
/// value is missing, `null` or of an unexpected type is empty — `std::nullopt`):
/// \code
/// void on_opr(const megengine_profile::opr&);                     // each value of graph_exec.operator
/// void on_var(const megengine_profile::var&);                     // each value of graph_exec.var
/// void on_mem_chunk(const megengine_profile::mem_chunk&);         // each value of graph_exec.mem_chunk
/// void on_exec(const megengine_profile::exec&);                   // each element of graph_exec.comp_seq
/// void on_opr_time(const megengine_profile::opr_time&);           // each profiler.host|device[OPR][UNIT]
/// void on_opr_footprint(const megengine_profile::opr_footprint&); // each profiler.opr_footprint[OPR]
/// void on_error(const logscan::error&);                           // see below
/// \endcode
/// Unknown keys, and the sections whose records the visitor has no callback for, are skipped
/// unread (validated, no events). A JSON syntax error (a truncated
/// file) is an `error` with its line, column and reason, and ends the parse; the records
/// before it were delivered (in NDJSON, formats.md section 2:
/// `{"type":"error","message":"invalid JSON document"}`). An object whose strings, lists and `param` do not fit the scratch buffer
/// (`scratch_capacity`, 64 KiB by default) is an `error` record ("object too large for the
/// scratch buffer", code `too_long`, `offset` = the start of the chunk in which the object
/// ended) instead of its record, and the parse goes on.
///
/// Allocation: the JSON reader's buffers and the scratch buffer, once, at construction;
/// nothing while parsing.
#ifndef LOGSCAN_FORMATS_MEGENGINE_PROFILE_HPP_INCLUDED
#define LOGSCAN_FORMATS_MEGENGINE_PROFILE_HPP_INCLUDED

#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string_view>
#include <type_traits>
#include <utility>

#include "../format.hpp" // (config, error, lines, source, visit, num, record, ndjson)
#include "../json_project.hpp"

namespace logscan::megengine_profile {

/// The format's name, as the command line knows it.
inline constexpr std::string_view format_name = "megengine-profile";

/// A list of strings (`inputs`, `outputs`, `flags`): iterate it for `std::string_view`s.
using string_list = json::string_list;

using opt_string = std::optional<std::string_view>; ///< a string field that may be null
using opt_uint = std::optional<std::uint64_t>;      ///< an integer field that may be null
using opt_double = std::optional<double>;           ///< a number field that may be null

/// An operator of `graph_exec.operator`.
struct opr {
    opt_string id;                       ///< `"621"`
    opt_string name;                     ///< `"conv(...)[621]"`
    opt_string opr_type;                 ///< the `type` key: `"ConvolutionForward"`
    std::optional<string_list> inputs;   ///< the `input` var ids
    std::optional<string_list> outputs;  ///< the `output` var ids
};

/// A var of `graph_exec.var`.
struct var {
    opt_string id;                      ///< `"211"`
    opt_string name;                    ///< `"const{128,128,3,3}[210]"`
    opt_string comp_node;               ///< `"gpu0:0"`
    std::optional<string_list> flags;   ///< the `flag` list
    std::optional<shape_list> shape;    ///< `static_infer_tags.SHAPE.inferred_result` when it is a list of integers
    opt_string dtype;                   ///< `mem_plan.layout.dtype`
    opt_string mem_chunk;               ///< `mem_plan.mem_chunk_id`
    opt_uint offset;                    ///< `mem_plan.offset_byte`
    opt_uint dev_ptr;                   ///< `dev_ptr`
};

/// A memory chunk of `graph_exec.mem_chunk`.
struct mem_chunk {
    opt_string id;        ///< `"chk200"`
    opt_string owner_var; ///< `"200"`
    opt_uint size;        ///< bytes
    opt_uint dev_ptr;     ///< device address
};

/// An element of `graph_exec.comp_seq`, with its position.
struct exec {
    std::uint64_t index; ///< 0-based position in comp_seq
    opt_string opr_id;   ///< the operator id (null if the element is not a string)
};

/// `profiler.host[OPR][UNIT]` or `profiler.device[OPR][UNIT]`.
struct opr_time {
    std::string_view opr_id; ///< OPR
    std::string_view source; ///< `"host"` or `"device"`
    std::string_view unit;   ///< UNIT: `"gpu0:0"`, `"interpreter"`
    opt_double start;        ///< seconds
    opt_double kern;         ///< seconds
    opt_double end;          ///< seconds
};

/// `profiler.opr_footprint[OPR]`.
struct opr_footprint {
    std::string_view opr_id;                  ///< OPR
    opt_uint computation;                     ///< may be null
    opt_uint memory;                          ///< may be null
    std::optional<shape_sequence> in_shapes;  ///< the input shapes (`[10,512,28,28]` each)
    std::optional<shape_sequence> out_shapes; ///< the output shapes
    opt_string param;                         ///< the `param` object as compact JSON text
};

LOGSCAN_EVENT(on_opr, "void on_opr(const logscan::megengine_profile::opr&)");
LOGSCAN_EVENT(on_var, "void on_var(const logscan::megengine_profile::var&)");
LOGSCAN_EVENT(on_mem_chunk, "void on_mem_chunk(const logscan::megengine_profile::mem_chunk&)");
LOGSCAN_EVENT(on_exec, "void on_exec(const logscan::megengine_profile::exec&)");
LOGSCAN_EVENT(on_opr_time, "void on_opr_time(const logscan::megengine_profile::opr_time&)");
LOGSCAN_EVENT(on_opr_footprint, "void on_opr_footprint(const logscan::megengine_profile::opr_footprint&)");

/// An operator's `param`: its compact JSON text as it is, or null.
constexpr std::optional<json_text> param_of(const opr_footprint& r) noexcept {
    if (!r.param) return std::nullopt;
    return json_text{*r.param};
}

/// The format's records, described once (record.hpp): `record_types`, the visitor check,
/// `ndjson_visitor` come from here.
using records = record_list<
    record_kind<"opr", opr, on_opr_event, field<"id", &opr::id>, field<"name", &opr::name>,
                field<"opr_type", &opr::opr_type>, field<"inputs", &opr::inputs>, field<"outputs", &opr::outputs>>,
    record_kind<"var", var, on_var_event, field<"id", &var::id>, field<"name", &var::name>,
                field<"comp_node", &var::comp_node>, field<"flags", &var::flags>, field<"shape", &var::shape>,
                field<"dtype", &var::dtype>, field<"mem_chunk", &var::mem_chunk>, field<"offset", &var::offset>,
                field<"dev_ptr", &var::dev_ptr>>,
    record_kind<"mem_chunk", mem_chunk, on_mem_chunk_event, field<"id", &mem_chunk::id>,
                field<"owner_var", &mem_chunk::owner_var>, field<"size", &mem_chunk::size>,
                field<"dev_ptr", &mem_chunk::dev_ptr>>,
    record_kind<"exec", exec, on_exec_event, field<"index", &exec::index>, field<"opr_id", &exec::opr_id>>,
    record_kind<"opr_time", opr_time, on_opr_time_event, field<"opr_id", &opr_time::opr_id>,
                field<"source", &opr_time::source>, field<"unit", &opr_time::unit>, field<"start", &opr_time::start>,
                field<"kern", &opr_time::kern>, field<"end", &opr_time::end>>,
    record_kind<"opr_footprint", opr_footprint, on_opr_footprint_event, field<"opr_id", &opr_footprint::opr_id>,
                field<"computation", &opr_footprint::computation>, field<"memory", &opr_footprint::memory>,
                field<"in_shapes", &opr_footprint::in_shapes>, field<"out_shapes", &opr_footprint::out_shapes>,
                field<"param", param_of>>,
    document_error_kind>;

/// Parser settings (format.hpp's, one type for every format): `scratch_capacity`, the bytes
/// of scratch space for one object's strings, lists and `param` text.
using options = format_options;

/// Where each record stands in the dump, and where its fields stand in it (json_project.hpp):
/// the whole reading of the document. A section whose records the visitor has no callback
/// for is skipped unread.
using routes = json::projection<
    json::route<opr, on_opr_event, "graph_exec.operator.*", json::take<"id", &opr::id>, json::take<"name", &opr::name>,
                json::take<"type", &opr::opr_type>, json::take<"input", &opr::inputs>,
                json::take<"output", &opr::outputs>>,
    json::route<var, on_var_event, "graph_exec.var.*", json::take<"id", &var::id>, json::take<"name", &var::name>,
                json::take<"comp_node", &var::comp_node>, json::take<"flag", &var::flags>,
                json::take<"static_infer_tags.SHAPE.inferred_result", &var::shape>,
                json::take<"mem_plan.layout.dtype", &var::dtype>, json::take<"mem_plan.mem_chunk_id", &var::mem_chunk>,
                json::take<"mem_plan.offset_byte", &var::offset>, json::take<"dev_ptr", &var::dev_ptr>>,
    json::route<mem_chunk, on_mem_chunk_event, "graph_exec.mem_chunk.*", json::take<"id", &mem_chunk::id>,
                json::take<"owner_var", &mem_chunk::owner_var>, json::take<"size", &mem_chunk::size>,
                json::take<"dev_ptr", &mem_chunk::dev_ptr>>,
    json::route<exec, on_exec_event, "graph_exec.comp_seq[]", json::take_key<&exec::index>,
                json::take<"", &exec::opr_id>>,
    json::route<opr_time, on_opr_time_event, "profiler.host|device.*.*", json::take_key<&opr_time::source>,
                json::take_key<&opr_time::opr_id>, json::take_key<&opr_time::unit>,
                json::take<"start", &opr_time::start>, json::take<"kern", &opr_time::kern>,
                json::take<"end", &opr_time::end>>,
    json::route<opr_footprint, on_opr_footprint_event, "profiler.opr_footprint.*",
                json::take_key<&opr_footprint::opr_id>, json::take<"computation", &opr_footprint::computation>,
                json::take<"memory", &opr_footprint::memory>, json::take<"in_shapes", &opr_footprint::in_shapes>,
                json::take<"out_shapes", &opr_footprint::out_shapes>,
                json::take_text<"param", &opr_footprint::param>>>;

/// The push parser (json_project.hpp's `projection_parser` of the routes): `feed(chunk)` any
/// number of times (any split), then `finish()`; `result()` is the document's outcome. A bare
/// non-finite number word (`nan`, `-inf`, ... in any case: MegEngine before 1.7 printed
/// them with `%.15g`) is a number with no finite value: a number field holding it is null in
/// NDJSON (`opr_time` gives NaN or +-infinity in C++), an integer field is null (formats.md
/// section 2). Allocates its buffers once, at construction. Not copyable or movable.
template <class Visitor>
using parser = json::projection_parser<Visitor, records, routes, json::options{.non_finite_words = true}>;

/// What `detect` counts, in a few words (for `logscan detect --help`).
inline constexpr std::string_view detect_signals = "a JSON object with the dump's keys (\"profiler\", \"graph_exec\", ...)";

/// How much the first bytes of an input (`head`; `cut`: more input follows) look like a
/// megengine-profile: 0 unless the first non-blank byte is `{`; else the number of the
/// dump's own keys (`"profiler"`, `"graph_exec"`, `"opr_internal_pf"`, `"opr_footprint"`,
/// `"comp_seq"`, `"mem_chunk"`, `"interpreter"`, `"owner_opr"`) found in it, in any order
/// and layout (pretty-printed, keys shuffled), when there are at least two.
constexpr std::size_t detect(std::string_view head, bool = true) noexcept {
    const std::size_t first = head.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos || head[first] != '{') return 0;
    std::size_t score = 0;
    for (std::string_view k : {std::string_view("\"profiler\""), std::string_view("\"graph_exec\""),
                               std::string_view("\"opr_internal_pf\""), std::string_view("\"opr_footprint\""),
                               std::string_view("\"comp_seq\""), std::string_view("\"mem_chunk\""),
                               std::string_view("\"interpreter\""), std::string_view("\"owner_opr\"")})
        if (head.find(k) != std::string_view::npos) ++score;
    return score >= 2 ? score : 0;
}

/// The format's names (format.hpp's `LOGSCAN_FORMAT_MODULE`): `format`, `record_types` (formats.md
/// section 2, `error` included), `visitor<V>`, `parse` (the source's error (with errno), or none;
/// the document's own errors went to `on_error` (and are in the returned error too, except for
/// objects too large, which do not end the parse)) and `ndjson_visitor<Writer>` (`null` for absent
/// values; `param` as its compact JSON text; where the document breaks,
/// `{"type":"error","message":"invalid JSON document"}` (record.hpp's `document_error_kind`)).
LOGSCAN_FORMAT_MODULE(format_name, records, detect, detect_signals, parser);

} // namespace logscan::megengine_profile

#endif // LOGSCAN_FORMATS_MEGENGINE_PROFILE_HPP_INCLUDED
