#include <iostream>

#include "cli/command_table.h"

namespace rq {

namespace {
Next not_yet(const char* what) {
    std::cerr << "ERROR: " << what << " is not available yet" << std::endl;
    return Next::kContinue;
}
}  // namespace

Next cmd_update(Session&, const Args&) { return not_yet("update"); }
Next cmd_attach(Session&, const Args&) { return not_yet("attach"); }
Next cmd_remove(Session&, const Args&) { return not_yet("remove"); }
Next cmd_partial_cancel(Session&, const Args&) { return not_yet("partial-cancel"); }

}  // namespace rq
