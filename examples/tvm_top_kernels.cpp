// SPDX-License-Identifier: MIT
// tvm_top_kernels: per report of a TVM VM profiler output (one per `Evaluate vm inference
// cost of MODEL on DEVICE`), the K fused kernels (calls whose name starts with
// `vm_mod_fused`) with the largest `Duration (us)`, and each one's share of the report's
// `Sum` row: 100 * kernel duration / the `Duration (us)` of the footer row `Sum`, which adds
// up every row of the report's table (fused kernels and `VM::` instructions alike). That is
// not TVM's `Percent` column, which is relative to the `Total` row (the whole inference,
// time outside the calls included). One custom visitor on the tvm-profile format, streamed:
// only the current report's K largest kernels are kept while reading.
//
//   tvm_top_kernels FILE [K]      (- for standard input; K: kernels per report, default 5)
//
// Kernels of equal duration keep their order in the table. A report runs from its `run`
// record to the next one (calls before the first report are listed under `?`); a report
// without a `Sum` row shows `-` for the shares. Names are kept in fixed buffers: a model
// name longer than 63 bytes or a kernel name longer than 127 bytes is shown cut, ending in
// `...`.
#include <logscan/formats/tvm_profile.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace {

namespace tp = logscan::tvm_profile;

// A name copied out of its line (views die with the line) into a fixed buffer.
template <std::size_t N>
struct name_buffer {
    char text[N];
    std::size_t size = 0;
    bool cut = false;

    void assign(std::string_view s) noexcept {
        size = s.copy(text, N);
        cut = s.size() > N;
    }
    std::string_view view() const noexcept { return {text, size}; }
};

struct kernel {
    double us = 0;
    name_buffer<127> name;
};

struct report {
    std::string model;
    double sum_us = -1; // the Sum row's duration; negative: no Sum row
    std::vector<kernel> top;
};

struct top_kernels {
    explicit top_kernels(std::size_t k) : k_(k) { top_.reserve(std::min<std::size_t>(k, 1024)); }

    std::vector<report> reports; // finished reports, in input order
    std::size_t errors = 0;      // lines the parser could not read (too long)

    void on_run(const tp::run& r) {
        close();
        model_.assign(r.model);
        open_ = true;
    }
    void on_call(const tp::call& c) {
        if (!c.name.starts_with("vm_mod_fused")) return;
        const auto us = c.duration_us();
        if (!us) return;
        open_ = true; // calls before the first `run`: a report of model `?`
        // the K largest so far, largest first; a tie goes after the kernels already kept
        const auto at = std::upper_bound(top_.begin(), top_.end(), *us, [](double v, const kernel& k) { return v > k.us; }) -
                        top_.begin();
        if (static_cast<std::size_t>(at) == k_) return;
        if (top_.size() == k_) top_.pop_back();
        kernel& kept = *top_.insert(top_.begin() + at, kernel{});
        kept.us = *us;
        kept.name.assign(c.name);
    }
    void on_total(const tp::total& t) {
        if (t.kind != "Sum") return;
        if (const auto us = t.duration_us()) sum_us_ = *us;
    }
    void on_error(const logscan::error&) { ++errors; }

    // Ends the current report (the next `run` or the end of the input).
    void close() {
        if (open_) {
            std::string model = model_.size == 0 ? std::string("?") : std::string(model_.view());
            if (model_.cut) model += "...";
            reports.push_back(report{std::move(model), sum_us_, top_});
        }
        open_ = false;
        model_.size = 0;
        model_.cut = false;
        sum_us_ = -1;
        top_.clear();
    }

private:
    std::size_t k_;
    bool open_ = false;
    name_buffer<63> model_{};
    double sum_us_ = -1;
    std::vector<kernel> top_; // at most K, largest first (capacity reserved once)
};

void print(const std::vector<report>& reports) {
    int model_width = static_cast<int>(std::string_view("model").size());
    for (const report& r : reports) model_width = std::max(model_width, static_cast<int>(r.model.size()));
    std::printf("%-*s  %3s  %13s  %12s  %s\n", model_width, "model", "#", "duration (us)", "share of Sum", "kernel");
    for (const report& r : reports) {
        for (std::size_t i = 0; i < r.top.size(); ++i) {
            const kernel& k = r.top[i];
            char share[32] = "-";
            if (r.sum_us > 0) std::snprintf(share, sizeof share, "%.2f%%", 100 * k.us / r.sum_us);
            std::printf("%-*s  %3zu  %13.2f  %12s  %.*s%s\n", model_width, r.model.c_str(), i + 1, k.us, share,
                        static_cast<int>(k.name.size), k.name.text, k.name.cut ? "..." : "");
        }
    }
}

} // namespace

int main(int argc, char** argv) {
    std::size_t k = 5;
    bool usage = argc < 2 || argc > 3;
    if (argc == 3) { // K: digits only
        char* end = nullptr;
        errno = 0;
        k = static_cast<std::size_t>(std::strtoul(argv[2], &end, 10));
        usage = argv[2][0] < '0' || argv[2][0] > '9' || *end != '\0' || errno != 0;
    }
    if (usage) {
        std::fprintf(stderr, "usage: tvm_top_kernels FILE [K]   (- for standard input; K: kernels per report, default 5)\n");
        return 2;
    }
    top_kernels v(k);
    const logscan::error e = logscan::with_input(argv[1], [&](auto& src) { return tp::parse(src, v); });
    if (!e.ok()) { // where it stopped, and the system's reason for I/O errors
        std::fprintf(stderr, "tvm_top_kernels: %s: %.*s", argv[1], static_cast<int>(e.message.size()), e.message.data());
        if (e.line != 0)
            std::fprintf(stderr, " at line %llu, column %llu", static_cast<unsigned long long>(e.line),
                         static_cast<unsigned long long>(e.column));
        if (e.sys_errno != 0) std::fprintf(stderr, " (%s)", std::strerror(e.sys_errno));
        std::fprintf(stderr, "\n");
        return 1;
    }
    v.close();
    print(v.reports);
    if (v.errors != 0) std::printf("(%zu lines could not be read)\n", v.errors);
    return 0;
}
