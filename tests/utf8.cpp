// SPDX-License-Identifier: MIT
// The UTF-8 helpers shared by the JSON reader and the NDJSON writer. Expected lengths follow
// the Unicode table of well-formed byte sequences (3.9, table 3-7) and its "maximal subpart"
// practice for ill-formed ones.
#include <logscan/utf8.hpp>

#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <string_view>

namespace {
std::size_t complete(std::string_view s) { return logscan::internal::utf8_complete(s.data(), s.data() + s.size()); }
std::size_t invalid(std::string_view s) { return logscan::internal::utf8_invalid_length(s.data(), s.data() + s.size()); }
} // namespace

TEST_CASE("utf8::complete sequences: their length; anything else: 0") {
    CHECK(complete("\xc3\xa9") == 2);          // é
    CHECK(complete("\xe2\x82\xac") == 3);      // €
    CHECK(complete("\xf0\x9f\x98\x80") == 4);  // 😀
    CHECK(complete("\xf4\x8f\xbf\xbf") == 4);  // U+10FFFF
    CHECK(complete("\xc2\x80x") == 2);         // only the sequence counts
    CHECK(complete("\xc1\xbf") == 0);          // overlong 2-byte
    CHECK(complete("\xe0\x9f\xbf") == 0);      // overlong 3-byte (E0 needs A0..BF)
    CHECK(complete("\xed\xa0\x80") == 0);      // surrogate (ED needs 80..9F)
    CHECK(complete("\xf4\x90\x80\x80") == 0);  // above U+10FFFF
    CHECK(complete("\xf5\x80\x80\x80") == 0);  // F5 starts nothing
    CHECK(complete("\x80") == 0);              // a lone continuation byte
    CHECK(complete("\xe2\x82") == 0);          // cut short by the end
}

TEST_CASE("utf8::invalid_length is the maximal subpart") {
    CHECK(invalid("\xff") == 1);
    CHECK(invalid("\x80\x80") == 1);           // each continuation byte alone
    CHECK(invalid("\xe2\x82x") == 2);          // lead + the continuation that fits
    CHECK(invalid("\xe2\x82") == 2);           // cut by the end
    CHECK(invalid("\xf0\x9f\x98") == 3);
    CHECK(invalid("\xed\xa0\x80") == 1);       // ED then A0 does not fit: ED alone
    CHECK(invalid("\xe0\x80\x80") == 1);       // E0 then 80 does not fit
    CHECK(invalid("\xc0\xaf") == 1);           // C0 starts nothing
}

TEST_CASE("utf8::all_ascii: a byte of 0x80 or more at every place of texts of every length") {
    // lengths 0 to 80 (under four bytes, the two overlapping words of 4 and of 8, the 16-byte
    // looks and the last 16 looked at again), one high byte at each place, as a loop over the
    // bytes says; and the bytes next to 0x80 (0x7F is ASCII)
    for (std::size_t n = 0; n <= 80; ++n) {
        const std::string plain(n, '\x7f');
        if (!logscan::internal::all_ascii(plain)) FAIL_CHECK("all 0x7F, " << n << " bytes");
        for (std::size_t at = 0; at < n; ++at) {
            for (const char high : {'\x80', '\xff', '\xc3'}) {
                std::string s = plain;
                s[at] = high;
                if (logscan::internal::all_ascii(s)) FAIL_CHECK(n << " bytes, " << static_cast<int>(static_cast<unsigned char>(high)) << " at " << at);
                // the same text as a view inside a longer one (bytes around it not looked at)
                const std::string around = "\xff" + s.substr(0, at) + "x" + s.substr(at + 1) + "\xff";
                if (!logscan::internal::all_ascii(std::string_view(around).substr(1, n))) FAIL_CHECK(n << " bytes inside high ones, " << at);
            }
        }
    }
    static_assert(logscan::internal::all_ascii("compile time"));
    static_assert(!logscan::internal::all_ascii("caf\xc3\xa9"));
}

TEST_CASE("utf8::printable_ascii: every byte 0x20-0x7E, at every position of a word and the tail") {
    // each byte value at each position of a 19-byte and a 35-byte line (16-byte blocks, then
    // 8-byte words, then a tail of three: every path), among printable bytes (the two ends of
    // the range included): printable exactly when the byte is in [0x20, 0x7E], as the
    // byte-by-byte definition says
    for (int b = 0; b < 256; ++b) {
        const bool printable = b >= 0x20 && b <= 0x7E;
        for (std::size_t at = 0; at < 54; ++at) {
            std::string s(at < 19 ? 19 : 35, ' ');
            for (std::size_t i = 0; i < s.size(); ++i) s[i] = i % 2 ? '~' : ' ';
            s[at < 19 ? at : at - 19] = static_cast<char>(b);
            if (logscan::internal::printable_ascii(s) != printable)
                FAIL_CHECK("byte " << b << " at " << at << ": printable_ascii says " << !printable);
            CHECK(logscan::internal::is_binary_text(s) == (b < 0x20 || b == 0x7F || (b >= 0x80)));
        }
    }
    // every length from 0 to 40 (the 16-byte blocks, the 8-byte words and the bytes, the last
    // block or word overlapping the one before), each byte value at each position, in a block
    // of the text's exact size (a read past it trips ASan)
    for (std::size_t n = 0; n <= 40; ++n) {
        const std::unique_ptr<char[]> x(new char[n == 0 ? 1 : n]);
        for (std::size_t i = 0; i < n; ++i) x[i] = i % 2 ? '~' : ' ';
        const std::string_view t(x.get(), n);
        CHECK(logscan::internal::printable_ascii(t));
        for (std::size_t at = 0; at < n; ++at)
            for (int b = 0; b < 256; ++b) {
                const char keep = x[at];
                x[at] = static_cast<char>(b);
                if (logscan::internal::printable_ascii(t) != (b >= 0x20 && b <= 0x7E))
                    FAIL_CHECK("length " << n << ", byte " << b << " at " << at << ": printable_ascii says " << !(b >= 0x20 && b <= 0x7E));
                x[at] = keep;
            }
    }
    // a low byte next to a high one (a borrow across bytes) and lines of every length
    CHECK_FALSE(logscan::internal::printable_ascii(std::string_view("abc\x1f\x80xyzabc", 10)));
    CHECK_FALSE(logscan::internal::printable_ascii("abcdefg\x7f"));
    CHECK(logscan::internal::printable_ascii(""));
    for (std::size_t n = 0; n < 40; ++n) {
        CHECK(logscan::internal::printable_ascii(std::string(n, 'x')));
        if (n > 0) CHECK_FALSE(logscan::internal::printable_ascii(std::string(n - 1, 'x') + '\t'));
    }
    static_assert(logscan::internal::printable_ascii("compile time ~"));
    static_assert(!logscan::internal::printable_ascii("tab\there"));
}
