// SPDX-License-Identifier: MIT
/// \file formats/registry.hpp
/// The formats, as one type list that generic code iterates: detection, the command's
/// subcommands, `--threads`, the usage texts. Adding a format means its header (ending in
/// `LOGSCAN_FORMAT_MODULE(...)`, see format.hpp), one line here, its tests.
///
/// \code
/// #include <logscan/formats/registry.hpp>
/// // which format is called "paddle-log", and parse with it:
/// bool known = logscan::with_format(logscan::all_formats{}, "paddle-log", [&]<class F>() {
///     F::parse(src, my_visitor, {.max_line = 4 << 20});
/// });
/// logscan::for_each_format(logscan::all_formats{}, []<class F>() { puts(F::name.data()); });
/// // a program of its own with a format more: a list of its own
/// using my_formats = logscan::formats_plus<logscan::all_formats, my_format::format>;
/// \endcode
#ifndef LOGSCAN_FORMATS_REGISTRY_HPP_INCLUDED
#define LOGSCAN_FORMATS_REGISTRY_HPP_INCLUDED

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "chainer_memtrace.hpp"
#include "chrome_trace.hpp"
#include "megengine_log.hpp"
#include "megengine_profile.hpp"
#include "paddle_log.hpp"
#include "tvm_profile.hpp"

namespace logscan {

/// A list of formats (each a `format_entry`), in the order that breaks detection ties.
template <class... F>
struct format_list {
    static constexpr std::size_t size = sizeof...(F);
};

/// The formats logscan reads. The order breaks detection ties (the JSON dump, the Chrome
/// trace and the Chainer graph, whose signals are the most specific, first).
using all_formats = format_list<megengine_profile::format, chrome_trace::format, chainer_memtrace::format,
                                tvm_profile::format, paddle_log::format, megengine_log::format>;

namespace internal {
template <class List, class... More>
struct formats_plus;
template <class... F, class... More>
struct formats_plus<format_list<F...>, More...> {
    using type = format_list<F..., More...>;
};
} // namespace internal

/// `List` with the formats `More` after it (a program's own formats next to logscan's).
template <class List, class... More>
using formats_plus = typename internal::formats_plus<List, More...>::type;

/// Calls `fn.template operator()<F>()` for every format F of the list, in order.
template <class... F, class Fn>
constexpr void for_each_format(format_list<F...>, Fn&& fn) {
    (fn.template operator()<F>(), ...);
}

/// Calls `fn.template operator()<F>()` for the format F named `name`; false (and no call) when
/// the list has no such format.
template <class... F, class Fn>
constexpr bool with_format(format_list<F...>, std::string_view name, Fn&& fn) {
    return ((F::name == name ? (fn.template operator()<F>(), true) : false) || ...);
}

/// True when the list has a format named `name`.
template <class... F>
constexpr bool has_format(format_list<F...>, std::string_view name) noexcept {
    return ((F::name == name) || ...);
}

/// What an input yielded, to tell an input that holds nothing of its format (a file of
/// another kind given a format, or detected from a few lines): records of the format (neither
/// `text` nor `error`), `text` records (its non-blank lines) and `error` records. Count every
/// record, wanted or not.
struct yield_tally {
    std::uint64_t records = 0, text = 0, errors = 0;
    void count(std::string_view type) noexcept {
        if (type == "text") ++text;
        else if (type == "error") ++errors;
        else ++records;
    }
    void add(const yield_tally& o) noexcept {
        records += o.records;
        text += o.text;
        errors += o.errors;
    }
    /// Nothing of the format and no error record: only text, or nothing at all from an input
    /// of which something was to be expected (a JSON document of another kind read as a JSON
    /// format yields no record and no text). `may_be_empty`: nothing was to be expected, as
    /// the input is blank (its head: detect.hpp's `blank_input`) or its head shows the
    /// format's signals (`shows_format`: an empty document of the format). The input is not
    /// what it was read as. (An input with error records is said by those; one whose source
    /// failed, by its failure: neither is said this way too.)
    bool none_of_format(bool may_be_empty) const noexcept { return records == 0 && errors == 0 && (text != 0 || !may_be_empty); }
    /// What the command and the Python module say of such an input `name` read as `format`:
    /// "NAME: no FORMAT records; N non-blank lines were text", or, when it yielded nothing,
    /// "NAME: no FORMAT records; nothing in it is of that format".
    std::string none_message(std::string_view name, std::string_view format) const {
        std::string m(name);
        m += ": no ";
        m += format;
        m += " records; ";
        if (text == 0) return m + "nothing in it is of that format";
        m += std::to_string(text);
        m += text == 1 ? " non-blank line was text" : " non-blank lines were text";
        return m;
    }
};

/// What the command and the Python module say of an input `name` of nothing but blank lines
/// (none at all, or only whitespace), read by detection or as a format asked for: no record
/// came of it. (Not said where it gave an error record: a JSON format's blank input breaks,
/// and that is what is said.)
inline std::string empty_input_message(std::string_view name) {
    std::string m(name);
    m += ": empty input, no records";
    return m;
}

/// What the command and the Python module say of an input of lines `name` that ends inside its
/// last line (source.hpp's `input_tail`; not of a JSON document, detect.hpp's `json_document`,
/// whose cut is its break): the record read from that line may hold only part of it (a table
/// row's last cell cut to its first digits reads as a number), which nothing in the record
/// shows. Said, not an error: a running job's log ends so too.
inline std::string cut_line_message(std::string_view name) {
    std::string m(name);
    m += ": the input ends inside its last line (no newline after it): the record read from that line may be cut short "
         "(a killed job's log, or one still being written?)";
    return m;
}

} // namespace logscan

#endif // LOGSCAN_FORMATS_REGISTRY_HPP_INCLUDED
