#include "session/options.h"

#include <boost/algorithm/string/case_conv.hpp>
#include <map>

namespace rq {

Result<std::vector<std::string>> resolve_subsystems(const std::string& selector) {
    static const std::map<std::string, std::vector<std::string>> table = {
        {"CA", {"containment"}},
        {"IBA", {"ibnet"}},
        {"IBBA", {"ibnetbw"}},
        {"PA", {"power"}},
        {"PFS1BA", {"pfs1bw"}},
        {"VA", {"virtual1"}},
        {"C+IBA", {"containment", "ibnet"}},
        {"C+IBBA", {"containment", "ibnetbw"}},
        {"C+PA", {"containment", "power"}},
        {"C+PFS1BA", {"containment", "pfs1bw"}},
        {"IB+IBBA", {"ibnet", "ibnetbw"}},
        {"C+P+IBA", {"containment", "power", "ibnet"}},
        {"V+PFS1BA", {"virtual1", "pfs1bw"}},
        {"ALL", {"containment", "ibnet", "ibnetbw", "pfs1bw", "power"}},
    };
    for (auto& [key, subsystems] : table)
        if (selector == key || selector == boost::algorithm::to_lower_copy(key)) return subsystems;
    std::string valid;
    for (auto& [key, subsystems] : table) valid += (valid.empty() ? "" : ", ") + key;
    // The reference's line, then the valid values on a line of their own.
    return make_error(Errc::kInvalid,
                      "[ERROR] unknown selector for --match-subsystems: " + selector + "\n  valid: " + valid);
}

}  // namespace rq
