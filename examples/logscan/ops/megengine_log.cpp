// SPDX-License-Identifier: MIT
// The command's work with megengine-log (format_ops.hpp), compiled apart from the other formats'.
#include "../format_ops_impl.hpp"

template struct logscan_cli::format_ops<logscan::megengine_log::format>;
