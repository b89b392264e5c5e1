// match and multi-match (spec/cli.md §5.1, §5.2; output.md §2).
#include <chrono>
#include <cstdio>
#include <iostream>

#include "cli/command_table.h"
#include "utilities/file.h"

namespace rq {

namespace {

enum class Attempt { kUnreadable, kFailed, kMatched };

const char* kRule = "INFO: =============================\n";

std::string elapse_line(double seconds) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "INFO: ELAPSE=%f\n", seconds);
    return buf;
}

void print_counts(const Session& s) {
    std::cout << "INFO: PREORDER VISIT COUNT=" << s.traverser->preorder() << "\n"
              << "INFO: POSTORDER VISIT COUNT=" << s.traverser->postorder() << "\n";
}

bool unsatisfiable(Errc code) { return code == Errc::kUnsatisfiable || code == Errc::kNotFound; }

void print_satisfiability(Session& s, Errc code, double seconds) {
    s.out() << kRule << (unsatisfiable(code) ? "INFO: Unsatisfiable request\n" : "INFO: Satisfiable request\n")
            << kRule;
    if (s.options.elapse_time) {
        std::cout << elapse_line(seconds);
        print_counts(s);
    }
}

void print_failure(Session& s, Errc code, int64_t jobid, double seconds) {
    s.out() << kRule << "INFO: No matching resources found\n";
    if (unsatisfiable(code)) s.out() << "INFO: Unsatisfiable request\n";
    s.out() << "INFO: JOBID=" << jobid << "\n";
    if (s.options.elapse_time) {
        s.out() << elapse_line(seconds);
        print_counts(s);
    }
    s.out() << kRule;
}

void print_success(Session& s, MatchOp op, const MatchResult& r, int64_t jobid, double seconds) {
    bool matched_only = op == MatchOp::kWithoutAllocating || op == MatchOp::kWithoutAllocatingFuture;
    s.out() << kRule << "INFO: JOBID=" << jobid << "\n"
            << "INFO: RESOURCES=" << (matched_only ? "MATCHED" : r.at == 0 ? "ALLOCATED" : "RESERVED") << "\n"
            << "INFO: SCHEDULED AT=" << (r.at == 0 ? std::string("Now") : std::to_string(r.at)) << "\n";
    if (s.options.elapse_time) {
        std::cout << elapse_line(seconds);
        print_counts(s);
    }
    s.out() << kRule;
}

// After a jobspec error the reference prints "No matching resources found"
// (or, for `satisfiability`, "Satisfiable request"), as if the request had
// been tried. We say what is wrong and where instead; the stderr line
// before this keeps the reference's words.
void print_jobspec_error(Session& s, const std::string& path, const Error& error) {
    s.out() << kRule << "INFO: Jobspec error in " << path << ": " << error.message << "\n";
    if (!error.detail.empty()) s.out() << "INFO:   " << error.detail << "\n";
    s.out() << kRule;
    s.out().flush();
}

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

Attempt match_one(Session& s, MatchOp op, const std::string& path) {
    // `update` may have set the counter back below ids still in use; a new
    // match must never share an id with a live job (one cancel would then
    // release both). Amortised: the counter only moves forward here.
    while (s.is_live(s.next_jobid)) ++s.next_jobid;
    const int64_t jobid = s.next_jobid;
    std::string& text = s.read_buffer;
    if (!s.read_input(path, text)) {
        std::cerr << "ERROR: can't open " << path << std::endl;
        return Attempt::kUnreadable;
    }

    auto start = std::chrono::steady_clock::now();
    auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };

    auto jobspec = cached_parse(s, text);
    if (!jobspec) {
        std::cerr << "match_allocate: ERROR: Jobspec error for " << jobid << ": " << jobspec.message() << std::endl;
        print_jobspec_error(s, path, jobspec.error());
        return Attempt::kFailed;
    }

    s.traverser->clear_message();
    MatchResult result = s.traverser->run(*jobspec, op, jobid, *s.writer);
    double seconds = elapsed();
    Errc code = result.code;
    bool attempted = code == Errc::kOk || code == Errc::kBusy || code == Errc::kUnsatisfiable;
    if (!result.ok()) {
        if (!s.traverser->message().empty())
            std::cerr << "match_allocate: ERROR: " << s.traverser->message() << std::endl;
        else if (!attempted)
            std::cerr << "match_allocate: ERROR: traverser: " << errc_text(code) << std::endl;
        s.traverser->clear_message();
    }
    if (attempted) {
        Status written = s.writer->flush(s.out());
        if (!written.ok()) {
            std::cerr << "match_allocate: ERROR: match writer emit: " << errc_text(written.code()) << std::endl;
            s.writer->reset();
            code = written.code();
            attempted = false;
        }
    } else {
        s.writer->reset();
    }
    bool counts = op != MatchOp::kSatisfiability && op != MatchOp::kWithoutAllocating &&
                  op != MatchOp::kWithoutAllocatingFuture;
    if (attempted && counts) ++s.next_jobid;

    if (op == MatchOp::kSatisfiability) {
        print_satisfiability(s, code, seconds);
    } else if (code == Errc::kOk) {
        print_success(s, op, result, jobid, seconds);
    } else {
        print_failure(s, code, jobid, seconds);
    }
    if (code == Errc::kOk && counts) {
        JobRecord job;
        job.id = jobid;
        job.state = result.at == 0 ? JobState::kAllocated : JobState::kReserved;
        job.scheduled_at = result.at;
        job.jobspec_path = s.share_path(path);
        job.overhead = seconds;
        s.jobs[jobid] = job;
    }
    return code == Errc::kOk ? Attempt::kMatched : Attempt::kFailed;
}

}  // namespace

Next cmd_match(Session& s, const Args& args) {
    if (args.size() != 3) return malformed();
    MatchOp op;
    if (!parse_match_op(args[1], op)) {
        std::cerr << "ERROR: unknown subcmd " << args[1] << std::endl;
        return Next::kContinue;
    }
    match_one(s, op, args[2]);
    return Next::kContinue;
}

Next cmd_multi_match(Session& s, const Args& args) {
    if (args.size() < 4) return malformed();
    MatchOp op;
    if (!parse_match_op(args[1], op)) {
        std::cerr << "ERROR: unknown subcmd " << args[1] << std::endl;
        return Next::kContinue;
    }
    for (size_t i = 2; i < args.size(); ++i)
        if (match_one(s, op, args[i]) == Attempt::kFailed) break;
    return Next::kContinue;
}

}  // namespace rq
