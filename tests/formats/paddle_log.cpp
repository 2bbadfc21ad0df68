// SPDX-License-Identifier: MIT
// paddle-log (formats.md section 4) on sample 003 and on hand-written logs printed the way
// PaddleDetection and the Paddle profiler print them. Expected values come from the input:
// counted and summed in this file with plain string operations that share nothing with the
// module, or read off the sample by hand (line numbers given).
#include <logscan/formats/paddle_log.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <iterator>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include "support/alloc_counter.hpp"
#include "support/chunking.hpp"
#include "support/random_text.hpp"
#include "support/reader_vs_pattern.hpp"
#include "support/string_writer.hpp"
#include "support/wanted.hpp"

namespace pl = logscan::paddle_log;

namespace {

std::string sv(std::string_view s) { return std::string(s); }
std::string num(double d) {
    char b[64];
    std::snprintf(b, sizeof b, "%.17g", d);
    return b;
}

// Every record as one string, in order.
struct recorder {
    std::vector<std::string> out;
    std::size_t logs = 0, steps = 0, tables = 0, rows = 0, texts = 0, errors = 0;

    void on_log(const pl::log& r) {
        ++logs;
        out.push_back("log " + std::to_string(r.line) + " " + sv(r.date) + " " + sv(r.time) + " " + (r.logger ? sv(*r.logger) : std::string("null")) + " " +
                      sv(r.level) + " |" + sv(r.message));
    }
    void on_train_step(const pl::train_step& r) {
        ++steps;
        std::string s = "train_step " + std::to_string(r.line) + " " + (r.epoch ? std::to_string(*r.epoch) : std::string("null")) + " " +
                        std::to_string(r.iter) + "/" + (r.iters ? std::to_string(*r.iters) : std::string("null")) + " eta=" + (r.eta_s ? std::to_string(*r.eta_s) : std::string("null"));
        for (const pl::metric& m : r.metrics()) {
            if (m.key == "eta") continue;
            s += " " + sv(m.key) + "=" + (m.number().ok() ? num(m.number().value) : "'" + sv(m.value) + "'");
            if (!m.unit.empty()) s += "[" + sv(m.unit) + "]";
        }
        out.push_back(s);
    }
    void on_table(const pl::table& r) {
        ++tables;
        out.push_back("table " + std::to_string(r.line) + " " + sv(r.title) + " unit=" + (r.time_unit ? sv(*r.time_unit) : "null"));
    }
    void on_table_row(const pl::table_row& r) {
        ++rows;
        std::string s = "row " + std::to_string(r.line) + " " + sv(r.table) + " thread=" + (r.thread ? sv(*r.thread) : "null") +
                        " depth=" + std::to_string(r.depth) + " " + sv(r.name) + " |";
        for (std::size_t i = 1; i < r.cells.size(); ++i)
            if (!r.cells[i].empty()) s += " " + sv(r.columns[i].text()) + "=" + sv(r.cells[i].text());
        out.push_back(s);
    }
    void on_total(const pl::total& r) { out.push_back("total " + std::to_string(r.line) + " " + sv(r.table) + " " + sv(r.value)); }
    void on_text(const logscan::line& l) {
        ++texts;
        out.push_back("text " + std::to_string(l.number) + " " + sv(l.text));
    }
    void on_error(const logscan::error& e) {
        ++errors;
        out.push_back("error " + std::to_string(e.line) + " " + sv(e.message));
    }
};

std::vector<std::string> run_chunks(logscan::test::chunk_list chunks) {
    recorder r;
    pl::parser<recorder> p(r, {.max_line = 4096});
    for (auto c : chunks) p.feed(c);
    p.finish();
    return r.out;
}

recorder run(std::string_view text) {
    recorder r;
    REQUIRE(pl::parse(text, r).ok());
    return r;
}

const std::string& sample() {
    static const std::string s = logscan::test::read_file(logscan::test::sample_path("003_1c776201c8b5b83e.txt"));
    return s;
}

// A framed title (not a Thread banner): 3+ fill bytes, text, 3+ fill bytes.
bool title_line(std::string_view l) {
    while (!l.empty() && l.back() == ' ') l.remove_suffix(1);
    if (l.size() < 7 || (l[0] != '-' && l[0] != '=')) return false;
    const char f = l[0];
    const std::size_t b = l.find_first_not_of(f), e = l.find_last_not_of(f);
    if (b == std::string_view::npos || b < 3 || l.size() - e - 1 < 3) return false;
    const std::string_view mid = l.substr(b, e - b + 1);
    bool letter = false;
    for (char c : mid) letter = letter || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
    return letter && !mid.starts_with("Thread:"); // (rule lines have no letters)
}

} // namespace

TEST_CASE("paddle_log::sample 003: every record type, counts and sums computed from the text") {
    const std::string& s = sample();
    std::size_t logs = 0, steps = 0, titles = 0, units = 0;
    double loss_sum = 0;
    for (std::string_view l : logscan::test::lines_of(s)) {
        logs += l.starts_with("[09/");
        if (const std::size_t e = l.find("] ppdet.engine INFO: Epoch: ["); e != std::string_view::npos) {
            ++steps;
            loss_sum += std::strtod(std::string(l.substr(l.find(" loss: ") + 7)).c_str(), nullptr);
        }
        titles += title_line(l);
        units += l.starts_with("Time unit: ") || l.starts_with("Time Unit: ");
    }
    CHECK(logs == 43);
    CHECK(steps == 40);
    CHECK(titles == 8);

    struct sums {
        double loss = 0;
        std::size_t with_unit = 0, ops_threaded = 0, ops = 0;
        void on_train_step(const pl::train_step& t) {
            for (const pl::metric& m : t.metrics())
                if (m.key == "loss") loss += m.number().value;
        }
        void on_table(const pl::table& t) { with_unit += t.time_unit.has_value(); }
        void on_table_row(const pl::table_row& r) {
            if (r.table != "Operator Summary") return;
            ++ops;
            ops_threaded += r.thread == std::optional<std::string_view>("All threads merged");
        }
    } v;
    REQUIRE(pl::parse(s, v).ok());
    CHECK(std::fabs(v.loss - loss_sum) < 1e-9);
    CHECK(v.with_unit == units);
    CHECK(v.ops == 576); // lines 105-680
    CHECK(v.ops_threaded == v.ops);

    const recorder r = run(s);
    CHECK(r.logs == logs);
    CHECK(r.steps == steps);
    CHECK(r.tables == titles);
    // rows per table by line ranges read off the sample: Device 33-35, Overview 49-57 and
    // 61-63, Model 86-90, Operator 105-680, Kernel 689-932, Memory 941-947, UserDefined
    // 957-975, Perf Summary's pipe rows 1004-1006
    CHECK(r.rows == 3 + 12 + 5 + 576 + 244 + 7 + 19 + 3);
    CHECK(r.errors == 0);
    // the text lines, read off the sample: the start-up prints and the tables' notes
    std::set<std::uint64_t> want_text = {1, 2, 3, 4, 5, 6, 37, 38, 39, 40, 92, 93, 94, 1001};
    for (std::uint64_t n = 65; n <= 76; ++n) want_text.insert(n);
    std::set<std::uint64_t> got_text;
    for (const auto& o : r.out)
        if (o.starts_with("text ")) got_text.insert(std::strtoull(o.c_str() + 5, nullptr, 10));
    CHECK(got_text == want_text);

    // first and last records of each type, read off the sample
    const auto& o = r.out;
    const auto find = [&](std::string_view prefix) {
        for (const auto& x : o)
            if (x.starts_with(prefix)) return x;
        return std::string();
    };
    const auto rfind = [&](std::string_view prefix) {
        for (auto it = o.rbegin(); it != o.rend(); ++it)
            if (it->starts_with(prefix)) return *it;
        return std::string();
    };
    CHECK(find("log ") == "log 7 09/20 12:00:35 ppdet.data.source.coco INFO |Load [25000 samples valid, 0 samples invalid] "
                          "in file dataset/coco/annotations/instances_train2017.json.");
    // line 10: ... learning_rate: 0.000000 loss_mask: 0.637474 loss_rpn_cls: 0.055456 loss_rpn_reg: 0.069791
    // loss_bbox_cls: 0.068547 loss_bbox_reg: 0.090937 loss: 0.922204 eta: 5:05:37 batch_cost: 1.4670 data_cost: 0.0006
    // ips: 1.3633 images/s
    CHECK(find("train_step ") == "train_step 10 0 0/12500 eta=" + std::to_string(5 * 3600 + 5 * 60 + 37) +
                                     " learning_rate=" + num(0.0) + " loss_mask=" + num(0.637474) + " loss_rpn_cls=" +
                                     num(0.055456) + " loss_rpn_reg=" + num(0.069791) + " loss_bbox_cls=" + num(0.068547) +
                                     " loss_bbox_reg=" + num(0.090937) + " loss=" + num(0.922204) + " batch_cost=" +
                                     num(1.4670) + " data_cost=" + num(0.0006) + " ips=" + num(1.3633) + "[images/s]");
    CHECK(rfind("train_step ").starts_with("train_step 999 0 39/12500 eta="));
    CHECK(find("table ") == "table 29 Device Summary unit=null");
    CHECK(rfind("table ") == "table 1000 Perf Summary unit=s");
    CHECK(find("row ") == "row 33 Device Summary thread=null depth=0 CPU(Process) | Utilization (%)=106.03");
    CHECK(find("row 106 ") == "row 106 Operator Summary thread=All threads merged depth=1 conv2d infer_meta | Calls=570 "
                              "CPU Total / Avg / Max / Min / Ratio(%)=1.67 / 0.00 / 0.01 / 0.00 / 0.38 "
                              "GPU Total / Avg / Max / Min / Ratio(%)=0.00 / 0.00 / 0.00 / 0.00 / 0.00 FLOPs=-");
    CHECK(find("row 61 ") == "row 61 Overview Summary thread=null depth=1 Kernel | Calls=16525 GPU Time=1856.84 Ratio (%)=69.54");
    CHECK(o.back() == "row 1006 Perf Summary thread=null depth=0 ips | avg=1.42885 max=4.50119 min=0.10693");
}

namespace { // (each test file's own: they hold its recorder)
// Visitors with one of the recorder's callbacks (tests/support/wanted.hpp).
LOGSCAN_TEST_ONLY(recorder, on_log, pl::log);
LOGSCAN_TEST_ONLY(recorder, on_train_step, pl::train_step);
LOGSCAN_TEST_ONLY(recorder, on_table, pl::table);
LOGSCAN_TEST_ONLY(recorder, on_table_row, pl::table_row);
LOGSCAN_TEST_ONLY(recorder, on_text, logscan::line);
LOGSCAN_TEST_ONLY(recorder, on_error, logscan::error);
} // namespace

TEST_CASE("paddle_log::a visitor that wants some records gets exactly those, whatever the format leaves out") {
    const std::string hand = logscan::test::read_file(std::string(LOGSCAN_SOURCE_DIR) + "/tests/data/paddle_log_hand.txt");
    for (const std::string* in : {&sample(), &hand}) {
        recorder full;
        REQUIRE(pl::parse(*in, full, {.max_line = 4096}).ok());
        REQUIRE(full.out.size() > 20);
        const auto parse = [](std::string_view t, auto& v) { return pl::parse(t, v, {.max_line = 4096}).ok(); };
        logscan::test::check_wanted<only_on_log, pl::parser>(*in, full.out, {"log"}, parse);
        logscan::test::check_wanted<only_on_train_step, pl::parser>(*in, full.out, {"train_step"}, parse);
        logscan::test::check_wanted<only_on_table, pl::parser>(*in, full.out, {"table"}, parse);
        logscan::test::check_wanted<only_on_table_row, pl::parser>(*in, full.out, {"row"}, parse);
        logscan::test::check_wanted<only_on_text, pl::parser>(*in, full.out, {"text"}, parse);
        logscan::test::check_wanted<only_on_error, pl::parser>(*in, full.out, {"error"}, parse);
    }
}

TEST_CASE("paddle_log::identical records under any chunking, down to 1 byte") {
    logscan::test::check_chunk_invariance(sample(), run_chunks, 3);
}

TEST_CASE("paddle_log::no allocation while parsing (after construction)") {
    struct curve {
        double loss = 0;
        std::size_t rows = 0;
        void on_train_step(const pl::train_step& t) {
            for (const pl::metric& m : t.metrics())
                if (m.key == "loss") loss += m.number().value;
        }
        void on_table_row(const pl::table_row& r) { rows += r.cells.size(); }
        void on_table(const pl::table&) {}
        void on_text(const logscan::line&) {}
    } v;
    pl::parser<curve> p(v, {.max_line = 4096});
    const std::string& text = sample();
    LOGSCAN_CHECK_NO_ALLOC(for (std::size_t i = 0; i < text.size(); i += 1000) p.feed(std::string_view(text).substr(i, 1000)); p.finish());
    CHECK(v.rows > 0);
}

TEST_CASE("paddle_log::training lines: eta past a day, newer PaddleDetection fields, counters of any width") {
    const recorder r = run("[11/02 08:01:02] ppdet.engine INFO: Epoch: [3] [  560/21947] learning_rate: 0.010000 loss: 1.5 "
                           "eta: 1 day, 2:03:04 batch_cost: 0.43 ips: 8.49 images/s\n"
                           "[11/02 08:01:03] ppdet.engine INFO: Epoch: [12] [5/10] loss: 0.25 eta: 67 days, 10:28:48\n"
                           "[11/02 08:01:04] ppdet.engine.callbacks INFO: Epoch: [0] [ 0/8] eta: 0:00:12, loss: 0.5, "
                           "ips: 12.3 images/s, max_mem_reserved: 1234 MB, max_mem_allocated: 567 MB\n"
                           "[11/02 08:01:05] ppdet.engine INFO: Epoch: [1] [7/8] loss: nan eta: soon\n"
                           "[11/02 08:01:06] ppdet.utils.checkpoint WARNING: Epoch: is not a training line\n"
                           "[11/02 08:01:07] root ERROR: failed   \n"
                           "[11/02 08:01:08] root NOTICE: not a level\n");
    const std::vector<std::string> want = {
        "log 1 11/02 08:01:02 ppdet.engine INFO |Epoch: [3] [  560/21947] learning_rate: 0.010000 loss: 1.5 eta: 1 day, "
        "2:03:04 batch_cost: 0.43 ips: 8.49 images/s",
        "train_step 1 3 560/21947 eta=93784 learning_rate=0.01 loss=1.5 batch_cost=0.42999999999999999 "
        "ips=8.4900000000000002[images/s]",
        "log 2 11/02 08:01:03 ppdet.engine INFO |Epoch: [12] [5/10] loss: 0.25 eta: 67 days, 10:28:48",
        "train_step 2 12 5/10 eta=5826528 loss=0.25",
        "log 3 11/02 08:01:04 ppdet.engine.callbacks INFO |Epoch: [0] [ 0/8] eta: 0:00:12, loss: 0.5, ips: 12.3 images/s, "
        "max_mem_reserved: 1234 MB, max_mem_allocated: 567 MB",
        "train_step 3 0 0/8 eta=12 loss=0.5 ips=12.300000000000001[images/s] max_mem_reserved=1234[MB] max_mem_allocated=567[MB]",
        "log 4 11/02 08:01:05 ppdet.engine INFO |Epoch: [1] [7/8] loss: nan eta: soon",
        "train_step 4 1 7/8 eta=null loss=nan",
        "log 5 11/02 08:01:06 ppdet.utils.checkpoint WARNING |Epoch: is not a training line",
        "log 6 11/02 08:01:07 root ERROR |failed",
        "text 7 [11/02 08:01:08] root NOTICE: not a level",
    };
    CHECK(r.out == want);
    CHECK(pl::eta_seconds("67 days, 10:28:48") == std::optional<std::uint64_t>(((67u * 24 + 10) * 60 + 28) * 60 + 48));
    CHECK(pl::eta_seconds("1 day, 2:03:04") == std::optional<std::uint64_t>(93784));
    CHECK(!pl::eta_seconds("2:3:4"));
}

TEST_CASE("paddle_log::a training line that gives a key twice is no train_step (a cut line run into the next)") {
    // a record never holds two values under one key (README): the log record keeps the message
    const recorder r = run("[09/20 12:00:43] ppdet.engine INFO: Epoch: [0] [    5/12500] learning_rate: 0.000001 loss_mask: "
                           "0.575971 loss_rpn_cls: 0[09/20 12:00:43] ppdet.engine INFO: Epoch: [0] [    6/12500] "
                           "learning_rate: 0.000001 loss: 1.361479 eta: 1:25:08\n"
                           "2021-03-14 09:26:53,108-INFO: iter: 120, 'loss': '0.412300', loss: 0.5\n"
                           "[09/20 12:00:44] ppdet.engine INFO: Epoch: [0] [    7/12500] loss: 0.5 loss_x: 0.25 eta: 1:25:07\n");
    const std::vector<std::string> want = {
        "log 1 09/20 12:00:43 ppdet.engine INFO |Epoch: [0] [    5/12500] learning_rate: 0.000001 loss_mask: 0.575971 "
        "loss_rpn_cls: 0[09/20 12:00:43] ppdet.engine INFO: Epoch: [0] [    6/12500] learning_rate: 0.000001 loss: "
        "1.361479 eta: 1:25:08",
        "log 2 2021-03-14 09:26:53,108 null INFO |iter: 120, 'loss': '0.412300', loss: 0.5",
        "log 3 09/20 12:00:44 ppdet.engine INFO |Epoch: [0] [    7/12500] loss: 0.5 loss_x: 0.25 eta: 1:25:07",
        "train_step 3 0 7/12500 eta=5107 loss=0.5 loss_x=0.25",
    };
    CHECK(r.out == want);
    // the keys alone, as the pairs give them (quotes removed)
    const pl::metric_range joined("loss: 1 'loss': 2, eta: 0:01 lr: 3");
    CHECK(std::vector<std::string_view>(joined.keys().begin(), joined.keys().end()) ==
          std::vector<std::string_view>{"loss", "loss", "eta", "lr"});
    CHECK(logscan::keys_clash(joined.keys()));
    CHECK(logscan::keys_clash(pl::metric_range("a: 1, b: 2, ab: 3, ba: 4, a_: 5").keys()) == false);
    CHECK(logscan::keys_clash(pl::metric_range("").keys()) == false);
    CHECK(pl::metric_range("").keys().begin() == pl::metric_range("").keys().end());
}

TEST_CASE("paddle_log::eta_seconds and metric_range::value_of at the edges of their grammar") {
    // formats.md section 4: eta `[D day[s], ]H:MM:SS`, H any number of digits, MM and SS two
    using opt = std::optional<std::uint64_t>;
    CHECK(pl::eta_seconds("5:05:37") == opt(5 * 3600 + 5 * 60 + 37));
    CHECK(pl::eta_seconds("123:00:01") == opt(123 * 3600 + 1));
    CHECK(pl::eta_seconds("1 days, 0:00:00") == opt(86400));
    CHECK(pl::eta_seconds("0 day, 0:00:09") == opt(9));
    CHECK(!pl::eta_seconds(""));
    CHECK(!pl::eta_seconds("5:05:377"));
    CHECK(!pl::eta_seconds("5:05:3"));
    CHECK(!pl::eta_seconds(":05:37"));
    CHECK(!pl::eta_seconds("5:05:37 "));
    CHECK(!pl::eta_seconds("1 dayz, 2:03:04"));
    CHECK(!pl::eta_seconds("1 day,2:03:04"));
    CHECK(!pl::eta_seconds("1 day, 1 day, 2:03:04"));
    CHECK(!pl::eta_seconds("1 day, "));
    CHECK(!pl::eta_seconds("99999999999999999999:00:00")); // (the hours do not fit 64 bits)
    CHECK(!pl::eta_seconds("99999999999999999999 days, 0:00:00"));
    CHECK(pl::eta_seconds("18446744073709551615:00:00").has_value()); // (the largest count read)

    // a key is KEY or 'KEY' before `: `, at the start or after a space or a `,`
    const auto eta = [](std::string_view s) { return pl::metric_range(s).value_of("eta"); };
    using sv = std::optional<std::string_view>;
    CHECK(eta("loss: 0.9 eta: 5:05:37 batch_cost: 1.4") == sv("5:05:37"));
    CHECK(eta("eta: 0:00:01") == sv("0:00:01"));
    CHECK(eta("beta: 1 eta: 2") == sv("2"));        // `beta` holds the bytes, is another key
    CHECK(eta("beta: 1 etas: 2, eta_x: 3") == sv()); // no key `eta`
    CHECK(eta("x:eta: 1") == sv());                  // after a `:`: no key
    CHECK(eta("'loss': '0.5', 'eta': '0:41:20'") == sv("0:41:20"));
    CHECK(eta("'eta: 1") == sv());                   // an opening quote without its closer
    CHECK(eta("x'eta': 1") == sv());
    CHECK(eta("note: eta: 3, lr: 0.1") == sv("3"));  // a key right after another's `: `
    CHECK(eta("lr: 0.1,eta: 4") == sv("4"));
    CHECK(eta("eta:5") == sv());
    CHECK(eta("lr: 0.1 eta") == sv());
    CHECK(eta("eta: ") == sv(""));
    CHECK(eta("eta: 1 eta: 2") == sv("1"));          // the first pair
    // the same as the first pair with that key, every key read in order (metric_range's walk)
    for (const std::string_view s : {"loss: 0.9 eta: 5:05:37 batch_cost: 1.4", "beta: 1 eta: 2", "x:eta: 1",
                                     "'loss': '0.5', 'eta': '0:41:20'", "'eta: 1", "note: eta: 3, lr: 0.1", "a: b: eta: c",
                                     "eta'eta': 1 eta: 2", ",eta: 9", "eta: 1,eta: 2", "e: eta eta: 7"}) {
        sv walked;
        for (const pl::metric& m : pl::metric_range(s))
            if (m.key == "eta") {
                walked = m.value;
                break;
            }
        CHECK_MESSAGE(eta(s) == walked, s);
    }
}

TEST_CASE("paddle_log::log and training lines at the edges of their grammar (the assisted rules and their patterns agree)") {
    // read by hand against formats.md section 4: `[MM/DD HH:MM:SS] LOGGER LEVEL: MESSAGE`,
    // LOGGER without white space, LEVEL one of five; `Epoch: [E] [ I/N] PAIRS` as its message
    const recorder r = run("[09/20 12:00:35] a\tb INFO: tab in the logger\n"
                           "[09/20 12:00:35] x INFOS: not a level\n"
                           "[09/20 12:00:35] x INFO:no space\n"
                           "[09/20 12:00:35] x CRITICAL: \n"
                           "[9/20 12:00:35] x INFO: one-digit month\n"
                           "[09/20 12:00:35] ppdet INFO: Epoch: [1] [5/10]\n"
                           "[09/20 12:00:35] ppdet INFO: Epoch: [1] [    5/10] \n"
                           "[09/20 12:00:35] ppdet INFO: Epoch: [2] [ 7/9] loss: 0.5\n"
                           "[09/20 12:00:35] ppdet INFO: Epoch: [x] [ 7/9] loss: 0.5\n");
    const std::vector<std::string> want = {
        "text 1 [09/20 12:00:35] a\tb INFO: tab in the logger",
        "text 2 [09/20 12:00:35] x INFOS: not a level",
        "text 3 [09/20 12:00:35] x INFO:no space",
        "log 4 09/20 12:00:35 x CRITICAL |",
        "text 5 [9/20 12:00:35] x INFO: one-digit month",
        "log 6 09/20 12:00:35 ppdet INFO |Epoch: [1] [5/10]",
        "log 7 09/20 12:00:35 ppdet INFO |Epoch: [1] [    5/10]", // (no pairs, trailing blanks or not: no step)
        "log 8 09/20 12:00:35 ppdet INFO |Epoch: [2] [ 7/9] loss: 0.5",
        "train_step 8 2 7/9 eta=null loss=0.5",
        "log 9 09/20 12:00:35 ppdet INFO |Epoch: [x] [ 7/9] loss: 0.5",
    };
    CHECK(r.out == want);
}

TEST_CASE("paddle_log::tables: spans from the rule line, wide names, banners, two sections, placeholders, pipes") {
    // printed the way the profiler prints them: padded by characters, trailing spaces on every
    // row, two blank lines between tables
    const std::string in =
        "--------------Overview Summary--------------\n"
        "Time unit: ms\n"
        "-------------  -----  ----------  \n"
        "Event Type     Calls  CPU Time    \n"
        "-------------  -----  ----------  \n"
        "ProfileStep    10     2670.22     \n"
        "  Operator     21174  2008.74     \n"
        "-------------  -----  ----------  \n"
        "               Calls  GPU Time    \n"
        "-------------  -----  ----------  \n"
        "  Kernel       16525  1,856.84    \n"
        "-------------  -----  ----------  \n"
        "Note:\n"
        "\n"
        "\n"
        "--------------------Operator Summary--------------------\n"
        "Time unit: ms\n"
        "--------------------  ------  ------------------------------  \n"
        "Name                  Calls   CPU Total / Avg / Ratio(%)      \n"
        "--------------------  ------  ------------------------------  \n"
        "-----------Thread: main thread-----------\n"
        "数据预处理                 3       1.50 / 0.50 / 10.00             \n"
        "  matmul infer_meta   -       - / - / -                       \n"
        "very_long_name_cu...  7       2.00 / 0.29 / 20.00             \n"
        "-----------Thread: 后台 worker-----------\n"
        "full_name_longer_than_its_column  1       3.00 / 3.00 / 30.00             \n"
        "--------------------  ------  ------------------------------  \n"
        "\n"
        "\n"
        "============Perf Summary============\n"
        "Reader Ratio: 0.106%\n"
        "Time Unit: s, IPS Unit: steps/s\n"
        "|                 |       avg       |       max       |\n"
        "|   reader_cost   |     0.00074     |        -        |\n"
        "[09/20 12:01:02] ppdet.engine INFO: done";
    const recorder r = run(in);
    const std::vector<std::string> want = {
        "table 1 Overview Summary unit=ms",
        "row 6 Overview Summary thread=null depth=0 ProfileStep | Calls=10 CPU Time=2670.22",
        "row 7 Overview Summary thread=null depth=1 Operator | Calls=21174 CPU Time=2008.74",
        "row 11 Overview Summary thread=null depth=1 Kernel | Calls=16525 GPU Time=1,856.84",
        "text 13 Note:",
        "table 16 Operator Summary unit=ms",
        "row 22 Operator Summary thread=main thread depth=0 数据预处理 | Calls=3 CPU Total / Avg / Ratio(%)=1.50 / 0.50 / 10.00",
        "row 23 Operator Summary thread=main thread depth=1 matmul infer_meta | Calls=- CPU Total / Avg / Ratio(%)=- / - / -",
        "row 24 Operator Summary thread=main thread depth=0 very_long_name_cu... | Calls=7 CPU Total / Avg / Ratio(%)=2.00 / 0.29 / 20.00",
        "row 26 Operator Summary thread=后台 worker depth=0 full_name_longer_than_its_column | Calls=1 "
        "CPU Total / Avg / Ratio(%)=3.00 / 3.00 / 30.00",
        "table 30 Perf Summary unit=s",
        "text 31 Reader Ratio: 0.106%",
        "row 34 Perf Summary thread=null depth=0 reader_cost | avg=0.00074 max=-",
        "log 35 09/20 12:01:02 ppdet.engine INFO |done",
    };
    CHECK(r.out == want);
    logscan::test::check_chunk_invariance(in, run_chunks);
    // the same with CRLF line ends
    std::string crlf;
    for (char c : in) {
        if (c == '\n') crlf += '\r';
        crlf += c;
    }
    CHECK(run(crlf).out == want);
}

TEST_CASE("paddle_log::a line inside a table that is not a row is text, and the table goes on (formats.md section 4)") {
    // binary garbage (a PNG signature with its NUL and SUB bytes, bytes that are not UTF-8), a
    // row cut after its name, a pipe row with no cell past the name: each is `text` with its
    // whole line, and the rows after it are still rows of the same table
    const std::string png("\x89PNG\r\n\x1a\x00\x00\x00\rIHDR", 15); // the line ends at the \n: "\x89PNG\r" + "\n"
    const std::string in = std::string(
                               "----------Operator Summary----------\n"
                               "Time unit: ms\n"
                               "-------------  ------  ----------  \n"
                               "Name           Calls   CPU Total   \n"
                               "-------------  ------  ----------  \n"
                               "conv2d         10      2.50        \n") +
                           png + "\n" +                              // lines 7 ("\x89PNG") and 8 (the rest)
                           "    matmul_v2 compute\n"                  // line 9: cut after its name
                           "relu\xff\xfe       4       0.25        \n" // line 10: not UTF-8
                           "pool2d         2       0.50        \n"
                           "-------------  ------  ----------  \n"
                           "\n"
                           "============Perf Summary============\n"
                           "|                 |       avg       |       max       |\n"
                           "|   ips   |   |   |\n"                      // line 16: no cell past the name
                           "|   reader_cost   |     0.00074     |        -        |\n";
    const recorder r = run(in);
    const std::vector<std::string> want = {
        "table 1 Operator Summary unit=ms",
        "row 6 Operator Summary thread=null depth=0 conv2d | Calls=10 CPU Total=2.50",
        "text 7 \x89PNG", // (the \r before the \n ends the line, as on any line)
        "text 8 " + std::string("\x1a\x00\x00\x00\rIHDR", 9),
        "text 9     matmul_v2 compute",
        "text 10 relu\xff\xfe       4       0.25",
        "row 11 Operator Summary thread=null depth=0 pool2d | Calls=2 CPU Total=0.50",
        "table 14 Perf Summary unit=null",
        "text 16 |   ips   |   |   |",
        "row 17 Perf Summary thread=null depth=0 reader_cost | avg=0.00074 max=-",
    };
    CHECK(r.out == want);
    CHECK(r.rows == 3);   // conv2d, pool2d, reader_cost: the three lines with cells
    CHECK(r.texts == 5);  // the five lines that are none
    logscan::test::check_chunk_invariance(in, run_chunks);
}

TEST_CASE("paddle_log::damaged input never crashes and accounts for every line it does not call structure") {
    const std::string& s = sample();
    for (std::size_t cut : {std::size_t{1}, std::size_t{5000}, s.size() / 7, s.size() / 3, s.size() / 2, s.size() - 2}) {
        INFO("cut at " << cut);
        const std::string_view part = std::string_view(s).substr(0, cut);
        const recorder r = run(part);
        std::size_t logs = 0;
        for (std::string_view l : logscan::test::lines_of(part)) logs += l.starts_with("[09/") && l.find(": ") != std::string_view::npos;
        CHECK(r.logs == logs);
        CHECK(r.errors == 0);
    }
    std::string junk;
    for (int i = 0; i < 20000; ++i) junk += static_cast<char>((i * 7919 + i / 13) & 0xff);
    recorder j;
    pl::parser<recorder> p(j, {.max_line = 4096});
    p.feed(junk);
    p.finish();
    CHECK(j.logs == 0);
    CHECK(run("").out.empty());
    run("|\n|\n|  |\n"); // pipe tables of no columns (ASan: no out-of-range cell)
    const std::string big = "[09/20 12:00:35] a INFO: before\n" + std::string(10u << 20, 'x') + "\n[09/20 12:00:36] a INFO: after\n";
    const recorder b = run(big);
    REQUIRE(b.out.size() == 3);
    CHECK(b.out[1].starts_with("error 2 line longer than the line buffer"));
}

namespace {
// Every record of `input` as the command's NDJSON (one line each).
std::vector<std::string> ndjson_lines(const std::string& input) {
    bool ok = false;
    std::vector<std::string> lines = logscan::test::ndjson_lines<pl::ndjson_visitor>(input, pl::parse, ok);
    REQUIRE(ok);
    return lines;
}
// `s` padded with spaces to `width` (setw's left alignment).
std::string pad(std::string s, std::size_t width) {
    if (s.size() < width) s.append(width - s.size(), ' ');
    return s;
}
} // namespace

TEST_CASE("paddle_log::every generation (formats.md section 4): the contract's examples record for record") {
    // the contract's example lines verbatim (an indented log line and table, both log forms,
    // both training-step forms, the legacy report's lines), set in reports as the fluid
    // profiler prints them; the event headers padded as its setw does, `Calls` at column 33
    // where the contract's example rows put their second cell
    const std::string merged_header = pad("Event", 33) + pad("Calls", 12) + pad("Total", 12) + pad("CPU Time (Ratio)", 24) +
                                      pad("GPU Time (Ratio)", 24) + pad("Min.", 12) + pad("Max.", 12) + pad("Ave.", 12) + "Ratio.";
    const std::string thread_header = pad("Event", 33) + pad("Calls", 12) + pad("Total", 12) + pad("Min.", 12) + pad("Max.", 12) + "Ave.";
    const std::string input =
        "    [03/02 08:15:40] ppdet.engine INFO: Epoch: [1] [40/90] loss: 6.5123 eta: 0:10:02\n" // 1
        "  ----------Device Summary----------\n"
        "  ---------------  ----------------\n"
        "  Device           Utilization (%)\n"
        "  ---------------  ----------------\n"
        "  CPU(Process)     83.20\n" // 6
        "  ---------------  ----------------\n"
        "2021-03-14 09:30:12,001-INFO: Save model to ckpt/yolo_tiny_demo/model_final\n" // 8
        "2021-03-14 09:26:53,108-INFO: Epoch:3: iter: 120, lr: 0.010000, 'loss_cls': '0.412300', 'loss': 'nan', eta: 1 day, "
        "2:03:04, batch_cost: 0.61250 sec, ips: 13.06122 images/sec\n"
        "2021-03-14 09:30:11,540-WARNING: iter: 140, lr: 0.010000, 'loss': '0.388100', time: 0.733, eta: 0:41:20\n" // 10
        "------------------------->     Profiling Report     <-------------------------\n"
        "\n"
        "Note! This Report merge all thread info into one.\n"
        "Place: All\n"
        "Time unit: ms\n" // 15
        "Sorted by total time in descending order in the same thread\n"
        "\n"
        "Total time: 42.1875\n"
        "  Computation time       Total: 30.5        Ratio: 72.2963%\n"
        "  Framework overhead     Total: -nan        Ratio: -nan%\n" // 20
        "\n"
        "-------------------------     GpuMemCpy Summary     -------------------------\n"
        "\n"
        "GpuMemcpy                Calls: 6           Total: 0.5125      Ratio: 1.21481%\n"
        "\n" // 25
        "-------------------------       Event Summary       -------------------------\n"
        "\n" +
        merged_header + "\n" +
        "  matmul_v2/GpuMemcpyAsync       4           0.25        0.200000 (0.800000)     0.050000 (0.200000)     0.05     "
        "   0.08        0.0625      0.00592593  \n"
        // an X of 100000 or more fills its 24 columns; a ratio to a zero time is -nan
        "conv2d                           3           123456.5    123456.500000 (1.000000)0.000000 (-nan)         1.5     "
        "    2.5         2.0         0.5\n" // 30
        "fill_constant                    2\n" // a row cut short: text
        "\n"                                   // the report's end
        "------------------------->     Profiling Report     <-------------------------\n"
        "Place: CPU\n"
        "Time unit: ms\n" + // 35
        thread_header + "\n" +
        "thread2::conv2d_grad             48          96.512      1.7312      2.9045      2.01067\n"
        "[03/02 08:15:41] ppdet.engine INFO: done\n"; // 38: a log line ends a report
    const std::vector<std::string> want = {
        R"J({"type":"log","line":1,"date":"03/02","time":"08:15:40","logger":"ppdet.engine","level":"INFO","message":"Epoch: [1] [40/90] loss: 6.5123 eta: 0:10:02"})J",
        R"J({"type":"train_step","line":1,"epoch":1,"iter":40,"iters":90,"eta_s":602,"metrics":{"loss":6.5123},"units":{}})J",
        R"J({"type":"table","line":2,"title":"Device Summary","time_unit":null,"place":null,"merged":null})J",
        R"J({"type":"table_row","line":6,"table":"Device Summary","thread":null,"depth":0,"name":"CPU(Process)","cells":{"Utilization (%)":83.2}})J",
        R"J({"type":"log","line":8,"date":"2021-03-14","time":"09:30:12,001","logger":null,"level":"INFO","message":"Save model to ckpt/yolo_tiny_demo/model_final"})J",
        R"J({"type":"log","line":9,"date":"2021-03-14","time":"09:26:53,108","logger":null,"level":"INFO","message":"Epoch:3: iter: 120, lr: 0.010000, 'loss_cls': '0.412300', 'loss': 'nan', eta: 1 day, 2:03:04, batch_cost: 0.61250 sec, ips: 13.06122 images/sec"})J",
        R"J({"type":"train_step","line":9,"epoch":3,"iter":120,"iters":null,"eta_s":93784,"metrics":{"lr":0.01,"loss_cls":0.4123,"loss":null,"batch_cost":0.6125,"ips":13.06122},"units":{"batch_cost":"sec","ips":"images/sec"}})J",
        R"J({"type":"log","line":10,"date":"2021-03-14","time":"09:30:11,540","logger":null,"level":"WARNING","message":"iter: 140, lr: 0.010000, 'loss': '0.388100', time: 0.733, eta: 0:41:20"})J",
        R"J({"type":"train_step","line":10,"epoch":null,"iter":140,"iters":null,"eta_s":2480,"metrics":{"lr":0.01,"loss":0.3881,"time":0.733},"units":{}})J",
        R"J({"type":"table","line":11,"title":"Profiling Report","time_unit":"ms","place":"All","merged":true})J",
        R"J({"type":"total","line":18,"table":"Profiling Report","kind":"Total time","cells":{"Total time":42.1875}})J",
        R"J({"type":"table_row","line":19,"table":"Profiling Report","thread":null,"depth":1,"name":"Computation time","cells":{"Total":30.5,"Ratio":72.2963}})J",
        R"J({"type":"table_row","line":20,"table":"Profiling Report","thread":null,"depth":1,"name":"Framework overhead","cells":{"Total":null,"Ratio":null}})J",
        R"J({"type":"table","line":22,"title":"GpuMemCpy Summary","time_unit":"ms","place":"All","merged":true})J",
        R"J({"type":"table_row","line":24,"table":"GpuMemCpy Summary","thread":null,"depth":0,"name":"GpuMemcpy","cells":{"Calls":6,"Total":0.5125,"Ratio":1.21481}})J",
        R"J({"type":"table","line":26,"title":"Event Summary","time_unit":"ms","place":"All","merged":true})J",
        R"J({"type":"table_row","line":29,"table":"Event Summary","thread":null,"depth":1,"name":"matmul_v2/GpuMemcpyAsync","cells":{"Calls":4,"Total":0.25,"CPU Time (Ratio)":[0.2,0.8],"GPU Time (Ratio)":[0.05,0.2],"Min.":0.05,"Max.":0.08,"Ave.":0.0625,"Ratio.":0.00592593}})J",
        R"J({"type":"table_row","line":30,"table":"Event Summary","thread":null,"depth":0,"name":"conv2d","cells":{"Calls":3,"Total":123456.5,"CPU Time (Ratio)":[123456.5,1.0],"GPU Time (Ratio)":[0.0,null],"Min.":1.5,"Max.":2.5,"Ave.":2.0,"Ratio.":0.5}})J",
        R"J({"type":"text","line":31,"text":"fill_constant                    2"})J",
        R"J({"type":"table","line":33,"title":"Profiling Report","time_unit":"ms","place":"CPU","merged":false})J",
        R"J({"type":"table_row","line":37,"table":"Profiling Report","thread":"thread2","depth":0,"name":"conv2d_grad","cells":{"Calls":48,"Total":96.512,"Min.":1.7312,"Max.":2.9045,"Ave.":2.01067}})J",
        R"J({"type":"log","line":38,"date":"03/02","time":"08:15:41","logger":"ppdet.engine","level":"INFO","message":"done"})J",
    };
    CHECK(ndjson_lines(input) == want);
    // the same input under any chunking, down to 1 byte
    logscan::test::check_chunk_invariance(input, run_chunks);
}

TEST_CASE("paddle_log::indented tables keep their indent apart, and a line outside the indent ends them") {
    // formats.md section 4: a table has the indent of its opening line; a non-blank line that
    // does not start with it ends the table; a `text` record keeps its whole line
    const std::vector<std::string> got = ndjson_lines("    ----------Device Summary----------\n"
                                                      "\n"
                                                      "    Time unit: s\n"
                                                      "    ---------------  ----------------\n"
                                                      "    Device           Utilization (%)\n"
                                                      "    ---------------  ----------------\n"
                                                      "    CPU(Process)     -nan\n"
                                                      "      GPU0           50.00   \n"
                                                      "  not in the table\n"
                                                      "    GPU1           40.00\n");
    const std::vector<std::string> want = {
        R"J({"type":"table","line":1,"title":"Device Summary","time_unit":"s","place":null,"merged":null})J",
        R"J({"type":"table_row","line":7,"table":"Device Summary","thread":null,"depth":0,"name":"CPU(Process)","cells":{"Utilization (%)":null}})J",
        R"J({"type":"table_row","line":8,"table":"Device Summary","thread":null,"depth":1,"name":"GPU0","cells":{"Utilization (%)":50.0}})J",
        R"J({"type":"text","line":9,"text":"  not in the table"})J",
        R"J({"type":"text","line":10,"text":"    GPU1           40.00"})J",
    };
    CHECK(got == want);
}

TEST_CASE("paddle_log::every generation: no allocation while parsing, identical records under any chunking") {
    for (const char* path : {"/tests/data/paddle_log_today_hand.txt", "/samples/today/paddle_pr22590_old_profiling_report.txt",
                             "/samples/today/ppdet_repo_dy_loss_log_2020.txt",
                             "/samples/today/sharpiless_yolov5_readme_notebook_indented.txt", "/tests/data/paddle_log_joined.txt"}) {
        CAPTURE(std::string(path));
        const std::string text = logscan::test::read_file(std::string(LOGSCAN_SOURCE_DIR) + path);
        struct all {
            std::size_t n = 0;
            void on_log(const pl::log& r) { n += r.message.size(); }
            void on_train_step(const pl::train_step& t) {
                for (const pl::metric& m : t.metrics()) n += m.key.size() + (m.number().ok() ? 1 : 0);
            }
            void on_table(const pl::table& t) { n += t.title.size(); }
            void on_table_row(const pl::table_row& r) { n += r.cells.size(); }
            void on_total(const pl::total& t) { n += t.value.size(); }
            void on_text(const logscan::line& l) { n += l.text.size(); }
            void on_error(const logscan::error&) { ++n; }
        } v;
        pl::parser<all> p(v, {.max_line = 4096});
        LOGSCAN_CHECK_NO_ALLOC(for (std::size_t i = 0; i < text.size(); i += 97) p.feed(std::string_view(text).substr(i, 97)); p.finish());
        CHECK(v.n > 0);
        logscan::test::check_chunk_invariance(text, run_chunks, 3);
    }
}

TEST_CASE("paddle_log::a multi-value cell cut after a slash, `Total time:` with two spaces (formats.md section 4)") {
    // `a / b / ...` is parts between ` / ` separators: a cell cut after its last slash keeps
    // it in its last part, which is then no number (a string); `/ /` is one separator. The
    // value of `Total time: X` is read trimmed, as every number is (formats.md, numbers)
    const std::string input = "============Perf Summary============\n"
                              "| Model | CPU Total / Avg / Max | ips |\n"
                              "|---|---|---|\n"
                              "| cut | 12.30 / 1.23 / 1.51 / | 3 |\n"
                              "| gaps | 1 / / 2 | - |\n"
                              "------------------------->     Profiling Report     <-------------------------\n"
                              "Place: All\n"
                              "Time unit: ms\n"
                              "Total time:  0\n";
    CHECK(ndjson_lines(input) ==
          std::vector<std::string>{
              R"J({"type":"table","line":1,"title":"Perf Summary","time_unit":null,"place":null,"merged":null})J",
              R"J({"type":"table_row","line":4,"table":"Perf Summary","thread":null,"depth":0,"name":"cut","cells":{"CPU Total / Avg / Max":[12.3,1.23,"1.51 /"],"ips":3}})J",
              R"J({"type":"table_row","line":5,"table":"Perf Summary","thread":null,"depth":0,"name":"gaps","cells":{"CPU Total / Avg / Max":[1,"/ 2"],"ips":null}})J",
              R"J({"type":"table","line":6,"title":"Profiling Report","time_unit":"ms","place":"All","merged":false})J",
              R"J({"type":"total","line":9,"table":"Profiling Report","kind":"Total time","cells":{"Total time":0}})J",
          });
}

TEST_CASE("paddle_log::the log lines' readers decide as their patterns do") {
    // read_log_line and read_legacy_log implement their rules' patterns whole (`read_by`: the
    // patterns are never run): on texts built from a log line's slots, each now and then
    // another piece, and on texts of random pieces, each reader takes a text exactly when its
    // pattern matches it, with the same groups
    const char* pieces[] = {"[09/20 12:00:35]", "[09/20", " ", "\t", "\v", "ppdet.coco", "INFO", "INFOX", "WARNING",
                            "CRITICAL", "ERR", ":", ": ", "msg", "2021-03-14 09:30:12,001-", "2021-03-14", "-", "é", "\x01", "9"};
    const auto check = [&](auto decides, const std::vector<std::vector<const char*>>& slots) {
        std::uint64_t seed = 20261204;
        std::size_t taken = 0;
        for (int round = 0; round < 30000; ++round)
            taken += decides(round % 2 == 0 ? test_support::pieces_text(seed, pieces, 8)
                                            : test_support::slots_text(seed, slots, pieces, 40, 48));
        CHECK(taken > 1000);
    };
    check([](const std::string& t) { return test_support::decides_as_pattern<pl::detail::log_pattern, 6>(t, pl::detail::read_log_line); },
          {{"[09/20 12:00:35] "}, {"ppdet.data.source.coco", "reader", "a"}, {" "}, {"INFO", "WARNING", "DEBUG", "ERROR", "CRITICAL"},
           {":"}, {" Load [25000 samples]", "", " ", "  two"}});
    check([](const std::string& t) {
              return test_support::decides_as_pattern<pl::detail::legacy_log_pattern, 5>(t, pl::detail::read_legacy_log);
          },
          {{"2021-03-14 09:30:12,001-"}, {"INFO", "WARNING", "DEBUG", "ERROR", "CRITICAL"}, {":"}, {" Save model", "", " "}});
}

TEST_CASE("paddle_log::table_row: a cell found by its column's name or the name's beginning") {
    // sample 003's Operator Summary, line 105 (read off the sample):
    // conv2d dygraph  1140  441.72 / 0.39 / 2.61 / 0.10 / 14.83  566.98 / 0.50 / 4.09 / 0.05 / 20.51  0
    struct rows {
        std::string calls, cpu, gpu;
        bool none = false;
        void on_table_row(const logscan::paddle_log::table_row& r) {
            if (r.line != 105) return;
            CHECK(r.name == "conv2d dygraph");
            if (const logscan::cell* c = r.find("Calls")) calls = c->text();
            if (const logscan::cell* c = r.find_prefix("CPU Total")) cpu = c->text();
            if (const logscan::cell* c = r.find_prefix("GPU Total")) gpu = c->text();
            none = r.find_prefix("No Such Column") == nullptr && r.find("GPU Total") == nullptr; // (find: the whole name)
        }
    } v;
    const std::string path = logscan::test::sample_path("003_1c776201c8b5b83e.txt");
    logscan::file_source src{path.c_str()};
    REQUIRE(logscan::paddle_log::parse(src, v).ok());
    CHECK(v.calls == "1140");
    CHECK(v.cpu == "441.72 / 0.39 / 2.61 / 0.10 / 14.83");
    CHECK(v.gpu == "566.98 / 0.50 / 4.09 / 0.05 / 20.51");
    CHECK(v.none);
}

TEST_CASE("paddle-log: a step's metrics and keys, forward iterators whose it++ and it-> are ++it and *it") {
    using logscan::paddle_log::metric_range;
    static_assert(std::forward_iterator<metric_range::iterator>);
    static_assert(std::forward_iterator<metric_range::key_range::iterator>);
    const metric_range pairs("lr: 0.010000, 'loss': '0.412300', eta: 0:41:20");
    auto it = pairs.begin();
    const auto was = it++;
    CHECK(was->key == "lr");
    CHECK(was->number_text == "0.010000");
    CHECK(it->key == "loss");
    CHECK(it->value == "0.412300");
    CHECK((*it++).key == "loss");
    CHECK(it->key == "eta");
    CHECK(++it == pairs.end());
    auto k = pairs.keys().begin();
    CHECK(*k++ == "lr");
    CHECK(*k++ == "loss");
    CHECK(*k == "eta");
    CHECK(++k == pairs.keys().end());
}
