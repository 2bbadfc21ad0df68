// SPDX-License-Identifier: MIT
// The command's work with the toy format (examples/logscan/format_ops.hpp); logscan's formats'
// are linked from the command's own (logscan_cli_formats).
#include "format_ops_impl.hpp"
#include "toy_format.hpp"

template struct logscan_cli::format_ops<toy::format>;
