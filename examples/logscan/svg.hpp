// SPDX-License-Identifier: MIT
// Small SVG charts for `logscan summary --svg DIR`: a horizontal bar chart and a line chart
// with an optional second series on a right axis. Plain SVG 1.1, text escaped, so that a
// browser renders it and an XML parser reads it.
#ifndef LOGSCAN_COMMAND_SVG_HPP
#define LOGSCAN_COMMAND_SVG_HPP

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include <logscan/utf8.hpp>

namespace logscan_cli::svg {

inline std::string esc(std::string_view in) {
    std::string s; // valid UTF-8 first (an SVG is an XML document)
    for (const char* p = in.data(); p != in.data() + in.size();) {
        if (static_cast<unsigned char>(*p) < 0x80) {
            s += *p++;
        } else if (const std::size_t n = logscan::internal::utf8_complete(p, in.data() + in.size()); n != 0) {
            s.append(p, n);
            p += n;
        } else {
            s += "\xEF\xBF\xBD";
            p += logscan::internal::utf8_invalid_length(p, in.data() + in.size());
        }
    }
    std::string o;
    for (char c : s) {
        switch (c) {
        case '&': o += "&amp;"; break;
        case '<': o += "&lt;"; break;
        case '>': o += "&gt;"; break;
        case '"': o += "&quot;"; break;
        default:
            if (static_cast<unsigned char>(c) >= 0x20 || c == '\t') o += c;
        }
    }
    return o;
}

inline std::string num(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.4g", v);
    return b;
}

inline std::string head(double w, double h, std::string_view title) {
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(w) +
           "\" height=\"" + num(h) + "\" viewBox=\"0 0 " + num(w) + " " + num(h) +
           "\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
           "<text x=\"" + num(w / 2) + "\" y=\"22\" text-anchor=\"middle\" font-size=\"15\" font-weight=\"bold\">" +
           esc(title) + "</text>\n";
}

// "Nice" axis ticks between lo and hi (about n of them).
inline std::vector<double> ticks(double lo, double hi, int n = 5) {
    std::vector<double> t;
    if (!(hi > lo)) {
        t.push_back(lo);
        return t;
    }
    const double raw = (hi - lo) / n, mag = std::pow(10.0, std::floor(std::log10(raw)));
    const double step = raw / mag < 1.5 ? mag : raw / mag < 3 ? 2 * mag : raw / mag < 7 ? 5 * mag : 10 * mag;
    for (double v = std::ceil(lo / step) * step; v <= hi + step * 1e-9 && t.size() < 50; v += step) {
        if (!t.empty() && v <= t.back()) break; // a step below the precision of v
        t.push_back(v);
    }
    return t;
}

// Horizontal bars: one per label, longest first as given.
inline std::string bars(std::string_view title, const std::vector<std::string>& labels, const std::vector<double>& values,
                        std::string_view unit) {
    const double label_w = 360, bar_w = 400, row = 22, top = 40;
    const double h = top + row * static_cast<double>(labels.size()) + 50;
    double mx = 0;
    for (double v : values) mx = std::max(mx, v);
    std::string s = head(label_w + bar_w + 90, h, title);
    for (std::size_t i = 0; i < labels.size(); ++i) {
        const double y = top + row * static_cast<double>(i);
        const double w = mx > 0 ? bar_w * values[i] / mx : 0;
        std::string l = labels[i];
        if (l.size() > 48) { // cut on a code point boundary
            std::size_t cut = 45;
            while (cut > 0 && (static_cast<unsigned char>(l[cut]) & 0xC0u) == 0x80u) --cut;
            l = l.substr(0, cut) + "...";
        }
        s += "<text x=\"" + num(label_w - 6) + "\" y=\"" + num(y + 15) + "\" text-anchor=\"end\">" + esc(l) + "</text>\n";
        s += "<rect x=\"" + num(label_w) + "\" y=\"" + num(y + 3) + "\" width=\"" + num(w) + "\" height=\"" + num(row - 6) +
             "\" fill=\"#4e79a7\"/>\n";
        s += "<text x=\"" + num(label_w + w + 4) + "\" y=\"" + num(y + 15) + "\">" + esc(num(values[i])) + "</text>\n";
    }
    s += "<text x=\"" + num(label_w + bar_w / 2) + "\" y=\"" + num(h - 15) + "\" text-anchor=\"middle\">" + esc(unit) +
         "</text>\n</svg>\n";
    return s;
}

// A line chart of y (left axis) and, when y2 is not empty, y2 (right axis) over x.
inline std::string lines(std::string_view title, std::string_view x_name, const std::vector<double>& x,
                         std::string_view y_name, const std::vector<double>& y, std::string_view y2_name = {},
                         const std::vector<double>& y2 = {}) {
    const double W = 760, H = 420, l = 70, r = y2.empty() ? 30 : 80, t = 40, b = 50;
    std::string s = head(W, H, title);
    if (x.empty()) return s + "</svg>\n";
    const auto [xmin_it, xmax_it] = std::minmax_element(x.begin(), x.end());
    const double x0 = *xmin_it, x1 = *xmax_it > x0 ? *xmax_it : x0 + 1;
    auto range = [](const std::vector<double>& v) {
        double lo = NAN, hi = NAN;
        for (double d : v)
            if (std::isfinite(d)) lo = std::isnan(lo) ? d : std::min(lo, d), hi = std::isnan(hi) ? d : std::max(hi, d);
        if (std::isnan(lo)) lo = hi = 0;
        if (!(hi > lo)) hi = lo + 1;
        return std::pair<double, double>{lo, hi};
    };
    const auto [y0, y1] = range(y);
    const auto px = [&](double v) { return l + (W - l - r) * (v - x0) / (x1 - x0); };
    const auto py = [&](double v, double lo, double hi) { return H - b - (H - t - b) * (v - lo) / (hi - lo); };
    s += "<line x1=\"" + num(l) + "\" y1=\"" + num(H - b) + "\" x2=\"" + num(W - r) + "\" y2=\"" + num(H - b) + "\" stroke=\"black\"/>\n";
    s += "<line x1=\"" + num(l) + "\" y1=\"" + num(t) + "\" x2=\"" + num(l) + "\" y2=\"" + num(H - b) + "\" stroke=\"black\"/>\n";
    for (double v : ticks(x0, x1))
        s += "<text x=\"" + num(px(v)) + "\" y=\"" + num(H - b + 16) + "\" text-anchor=\"middle\">" + num(v) + "</text>\n";
    for (double v : ticks(y0, y1))
        s += "<text x=\"" + num(l - 6) + "\" y=\"" + num(py(v, y0, y1) + 4) + "\" text-anchor=\"end\" fill=\"#4e79a7\">" + num(v) +
             "</text>\n";
    s += "<text x=\"" + num((l + W - r) / 2) + "\" y=\"" + num(H - 12) + "\" text-anchor=\"middle\">" + esc(x_name) + "</text>\n";
    s += "<text x=\"14\" y=\"" + num(H / 2) + "\" transform=\"rotate(-90 14 " + num(H / 2) +
         ")\" text-anchor=\"middle\" fill=\"#4e79a7\">" + esc(y_name) + "</text>\n";
    auto poly = [&](const std::vector<double>& v, double lo, double hi, const char* color) {
        std::string p = "<polyline fill=\"none\" stroke=\"" + std::string(color) + "\" stroke-width=\"1.5\" points=\"";
        for (std::size_t i = 0; i < v.size() && i < x.size(); ++i)
            if (std::isfinite(v[i])) p += num(px(x[i])) + "," + num(py(v[i], lo, hi)) + " ";
        return p + "\"/>\n";
    };
    s += poly(y, y0, y1, "#4e79a7");
    if (!y2.empty()) {
        const auto [z0, z1] = range(y2);
        for (double v : ticks(z0, z1))
            s += "<text x=\"" + num(W - r + 6) + "\" y=\"" + num(py(v, z0, z1) + 4) + "\" fill=\"#e15759\">" + num(v) + "</text>\n";
        s += "<text x=\"" + num(W - 12) + "\" y=\"" + num(H / 2) + "\" transform=\"rotate(90 " + num(W - 12) + " " + num(H / 2) +
             ")\" text-anchor=\"middle\" fill=\"#e15759\">" + esc(y2_name) + "</text>\n";
        s += poly(y2, z0, z1, "#e15759");
    }
    return s + "</svg>\n";
}

} // namespace logscan_cli::svg

#endif
