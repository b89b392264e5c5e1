// find EXPR... (spec/cli.md §5.6, output.md §3): the writer text of every
// matching vertex, then the EXPRESSION block.
#include <iostream>

#include "cli/command_table.h"
#include "session/operations.h"

namespace rq {

Next cmd_find(Session& s, const Args& args) {
    if (args.size() < 2) {
        std::cerr << "ERROR: malformed command: " << std::endl;  // (sic)
        return Next::kFailed;
    }
    std::string criteria = args[1];
    for (size_t i = 2; i < args.size(); ++i) criteria += " " + args[i];

    std::string R;
    Status written;
    Status found = find_matching(s, criteria, *s.writer, R, written);
    if (!found.ok()) {
        std::cerr << found.message() << "\n";
        if (!found.error().detail.empty()) std::cerr << "  " << found.error().detail << "\n";
        std::cerr.flush();
        return Next::kFailed;
    }
    s.out() << R;
    s.out().flush();
    if (!written.ok()) {
        std::cerr << "find: ERROR: find writer emit: " << errc_text(written.code()) << std::endl;
        return Next::kFailed;
    }
    s.out() << "INFO: =============================\n"
            << "INFO: EXPRESSION=\"" << criteria << "\"\n"
            << "INFO: =============================\n";
    s.out().flush();
    return Next::kContinue;
}

}  // namespace rq
