// SPDX-License-Identifier: MIT
// paddle_loss_curve: the loss and the learning rate per training step of a PaddleDetection
// training log (the `loss` and `learning_rate` pairs of its `Epoch: [E] [I/N] ...` lines): a
// summary, a sparkline of the loss for the terminal, and optionally an SVG line chart — one
// custom visitor on the paddle-log format.
//
//   paddle_loss_curve FILE [SVG_OUT]      (- for standard input)
//
// The x of a point is a global step counter (`train_step::step()`), epoch * iters + iter
// (E * N + I), so that the epochs follow each other; `iter` in older logs, which print no N. Steps without a readable `loss` are skipped (and counted); a
// step without a readable `learning_rate` has a loss point only. The points are kept in a
// std::vector, in input order, so memory is O(steps) (fine for an example; a long run has a
// few hundred thousand steps, a few MB).
//
// Sparkline: the losses are resampled to at most 60 columns by averaging buckets: with n
// points and w = min(n, 60) columns, column c is the mean of points [c*n/w, (c+1)*n/w)
// (integer division; with n <= 60, one point per column). A column's block is
// min(7, floor(8 * (mean - lo) / (hi - lo))) of ▁▂▃▄▅▆▇█, lo and hi the smallest and largest
// column mean (all ▁ when they are equal).
//
// SVG: the loss as a solid line on the left axis, the learning rate as a dashed line on the
// right axis (steps without one are skipped, joining their neighbours; no right axis when no
// step has one), axes with ticks at 1, 2 or 5 times a power of ten, labels, a legend and a
// title. A single point draws no line.
#include <logscan/formats/paddle_log.hpp>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace {

namespace pl = logscan::paddle_log;

struct point {
    std::uint64_t step;
    double loss;
    double lr; // NaN: the step has no learning rate
};

struct loss_curve {
    std::vector<point> points;   // input order
    std::size_t without_loss = 0; // training steps without a readable loss
    std::size_t errors = 0;       // lines the parser could not read (too long)

    void on_train_step(const pl::train_step& s) {
        std::optional<double> loss, lr;
        for (const auto& m : s.metrics()) {
            if (m.key != "loss" && m.key != "learning_rate" && m.key != "lr") continue;
            const auto n = m.number();
            if (n.ok() && std::isfinite(n.value)) (m.key == "loss" ? loss : lr) = n.value; // (a nan loss is no point)
        }
        if (!loss) {
            ++without_loss;
            return;
        }
        points.push_back({s.step(), *loss, lr.value_or(std::numeric_limits<double>::quiet_NaN())});
    }
    void on_error(const logscan::error&) { ++errors; }
};

// The loss resampled to at most `width` columns (bucket means), as block characters.
std::string sparkline(const std::vector<point>& p, std::size_t width) {
    static constexpr const char* blocks[] = {"▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};
    const std::size_t n = p.size(), w = std::min(n, width);
    std::vector<double> col(w);
    for (std::size_t c = 0; c < w; ++c) {
        const std::size_t from = c * n / w, to = (c + 1) * n / w;
        double sum = 0;
        for (std::size_t i = from; i < to; ++i) sum += p[i].loss;
        col[c] = sum / static_cast<double>(to - from);
    }
    std::string out;
    if (w == 0) return out;
    const auto [lo, hi] = std::minmax_element(col.begin(), col.end());
    for (const double v : col) {
        const double level = *hi > *lo ? std::floor(8 * (v - *lo) / (*hi - *lo)) : 0.0;
        out += blocks[std::min<std::size_t>(7, static_cast<std::size_t>(level))];
    }
    return out;
}

// An axis range widened to whole ticks of 1, 2 or 5 times a power of ten (at least min_step).
struct axis {
    double lo, hi, step;
    std::size_t ticks() const { return static_cast<std::size_t>(std::llround((hi - lo) / step)) + 1; }
    double at(std::size_t k) const { return lo + static_cast<double>(k) * step; }
    double frac(double v) const { return (v - lo) / (hi - lo); }
};

axis nice_axis(double lo, double hi, double min_step) {
    if (!(hi > lo)) { // one value: widen around it
        const double pad = lo != 0 ? std::abs(lo) / 10 : 1;
        lo -= pad;
        hi += pad;
    }
    const double raw = std::max((hi - lo) / 5, min_step);
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    const double f = raw / mag;
    const double step = (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
    return {std::floor(lo / step) * step, std::ceil(hi / step) * step, step};
}

// Text for an XML attribute or element: markup characters escaped, control bytes dropped.
std::string xml_text(std::string_view s) {
    std::string out;
    for (const char c : s) {
        if (c == '&') out += "&amp;";
        else if (c == '<') out += "&lt;";
        else if (c == '>') out += "&gt;";
        else if (c == '"') out += "&quot;";
        else if (static_cast<unsigned char>(c) >= 0x20) out += c;
    }
    return out;
}

// Writes the chart; false (errno set) when the file cannot be written.
bool write_svg(const char* path, const char* title_file, const std::vector<point>& p) {
    constexpr double width = 800, height = 460, left = 80, right = 90, top = 70, bottom = 60;
    constexpr double pw = width - left - right, ph = height - top - bottom;
    double smin = static_cast<double>(p[0].step), smax = smin, lmin = p[0].loss, lmax = lmin;
    double rmin = 0, rmax = 0;
    bool any_lr = false;
    for (const point& q : p) {
        smin = std::min(smin, static_cast<double>(q.step));
        smax = std::max(smax, static_cast<double>(q.step));
        lmin = std::min(lmin, q.loss);
        lmax = std::max(lmax, q.loss);
        if (std::isnan(q.lr)) continue;
        rmin = any_lr ? std::min(rmin, q.lr) : q.lr;
        rmax = any_lr ? std::max(rmax, q.lr) : q.lr;
        any_lr = true;
    }
    const axis x = nice_axis(smin, smax, 1), yl = nice_axis(lmin, lmax, 0), yr = nice_axis(rmin, rmax, 0);
    const auto px = [&](double v) { return left + x.frac(v) * pw; };
    const auto py = [&](const axis& a, double v) { return top + ph - a.frac(v) * ph; };

    std::FILE* f = std::fopen(path, "w");
    if (!f) return false;
    std::fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    std::fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
                    "font-family=\"sans-serif\" font-size=\"12\">\n", width, height, width, height);
    const std::string title = "Training loss and learning rate: " + xml_text(title_file);
    std::fprintf(f, "<title>%s</title>\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n", title.c_str());
    std::fprintf(f, "<text x=\"%.1f\" y=\"28\" text-anchor=\"middle\" font-size=\"16\">%s</text>\n", width / 2, title.c_str());
    std::fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"#888\"/>\n", left,
                 top, pw, ph);
    // x axis: ticks below the plot, and its label
    std::fprintf(f, "<g id=\"step-axis\" text-anchor=\"middle\">\n");
    for (std::size_t k = 0; k < x.ticks(); ++k) {
        const double v = x.at(k), xx = px(v);
        std::fprintf(f, "<line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\" stroke=\"#888\"/>", xx, top + ph, xx,
                     top + ph + 5);
        std::fprintf(f, "<text x=\"%.2f\" y=\"%.1f\">%.0f</text>\n", xx, top + ph + 18, v);
    }
    std::fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">step (epoch * iters + iter)</text>\n</g>\n", left + pw / 2, height - 15);
    // the two y axes: loss on the left, learning rate on the right
    const auto y_axis = [&](const char* id, const axis& a, double at, int side, const char* label, const char* colour) {
        std::fprintf(f, "<g id=\"%s\" fill=\"%s\" text-anchor=\"%s\">\n", id, colour, side < 0 ? "end" : "start");
        for (std::size_t k = 0; k < a.ticks(); ++k) {
            const double v = a.at(k), yy = py(a, v);
            std::fprintf(f, "<line x1=\"%.1f\" y1=\"%.2f\" x2=\"%.1f\" y2=\"%.2f\" stroke=\"%s\"/>", at, yy, at + 5 * side,
                         yy, colour);
            const double shown = std::abs(v) < a.step / 1e6 ? 0.0 : v; // not 2.7e-22 for 0
            std::fprintf(f, "<text x=\"%.1f\" y=\"%.2f\">%g</text>\n", at + 8 * side, yy + 4, shown);
        }
        const double lx = at + (side < 0 ? -62 : 74);
        std::fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" transform=\"rotate(-90 %.1f %.1f)\">%s</text>\n",
                     lx, top + ph / 2, lx, top + ph / 2, label);
        std::fprintf(f, "</g>\n");
    };
    y_axis("loss-axis", yl, left, -1, "loss", "#1f5fa0");
    if (any_lr) y_axis("learning-rate-axis", yr, left + pw, 1, "learning rate", "#c03030");
    // the curves
    std::fprintf(f, "<polyline id=\"loss\" fill=\"none\" stroke=\"#1f5fa0\" stroke-width=\"1.5\" points=\"");
    for (std::size_t i = 0; i < p.size(); ++i)
        std::fprintf(f, "%s%.2f,%.2f", i ? " " : "", px(static_cast<double>(p[i].step)), py(yl, p[i].loss));
    std::fprintf(f, "\"/>\n");
    if (any_lr) {
        std::fprintf(f, "<polyline id=\"learning_rate\" fill=\"none\" stroke=\"#c03030\" stroke-dasharray=\"5 3\" points=\"");
        bool first = true;
        for (const point& q : p)
            if (!std::isnan(q.lr)) {
                std::fprintf(f, "%s%.2f,%.2f", first ? "" : " ", px(static_cast<double>(q.step)), py(yr, q.lr));
                first = false;
            }
        std::fprintf(f, "\"/>\n");
    }
    // legend, above the plot's right end
    const double ly = top - 14, lx = left + pw - 210;
    std::fprintf(f, "<g id=\"legend\">"
                    "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#1f5fa0\" stroke-width=\"1.5\"/>"
                    "<text x=\"%.1f\" y=\"%.1f\">loss</text>", lx, ly, lx + 25, ly, lx + 30, ly + 4);
    if (any_lr)
        std::fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#c03030\" stroke-dasharray=\"5 3\"/>"
                        "<text x=\"%.1f\" y=\"%.1f\">learning rate</text>", lx + 90, ly, lx + 115, ly, lx + 120, ly + 4);
    std::fprintf(f, "</g>\n</svg>\n");
    const bool ok = !std::ferror(f);
    return std::fclose(f) == 0 && ok;
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 2 || argc > 3) {
        std::fprintf(stderr, "usage: paddle_loss_curve FILE [SVG_OUT]   (- for standard input)\n");
        return 2;
    }
    loss_curve v;
    const logscan::error e = logscan::with_input(argv[1], [&](auto& src) { return pl::parse(src, v); });
    if (!e.ok()) { // where it stopped, and the system's reason for I/O errors
        std::fprintf(stderr, "paddle_loss_curve: %s: %.*s", argv[1], static_cast<int>(e.message.size()), e.message.data());
        if (e.line != 0)
            std::fprintf(stderr, " at line %llu, column %llu", static_cast<unsigned long long>(e.line),
                         static_cast<unsigned long long>(e.column));
        if (e.sys_errno != 0) std::fprintf(stderr, " (%s)", std::strerror(e.sys_errno));
        std::fprintf(stderr, "\n");
        return 1;
    }
    const std::vector<point>& p = v.points;
    std::printf("points: %zu (step = epoch * iters + iter)\n", p.size());
    if (!p.empty()) {
        const point* lowest = &p[0]; // the first of equal minima
        for (const point& q : p)
            if (q.loss < lowest->loss) lowest = &q;
        std::printf("loss: first %.6f at step %llu, min %.6f at step %llu, last %.6f at step %llu\n", p.front().loss,
                    static_cast<unsigned long long>(p.front().step), lowest->loss,
                    static_cast<unsigned long long>(lowest->step), p.back().loss,
                    static_cast<unsigned long long>(p.back().step));
        const auto last_step = static_cast<unsigned long long>(p.back().step);
        if (std::isnan(p.back().lr)) std::printf("learning rate: none at step %llu\n", last_step);
        else std::printf("learning rate: last %g at step %llu\n", p.back().lr, last_step);
        const std::size_t w = std::min<std::size_t>(p.size(), 60), lo = p.size() / w, hi = (p.size() + w - 1) / w;
        std::printf("loss sparkline (%zu column%s, ", w, w == 1 ? "" : "s");
        if (lo == hi) std::printf("%zu point%s each):\n", lo, lo == 1 ? "" : "s");
        else std::printf("%zu-%zu points each):\n", lo, hi);
        std::printf("%s\n", sparkline(p, 60).c_str());
    }
    if (v.without_loss != 0) std::printf("(%zu training steps without a loss)\n", v.without_loss);
    if (v.errors != 0) std::printf("(%zu lines could not be read)\n", v.errors);
    if (argc == 3) {
        if (p.empty()) {
            std::fprintf(stderr, "paddle_loss_curve: %s: no training steps with a loss; no chart written\n", argv[1]);
            return 1;
        }
        if (!write_svg(argv[2], argv[1], p)) {
            std::fprintf(stderr, "paddle_loss_curve: %s: cannot write (%s)\n", argv[2], std::strerror(errno));
            return 1;
        }
    }
    return 0;
}
