// `save FILE [changes]` (RFC 16 Save): the REPL side of state::save.
#include <iostream>

#include "cli/command_table.h"
#include "state/session_state.h"

namespace rq {

Next cmd_save(Session& s, const Args& args) {
    bool changes = args.size() == 3 && args[2] == "changes";
    if (args.size() != 2 && !changes) return malformed();
    Status saved = state::save(s, args[1], changes);
    if (!saved) {
        std::cerr << "ERROR: save: " << saved.message() << std::endl;
        return Next::kFailed;
    }
    s.out() << "INFO: saved " << (changes ? "the changes" : "the whole session") << " to " << args[1] << "\n";
    return Next::kContinue;
}

}  // namespace rq
