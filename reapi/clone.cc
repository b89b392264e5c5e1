// reapi_cli_clone: a fresh context initialized from the same graph and
// options, then every state-changing call of the original replayed in
// order. Matching is deterministic, so the copy holds the same graph,
// planners, jobs and statuses; the job records' times are copied over.
#include <cstdlib>

#include "reapi/calls.h"

namespace rq::reapi {

namespace {

int replay(reapi_cli_ctx& copy, const Call& call) {
    uint64_t jobid = 0;
    bool flag = false;
    char* R = nullptr;
    int64_t at = 0;
    double ov = 0;
    int rc = 0;
    const char* text = call.text ? call.text->c_str() : nullptr;
    switch (call.kind) {
    case Call::kMatch:
    case Call::kMatchWithId:
        rc = match(copy, call.op, text, call.kind == Call::kMatchWithId ? &call.jobid : nullptr, &jobid, &flag, &R,
                   &at, &ov);
        std::free(R);
        return rc;
    case Call::kMatchAll: {
        std::vector<const char*> texts;
        for (auto& t : call.texts) texts.push_back(t->c_str());
        std::vector<char*> Rs(texts.size(), nullptr);
        rc = match_all(copy, call.op, texts.data(), texts.size(), nullptr, nullptr, Rs.data(), nullptr, nullptr,
                       nullptr);
        for (char* r : Rs) std::free(r);
        return rc;
    }
    case Call::kUpdate: {
        const char* out = nullptr;
        rc = update_allocate(copy, call.jobid, text, &at, &ov, &out);
        std::free(const_cast<char*>(out));
        return rc;
    }
    case Call::kAddSubgraph: return add_subgraph(copy, text);
    case Call::kRemoveSubgraph: return remove_subgraph(copy, text);
    case Call::kCancel: return cancel(copy, call.jobid, call.flag);
    case Call::kPartialCancel: return partial_cancel(copy, call.jobid, text, call.flag, &flag);
    case Call::kSetStatus: return set_status(copy, text, call.status);
    case Call::kSetRankStatus: return set_rank_status(copy, text, call.status);
    }
    return 0;
}

}  // namespace

int clone(reapi_cli_ctx& c, reapi_cli_ctx*& out) {
    if (!c.session) return fail(c, EINVAL, "clone: ERROR: context not initialized");
    auto copy = std::make_unique<reapi_cli_ctx>();
    copy->legacy = c.legacy;
    if (initialize(*copy, c.rgraph.c_str(), c.options.c_str()) != 0)
        return fail(c, EPROTO, "clone: ERROR: " + copy->last_error);
    for (const Call& call : c.history) (void)replay(*copy, call);  // failures replay as failures
    copy->session->next_jobid = c.session->next_jobid;
    for (auto& [id, job] : c.session->jobs) copy->session->jobs.set_overhead(id, job.overhead);
    copy->load_seconds = c.load_seconds;
    copy->min_match = c.min_match;
    copy->max_match = c.max_match;
    copy->total_match = c.total_match;
    copy->timed = c.timed;
    copy->err_msg.clear();
    copy->last_error.clear();
    copy->last_errno = 0;
    out = copy.release();
    return 0;
}

}  // namespace rq::reapi
