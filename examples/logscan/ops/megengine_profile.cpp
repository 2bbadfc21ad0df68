// SPDX-License-Identifier: MIT
// The command's work with megengine-profile (format_ops.hpp), compiled apart from the other formats'.
#include "../format_ops_impl.hpp"

template struct logscan_cli::format_ops<logscan::megengine_profile::format>;
