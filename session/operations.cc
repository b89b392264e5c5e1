#include "session/operations.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <locale>
#include <sstream>

#include "traversers/explain.h"
#include "traversers/find.h"
#include "traversers/status.h"

namespace rq {

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

Status flush_to(Session& s, MatchWriter& writer, std::string& R) {
    std::ostringstream& text = s.writer_text;
    if (text.getloc() != std::locale::classic()) text.imbue(std::locale::classic());  // whatever the host's
    text.str(std::string());
    text.clear();
    Status written = writer.flush(text);
    if (!written.ok()) {
        writer.reset();
        return written;
    }
    R = text.str();
    return Status();
}

namespace {

Result<Jobspec> cached_parse(Session& s, const std::string& text) {
    auto hit = s.jobspec_cache.find(text);
    if (hit != s.jobspec_cache.end()) return hit->second;
    auto parsed = parse_jobspec(text, s.graph->types());
    if (parsed.ok()) {
        if (s.jobspec_cache.size() >= 64) s.jobspec_cache.clear();
        s.jobspec_cache.emplace(text, *parsed);
    }
    return parsed;
}

// The reference's EINVAL line keeps its words; a duration beyond the
// graph's time window (spec/jobspec.md §7) gets the limit on a line of its
// own (docs/formats.md "Limits on input files").
std::string duration_problem(double duration) {
    if (!(duration > double(kGraphEnd))) return "";
    char number[40];
    std::snprintf(number, sizeof number, "%.17g", duration);
    return std::string("\n  attributes.system.duration ") + number + ": out of range, at most " +
           std::to_string(kGraphEnd);
}

}  // namespace

void record_match_time(Session& s, double seconds) {
    s.min_match_time = std::min(s.min_match_time, seconds);
    s.max_match_time = std::max(s.max_match_time, seconds);
    s.total_match_time += seconds;
}

int64_t next_match_jobid(Session& s) {
    while (s.is_live(s.next_jobid) && s.next_jobid < INT64_MAX) ++s.next_jobid;
    return s.next_jobid;
}

MatchOutcome match_jobspec(Session& s, MatchOp op, const std::string& jobspec_text, int64_t jobid,
                           const std::string& path) {
    MatchOutcome out;
    auto start = std::chrono::steady_clock::now();
    auto jobspec = cached_parse(s, jobspec_text);
    if (!jobspec) {
        out.code = Errc::kInvalid;
        out.jobspec_error = true;
        out.error = jobspec.error();
        out.message = "match_allocate: ERROR: Jobspec error for " + std::to_string(jobid) + ": " + jobspec.message();
        return out;
    }

    s.traverser->clear_message();
    out.result = s.traverser->run(*jobspec, op, jobid, *s.writer);
    Errc code = out.result.code;
    bool attempted = code == Errc::kOk || code == Errc::kBusy || code == Errc::kUnsatisfiable;
    if (!out.result.ok()) {
        if (!s.traverser->message().empty())
            out.message = "match_allocate: ERROR: " + s.traverser->message();
        else if (!attempted)
            out.message = std::string("match_allocate: ERROR: traverser: ") + errc_text(code) +
                          duration_problem(jobspec->duration);
        s.traverser->clear_message();
    }
    out.seconds = seconds_since(start);
    if (attempted) {
        Status written = flush_to(s, *s.writer, out.R);
        if (!written.ok()) {
            // (A traverser message, if any, was the line before: the
            // caller prints both.)
            if (!out.message.empty()) out.message += "\n";
            out.message += std::string("match_allocate: ERROR: match writer emit: ") + errc_text(written.code());
            code = written.code();
            attempted = false;
        }
    } else {
        s.writer->reset();
    }
    bool counts = op != MatchOp::kSatisfiability && op != MatchOp::kWithoutAllocating &&
                  op != MatchOp::kWithoutAllocatingFuture;
    out.attempted = attempted;
    out.consumes_id = attempted && counts;
    out.code = code;
    if (code == Errc::kOk && counts) {
        JobRecord job;
        job.id = jobid;
        job.state = out.result.at == 0 ? JobState::kAllocated : JobState::kReserved;
        job.scheduled_at = out.result.at;
        job.jobspec_path = s.share_path(path);
        job.overhead = out.seconds;
        s.jobs[jobid] = job;
    }
    return out;
}

std::string explain_no_match(Session& s, const std::string& jobspec_text) {
    auto jobspec = parse_jobspec(jobspec_text, s.graph->types());
    if (!jobspec) return "";
    return explain_no_match(*s.graph, *s.store, s.traverser->dominant(), *jobspec);
}

Status cancel_job(Session& s, int64_t jobid) {
    if (!s.is_live(jobid))
        return make_error(Errc::kNotFound, "cancel: ERROR: nonexistent job " + std::to_string(jobid));
    Status done = s.traverser->cancel(jobid);
    s.jobs.cancel(jobid);
    if (!done.ok())
        return make_error(done.code(),
                          "cancel: ERROR: error encountered while removing job " + std::to_string(jobid));
    return Status();
}

UpdateOutcome update_job(Session& s, const std::string& reader, const std::string& text, int64_t jobid, int64_t at,
                         int64_t duration, const std::string& path) {
    UpdateOutcome out;
    if (s.is_live(jobid)) {
        out.code = Errc::kExists;
        out.messages.push_back("ERROR: existing Jobid ");
        return out;
    }
    if (at < 0 || duration == 0) {
        out.code = Errc::kInvalid;
        out.messages.push_back("ERROR: invalid time (" + std::to_string(at) + ", " + std::to_string(duration) + ")");
        return out;
    }

    auto start = std::chrono::steady_clock::now();
    s.traverser->clear_message();
    MatchResult result = s.traverser->apply(reader, text, jobid, at, duration, *s.writer);
    double seconds = seconds_since(start);
    out.seconds = seconds;
    out.applied = true;
    out.code = result.code;
    if (!result.ok()) {
        out.messages.push_back("ERROR: traverser run () returned error ");
        if (!s.traverser->message().empty()) out.messages.push_back("ERROR: " + s.traverser->message());
        s.traverser->clear_message();
    }
    Status written = flush_to(s, *s.writer, out.R);
    if (!written.ok()) out.messages.push_back(std::string("ERROR: match writer emit: ") + errc_text(written.code()));
    if (result.ok()) {
        JobRecord job;
        job.id = jobid;
        job.state = at == 0 ? JobState::kAllocated : JobState::kReserved;
        job.scheduled_at = at;
        job.jobspec_path = s.share_path(path);
        job.overhead = seconds;
        s.jobs[jobid] = job;
        record_match_time(s, seconds);
    }
    s.next_jobid = jobid_after(jobid);
    out.ok = result.ok();
    return out;
}

PartialCancelOutcome partial_cancel_job(Session& s, int64_t jobid, const std::string& reader,
                                        const std::string& text) {
    PartialCancelOutcome out;
    const JobRecord* job = s.jobs.live(jobid);
    if (job == nullptr || job->state == JobState::kCanceled) {
        out.status = make_error(Errc::kNotFound, "ERROR: nonexistent job " + std::to_string(jobid));
        return out;
    }
    if (job->state == JobState::kReserved) {
        out.status = make_error(Errc::kNotFound, "ERROR: reservations not currently supported by partial cancel");
        return out;
    }
    s.traverser->clear_message();
    out.ran = true;
    auto released = s.traverser->partial_cancel(jobid, reader, text);
    if (!released.ok()) {
        // The traverser's message goes to stdout (spec/cli.md §5.8; stderr
        // is pinned to the one line of the status), and so does the
        // reason, which the reference leaves out.
        std::string why = released.message();
        if (!why.empty() && why.back() != '\n') why += '\n';
        out.stdout_text = s.traverser->message() + why;
        out.status = make_error(released.code(), "ERROR: error encountered while removing job " + std::to_string(jobid),
                                released.message());
    } else if (*released) {
        s.jobs.cancel(jobid);
        out.full_removal = true;
    }
    s.traverser->clear_message();
    return out;
}

Status attach_subgraph(Session& s, const std::string& jgf_text) { return s.traverser->attach(jgf_text); }

Status remove_subgraph(Session& s, const std::string& path) { return s.traverser->remove_path(path); }

Status find_matching(Session& s, const std::string& criteria, MatchWriter& writer, std::string& R,
                     Status& written) {
    FindContext context{s.traverser->graph(), s.traverser->store(), s.traverser->dominant(),
                        static_cast<Time>(std::time(nullptr))};
    Status found = find_resources(context, criteria, writer);
    if (!found.ok()) {
        writer.reset();
        return found;
    }
    written = flush_to(s, writer, R);
    return Status();
}

Status set_path_status(Session& s, const std::string& path, bool up) {
    if (s.graph->at_path(path).empty())
        return make_error(Errc::kNotFound, "Could not find path " + path + " in resource graph.");
    SubsystemId dominant = s.graph->subsystems().find(s.options.subsystems.front());
    mark_status(*s.graph, dominant, path, up);
    return Status();
}

}  // namespace rq
