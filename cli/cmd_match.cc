#include <iostream>

#include "cli/command_table.h"

namespace rq {

Next cmd_match(Session&, const Args&) {
    std::cerr << "ERROR: match is not available yet" << std::endl;
    return Next::kContinue;
}
Next cmd_multi_match(Session&, const Args&) {
    std::cerr << "ERROR: multi-match is not available yet" << std::endl;
    return Next::kContinue;
}

}  // namespace rq
