#include "reapi/init_options.h"

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>

#include "resource/match_writer.h"

namespace rq::reapi {

namespace {

using Json = nlohmann::json;

Status wrong_type(const std::string& key, const char* want) {
    return make_error(Errc::kInvalid, "initialize: ERROR: option " + key + " must be " + want);
}

Status get_string(const Json& o, const std::string& key, std::string& out) {
    auto it = o.find(key);
    if (it == o.end()) return Status();
    if (!it->is_string()) return wrong_type(key, "a string");
    out = it->get<std::string>();
    return Status();
}

bool looks_like_jgf(const std::string& text) {
    size_t i = text.find_first_not_of(" \t\r\n");
    if (i == std::string::npos || text[i] != '{') return false;
    Json doc = Json::parse(text, nullptr, false);
    return doc.is_object() && doc.contains("graph");
}

}  // namespace

Result<Options> parse_init_options(const std::string& json_text, const std::string& rgraph) {
    Json o = Json::parse(json_text, nullptr, false);
    if (o.is_discarded() || !o.is_object())
        return make_error(Errc::kInvalid, "initialize: ERROR: options are not a JSON object: " + json_text);
    Options options;
    options.load_file = "rgraph";
    options.match_format = "jgf";
    std::string format;
    std::string matcher = "CA";
    for (auto [key, target] : {std::pair<const char*, std::string*>{"load_format", &format},
                               {"load_allowlist", &options.load_allowlist},
                               {"matcher_name", &matcher},
                               {"matcher_policy", &options.match_policy},
                               {"traverser_policy", &options.traverser},
                               {"match_format", &options.match_format},
                               {"prune_filters", &options.prune_filters}}) {
        Status got = get_string(o, key, *target);
        if (!got) return got.error();
    }
    if (auto it = o.find("reserve_vtx_vec"); it != o.end() && (!it->is_number_integer() || it->get<int64_t>() < 0))
        return wrong_type("reserve_vtx_vec", "an integer from 0 (a capacity hint)").error();
    if (auto it = o.find("elapse_time"); it != o.end() && !it->is_boolean())
        return wrong_type("elapse_time", "true or false").error();

    // A JGF given with the grug default is read as JGF (the original fails).
    if (format.empty()) format = looks_like_jgf(rgraph) ? "jgf" : "grug";
    static const char* const kFormats[] = {"grug", "jgf", "jgf_shorthand", "rv1exec", "rv1exec_force", "hwloc"};
    if (std::find_if(std::begin(kFormats), std::end(kFormats), [&](const char* f) { return format == f; }) ==
        std::end(kFormats))
        return make_error(Errc::kInvalid, "initialize: ERROR: unknown load_format " + format);
    options.load_format = format;

    std::transform(matcher.begin(), matcher.end(), matcher.begin(), [](unsigned char c) { return std::toupper(c); });
    auto subsystems = resolve_subsystems(matcher);
    if (!subsystems) return make_error(Errc::kInvalid, "initialize: ERROR: unknown matcher_name " + matcher);
    options.match_subsystems = matcher;
    options.subsystems = *subsystems;

    if (options.traverser != "simple" && options.traverser != "flexible")
        return make_error(Errc::kInvalid, "initialize: ERROR: unknown traverser_policy " + options.traverser);
    if (!make_writer(options.match_format).ok()) options.match_format = "simple";
    options.elapse_time = false;  // accepted, no effect
    return options;
}

}  // namespace rq::reapi
