#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Generates sample_numbers.tsv for tests/num.cpp: every distinct token of the bundled samples
# that is a decimal number per formats.md (optional sign, digits with optional ',' thousands
# separators in groups of three, optional fraction, optional exponent), delimited by bytes that
# cannot continue a number. One line per token: TOKEN <tab> KIND <tab> VALUE, where KIND is
# "int" (no fraction/exponent; VALUE is the exact integer with separators removed) or "float"
# (VALUE is Python's correctly rounded float(), written with float.hex()).
# Usage: python3 gen_sample_numbers.py > sample_numbers.tsv   (run from this directory)
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLES = os.path.join(HERE, "..", "..", "..", "samples")
NUMBER = re.compile(
    rb"(?<![0-9A-Za-z_.,+-])"
    rb"[-+]?(?:[1-9][0-9]{0,2}(?:,[0-9]{3})+|[0-9]+)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?"
    rb"(?![0-9A-Za-z_.,])")

tokens = set()
for name in sorted(os.listdir(SAMPLES)):
    if not name.endswith(".txt"):
        continue
    with open(os.path.join(SAMPLES, name), "rb") as f:
        tokens.update(m.group(0) for m in NUMBER.finditer(f.read()))

for t in sorted(tokens):
    s = t.decode("ascii")
    plain = s.replace(",", "")
    if re.fullmatch(r"[-+]?[0-9]+", plain):
        print(f"{s}\tint\t{int(plain)}")
    else:
        print(f"{s}\tfloat\t{float(plain).hex()}")
