// The settings given on the command line of a resume (docs/state.md, Settings given with a resume): each one either
// applies or is refused with one line naming the saved value.
#pragma once

#include <string>

#include "session/options.h"
#include "utilities/result.h"

namespace rq::state {

// `saved` (the file's options) with what `given` may change applied:
// this run's reporting (-t, -e, -d, -g/-o, --json, --fail-fast,
// --no-history, --events-json) and the match output format (-F). A
// setting that shapes the saved session (-L, -f, -W, --resource, -S, -P,
// -T, -p, the queue's settings) given with a value other than the saved
// one is refused, naming `path` and the saved value. A setting is "given"
// when the command line wrote it (Options::given) or it differs from its
// default (options made by a program rather than parsed).
Result<Options> resume_options(const Options& given, const Options& saved, const std::string& path,
                               bool state_file);

}  // namespace rq::state
