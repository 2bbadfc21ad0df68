// SPDX-License-Identifier: MIT
// The Python module's columns writer (frames()), apart from Python: it takes the calls of
// logscan's NDJSON writer (begin, key, value, raw_value, begin_object, ...: what every format's
// generic `records::ndjson<W>` visitor makes, record.hpp) into one table per record type, a
// column per flattened key as the CSV writer names them (nested objects as dotted names,
// arrays as their JSON text), each cell typed; module.cpp then hands each column to numpy
// (GIL held). A part of an input read on a thread of its own (`column_part`, frames()'
// threads) is absorbed into the frames' columns in input order. A JSON text in a record
// (`raw_value`) is replayed as the calls of its values (json::replayer) while parsing.
// Values follow the NDJSON writer (logscan/ndjson.hpp): a non-finite double is null; a value
// printed as text (`number_or_string`) a number when the whole text is one, an integer beyond
// 64 bits exact, a double beyond range null; JSON text (`raw_value`) as json.loads reads it.
// No Python here: fuzz/fuzz_columns.cpp builds it alone.
#ifndef LOGSCAN_PYTHON_COLUMNS_HPP
#define LOGSCAN_PYTHON_COLUMNS_HPP

#include <logscan/formats/registry.hpp>
#include <logscan/huge_pages.hpp>
#include <logscan/json.hpp>
#include <logscan/ndjson.hpp>
#include <logscan/num.hpp>
#include <logscan/parallel.hpp>
#include <logscan/utf8.hpp>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <algorithm>
#include <array>
#include <charconv>
#include <iterator>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

// The number of distinct strings past which a column whose strings are more than half its
// rows keeps them without a look-up (column::text_code). fuzz_columns lowers it, to reach it
// with inputs of a few KiB.
#ifndef LOGSCAN_PY_DISTINCT_FROM
#define LOGSCAN_PY_DISTINCT_FROM 4096
#endif

namespace logscan_py {

// The record types a caller asked for (empty: all).
struct type_set {
    std::vector<std::string> types;
    bool wants(std::string_view t) const {
        if (types.empty()) return true;
        for (const std::string& x : types)
            if (x == t) return true;
        return false;
    }
};

// A value printed as text, read as the NDJSON writer writes it (ndjson_writer::number_or_string).
struct loose {
    enum kind_t { integer, floating, big_integer, null, text } kind;
    std::int64_t i = 0;
    double d = 0;
    std::string digits; // big_integer: the exact digits (sign included)
};
inline loose read_loose(std::string_view text, bool grouped) {
    const auto n = grouped ? logscan::parse_grouped_value(text) : logscan::parse_number_value(text);
    if (n.ok()) {
        if (n.value.is_integer()) return {loose::integer, n.value.integer, 0, {}};
        return {loose::floating, 0, n.value.floating, {}};
    }
    if (n.ec == std::errc::result_out_of_range && n.value.is_integer()) {
        loose l{loose::big_integer, 0, 0, {}};
        std::size_t i = 0;
        if (text[0] == '-') l.digits += '-';
        if (text[0] == '-' || text[0] == '+') ++i;
        while (i + 1 < text.size() && text[i] == '0') ++i;
        for (; i < text.size(); ++i)
            if (text[i] != ',') l.digits += text[i];
        return l;
    }
    if (n.ec == std::errc::result_out_of_range) return {loose::null, 0, 0, {}};
    return {loose::text, 0, 0, {}};
}

// The 1-7 bytes at p as one word, read by (overlapping) loads of 4, 2 or 1 bytes: never
// through a variable-length copy to the stack, whose reload as a word stalls on the byte
// stores (it was a quarter of the str cache's time).
LOGSCAN_FORCE_INLINE std::uint64_t tail_word(const char* p, std::size_t n) noexcept {
    const auto load = [p]<class T>(std::size_t at, T) {
        T v;
        std::memcpy(&v, p + at, sizeof(T));
        return static_cast<std::uint64_t>(v);
    };
    if (n >= 4) return load(0, std::uint32_t{}) | load(n - 4, std::uint32_t{}) << 32;
    if (n >= 2) return load(0, std::uint16_t{}) | load(n - 2, std::uint16_t{}) << 16;
    return static_cast<unsigned char>(*p);
}

// A short string's hash (its 8-byte words mixed; the pool's probe and tag).
LOGSCAN_FORCE_INLINE std::uint64_t hash_text(std::string_view s) noexcept {
    std::uint64_t h = 0x9e3779b97f4a7c15ull ^ s.size();
    const char* p = s.data();
    std::size_t n = s.size();
    for (; n >= 8; p += 8, n -= 8) {
        std::uint64_t w;
        std::memcpy(&w, p, 8);
        h = (h ^ w) * 0xbf58476d1ce4e5b9ull;
        h ^= h >> 29;
    }
    if (n != 0) { // (the last 8 bytes, overlapping the words before, when there are words)
        std::uint64_t w;
        if (s.size() >= 8) std::memcpy(&w, s.data() + s.size() - 8, 8);
        else w = tail_word(p, n);
        h = (h ^ w) * 0x94d049bb133111ebull;
    }
    h ^= h >> 32;
    h *= 0xbf58476d1ce4e5b9ull;
    return h ^ (h >> 31);
}

// a == b, inline for short strings (a column's values are mostly a few bytes).
LOGSCAN_FORCE_INLINE bool same_text(std::string_view a, std::string_view b) noexcept {
    return a.size() == b.size() && logscan::internal::same_bytes(a.data(), b.data(), a.size());
}

// A column's values and a pool's strings grow without copying past 64 KiB (huge_pages.hpp):
// a column's block is handed over to numpy's array, which frees it the way it was made.
using logscan::internal::grown_array;
using logscan::internal::grown_block;

// Strings interned: each distinct string once, known by its code (its index), their bytes
// end to end in one buffer. The string given last is checked first (a column's values often
// repeat row after row); a slot keeps its string's hash tag, so a probe compares text only
// where the tags agree. `append` keeps a string without looking for it (a column of distinct
// values).
class string_pool {
public:
    LOGSCAN_FORCE_INLINE std::int64_t code(std::string_view s) {
        if (last_ < size() && same_text(at(last_), s)) return static_cast<std::int64_t>(last_);
        return find(s);
    }
    std::int64_t append(std::string_view s) {
        chars_.append(s.data(), s.size());
        ends_.push_back(chars_.size());
        return static_cast<std::int64_t>(ends_.size() - 1);
    }
    LOGSCAN_FORCE_INLINE std::string_view at(std::size_t c) const noexcept {
        const std::size_t b = c == 0 ? 0 : ends_[c - 1];
        return std::string_view(chars_.data() + b, ends_[c] - b);
    }
    std::size_t size() const noexcept { return ends_.size(); }
    // No string (the memory kept).
    void clear() noexcept {
        chars_.clear();
        ends_.clear();
        std::fill(slots_.begin(), slots_.end(), empty);
        last_ = 0;
    }

private:
    std::int64_t find(std::string_view s) {
        if (slots_.empty() || 2 * (size() + 1) > slots_.size()) grow();
        const std::uint64_t h = hash_text(s);
        const auto tag = static_cast<std::uint32_t>(h >> 32);
        const std::size_t mask = slots_.size() - 1;
        std::size_t i = static_cast<std::size_t>(h) & mask;
        for (;; i = (i + 1) & mask) {
            const std::uint64_t e = slots_[i];
            if (e == empty) break;
            const auto c = static_cast<std::size_t>(e & 0xffffffffu);
            if (static_cast<std::uint32_t>(e >> 32) == tag && same_text(at(c), s)) {
                last_ = c;
                return static_cast<std::int64_t>(c);
            }
        }
        last_ = size();
        append(s);
        slots_[i] = (std::uint64_t{tag} << 32) | last_;
        return static_cast<std::int64_t>(last_);
    }
    static constexpr std::uint64_t empty = ~std::uint64_t{0};
    void grow() {
        std::vector<std::uint64_t> s(slots_.empty() ? 64 : slots_.size() * 2, empty);
        const std::size_t mask = s.size() - 1;
        for (std::size_t c = 0; c < size(); ++c) {
            const std::uint64_t h = hash_text(at(c));
            std::size_t i = static_cast<std::size_t>(h) & mask;
            while (s[i] != empty) i = (i + 1) & mask;
            s[i] = ((h >> 32) << 32) | c;
        }
        slots_.swap(s);
    }
    grown_array<char> chars_;        // the strings, end to end
    grown_array<std::size_t> ends_;  // where each ends in chars_
    std::vector<std::uint64_t> slots_; // (tag << 32 | code), or `empty`
    std::size_t last_ = 0;             // the code given last
};

// ---------------------------------------------------------------------------------------
// columns: one table per record type.

// A cell's kind; a column remembers which kinds it holds.
enum class cell : std::uint8_t { null, integer, uinteger, floating, boolean, string, big_integer };

// A column's cells: their values end to end in one block (grown_block), handed to numpy as the column's array
// where the values are its dtype already (take_values). A cell is a value (an integer, a
// double's bits, a string's code in `pool`) and a kind; while every cell has the kind of the
// first (the usual case: a declared field) the kind is kept once for the column, else per
// cell in a second buffer.
struct column {
    std::string name;
    string_pool pool; // the column's strings: a string cell's value is its code
    // shape lists' texts as printed and their codes (columns::store), 64 slots by a hash of
    // the text: a shape printed again is not read and written out again (a log prints the
    // same few dozen shapes, one var after another)
    struct printed_shape {
        std::string text;
        std::int64_t code = -1;
    };
    std::array<printed_shape, 64> shapes{};
    // The column written after this one in the last row that wrote it (its index + 1; 0: none
    // yet): the next key's guess (columns::current_column). Rows of one type whose keys differ
    // (Chainer's parameters by function type, a trace's args by event kind) share most of
    // their runs of keys, so a guess fails where a run begins, not at every key after it.
    std::uint32_t next = 0;
    // The address of a declared field's name that matched this column (static: a later row's
    // key at that address is this column without a compare).
    const char* key_at = nullptr;

    column() = default;
    column(column&& o) noexcept { *this = std::move(o); }
    column& operator=(column&& o) noexcept {
        if (this != &o) {
            release();
            name = std::move(o.name);
            pool = std::move(o.pool);
            pool_rows = std::move(o.pool_rows);
            note_rows = o.note_rows;
            shapes = std::move(o.shapes);
            next = o.next;
            key_at = o.key_at;
            std::swap(block_, o.block_);
            values_ = std::exchange(o.values_, nullptr);
            kinds_ = std::exchange(o.kinds_, nullptr);
            size_ = std::exchange(o.size_, 0);
            capacity_ = std::exchange(o.capacity_, 0);
            first_ = o.first_;
            plain_ = o.plain_;
            mixed_ = o.mixed_;
            overwritten_ = o.overwritten_;
            distinct_ = o.distinct_;
            seen_ = o.seen_;
            o.release(); // (the moved-from column: empty)
        }
        return *this;
    }
    ~column() { release(); }

    std::size_t size() const noexcept { return size_; }
    // A string's code in `pool`, for the cell of row `row`: interned while the column's values
    // repeat; once more than 4096 of them are distinct and more than half its rows so far
    // (this one's included), kept without a look-up (the column is then an `object` column,
    // not a category). (By the row, not the cells written: so a column appended from parts,
    // append_from, decides as one written row by row.)
    // (The limit is looked at where a string is new: a code given before, in a later row, is
    // smaller and its rows more.)
    LOGSCAN_FORCE_INLINE std::int64_t text_code(std::string_view s, std::size_t row) {
        if (distinct_) return noted(pool.append(s), row);
        const std::size_t known = pool.size();
        const std::int64_t c = pool.code(s);
        if (static_cast<std::size_t>(c) == known) {
            if (known >= distinct_from && 2 * (known + 1) > row + 1) distinct_ = true;
            return noted(c, row);
        }
        return c;
    }
    // A part's column (frames()' threads, columns::absorb) notes the row where each string of
    // its pool came: a cell given twice (a key repeated in a record) leaves the first string
    // in the pool, unused, where it still orders the categories and counts toward the limit.
    bool note_rows = false;
    std::vector<std::size_t> pool_rows; // (note_rows: each pooled string's row)
    LOGSCAN_FORCE_INLINE std::int64_t noted(std::int64_t c, std::size_t row) {
        if (note_rows) pool_rows.push_back(row);
        return c;
    }
    static constexpr std::size_t distinct_from = LOGSCAN_PY_DISTINCT_FROM;
    // False when the strings were kept without a look-up (text_code): not a category.
    bool interned() const noexcept { return !distinct_; }
    // False when no cell was given twice: then every string in `pool` is some cell's.
    bool overwritten() const noexcept { return overwritten_; }
    // A bit per cell kind present.
    unsigned kinds_seen() const noexcept {
        if (!overwritten_) return seen_;
        unsigned s = 0; // (a cell overwritten may have taken the last of its kind)
        for (std::size_t i = 0; i < size_; ++i) s |= bit(kind(i));
        return s;
    }
    LOGSCAN_FORCE_INLINE void pad_to(std::size_t rows) {
        while (size_ < rows) [[unlikely]] push(cell::null, 0);
    }
    // Row `row`'s cell (a key given twice in one record: the last stands, as in json.loads and
    // the CSV writer).
    LOGSCAN_FORCE_INLINE void set(std::size_t row, cell k, std::int64_t v) {
        if (size_ > row) [[unlikely]] {
            overwritten_ = true;
            values_[size_ - 1] = v;
            if (k != first_) differ(k);
            if (mixed_) kinds_[size_ - 1] = k;
        } else {
            push(k, v);
        }
    }
    // Appends the cells of `p`, the same column of a later part of the input read by another
    // parser (frames()' threads), after this one's (padded to the rows before them already):
    // its strings made this pool's, each distinct one once, so that the column is what
    // writing those cells here would have made (where a cell of p was given twice, p's whole
    // pool in its order, at the rows it noted: the strings of overwritten cells too).
    void append_from(const column& p) {
        if (p.size_ == 0) return;
        if (capacity_ < size_ + p.size_) grow(size_ + p.size_);
        const bool texts = (p.seen_ & (bit(cell::string) | bit(cell::big_integer))) != 0;
        std::vector<std::int64_t> code(texts ? p.pool.size() : 0, -1); // (p's codes as this pool's; -1: not yet)
        if (texts && p.overwritten_ && p.note_rows)
            for (std::size_t j = 0; j < code.size(); ++j) code[j] = text_code(p.pool.at(j), size_ + p.pool_rows[j]);
        const auto value = [&](cell k, std::int64_t v, std::size_t row) LOGSCAN_INLINE_LAMBDA {
            if (k != cell::string && k != cell::big_integer) return v;
            const std::int64_t c = code[static_cast<std::size_t>(v)];
            return c >= 0 ? c : code_of(p, v, row, code);
        };
        // cell by cell (push keeps the kinds) until one kind is this column's for every cell of
        // p's left (p's are of one kind, this column's the same), or this column keeps a kind per cell
        std::size_t i = 0;
        for (; i < p.size_; ++i) {
            if (i > 0 && (mixed_ || (!p.mixed_ && first_ == p.first_))) break;
            const cell k = p.kind(i);
            push(k, value(k, p.values_[i], size_));
        }
        const std::size_t at = size_ - i; // (p's first cell's row)
        if (i < p.size_) {
            if (mixed_) {
                for (; i < p.size_; ++i) {
                    const cell k = p.kind(i);
                    kinds_[at + i] = k;
                    values_[at + i] = value(k, p.values_[i], at + i);
                }
                seen_ |= p.kinds_seen();
            } else if (!texts) {
                std::memcpy(values_ + at + i, p.values_ + i, (p.size_ - i) * sizeof(std::int64_t));
            } else {
                for (; i < p.size_; ++i) values_[at + i] = value(p.first_, p.values_[i], at + i);
            }
            size_ = at + p.size_;
        }
        overwritten_ = overwritten_ || p.overwritten_;
    }
    // (append_from: p's string `v`, first met in row `row`, given its code in this pool)
    std::int64_t code_of(const column& p, std::int64_t v, std::size_t row, std::vector<std::int64_t>& code) {
        return code[static_cast<std::size_t>(v)] = text_code(p.pool.at(static_cast<std::size_t>(v)), row);
    }
    // The usual cell in one test: row `row`'s, the next (no null to pad, not given twice), of
    // the kind every cell so far has, with room for it. False when not that case (nothing
    // written: then pad_to and set).
    LOGSCAN_FORCE_INLINE bool append_plain(std::size_t row, cell k, std::int64_t v) noexcept {
        if (size_ != row || row >= capacity_ || k != plain_) [[unlikely]] return false;
        values_[row] = v;
        size_ = row + 1;
        return true;
    }
    cell kind(std::size_t i) const noexcept { return mixed_ ? kinds_[i] : first_; }
    std::int64_t value(std::size_t i) const noexcept { return values_[i]; }
    // The values' buffer, to be rewritten in place (a double's bits for each cell, ...).
    std::int64_t* values() noexcept { return values_; }
    // Gives up the values' buffer (the caller frees it: grown_block::free); the column is then empty.
    grown_block take_values() noexcept {
        const grown_block v = std::exchange(block_, grown_block{});
        values_ = nullptr;
        release();
        return v;
    }
    // Forgets the cells, their memory kept for the next (a part's column, absorbed: frames()'
    // threads).
    void clear_cells() noexcept {
        std::free(kinds_);
        kinds_ = nullptr;
        size_ = 0;
        pool.clear();
        pool_rows.clear();
        for (printed_shape& x : shapes) {
            x.text.clear();
            x.code = -1;
        }
        first_ = plain_ = static_cast<cell>(0xff);
        mixed_ = overwritten_ = distinct_ = false;
        seen_ = 0;
    }
    // Frees the cells and forgets them: an empty column of the same name.
    void release() noexcept {
        clear_cells();
        block_.free();
        values_ = nullptr;
        capacity_ = 0;
        pool = string_pool{}; // (their memory too)
        pool_rows = {};
        for (printed_shape& x : shapes) x = printed_shape{};
    }

private:
    static constexpr unsigned bit(cell k) noexcept { return 1u << static_cast<unsigned>(k); }
    LOGSCAN_FORCE_INLINE void push(cell k, std::int64_t v) {
        if (size_ == capacity_) [[unlikely]] grow();
        values_[size_] = v;
        if (k != first_) [[unlikely]] differ(k);
        if (mixed_) kinds_[size_] = k;
        ++size_;
    }
    // A cell of another kind than the first: the first cell, or the column's kinds kept per cell from now on.
    void differ(cell k) {
        seen_ |= bit(k);
        if (size_ == 0 && !overwritten_) {
            first_ = plain_ = k;
            return;
        }
        if (mixed_) return;
        kinds_ = static_cast<cell*>(std::malloc(capacity_ == 0 ? 1 : capacity_));
        if (kinds_ == nullptr) throw std::bad_alloc();
        std::fill_n(kinds_, capacity_, first_);
        mixed_ = true;
        plain_ = static_cast<cell>(0xfe); // (no kind's value: append_plain declines)
    }
    void grow(std::size_t cells = 0) {
        constexpr std::size_t v = sizeof(std::int64_t);
        const std::size_t cap = block_.grow(capacity_ * v, std::max(cells, capacity_ + 1) * v) / v;
        values_ = static_cast<std::int64_t*>(block_.data);
        if (mixed_) {
            auto* k = static_cast<cell*>(std::realloc(kinds_, cap));
            if (k == nullptr) throw std::bad_alloc();
            kinds_ = k;
        }
        capacity_ = cap;
    }
    grown_block block_;               // the values' (capacity_ of them)
    std::int64_t* values_ = nullptr; // block_'s
    cell* kinds_ = nullptr;          // std::malloc'd (mixed_)
    std::size_t size_ = 0, capacity_ = 0;
    cell first_ = static_cast<cell>(0xff); // the first cell's kind (none yet: no kind's value)
    cell plain_ = static_cast<cell>(0xff); // first_ while the cells are all of its kind, else no kind's value
    bool mixed_ = false;                   // the cells are not all of kind first_
    bool overwritten_ = false;             // a cell was given twice
    bool distinct_ = false;                // strings kept without a look-up (text_code)
    unsigned seen_ = 0;
};

struct table {
    std::string type;
    std::vector<column> columns;
    std::size_t rows = 0;
    bool note_rows = false; // a part's table: its columns note their strings' rows (column::note_rows)
    // The column of that (flattened) name: found, or made (empty) at the end.
    std::size_t column_named(std::string_view name) {
        const auto it = by_name.find(name);
        if (it != by_name.end()) return it->second;
        const column* const before = columns.data();
        columns.emplace_back();
        columns.back().note_rows = note_rows;
        columns.back().name = name;
        if (columns.data() != before) // (moved: the declared fields' columns are found anew)
            for (std::size_t f = 0; f < direct.size(); ++f) direct_at[f] = direct[f] == 0 ? nullptr : &columns[direct[f] - 1];
        by_name.emplace(columns.back().name, columns.size() - 1);
        return columns.size() - 1;
    }
    // Each column's index by its name (a record type whose rows differ, as Chainer's
    // parameter objects from one function type to the next, finds its columns in one probe).
    struct name_hash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const noexcept { return static_cast<std::size_t>(hash_text(s)); }
    };
    std::unordered_map<std::string, std::size_t, name_hash, std::equal_to<>> by_name;
    // The first column a row wrote by key (index + 1; 0: none yet): the guess for the next
    // row's first key (the keys after it are guessed by column::next).
    std::uint32_t first = 0;
    // A column by its key's hash (the key's and its object's names; the column's index + 1, 0:
    // none), checked by name: a key whose guess failed (a run of keys the last row of its
    // type began, or a key not seen in that run before).
    std::array<std::uint32_t, 1024> recent{};
    // A declared field's column by the field's position (typed_columns; 0: not yet, else
    // the column's index + 1). Slot 0 is "line".
    std::vector<std::size_t> direct;
    std::vector<column*> direct_at; // (the same columns by address; nullptr: not yet)
    // A map field's keys (by the field's position): each key seen and its column, and which
    // of them the last row had at each position (rows may leave keys out).
    struct entry {
        std::string key;
        std::size_t column = 0;
    };
    struct map_keys {
        std::vector<entry> known;
        std::vector<std::size_t> last; // last row's i-th entry: known[last[i]]
    };
    std::vector<map_keys> maps;
};

class columns {
public:
    // `part`: a part's columns (frames()' threads), which another `columns` absorbs.
    explicit columns(const type_set& wanted, bool part = false) : wanted_(wanted), parts_(part) {}
    columns(const columns&) = delete;
    columns& operator=(const columns&) = delete;
    logscan::yield_tally seen; // every record, wanted or not

    std::vector<table>& tables() noexcept { return tables_; }

    // --- frames()' threads: the columns of each part of the input, in input order
    // Takes the rows `p` holds (read by another parser from the input after what this one
    // holds) after this one's: its tables and columns become this one's in the order they
    // first come in it, their cells appended (column::append_from), its tallies added. `p`
    // keeps its tables and columns, without cells, for its parser to read on.
    void absorb(columns& p) {
        seen.add(p.seen);
        p.seen = {};
        for (table& pt : p.tables_) {
            if (pt.rows == 0) continue;
            table& mt = table_of(pt.type);
            for (column& pc : pt.columns) {
                if (pc.size() == 0) continue; // (none of its keys in these rows)
                column& mc = mt.columns[mt.column_named(pc.name)];
                mc.pad_to(mt.rows);
                mc.append_from(pc);
                pc.clear_cells();
            }
            mt.rows += pt.rows;
            pt.rows = 0;
        }
    }
    // Forgets every table (a part's columns whose rows were not absorbed: the part was read
    // again by the parser before it, whose rows may have made other columns).
    void forget() noexcept {
        tables_.clear();
        t_ = nullptr;
        kind_table_.clear();
        seen = {};
    }
    // Forgets every row (a part's columns absorbed, for a later part of the input: its tables
    // and columns stay, the memory of their cells kept; each of them is the absorbing
    // columns' already, so the order in which a later part's rows make new ones is kept).
    void reset() noexcept {
        for (table& t : tables_) {
            for (column& c : t.columns) c.clear_cells();
            t.rows = 0;
        }
        seen = {};
    }

    // --- the NDJSON writer's calls
    void begin(std::string_view type) {
        seen.count(type);
        on_ = wanted_.wants(type);
        if (!on_) return;
        t_ = &table_of(type);
        clear_prefix();
        array_depth_ = 0;
        previous_ = 0;
    }
    void begin(std::string_view type, std::uint64_t line) {
        begin(type);
        if (!on_) return;
        key_ = "line";
        static_key_ = true;
        put(cell::integer, static_cast<std::int64_t>(line));
    }
    void end() {
        if (!on_) return;
        ++t_->rows;
    }
    void key(std::string_view k) {
        if (!on_) return;
        if (array_depth_ > 0) return json_->key(k);
        if (replaying_ && !within(k, replay_text_)) { // (decoded into the reader's scratch, valid during the call only: kept until the value)
            replay_key_.assign(k);
            k = replay_key_;
        }
        key_ = k;
        static_key_ = false;
    }
    // A declared field's name (record.hpp's write_fields): in static storage.
    void field_key(std::string_view k) {
        if (!on_) return;
        if (array_depth_ > 0) return json_->key(k);
        key_ = k;
        static_key_ = true;
    }
    template <class T>
    void field(std::string_view k, const T& v) {
        key(k);
        value(v);
    }
    template <class T>
        requires(std::is_arithmetic_v<T> || std::is_same_v<T, std::string_view> || std::is_same_v<T, std::nullptr_t>)
    void value(T v) {
        if (!on_) return;
        if (array_depth_ > 0) return json_->value(v);
        store(next_column(), v);
    }
    void value(const char* s) { value(std::string_view(s)); }
    void value(const logscan::number& n) {
        if (n.is_integer()) value(n.integer);
        else value(n.floating);
    }
    void number_or_string(std::string_view t, bool grouped = false) {
        if (!on_) return;
        if (array_depth_ > 0) return json_->number_or_string(t, grouped);
        store(next_column(), logscan::loose_number{t, grouped});
    }

    // --- a record read straight from its description (typed_columns): each declared field
    // of a scalar type to its own column, found by the field's position (no key, no lookup);
    // the other fields (objects, maps, arrays, JSON text) through the calls above.
    // Starts a record of the format's `kind`-th type; false when it is not wanted.
    LOGSCAN_FORCE_INLINE bool begin_kind(std::size_t kind, std::string_view type, std::optional<std::uint64_t> line) {
        seen.count(type);
        if (kind >= kind_table_.size()) kind_table_.resize(kind + 1, 0);
        if (kind_table_[kind] == 0) {
            std::size_t at = 1;
            if (wanted_.wants(type)) {
                const table& t = table_of(type); // (may grow tables_: its address is taken after)
                at = 2 + static_cast<std::size_t>(&t - tables_.data());
            }
            kind_table_[kind] = at;
        }
        on_ = kind_table_[kind] != 1;
        if (!on_) return false;
        t_ = &tables_[kind_table_[kind] - 2];
        clear_prefix();
        array_depth_ = 0;
        previous_ = 0;
        if (line) store(direct_column(0, "line"), static_cast<std::int64_t>(*line));
        return true;
    }
    // The value of the declared field at `slot` (1 + its position), named `name`.
    template <class T>
    LOGSCAN_FORCE_INLINE void field_at(std::size_t slot, std::string_view name, const T& v) {
        store(direct_column(slot, name), v);
    }
    // A map field (cells, metrics): map_begin, then each entry of a scalar value by map_entry
    // (its column found by its position in the last row's entries: no name made, no look-up)
    // and any other by key() and its value's calls, then end_object().
    void map_begin(std::string_view name) {
        field_key(name);
        begin_object();
    }
    template <class T>
    LOGSCAN_FORCE_INLINE void map_entry(std::size_t slot, std::string_view field, std::size_t i, std::string_view key, const T& v) {
        table& t = *t_;
        if (slot < t.maps.size() && i < t.maps[slot].last.size()) [[likely]] {
            const table::entry& e = t.maps[slot].known[t.maps[slot].last[i]];
            if (same_text(e.key, key)) return store(t.columns[e.column], v);
        }
        store(entry_column(slot, field, i, key), v);
    }
    // JSON text: its objects flattened into dotted columns, as the CSV writer does.
    void raw_value(std::string_view j) {
        if (!on_) return;
        if (array_depth_ > 0) return json_->raw_value(j);
        // (keys are decoded into the reader's scratch: `key` is told, to keep its own copy)
        replaying_ = true;
        replay_text_ = j;
        const std::size_t depth = prefix_.size();
        const std::string own_key(key_);
        const bool ok = replay_(j, *this).ok();
        replaying_ = false;
        if (!ok) { // (a text the modules' readers accepted replays whole; else its text, as a string)
            prefix_.resize(depth);
            prefix_hash_.resize(depth);
            array_depth_ = 0;
            replay_key_ = own_key;
            key_ = replay_key_;
            static_key_ = false; // (its address is no longer the field's name)
            put_string(cell::string, j);
        }
    }
    // A number token of a JSON text (json::replay): an integer when it has no fraction or
    // exponent (beyond 64 bits: exact, an object cell), else a double, as json.loads reads it.
    // A number as the reader read it (json::replay): its value without reading its text again.
    void json_number(const logscan::json::number& n) {
        if (array_depth_ > 0 || !n.is_finite()) return json_number(n.text());
        if (!n.is_integer()) return put(cell::floating, bits(n.to_double()));
        if (const auto v = n.to_int64()) return put(cell::integer, *v);
        put_string(cell::big_integer, n.text());
    }
    void json_number(std::string_view t) {
        if (array_depth_ > 0) return json_->raw_value(t);
        if (t.find_first_of("NI") != std::string_view::npos) // (NaN, Infinity, -Infinity: json.loads reads them)
            return put(cell::floating, bits(t[0] == 'N' ? std::nan("") : t[0] == '-' ? -HUGE_VAL : HUGE_VAL));
        if (t.find_first_of(".eE") == std::string_view::npos) {
            const auto n = logscan::parse_number<std::int64_t>(t);
            if (n.ok()) return put(cell::integer, n.value);
            return put_string(cell::big_integer, t);
        }
        const auto d = logscan::parse_number<double>(t);
        put(cell::floating, bits(d.ok() ? d.value : (t.starts_with('-') ? -HUGE_VAL : HUGE_VAL)));
    }
    void begin_array() {
        if (!on_) return;
        if (array_depth_++ == 0) { // (key_ stays as it is until the array ends: the calls within go to json_)
            json_.emplace(sink{&json_text_}, json_buf_);
            json_text_.clear();
        }
        json_->begin_array();
    }
    void end_array() {
        if (!on_) return;
        json_->end_array();
        if (--array_depth_ == 0) {
            json_->flush();
            put_string(cell::string, json_text_);
            json_text_.clear();
        }
    }
    void begin_object() {
        if (!on_) return;
        if (array_depth_ > 0) return json_->begin_object();
        prefix_.push_back(column_name());
        prefix_hash_.push_back(hash_text(prefix_.back()) * 0x9e3779b97f4a7c15ull);
    }
    void end_object() {
        if (!on_) return;
        if (array_depth_ > 0) return json_->end_object();
        if (!prefix_.empty()) {
            prefix_.pop_back();
            prefix_hash_.pop_back();
        }
    }

private:
    struct sink {
        std::string* out;
        bool operator()(std::string_view s) const {
            out->append(s);
            return true;
        }
    };
    static std::int64_t bits(double d) {
        std::int64_t b;
        std::memcpy(&b, &d, sizeof b);
        return b;
    }
    table& table_of(std::string_view type) {
        if (t_ != nullptr && t_->type == type) return *t_;
        for (table& t : tables_)
            if (t.type == type) return t;
        tables_.emplace_back().type = type;
        tables_.back().note_rows = parts_;
        t_ = nullptr; // (the vector may have moved)
        return tables_.back();
    }
    // The flattened name of the current key: "args.External id".
    void column_name(std::string& n) const {
        if (prefix_.empty()) {
            n.assign(key_);
            return;
        }
        n.assign(prefix_.back());
        n += '.';
        n += key_;
    }
    std::string column_name() const {
        std::string n;
        column_name(n);
        return n;
    }
    // A declared field's column (begin_kind, field_at): made, or found by its name, the first time.
    LOGSCAN_FORCE_INLINE column& direct_column(std::size_t slot, std::string_view name) {
        table& t = *t_;
        if (slot < t.direct_at.size() && t.direct_at[slot] != nullptr) [[likely]] return *t.direct_at[slot];
        return new_direct_column(slot, name);
    }
    column& new_direct_column(std::size_t slot, std::string_view name) {
        table& t = *t_;
        const std::size_t i = t.column_named(name);
        if (slot >= t.direct.size()) {
            t.direct.resize(slot + 1, 0);
            t.direct_at.resize(slot + 1, nullptr);
        }
        t.direct[slot] = i + 1;
        t.direct_at[slot] = &t.columns[i];
        return t.columns[i];
    }
    // A map entry's column, where the last row had another key at its position: among the
    // keys seen, or a column made (or found by its name) for a new one.
    column& entry_column(std::size_t slot, std::string_view field, std::size_t i, std::string_view key) {
        table& t = *t_;
        if (slot >= t.maps.size()) t.maps.resize(slot + 1);
        table::map_keys& m = t.maps[slot];
        std::size_t j = 0;
        while (j < m.known.size() && !same_text(m.known[j].key, key)) ++j;
        if (j == m.known.size()) {
            std::string name(field);
            name += '.';
            name += key;
            m.known.push_back({std::string(key), t.column_named(name)});
        }
        if (i >= m.last.size()) m.last.resize(i + 1);
        m.last[i] = j;
        return t.columns[m.known[j].column];
    }
    column& next_column() { return current_column(); }
    void clear_prefix() noexcept {
        prefix_.clear();
        prefix_hash_.clear();
    }
    // s lies within t (a key read in place from the JSON text replayed: valid until its value).
    static bool within(std::string_view s, std::string_view t) noexcept {
        const auto b = reinterpret_cast<std::uintptr_t>(t.data()), p = reinterpret_cast<std::uintptr_t>(s.data());
        return p >= b && p + s.size() <= b + t.size();
    }
    // A value into column c's cell of the current row, typed as the NDJSON writer writes it.
    LOGSCAN_FORCE_INLINE void cell_to(column& c, cell k, std::int64_t v) {
        const std::size_t row = t_->rows;
        if (c.append_plain(row, k, v)) [[likely]] return;
        c.pad_to(row);
        c.set(row, k, v);
    }
    template <class T>
    LOGSCAN_FORCE_INLINE void store(column& c, const T& v) {
        if constexpr (logscan::internal::is_optional<T>::value) {
            if (v) store(c, *v);
            else cell_to(c, cell::null, 0);
        } else if constexpr (std::is_same_v<T, std::nullptr_t>) {
            cell_to(c, cell::null, 0);
        } else if constexpr (std::is_same_v<T, bool>) {
            cell_to(c, cell::boolean, v ? 1 : 0);
        } else if constexpr (std::is_integral_v<T>) {
            if constexpr (std::is_unsigned_v<T>) {
                if (static_cast<std::uint64_t>(v) > static_cast<std::uint64_t>(INT64_MAX))
                    return cell_to(c, cell::uinteger, static_cast<std::int64_t>(static_cast<std::uint64_t>(v)));
            }
            cell_to(c, cell::integer, static_cast<std::int64_t>(v));
        } else if constexpr (std::is_floating_point_v<T>) {
            if (!std::isfinite(v)) cell_to(c, cell::null, 0);
            else cell_to(c, cell::floating, bits(static_cast<double>(v)));
        } else if constexpr (std::is_same_v<T, std::string_view>) {
            cell_to(c, cell::string, c.text_code(v, t_->rows));
        } else if constexpr (std::is_same_v<T, logscan::loose_number>) {
            const loose l = read_loose(v.text, v.grouped);
            switch (l.kind) {
            case loose::integer: return cell_to(c, cell::integer, l.i);
            case loose::floating: return cell_to(c, cell::floating, bits(l.d));
            case loose::big_integer: return cell_to(c, cell::big_integer, c.text_code(l.digits, t_->rows));
            case loose::null: return cell_to(c, cell::null, 0);
            case loose::text: return cell_to(c, cell::string, c.text_code(v.text, t_->rows));
            }
        } else if constexpr (std::is_same_v<T, logscan::shape_list>) {
            // (its JSON text, as the NDJSON writer writes an array of integers: "[4,3,224,224]")
            if (!v.ok()) return cell_to(c, cell::null, 0);
            column::printed_shape& printed = c.shapes[hash_text(v.brackets()) >> 58];
            if (printed.code >= 0 && same_text(printed.text, v.brackets())) return cell_to(c, cell::string, printed.code);
            shape_text_.assign(1, '[');
            for (const std::int64_t d : v) {
                char b[24];
                const auto r = std::to_chars(b, b + sizeof b, d);
                shape_text_.append(b, r.ptr);
                shape_text_ += ',';
            }
            if (shape_text_.size() > 1) shape_text_.pop_back();
            shape_text_ += ']';
            printed.text.assign(v.brackets());
            printed.code = c.text_code(shape_text_, t_->rows);
            cell_to(c, cell::string, printed.code);
        } else {
            static_assert(sizeof(T) == 0, "columns::store: not a scalar");
        }
    }
    column& current_column() {
        table& t = *t_;
        std::uint32_t& guess = previous_ == 0 ? t.first : t.columns[previous_ - 1].next;
        std::size_t i = 0;
        // the usual case: the column that followed the last one in the last row that wrote it
        if (guess != 0 && guessed(t.columns[guess - 1])) {
            i = guess - 1;
        } else {
            // else a column of that name seen before, found by its hash; else the column of that
            // name, found or made
            const std::uint64_t h = hash_text(key_) ^ (prefix_hash_.empty() ? 0 : prefix_hash_.back());
            std::uint32_t& r = t.recent[static_cast<std::size_t>(h >> 54)]; // (the top 10 bits: 1024 slots)
            if (r != 0 && matches(t.columns[r - 1].name)) {
                i = r - 1;
            } else {
                column_name(name_);
                i = t.column_named(name_); // (may add a column: `guess` is taken again below)
                r = static_cast<std::uint32_t>(i + 1);
            }
            (previous_ == 0 ? t.first : t.columns[previous_ - 1].next) = static_cast<std::uint32_t>(i + 1);
        }
        previous_ = static_cast<std::uint32_t>(i + 1);
        return t.columns[i];
    }
    // Column c is the current key's: a declared field's name at the address that matched it
    // before, or the same name.
    LOGSCAN_FORCE_INLINE bool guessed(column& c) const {
        if (!static_key_ || !prefix_.empty()) return matches(c.name);
        if (c.key_at == key_.data() && c.name.size() == key_.size()) return true;
        if (!same_text(c.name, key_)) return false;
        c.key_at = key_.data();
        return true;
    }
    LOGSCAN_FORCE_INLINE bool matches(std::string_view name) const {
        if (prefix_.empty()) return same_text(name, key_);
        const std::string& p = prefix_.back();
        return name.size() == p.size() + 1 + key_.size() && same_text({name.data() + p.size() + 1, key_.size()}, key_) &&
               name[p.size()] == '.' && same_text({name.data(), p.size()}, p);
    }
    void put(cell k, std::int64_t v) { cell_to(next_column(), k, v); }
    void put_string(cell k, std::string_view s) {
        column& c = next_column();
        cell_to(c, k, c.text_code(s, t_->rows));
    }

    const type_set& wanted_;
    bool parts_ = false; // a part's columns: each column notes its strings' rows (column::note_rows)
    std::vector<table> tables_;
    table* t_ = nullptr;
    bool on_ = false;
    std::string_view key_;     // the current key (valid until its value is written)
    std::string replay_key_;   // a JSON text's key (decoded into the reader's scratch: copied)
    logscan::json::replayer<columns> replay_; // (one reader's storage for every JSON text)
    bool static_key_ = false;  // key_ is a declared field's name (field_key)
    bool replaying_ = false;   // inside raw_value's JSON text (json::replay)
    std::string_view replay_text_; // the JSON text replaying (raw_value)
    std::vector<std::string> prefix_;
    std::vector<std::uint64_t> prefix_hash_; // each prefix's hash (the `recent` probe's part of it)
    int array_depth_ = 0;
    std::uint32_t previous_ = 0; // the column this row wrote last by key (index + 1; 0: none yet)
    std::string json_text_;
    std::string shape_text_;
    std::string name_; // (current_column's scratch)
    std::vector<std::size_t> kind_table_; // a record type's table by the format's kind index (+2; 1: not wanted)
    char json_buf_[4096];
    std::optional<logscan::ndjson_writer<sink>> json_; // an array's JSON text (a fresh writer per top-level array)
};

// A field a column takes straight from the record (columns::field_at): a scalar.
template <class T>
struct direct_field
    : std::bool_constant<std::is_arithmetic_v<T> || std::is_same_v<T, std::string_view> || std::is_same_v<T, std::nullptr_t> ||
                         std::is_same_v<T, logscan::loose_number> || std::is_same_v<T, logscan::shape_list>> {};
template <class T>
struct direct_field<std::optional<T>> : direct_field<T> {};

// The visitor frames() parses with: every format's records, each written into `columns`
// from the record description (record.hpp's record_kind: its type, its fields in order),
// with no code per format or record type. A declared scalar field goes straight to its
// column (field_at); any other field, and the `error` records, as the NDJSON visitor writes
// them (`ndjson_records<columns>`), so each cell is what the NDJSON contract writes.
template <class... Kinds>
class typed_columns : public Kinds::event::template forward<typed_columns<Kinds...>>... {
public:
    explicit typed_columns(columns& w) noexcept : w_(w), generic_(w) {}
    /// The first `error` record (none: `ok()`), as the NDJSON visitor keeps it.
    const logscan::error& first_error() const noexcept { return generic_.first_error; }
    /// The `error` records written.
    std::uint64_t errors() const noexcept { return generic_.errors; }

    template <class Event, class R>
    void on_record(Event e, const R& r) {
        if constexpr (std::is_same_v<Event, logscan::on_error_event>) {
            generic_.on_record(e, r); // (an error's shape differs per kind: rare)
        } else {
            constexpr std::size_t kind = logscan::internal::kind_index<Event, Kinds...>();
            if (!w_.begin_kind(kind, logscan::internal::kind_of<Event, Kinds...>(), logscan::record_line(r))) return;
            write(r, logscan::internal::fields_of<Event, Kinds...>(), std::make_index_sequence<count(logscan::internal::fields_of<Event, Kinds...>())>{});
            w_.end();
        }
    }

private:
    template <class... F>
    static constexpr std::size_t count(logscan::record_fields<F...>) noexcept {
        return sizeof...(F);
    }
    template <class R, class... F, std::size_t... J>
    void write(const R& r, logscan::record_fields<F...>, std::index_sequence<J...>) {
        (one<J, F>(r), ...);
    }
    template <std::size_t J, class F, class R>
    void one(const R& r) {
        if constexpr (logscan::internal::is_entries<F>::value) {
            logscan::write_fields(w_, r, logscan::record_fields<F>{});
        } else {
            using V = std::remove_cvref_t<decltype(F::get(r))>;
            if constexpr (direct_field<V>::value) {
                w_.field_at(J + 1, F::name, F::get(r));
            } else if constexpr (requires(const V& v) { v.for_each_entry([](std::string_view, const auto&) {}); }) {
                w_.map_begin(F::name);
                std::size_t i = 0;
                F::get(r).for_each_entry([&](std::string_view k, const auto& x) {
                    if constexpr (direct_field<std::remove_cvref_t<decltype(x)>>::value) {
                        w_.map_entry(J + 1, F::name, i, k, x);
                    } else {
                        w_.key(k);
                        logscan::write_value(w_, x);
                    }
                    ++i;
                });
                w_.end_object();
            } else {
                logscan::write_fields(w_, r, logscan::record_fields<F>{});
            }
        }
    }
    columns& w_;
    logscan::ndjson_records<columns, Kinds...> generic_;
};

// The typed_columns of a format's record_list.
template <class List>
struct typed_columns_of;
template <class... Kinds>
struct typed_columns_of<logscan::record_list<Kinds...>> {
    using type = typed_columns<Kinds...>;
};

// A part of an input read into columns of its own on a thread of its own (frames()' threads:
// parallel.hpp's parse_in_parts' slot): its bytes, where it starts, its parser and columns.
// In input order, a kept part's columns are absorbed into the frames' (`absorb_into`); a part
// read again by the parser before it forgets what it read.
template <class F>
struct column_part
    : logscan::part_reading<columns, typename typed_columns_of<typename F::records>::type,
                            typename F::template parser<typename typed_columns_of<typename F::records>::type>> {
    explicit column_part(const type_set& wanted) : column_part::part_reading(wanted, true) {}
    void parse() {
        release();
        this->vis.emplace(this->out);
        absorbed = false;
        this->read_fresh();
    }
    std::uint64_t errors() const noexcept { return this->vis->errors(); }
    logscan::error first_error() const noexcept { return this->vis->first_error(); }
    // What this part's parser read since the last call, appended to `to` (the rows before it
    // there already).
    void absorb_into(columns& to) {
        to.absorb(this->out);
        absorbed = true;
    }
    void release() {
        this->drop_parser();
        if (absorbed) this->out.reset();
        else this->out.forget();
        absorbed = true;
    }
    bool absorbed = true; // every row read since the last release went to the absorbing columns
};

} // namespace logscan_py

#endif
