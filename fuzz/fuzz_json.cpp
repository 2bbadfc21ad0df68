// SPDX-License-Identifier: MIT
// Fuzz target of logscan::json::reader. Input layout: byte 0 = option flags (bit 64 also
// turns on non_finite_words), byte 1 = where to split, the rest = the document. Invariants
// checked (abort() on violation):
//  1. chunk invariance: the events and the result are identical when the document is fed
//     whole, split in two at a fuzzed position, and in small chunks of varying sizes;
//  2. every chunk lives in its own exactly-sized heap block (ASan catches over-reads);
//  3. a document accepted has balanced begin/end events and, re-serialised from its events,
//     parses again to the same events (round trip);
//  4. errors carry a non-empty message and an offset within the input; line/column agree
//     with the offset;
//  5. json::replay (and a replayer) gives the calls and the outcome the reader gives the same
//     text through its events (a text that is one scalar is replayed without a reader), to an
//     emitter that takes numbers as read and to one that takes their tokens.
#include <logscan/json.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace {

namespace json = logscan::json;

[[noreturn]] void violated(const char* what) {
    std::fprintf(stderr, "fuzz_json: invariant violated: %s\n", what);
    std::abort();
}

// Appends events to one string: a tag byte, then (for text) the length and bytes.
struct recorder {
    std::string log;
    long depth = 0;
    bool unbalanced = false;
    bool skip_keys = false;
    void tag(char t) { log += t; }
    void text(char t, std::string_view s) {
        log += t;
        log += std::to_string(s.size());
        log += ':';
        log += s;
    }
    void on_object_begin() {
        ++depth;
        tag('{');
    }
    void on_object_end() {
        if (--depth < 0) unbalanced = true;
        tag('}');
    }
    void on_array_begin() {
        ++depth;
        tag('[');
    }
    void on_array_end() {
        if (--depth < 0) unbalanced = true;
        tag(']');
    }
    json::action on_key(std::string_view k) {
        text('k', k);
        return skip_keys && !k.empty() && k[0] == 's' ? json::action::skip : json::action::proceed;
    }
    void on_string(std::string_view s) { text('s', s); }
    void on_number(const json::number& n) {
        text('n', n.text());
        // conversions must not crash and must agree with the text's kind
        // to_double's exact fast path must agree bit for bit with fast_float
        const double d = n.to_double();
        if (!n.is_finite()) { // a non-finite word (options::non_finite_words)
            if (std::isfinite(d) || n.is_integer() || n.to_int64() || n.to_uint64()) violated("a non-finite word converted");
            return;
        }
        double ref = 0;
        (void)fast_float::from_chars(n.text().data(), n.text().data() + n.text().size(), ref);
        if (std::memcmp(&d, &ref, sizeof d) != 0) violated("to_double differs from fast_float");
        if (!n.is_integer() && (n.to_int64() || n.to_uint64())) violated("non-integer converted to integer");
        (void)n.is_big_integer();
    }
    void on_bool(bool b) { tag(b ? 't' : 'f'); }
    void on_null() { tag('0'); }
};

// Also takes strings in parts (and records their concatenation) and tracks paths.
struct part_recorder : recorder {
    std::string pending;
    std::string paths;
    void on_string_part(std::string_view s, bool last, const json::path& p) {
        pending += s;
        if (last) {
            text('s', pending);
            pending.clear();
            paths += std::to_string(p.size());
            paths += p.matches("*.*") ? '*' : '.';
        }
    }
};

struct outcome {
    std::string log;
    logscan::error err;
};

bool same(const outcome& a, const outcome& b) {
    return a.log == b.log && a.err.code == b.err.code && a.err.offset == b.err.offset &&
           a.err.line == b.err.line && a.err.column == b.err.column && a.err.message == b.err.message;
}

template <class V>
outcome run(std::string_view doc, const std::vector<std::size_t>& cuts, const json::options& opt, bool skip) {
    V v;
    v.skip_keys = skip;
    json::reader<V> r(v, opt);
    std::size_t start = 0;
    for (std::size_t i = 0; i <= cuts.size(); ++i) {
        const std::size_t end = i < cuts.size() ? cuts[i] : doc.size();
        // an exactly-sized copy per chunk
        const std::size_t n = end - start;
        std::unique_ptr<char[]> block(new char[n ? n : 1]);
        if (n) std::memcpy(block.get(), doc.data() + start, n);
        const logscan::flow f = r.feed(std::string_view(block.get(), n));
        start = end;
        if (f == logscan::flow::stop) break;
    }
    (void)r.finish();
    if (!r.ok() && r.result().message.empty()) violated("error without message");
    if (r.result().offset > doc.size()) violated("error offset beyond the input");
    if (!r.ok() && r.result().column == 0) violated("error without column");
    if (r.ok() && (v.depth != 0 || v.unbalanced)) violated("unbalanced begin/end events");
    std::string log = std::move(v.log);
    if constexpr (requires { v.paths; }) log += v.paths;
    return {std::move(log), r.result()};
}

// Serialises a recorder log back to JSON text.
std::string serialise(std::string_view log) {
    std::string out;
    bool need_comma = false;
    std::vector<char> after_key;
    std::size_t i = 0;
    while (i < log.size()) {
        const char t = log[i++];
        const auto read_text = [&] {
            std::size_t len = 0;
            while (log[i] != ':') len = len * 10 + static_cast<std::size_t>(log[i++] - '0');
            ++i;
            const std::string_view s = log.substr(i, len);
            i += len;
            return s;
        };
        const auto quote = [&](std::string_view s) {
            out += '"';
            for (const char c : s) {
                const auto u = static_cast<unsigned char>(c);
                if (c == '"' || c == '\\') {
                    out += '\\';
                    out += c;
                } else if (u < 0x20) {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\u%04x", u);
                    out += buf;
                } else {
                    out += c;
                }
            }
            out += '"';
        };
        if (t == '}' || t == ']') {
            out += t;
            need_comma = true;
            continue;
        }
        if (need_comma) out += ',';
        need_comma = false;
        switch (t) {
        case '{':
        case '[': out += t; break;
        case 'k':
            quote(read_text());
            out += ':';
            break;
        case 's':
            quote(read_text());
            need_comma = true;
            break;
        case 'n':
            out += read_text();
            need_comma = true;
            break;
        case 't': out += "true", need_comma = true; break;
        case 'f': out += "false", need_comma = true; break;
        case '0': out += "null", need_comma = true; break;
        default: violated("bad log");
        }
    }
    return out;
}

template <class V>
void check(std::string_view doc, std::size_t split, const json::options& opt, bool skip) {
    const outcome whole = run<V>(doc, {}, opt, skip);
    if (!doc.empty()) {
        const std::size_t at = split % (doc.size() + 1);
        std::vector<std::size_t> cuts;
        if (at > 0 && at < doc.size()) cuts.push_back(at);
        if (!same(whole, run<V>(doc, cuts, opt, skip))) violated("split in two differs from whole");
        // small chunks of sizes 1, 2, 3, ... 9 cycling from the fuzzed split
        cuts.clear();
        std::size_t step = split % 9;
        for (std::size_t p = 1 + step; p < doc.size(); p += 1 + (step++ % 9)) cuts.push_back(p);
        if (doc.size() <= 4096 && !same(whole, run<V>(doc, cuts, opt, skip)))
            violated("small chunks differ from whole");
    }
    // round trip: an accepted single document re-serialised parses to the same events
    if constexpr (std::is_same_v<V, recorder>) {
        if (whole.err.ok() && !opt.multiple_values && !skip) {
            const std::string again = serialise(whole.log);
            json::options o2 = opt;
            o2.scratch_capacity = std::max<std::size_t>(opt.scratch_capacity, again.size() + 1);
            const outcome round = run<V>(again, {}, o2, false);
            if (!round.err.ok() || round.log != whole.log) violated("round trip differs");
        }
    }
}

} // namespace

// An emitter of json::replay that writes each call down; Numbers: it also takes a number as
// read (its value and integer written down too).
template <bool Numbers>
struct replay_log {
    std::string log;
    void begin_object() { log += '{'; }
    void end_object() { log += '}'; }
    void begin_array() { log += '['; }
    void end_array() { log += ']'; }
    void key(std::string_view k) { log += "k" + std::to_string(k.size()) + ":" + std::string(k); }
    void value(std::string_view v) { log += "s" + std::to_string(v.size()) + ":" + std::string(v); }
    void value(bool b) { log += b ? 't' : 'f'; }
    void value(std::nullptr_t) { log += 'n'; }
    void json_number(std::string_view t) { log += "N" + std::to_string(t.size()) + ":" + std::string(t); }
    void json_number(const json::number& n)
        requires Numbers
    {
        const double d = n.to_double();
        std::uint64_t bits;
        std::memcpy(&bits, &d, sizeof bits);
        const auto i = n.to_int64();
        log += "#" + std::string(n.text()) + "/" + std::to_string(bits) + "/" + (i ? std::to_string(*i) : "-") +
               (n.is_integer() ? "i" : "") + (n.is_finite() ? "" : "w");
    }
};

template <class Emitter>
void check_replay(std::string_view doc, const json::options& opt) {
    Emitter by_replay, by_replayer, by_reader;
    const logscan::error a = json::replay(doc, by_replay, opt);
    json::replayer<Emitter> many(opt);
    const logscan::error b = many(doc, by_replayer);
    json::internal::replay_events<Emitter> events{by_reader};
    const logscan::error c = json::parse(doc, events, opt);
    if (a.ok() != c.ok() || b.ok() != c.ok()) violated("replay: another outcome than the reader's");
    if (by_replay.log != by_reader.log || by_replayer.log != by_reader.log) violated("replay: other calls than the reader's");
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 2) return 0;
    const std::uint8_t flags = data[0];
    const std::size_t split = data[1];
    const std::string_view doc(reinterpret_cast<const char*>(data + 2), size - 2);
    json::options opt;
    opt.multiple_values = (flags & 1) != 0;
    opt.validate_utf8 = (flags & 2) == 0;
    if (flags & 4) opt.scratch_capacity = 1 + (flags >> 5);
    if (flags & 8) opt.max_depth = 1 + (flags >> 5);
    opt.path_capacity = 64;
    opt.non_finite_words = (flags & 64) != 0;
    const bool skip = (flags & 16) != 0;
    if (flags & 128)
        check<part_recorder>(doc, split * 131 + size, opt, skip);
    else
        check<recorder>(doc, split * 131 + size, opt, skip);
    json::options replay_opt = json::replay_options; // (what replay reads with), and this input's limits
    replay_opt.scratch_capacity = opt.scratch_capacity;
    replay_opt.max_depth = opt.max_depth;
    if (split & 1) check_replay<replay_log<true>>(doc, replay_opt);
    else check_replay<replay_log<false>>(doc, replay_opt);
    return 0;
}
