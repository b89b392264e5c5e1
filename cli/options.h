// Command-line options of resource-query (spec/cli.md §1, §2): argv to
// the session's Options (session/options.h).
#pragma once

#include <string>
#include <vector>

#include "session/options.h"
#include "utilities/result.h"

namespace rq {

// Parses argv. On a usage error the Error's message is the line to print
// before the usage text (e.g. "[ERROR] unknown format for --load-format:
// x"), possibly empty; the caller prints it, the usage, and exits 1.
// Warnings that do not stop start-up (--reserve-vtx-vec out of range) are
// appended to `warnings`.
Result<Options> parse_options(int argc, char** argv, std::vector<std::string>& warnings);

// The values --load-format and --match-format accept.
const std::vector<std::string>& load_formats();
const std::vector<std::string>& match_formats();

// The usage text printed by -h and on usage errors.
const char* usage_text();

// The line --version prints.
std::string version_line();

}  // namespace rq
