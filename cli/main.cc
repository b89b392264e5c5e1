// resource-query: match jobspecs against a resource graph, interactively.
#include <iostream>

#include "cli/options.h"
#include "cli/repl.h"

int main(int argc, char** argv) {
    std::vector<std::string> warnings;
    auto options = rq::parse_options(argc, argv, warnings);
    if (!options) {
        if (!options.message().empty()) std::cerr << options.message() << "\n";
        std::cerr << rq::usage_text();
        return 1;
    }
    if (options->show_help) {
        std::cerr << rq::usage_text();
        return 0;
    }
    for (auto& w : warnings) std::cerr << w << "\n";
    return rq::run_session(*options);
}
