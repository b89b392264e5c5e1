// Resuming the simulated queue from its rows (state/queue_rows.h): reads
// them back, checks each row's digest and their sum, and rebuilds the
// simulator as the saved session had it.
#include <map>

#include "pools/request.h"
#include "queue/queue_set.h"
#include "state/digest.h"
#include "state/queue_rows.h"
#include "state/row_types.h"

namespace rq::state {

namespace {

using queue::QueueJob;
using rows_detail::corrupt_rows;
using rows_detail::numbers;

bool decode_fields(const std::string& text, std::vector<std::string>& out) {
    size_t at = 0;
    while (at < text.size()) {
        size_t colon = text.find(':', at);
        if (colon == std::string::npos || colon == at || colon - at > 9) return false;
        size_t n = std::strtoull(text.substr(at, colon - at).c_str(), nullptr, 10);
        if (n > text.size() - colon - 1) return false;
        out.push_back(text.substr(colon + 1, n));
        at = colon + 1 + n;
    }
    return true;
}

// One job's row and source, back to a QueueJob.
Result<QueueJob> job_of(Statement& r, const std::string& source, const Session& s) {
    QueueJob j;
    j.id = r.integer(0);
    j.name = r.text(1);
    j.queue = r.text(2);
    j.priority = static_cast<int>(r.integer(3));
    j.submit = r.integer(4);
    j.seq = static_cast<uint64_t>(r.integer(5));
    j.estimate = r.integer(6);
    j.runtime = r.integer(7);
    j.size = r.integer(8);
    int64_t state = r.integer(9);
    j.reserved_at = r.integer(10);
    j.span_end = r.integer(12);
    j.start = r.integer(13);
    j.end = r.integer(14);
    j.reason = r.text(15);
    j.considered_in = static_cast<uint64_t>(r.integer(16));
    auto bad = [](const std::string& what) { return make_error(Errc::kInvalid, what); };
    if (state < 0 || state > 2) return bad("an unknown job state " + std::to_string(state));
    j.state = static_cast<queue::QueueJobState>(state);
    if (j.priority < 1 || j.priority > 10) return bad("priority " + std::to_string(j.priority) + " is not 1 to 10");
    if (j.estimate < 1 || j.runtime < 0) return bad("a requested time below 1 or a negative run time");
    for (int64_t v : numbers(r.text(11))) {
        if (v < 0 || static_cast<size_t>(v) >= s.graph->num_vertices()) return bad("holds vertex " + std::to_string(v) + " the graph does not have");
        j.held.push_back(static_cast<VertexId>(v));
    }
    std::vector<std::string> rm;
    if (!decode_fields(r.text(17), rm) || rm.size() % 2 != 0) return bad("bad resource-manager needs");
    for (size_t i = 0; i < rm.size(); i += 2) j.rm[rm[i]] = std::strtoll(rm[i + 1].c_str(), nullptr, 10);
    j.source = std::make_shared<const std::string>(source);
    if (source.rfind("request ", 0) == 0) {
        auto request = pools::parse_request_text(source.substr(8), pools::Dialect::kHq);
        if (!request) return bad("its pool request: " + request.message());
        j.pool = std::make_shared<const pools::Request>(std::move(*request));
        j.jobspec = std::make_shared<Jobspec>();
    } else {
        auto jobspec = parse_jobspec(source, s.graph->types());
        if (!jobspec) return bad("its jobspec: " + jobspec.message());
        j.jobspec = std::make_shared<Jobspec>(std::move(*jobspec));
    }
    return j;
}

// The simulator as the REPL's first queue command makes it (session/queue.cc),
// with the saved queues.
Status make_simulator(Session& s, queue::JqmConfig config, const std::string& where) {
    const Options& o = s.options;
    auto policy = queue::make_queue_policy(o.queue_policy, o.queue_depth, o.reservation_depth);
    if (!policy) return make_error(Errc::kInvalid, where + ": the saved --queue-policy: " + policy.message());
    auto log = std::make_unique<queue::EventLog>(&s.out());
    if (!o.events_json.empty()) RQ_TRY(log->open_json(o.events_json));
    auto policies = queue::resolve_queue_policies(config, {o.queue_policy, o.queue_depth, o.reservation_depth});
    if (!policies) return make_error(Errc::kInvalid, where + ": the saved queues: " + policies.message());
    s.queue_log = std::move(log);
    s.queue = std::make_unique<queue::Simulator>(*s.traverser, *policy, *s.queue_log, s.next_jobid);
    s.queue->set_queues(std::move(config), std::move(*policies));
    return ok_status();
}

}  // namespace

Status restore_queue_rows(Database& db, Session& s) {
    Status status;
    uint64_t want = 0, sum = 0;
    auto meta = db.prepare("SELECT value FROM meta WHERE key = 'queue_digest'");
    if (!meta) return meta.error();
    bool has_sum = meta->step(status);
    if (has_sum) want = std::strtoull(meta->text(0).c_str(), nullptr, 16);
    if (!status) return status.error();

    std::map<int64_t, std::pair<std::string, uint64_t>> sources;
    auto src = db.prepare("SELECT id, text, digest FROM queue_source");
    if (!src) return src.error();
    while (src->step(status)) {
        int64_t id = src->integer(0);
        std::string text = src->text(1);
        uint64_t d = Digest().add("queue_source").add_number(static_cast<uint64_t>(id)).add(text).value();
        if (d != static_cast<uint64_t>(src->integer(2)))
            return corrupt_rows(db, "queue_source row " + std::to_string(id) + " does not match its checksum");
        sources[id] = {text, d};
        sum += d;
    }
    if (!status) return status.error();

    auto st = db.prepare("SELECT now, next_seq, passes, pass_due, poll_at, reserved, config, digest FROM queue_state");
    if (!st) return st.error();
    bool has_state = st->step(status);
    if (!status) return status.error();
    queue::Simulator::Clock clock;
    queue::JqmConfig config;
    if (has_state) {
        clock.now = st->integer(0);
        clock.next_seq = static_cast<uint64_t>(st->integer(1));
        clock.passes = static_cast<uint64_t>(st->integer(2));
        clock.pass_due = st->integer(3) != 0;
        clock.poll_at = st->integer(4);
        std::string reserved = st->text(5), text = st->text(6);
        Digest d;
        d.add("queue_state");
        for (int col = 0; col < 5; ++col) d.add_number(static_cast<uint64_t>(st->integer(col)));
        uint64_t digest = d.add(reserved).add(text).value();
        if (digest != static_cast<uint64_t>(st->integer(7)))
            return corrupt_rows(db, "the queue_state row does not match its checksum");
        sum += digest;
        clock.reserved = numbers(reserved);
        if (!decode_queue_config(text, config)) return corrupt_rows(db, "the queue_state row's queues cannot be read");
        if (clock.now < 0 || clock.now > kGraphEnd) return corrupt_rows(db, "the queue_state row's clock is out of range");
    }

    std::vector<QueueJob> jobs;
    auto rows = db.prepare("SELECT id, name, queue, priority, submit, seq, estimate, runtime, size, state, reserved_at, "
                           "held, span_end, start, end, reason, considered_in, rm, digest FROM queue_job ORDER BY id");
    if (!rows) return rows.error();
    while (rows->step(status)) {
        int64_t id = rows->integer(0);
        std::string row = "queue_job row " + std::to_string(id);
        Digest d;
        d.add("queue_job");
        for (int col : {0, 3, 4, 5, 6, 7, 8, 9, 10, 12, 13, 14, 16}) d.add_number(static_cast<uint64_t>(rows->integer(col)));
        uint64_t digest = d.add(rows->text(1)).add(rows->text(2)).add(rows->text(11)).add(rows->text(15))
                              .add(rows->text(17)).value();
        if (digest != static_cast<uint64_t>(rows->integer(18)))
            return corrupt_rows(db, row + " does not match its checksum");
        sum += digest;
        auto source = sources.find(id);
        if (source == sources.end()) return corrupt_rows(db, row + " has no queue_source row");
        auto job = job_of(*rows, source->second.first, s);
        if (!job) return corrupt_rows(db, row + ": " + job.message());
        jobs.push_back(std::move(*job));
    }
    if (!status) return status.error();
    if (sum != want || (!has_sum && sum != 0)) return corrupt_rows(db, "the queue rows do not match their checksum");
    if (sources.size() != jobs.size()) return corrupt_rows(db, "a queue_source row of no queued job");
    if (!has_state) {
        if (!jobs.empty()) return corrupt_rows(db, "queued jobs without the queue_state row");
        return ok_status();
    }
    RQ_TRY(make_simulator(s, std::move(config), db.path()));
    Status restored = s.queue->restore(clock, std::move(jobs));
    if (!restored) return corrupt_rows(db, "queue rows: " + restored.message());
    return ok_status();
}

}  // namespace rq::state
