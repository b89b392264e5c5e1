#include "reapi/calls.h"
#include "reapi/raw_op.h"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <nlohmann/json.hpp>

#include "reapi/init_options.h"
#include "session/build.h"
#include "session/operations.h"
#include "session/pools.h"
#include "utilities/idset.h"

namespace rq::reapi {

namespace {

using Json = nlohmann::json;

int errno_of(Errc code) {
    switch (code) {
    case Errc::kOk: return 0;
    case Errc::kInvalid: return EINVAL;
    case Errc::kBusy: return EBUSY;
    case Errc::kUnsatisfiable: return ENODEV;
    case Errc::kNotFound: return ENOENT;
    case Errc::kRange: return ERANGE;
    case Errc::kExists: return EEXIST;
    case Errc::kNoMemory: return ENOMEM;
    case Errc::kIo: return EIO;
    }
    return EINVAL;
}

// A malloc'd copy for the caller to free (std::bad_alloc → ENOMEM).
char* dup(const std::string& s) {
    char* p = static_cast<char*>(std::malloc(s.size() + 1));
    if (p == nullptr) throw std::bad_alloc();
    std::memcpy(p, s.c_str(), s.size() + 1);
    return p;
}

int null_argument(reapi_cli_ctx& c, const char* call) {
    return fail(c, EINVAL, std::string(call) + ": ERROR: null argument");
}

int uninitialized(reapi_cli_ctx& c, const char* call) {
    return fail(c, EINVAL, std::string(call) + ": ERROR: context not initialized");
}

std::shared_ptr<const std::string> share(reapi_cli_ctx& c, const char* text) {
    if (!c.last_text || *c.last_text != text) c.last_text = std::make_shared<const std::string>(text);
    return c.last_text;
}

void record(reapi_cli_ctx& c, Call call) { c.history.push_back(std::move(call)); }

Call make_call(Call::Kind kind, uint64_t jobid = 0, std::shared_ptr<const std::string> text = nullptr,
               bool flag = false, int status = 0, int op = 0) {
    Call call;
    call.kind = kind;
    call.jobid = jobid;
    call.text = std::move(text);
    call.flag = flag;
    call.status = status;
    call.op = op;
    return call;
}

MatchOp to_match_op(int op) {
    switch (op) {
    case MATCH_ALLOCATE_W_SATISFIABILITY: return MatchOp::kAllocateWithSatisfiability;
    case MATCH_ALLOCATE_ORELSE_RESERVE: return MatchOp::kAllocateOrElseReserve;
    case MATCH_SATISFIABILITY: return MatchOp::kSatisfiability;
    case MATCH_WITHOUT_ALLOCATING: return MatchOp::kWithoutAllocating;
    case MATCH_WITHOUT_ALLOCATING_FUTURE: return MatchOp::kWithoutAllocatingFuture;
    default: return MatchOp::kAllocate;
    }
}

bool without_allocating_op(int op) { return op == MATCH_WITHOUT_ALLOCATING || op == MATCH_WITHOUT_ALLOCATING_FUTURE; }

int match_errno(const MatchOutcome& m) {
    if (m.jobspec_error) return EINVAL;
    if (m.code == Errc::kNotFound) return ENODEV;  // the CLI's "Unsatisfiable request" too
    return errno_of(m.code);
}

// After remove_subgraph of the root: the errno stays the original's
// (EBUSY for an allocate, ENODEV for satisfiability), the message says why.
bool nothing_left(const Session& s) {
    const VertexId root = s.graph->root(s.traverser->dominant());
    return root == kNoVertex || s.graph->is_removed(root);
}

void time_match(reapi_cli_ctx& c, double seconds) {
    c.min_match = c.timed == 0 ? seconds : std::min(c.min_match, seconds);
    c.max_match = std::max(c.max_match, seconds);
    c.total_match += seconds;
    ++c.timed;
}

// How to read an R given to update_allocate / partial_cancel (§5.3).
struct RInput {
    std::string reader;
    std::string text;
    bool rfc20 = false;
    int64_t at = 0;
    int64_t duration = 0;  // 0: the longest
};

RInput read_r(const std::string& R, const std::string& fallback_reader) {
    RInput in;
    Json doc = Json::parse(R, nullptr, false);
    if (doc.is_object() && doc.contains("version") && doc["version"] == 1) {
        in.rfc20 = true;
        auto exec = doc.find("execution");
        double start = 0, end = 0;
        if (exec != doc.end() && exec->is_object()) {
            if (auto s = exec->find("starttime"); s != exec->end() && s->is_number()) start = s->get<double>();
            if (auto e = exec->find("expiration"); e != exec->end() && e->is_number()) end = e->get<double>();
        }
        in.at = static_cast<int64_t>(start);
        if (end > start) in.duration = static_cast<int64_t>(end - start);
        auto sched = doc.find("scheduling");
        if (sched != doc.end()) {
            in.reader = "jgf";
            if (sched->is_object())
                if (auto w = sched->find("writer"); w != sched->end() && w->is_string()) in.reader = w->get<std::string>();
            in.text = sched->dump();
        } else {
            in.reader = "rv1exec";
            in.text = R;
        }
        return in;
    }
    in.text = R;
    in.reader = doc.is_object() && doc.contains("graph") ? "jgf" : fallback_reader;
    return in;
}

}  // namespace

int fail(reapi_cli_ctx& c, int err, const std::string& message, bool accumulate) {
    if (accumulate) {
        c.err_msg += message;
        if (message.empty() || message.back() != '\n') c.err_msg += '\n';
    }
    c.last_error = message;
    c.last_errno = err;
    errno = err;
    return -1;
}

int initialize(reapi_cli_ctx& c, const char* rgraph, const char* options) {
    if (rgraph == nullptr || options == nullptr) return null_argument(c, "initialize");
    if (c.session) return fail(c, EINVAL, "initialize: ERROR: context already initialized");
    // Bad options are EPROTO, as the original reports them (spec/reapi.md §3).
    auto parsed = parse_init_options(options, rgraph);
    if (!parsed) return fail(c, EPROTO, parsed.message());
    auto start = std::chrono::steady_clock::now();
    auto session = std::make_unique<Session>();
    std::vector<std::string> warnings;
    Status loaded = load_session_graph(*session, *parsed, rgraph, {}, &warnings);
    if (!loaded) {
        std::string message = loaded.message();
        if (!loaded.error().detail.empty()) message += "  " + loaded.error().detail + "\n";
        return fail(c, loaded.code() == Errc::kNoMemory ? ENOMEM : EPROTO, "initialize: " + message);
    }
    Status ready = finish_session(*session);  // an unknown policy fails here
    if (!ready) return fail(c, EPROTO, "initialize: " + ready.message() + ready.error().detail);
    for (const std::string& warning : warnings) c.err_msg += "initialize: WARNING: " + warning + "\n";
    c.load_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    c.session = std::move(session);
    c.rgraph = rgraph;
    c.options = options;
    return 0;
}

int match(reapi_cli_ctx& c, int op, const char* jobspec, const uint64_t* given_id, uint64_t* jobid, bool* reserved,
          char** R, int64_t* at, double* ov) {
    if (jobspec == nullptr || reserved == nullptr || R == nullptr || at == nullptr || ov == nullptr ||
        (given_id == nullptr && jobid == nullptr))
        return null_argument(c, "match");
    // Written on entry, as the original does: a failed match reports at 0,
    // not reserved, whatever the caller's variables held.
    *at = 0;
    *reserved = false;
    *ov = 0;
    if (!c.session) return uninitialized(c, "match");
    if (!valid_match_op(op))
        return fail(c, EINVAL, "match: ERROR: invalid match op " + std::to_string(op));
    if (given_id != nullptr && *given_id == UINT64_MAX)  // the "without allocating" marker
        return fail(c, EINVAL, "match: ERROR: job id " + std::to_string(UINT64_MAX) + " is reserved");
    Session& s = *c.session;
    record(c, make_call(given_id ? Call::kMatchWithId : Call::kMatch, given_id ? *given_id : 0, share(c, jobspec),
                        false, 0, op));
    const int64_t id = given_id ? static_cast<int64_t>(*given_id) : next_match_jobid(s);
    MatchOutcome m = match_jobspec(s, to_match_op(op), jobspec, id, "");
    if (m.consumes_id && given_id == nullptr) s.next_jobid = jobid_after(s.next_jobid);
    // A failed match changes nothing but the counter (which clone copies):
    // no need to replay it.
    if (m.code != Errc::kOk) c.history.pop_back();
    if (!m.message.empty()) c.err_msg += m.message + "\n";
    *ov = m.seconds;
    const uint64_t reported = without_allocating_op(op) ? UINT64_MAX : static_cast<uint64_t>(id);
    if (m.code != Errc::kOk) {
        int err = match_errno(m);
        if (c.legacy && (err == EBUSY || err == ENODEV)) {  // flux-sched before v0.52
            *R = dup("");
            *at = 0;
            *reserved = false;
            if (jobid != nullptr) *jobid = reported;
            return 0;
        }
        std::string why = m.message.empty() ? std::string("match: ERROR: ") + std::strerror(err) : m.message;
        if (m.message.empty() && nothing_left(s)) why = "match: ERROR: no resources left (the graph's root was removed)";
        return fail(c, err, why, false);
    }
    *R = dup(m.R);
    *at = m.result.at;
    // The original reports a future without-allocating match as at > 0 and
    // not reserved: nothing was reserved.
    *reserved = m.result.at != 0 && !without_allocating_op(op);
    if (jobid != nullptr) *jobid = reported;
    time_match(c, m.seconds);
    return 0;
}

int match_all(reapi_cli_ctx& c, int op, const char* const* jobspecs, size_t n, uint64_t* jobids, bool* reserved,
              char** R, int64_t* at, double* ov, size_t* failed_index) {
    if (jobspecs == nullptr) return null_argument(c, "match_all");
    if (n == 0) return fail(c, EINVAL, "match_all: ERROR: no jobspecs");
    for (size_t i = 0; i < n; ++i)
        if (jobspecs[i] == nullptr) return null_argument(c, "match_all");
    if (!c.session) return uninitialized(c, "match_all");
    if (!valid_match_op(op))
        return fail(c, EINVAL, "match_all: ERROR: invalid match op " + std::to_string(op));
    Session& s = *c.session;
    Call call = make_call(Call::kMatchAll, 0, nullptr, false, 0, op);
    for (size_t i = 0; i < n; ++i) call.texts.push_back(share(c, jobspecs[i]));
    record(c, std::move(call));

    auto start = std::chrono::steady_clock::now();
    const int64_t saved_next = s.next_jobid;
    std::vector<MatchOutcome> done;
    std::vector<int64_t> ids;
    for (size_t i = 0; i < n; ++i) {
        const int64_t id = next_match_jobid(s);
        MatchOutcome m = match_jobspec(s, to_match_op(op), jobspecs[i], id, "");
        if (m.consumes_id) s.next_jobid = jobid_after(s.next_jobid);
        if (!m.message.empty()) c.err_msg += m.message + "\n";
        if (m.code != Errc::kOk) {
            // All or nothing: release the ones before, forget their ids.
            for (int64_t earlier : ids)
                if (s.is_live(earlier)) {
                    (void)cancel_job(s, earlier);
                    s.jobs.erase(earlier);
                }
            s.next_jobid = saved_next;
            if (failed_index != nullptr) *failed_index = i;
            int err = match_errno(m);
            std::string why = "match_all: ERROR: jobspec " + std::to_string(i) + ": " +
                              (m.message.empty() ? std::string(std::strerror(err)) : m.message);
            return fail(c, err, why, false);
        }
        ids.push_back(id);
        done.push_back(std::move(m));
    }
    std::vector<char*> texts;
    try {
        if (R != nullptr)
            for (auto& m : done) texts.push_back(dup(m.R));
    } catch (...) {
        for (char* t : texts) std::free(t);
        throw;
    }
    for (size_t i = 0; i < n; ++i) {
        if (jobids != nullptr) jobids[i] = without_allocating_op(op) ? UINT64_MAX : static_cast<uint64_t>(ids[i]);
        if (reserved != nullptr) reserved[i] = done[i].result.at != 0;
        if (at != nullptr) at[i] = done[i].result.at;
        if (R != nullptr) R[i] = texts[i];
        time_match(c, done[i].seconds);
    }
    if (ov != nullptr) *ov = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return 0;
}

int update_allocate(reapi_cli_ctx& c, uint64_t jobid, const char* R, int64_t* at, double* ov, const char** R_out) {
    if (R == nullptr || at == nullptr || ov == nullptr || R_out == nullptr) return null_argument(c, "update_allocate");
    *at = 0;
    *ov = 0;
    if (!c.session) return uninitialized(c, "update_allocate");
    Session& s = *c.session;
    RInput in = read_r(R, s.options.load_format);
    if (in.reader != "jgf" && in.reader != "jgf_shorthand" && in.reader != "rv1exec")
        return fail(c, EINVAL, "update_allocate: ERROR: can't read R with the " + in.reader + " reader");
    const int64_t id = static_cast<int64_t>(jobid);
    if (s.is_live(id)) return fail(c, EEXIST, "update_allocate: ERROR: existing job " + std::to_string(jobid));
    if (in.at < 0 || in.at >= kGraphEnd)
        return fail(c, EINVAL, "update_allocate: ERROR: invalid starttime " + std::to_string(in.at));
    int64_t duration = in.duration > 0 ? in.duration : kGraphEnd - in.at;
    record(c, make_call(Call::kUpdate, jobid, share(c, R)));
    const int64_t counter = s.next_jobid;
    UpdateOutcome u = update_job(s, in.reader, in.text, id, in.at, duration, "");
    s.next_jobid = counter;  // (the CLI's `update` moves it; the library's counter is its own)
    std::string messages;
    for (const auto& line : u.messages) messages += "update_allocate: " + line + "\n";
    c.err_msg += messages;
    *ov = u.seconds;
    if (!u.ok) return fail(c, u.code == Errc::kOk ? EINVAL : errno_of(u.code), messages, false);
    *R_out = dup(u.R);
    *at = in.at;
    // The original records an allocation made elsewhere as ALLOCATED, also
    // when it starts later (not reserved here: it was allocated there).
    s.jobs[id].state = JobState::kAllocated;
    time_match(c, u.seconds);
    return 0;
}

int add_subgraph(reapi_cli_ctx& c, const char* jgf) {
    if (jgf == nullptr) return null_argument(c, "add_subgraph");
    if (!c.session) return uninitialized(c, "add_subgraph");
    record(c, make_call(Call::kAddSubgraph, 0, share(c, jgf)));
    Status attached = attach_subgraph(*c.session, jgf);
    if (attached.ok()) return 0;
    int err = attached.code() == Errc::kNoMemory ? ENOMEM : attached.code() == Errc::kExists ? EEXIST : EINVAL;
    return fail(c, err, "add_subgraph: ERROR: " + attached.message());
}

int remove_subgraph(reapi_cli_ctx& c, const char* path) {
    if (path == nullptr) return null_argument(c, "remove_subgraph");
    if (!c.session) return uninitialized(c, "remove_subgraph");
    record(c, make_call(Call::kRemoveSubgraph, 0, share(c, path)));
    Status removed = rq::remove_subgraph(*c.session, path);
    if (removed.ok()) return 0;
    return fail(c, errno_of(removed.code()), "remove_subgraph: ERROR: " + removed.message());
}

int cancel(reapi_cli_ctx& c, uint64_t jobid, bool noent_ok) {
    if (!c.session) return uninitialized(c, "cancel");
    record(c, make_call(Call::kCancel, jobid, nullptr, noent_ok));
    Status done = cancel_job(*c.session, static_cast<int64_t>(jobid));
    if (done.ok() || (done.code() == Errc::kNotFound && noent_ok)) return 0;
    return fail(c, errno_of(done.code()), done.message());
}

int partial_cancel(reapi_cli_ctx& c, uint64_t jobid, const char* R, bool noent_ok, bool* full_removal) {
    if (R == nullptr || full_removal == nullptr) return null_argument(c, "partial_cancel");
    *full_removal = false;
    if (!c.session) return uninitialized(c, "partial_cancel");
    Session& s = *c.session;
    const int64_t id = static_cast<int64_t>(jobid);
    if (!s.is_live(id)) {
        if (noent_ok) {
            *full_removal = true;
            return 0;
        }
        return fail(c, ENOENT, "partial_cancel: ERROR: nonexistent job " + std::to_string(jobid));
    }
    RInput in = read_r(R, "rv1exec");
    if (in.reader != "jgf" && in.reader != "rv1exec") in.reader = "jgf";
    record(c, make_call(Call::kPartialCancel, jobid, share(c, R), noent_ok));
    PartialCancelOutcome p = partial_cancel_job(s, id, in.reader, in.text);
    if (!p.status.ok()) {
        std::string why = "partial_cancel: " + p.status.message() + "\n" + p.stdout_text;
        return fail(c, p.ran ? errno_of(p.status.code()) : ENOENT, why);
    }
    *full_removal = p.full_removal;
    return 0;
}

int info(reapi_cli_ctx& c, uint64_t jobid, char** mode, bool* reserved, int64_t* at, double* ov) {
    if (mode == nullptr || reserved == nullptr || at == nullptr || ov == nullptr) return null_argument(c, "info");
    *reserved = false;
    *at = 0;
    *ov = 0;
    if (!c.session) return uninitialized(c, "info");
    auto found = c.session->jobs.find(static_cast<int64_t>(jobid));
    if (!found) return fail(c, ENOENT, "info: ERROR: nonexistent job " + std::to_string(jobid));
    const JobRecord& job = *found;
    const char* name = job.state == JobState::kAllocated ? "ALLOCATED"
                       : job.state == JobState::kReserved ? "RESERVED"
                                                          : "CANCELED";
    *mode = dup(name);
    *reserved = job.state == JobState::kReserved;
    *at = job.scheduled_at;
    *ov = job.overhead;
    return 0;
}

int find(reapi_cli_ctx& c, const char* criteria, const char* format, char** R) {
    if (criteria == nullptr || R == nullptr) return null_argument(c, "find");
    if (!c.session) return uninitialized(c, "find");
    Session& s = *c.session;
    std::unique_ptr<MatchWriter> own;
    if (format != nullptr) {
        auto made = make_named_writer(format);
        if (!made) return fail(c, EINVAL, "find: ERROR: unknown format " + std::string(format));
        own = std::move(*made);
    }
    std::string text;
    Status written;
    Status found = find_matching(s, criteria, own ? *own : *s.writer, text, written);
    if (!found) {
        std::string why = "find: ERROR: " + found.message();
        if (!found.error().detail.empty()) why += ": " + found.error().detail;
        return fail(c, EINVAL, why);
    }
    if (!written.ok() || text.empty()) {  // nothing matched
        *R = nullptr;
        return 0;
    }
    nlohmann::ordered_json doc = nlohmann::ordered_json::parse(text, nullptr, false);
    *R = dup(doc.is_discarded() ? text : doc.dump());  // compact, like the original's json_dumps
    return 0;
}

int stat(reapi_cli_ctx& c, int64_t* V, int64_t* E, int64_t* J, double* load, double* min, double* max,
         double* avg) {
    if (!V || !E || !J || !load || !min || !max || !avg) return null_argument(c, "stat");
    *V = *E = *J = 0;
    *load = *min = *max = *avg = 0;
    if (!c.session) return uninitialized(c, "stat");
    *V = static_cast<int64_t>(c.session->graph->num_vertices());
    *E = static_cast<int64_t>(c.session->graph->num_edges());
    *J = static_cast<int64_t>(c.session->jobs.size());
    *load = c.load_seconds;
    *min = c.min_match;
    *max = c.max_match;
    *avg = c.timed == 0 ? 0 : c.total_match / static_cast<double>(c.timed);
    return 0;
}

int set_status(reapi_cli_ctx& c, const char* path, int status) {
    if (path == nullptr) return null_argument(c, "set_status");
    if (!c.session) return uninitialized(c, "set_status");
    if (status != RESOURCE_UP && status != RESOURCE_DOWN)
        return fail(c, EINVAL, "set_status: ERROR: invalid status " + std::to_string(status));
    record(c, make_call(Call::kSetStatus, 0, share(c, path), false, status));
    Status set = set_path_status(*c.session, path, status == RESOURCE_UP);
    if (!set) return fail(c, EINVAL, "set_status: ERROR: " + set.message());
    return 0;
}

int get_status(reapi_cli_ctx& c, const char* path, resource_status_t* status) {
    if (path == nullptr || status == nullptr) return null_argument(c, "get_status");
    if (!c.session) return uninitialized(c, "get_status");
    auto vertices = c.session->graph->at_path(path);
    if (vertices.empty())
        return fail(c, EINVAL, "get_status: ERROR: Could not find path " + std::string(path) + " in resource graph.");
    *status = c.session->graph->is_up(vertices.front()) ? RESOURCE_UP : RESOURCE_DOWN;
    return 0;
}

namespace {

// The top vertex of a rank (its node, normally): the shortest path.
VertexId rank_root(const ResourceGraph& g, SubsystemId dominant, const std::vector<VertexId>& vertices) {
    VertexId best = kNoVertex;
    for (VertexId v : vertices)
        if (best == kNoVertex || g.path(v, dominant).size() < g.path(best, dominant).size()) best = v;
    return best;
}

Result<std::vector<int64_t>> parse_ranks(const ResourceGraph& g, const std::string& text) {
    if (text == "all") {
        std::vector<int64_t> all;
        for (auto& [rank, vertices] : g.by_rank()) all.push_back(rank);
        return all;
    }
    auto ranks = decode_idset(text);
    if (!ranks || ranks->empty()) return make_error(Errc::kInvalid, "invalid idset '" + text + "'");
    return ranks;
}

}  // namespace

int set_rank_status(reapi_cli_ctx& c, const char* ranks, int status) {
    if (ranks == nullptr) return null_argument(c, "set_rank_status");
    if (!c.session) return uninitialized(c, "set_rank_status");
    if (status != RESOURCE_UP && status != RESOURCE_DOWN)
        return fail(c, EINVAL, "set_rank_status: ERROR: invalid status " + std::to_string(status));
    Session& s = *c.session;
    auto parsed = parse_ranks(*s.graph, ranks);
    if (!parsed) return fail(c, EINVAL, "set_rank_status: ERROR: " + parsed.message());
    record(c, make_call(Call::kSetRankStatus, 0, share(c, ranks), false, status));
    SubsystemId dominant = s.traverser->dominant();
    for (int64_t rank : *parsed) {
        auto it = s.graph->by_rank().find(rank);
        if (it == s.graph->by_rank().end()) continue;  // unknown ranks are ignored
        VertexId top = rank_root(*s.graph, dominant, it->second);
        if (top == kNoVertex) continue;
        (void)set_path_status(s, std::string(s.graph->path(top, dominant)), status == RESOURCE_UP);
    }
    return 0;
}

int get_rank_status(reapi_cli_ctx& c, const char* rank, resource_status_t* status) {
    if (rank == nullptr || status == nullptr) return null_argument(c, "get_rank_status");
    if (!c.session) return uninitialized(c, "get_rank_status");
    const ResourceGraph& g = *c.session->graph;
    auto parsed = decode_idset(rank);
    if (!parsed || parsed->size() != 1 || std::string(rank) == "all")
        return fail(c, EINVAL, "get_rank_status: ERROR: '" + std::string(rank) + "' is not exactly one rank");
    auto it = g.by_rank().find(parsed->front());
    VertexId top = it == g.by_rank().end() ? kNoVertex : rank_root(g, c.session->traverser->dominant(), it->second);
    if (top == kNoVertex)  // EINVAL, as the original
        return fail(c, EINVAL, "get_rank_status: ERROR: no resource of rank " + std::string(rank));
    *status = g.is_up(top) ? RESOURCE_UP : RESOURCE_DOWN;
    return 0;
}

}  // namespace rq::reapi
