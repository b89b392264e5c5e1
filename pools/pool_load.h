// The pool formats of the reader dispatch: -f hq|canary|ctest|local and
// --resource NAME=DEF.
#pragma once

#include <string>
#include <vector>

#include "resource/graph.h"
#include "utilities/result.h"

namespace rq::pools {

bool is_pool_format(const std::string& format);

// `format` is hq, canary, ctest, local or "resource" (--resource only).
Status load_pools(const std::string& format, const std::string& path, const std::string& text,
                  const std::vector<std::string>& resources, ResourceGraph& graph);

}  // namespace rq::pools
