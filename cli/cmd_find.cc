#include <iostream>

#include "cli/command_table.h"

namespace rq {

Next cmd_find(Session&, const Args&) {
    std::cerr << "ERROR: find is not available yet" << std::endl;
    return Next::kContinue;
}

}  // namespace rq
