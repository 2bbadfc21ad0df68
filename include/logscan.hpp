// SPDX-License-Identifier: MIT
/// \file logscan.hpp
/// Umbrella header: includes every public logscan header.
#ifndef LOGSCAN_HPP_INCLUDED
#define LOGSCAN_HPP_INCLUDED

#include "logscan/config.hpp"
#include "logscan/error.hpp"
#include "logscan/visit.hpp"
#include "logscan/source.hpp"
#include "logscan/utf16.hpp"
#include "logscan/num.hpp"
#include "logscan/lines.hpp"
#include "logscan/table.hpp"
#include "logscan/regex.hpp"
#include "logscan/rules.hpp"
#include "logscan/route.hpp"
#include "logscan/json.hpp"
#include "logscan/json_project.hpp"
#include "logscan/ndjson.hpp"
#include "logscan/format.hpp"
#include "logscan/formats/chainer_memtrace.hpp"
#include "logscan/formats/chrome_trace.hpp"
#include "logscan/formats/megengine_log.hpp"
#include "logscan/formats/megengine_profile.hpp"
#include "logscan/formats/paddle_log.hpp"
#include "logscan/formats/tvm_profile.hpp"
#include "logscan/formats/detect.hpp"

#endif
