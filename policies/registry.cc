// The policy registry: -P names and what they build (spec/policies.md §2).
// A new policy is one file with a MatchPolicy subclass plus one line here.
#include <functional>
#include <map>

#include "policies/locality.h"
#include "policies/multilevel.h"
#include "policies/variation.h"

namespace rq {

namespace {

std::unique_ptr<MatchPolicy> multilevel(const std::string& custom) {
    return std::make_unique<MultilevelPolicy>(*parse_custom_policy(custom));
}

using Factory = std::function<std::unique_ptr<MatchPolicy>()>;

const std::map<std::string, Factory>& registry() {
    static const std::map<std::string, Factory> table = {
        {"first", [] { return multilevel("policy=high node_centric=true stop_on_1_matches=true"); }},
        {"firstnodex",
         [] { return multilevel("policy=high node_centric=true node_exclusive=true stop_on_1_matches=true"); }},
        {"high", [] { return multilevel("policy=high"); }},
        {"low", [] { return multilevel("policy=low"); }},
        {"hinode", [] { return multilevel("policy=high node_centric=true"); }},
        {"lonode", [] { return multilevel("policy=low node_centric=true"); }},
        {"hinodex", [] { return multilevel("policy=high node_centric=true node_exclusive=true"); }},
        {"lonodex", [] { return multilevel("policy=low node_centric=true node_exclusive=true"); }},
        {"locality", [] { return std::make_unique<LocalityPolicy>(); }},
        {"variation", [] { return std::make_unique<VariationPolicy>(); }},
    };
    return table;
}

}  // namespace

Result<std::unique_ptr<MatchPolicy>> make_policy(const std::string& spec) {
    auto named = registry().find(spec);
    if (named != registry().end()) return named->second();
    auto config = parse_custom_policy(spec);
    if (!config) {
        if (spec.find('=') != std::string::npos) return config.error();
        std::string names;
        for (auto& [name, factory] : registry()) names += (names.empty() ? "" : ", ") + name;
        return make_error(Errc::kInvalid, "-P \"" + spec + "\": unknown policy (valid: " + names +
                                              ", or key=value settings such as \"policy=high node_centric=true\")");
    }
    return std::unique_ptr<MatchPolicy>(std::make_unique<MultilevelPolicy>(*config));
}

}  // namespace rq
