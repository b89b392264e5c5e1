#include "session/build.h"

#include <cstdlib>

#include "pools/env_writer.h"
#include "pools/pool_graph.h"
#include "pools/pool_load.h"
#include "resource/loader.h"

namespace rq {

Status load_session_graph(Session& session, const Options& options, const std::string& source_text,
                          const std::function<void(size_t, size_t)>& progress, std::vector<std::string>* warnings) {
    session.options = options;
    LoadRequest request;
    request.format = options.load_format;
    request.path = options.load_file;
    request.allowlist = options.load_allowlist;
    request.local_machine = options.load_local_machine;
    request.resources = options.pool_resources;
    request.text = source_text;
    request.progress = progress;
    session.graph = std::make_unique<ResourceGraph>();
    Status loaded = load_graph(request, *session.graph, warnings);
    // The reference's texts say neither where nor what: `detail` adds it
    // (printed on its own line after the start-up error).
    if (!loaded)
        return make_error(Errc::kInvalid,
                          "resource_query_t: ERROR: " + loaded.message() + "\nERROR: error generating resources\n",
                          loaded.error().detail);
    return Status();
}

Status finish_session(Session& session) {
    const Options& options = session.options;
    session.store = std::make_unique<ScheduleStore>();
    auto policy = make_policy(options.match_policy);
    if (!policy)
        return make_error(Errc::kInvalid, "resource_query_t: ERROR: can't create matcher\n", policy.message());
    session.policy = std::move(*policy);
    TraverserConfig config;
    for (auto& name : options.subsystems) config.subsystems.push_back(session.graph->subsystems().find(name));
    config.prune_filters = options.prune_filters;
    if (pools::is_pool_format(options.load_format)) config.prune_filters += pools::pool_prune_filters(*session.graph);
    config.flexible = options.traverser == "flexible";
    // The reference's exhaustive selection walk: on demand (debug, test
    // oracle), and with -e, whose visit counters are those of that walk,
    // unless RQ_ORDERED_VISIT_COUNTS asks for the ordered walk's counters
    // (benchmarks: -e then times the walk users get without -e).
    auto flag = [](const char* name) {
        const char* value = std::getenv(name);
        return value != nullptr && *value != '\0' && *value != '0';
    };
    config.exhaustive_select = flag("RQ_EXHAUSTIVE_SELECT") ||
                               (options.elapse_time && !flag("RQ_ORDERED_VISIT_COUNTS"));
    auto traverser = DfuTraverser::create(*session.graph, *session.store, *session.policy, config);
    if (!traverser)
        return make_error(Errc::kInvalid, "initialize_matchers_and_traversers: ERROR: " + traverser.message() + "\n",
                          traverser.error().detail);
    session.traverser = std::move(*traverser);
    auto writer = pools::make_pool_writer(options.match_format);
    if (!writer) return make_error(Errc::kInvalid, "resource_query_t: ERROR: " + writer.message() + "\n");
    session.writer = std::move(*writer);
    // A `match` under -F env prints the loaded pool format's variables.
    if (auto* env = dynamic_cast<pools::EnvWriter*>(session.writer.get()))
        env->set_dialect(pools::dialect_of_format(options.load_format));
    return Status();
}

void clear_session_content(Session& s) {
    s.queue.reset();
    s.queue_log.reset();
    s.pool_matcher.reset();
    s.traverser.reset();
    s.writer.reset();
    s.policy.reset();
    s.store.reset();
    s.graph.reset();
    s.jobs = JobTable();
    s.next_jobid = 1;
    Session blank;
    s.min_match_time = blank.min_match_time;
    s.max_match_time = blank.max_match_time;
    s.total_match_time = blank.total_match_time;
    s.timed_matches = blank.timed_matches;
}

}  // namespace rq
