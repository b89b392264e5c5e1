// The JSON options of reapi_cli_initialize (spec/reapi.md §4) as the
// session's Options.
#pragma once

#include <string>

#include "session/options.h"
#include "utilities/result.h"

namespace rq::reapi {

// Unknown keys are ignored; "" or non-JSON text, a non-object, a value of
// the wrong type or an unknown load_format / matcher_name /
// traverser_policy is an error (kInvalid). An unknown match_format falls
// back to "simple", as in the original. `rgraph` decides the reader when
// load_format is absent: JSON with a "graph" key is read as JGF.
Result<Options> parse_init_options(const std::string& json_text, const std::string& rgraph);

}  // namespace rq::reapi
