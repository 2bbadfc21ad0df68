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
/// file) is an `error` with its line and column, and ends the parse; the records before it
/// were delivered. An object whose strings, lists and `param` do not fit the scratch buffer
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
#include "../json.hpp"

namespace logscan::megengine_profile {

/// The format's name, as the command line knows it.
inline constexpr std::string_view format_name = "megengine-profile";

/// A list of strings held in the parser's scratch buffer (`inputs`, `outputs`, `flags`):
/// iterate it for `std::string_view`s.
class string_list {
public:
    /// Forward iterator over the strings.
    class iterator {
    public:
        using value_type = std::string_view;      ///< a string
        using difference_type = std::ptrdiff_t;   ///< unused
        constexpr iterator() noexcept = default;
        /// The current string.
        std::string_view operator*() const noexcept { return {p_ + sizeof(std::uint32_t), len()}; }
        /// Next string.
        iterator& operator++() noexcept {
            p_ += sizeof(std::uint32_t) + len();
            return *this;
        }
        /// Next string; returns the previous position.
        iterator operator++(int) noexcept {
            iterator t = *this;
            ++*this;
            return t;
        }
        /// Same position.
        friend bool operator==(const iterator& a, const iterator& b) noexcept { return a.p_ == b.p_; }

    private:
        friend class string_list;
        explicit iterator(const char* p) noexcept : p_(p) {}
        std::size_t len() const noexcept {
            std::uint32_t n;
            std::memcpy(&n, p_, sizeof n);
            return n;
        }
        const char* p_ = nullptr;
    };

    constexpr string_list() noexcept = default;
    /// (Made by the parser: `bytes` holds length-prefixed strings.)
    constexpr string_list(std::string_view bytes, std::size_t count) noexcept : bytes_(bytes), count_(count) {}
    /// Number of strings.
    constexpr std::size_t size() const noexcept { return count_; }
    /// True when there are none.
    constexpr bool empty() const noexcept { return count_ == 0; }
    /// First string.
    iterator begin() const noexcept { return iterator(bytes_.data()); }
    /// Past the last string.
    iterator end() const noexcept { return iterator(bytes_.data() + bytes_.size()); }

private:
    std::string_view bytes_{};
    std::size_t count_ = 0;
};

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
    error_kind>;

/// The `"type"` of every record the format yields (formats.md section 2), `error` included.
inline constexpr const auto& record_types = records::types;

/// True when V has at least one of the format's callbacks (or derives from `validate_only`).
template <class V>
concept visitor = records::accepted_by<V>;

/// Parser settings (format.hpp's, one type for every format): `scratch_capacity`, the bytes
/// of scratch space for one object's strings, lists and `param` text.
using options = format_options;

namespace detail {

// What a container or value is, by where it stands.
enum class role : unsigned char {
    none, skip, root, profiler, graph_exec,
    time_section, time_opr, time_unit,                 // profiler.host|device . OPR . UNIT
    fp_section, fp, fp_shapes, fp_shape, raw,          // profiler.opr_footprint . OPR
    comp_seq, chunk_section, chunk, var_section, var, var_flags, var_tags, var_shape_tag, var_shape,
    var_plan, var_layout, opr_section, opr, opr_in, opr_out,
};

// The field a key names inside a record object.
enum class field : unsigned char {
    none, id, name, comp_node, type, dev_ptr, owner_var, size, start, kern, end, computation, memory,
    mem_chunk_id, offset_byte, dtype,
};

// A slice of the scratch buffer (valid until the record is delivered).
struct slot {
    std::uint32_t at = 0, len = 0;
    bool set = false;
};

// Collects one record's fields in the scratch buffer.
struct builder {
    char* buf = nullptr;
    std::size_t cap = 0, used = 0, base = 0; // base: start of the current record's data
    bool overflow = false;

    bool put(std::string_view s) noexcept {
        if (overflow || s.size() > cap - used) {
            overflow = true;
            return false;
        }
        if (!s.empty()) std::memcpy(buf + used, s.data(), s.size());
        used += s.size();
        return true;
    }
    slot copy(std::string_view s) noexcept {
        slot r{static_cast<std::uint32_t>(used), static_cast<std::uint32_t>(s.size()), true};
        if (!put(s)) return {};
        return r;
    }
    std::string_view view(const slot& s) const noexcept { return {buf + s.at, s.len}; }
    std::string_view span(std::size_t from) const noexcept { return {buf + from, used - from}; }
};

// A sink for ndjson_writer that appends to the builder (the `param` text).
struct builder_sink {
    builder* b;
    bool operator()(std::string_view s) const noexcept { return b->put(s); }
};

template <class V>
class handler {
public:
    handler(V& vis, std::span<char> scratch) noexcept : vis_(vis) {
        b_.buf = scratch.data();
        b_.cap = scratch.size();
    }

    std::uint64_t offset = 0; // set by the parser: bytes fed before the current chunk
    bool stopped = false;

    json::action on_object_begin() { return begin(true); }
    json::action on_array_begin() { return begin(false); }
    json::action on_object_end() { return end(); }
    json::action on_array_end() { return end(); }

    json::action on_key(std::string_view k) {
        const role r = top();
        if (r == role::raw) {
            raw_.key(k);
            return json::action::proceed;
        }
        key_ = field::none;
        next_ = role::skip;
        switch (r) {
        case role::root:
            next_ = k == "profiler" ? role::profiler : k == "graph_exec" ? role::graph_exec : role::skip;
            break;
        // a section whose records the visitor does not take is skipped unread
        case role::profiler:
            if ((k == "host" || k == "device") && wants<opr_time>) {
                next_ = role::time_section;
                source_ = k == "host" ? std::string_view("host") : std::string_view("device");
            } else if (k == "opr_footprint" && wants<opr_footprint>) {
                next_ = role::fp_section;
            }
            break;
        case role::graph_exec:
            next_ = k == "comp_seq" && wants<exec>             ? role::comp_seq
                    : k == "mem_chunk" && wants<mem_chunk>     ? role::chunk_section
                    : k == "var" && wants<var>                 ? role::var_section
                    : k == "operator" && wants<opr>            ? role::opr_section
                                                               : role::skip;
            break;
        case role::time_section: // OPR: kept for its units' records
            b_.used = 0;
            opr_key_ = b_.copy(k);
            b_.base = b_.used;
            next_ = role::time_opr;
            break;
        case role::time_opr:
            b_.used = b_.base;
            b_.overflow = false;
            unit_key_ = b_.copy(k);
            next_ = role::time_unit;
            break;
        case role::fp_section:
            b_.used = 0;
            b_.overflow = false;
            opr_key_ = b_.copy(k);
            next_ = role::fp;
            break;
        case role::chunk_section: next_ = role::chunk; break;
        case role::var_section: next_ = role::var; break;
        case role::opr_section: next_ = role::opr; break;
        case role::time_unit: return scalar_key(k == "start" ? field::start : k == "kern" ? field::kern : k == "end" ? field::end : field::none);
        case role::fp:
            if (k == "in_shapes" || k == "out_shapes") {
                next_ = role::fp_shapes;
                shapes_in_ = k == "in_shapes";
                return json::action::proceed;
            }
            if (k == "param") {
                next_ = role::raw;
                return json::action::proceed;
            }
            return scalar_key(k == "computation" ? field::computation : k == "memory" ? field::memory : field::none);
        case role::chunk:
            return scalar_key(k == "id" ? field::id : k == "owner_var" ? field::owner_var : k == "size" ? field::size
                              : k == "dev_ptr" ? field::dev_ptr : field::none);
        case role::var:
            if (k == "flag") {
                next_ = role::var_flags;
                return json::action::proceed;
            }
            if (k == "static_infer_tags") {
                next_ = role::var_tags;
                return json::action::proceed;
            }
            if (k == "mem_plan") {
                next_ = role::var_plan;
                key_ = field::none; // (a null or non-object mem_plan leaves its fields null)
                return json::action::proceed;
            }
            return scalar_key(k == "id" ? field::id : k == "name" ? field::name : k == "comp_node" ? field::comp_node
                              : k == "dev_ptr" ? field::dev_ptr : field::none);
        case role::var_tags:
            if (k == "SHAPE") next_ = role::var_shape_tag;
            break;
        case role::var_shape_tag:
            if (k == "inferred_result") {
                next_ = role::var_shape;
                return json::action::proceed;
            }
            break;
        case role::var_plan:
            if (k == "layout") {
                next_ = role::var_layout;
                return json::action::proceed;
            }
            return scalar_key(k == "mem_chunk_id" ? field::mem_chunk_id : k == "offset_byte" ? field::offset_byte : field::none);
        case role::var_layout: return scalar_key(k == "dtype" ? field::dtype : field::none);
        case role::opr:
            if (k == "input" || k == "output") {
                next_ = k == "input" ? role::opr_in : role::opr_out;
                return json::action::proceed;
            }
            return scalar_key(k == "id" ? field::id : k == "name" ? field::name : k == "type" ? field::type : field::none);
        default: break;
        }
        return next_ == role::skip ? json::action::skip : json::action::proceed;
    }

    json::action on_string(std::string_view s) {
        const role r = top();
        switch (r) {
        case role::raw: raw_.value(s); break;
        case role::comp_seq: {
            const exec e{exec_index_++, std::optional<std::string_view>(s)};
            return deliver(LOGSCAN_VISIT(vis_, on_exec, e));
        }
        case role::var_flags:
        case role::opr_in:
        case role::opr_out: list_add(s); break;
        case role::var_shape:
        case role::fp_shape: shape_bad_ = true; break;
        case role::fp_shapes: shapes_bad_ = true; break; // a string where a shape belongs
        default: set_string(s); break;
        }
        return json::action::proceed;
    }
    json::action on_number(const json::number& n) {
        switch (top()) {
        case role::raw: raw_.raw_value(n.text()); break;
        case role::comp_seq: return non_string_exec();
        case role::var_flags:
        case role::opr_in:
        case role::opr_out: list_bad_ = true; break;
        case role::var_shape:
        case role::fp_shape: shape_dim(n); break;
        case role::fp_shapes: shapes_bad_ = true; break; // a number where a shape belongs
        default: set_number(n); break;
        }
        key_ = field::none;
        return json::action::proceed;
    }
    // a JSON syntax error (from the reader): the user's error record
    void on_error(const error& e) { (void)deliver(report_error(vis_, e)); }

    json::action on_bool(bool v) {
        if (top() == role::raw) raw_.value(v);
        else other_scalar();
        return top() == role::comp_seq ? non_string_exec() : json::action::proceed;
    }
    json::action on_null() {
        if (top() == role::raw) raw_.value(nullptr);
        else other_scalar();
        return top() == role::comp_seq ? non_string_exec() : json::action::proceed;
    }

private:
    static constexpr std::size_t max_depth = 16;

    // True when the visitor has the callback of record R (a misdeclared one is still a compile
    // error: every callback is called through LOGSCAN_VISIT below).
    template <class R>
    static constexpr bool wants = [] {
        if constexpr (std::is_same_v<R, opr>) return requires(V& v, const R& r) { v.on_opr(r); };
        else if constexpr (std::is_same_v<R, var>) return requires(V& v, const R& r) { v.on_var(r); };
        else if constexpr (std::is_same_v<R, mem_chunk>) return requires(V& v, const R& r) { v.on_mem_chunk(r); };
        else if constexpr (std::is_same_v<R, exec>) return requires(V& v, const R& r) { v.on_exec(r); };
        else if constexpr (std::is_same_v<R, opr_time>) return requires(V& v, const R& r) { v.on_opr_time(r); };
        else return requires(V& v, const R& r) { v.on_opr_footprint(r); };
    }();

    role top() const noexcept { return depth_ == 0 ? role::none : stack_[depth_ - 1]; }

    json::action scalar_key(field f) {
        key_ = f;
        next_ = role::skip;
        return f == field::none ? json::action::skip : json::action::proceed;
    }

    json::action begin(bool object) {
        const role parent = top();
        role r;
        if (parent == role::raw) { // a container inside param
            if (raw_depth_ < 64) {
                if (object) raw_kinds_ |= std::uint64_t{1} << raw_depth_;
                else raw_kinds_ &= ~(std::uint64_t{1} << raw_depth_);
            } else {
                b_.overflow = true; // (too deep to write back: the record becomes an error)
            }
            ++raw_depth_;
            if (object) raw_.begin_object();
            else raw_.begin_array();
            return json::action::proceed;
        }
        if (depth_ == 0) r = object ? role::root : role::skip;
        else if (parent == role::comp_seq) { // a container where an opr id should be
            (void)non_string_exec();
            r = role::skip;
        } else if (parent == role::fp_shapes) {
            r = object ? role::skip : role::fp_shape;
            if (!object) shape_begin();
            else shapes_bad_ = true;
        } else if (parent == role::var_flags || parent == role::opr_in || parent == role::opr_out) {
            list_bad_ = true;
            r = role::skip;
        } else if (parent == role::var_shape || parent == role::fp_shape) {
            shape_bad_ = true;
            r = role::skip;
        } else {
            r = next_;
            key_ = field::none;
            // a container must be of the kind its role expects
            const bool want_array = r == role::comp_seq || r == role::var_flags || r == role::var_shape ||
                                    r == role::fp_shapes || r == role::opr_in || r == role::opr_out;
            const bool want_any = r == role::raw;
            if (r != role::skip && !want_any && want_array != !object) r = role::skip;
            start(r, object);
        }
        next_ = role::skip;
        if (depth_ == max_depth) { // (nothing of ours is this deep: skipped, its end is counted)
            ++too_deep_;
            return json::action::skip;
        }
        stack_[depth_++] = r;
        return r == role::skip ? json::action::skip : json::action::proceed;
    }

    json::action end() {
        if (too_deep_ > 0) {
            --too_deep_;
            return json::action::proceed;
        }
        if (depth_ == 0) return json::action::proceed;
        if (stack_[depth_ - 1] == role::raw && raw_depth_ > 1) { // a container inside param ends
            --raw_depth_;
            if (raw_depth_ < 64 && (raw_kinds_ >> raw_depth_ & 1u)) raw_.end_object();
            else raw_.end_array();
            return json::action::proceed;
        }
        const role r = stack_[--depth_];
        return finish(r);
    }

    // -- per-role starts and ends --
    void start(role r, bool object) {
        switch (r) {
        case role::time_unit: times_ = {}; break;
        case role::fp: fp_ = {}; break;
        case role::chunk:
            reset_record();
            chunk_ = {};
            break;
        case role::var:
            reset_record();
            var_ = {};
            break;
        case role::opr:
            reset_record();
            opr_ = {};
            break;
        case role::var_flags:
        case role::opr_in:
        case role::opr_out: list_begin(); break;
        case role::var_shape: shape_begin(); break;
        case role::fp_shapes:
            shapes_begin_ = b_.used;
            shapes_bad_ = false;
            shapes_count_ = 0;
            break;
        case role::raw:
            raw_from_ = b_.used;
            raw_depth_ = 1;
            raw_kinds_ = object ? 1u : 0u;
            raw_ = ndjson_writer<builder_sink>(builder_sink{&b_}, std::span<char>(raw_buf_));
            if (object) raw_.begin_object();
            else raw_.begin_array();
            break;
        default: break;
        }
    }

    json::action finish(role r) {
        switch (r) {
        case role::time_unit: {
            if (b_.overflow) return too_large();
            const opr_time t{b_.view(opr_key_), source_, b_.view(unit_key_), times_.start, times_.kern, times_.end};
            return deliver(LOGSCAN_VISIT(vis_, on_opr_time, t));
        }
        case role::fp: {
            if (b_.overflow) return too_large();
            opr_footprint f = fp_;
            f.opr_id = b_.view(opr_key_);
            return deliver(LOGSCAN_VISIT(vis_, on_opr_footprint, std::as_const(f)));
        }
        case role::chunk:
            if (b_.overflow) return too_large();
            chunk_.id = opt(b_, chunk_id_);
            chunk_.owner_var = opt(b_, owner_);
            return deliver(LOGSCAN_VISIT(vis_, on_mem_chunk, std::as_const(chunk_)));
        case role::var:
            if (b_.overflow) return too_large();
            resolve_strings(var_);
            return deliver(LOGSCAN_VISIT(vis_, on_var, std::as_const(var_)));
        case role::opr:
            if (b_.overflow) return too_large();
            resolve_strings(opr_);
            return deliver(LOGSCAN_VISIT(vis_, on_opr, std::as_const(opr_)));
        case role::var_flags: var_.flags = list_end(); break;
        case role::opr_in: opr_.inputs = list_end(); break;
        case role::opr_out: opr_.outputs = list_end(); break;
        case role::var_shape: {
            const std::optional<shape_list> s = shape_end();
            var_.shape = s;
            break;
        }
        case role::fp_shape:
            if (!shape_bad_ && b_.put("]")) ++shapes_count_;
            else shapes_bad_ = true;
            break;
        case role::fp_shapes: {
            std::optional<shape_sequence> seq;
            if (!shapes_bad_ && !b_.overflow) {
                const shape_sequence q = shape_lists(b_.span(shapes_begin_));
                if (q.ok()) seq = q; // (anything but lists of integers is null)
            }
            (shapes_in_ ? fp_.in_shapes : fp_.out_shapes) = seq;
            break;
        }
        case role::raw:
            raw_depth_ = 0;
            if (raw_kinds_ & 1u) raw_.end_object();
            else raw_.end_array();
            raw_.flush();
            if (!b_.overflow) fp_.param = b_.span(raw_from_);
            break;
        default: break;
        }
        return json::action::proceed;
    }

    // -- scalar fields --
    void set_string(std::string_view s) {
        const slot sl = b_.copy(s);
        switch (top()) {
        case role::chunk:
            if (key_ == field::id) chunk_id_ = sl;
            else if (key_ == field::owner_var) owner_ = sl;
            break;
        case role::var:
        case role::opr:
            if (key_ == field::id) id_ = sl;
            else if (key_ == field::name) name_ = sl;
            else if (key_ == field::comp_node || key_ == field::type) third_ = sl;
            break;
        case role::var_plan:
            if (key_ == field::mem_chunk_id) plan_chunk_ = sl;
            break;
        case role::var_layout:
            if (key_ == field::dtype) dtype_ = sl;
            break;
        default: break;
        }
        key_ = field::none;
    }
    void set_number(const json::number& n) {
        const opt_uint u = n.to_uint64();
        switch (top()) {
        case role::time_unit: {
            const double d = n.to_double();
            if (key_ == field::start) times_.start = d;
            else if (key_ == field::kern) times_.kern = d;
            else if (key_ == field::end) times_.end = d;
            break;
        }
        case role::fp:
            if (key_ == field::computation) fp_.computation = u;
            else if (key_ == field::memory) fp_.memory = u;
            break;
        case role::chunk:
            if (key_ == field::size) chunk_.size = u;
            else if (key_ == field::dev_ptr) chunk_.dev_ptr = u;
            break;
        case role::var:
            if (key_ == field::dev_ptr) var_.dev_ptr = u;
            break;
        case role::var_plan:
            if (key_ == field::offset_byte) var_.offset = u;
            break;
        default: break;
        }
    }
    void other_scalar() {
        switch (top()) {
        case role::var_flags:
        case role::opr_in:
        case role::opr_out: list_bad_ = true; break;
        case role::var_shape:
        case role::fp_shape: shape_bad_ = true; break;
        case role::fp_shapes: shapes_bad_ = true; break;
        default: break; // null / bool where a string or number belongs: the field stays null
        }
        key_ = field::none;
    }
    json::action non_string_exec() {
        const exec e{exec_index_++, std::nullopt};
        return deliver(LOGSCAN_VISIT(vis_, on_exec, e));
    }

    void reset_record() {
        b_.used = 0;
        b_.overflow = false;
        id_ = name_ = third_ = chunk_id_ = owner_ = plan_chunk_ = dtype_ = {};
    }
    static opt_string opt(const builder& b, const slot& s) { return s.set ? opt_string(b.view(s)) : std::nullopt; }
    void resolve_strings(var& v) {
        v.id = opt(b_, id_);
        v.name = opt(b_, name_);
        v.comp_node = opt(b_, third_);
        v.mem_chunk = opt(b_, plan_chunk_);
        v.dtype = opt(b_, dtype_);
    }
    void resolve_strings(opr& o) {
        o.id = opt(b_, id_);
        o.name = opt(b_, name_);
        o.opr_type = opt(b_, third_);
    }

    // -- lists of strings --
    void list_begin() {
        list_from_ = b_.used;
        list_count_ = 0;
        list_bad_ = false;
    }
    void list_add(std::string_view s) {
        const auto n = static_cast<std::uint32_t>(s.size());
        char len[sizeof n];
        std::memcpy(len, &n, sizeof n);
        b_.put(std::string_view(len, sizeof n));
        b_.put(s);
        ++list_count_;
    }
    std::optional<string_list> list_end() {
        if (list_bad_ || b_.overflow) return std::nullopt;
        return string_list(b_.span(list_from_), list_count_);
    }

    // -- shapes: the integers as text `[a,b,...]` in the scratch buffer --
    void shape_begin() {
        shape_bad_ = false;
        shape_dims_ = 0;
        if (top() == role::fp_shapes && shapes_count_ > 0) b_.put(",");
        shape_from_text_ = b_.used;
        b_.put("[");
    }
    void shape_dim(const json::number& n) {
        const std::optional<std::int64_t> d = n.to_int64();
        if (!d) {
            shape_bad_ = true;
            return;
        }
        char buf[24];
        const auto r = std::to_chars(buf, buf + sizeof buf, *d);
        if (shape_dims_++ > 0) b_.put(",");
        b_.put(std::string_view(buf, static_cast<std::size_t>(r.ptr - buf)));
    }
    std::optional<shape_list> shape_end() {
        if (shape_bad_ || !b_.put("]")) return std::nullopt;
        const shape_list s = shape_dims(b_.span(shape_from_text_));
        return s.ok() ? std::optional<shape_list>(s) : std::nullopt;
    }

    json::action too_large() {
        const error e{error_code::too_long, 0, 0, offset, "object too large for the scratch buffer", 0};
        b_.overflow = false;
        return deliver(report_error(vis_, e));
    }
    json::action deliver(flow f) {
        if (f == flow::stop) {
            stopped = true;
            return json::action::stop;
        }
        return json::action::proceed;
    }

    V& vis_;
    builder b_;
    role stack_[max_depth]{};
    std::size_t depth_ = 0;
    role next_ = role::root;
    field key_ = field::none;
    std::string_view source_;
    slot opr_key_, unit_key_, id_, name_, third_, chunk_id_, owner_, plan_chunk_, dtype_;
    struct { opt_double start, kern, end; } times_{};
    opr_footprint fp_{};
    mem_chunk chunk_{};
    var var_{};
    opr opr_{};
    std::uint64_t exec_index_ = 0;
    std::size_t list_from_ = 0, list_count_ = 0;
    bool list_bad_ = false;
    std::size_t shape_from_text_ = 0, shape_dims_ = 0;
    bool shape_bad_ = false;
    std::size_t shapes_begin_ = 0, shapes_count_ = 0;
    bool shapes_bad_ = false, shapes_in_ = false;
    std::size_t raw_from_ = 0, raw_depth_ = 0, too_deep_ = 0;
    std::uint64_t raw_kinds_ = 0; // bit d: the param container at depth d is an object
    char raw_buf_[256];
    ndjson_writer<builder_sink> raw_{builder_sink{nullptr}, std::span<char>(raw_buf_)};
};

} // namespace detail

/// The push parser: `feed(chunk)` any number of times (any split), then `finish()`. Holds
/// the visitor by reference; allocates its buffers once, here. Not copyable or movable.
template <class Visitor>
class parser {
    static_assert(records::accepts<Visitor>());

public:
    explicit parser(Visitor& vis, const options& opt = {})
        : vis_(vis), scratch_(static_cast<char*>(std::malloc(opt.scratch_capacity ? opt.scratch_capacity : 1))),
          handler_(vis, std::span<char>(scratch_, scratch_ ? opt.scratch_capacity : 0)), reader_(handler_) {}
    parser(const parser&) = delete;
    parser& operator=(const parser&) = delete;
    ~parser() { std::free(scratch_); }

    /// Feeds the next chunk. Returns `flow::stop` once the parse has ended (an error in the
    /// document, or a callback stopped it).
    flow feed(std::string_view chunk) {
        handler_.offset = reader_.bytes();
        return reader_.feed(chunk);
    }
    /// Ends the input.
    flow finish() { return reader_.finish(); }
    /// The JSON reader's outcome: none, a syntax error (also delivered to `on_error`) or stopped.
    const error& result() const noexcept { return reader_.result(); }

private:
    Visitor& vis_;
    char* scratch_;
    detail::handler<Visitor> handler_;
    json::reader<detail::handler<Visitor>> reader_;
};

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

/// `parse(source, vis, options)` reads a whole source, `parse(document, vis, options)` a
/// document in memory (format.hpp's `format_parse`). Returns the source's error (with errno),
/// or none; the document's own errors went to `on_error` (and are in the returned error too,
/// except for objects too large, which do not end the parse).
inline constexpr format_parse<parser> parse{};

/// The visitor that writes every record as formats.md's NDJSON through an `ndjson_writer`
/// (`"type"`, then the fields in the contract's order, `null` for absent values; `param` as
/// its compact JSON text; an `error` record with its `line` and `column`, or its `offset`
/// when the document has no line): `records`'s.
template <class Writer>
using ndjson_visitor = records::ndjson<Writer>;

/// The format as generic code sees it (format.hpp's `format_entry`; formats/registry.hpp).
using format = format_entry<format_name, records, detect, detect_signals, parser>;

} // namespace logscan::megengine_profile

#endif // LOGSCAN_FORMATS_MEGENGINE_PROFILE_HPP_INCLUDED
