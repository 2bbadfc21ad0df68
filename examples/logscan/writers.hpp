// SPDX-License-Identifier: MIT
// The record writers of the logscan command. Every format module's ndjson_visitor renders its
// records through a writer with ndjson_writer's interface (begin, key, value, begin_object,
// ..., end); these writers take the same calls and
// - filter_writer: forward to an NDJSON writer only the records whose type was asked for,
//   with an "input" field (the file name) after "line" when asked;
// - csv_columns: gather the columns of every record type (first pass of a CSV conversion);
// - csv_writer: write one CSV table per record type (nested objects as dotted column names,
//   arrays as JSON text, RFC 4180 quoting, invalid UTF-8 as U+FFFD);
// - count_writer: count the records per type (logscan stats).
#ifndef LOGSCAN_COMMAND_WRITERS_HPP
#define LOGSCAN_COMMAND_WRITERS_HPP

#include <logscan/formats/registry.hpp>
#include <logscan/json.hpp>
#include <logscan/ndjson.hpp>
#include <logscan/utf8.hpp>

#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace logscan_cli {

// A set of record types (empty: all).
struct type_filter {
    std::vector<std::string> types;
    bool wants(std::string_view t) const {
        if (types.empty()) return true;
        for (const auto& x : types)
            if (x == t) return true;
        return false;
    }
};

// What an input yielded, for the check that it held something of its format.
using tally = logscan::yield_tally;

// An NDJSON writer that renders into a std::string (for JSON text inside CSV cells).
struct string_sink {
    std::string* out;
    bool operator()(std::string_view s) const {
        out->append(s);
        return true;
    }
};
// Where the command's NDJSON goes: a file (standard output), or a string (a part's output,
// kept until the part is): one writer type for both, so that each format's parsers are
// compiled once for `convert` and `convert --threads` (a third of the command's parser
// instantiations were these two and the CSV passes' two, 2026-12-07; the sink is called once
// per 64 KiB of output, so its branch costs nothing).
struct out_sink {
    std::FILE* file = nullptr;  // when not writing to `text`
    std::string* text = nullptr;
    bool operator()(std::string_view s) const {
        if (text != nullptr) {
            text->append(s);
            return true;
        }
        return s.empty() || std::fwrite(s.data(), 1, s.size(), file) == s.size();
    }
};
using ndjson_out = logscan::ndjson_writer<out_sink>;
// The command's NDJSON on a FILE* (standard output) with its own 64 KiB buffer, flushed when
// it goes.
class ndjson_file_out : public ndjson_out {
public:
    explicit ndjson_file_out(std::FILE* f) : ndjson_out(out_sink{f, nullptr}, storage_) {}
    ndjson_file_out(const ndjson_file_out&) = delete;
    ndjson_file_out& operator=(const ndjson_file_out&) = delete;
    ~ndjson_file_out() { flush(); }

private:
    char storage_[65536];
};

class json_text : public logscan::ndjson_writer<string_sink> {
public:
    json_text() : logscan::ndjson_writer<string_sink>(string_sink{&text_}, buf_) {}
    json_text(const json_text&) = delete;
    json_text& operator=(const json_text&) = delete;
    // The text written since the last take().
    std::string take() {
        flush();
        std::string t;
        t.swap(text_);
        return t;
    }

private:
    std::string text_;
    char buf_[4096];
};

// Forwards the records of the wanted types to an NDJSON writer W, adding "input".
template <class W>
class filter_writer {
public:
    filter_writer(W& w, const type_filter& f) : w_(w), f_(f) {}
    tally seen; // every record, wanted or not
    void set_file(std::string_view name) { file_ = name; }

    void begin(std::string_view type) {
        seen.count(type);
        on_ = f_.wants(type);
        if (!on_) return;
        w_.begin(type);
        if (!file_.empty()) w_.field("input", file_);
    }
    void begin(std::string_view type, std::uint64_t line) {
        seen.count(type);
        on_ = f_.wants(type);
        if (!on_) return;
        w_.begin(type, line);
        if (!file_.empty()) w_.field("input", file_);
    }
    void end() {
        if (on_) w_.end();
    }
    void key(std::string_view k) {
        if (on_) w_.key(k);
    }
    template <class T>
    void field(std::string_view k, const T& v) {
        if (on_) w_.field(k, v);
    }
    template <class T>
    void value(const T& v) {
        if (on_) w_.value(v);
    }
    void value(const char* s) {
        if (on_) w_.value(s);
    }
    void number_or_string(std::string_view t, bool grouped = false) {
        if (on_) w_.number_or_string(t, grouped);
    }
    void raw_value(std::string_view j) {
        if (on_) w_.raw_value(j);
    }
    void begin_array() {
        if (on_) w_.begin_array();
    }
    void end_array() {
        if (on_) w_.end_array();
    }
    void begin_object() {
        if (on_) w_.begin_object();
    }
    void end_object() {
        if (on_) w_.end_object();
    }

private:
    W& w_;
    const type_filter& f_;
    std::string file_;
    bool on_ = false;
};

// Flattens a record into (column, cell text) pairs: nested objects give dotted names,
// arrays (and what is inside them) JSON text, strings their text, null an empty cell.
class flattener {
public:
    struct cell_value {
        std::string column, text;
    };
    tally seen; // every record flattened

    void begin(std::string_view type) { start(type); }
    void begin(std::string_view type, std::uint64_t line) {
        start(type);
        put("line", std::to_string(line));
    }
    void key(std::string_view k) {
        if (array_depth_ > 0) return json_.key(k);
        key_ = std::string(k);
    }
    template <class T>
    void field(std::string_view k, const T& v) {
        key(k);
        value(v);
    }
    void value(std::string_view s) {
        if (array_depth_ > 0) return json_.value(s);
        put(column(), valid_utf8(s));
    }
    void value(const char* s) { value(std::string_view(s)); }
    void value(std::nullptr_t) {
        if (array_depth_ > 0) return json_.value(nullptr);
        put(column(), "");
    }
    template <class T>
    void value(const T& v) {
        json_.value(v);
        if (array_depth_ > 0) return;
        std::string j = json_.take();
        put(column(), j == "null" ? std::string() : std::move(j)); // (an invalid shape, a non-finite number)
    }
    void number_or_string(std::string_view t, bool grouped = false) {
        json_.number_or_string(t, grouped);
        if (array_depth_ > 0) return;
        std::string j = json_.take();
        if (!j.empty() && j.front() == '"') put(column(), valid_utf8(t)); // a string: its text, unquoted
        else put(column(), j == "null" ? std::string() : std::move(j)); // (a number beyond a double's range: null)
    }
    // A number token of JSON text from the input, as it is written there (formats.md: a Chrome
    // trace's numbers are copied byte for byte; `1000.000` stays so).
    void json_number(std::string_view t) {
        if (array_depth_ > 0) return json_.raw_value(t);
        put(column(), std::string(t));
    }
    // JSON text from the input (an object of parameters): read back and flattened like the
    // record's own values.
    void raw_value(std::string_view j) {
        if (array_depth_ > 0) return json_.raw_value(j);
        const std::size_t depth = prefix_.size();
        if (!replay_(j, *this).ok()) { // (the modules hand out checked JSON only)
            prefix_.resize(depth);
            array_depth_ = 0;
            put(column(), std::string(j));
        }
    }
    void begin_array() {
        if (array_depth_++ == 0) array_column_ = column();
        json_.begin_array();
    }
    void end_array() {
        json_.end_array();
        if (--array_depth_ == 0) put(array_column_, json_.take());
    }
    void begin_object() {
        if (array_depth_ > 0) return json_.begin_object();
        prefix_.push_back(column() + ".");
    }
    void end_object() {
        if (array_depth_ > 0) return json_.end_object();
        if (!prefix_.empty()) prefix_.pop_back();
    }

    const std::string& type() const { return type_; }
    const std::vector<cell_value>& cells() const { return cells_; }

protected:
    virtual void record_done() = 0;
    virtual ~flattener() = default;

public:
    void end() { record_done(); }

private:
    void start(std::string_view type) {
        seen.count(type);
        type_ = std::string(type);
        cells_.clear();
        prefix_.clear();
        array_depth_ = 0;
    }
    std::string column() const { return (prefix_.empty() ? std::string() : prefix_.back()) + key_; }
    void put(std::string c, std::string t) { cells_.push_back({std::move(c), std::move(t)}); }
    static std::string valid_utf8(std::string_view s) {
        std::string out;
        out.reserve(s.size());
        const char* p = s.data();
        const char* const e = p + s.size();
        while (p != e) {
            if (static_cast<unsigned char>(*p) < 0x80) {
                out += *p++;
            } else if (const std::size_t n = logscan::internal::utf8_complete(p, e); n != 0) {
                out.append(p, n);
                p += n;
            } else {
                out += "\xEF\xBF\xBD";
                p += logscan::internal::utf8_invalid_length(p, e);
            }
        }
        return out;
    }

    std::string type_, key_, array_column_;
    logscan::json::replayer<flattener> replay_; // (one reader's storage for every JSON text)
    std::vector<std::string> prefix_;
    std::vector<cell_value> cells_;
    int array_depth_ = 0;
    json_text json_;
};

// First pass of a CSV conversion: the columns of every wanted record type, in the order
// they first appear.
class csv_columns final : public flattener {
public:
    explicit csv_columns(const type_filter& f, bool with_file) : f_(f), with_file_(with_file) {}
    std::map<std::string, std::vector<std::string>> columns; // type -> columns

private:
    void record_done() override {
        if (!f_.wants(type())) return;
        auto& cols = columns[type()];
        if (cols.empty() && with_file_) cols.push_back("input");
        for (const auto& c : cells()) {
            bool known = false;
            for (const auto& x : cols) known = known || x == c.column;
            if (!known) cols.push_back(c.column);
        }
    }
    const type_filter& f_;
    bool with_file_;
};

// Second pass: the rows, one CSV table per type, each to its own FILE*.
class csv_writer final : public flattener {
public:
    struct table {
        std::FILE* out = nullptr;
        std::vector<std::string> columns;
        bool ok = true;
    };
    std::map<std::string, table> tables; // type -> its output and columns
    // Cells given twice in one record (a key repeated in an object, or dotted names that meet:
    // `"a.b"` and `"a": {"b"}` are one column), the last written; the first such column.
    std::uint64_t given_twice = 0;
    std::string first_twice;
    void set_file(std::string_view name) { file_ = name; }

    // Writes the header row of every table.
    void headers() {
        for (auto& [type, t] : tables) {
            std::string row;
            for (std::size_t i = 0; i < t.columns.size(); ++i) append_cell(row, i, t.columns[i]);
            write(t, row);
        }
    }

private:
    void record_done() override {
        auto it = tables.find(type());
        if (it == tables.end()) return;
        table& t = it->second;
        std::vector<const std::string*> vals(t.columns.size(), nullptr);
        for (const auto& c : cells())
            for (std::size_t i = 0; i < t.columns.size(); ++i)
                if (t.columns[i] == c.column) {
                    if (vals[i] != nullptr && given_twice++ == 0) first_twice = type() + "'s " + c.column;
                    vals[i] = &c.text; // (given twice: the last stands, as in frames())
                }
        std::string row;
        for (std::size_t i = 0; i < t.columns.size(); ++i) {
            const std::string* v = vals[i];
            if (t.columns[i] == "input" && v == nullptr) append_cell(row, i, file_);
            else append_cell(row, i, v ? *v : std::string());
        }
        write(t, row);
    }
    static void append_cell(std::string& row, std::size_t i, std::string_view v) {
        if (i != 0) row += ',';
        if (v.find_first_of(",\"\r\n") == std::string_view::npos) {
            row += v;
            return;
        }
        row += '"';
        for (char c : v) {
            if (c == '"') row += '"';
            row += c;
        }
        row += '"';
    }
    static void write(table& t, std::string& row) {
        row += "\r\n";
        if (t.ok && std::fwrite(row.data(), 1, row.size(), t.out) != row.size()) t.ok = false;
    }
    std::string file_;
};

// Counts the records per type (logscan stats); renders nothing.
struct count_writer {
    std::map<std::string, std::uint64_t, std::less<>> counts;
    // The records of the format and the text records counted.
    tally seen() const {
        tally t;
        for (const auto& [type, n] : counts) {
            if (type == "text") t.text += n;
            else if (type != "error") t.records += n;
        }
        return t;
    }
    void begin(std::string_view type) { ++slot(type); }
    void begin(std::string_view type, std::uint64_t) { ++slot(type); }
    void end() {}
    void key(std::string_view) {}
    template <class T>
    void field(std::string_view, const T&) {}
    template <class T>
    void value(const T&) {}
    void number_or_string(std::string_view, bool = false) {}
    void raw_value(std::string_view) {}
    void begin_array() {}
    void end_array() {}
    void begin_object() {}
    void end_object() {}
    // Adds the counts of another writer (a part of the input counted apart).
    void add(const count_writer& o) {
        for (const auto& [type, n] : o.counts) {
            const auto it = counts.find(type);
            if (it == counts.end()) counts.emplace(type, n);
            else it->second += n;
        }
    }
    // Forgets the counts.
    void clear() {
        counts.clear();
        last_type_ = {};
        last_ = nullptr;
    }

private:
    std::uint64_t& slot(std::string_view type) {
        // the last type is usually the next one: a cached lookup
        if (last_ != nullptr && last_type_ == type) return *last_;
        auto it = counts.find(type);
        if (it == counts.end()) it = counts.emplace(std::string(type), 0).first;
        last_type_ = it->first;
        last_ = &it->second;
        return *last_;
    }
    std::string_view last_type_;
    std::uint64_t* last_ = nullptr;
};

} // namespace logscan_cli

#endif
