// SPDX-License-Identifier: MIT
// logscan: the command-line tool (command.hpp), with logscan's formats.
//
//   logscan detect FILE...
//   logscan convert [--format ID] [--to ndjson|csv] [--type T,...] [--out-dir DIR]
//                   [--with-filename] [--threads N] FILE...   (FILE may be - for standard input)
//   logscan stats [--format ID] [--threads N] FILE...
//   logscan summary [--format ID] [--top K] [--top-cpu-ops N] [--json] [--svg DIR] [--threads N] FILE...
//   logscan --help | --version | COMMAND --help
//
// Exit status: 0 on success; 1 when an input could not be read, its format was not
// recognised, it yielded error records (everything parseable is still written), or it yielded
// no record of its format, only text; 2 on a usage error. An empty or blank input needs no
// format: no records, exit 0.
#include "command.hpp"

int main(int argc, char** argv) { return logscan_cli::run<logscan::all_formats>(argc, argv); }
