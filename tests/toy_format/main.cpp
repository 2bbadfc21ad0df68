// SPDX-License-Identifier: MIT
// The logscan command with a format more: logscan's formats and the toy one.
#include "command.hpp"
#include "toy_format.hpp"

int main(int argc, char** argv) { return logscan_cli::run<logscan::formats_plus<logscan::all_formats, toy::format>>(argc, argv); }
