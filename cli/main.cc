// resource-query: match jobspecs against a resource graph, interactively.
#include <iostream>
#include <new>
#include <string>

#include "cli/json_output.h"
#include "cli/options.h"
#include "cli/repl.h"
#include "utilities/memory.h"

int main(int argc, char** argv) {
    (void)rq::keep_freed_memory_for_reuse();  // a speed setting: without it everything still works
    std::vector<std::string> warnings;
    auto options = rq::parse_options(argc, argv, warnings);
    if (!options) {
        // The error, the usage line and where the rest is: the whole option
        // list (150 lines) would push the error off the screen.
        if (!options.message().empty()) std::cerr << options.message() << "\n";
        std::string usage = rq::usage_text();
        std::cerr << usage.substr(0, usage.find('\n')) << "\nTry 'resource-query --help' for the options.\n";
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
    try {
        return rq::run_session(*options);
    } catch (const std::bad_alloc&) {
        // Readers catch their own (resource/loader.h); this is the rest of
        // start-up (docs/formats.md "Limits on input files").
        std::cerr << "resource-query: out of memory" << std::endl;
        return 1;
    }
}
