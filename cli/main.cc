// resource-query: match jobspecs against a resource graph, interactively.
#include <iostream>

#include "cli/json_output.h"
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
    // Asked-for help and version go to stdout (the reference prints -h to
    // stderr); the usage after an option error stays on stderr.
    if (options->show_help) {
        std::cout << rq::usage_text();
        return 0;
    }
    if (options->show_version) {
        std::cout << rq::version_line() << "\n";
        return 0;
    }
    for (auto& w : warnings) std::cerr << (options->json ? rq::json_lines_from_errors(w) : w + "\n");
    return rq::run_session(*options);
}
