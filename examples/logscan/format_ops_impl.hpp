// SPDX-License-Identifier: MIT
// The definitions of format_ops.hpp, for the translation units that compile a format's
// (ops/*.cpp: `template struct logscan_cli::format_ops<F>;`). Not for command.hpp: a
// translation unit that sees them would compile every format's parsers again.
#ifndef LOGSCAN_COMMAND_FORMAT_OPS_IMPL_HPP
#define LOGSCAN_COMMAND_FORMAT_OPS_IMPL_HPP

#include <logscan/formats/registry.hpp>

#include "format_ops.hpp"

namespace logscan_cli::ops_detail {

template <class F, class W>
logscan::error records(logscan::source_ref src, W& w, std::uint64_t& errors, logscan::error& first, const logscan::format_options& fo) {
    typename F::template ndjson_visitor<W> v{w};
    const logscan::error e = F::parse(src, v, fo);
    errors = v.errors;
    first = v.first_error;
    return e;
}

template <class F, class Out>
logscan::error parts(logscan::source_ref src, const logscan::parts_options& po, const typename Out::context& ctx,
                     const std::function<void(Out&)>& drain, std::uint64_t& errors, logscan::error& first,
                     logscan::parts_count& count, const logscan::format_options& fo) {
    if constexpr (F::splittable) {
        using slot = logscan::part_slot<F::template parser, F::template ndjson_visitor, Out>;
        return logscan::parse_in_parts<slot>(
            src, po, [](std::string_view a, std::string_view b) { return F::split_point(a, b); },
            [&] {
                auto s = std::make_unique<slot>(ctx);
                s->options = fo;
                return s;
            },
            [&](slot& s) { drain(s.out); }, errors, count, &first);
    } else {
        (void)src, (void)po, (void)ctx, (void)drain, (void)errors, (void)first, (void)count, (void)fo;
        return {};
    }
}

} // namespace logscan_cli::ops_detail

namespace logscan_cli {

template <class F>
logscan::error format_ops<F>::records(logscan::source_ref src, filter_writer<ndjson_out>& w, std::uint64_t& errors,
                                      logscan::error& first, const logscan::format_options& fo) {
    return ops_detail::records<F>(src, w, errors, first, fo);
}
template <class F>
logscan::error format_ops<F>::records(logscan::source_ref src, flattener& w, std::uint64_t& errors, logscan::error& first,
                                      const logscan::format_options& fo) {
    return ops_detail::records<F>(src, w, errors, first, fo);
}
template <class F>
logscan::error format_ops<F>::records(logscan::source_ref src, count_writer& w, std::uint64_t& errors, logscan::error& first,
                                      const logscan::format_options& fo) {
    return ops_detail::records<F>(src, w, errors, first, fo);
}
template <class F>
logscan::error format_ops<F>::parts(logscan::source_ref src, const logscan::parts_options& po, const ndjson_part::context& ctx,
                                    const std::function<void(ndjson_part&)>& drain, std::uint64_t& errors,
                                    logscan::error& first, logscan::parts_count& count, const logscan::format_options& fo) {
    return ops_detail::parts<F, ndjson_part>(src, po, ctx, drain, errors, first, count, fo);
}
template <class F>
logscan::error format_ops<F>::parts(logscan::source_ref src, const logscan::parts_options& po, const count_part::context& ctx,
                                    const std::function<void(count_part&)>& drain, std::uint64_t& errors,
                                    logscan::error& first, logscan::parts_count& count, const logscan::format_options& fo) {
    return ops_detail::parts<F, count_part>(src, po, ctx, drain, errors, first, count, fo);
}
template <class F>
summary_parse format_ops<F>::summarize(logscan::source_ref src, report& r, const logscan::format_options& fo) {
    summary_parse p;
    if constexpr (!std::is_same_v<report, no_report>) {
        typename F::records::template counting<report> seen{r};
        p.e = F::parse(src, seen, fo);
        p.records = seen.records;
        p.text = seen.text;
        p.errors = seen.errors;
        p.first = seen.first_error;
    } else {
        (void)src, (void)r, (void)fo;
    }
    return p;
}

} // namespace logscan_cli

#endif
