#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Writes conformance.txt: the RFC 8259 conformance documents of tests/json.cpp, modelled on
# the public JSONTestSuite (y_ = must accept, n_ = must reject), one grammar rule or error
# case per document. For every y_ document the expected SAX event sequence is computed here
# with Python's json module (an independent parser), so the C++ test never compares logscan
# with itself. For n_ documents the expected error code is given by hand.
#
#   python3 tests/data/json/make_conformance.py
#
# Format of conformance.txt (one record per line):
#   case <y|n> <name> <document as hex, '-' if empty> [<error code for n>]
#   ev <event>                      (y only; events as in make_sample_counts.py, strings hex)
#   end
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# ---- must accept ----
Y = {
    # values at top level (RFC 8259 section 2: any value)
    'y_structure_lonely_int': b'42',
    'y_structure_lonely_negative_real': b'-0.1',
    'y_structure_lonely_string': b'"asd"',
    'y_structure_lonely_true': b'true',
    'y_structure_lonely_false': b'false',
    'y_structure_lonely_null': b'null',
    'y_structure_string_empty': b'""',
    'y_structure_whitespace_array': b' [] ',
    'y_structure_all_whitespace': b' \t\r\n[ \t\r\n1 \t\r\n, \t\r\n2 \t\r\n] \t\r\n',
    'y_structure_trailing_newline': b'["a"]\n',
    'y_structure_true_in_array': b'[true]',
    # arrays (section 5)
    'y_array_empty': b'[]',
    'y_array_empty_string': b'[""]',
    'y_array_arrays_with_spaces': b'[[]   ]',
    'y_array_ending_with_newline': b'["a"]',
    'y_array_false': b'[false]',
    'y_array_heterogeneous': b'[null, 1, "1", {}]',
    'y_array_null': b'[null]',
    'y_array_with_1_and_newline': b'[1\n]',
    'y_array_with_leading_space': b' [1]',
    'y_array_with_several_null': b'[1,null,null,null,2]',
    'y_array_with_trailing_space': b'[2] ',
    'y_array_nested': b'[[[[[[[[[[1]]]]]]]]]]',
    # objects (section 4)
    'y_object_empty': b'{}',
    'y_object_empty_key': b'{"":0}',
    'y_object_basic': b'{"asd":"sdf"}',
    'y_object_duplicated_key': b'{"a":"b","a":"c"}',
    'y_object_duplicated_key_and_value': b'{"a":"b","a":"b"}',
    'y_object_escaped_null_in_key': b'{"foo\\u0000bar": 42}',
    'y_object_extreme_numbers': b'{ "min": -1.0e+28, "max": 1.0e+28 }',
    'y_object_long_strings': b'{"x":[{"id": "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"}], "id": "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"}',
    'y_object_simple': b'{"a":[]}',
    'y_object_string_unicode': b'{"title":"\\u041f\\u043e\\u043b\\u0442\\u043e\\u0440\\u0430 \\u0417\\u0435\\u043c\\u043b\\u0435\\u043a\\u043e\\u043f\\u0430" }',
    'y_object_with_newlines': b'{\n"a": "b"\n}',
    'y_object_nested': b'{"a":{"b":{"c":[{"d":null}]}}}',
    'y_object_many_members': b'{"a":1,"b":2,"c":3,"d":[4,5],"e":{"f":6}}',
    # numbers (section 6)
    'y_number_0': b'[0]',
    'y_number_minus_zero': b'[-0]',
    'y_number_negative_int': b'[-123]',
    'y_number_negative_one': b'[-1]',
    'y_number_negative_zero_real': b'[-0.0]',
    'y_number_simple_int': b'[123]',
    'y_number_simple_real': b'[123.456789]',
    'y_number_real_capital_e': b'[1E22]',
    'y_number_real_capital_e_neg_exp': b'[1E-2]',
    'y_number_real_capital_e_pos_exp': b'[1E+2]',
    'y_number_real_exponent': b'[123e45]',
    'y_number_real_fraction_exponent': b'[123.456e78]',
    'y_number_real_neg_exp': b'[1e-2]',
    'y_number_real_pos_exponent': b'[1e+2]',
    'y_number_0e1': b'[0e1]',
    'y_number_0e+1': b'[0e+1]',
    'y_number_0_dot_0e0': b'[0.0e0]',
    'y_number_after_space': b'[ 4]',
    'y_number_double_close_to_zero': b'[-0.000000000000000000000000000000000000000000000000000000000000000000000000000001]',
    'y_number_int_with_exp': b'[20e1]',
    'y_number_huge_exp': b'[1.5e999]',
    'y_number_big_int': b'[123456789012345678901234567890]',
    'y_number_min_int64': b'[-9223372036854775808]',
    'y_number_max_uint64': b'[18446744073709551615]',
    'y_number_top_level_exp': b'1e5',
    # strings (section 7)
    'y_string_1_2_3_bytes_UTF-8_sequences': b'["\\u0060\\u012a\\u12AB"]',
    'y_string_accepted_surrogate_pair': b'["\\uD801\\udc37"]',
    'y_string_accepted_surrogate_pairs': b'["\\ud83d\\ude39\\ud83d\\udc8d"]',
    'y_string_allowed_escapes': b'["\\"\\\\\\/\\b\\f\\n\\r\\t"]',
    'y_string_backslash_and_u_escaped_zero': b'["\\\\u0000"]',
    'y_string_backslash_doublequotes': b'["\\""]',
    'y_string_comments': b'["a/*b*/c/*d//e"]',
    'y_string_double_escape_a': b'["\\\\a"]',
    'y_string_double_escape_n': b'["\\\\n"]',
    'y_string_escaped_control_character': b'["\\u0012"]',
    'y_string_escaped_noncharacter': b'["\\uFFFF"]',
    'y_string_in_array': b'["asd"]',
    'y_string_in_array_with_leading_space': b'[ "asd"]',
    'y_string_last_surrogates_1_and_2': b'["\\uDBFF\\uDFFF"]',
    'y_string_nbsp_uescaped': b'["new\\u00A0line"]',
    'y_string_nonCharacterInUTF-8_U+10FFFF': '["\U0010FFFF"]'.encode('utf-8'),
    'y_string_nonCharacterInUTF-8_U+FFFF': '["\uFFFF"]'.encode('utf-8'),
    'y_string_null_escape': b'["\\u0000"]',
    'y_string_one-byte-utf-8': b'["\\u002c"]',
    'y_string_pi': '["\u03c0"]'.encode('utf-8'),
    'y_string_reservedCharacterInUTF-8_U+1BFFF': '["\U0001BFFF"]'.encode('utf-8'),
    'y_string_simple_ascii': b'["asd "]',
    'y_string_space': b'" "',
    'y_string_surrogates_U+1D11E_MUSICAL_SYMBOL_G_CLEF': b'["\\uD834\\uDd1e"]',
    'y_string_three-byte-utf-8': b'["\\u0821"]',
    'y_string_two-byte-utf-8': b'["\\u0123"]',
    'y_string_u+2028_line_sep': '["\u2028"]'.encode('utf-8'),
    'y_string_u+2029_par_sep': '["\u2029"]'.encode('utf-8'),
    'y_string_uEscape': b'["\\u0061\\u30af\\u30EA\\u30b9"]',
    'y_string_uescaped_newline': b'["new\\u000Aline"]',
    'y_string_unescaped_char_delete': b'["\x7f"]',
    'y_string_unicode': b'["\\uA66D"]',
    'y_string_unicodeEscapedBackslash': b'["\\u005C"]',
    'y_string_unicode_2': '["\u2342\u3234\u2342"]'.encode('utf-8'),
    'y_string_unicode_U+10FFFE_nonchar': b'["\\uDBFF\\uDFFE"]',
    'y_string_unicode_escaped_double_quote': b'["\\u0022"]',
    'y_string_utf8': '["\u20ac\U0001d11e"]'.encode('utf-8'),
    'y_string_with_del_character': b'["a\x7fa"]',
    'y_string_four_byte_utf8_boundaries': '["\U00010000\U000FFFFF"]'.encode('utf-8'),
    'y_string_three_byte_boundaries': '["\u0800\ud7ff\ue000"]'.encode('utf-8'),
    'y_string_two_byte_boundaries': '["\u0080\u07ff"]'.encode('utf-8'),
    'y_string_long_mixed': ('["' + 'abc\\n' * 40 + '\u00e9' * 20 + 'x' * 100 + '"]').encode('utf-8'),
    # literals (section 3)
    'y_literals_in_object': b'{"t":true,"f":false,"n":null}',
    'y_deep_500': b'[' * 500 + b']' * 500,
}

# ---- must reject: name -> (document, error code) ----
S, E, D, U = 'syntax', 'unexpected_end', 'too_deep', 'invalid_utf8'
N = {
    # structure
    'n_structure_no_data': (b'', E),
    'n_structure_whitespace_only': (b' \n\t\r ', E),
    'n_structure_UTF8_BOM_no_data': (b'\xef\xbb\xbf', S),
    'n_structure_UTF8_BOM_empty_object': (b'\xef\xbb\xbf{}', S),
    'n_structure_double_array': (b'[][]', S),
    'n_structure_two_values': (b'1 2', S),
    'n_structure_array_trailing_garbage': (b'[1]x', S),
    'n_structure_object_followed_by_closing_object': (b'{}}', S),
    'n_structure_close_unopened_array': (b'1]', S),
    'n_structure_lone-open-bracket': (b'[', E),
    'n_structure_open_object': (b'{', E),
    'n_structure_open_array_object': (b'[{', E),
    'n_structure_unclosed_array': (b'[1', E),
    'n_structure_unclosed_object': (b'{"asd":"asd"', E),
    'n_structure_mismatched_brackets': (b'[}', S),
    'n_structure_mismatched_close': (b'{"a":1]', S),
    'n_structure_array_with_unclosed_string': (b'["asd]', E),
    'n_structure_comment_line': (b'[1] // x', S),
    'n_structure_comment_block': (b'/* x */ [1]', S),
    'n_structure_comment_inside': (b'[1 /* x */]', S),
    'n_structure_hash_comment': (b'# x\n[1]', S),
    'n_structure_formfeed_whitespace': (b'[\x0c]', S),
    'n_structure_vertical_tab_whitespace': (b'[\x0b1]', S),
    'n_structure_nbsp_whitespace': (b'[\xc2\xa01]', S),
    'n_structure_null_byte_outside_string': (b'[\x00]', S),
    'n_structure_null_byte_after': (b'[1]\x00', S),
    'n_structure_single_quote': (b"['a']", S),
    'n_structure_angle_bracket': (b'<.>', S),
    'n_structure_unicode_identifier': (b'\xc3\xa5', S),
    'n_structure_capitalized_True': (b'[True]', S),
    'n_structure_ascii_unicode_identifier': (b'a\xc3\xa5', S),
    'n_structure_end_array': (b']', S),
    'n_structure_end_object': (b'}', S),
    'n_structure_comma_only': (b',', S),
    'n_structure_colon_only': (b':', S),
    # arrays
    'n_array_extra_comma': (b'["",]', S),
    'n_array_double_comma': (b'[1,,2]', S),
    'n_array_comma_first': (b'[,1]', S),
    'n_array_just_comma': (b'[,]', S),
    'n_array_missing_value': (b'[   , ""]', S),
    'n_array_1_true_without_comma': (b'[1 true]', S),
    'n_array_colon_instead_of_comma': (b'[""; 1]', S),
    'n_array_items_separated_by_semicolon': (b'[1:2]', S),
    'n_array_number_and_comma': (b'[1,]', S),
    'n_array_unclosed_with_new_lines': (b'[1,\n1\n,1', E),
    'n_array_unclosed_trailing_comma': (b'[1,', E),
    'n_array_newlines_unclosed': (b'["a",\n4\n,1,', E),
    # objects
    'n_object_trailing_comma': (b'{"id":0,}', S),
    'n_object_double_colon': (b'{"x"::"b"}', S),
    'n_object_missing_colon': (b'{"a" b}', S),
    'n_object_missing_key': (b'{:"b"}', S),
    'n_object_missing_value': (b'{"a":', E),
    'n_object_missing_semicolon': (b'{"a" "b"}', S),
    'n_object_non_string_key': (b'{1:1}', S),
    'n_object_unquoted_key': (b'{a: "b"}', S),
    'n_object_single_quote': (b"{'a':0}", S),
    'n_object_key_null': (b'{null:null}', S),
    'n_object_comma_instead_of_colon': (b'{"x", null}', S),
    'n_object_several_trailing_commas': (b'{"id":0,,,,,}', S),
    'n_object_two_commas_in_a_row': (b'{"a":"b",,"c":"d"}', S),
    'n_object_unterminated-value': (b'{"a":"a', E),
    'n_object_lone_continuation_byte_in_key': (b'{"\xb9":"0",}', U),
    'n_object_bracket_key': (b'{[: "x"}', S),
    'n_object_no-colon': (b'{"a"', E),
    'n_object_with_trailing_garbage': (b'{"a": true} "x"', S),
    'n_object_comment_after_value': (b'{"a":"b"/**/}', S),
    # numbers
    'n_number_leading_zero': (b'[012]', S),
    'n_number_neg_leading_zero': (b'[-012]', S),
    'n_number_plus_1': (b'[+1]', S),
    'n_number_dot_first': (b'[.123]', S),
    'n_number_trailing_dot': (b'[1.]', S),
    'n_number_dot_then_exp': (b'[0.e1]', S),
    'n_number_exp_empty': (b'[1e]', S),
    'n_number_exp_sign_only': (b'[1e+]', S),
    'n_number_0_capital_E': (b'[0E]', S),
    'n_number_double_minus': (b'[--1]', S),
    'n_number_minus_space': (b'[- 1]', S),
    'n_number_minus_alone': (b'[-]', S),
    'n_number_NaN': (b'[NaN]', S),
    'n_number_Infinity': (b'[Infinity]', S),
    'n_number_minus_infinity': (b'[-Infinity]', S),
    'n_number_hex': (b'[0x1]', S),
    'n_number_double_dot': (b'[1.2.3]', S),
    'n_number_exp_double_sign': (b'[1e+-1]', S),
    'n_number_invalid_plus_minus': (b'[0+1]', S),
    'n_number_with_alpha': (b'[1.2a-3]', S),
    'n_number_comma_decimal': (b'[1,2,]', S),
    'n_number_top_level_minus': (b'-', E),
    'n_number_top_level_trailing_dot': (b'1.', E),
    'n_number_top_level_exp': (b'1e', E),
    'n_number_top_level_exp_sign': (b'1E-', E),
    'n_number_top_level_leading_zero': (b'00', S),
    'n_number_real_without_fractional_part': (b'[1.e5]', S),
    'n_number_with_leading_zero_frac': (b'[01.5]', S),
    'n_number_fullwidth_digit': (b'[\xef\xbc\x91]', S),
    # strings
    'n_string_single_quote': (b"['single quote']", S),
    'n_string_unescaped_newline': (b'["new\nline"]', S),
    'n_string_unescaped_tab': (b'["\t"]', S),
    'n_string_unescaped_ctrl_char': (b'["a\x00a"]', S),
    'n_string_unescaped_0x1f': (b'["\x1f"]', S),
    'n_string_escape_x': (b'["\\x00"]', S),
    'n_string_escaped_emoji': ('["\\\U0001f600"]'.encode('utf-8'), S),
    'n_string_escaped_ctrl_char_tab': (b'["\\\t"]', S),
    'n_string_escape_apostrophe': (b'["\\\'"]', S),
    'n_string_escape_a': (b'["\\a"]', S),
    'n_string_escape_0': (b'["\\0"]', S),
    'n_string_1_surrogate_then_escape': (b'["\\uD800\\"]', S),
    'n_string_1_surrogate_then_escape_u': (b'["\\uD800\\u"]', S),
    'n_string_1_surrogate_then_escape_u1': (b'["\\uD800\\u1"]', S),
    'n_string_1_surrogate_then_escape_u1x': (b'["\\uD800\\u1x"]', S),
    'n_string_lone_high_surrogate': (b'["\\uD800"]', S),
    'n_string_lone_low_surrogate': (b'["\\uDC00"]', S),
    'n_string_high_then_high_surrogate': (b'["\\uD800\\uD800"]', S),
    'n_string_high_then_bmp': (b'["\\uD800\\u0041"]', S),
    'n_string_high_then_text': (b'["\\uD800abc"]', S),
    'n_string_inverted_surrogates': (b'["\\uDC00\\uD800"]', S),
    'n_string_incomplete_escape': (b'["\\"]', E),
    'n_string_incomplete_escaped_character': (b'["\\u00A"]', S),
    'n_string_invalid_hex': (b'["\\u00G0"]', S),
    'n_string_uppercase_U_escape': (b'["\\U0041"]', S),
    'n_string_no_quotes_with_bad_escape': (b'[\\n]', S),
    'n_string_start_escape_unclosed': (b'["\\', E),
    'n_string_unterminated': (b'"abc', E),
    'n_string_single_doublequote': (b'"', E),
    'n_string_accentuated_char_no_quotes': (b'[\xc3\xa9]', S),
    # UTF-8 (RFC 3629 as required by RFC 8259 section 8.1)
    'n_string_invalid_utf8_lone_continuation': (b'["\x80"]', U),
    'n_string_invalid_utf8_C0_overlong': (b'["\xc0\xaf"]', U),
    'n_string_invalid_utf8_C1_overlong': (b'["\xc1\xbf"]', U),
    'n_string_invalid_utf8_E0_overlong': (b'["\xe0\x80\xaf"]', U),
    'n_string_invalid_utf8_F0_overlong': (b'["\xf0\x80\x80\xaf"]', U),
    'n_string_invalid_utf8_encoded_surrogate': (b'["\xed\xa0\x80"]', U),
    'n_string_invalid_utf8_above_10FFFF': (b'["\xf4\x90\x80\x80"]', U),
    'n_string_invalid_utf8_F5': (b'["\xf5\x80\x80\x80"]', U),
    'n_string_invalid_utf8_FF': (b'["\xff"]', U),
    'n_string_invalid_utf8_truncated_2': (b'["\xc3"]', U),
    'n_string_invalid_utf8_truncated_3': (b'["\xe2\x82"]', U),
    'n_string_invalid_utf8_truncated_4': (b'["\xf0\x9f\x98"]', U),
    'n_string_invalid_utf8_bad_second': (b'["\xe2\x28\xa1"]', U),
    'n_string_invalid_utf8_in_key': (b'{"\xfe":1}', U),
    'n_string_invalid_utf8_after_escape': (b'["\\n\xc3\x28"]', U),
    'n_string_invalid_utf8_unterminated': (b'["\xc3', E),
    # literals
    'n_literal_tru': (b'[tru]', S),
    'n_literal_truth': (b'[truth]', S),
    'n_literal_nul': (b'[nul]', S),
    'n_literal_fals': (b'[fals]', S),
    'n_literal_True': (b'True', S),
    'n_literal_NULL': (b'[NULL]', S),
    'n_literal_top_level_tru': (b'tru', E),
    'n_literal_top_level_nu': (b'nu', E),
    'n_literal_top_level_f': (b'f', E),
    'n_literal_true_garbage': (b'truex', S),
    # depth
    'n_deep_1025_arrays': (b'[' * 1025 + b']' * 1025, D),
    'n_deep_1025_objects': (b'{"a":' * 1025 + b'1' + b'}' * 1025, D),
}


def random_documents(count, seed=8259):
    """Random documents serialised by Python's json.dumps in varied styles (escaped or raw
    non-ASCII, astral characters as surrogate pairs, control characters, big and small
    numbers, deep and wide nesting); accepted and decoded by Python, so their events are
    known independently of logscan."""
    import random
    rng = random.Random(seed)
    alphabet = ['a', 'b', 'Z', ' ', '"', '\\', '/', '\b', '\f', '\n', '\r', '\t', '\x00', '\x1f', '\x7f',
                '\u00e9', '\u07ff', '\u0800', '\u20ac', '\ud7ff', '\ue000', '\uffff', '\U00010000',
                '\U0001f600', '\U0010ffff']

    def text():
        return ''.join(rng.choice(alphabet) for _ in range(rng.randrange(0, 12)))

    def number():
        r = rng.randrange(6)
        if r == 0:
            return rng.randrange(-10**6, 10**6)
        if r == 1:
            return rng.randrange(-2**70, 2**70)
        if r == 2:
            return rng.uniform(-1e6, 1e6)
        if r == 3:
            return rng.choice([0.0, -0.0, 1e-300, 1.7976931348623157e308, 5e-324, 0.1, 123.456e-7])
        if r == 4:
            return rng.random() * 10 ** rng.randrange(-30, 30)
        return rng.randrange(0, 10)

    def value(depth):
        r = rng.randrange(10 if depth < 6 else 6)
        if r == 0:
            return None
        if r == 1:
            return rng.choice([True, False])
        if r in (2, 3):
            return number()
        if r in (4, 5):
            return text()
        if r in (6, 7):
            return [value(depth + 1) for _ in range(rng.randrange(0, 6))]
        return {text(): value(depth + 1) for _ in range(rng.randrange(0, 6))}

    docs = {}
    for i in range(count):
        v = value(0) if i % 4 else {'k': value(0), 'l': [value(1) for _ in range(4)]}
        style = i % 3
        if style == 0:
            s = json.dumps(v, ensure_ascii=True)
        elif style == 1:
            s = json.dumps(v, ensure_ascii=False, separators=(',', ':'))
        else:
            s = json.dumps(v, ensure_ascii=bool(i % 2), indent=rng.choice([1, 2, '\t']))
        docs[f'y_random_{i:03d}'] = s.encode('utf-8')
    return docs


Y.update(random_documents(80))


class Obj:
    def __init__(self, pairs):
        self.pairs = pairs


class Num:
    def __init__(self, text):
        self.text = text


def bad_constant(s):
    raise ValueError('non-JSON constant ' + s)


def events(v, out):
    if isinstance(v, Obj):
        out.append('{')
        for k, x in v.pairs:
            out.append('k:' + k.encode('utf-8').hex())
            events(x, out)
        out.append('}')
    elif isinstance(v, list):
        out.append('[')
        for x in v:
            events(x, out)
        out.append(']')
    elif isinstance(v, Num):
        out.append('n:' + v.text)
    elif isinstance(v, str):
        out.append('s:' + v.encode('utf-8').hex())
    elif v is True:
        out.append('t')
    elif v is False:
        out.append('f')
    elif v is None:
        out.append('null')


def main():
    lines = ['# generated by make_conformance.py; do not edit']
    for name, doc in Y.items():
        # Python's json is the oracle for the events; it must accept every y_ document
        value = json.loads(doc.decode('utf-8'), object_pairs_hook=Obj, parse_int=Num,
                           parse_float=Num, parse_constant=bad_constant)
        ev = []
        events(value, ev)
        lines.append(f'case y {name} {doc.hex()}')
        lines += ['ev ' + e for e in ev]
        lines.append('end')
    for name, (doc, code) in N.items():
        lines.append(f'case n {name} {doc.hex() or "-"} {code}')
        lines.append('end')
    with open(os.path.join(HERE, 'conformance.txt'), 'w') as f:
        f.write('\n'.join(lines) + '\n')
    print(f'{len(Y)} y cases, {len(N)} n cases')


if __name__ == '__main__':
    sys.exit(main())
