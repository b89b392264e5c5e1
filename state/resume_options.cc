#include "state/resume_options.h"

#include <filesystem>
#include <functional>
#include <vector>

namespace rq::state {

namespace {

// One setting that shapes the saved session: its option, and its value
// as text.
struct Setting {
    const char* option;
    const char* long_name;  // as Options::given records it
    std::function<std::string(const Options&)> value;
};

std::string joined(const std::vector<std::string>& items, const char* separator) {
    std::string out;
    for (auto& item : items) out += (out.empty() ? "" : separator) + item;
    return out;
}

const std::vector<Setting>& shaping_settings() {
    static const std::vector<Setting> settings = {
        {"-W", "load-allowlist", [](const Options& o) { return o.load_allowlist; }},
        {"--resource", "resource", [](const Options& o) { return joined(o.pool_resources, " --resource "); }},
        {"-S", "match-subsystems", [](const Options& o) { return o.match_subsystems; }},
        {"-P", "match-policy", [](const Options& o) { return o.match_policy; }},
        {"-T", "traverser-policy", [](const Options& o) { return o.traverser; }},
        {"-p", "prune-filters", [](const Options& o) { return o.prune_filters; }},
        {"--queue-policy", "queue-policy", [](const Options& o) { return o.queue_policy; }},
        {"--queue-depth", "queue-depth", [](const Options& o) { return std::to_string(o.queue_depth); }},
        {"--reservation-depth", "reservation-depth", [](const Options& o) { return std::to_string(o.reservation_depth); }},
        {"-Q", "queues", [](const Options& o) { return o.queues_file; }},
    };
    return settings;
}

Error conflict(const std::string& path, const std::string& option, const std::string& given,
               const std::string& saved) {
    return make_error(Errc::kInvalid, path + ": saved with " + option + " " + (saved.empty() ? "(none)" : saved) +
                                          "; " + option + " " + given +
                                          " cannot change a saved session (leave it out to resume)");
}

bool same_file(const std::string& a, const std::string& b) {
    if (a == b) return true;
    std::error_code ec;
    return std::filesystem::equivalent(a, b, ec) && !ec;
}

// Without -L the front end names the default recipe where it found it
// (docs/install.md: PREFIX/.../conf/default): that is not a -L given.
bool load_file_given(const Options& given) {
    const std::string fallback = Options().load_file;
    const std::string& file = given.load_file;
    if (file == fallback) return false;
    return !(file.size() > fallback.size() && file.compare(file.size() - fallback.size(), fallback.size(), fallback) == 0 &&
             file[file.size() - fallback.size() - 1] == '/');
}

// -f and -L: a resume with -f db -L names the state file itself; with
// --state they name the description the session started from.
Status check_source(const Options& given, const Options& saved, const std::string& path, bool state_file) {
    const Options defaults;
    if (!state_file) {
        if (given.load_format != "db" && given.load_format != defaults.load_format)
            return make_error(Errc::kInvalid, path + ": a resource-query state file, not " + given.load_format +
                                                  " input (resume it with -f db, or without -f)");
        return ok_status();
    }
    bool format_given = given.was_given("load-format") || given.load_format != defaults.load_format;
    if (format_given && given.load_format != saved.load_format)
        return conflict(path, "-f", given.load_format, saved.load_format);
    if ((given.was_given("load-file") || load_file_given(given)) && !same_file(given.load_file, saved.load_file))
        return conflict(path, "-L", given.load_file, saved.load_file);
    return ok_status();
}

}  // namespace

Result<Options> resume_options(const Options& given, const Options& saved, const std::string& path,
                               bool state_file) {
    RQ_TRY(check_source(given, saved, path, state_file));
    const Options defaults;
    for (const Setting& s : shaping_settings()) {
        std::string value = s.value(given);
        bool given_here = given.was_given(s.long_name) || value != s.value(defaults);
        if (given_here && value != s.value(saved)) return conflict(path, s.option, value, s.value(saved));
    }
    Options o = saved;
    if (given.was_given("match-format") || given.match_format != defaults.match_format) o.match_format = given.match_format;
    o.test_output = given.test_output;
    o.elapse_time = given.elapse_time;
    o.disable_prompt = given.disable_prompt;
    o.graph_format = given.graph_format;
    o.graph_output = given.graph_output;
    o.state_file = given.state_file;
    // How this run talks and fails is this run's choice too.
    o.json = given.json;
    o.fail_fast = given.fail_fast;
    o.no_history = given.no_history;
    o.events_json = given.events_json;
    return o;
}

}  // namespace rq::state
