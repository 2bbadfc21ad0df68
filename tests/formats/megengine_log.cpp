// SPDX-License-Identifier: MIT
// megengine-log (formats.md section 1) on sample 000 and on hand-written inputs printed the
// way MegEngine prints them. Expected values come from the input: counted and summed in this
// file with plain string operations that share nothing with the module, or read off the
// sample by hand (line numbers given).
#include <logscan/formats/megengine_log.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <optional>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "support/alloc_counter.hpp"
#include "support/chunking.hpp"
#include "support/random_text.hpp"
#include "support/reader_vs_pattern.hpp"
#include "support/string_writer.hpp"
#include "support/wanted.hpp"

namespace ml = logscan::megengine_log;

namespace {

std::string sv(std::string_view s) { return std::string(s); }
std::string num(double d) {
    char b[64];
    std::snprintf(b, sizeof b, "%.17g", d);
    return b;
}
std::string num(std::optional<double> d) { return d ? num(*d) : std::string("null"); }
std::string sv_or_number(std::string_view v) { return sv(v); }
template <class T>
    requires std::is_integral_v<T>
std::string sv_or_number(T v) { return std::to_string(v); }

// Every record as one string, in order; counts and sums besides.
struct recorder {
    std::vector<std::string> out;
    std::size_t logs = 0, fprops = 0, shapes = 0, opts = 0, seqs = 0, allocs = 0, bounds = 0, stats = 0, texts = 0, errors = 0;
    unsigned long long alloc_bytes = 0, dims_sum = 0, replaced = 0;
    double bound_mib = 0, realtime = 0;

    void on_log(const ml::log& r) {
        ++logs;
        // (form A as `log LINE DAY TIME SRC FILE|LOGGER|LEVEL|MESSAGE`; the others name their
        // form and func first; a value the form does not print reads null)
        const auto opt = [](const auto& v) { return v ? sv_or_number(*v) : std::string("null"); };
        out.push_back("log " + std::to_string(r.line) + " " +
                      (r.form == ml::form_file ? std::string() : sv(r.form) + " func=" + opt(r.func) + " ") + opt(r.day) +
                      " " + sv(r.time) + " " + opt(r.src_line) + " " + opt(r.file) + "|" + opt(r.logger) + "|" + sv(r.level) +
                      "|" + sv(r.message));
    }
    void on_fprop_start(const ml::fprop_start& r) {
        ++fprops;
        out.push_back("fprop_start " + std::to_string(r.line) + " " + sv(r.env) + " " + sv(r.var) + " " + sv(r.opr_type) + " " + sv(r.addr));
    }
    void on_var_shape(const ml::var_shape& r) {
        ++shapes;
        std::string s = "var_shape " + std::to_string(r.line) + " " + sv(r.var) + " " +
                        (r.replica ? std::to_string(*r.replica) : std::string("null")) + " [";
        CHECK(r.shape.ok());
        for (std::int64_t d : r.shape) {
            s += std::to_string(d) + ",";
            dims_sum += static_cast<unsigned long long>(d);
        }
        out.push_back(s + "]");
    }
    void on_graph_opt(const ml::graph_opt& r) {
        ++opts;
        replaced += r.vars_replaced;
        out.push_back("graph_opt " + std::to_string(r.line) + " " + std::to_string(r.passes) + " " +
                      std::to_string(r.vars_replaced) + " " + num(r.time_ms));
    }
    void on_opr_seq(const ml::opr_seq& r) {
        ++seqs;
        std::string s = "opr_seq " + std::to_string(r.line) + " " + std::to_string(r.length);
        for (const auto& p : r.pairs()) s += " " + sv(p.get<1>()) + "=" + sv(p.get<2>());
        out.push_back(s);
    }
    void on_mem_alloc(const ml::mem_alloc& r) {
        ++allocs;
        alloc_bytes += r.alloc_bytes;
        out.push_back("mem_alloc " + std::to_string(r.line) + " " + sv(r.comp_node) + " " + num(r.alloc_mib) + " " +
                      std::to_string(r.alloc_bytes) + " " + num(r.lower_bound_mib) + " " + num(r.lower_bound_pct) + " " +
                      num(r.upper_bound_mib) + " " + num(r.upper_bound_pct));
    }
    void on_workspace_bound(const ml::workspace_bound& r) {
        ++bounds;
        bound_mib += r.mib;
        out.push_back("workspace_bound " + std::to_string(r.line) + " " + sv(r.comp_node) + " " + num(r.mib));
    }
    void on_mem_alloc_stats(const ml::mem_alloc_stats& r) {
        ++stats;
        realtime += r.realtime_ms;
        out.push_back("mem_alloc_stats " + std::to_string(r.line) + " " + std::to_string(r.nr_opr) + " " +
                      std::to_string(r.nr_var) + " " + num(r.realtime_ms) + " " + num(r.si_ms) + " " + num(r.mp_re_ms) +
                      " " + num(r.omp_ms) + " " + num(r.alloc_ms));
    }
    void on_text(const logscan::line& l) {
        ++texts;
        out.push_back("text " + std::to_string(l.number) + " " + sv(l.text));
    }
    void on_error(const logscan::error& e) {
        ++errors;
        out.push_back("error " + std::to_string(e.line) + ":" + std::to_string(e.column) + " " + sv(e.message));
    }
};

std::vector<std::string> run_chunks(logscan::test::chunk_list chunks) {
    recorder r;
    ml::parser<recorder> p(r, {.max_line = 4096});
    for (auto c : chunks) p.feed(c);
    p.finish();
    return r.out;
}

recorder run(std::string_view text) {
    recorder r;
    REQUIRE(ml::parse(text, r).ok());
    return r;
}

const std::string& sample() {
    static const std::string s = logscan::test::read_file(logscan::test::sample_path("000_cf8afa6c099f806b.txt"));
    return s;
}

bool has(const std::vector<std::string>& v, const std::string& s) {
    for (const auto& x : v)
        if (x == s) return true;
    return false;
}

} // namespace

TEST_CASE("megengine_log::sample 000: every record type, counts and sums computed from the text") {
    const recorder r = run(sample());
    // independent counts: plain string operations on the sample's lines
    std::size_t headers = 0, fprop = 0, shape_msgs = 0, cont_shapes = 0, opt = 0, seq = 0, rows = 0, table_heads = 0,
                bound_pairs = 0, stat = 0, other = 0;
    unsigned long long bytes = 0, dims = 0, replaced = 0;
    double bound_mib = 0, realtime = 0;
    auto add_dims = [&](std::string_view l) {
        const std::size_t open = l.rfind('(');
        const char* p = l.data() + open + 1;
        while (*p != ')') {
            char* end;
            dims += std::strtoull(p, &end, 10);
            p = end;
            while (*p == ',' || *p == ' ') ++p;
        }
    };
    for (std::string_view l : logscan::test::lines_of(sample())) {
        if (l.starts_with("[")) {
            ++headers;
            const std::string_view msg = l.substr(l.find("] ") + 2);
            if (msg.find("): start fprop VarNode(") != std::string_view::npos) ++fprop;
            if (msg.find("): var node shape:") != std::string_view::npos) { ++shape_msgs; add_dims(l); }
            if (msg.starts_with("graph optimization: applied ")) {
                ++opt;
                replaced += std::strtoull(msg.data() + msg.find("total ") + 6, nullptr, 10);
            }
            if (msg.starts_with("opr seq of length ")) ++seq;
            if (msg.starts_with("static mem alloc: ")) {
                ++stat;
                realtime += std::strtod(msg.data() + msg.find("realtime=") + 9, nullptr);
            }
            if (const std::size_t b = msg.find("bounds(MiB):"); b != std::string_view::npos) {
                for (std::size_t e = msg.find('=', b); e != std::string_view::npos; e = msg.find('=', e + 1)) {
                    ++bound_pairs;
                    bound_mib += std::strtod(msg.data() + e + 1, nullptr);
                }
            }
        } else if (l.find("MiB(") != std::string_view::npos) {
            ++rows;
            const std::size_t b = l.find("bytes)");
            std::size_t s = b;
            while (l[s - 1] != ' ' && l[s - 1] != '(') --s;
            bytes += std::strtoull(l.data() + s, nullptr, 10);
        } else if (l.starts_with(" comp_node ")) {
            ++table_heads;
        } else if (l.starts_with(" ") && l.find(": (") != std::string_view::npos) {
            ++cont_shapes;
            add_dims(l);
        } else {
            ++other;
        }
    }
    CHECK(logscan::test::lines_of(sample()).size() == 4601);
    CHECK(headers + rows + table_heads + cont_shapes + other == 4601);
    CHECK(other == 0);
    CHECK(r.logs == headers);
    CHECK(r.logs == 276);
    CHECK(r.fprops == fprop);
    CHECK(r.shapes == shape_msgs + cont_shapes);
    CHECK(r.opts == opt);
    CHECK(r.seqs == seq);
    CHECK(r.allocs == rows);
    CHECK(r.allocs == 378);
    CHECK(r.bounds == bound_pairs);
    CHECK(r.stats == stat);
    CHECK(r.texts == 0);
    CHECK(r.errors == 0);
    CHECK(r.alloc_bytes == bytes);
    CHECK(r.alloc_bytes == 80609128448ull);
    CHECK(r.dims_sum == dims);
    CHECK(r.replaced == replaced);
    CHECK(std::fabs(r.bound_mib - bound_mib) <= 1e-9 * bound_mib);
    CHECK(std::fabs(r.realtime - realtime) <= 1e-9 * realtime);

    // first and last records of each type, read off the sample by hand
    const auto& o = r.out;
    CHECK(o.front() == "log 1 6 15:13:35 330 env.py|meghair.train.env|WRN|--fast-run not enabled; execution may be slow");
    CHECK(has(o, "log 4601 6 16:43:54 0 (unknown file)|megbrain|WRN|cpu comp node method called after global finalize: reason=free_host()"));
    CHECK(o.back() == "log 4601 6 16:43:54 0 (unknown file)|megbrain|WRN|cpu comp node method called after global finalize: reason=free_host()");
    CHECK(has(o, "log 196 6 15:13:39 1000 mgb.py|megbrain|INFO|graph optimization: applied 8 passes, total 5757 var(s) replaced; time=74.64ms"));
    CHECK(has(o, "fprop_start 3 val data DataProvider 0x7f349a5c59e8"));
    CHECK(has(o, "fprop_start 4386 val prob_softmax Concat 0x7f349a523278"));
    CHECK(has(o, "var_shape 4 data null [32,3,224,224,]"));
    CHECK(has(o, "var_shape 8 data 0 [4,3,224,224,]"));
    CHECK(has(o, "var_shape 24 conv1_1 null [32,64,224,224,]"));
    CHECK(has(o, "var_shape 4572 prob_softmax null [32,1000,]"));
    CHECK(has(o, "graph_opt 196 8 5757 74.640000000000001"));
    CHECK(has(o, "graph_opt 4573 8 5805 72.189999999999998"));
    CHECK(has(o, "opr_seq 197 804 var_static=533 var_dynamic_shape=0 var_dynamic_storage=455 no_sys_alloc=0"));
    CHECK(has(o, "opr_seq 4574 794 var_static=531 var_dynamic_shape=0 var_dynamic_storage=447 no_sys_alloc=0"));
    CHECK(has(o, "mem_alloc 395 gpu0:0 196 205520896 196 100 832.05999999999995 424.51999999999998"));
    CHECK(has(o, "mem_alloc 396 gpu0:COPY 784 822083584 784 100 784.26999999999998 100.04000000000001"));
    CHECK(has(o, "mem_alloc 4598 gpu7:0 294.25 308543488 294.25 100 1348.1300000000001 458.16000000000003"));
    CHECK(has(o, "workspace_bound 404 gpu0:0 8397.5"));
    CHECK(has(o, "workspace_bound 404 gpu0:COPY 7809.5"));
    CHECK(has(o, "workspace_bound 4587 gpu7:0 9261.5"));
    CHECK(has(o, "mem_alloc_stats 416 397 533 26.039999999999999 3.3100000000000001 7.0999999999999996 0.029999999999999999 15.6"));
    CHECK(has(o, "mem_alloc_stats 4599 395 531 46.149999999999999 3.6800000000000002 8.4600000000000009 0.059999999999999998 33.960000000000001"));
    // a header line yields its log record first, then its message's
    for (std::size_t i = 0; i < o.size(); ++i)
        if (o[i] == "graph_opt 196 8 5757 74.640000000000001") CHECK(o[i - 1].starts_with("log 196 "));
}

namespace { // (each test file's own: they hold its recorder)
// Visitors with one or two of the recorder's callbacks (tests/support/wanted.hpp).
LOGSCAN_TEST_ONLY(recorder, on_log, ml::log);
LOGSCAN_TEST_ONLY(recorder, on_fprop_start, ml::fprop_start);
LOGSCAN_TEST_ONLY(recorder, on_var_shape, ml::var_shape);
LOGSCAN_TEST_ONLY(recorder, on_graph_opt, ml::graph_opt);
LOGSCAN_TEST_ONLY(recorder, on_opr_seq, ml::opr_seq);
LOGSCAN_TEST_ONLY(recorder, on_mem_alloc, ml::mem_alloc);
LOGSCAN_TEST_ONLY(recorder, on_workspace_bound, ml::workspace_bound);
LOGSCAN_TEST_ONLY(recorder, on_mem_alloc_stats, ml::mem_alloc_stats);
LOGSCAN_TEST_ONLY(recorder, on_text, logscan::line);
LOGSCAN_TEST_ONLY(recorder, on_error, logscan::error);
struct only_text_and_error {
    recorder r;
    void on_text(const logscan::line& l) { r.on_text(l); }
    void on_error(const logscan::error& e) { r.on_error(e); }
};

template <class Only>
void check_only(std::string_view in, const recorder& full, std::initializer_list<std::string_view> types) {
    logscan::test::check_wanted<Only, ml::parser>(in, full.out, types,
                                                  [](std::string_view t, Only& v) { return ml::parse(t, v, {.max_line = 4096}).ok(); });
}
} // namespace

TEST_CASE("megengine_log::a visitor that wants some records gets exactly those, whatever the format leaves out") {
    const std::string hand = logscan::test::read_file(std::string(LOGSCAN_SOURCE_DIR) + "/tests/data/megengine_log_hand.txt");
    for (const std::string* in : {&sample(), &hand}) {
        recorder full;
        REQUIRE(ml::parse(*in, full, {.max_line = 4096}).ok());
        REQUIRE(full.out.size() > 20); // (29 records in the hand-written input, thousands in the sample)
        check_only<only_on_log>(*in, full, {"log"});
        check_only<only_on_fprop_start>(*in, full, {"fprop_start"});
        check_only<only_on_var_shape>(*in, full, {"var_shape"});
        check_only<only_on_graph_opt>(*in, full, {"graph_opt"});
        check_only<only_on_opr_seq>(*in, full, {"opr_seq"});
        check_only<only_on_mem_alloc>(*in, full, {"mem_alloc"});
        check_only<only_on_workspace_bound>(*in, full, {"workspace_bound"});
        check_only<only_on_mem_alloc_stats>(*in, full, {"mem_alloc_stats"});
        check_only<only_on_text>(*in, full, {"text"});
        check_only<only_on_error>(*in, full, {"error"});
        check_only<only_text_and_error>(*in, full, {"text", "error"});
    }
    // load_and_run's lines and the other generations' forms: a text-only visitor gets no text
    // for a line the full run reads as a load_and_run record
    for (const char* name : {"today/mge_docs_lar_tensorrt_nchw4_warn.txt", "today/mge_documentation_lar_debug_static_mem_compnode_wide.txt",
                             "today/mge_issue37_console_wrn_distributed_truncated.txt"}) {
        const std::string in = logscan::test::read_file(std::string(LOGSCAN_SOURCE_DIR) + "/samples/" + name);
        struct with_lar : recorder { // (load_and_run's records too, by type and line)
            void on_lar_iteration(const ml::lar_iteration& r) { out.push_back("lar_iteration " + std::to_string(r.line)); }
            void on_lar_summary(const ml::lar_summary& r) { out.push_back("lar_summary " + std::to_string(r.line)); }
            void on_lar_warmup(const ml::lar_warmup& r) { out.push_back("lar_warmup " + std::to_string(r.line)); }
            void on_lar_phase(const ml::lar_phase& r) { out.push_back("lar_phase " + std::to_string(r.line)); }
            void on_lar_run(const ml::lar_run& r) { out.push_back("lar_run " + std::to_string(r.line)); }
        } full;
        REQUIRE(ml::parse(in, full, {.max_line = 4096}).ok());
        REQUIRE(!full.out.empty());
        check_only<only_on_text>(in, full, {"text"});
        check_only<only_on_error>(in, full, {"error"});
        check_only<only_on_log>(in, full, {"log"});
        check_only<only_on_mem_alloc>(in, full, {"mem_alloc"});
        check_only<only_text_and_error>(in, full, {"text", "error"});
    }
    // and a visitor that wants nothing reads the input without running a matcher
    struct nothing : logscan::validate_only {} v;
    ml::parser<nothing> p(v);
    p.feed(sample());
    p.finish();
    CHECK(p.core().matcher_calls() == 0);
}

TEST_CASE("megengine_log::the memory table's header line read word by word, as its pattern reads it") {
    const std::string header = " comp_node           alloc                      lower_bound         upper_bound";
    std::vector<std::string> lines = {header, header + "   ", header.substr(1), "comp_node alloc lower_bound upper_bound", ""};
    for (const std::string& h : {header, std::string("comp_node alloc lower_bound upper_bound")}) {
        for (std::size_t i = 0; i <= h.size(); ++i) {
            lines.push_back(h.substr(0, i));                             // cut
            if (i < h.size()) {
                lines.push_back(h.substr(0, i) + h.substr(i + 1));       // a byte less
                for (const char c : {' ', '\t', 'x', '_'}) {
                    std::string t = h;
                    t[i] = c;                                            // a byte changed
                    lines.push_back(t);
                    lines.push_back(h.substr(0, i) + c + h.substr(i));  // a byte more
                }
            }
        }
    }
    std::size_t headers = 0;
    for (const std::string& t : lines) {
        CAPTURE(t);
        const bool want = static_cast<bool>(logscan::match<R"( *comp_node +alloc +lower_bound +upper_bound *)">(t));
        CHECK(logscan::megengine_log::detail::table_header(t) == want);
        headers += want;
    }
    CHECK(headers > 100); // (both answers were tried)
    CHECK(headers < lines.size() / 2);
}

TEST_CASE("megengine_log::identical records under any chunking, down to 1 byte") {
    logscan::test::check_chunk_invariance(sample(), run_chunks, 6);
    const std::string hand = "\x1b[32m[06 15:13:35 1@a.py:x]\x1b[0m \x1b[33mWRN\x1b[0m hi\r\n"
                             "[06 15:13:41 755@mgb.py:megbrain] static memory allocation:\r\n"
                             " comp_node           alloc                      lower_bound         upper_bound\n"
                             "   gpu0:0    196.00MiB( 205520896bytes)    196.00MiB(100.00%)    832.06MiB(424.52%)\n"
                             "   gpu0:0    196.00MiB( 2055";
    logscan::test::check_chunk_invariance(hand, run_chunks);
    // colour after clean lines, a coloured line whose ESC and end fall in different chunks,
    // and a last coloured line without a newline: every chunk boundary lands somewhere in them
    const std::string late = "[06 15:13:35 1@a.py:x] plain\n"
                             "[06 15:13:35 2@a.py:x] \x1b[33mWRN\x1b[0m late colour, then a long plain tail ............\n"
                             "[06 15:13:36 3@a.py:x] plain again\n"
                             "\x1b[32m[06 15:13:37 4@a.py:x]\x1b[0m opr seq of length 3: a=1";
    logscan::test::check_chunk_invariance(late, run_chunks);
    const std::string_view one[] = {late};
    const std::vector<std::string> whole = run_chunks(one);
    REQUIRE(whole.size() == 5);
    CHECK(whole[1].find("late colour") != std::string::npos);
    CHECK(whole[1].find('\x1b') == std::string::npos);
}

TEST_CASE("megengine_log::no allocation while parsing (after construction)") {
    struct counts {
        std::size_t n = 0;
        unsigned long long bytes = 0;
        void on_log(const ml::log&) { ++n; }
        void on_var_shape(const ml::var_shape& s) { n += s.shape.size(); }
        void on_mem_alloc(const ml::mem_alloc& r) { bytes += r.alloc_bytes; }
        void on_opr_seq(const ml::opr_seq& s) { for (auto p : s.pairs()) n += p.get<1>().size(); }
        void on_workspace_bound(const ml::workspace_bound&) { ++n; }
        void on_text(const logscan::line&) { ++n; }
    } c;
    ml::parser<counts> p(c, {.max_line = 4096});
    const std::string& text = sample();
    LOGSCAN_CHECK_NO_ALLOC(for (std::size_t i = 0; i < text.size(); i += 1000) p.feed(std::string_view(text).substr(i, 1000)); p.finish());
    CHECK(c.bytes == 80609128448ull);
    // the same input after a UTF-8 byte order mark, fed a byte at a time at first (the mark
    // held and dropped by the line parser: no allocation either)
    const std::string marked = "\xEF\xBB\xBF" + text;
    counts m;
    ml::parser<counts> q(m, {.max_line = 4096});
    LOGSCAN_CHECK_NO_ALLOC(for (std::size_t i = 0; i < 5; ++i) q.feed(std::string_view(marked).substr(i, 1));
                           for (std::size_t i = 5; i < marked.size(); i += 1000) q.feed(std::string_view(marked).substr(i, 1000));
                           q.finish());
    CHECK((m.bytes == c.bytes && m.n == c.n));
}

TEST_CASE("megengine_log::no allocation while parsing every generation's forms (after construction)") {
    // the header forms B and C, CompNode rows read from the right, static storage and every
    // load_and_run record, each callback present so that no rule is left out
    struct all {
        std::size_t n = 0;
        void on_log(const ml::log& r) { n += r.message.size(); }
        void on_mem_alloc(const ml::mem_alloc& r) { n += r.physical.size(); }
        void on_workspace_bound(const ml::workspace_bound&) { ++n; }
        void on_static_storage(const ml::static_storage& r) { n += r.addr_end.size(); }
        void on_lar_iteration(const ml::lar_iteration&) { ++n; }
        void on_lar_summary(const ml::lar_summary&) { ++n; }
        void on_lar_warmup(const ml::lar_warmup&) { ++n; }
        void on_lar_phase(const ml::lar_phase&) { ++n; }
        void on_lar_run(const ml::lar_run&) { ++n; }
        void on_opr_seq(const ml::opr_seq& s) { for (auto q : s.pairs()) n += q.get<1>().size(); }
        void on_text(const logscan::line&) { ++n; }
        void on_error(const logscan::error&) { ++n; }
    };
    // ... and joined lines (a cut row run into the next, an opr seq naming a key twice), whose
    // checks reject them without allocating either
    for (const char* name : {"/samples/today/mge_docs_lar_tensorrt_nchw4_warn.txt", "/samples/today/mge_documentation_lar_debug_static_mem_compnode_wide.txt",
                             "/samples/today/mge_issue37_console_wrn_distributed_truncated.txt", "/tests/data/megengine_log_joined.txt"}) {
        INFO(name);
        std::ifstream f(std::string(LOGSCAN_SOURCE_DIR) + name, std::ios::binary);
        const std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
        REQUIRE(!text.empty());
        all c;
        ml::parser<all> p(c, {.max_line = 4096});
        LOGSCAN_CHECK_NO_ALLOC(for (std::size_t i = 0; i < text.size(); i += 97) p.feed(std::string_view(text).substr(i, 97)); p.finish());
        CHECK(c.n > 0);
    }
}

TEST_CASE("megengine_log::a visitor of one callback gets only that") {
    struct peak {
        std::size_t rows = 0;
        void on_mem_alloc(const ml::mem_alloc&) { ++rows; }
    } v;
    REQUIRE(ml::parse(sample(), v).ok());
    CHECK(v.rows == 378);
}

TEST_CASE("megengine_log::hand-written: colours, CRLF, levels, files, no final newline") {
    const recorder r = run("\x1b[38;5;208m[06 15:13:35 330@env.py:meghair.train.env]\x1b[0m \x1b[1;33mWRN\x1b[0m colour\r\n"
                           "[07 01:02:03 9@(unknown file):megbrain] CRITICAL it broke\r\n"
                           "[07 01:02:03 9@a b (c).py:l.x] CRIT short form\n"
                           "[07 01:02:03 9@f.py:l] DBG debugging\n"
                           "[07 01:02:03 9@f.py:l] ERR failed\n"
                           "[07 01:02:03 9@f.py:l] WRNING is not a level\n"
                           "\x1b[38:5:208m[08 23:59:59 12@f.py:l]\x1b[m plain info   \n"
                           "   \n"
                           "not a header line  \r\n"
                           "[08 23:59:59 12@f.py:l] last, no newline");
    const std::vector<std::string> want = {
        "log 1 6 15:13:35 330 env.py|meghair.train.env|WRN|colour",
        "log 2 7 01:02:03 9 (unknown file)|megbrain|CRITICAL|it broke",
        "log 3 7 01:02:03 9 a b (c).py|l.x|CRIT|short form",
        "log 4 7 01:02:03 9 f.py|l|DBG|debugging",
        "log 5 7 01:02:03 9 f.py|l|ERR|failed",
        "log 6 7 01:02:03 9 f.py|l|INFO|WRNING is not a level",
        "log 7 8 23:59:59 12 f.py|l|INFO|plain info", // (trailing spaces removed)
        "text 9 not a header line",
        "log 10 8 23:59:59 12 f.py|l|INFO|last, no newline",
    };
    CHECK(r.out == want);
}

TEST_CASE("megengine_log::hand-written: shapes (32,) and (), blocks interrupted by a header line") {
    const recorder r = run("[06 15:13:36 272@fprop.py:megskull.graph.fprop] FpropEnv(val): shapes of var nodes:\n"
                           " fc@1: (32,)\n"
                           " loss: ()\n"
                           " weird@2: (1,,2)\n"
                           "[06 15:13:36 272@fprop.py:megskull.graph.fprop] FpropEnv(val): var node shape:  data: (32, 3, 224, 224)\n"
                           " after@0: (4, 3)\n"
                           "[06 15:13:41 755@mgb.py:megbrain] static memory allocation:\n"
                           " comp_node           alloc                      lower_bound         upper_bound\n"
                           "   gpu0:0    196.00MiB( 205520896bytes)    196.00MiB(100.00%)    832.06MiB(424.52%)\n"
                           "[06 15:13:41 755@mgb.py:megbrain] something else\n"
                           "   gpu1:0    196.00MiB( 205520896bytes)    196.00MiB(100.00%)    832.06MiB(424.52%)\n");
    const std::vector<std::string> want = {
        "log 1 6 15:13:36 272 fprop.py|megskull.graph.fprop|INFO|FpropEnv(val): shapes of var nodes:",
        "var_shape 2 fc 1 [32,]",
        "var_shape 3 loss null []",
        "text 4 weird@2: (1,,2)",
        "log 5 6 15:13:36 272 fprop.py|megskull.graph.fprop|INFO|FpropEnv(val): var node shape:  data: (32, 3, 224, 224)",
        "var_shape 5 data null [32,3,224,224,]",
        "text 6 after@0: (4, 3)", // the block ended at the header line
        "log 7 6 15:13:41 755 mgb.py|megbrain|INFO|static memory allocation:",
        "mem_alloc 9 gpu0:0 196 205520896 196 100 832.05999999999995 424.51999999999998",
        "log 10 6 15:13:41 755 mgb.py|megbrain|INFO|something else",
        "text 11 gpu1:0    196.00MiB( 205520896bytes)    196.00MiB(100.00%)    832.06MiB(424.52%)",
    };
    // text keeps its leading spaces (only trailing ones are removed)
    std::vector<std::string> got = r.out;
    for (auto& s : got)
        if (s.starts_with("text ")) {
            const std::size_t sp = s.find(' ', 5);
            s = s.substr(0, sp + 1) + std::string(logscan::internal::trim(std::string_view(s).substr(sp + 1)));
        }
    CHECK(got == want);
    CHECK(has(r.out, "text 4  weird@2: (1,,2)"));
}

TEST_CASE("megengine_log::var-shape block lines at the edges of the grammar (the assisted rule and its pattern agree)") {
    // each line read by hand against formats.md section 1: ` VAR[@R]: (dims)`, VAR without
    // `@`, `:` or spaces, R digits, the dims a shape; anything else in a block is text
    const recorder r = run("[06 15:13:36 272@fprop.py:megskull.graph.fprop] FpropEnv(val): shapes of var nodes:\n"
                           " a@: (1)\n"                                 // `@` without digits
                           " b: (1)x\n"                                 // after the shape
                           " c: ((1))\n"                                // nested
                           " d@12: (1,2,)\n"
                           " e f: (1)\n"                                // a space in the name
                           " g: ()\n"
                           " h: (-1, 2)\n"
                           " i: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)\n"      // more dims than a list keeps
                           " j: (1 2)\n"                                // no comma
                           " k:(1)\n"                                   // no space after the colon
                           "  l: (1)\n"                                 // two spaces before the name (an indent)
                           " m@7: (99999999999999999999)\n"             // beyond int64
                           " n(x)@3: (5)\n"                             // brackets in the name
                           " o@9999999999999999999: (6)\n"              // a replica of 19 digits
                           " p@018446744073709551615: (7)\n");          // 21 digits: 2^64 - 1
    const std::vector<std::string> want = {
        "log 1 6 15:13:36 272 fprop.py|megskull.graph.fprop|INFO|FpropEnv(val): shapes of var nodes:",
        "text 2  a@: (1)",
        "text 3  b: (1)x",
        "text 4  c: ((1))",
        "var_shape 5 d 12 [1,2,]",
        "text 6  e f: (1)",
        "var_shape 7 g null []",
        "var_shape 8 h null [-1,2,]",
        "var_shape 9 i null [1,2,3,4,5,6,7,8,9,10,]",
        "text 10  j: (1 2)",
        "text 11  k:(1)",
        "var_shape 12 l null [1,]", // (the indent is set aside, however wide)
        "text 13  m@7: (99999999999999999999)",
        "var_shape 14 n(x) 3 [5,]",
        "var_shape 15 o 9999999999999999999 [6,]",
        "var_shape 16 p 18446744073709551615 [7,]",
    };
    CHECK(r.out == want);
}

TEST_CASE("megengine_log::fprop start messages at the edges of the grammar (the assisted rule and its pattern agree)") {
    // formats.md section 1: `FpropEnv(ENV): start fprop VarNode(owner_opr=VAR{TYPE@0xADDR})`,
    // ENV without `)`, VAR without braces, TYPE without braces or `@`, ADDR hex digits
    const std::string h = "[06 15:13:35 195@fprop.py:megskull.graph.fprop] ";
    const recorder r = run(h + "FpropEnv(val): start fprop VarNode(owner_opr=data{DataProvider@0x7f349a5c59e8})\n" +
                           h + "FpropEnv(): start fprop VarNode(owner_opr={@0xABCdef})\n" +           // empty names, mixed case
                           h + "WRN FpropEnv(a b): start fprop VarNode(owner_opr=x y{T 1@0x0})\n" + // a level; spaces
                           h + "FpropEnv(v): start fprop VarNode(owner_opr=x{T@0x})\n" +              // no hex digit
                           h + "FpropEnv(v): start fprop VarNode(owner_opr=x{T@0x1g})\n" +            // not hex
                           h + "FpropEnv(v): start fprop VarNode(owner_opr=x{T@U@0x1})\n" +           // `@` in TYPE
                           h + "FpropEnv(v): start fprop VarNode(owner_opr=x{T@0x1}) \n" +            // a space after it (trimmed)
                           h + "FpropEnv(v): start fprop VarNode(owner_opr=x{T@0x1})x\n");             // after the record
    std::vector<std::string> fp;
    for (const std::string& e : r.out)
        if (e.starts_with("fprop_start")) fp.push_back(e);
    const std::vector<std::string> want = {
        "fprop_start 1 val data DataProvider 0x7f349a5c59e8",
        "fprop_start 2    0xABCdef",
        "fprop_start 3 a b x y T 1 0x0",
        "fprop_start 7 v x T 0x1", // (the message's trailing space removed)
    };
    CHECK(fp == want);
    CHECK(r.out.size() == 8 + 4); // a log record for each line, the four fprop_start records
}

TEST_CASE("megengine_log::memory rows printed with MegEngine's printf format, large values included") {
    // the row format of MegEngine's static memory allocation log
    auto row = [](const char* comp, double mib, unsigned long long bytes, double lo, double lo_pct, double up, double up_pct) {
        char b[256];
        std::snprintf(b, sizeof b, "%9s%10.2fMiB(%10llubytes)%10.2fMiB(%6.2f%%)%10.2fMiB(%6.2f%%)\n", comp, mib, bytes, lo,
                      lo_pct, up, up_pct);
        return std::string(b);
    };
    std::string in = "[06 15:13:41 755@mgb.py:megbrain] static memory allocation:\n"
                     " comp_node           alloc                      lower_bound         upper_bound\n";
    in += row("gpu0:0", 196.0, 205520896ull, 196.0, 100.0, 832.06, 424.52);
    in += row("gpu0:COPY", 123456.0, 129452998656ull, 123456.0, 100.0, 1234567.0, 1000.0); // one space, then none
    in += row("gpu0:COPY", 1234567.0, 1294537326592ull, 1234567.0, 100.0, 1234567.0, 100.0); // nothing after the comp node
    in += row("gpu11:0", 1234567.0, 1294537326592ull, 0.5, 0.0, 1.0, 0.0);                  // comp node ends with a digit
    in += row("gpu0:COPY", 196.0, 205520896ull, 196.0, 100.0, 832.06, 424.52);               // a comp node filling its width
    in += row("cpu0", 0.0, 0ull, 0.0, 0.0, 0.0, 0.0);                                         // zeros
    // (bytes = MiB * 1048576: 123456 * 1048576 = 129452998656, 1234567 * 1048576 = 1294537326592)
    in += "   gpu0:0    196.00MiB( 2055\n";                                                   // cut off
    in += "   gpu2:0    196.00MiB( 205520896bytes)    196.00MiB(100.00%)    832.06MiB(424.52%)";
    const recorder r = run(in);
    const std::vector<std::string> want = {
        "log 1 6 15:13:41 755 mgb.py|megbrain|INFO|static memory allocation:",
        "mem_alloc 3 gpu0:0 196 205520896 196 100 832.05999999999995 424.51999999999998",
        "mem_alloc 4 gpu0:COPY 123456 129452998656 123456 100 1234567 1000",
        "mem_alloc 5 gpu0:COPY 1234567 1294537326592 1234567 100 1234567 100",
        "mem_alloc 6 gpu11:0 1234567 1294537326592 0.5 0 1 0",
        "mem_alloc 7 gpu0:COPY 196 205520896 196 100 832.05999999999995 424.51999999999998",
        "mem_alloc 8 cpu0 0 0 0 0 0 0",
        "error 9:29 memory table row cut off",
        "mem_alloc 10 gpu2:0 196 205520896 196 100 832.05999999999995 424.51999999999998",
    };
    CHECK(r.out == want);
}

TEST_CASE("megengine_log::mem_alloc_stats in both forms, formats.md section 1's examples record for record") {
    // the two messages of the contract (the second printed by newer releases), a space before
    // `(` allowed in both; a value the form does not print is null (doubles written as
    // doubles, `3.0`, as everywhere in the NDJSON)
    const std::string input =
        "[21 08:14:09 330@mem.py:megbrain] static mem alloc: nr_opr=397 nr_var=533 realtime=26.04msec(si3.31 mp+re7.10 "
        "omp0.03 alloc15.60)\n"
        "[21 08:14:10 331@mem.py:megbrain] static memory allocation: nr_opr=57 nr_var=83 realtime=1.25msec (plan0.94 "
        "alloc0.31)\n"
        "[21 08:14:11 332@mem.py:megbrain] static mem alloc: nr_opr=1 nr_var=2 realtime=3msec (si4 mp+re5 omp6 alloc7)\n"
        "[21 08:14:12 333@mem.py:megbrain] static memory allocation: nr_opr=1 nr_var=2 realtime=3msec(plan4 alloc5)\n"
        "[21 08:14:13 334@mem.py:megbrain] static memory allocation: nr_opr=1 nr_var=2 realtime=3msec (plan4, alloc5)\n";
    struct stats_only {
        std::string out;
        char buf[4096];
        logscan::test::string_writer w{logscan::test::string_sink{&out}, buf};
        ml::ndjson_visitor<logscan::test::string_writer> v{w};
        void on_mem_alloc_stats(const ml::mem_alloc_stats& r) { v.on_mem_alloc_stats(r); }
    } s;
    REQUIRE(ml::parse(input, s).ok());
    s.w.flush();
    CHECK(s.out ==
          R"({"type":"mem_alloc_stats","line":1,"nr_opr":397,"nr_var":533,"realtime_ms":26.04,"si_ms":3.31,"mp_re_ms":7.1,"omp_ms":0.03,"alloc_ms":15.6,"plan_ms":null})"
          "\n"
          R"({"type":"mem_alloc_stats","line":2,"nr_opr":57,"nr_var":83,"realtime_ms":1.25,"si_ms":null,"mp_re_ms":null,"omp_ms":null,"alloc_ms":0.31,"plan_ms":0.94})"
          "\n"
          R"({"type":"mem_alloc_stats","line":3,"nr_opr":1,"nr_var":2,"realtime_ms":3.0,"si_ms":4.0,"mp_re_ms":5.0,"omp_ms":6.0,"alloc_ms":7.0,"plan_ms":null})"
          "\n"
          R"({"type":"mem_alloc_stats","line":4,"nr_opr":1,"nr_var":2,"realtime_ms":3.0,"si_ms":null,"mp_re_ms":null,"omp_ms":null,"alloc_ms":5.0,"plan_ms":4.0})"
          "\n"); // (line 5, `plan4, alloc5`, fits neither: only its log)
}

// Every record of `input` as the command's NDJSON (one line each).
std::vector<std::string> ndjson_lines(const std::string& input) {
    bool ok = false;
    std::vector<std::string> lines = logscan::test::ndjson_lines<ml::ndjson_visitor>(input, ml::parse, ok);
    REQUIRE(ok);
    return lines;
}

TEST_CASE("megengine_log::header forms A, B and C: formats.md section 1's examples record for record") {
    // the contract's six example lines (N: their line numbers here), then the rules it states
    // about telling the forms apart, each checked against its own text
    const std::string input =
        "[06 15:13:35 330@env.py:meghair.train.env] WRN --fast-run not enabled; execution may be slow\n"
        "[21 08:14:09 plan_storage@mem_planner.cpp:57][DEBUG] static memory allocation:\n"
        "[37.512 load_graph@graph_loader.cpp:210] loaded 118 operators\n"
        "   [05 19:40:02 @:88][warn] fallback to default comp node\n"
        "05 19:40:02 WRN checkpoint directory ./ckpt is empty\n"
        "05 19:40:03[mgb] ERR worker 3 lost connection\n"
        "[01 10:00:00 12@run.py:34] fits A and B: A\n"          // (A is tried first)
        "[01 10:00:00 12@run.py:34][WARN] all-digit FUNC\n"     // not B, not A: text
        "**05 19:40:02 WRN pasted from Markdown\n"              // something before the time: text
        "[05 19:40:02 f@my file, v2.cpp:7][Debug] spaces, commas   \n" // FILE with spaces; any case; trailing spaces
        "05 19:40:02 CRIT is no console level\n"
        "05 19:40:02[mgb] plain\n"
        "\t05 19:40:02 a tab is no indent\n"
        "[05 19:40:02 f@x.cpp:7][INFO] no such tag\n"
        "[5 19:40:02 f@x.cpp:7] one-digit day\n"
        "[06 15:13:35 330@env.py:l]\n";                         // an empty message
    const std::vector<std::string> want = {
        R"J({"type":"log","line":1,"form":"file","day":6,"time":"15:13:35","func":null,"file":"env.py","src_line":330,"logger":"meghair.train.env","level":"WRN","message":"--fast-run not enabled; execution may be slow"})J",
        R"J({"type":"log","line":2,"form":"cpp","day":21,"time":"08:14:09","func":"plan_storage","file":"mem_planner.cpp","src_line":57,"logger":null,"level":"DEBUG","message":"static memory allocation:"})J",
        R"J({"type":"log","line":3,"form":"cpp","day":null,"time":"37.512","func":"load_graph","file":"graph_loader.cpp","src_line":210,"logger":null,"level":"INFO","message":"loaded 118 operators"})J",
        R"J({"type":"log","line":4,"form":"cpp","day":5,"time":"19:40:02","func":"","file":"","src_line":88,"logger":null,"level":"warn","message":"fallback to default comp node"})J",
        R"J({"type":"log","line":5,"form":"console","day":5,"time":"19:40:02","func":null,"file":null,"src_line":null,"logger":null,"level":"WRN","message":"checkpoint directory ./ckpt is empty"})J",
        R"J({"type":"log","line":6,"form":"console","day":5,"time":"19:40:03","func":null,"file":null,"src_line":null,"logger":"mgb","level":"ERR","message":"worker 3 lost connection"})J",
        R"J({"type":"log","line":7,"form":"file","day":1,"time":"10:00:00","func":null,"file":"run.py","src_line":12,"logger":"34","level":"INFO","message":"fits A and B: A"})J",
        R"J({"type":"text","line":8,"text":"[01 10:00:00 12@run.py:34][WARN] all-digit FUNC"})J",
        R"J({"type":"text","line":9,"text":"**05 19:40:02 WRN pasted from Markdown"})J",
        R"J({"type":"log","line":10,"form":"cpp","day":5,"time":"19:40:02","func":"f","file":"my file, v2.cpp","src_line":7,"logger":null,"level":"Debug","message":"spaces, commas"})J",
        R"J({"type":"log","line":11,"form":"console","day":5,"time":"19:40:02","func":null,"file":null,"src_line":null,"logger":null,"level":"INFO","message":"CRIT is no console level"})J",
        R"J({"type":"log","line":12,"form":"console","day":5,"time":"19:40:02","func":null,"file":null,"src_line":null,"logger":"mgb","level":"INFO","message":"plain"})J",
        R"J({"type":"text","line":13,"text":"\t05 19:40:02 a tab is no indent"})J",
        R"J({"type":"text","line":14,"text":"[05 19:40:02 f@x.cpp:7][INFO] no such tag"})J",
        R"J({"type":"text","line":15,"text":"[5 19:40:02 f@x.cpp:7] one-digit day"})J",
        R"J({"type":"log","line":16,"form":"file","day":6,"time":"15:13:35","func":null,"file":"env.py","src_line":330,"logger":"l","level":"INFO","message":""})J",
    };
    CHECK(ndjson_lines(input) == want);
    // the message rules read the messages of every form: a memory table after a B header, an
    // opr_seq in a C line, colour sequences and an indent before a header
    const std::vector<std::string> more = ndjson_lines(
        "  [21 08:14:09 plan_storage@mem_planner.cpp:57][DEBUG] static memory allocation:\n"
        "  comp_node           alloc                      lower_bound         upper_bound\n"
        "     gpu0:0    196.00MiB( 205520896bytes)    196.00MiB(100.00%)    832.06MiB(424.52%)\n"
        "05 19:40:02[mgb] opr seq of length 4: var_static=4 no_sys_alloc=0\n"
        "\x1b[32m  05 19:40:02\x1b[0m DBG done\n");
    CHECK(more == std::vector<std::string>{
                      R"J({"type":"log","line":1,"form":"cpp","day":21,"time":"08:14:09","func":"plan_storage","file":"mem_planner.cpp","src_line":57,"logger":null,"level":"DEBUG","message":"static memory allocation:"})J",
                      R"J({"type":"mem_alloc","line":3,"comp_node":"gpu0:0","physical":"gpu0:0","logical":null,"alloc_mib":196.0,"alloc_bytes":205520896,"lower_bound_mib":196.0,"lower_bound_pct":100.0,"upper_bound_mib":832.06,"upper_bound_pct":424.52})J",
                      R"J({"type":"log","line":4,"form":"console","day":5,"time":"19:40:02","func":null,"file":null,"src_line":null,"logger":"mgb","level":"INFO","message":"opr seq of length 4: var_static=4 no_sys_alloc=0"})J",
                      R"J({"type":"opr_seq","line":4,"length":4,"var_static":4,"no_sys_alloc":0})J",
                      R"J({"type":"log","line":5,"form":"console","day":5,"time":"19:40:02","func":null,"file":null,"src_line":null,"logger":null,"level":"DBG","message":"done"})J",
                  });
}

namespace {
// A memory table's first two lines (its `static memory allocation:` header line, the column
// header) and the log record of the first (formats.md section 1's form B example).
constexpr std::string_view mem_table_head = "[14 11:23:44 @:60][DEBUG] static memory allocation:\n"
                                            "comp_node           alloc                      lower_bound         upper_bound\n";
const char* const mem_table_log =
    R"J({"type":"log","line":1,"form":"cpp","day":14,"time":"11:23:44","func":"","file":"","src_line":60,"logger":null,"level":"DEBUG","message":"static memory allocation:"})J";
} // namespace

TEST_CASE("megengine_log::an opr seq whose pairs name the record's own keys is no opr_seq") {
    // a pair named type, line or length would be a second key of that name in the record (its
    // "type" read back as the pair's value): the header's log record keeps the message, alone
    const std::vector<std::string> got = ndjson_lines("05 19:40:02[mgb] opr seq of length 2: type=q a=1\n"
                                                      "05 19:40:02[mgb] opr seq of length 2: a=1 length=3\n"
                                                      "05 19:40:02[mgb] opr seq of length 2: line=7\n"
                                                      "05 19:40:02[mgb] opr seq of length 2: types=1 lines=2\n");
    REQUIRE(got.size() == 5);
    for (int i = 0; i < 3; ++i) CHECK(got[static_cast<std::size_t>(i)].starts_with(R"J({"type":"log","line":)J" + std::to_string(i + 1) + ","));
    CHECK(got[4] == R"J({"type":"opr_seq","line":4,"length":2,"types":1,"lines":2})J");
    // nor one that names a pair twice (a record never holds two values under one key, README)
    const std::vector<std::string> twice = ndjson_lines("05 19:40:02[mgb] opr seq of length 2: s=1 t=0 s=2\n"
                                                        "05 19:40:02[mgb] opr seq of length 2: s=1 ss=2 t=s\n");
    REQUIRE(twice.size() == 3);
    CHECK(twice[0].starts_with(R"J({"type":"log","line":1,)J"));
    CHECK(twice[1].starts_with(R"J({"type":"log","line":2,)J"));
    CHECK(twice[2] == R"J({"type":"opr_seq","line":2,"length":2,"s":1,"ss":2,"t":"s"})J");
}

TEST_CASE("megengine_log::a memory row cut off that runs into the next row is no row: its comp node would hold `MiB(`") {
    // (a log truncated and then appended to: formats.md section 1, a line that holds `MiB(` but
    // is not a whole row is `memory table row cut off`; the rows go on)
    const std::vector<std::string> got = ndjson_lines(std::string(mem_table_head) +
        "   gpu4:0    196.00MiB( 205520   gpu5:0    196.00MiB( 205520896bytes)    196.00MiB(100.00%)    832.06MiB(424.52%)\n"
        "   gpu6:0    196.00MiB( 205520896bytes)    196.00MiB(100.00%)    832.06MiB(424.52%)\n");
    const std::vector<std::string> want = {
        mem_table_log,
        R"J({"type":"error","line":3,"column":114,"message":"memory table row cut off"})J",
        R"J({"type":"mem_alloc","line":4,"comp_node":"gpu6:0","physical":"gpu6:0","logical":null,"alloc_mib":196.0,"alloc_bytes":205520896,"lower_bound_mib":196.0,"lower_bound_pct":100.0,"upper_bound_mib":832.06,"upper_bound_pct":424.52})J",
    };
    CHECK(got == want);
}

TEST_CASE("megengine_log::memory rows read from the right, CompNode names, non-finite values; bounds; static storage") {
    // formats.md section 1's examples (mem_alloc, workspace_bound, static_storage), record for record
    const std::vector<std::string> got = ndjson_lines(std::string(mem_table_head) +
        "CompNode(\"gpu3:0\" from \"xpu3:0\")     12.50MiB(  13107200bytes)     10.00MiB( 80.00%)     25.00MiB(200.00%)\n"
        "   cpu0:1      0.00MiB(         0bytes)      0.00MiB(  -nan%)      0.00MiB(  -nan%)\n"
        "   gpu0:01234567.00MiB(1294537326592bytes)      5.00MiB(  INF%)    nanMiB(-12.5%)\n" // A touches COMP
        "   gpu0:0 12.5MiB(1bytes)1MiB(2%)3MiB(4%)   \n" // one space, or none, between cells
        "   gpu0:0    196.00MiB( 205520896bytes)    196.00MiB(100.00%)    832.06MiB(nanx%)\n" // not a number: cut off
        "[14 11:23:44 @:70] workspace bounds(MiB): CompNode(\"gpu1:0\" from \"xpu1:0\")=512.25 gpu0:COPY=7809.50 x=nan y=abc\n"
        "[14 11:23:44 @:73][DEBUG] static storage on gpu3:0: size=12.50MiB addr_range=[0x7f2a4c000000, 0x7f2a4cc80000). \n"
        "[14 11:23:44 @:73] static storage on CompNode(\"cpu0:0\" from \"xpux:0\"): size=0.00 MiB addr_range=[0x5608, 0x560e\n"
        "[14 11:23:44 @:73] static storage on gpu0:0: size=1.00MiB addr_range=[0x5608, \n");
    const std::vector<std::string> want = {
        mem_table_log,
        R"J({"type":"mem_alloc","line":3,"comp_node":"CompNode(\"gpu3:0\" from \"xpu3:0\")","physical":"gpu3:0","logical":"xpu3:0","alloc_mib":12.5,"alloc_bytes":13107200,"lower_bound_mib":10.0,"lower_bound_pct":80.0,"upper_bound_mib":25.0,"upper_bound_pct":200.0})J",
        R"J({"type":"mem_alloc","line":4,"comp_node":"cpu0:1","physical":"cpu0:1","logical":null,"alloc_mib":0.0,"alloc_bytes":0,"lower_bound_mib":0.0,"lower_bound_pct":null,"upper_bound_mib":0.0,"upper_bound_pct":null})J",
        R"J({"type":"mem_alloc","line":5,"comp_node":"gpu0:0","physical":"gpu0:0","logical":null,"alloc_mib":1234567.0,"alloc_bytes":1294537326592,"lower_bound_mib":5.0,"lower_bound_pct":null,"upper_bound_mib":null,"upper_bound_pct":-12.5})J",
        R"J({"type":"mem_alloc","line":6,"comp_node":"gpu0:0","physical":"gpu0:0","logical":null,"alloc_mib":12.5,"alloc_bytes":1,"lower_bound_mib":1.0,"lower_bound_pct":2.0,"upper_bound_mib":3.0,"upper_bound_pct":4.0})J",
        R"J({"type":"error","line":7,"column":82,"message":"memory table row cut off"})J",
        R"J({"type":"log","line":8,"form":"cpp","day":14,"time":"11:23:44","func":"","file":"","src_line":70,"logger":null,"level":"INFO","message":"workspace bounds(MiB): CompNode(\"gpu1:0\" from \"xpu1:0\")=512.25 gpu0:COPY=7809.50 x=nan y=abc"})J",
        R"J({"type":"workspace_bound","line":8,"comp_node":"CompNode(\"gpu1:0\" from \"xpu1:0\")","mib":512.25})J",
        R"J({"type":"workspace_bound","line":8,"comp_node":"gpu0:COPY","mib":7809.5})J",
        R"J({"type":"workspace_bound","line":8,"comp_node":"x","mib":null})J",
        R"J({"type":"log","line":9,"form":"cpp","day":14,"time":"11:23:44","func":"","file":"","src_line":73,"logger":null,"level":"DEBUG","message":"static storage on gpu3:0: size=12.50MiB addr_range=[0x7f2a4c000000, 0x7f2a4cc80000)."})J",
        R"J({"type":"static_storage","line":9,"comp_node":"gpu3:0","size_mib":12.5,"addr_begin":"0x7f2a4c000000","addr_end":"0x7f2a4cc80000"})J",
        R"J({"type":"log","line":10,"form":"cpp","day":14,"time":"11:23:44","func":"","file":"","src_line":73,"logger":null,"level":"INFO","message":"static storage on CompNode(\"cpu0:0\" from \"xpux:0\"): size=0.00 MiB addr_range=[0x5608, 0x560e"})J",
        R"J({"type":"static_storage","line":10,"comp_node":"CompNode(\"cpu0:0\" from \"xpux:0\")","size_mib":0.0,"addr_begin":"0x5608","addr_end":"0x560e"})J",
        R"J({"type":"log","line":11,"form":"cpp","day":14,"time":"11:23:44","func":"","file":"","src_line":73,"logger":null,"level":"INFO","message":"static storage on gpu0:0: size=1.00MiB addr_range=[0x5608,"})J",
    };
    CHECK(got == want);
}

TEST_CASE("megengine_log::forms B and C and static storage at the edges of their grammars (the hand readers and their patterns agree)") {
    // formats.md section 1: B's FUNC never all digits and without `]`, its tag in any case and
    // then one space; C's level word followed by a space, `[mgb] ` right after the time;
    // static storage's COMP up to the last `: size=`, X a non-finite word or a decimal that
    // spaces may separate from `MiB`. (LOGSCAN_CHECK_ASSISTS: every line a reader takes or,
    // deciding, declines is matched by its pattern too.)
    const std::string b = "[14 11:23:44 @:73] ";
    const std::vector<std::string> got = ndjson_lines(
        "[37.512 123@x.cpp:9] digits-only func\n"
        "[05 19:40:02 f]g@x.cpp:9] bracket in func\n"
        "[05 19:40:02 1a@x.cpp:9][wArN] mixed case\n"
        "[05 19:40:02 f@x.cpp:9][DEBUG]x\n"
        "[1.5 f@:9] seconds\n"
        "05 19:40:02 WRN\n"
        "05 19:40:02[mgb] DBG go\n"
        "05 19:40:02[mgb]x\n" +
        b + "static storage on a: size=b: size=nanMiB addr_range=[0x1, 0x2)\n" +
        b + "static storage on gpu0:0: size=-inf MiB addr_range=[0xA, 0xB).\n" +
        b + "static storage on g: size=12.5MiB addr_range=[0x1, 0x2)x\n");
    const auto cpp_log = [](int line, std::string_view message) {
        return R"J({"type":"log","line":)J" + std::to_string(line) +
               R"J(,"form":"cpp","day":14,"time":"11:23:44","func":"","file":"","src_line":73,"logger":null,"level":"INFO","message":")J" +
               std::string(message) + "\"}";
    };
    const std::vector<std::string> want = {
        R"J({"type":"text","line":1,"text":"[37.512 123@x.cpp:9] digits-only func"})J",
        R"J({"type":"text","line":2,"text":"[05 19:40:02 f]g@x.cpp:9] bracket in func"})J",
        R"J({"type":"log","line":3,"form":"cpp","day":5,"time":"19:40:02","func":"1a","file":"x.cpp","src_line":9,"logger":null,"level":"wArN","message":"mixed case"})J",
        R"J({"type":"text","line":4,"text":"[05 19:40:02 f@x.cpp:9][DEBUG]x"})J",
        R"J({"type":"log","line":5,"form":"cpp","day":null,"time":"1.5","func":"f","file":"","src_line":9,"logger":null,"level":"INFO","message":"seconds"})J",
        R"J({"type":"log","line":6,"form":"console","day":5,"time":"19:40:02","func":null,"file":null,"src_line":null,"logger":null,"level":"INFO","message":"WRN"})J",
        R"J({"type":"log","line":7,"form":"console","day":5,"time":"19:40:02","func":null,"file":null,"src_line":null,"logger":"mgb","level":"DBG","message":"go"})J",
        R"J({"type":"text","line":8,"text":"05 19:40:02[mgb]x"})J",
        cpp_log(9, "static storage on a: size=b: size=nanMiB addr_range=[0x1, 0x2)"),
        R"J({"type":"static_storage","line":9,"comp_node":"a: size=b","size_mib":null,"addr_begin":"0x1","addr_end":"0x2"})J",
        cpp_log(10, "static storage on gpu0:0: size=-inf MiB addr_range=[0xA, 0xB)."),
        R"J({"type":"static_storage","line":10,"comp_node":"gpu0:0","size_mib":null,"addr_begin":"0xA","addr_end":"0xB"})J",
        cpp_log(11, "static storage on g: size=12.5MiB addr_range=[0x1, 0x2)x"),
    };
    CHECK(got == want);
}

TEST_CASE("megengine_log::a memory row's allocation touches its comp node only when it fills its field") {
    // `%9s%10.2fMiB(`: a value under 1,000,000 MiB is printed after a space, so a run of
    // digits before `MiB(` is all the allocation even when it ends with B / 2^20 printed
    // (`0196.00`, a damaged row: CI's fuzz input); the template and the general reading agree
    // (the tests check both on every row the template takes)
    const std::vector<std::string> got = ndjson_lines(std::string(mem_table_head) +
        "   gpu0:0   0196.00MiB( 205520896bytes)    196.00MiB(100.00%)    832.06MiB(424.52%)\n"
        "   gpu0:0  0196.00MiB( 205520896bytes)    196.00MiB(100.00%)    832.06MiB(424.52%)\n");
    const std::vector<std::string> want = {
        mem_table_log,
        R"J({"type":"mem_alloc","line":3,"comp_node":"gpu0:0","physical":"gpu0:0","logical":null,"alloc_mib":196.0,"alloc_bytes":205520896,"lower_bound_mib":196.0,"lower_bound_pct":100.0,"upper_bound_mib":832.06,"upper_bound_pct":424.52})J",
        R"J({"type":"mem_alloc","line":4,"comp_node":"gpu0:0","physical":"gpu0:0","logical":null,"alloc_mib":196.0,"alloc_bytes":205520896,"lower_bound_mib":196.0,"lower_bound_pct":100.0,"upper_bound_mib":832.06,"upper_bound_pct":424.52})J",
    };
    CHECK(got == want);
}

TEST_CASE("megengine_log::a memory row is read at its template's columns as the general reading reads it, whatever its comp node") {
    // Rows printed with MegEngine's own format (`%9s%10.2fMiB(%10zubytes)...`) from comp nodes
    // of every width (`%9s` pads short ones; `CompNode("P" from "L")` runs past it) and values
    // that fit their fields or not (1,000,000 MiB and more touch the comp node; negative and
    // non-finite percentages), some with a trailing blank: where the template reads a row,
    // the general reading (read_row) must read it and give the same record; and the template
    // must read the ordinary rows, of the seed's comp nodes and of the newer ones.
    const char* const comps[] = {"gpu0:0", "gpu0:COPY", "cpu0:0", "CompNode(\"gpu3:0\" from \"xpu3:0\")",
                                 "CompNode(\"cpu0:0\" from \"xpux:0\")", "a b", "x", "gpuXYZ:12345", "MiB(x", ""};
    const double mibs[] = {0, 0.004, 196.0, 784.27, 999999.99, 1000000.0, 1234567.5};
    const double pcts[] = {100.0, 424.52, 0.0, -3.5, NAN, INFINITY};
    const auto as_ndjson = [](const ml::mem_alloc& r) {
        std::string out;
        char buf[1024];
        logscan::test::string_writer w{logscan::test::string_sink{&out}, buf};
        ml::ndjson_visitor<logscan::test::string_writer> v{w};
        v.on_mem_alloc(r);
        w.flush();
        return out;
    };
    std::mt19937 rng(20261205);
    std::size_t template_rows = 0, compnode_rows = 0;
    for (int i = 0; i < 20000; ++i) {
        const char* const comp = comps[rng() % std::size(comps)];
        const double a = mibs[rng() % std::size(mibs)], lo = mibs[rng() % std::size(mibs)], up = mibs[rng() % std::size(mibs)];
        const double p = pcts[rng() % std::size(pcts)], q = pcts[rng() % std::size(pcts)];
        const auto bytes = static_cast<unsigned long long>(a * 1048576.0);
        char buf[256];
        const int n = std::snprintf(buf, sizeof buf, "%9s%10.2fMiB(%10llubytes)%10.2fMiB(%6.2f%%)%10.2fMiB(%6.2f%%)%s", comp, a,
                                    bytes, lo, p, up, q, rng() % 8 == 0 ? " " : "");
        REQUIRE(n > 0);
        const std::string text(buf, static_cast<std::size_t>(n));
        INFO(text);
        const logscan::line l{text, 7, 0};
        ml::mem_alloc t{}, g{};
        const bool by_template = ml::detail::read_row_template(l, t);
        const bool general = ml::detail::read_row(l, g);
        if (!by_template) continue;
        ++template_rows;
        if (std::string_view(comp).starts_with("CompNode")) ++compnode_rows;
        REQUIRE(general);
        CHECK(as_ndjson(t) == as_ndjson(g)); // (every field, as the record's description writes it)
    }
    CHECK(template_rows > 2000);
    CHECK(compnode_rows > 400);
    // the contract's CompNode example, read at the template's columns
    const std::string row = "CompNode(\"gpu3:0\" from \"xpu3:0\")     12.50MiB(  13107200bytes)     10.00MiB( 80.00%)     25.00MiB(200.00%)";
    ml::mem_alloc r{};
    REQUIRE(ml::detail::read_row_template(logscan::line{row, 1, 0}, r));
    CHECK(r.comp_node == "CompNode(\"gpu3:0\" from \"xpu3:0\")");
    CHECK(r.physical == "gpu3:0");
    CHECK(r.logical == std::optional<std::string_view>("xpu3:0"));
    CHECK(r.alloc_mib == 12.5);
    CHECK(r.alloc_bytes == 13107200);
    CHECK(r.lower_bound_mib == 10.0);
    CHECK(r.lower_bound_pct == 80.0);
    CHECK(r.upper_bound_mib == 25.0);
    CHECK(r.upper_bound_pct == 200.0);
}

TEST_CASE("megengine_log::load_and_run's lines in every generation, as lines and as messages (formats.md section 1)") {
    // the contract's examples (lines 1-8), then each form it lists once, then near misses
    const std::vector<std::string> got = ndjson_lines(
        "iter 3/20: 12.004ms (exec=2.118,device=11.870)\n"
        "[08 10:11:12 @:88] iter 0/5: e2e=7.230 ms (host=1.066 ms)\n"
        "run iter 4 time 7.250000 ms\n"
        "=== finished test #1: time=12.500ms avg_time=12.500ms sd=-nanms minmax=12.500,12.500\n"
        "  === finished test #0: time=144.600 ms avg_time=7.230 ms standard_deviation=0.120 ms min=7.010 ms max=7.900 ms\n"
        "warm up 0  30.010ms\n"
        "=== prepare: 40.125ms; going to warmup\n"
        "=== going to run 2 testcases; output vars: fc1{1,1000} prob{1,1000}\n"
        "=== going to run test #1 for 20 times\n"
        "iter 1/8: 6.5ms (exec=0.5ms)\n"
        "iter 2/8: 6.500 ms (exec=0.500 ms)\n"
        "=== finished run #3: time=9.000ms\n"
        "12.004ms  2.118ms (device=11.870)\n"
        "=== finished test #2: time=10ms avg_time=5ms sexec=1ms min=4ms max=6ms\n"
        "=== finished test #3: time=10 ms avg_time=5 ms sexec=1 ms min=4 ms max=6 ms\n"
        "avg time: 5.5ms\n"
        "warmup 1: 31.5ms\n"
        "warm up 2 time 29.000000 ms\n"
        "load model: 4264.378ms\n"
        "=== total time: 144.600ms\n"
        "config model time 3.000000 ms\n"
        "=== going to run input for 10 times\n"
        "=== going to run for 5 times; output vars: \n"
        "[14 11:23:44 @:121][WARN] run testcase: 0 \n"
        "05 19:40:02 iter 4/5: e2e=INF ms (host=-inf ms)\n"
        "iter 3/20: 12.004ms (exec=2.118, device=11.870)\n" // near misses: text
        "iter 3/20: 12.004 ms\n"
        "warm up 0 30.010ms\n"
        "iter 3/20: +nanms (exec=1ms)\n"
        "mgb load-and-run: using MegBrain 8.4.1(0) and MegDNN 9.3.0\n");
    const std::vector<std::string> want = {
        R"J({"type":"lar_iteration","line":1,"iter":3,"iters":20,"time_ms":12.004,"exec_ms":2.118,"device_ms":11.87})J",
        R"J({"type":"log","line":2,"form":"cpp","day":8,"time":"10:11:12","func":"","file":"","src_line":88,"logger":null,"level":"INFO","message":"iter 0/5: e2e=7.230 ms (host=1.066 ms)"})J",
        R"J({"type":"lar_iteration","line":2,"iter":0,"iters":5,"time_ms":7.23,"exec_ms":1.066,"device_ms":null})J",
        R"J({"type":"lar_iteration","line":3,"iter":4,"iters":null,"time_ms":7.25,"exec_ms":null,"device_ms":null})J",
        R"J({"type":"lar_summary","line":4,"test":1,"time_ms":12.5,"avg_ms":12.5,"sd_ms":null,"min_ms":12.5,"max_ms":12.5})J",
        R"J({"type":"lar_summary","line":5,"test":0,"time_ms":144.6,"avg_ms":7.23,"sd_ms":0.12,"min_ms":7.01,"max_ms":7.9})J",
        R"J({"type":"lar_warmup","line":6,"iter":0,"time_ms":30.01})J",
        R"J({"type":"lar_phase","line":7,"phase":"prepare","time_ms":40.125})J",
        R"J({"type":"lar_run","line":8,"test":null,"testcases":2,"iters":null,"output_vars":"fc1{1,1000} prob{1,1000}"})J",
        R"J({"type":"lar_run","line":9,"test":1,"testcases":null,"iters":20,"output_vars":null})J",
        R"J({"type":"lar_iteration","line":10,"iter":1,"iters":8,"time_ms":6.5,"exec_ms":0.5,"device_ms":null})J",
        R"J({"type":"lar_iteration","line":11,"iter":2,"iters":8,"time_ms":6.5,"exec_ms":0.5,"device_ms":null})J",
        R"J({"type":"lar_iteration","line":12,"iter":3,"iters":null,"time_ms":9.0,"exec_ms":null,"device_ms":null})J",
        R"J({"type":"lar_iteration","line":13,"iter":null,"iters":null,"time_ms":12.004,"exec_ms":2.118,"device_ms":11.87})J",
        R"J({"type":"lar_summary","line":14,"test":2,"time_ms":10.0,"avg_ms":5.0,"sd_ms":1.0,"min_ms":4.0,"max_ms":6.0})J",
        R"J({"type":"lar_summary","line":15,"test":3,"time_ms":10.0,"avg_ms":5.0,"sd_ms":1.0,"min_ms":4.0,"max_ms":6.0})J",
        R"J({"type":"lar_summary","line":16,"test":null,"time_ms":null,"avg_ms":5.5,"sd_ms":null,"min_ms":null,"max_ms":null})J",
        R"J({"type":"lar_warmup","line":17,"iter":1,"time_ms":31.5})J",
        R"J({"type":"lar_warmup","line":18,"iter":2,"time_ms":29.0})J",
        R"J({"type":"lar_phase","line":19,"phase":"load","time_ms":4264.378})J",
        R"J({"type":"lar_phase","line":20,"phase":"total","time_ms":144.6})J",
        R"J({"type":"lar_phase","line":21,"phase":"config","time_ms":3.0})J",
        R"J({"type":"lar_run","line":22,"test":null,"testcases":null,"iters":10,"output_vars":null})J",
        R"J({"type":"lar_run","line":23,"test":null,"testcases":null,"iters":5,"output_vars":""})J",
        R"J({"type":"log","line":24,"form":"cpp","day":14,"time":"11:23:44","func":"","file":"","src_line":121,"logger":null,"level":"WARN","message":"run testcase: 0"})J",
        R"J({"type":"lar_run","line":24,"test":0,"testcases":null,"iters":null,"output_vars":null})J",
        R"J({"type":"log","line":25,"form":"console","day":5,"time":"19:40:02","func":null,"file":null,"src_line":null,"logger":null,"level":"INFO","message":"iter 4/5: e2e=INF ms (host=-inf ms)"})J",
        R"J({"type":"lar_iteration","line":25,"iter":4,"iters":5,"time_ms":null,"exec_ms":null,"device_ms":null})J",
        R"J({"type":"text","line":26,"text":"iter 3/20: 12.004ms (exec=2.118, device=11.870)"})J",
        R"J({"type":"text","line":27,"text":"iter 3/20: 12.004 ms"})J",
        R"J({"type":"text","line":28,"text":"warm up 0 30.010ms"})J",
        R"J({"type":"text","line":29,"text":"iter 3/20: +nanms (exec=1ms)"})J",
        R"J({"type":"text","line":30,"text":"mgb load-and-run: using MegBrain 8.4.1(0) and MegDNN 9.3.0"})J",
    };
    CHECK(got == want);
    // in a memory table, a line no form fits is still the table's (a row, an error)
    const std::vector<std::string> table = ndjson_lines("[14 11:23:44 @:60] static memory allocation:\n"
                                                        "   0:0      1.00MiB(   1048576bytes)      1.00MiB(100.00%)      1.00MiB(100.00%)\n"
                                                        "   10.5MiB(\n"
                                                        "iter 0/1: 1ms (exec=1ms)\n");
    CHECK(table == std::vector<std::string>{
                       R"J({"type":"log","line":1,"form":"cpp","day":14,"time":"11:23:44","func":"","file":"","src_line":60,"logger":null,"level":"INFO","message":"static memory allocation:"})J",
                       R"J({"type":"mem_alloc","line":2,"comp_node":"0:0","physical":"0:0","logical":null,"alloc_mib":1.0,"alloc_bytes":1048576,"lower_bound_mib":1.0,"lower_bound_pct":100.0,"upper_bound_mib":1.0,"upper_bound_pct":100.0})J",
                       R"J({"type":"error","line":3,"column":12,"message":"memory table row cut off"})J",
                       R"J({"type":"lar_iteration","line":4,"iter":0,"iters":1,"time_ms":1.0,"exec_ms":1.0,"device_ms":null})J",
                   });
}

TEST_CASE("megengine_log::damaged input never crashes and accounts for every non-blank line") {
    // every non-blank line yields a record that names it (a log, a var_shape, a mem_alloc,
    // text or an error), or is structural (the memory table's header line)
    auto accounted = [](std::string_view in) {
        recorder r;
        ml::parser<recorder> p(r, {.max_line = 4096});
        p.feed(in);
        p.finish();
        std::vector<bool> seen(logscan::test::lines_of(in).size() + 2, false);
        for (const auto& s : r.out) {
            const std::size_t a = s.find(' ') + 1;
            seen[std::strtoull(s.c_str() + a, nullptr, 10)] = true;
        }
        std::size_t missing = 0, n = 0;
        for (std::string_view l : logscan::test::lines_of(in)) {
            ++n;
            if (!logscan::internal::trim(l).empty() && !seen[n] && !l.starts_with(" comp_node ")) ++missing;
        }
        return missing;
    };
    const std::string& s = sample();
    for (std::size_t cut : {std::size_t{1}, std::size_t{37}, s.size() / 7, s.size() / 3, s.size() / 2, s.size() - 2}) {
        INFO("cut at " << cut);
        CHECK(accounted(std::string_view(s).substr(0, cut)) == 0);
    }
    // binary garbage
    std::string junk;
    for (int i = 0; i < 20000; ++i) junk += static_cast<char>((i * 7919 + i / 13) & 0xff);
    CHECK(accounted(junk) == 0);
    // an empty file
    CHECK(run("").out.empty());
    // a 10 MB line between two records: an error record at its line, the records around it kept
    std::string big = "[06 15:13:35 1@a.py:x] before\n" + std::string(10u << 20, 'x') + "\n[06 15:13:35 1@a.py:x] after\n";
    const recorder r = run(big);
    REQUIRE(r.out.size() == 3);
    CHECK(r.out[0] == "log 1 6 15:13:35 1 a.py|x|INFO|before");
    CHECK(r.out[1].starts_with("error 2:1048577 line longer than the line buffer")); // column: one past the 1 MiB buffer
    CHECK(r.out[2] == "log 3 6 15:13:35 1 a.py|x|INFO|after");
}

TEST_CASE("megengine_log::a bounds(MiB) list read by hand gives the pair pattern's pairs, or leaves the list to it") {
    // the hand reader (detail::plain_bounds) against the pattern it stands in for, on lists
    // built from MegEngine's tokens and their damaged neighbours: where it reads a list, the
    // pairs (COMP, MIB text) are the pattern's matches; where it declines, it called nothing
    const auto by_pattern = [](std::string_view t) {
        std::vector<std::pair<std::string, std::string>> got;
        for (const auto& p : logscan::search_all<R"((CompNode\("[^"]*" from "[^"]*"\)|[^\s=]+)=(\d+(?:\.\d+)?|[-+]?[A-Za-z]+)(?:\s|$))">(t))
            got.emplace_back(p.template get<1>(), p.template get<2>());
        return got;
    };
    const char* pieces[] = {"gpu0:0=8397.50", "gpu0:COPY=7809.50", "cpu0:0=12", " ", " ", "  ", "=", "==", "1.", ".5", "x=1.2.3",
                            "a=b=5", "\t", "CompNode(\"gpu0:0\" from \"xpu0:0\")=3.00", "\"", "nan", "k=inf", "z=-1", "=7", "y=",
                            "q=0.25\t", "\n", "w=3x", "é=1.5"};
    std::uint64_t seed = 12345;
    std::size_t read = 0, declined = 0;
    for (int round = 0; round < 20000; ++round) {
        std::string t;
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        const std::size_t n = (seed >> 40) % 7;
        for (std::size_t i = 0; i < n; ++i) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            const std::size_t k = (seed >> 33) % std::size(pieces);
            t += pieces[k % 4 == 0 ? 0 : k]; // (the plain form more often than the others)
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            if ((seed >> 35) % 3 != 0) t += ' ';
        }
        std::vector<std::pair<std::string, std::string>> hand;
        const bool ok = logscan::megengine_log::detail::plain_bounds(
            std::string_view(t), [&](std::string_view c, std::string_view v) { hand.emplace_back(c, v); });
        if (ok) {
            ++read;
            if (hand != by_pattern(t)) FAIL_CHECK("list '" << t << "'");
        } else {
            ++declined;
            if (!hand.empty()) FAIL_CHECK("declined '" << t << "' after calling f");
        }
    }
    CHECK(read > 2000); // (both paths taken often)
    CHECK(declined > 2000);
    // the sample's list, read by hand: nine pairs, as printed
    std::vector<std::pair<std::string, std::string>> hand;
    CHECK(logscan::megengine_log::detail::plain_bounds(
        std::string_view(" gpu0:0=8397.50 gpu0:COPY=7809.50 gpu1:0=10547.50 gpu2:0=10547.50 gpu3:0=10547.50 gpu4:0=10547.50 "
                         "gpu5:0=10547.50 gpu6:0=10547.50 gpu7:0=10547.50"),
        [&](std::string_view c, std::string_view v) { hand.emplace_back(c, v); }));
    REQUIRE(hand.size() == 9);
    CHECK(hand[1] == std::pair<std::string, std::string>{"gpu0:COPY", "7809.50"});
}

TEST_CASE("megengine_log::the load_and_run lines' gate read by hand decides as its pattern does") {
    // read_lar_start implements the lar rules' pattern whole (their `read_by`): on every text
    // built from the pattern's words, signs, digits and the cases of nan/inf, and their damaged
    // neighbours, it takes the text exactly when the pattern matches it
    const char* pieces[] = {"iter ", "iter", "run ", "ru", "=== ", "==", "warm", "war", "load model: ", "load model:",
                            "config model time ", "config model", "avg time: ", "avg time:", "-", "+", "7", "0.5",
                            "nan", "NaN", "nAN", "na", "inf", "INF", "iNf", "in", "x", " ", "\t", "\r", "é", "\x01"};
    std::uint64_t seed = 4242;
    std::size_t taken = 0, declined = 0;
    for (int round = 0; round < 30000; ++round) {
        const std::string t = test_support::pieces_text(seed, pieces, 4);
        ++(test_support::decides_as_pattern<ml::detail::lar_pattern, 1>(t, ml::detail::read_lar_start) ? taken : declined);
    }
    CHECK(taken > 3000); // (both ways often)
    CHECK(declined > 3000);
}

TEST_CASE("megengine_log::the newer memory statistics line read by hand decides as its pattern does") {
    // read_alloc_stats implements its rule's pattern whole (`read_by`: the pattern is never
    // run): on texts built from the line's pieces and damaged neighbours, it takes a text
    // exactly when the pattern matches it, with the same groups
    const char* pieces[] = {"static memory allocation: nr_opr=", "static memory allocation:", " nr_var=", " realtime=",
                            "msec", " (plan", "(plan", " alloc", ")", "57", "1.25", "0.", ".5", " ", "x", "1e3", "-1"};
    // (the line's slots in order, each its piece or, now and then, another)
    const std::vector<std::vector<const char*>> slots = {
        {"static memory allocation: nr_opr="}, {"57"}, {" nr_var="}, {"83"}, {" realtime="}, {"1.25"},
        {"msec"}, {" (plan"}, {"0.94"}, {" alloc"}, {"0.31"}, {")"}};
    std::uint64_t seed = 20261204;
    std::size_t taken = 0;
    for (int round = 0; round < 30000; ++round) {
        const std::string t = round % 2 == 0 ? test_support::pieces_text(seed, pieces, 12)
                                             : test_support::slots_text(seed, slots, pieces, 34, 40);
        taken += test_support::decides_as_pattern<ml::detail::alloc_stats_pattern, 6>(t, ml::detail::read_alloc_stats);
    }
    CHECK(taken > 1000);
}

TEST_CASE("megengine_log::a memory row's tail read by hand is its pattern's match") {
    // read_row_tail stands in for the row tail's pattern (read_row's assisted_match): on texts
    // built from the tail's pieces and their damaged neighbours, it takes a text only where the
    // pattern matches it, with the same groups, and it takes the well-formed tails
    const char* pieces[] = {"MiB(", "MiB", "Mi", "(", ")", "%)", "%", "bytes)", "bytes", " ", "  ", "\t", "64", "0.00",
                            "100.00", "-nan", "inf", "x", "MiBMiB(", "1e5"};
    std::uint64_t seed = 20261204;
    std::size_t taken = 0;
    for (int round = 0; round < 30000; ++round) {
        std::string t;
        if (round % 2 == 0) {
            t = test_support::pieces_text(seed, pieces, 12);
        } else { // a tail's slots in order, each slot one of its forms or a damaged one
            const char* slots[][6] = {{"MiB(", "MiB(", "MiB(", "MiB", "Mib(", "MiB( "},
                                      {"", " ", "   ", "\t", "", ""},
                                      {"64", "205520896", "0", "", "1.5", "x"},
                                      {"bytes)", "bytes)", "bytes)", "bytes", "bytes) ", "byte)"},
                                      {"", " ", "    ", "", "\t", ""},
                                      {"0.00", "196.00", "nan", "-inf", "", "1(2"},
                                      {"MiB(", "MiB(", "MiB(", "MiB", "MiB)", "MiBMiB("},
                                      {"", " ", "  ", "", "", "\t"},
                                      {"100.00", "37.50", "-nan", "", "1%2", "4 5"},
                                      {"%)", "%)", "%)", "%", ")", "%))"},
                                      {"", " ", "      ", "", "", ""},
                                      {"832.06", "0.00", "inf", "", "M", "1e5"},
                                      {"MiB(", "MiB(", "MiB(", "MiB", "iB(", "MiB(("},
                                      {"", " ", "", "", "", ""},
                                      {"424.52", "37.50", "nan", "", "%", "1"},
                                      {"%)", "%)", "%)", "%", "%) ", "%)x"}};
            for (const auto& slot : slots) {
                seed = test_support::lcg_next(seed);
                const auto pick = (seed >> 33) % 16; // (mostly a well-formed piece)
                t += slot[pick < 11 ? pick % 3 : 3 + pick % 3];
            }
        }
        taken += test_support::decides_as_pattern<ml::detail::row_tail_pattern, 6>(t, ml::detail::read_row_tail);
    }
    CHECK(taken > 300); // (built tails: about one in 25 whole)
    for (std::string_view t : {"MiB(        64bytes)      0.00MiB(100.00%)      0.00MiB( 37.50%)",
                               "MiB(205520896bytes)196.00MiB(100.00%)832.06MiB(424.52%)",
                               "MiB( 205520896bytes)    196.00MiB(-nan%)    nanMiB(inf%)"}) {
        std::array<std::string_view, 6> g{};
        CHECK(ml::detail::read_row_tail(t, g));
    }
}

TEST_CASE("megengine_log::an opr seq's pairs found by hand are the pair pattern's matches") {
    // opr_seq::pairs walks the text by hand; search_all of its pattern is the definition: on
    // texts built from keys, `=`, values and every kind of blank, the same matches in order
    // (texts of up to 9 pieces and of up to 40: runs that end within, across and after
    // 16-byte looks, and the last bytes looked at from the end)
    const char* pieces[] = {"var_static", "=", "533", " ", "  ", "\t", "\n", "\r", "\f", "\v", "==", "k", "=v=w", "é", "x=",
                            "var_dynamic_storage_of_a_long_name", "\x08", "\x0e"};
    std::uint64_t seed = 777;
    std::size_t pairs = 0;
    for (int round = 0; round < 30000; ++round) {
        const std::string t = test_support::pieces_text(seed, pieces, round % 2 == 0 ? 9 : 40);
        const ml::opr_seq r{1, 0, t};
        const auto matches = [](const auto& range) {
            std::vector<std::string> out;
            for (const auto& p : range)
                out.push_back(std::to_string(p.offset()) + ":" + std::string(p.template get<0>()) + "|" +
                              std::string(p.template get<1>()) + "|" + std::string(p.template get<2>()));
            return out;
        };
        const std::vector<std::string> hand = matches(r.pairs()),
                                       pattern = matches(logscan::search_all<ml::detail::opr_pair_pattern>(t));
        if (hand != pattern) FAIL_CHECK("text '" << t << "'");
        pairs += hand.size();
    }
    CHECK(pairs > 10000); // (pairs found often)
}
