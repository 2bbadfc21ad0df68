// SPDX-License-Identifier: MIT
// The command's work with chainer-memtrace (format_ops.hpp), compiled apart from the other formats'.
#include "../format_ops_impl.hpp"

template struct logscan_cli::format_ops<logscan::chainer_memtrace::format>;
