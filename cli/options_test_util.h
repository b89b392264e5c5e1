// For the option tests: parse_options on a command line given as strings.
#pragma once

#include <getopt.h>

#include <string>
#include <vector>

#include "cli/options.h"

namespace rq::testing {

inline Result<Options> parse_words(std::vector<std::string> words, std::vector<std::string>* warnings_out = nullptr) {
    words.insert(words.begin(), "resource-query");
    std::vector<char*> argv;
    for (auto& w : words) argv.push_back(w.data());
    argv.push_back(nullptr);
    std::vector<std::string> warnings;
    opterr = 0;  // keep getopt quiet in tests
    auto r = parse_options(static_cast<int>(words.size()), argv.data(), warnings);
    if (warnings_out) *warnings_out = warnings;
    return r;
}

}  // namespace rq::testing
