#include <iostream>

#include "cli/command_table.h"

namespace rq {

Next cmd_cancel(Session&, const Args&) {
    std::cerr << "ERROR: cancel is not available yet" << std::endl;
    return Next::kContinue;
}
Next cmd_list(Session&, const Args&) { return Next::kContinue; }
Next cmd_info(Session&, const Args&) { return Next::kContinue; }
Next cmd_stat(Session&, const Args&) { return Next::kContinue; }

}  // namespace rq
