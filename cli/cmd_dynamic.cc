// update, attach, remove, partial-cancel (spec/cli.md §5.3-§5.5, §5.8).
#include <chrono>
#include <cstdlib>
#include <initializer_list>
#include <iostream>

#include "cli/command_table.h"
#include "utilities/file.h"
#include "utilities/idset.h"

namespace rq {

namespace {

int64_t parse_integer(const std::string& text) { return std::strtoll(text.c_str(), nullptr, 10); }

const char* kRule = "INFO: =============================\n";

// The R file of `update` and `partial-cancel`: false, after the reference's
// message, if the reader is not one of `readers` or the file cannot be read.
bool read_r_file(Session& s, const std::string& reader, std::initializer_list<const char*> readers, const std::string& path,
                 std::string& text) {
    bool known = false;
    for (const char* r : readers) known |= reader == r;
    if (!known) {
        std::cerr << "ERROR: unsupported reader " << reader << std::endl;
        return false;
    }
    if (!s.read_input(path, text)) {
        std::cerr << "ERROR: can't open " << path << std::endl;
        return false;
    }
    return true;
}

// The reference's message block for a failed `remove`, by path or by ranks.
void report_remove_error(const Status& removed) {
    if (removed.ok()) return;
    // For a path that names nothing the reference's errno text reads "No
    // such file or directory", as if TARGET were a file: name the path.
    std::string what = removed.code() == Errc::kNotFound ? removed.message() : errc_text(removed.code());
    std::cerr << "ERROR: can't remove subgraph \n"
              << "ERROR: remove_subgraph: ERROR: remove_subgraph error: " << what << "\n"
              << "remove_subgraph: ERROR: traverser returned error: \n"
              << std::endl;
}

// The errno the reference's JGF reader leaves behind when attach fails
// (spec/cli.md §5.4): 0 for a repeated id on a reused vertex, EINVAL for
// everything else (never ENOENT or EEXIST, whatever our reader's category).
const char* attach_errno_text(const Status& attached) {
    if (attached.message().rfind("update_vmap:", 0) == 0) return errc_text(Errc::kOk);
    switch (attached.code()) {
    case Errc::kNotFound:
    case Errc::kExists: return errc_text(Errc::kInvalid);
    default: return errc_text(attached.code());
    }
}

}  // namespace

Next cmd_update(Session& s, const Args& args) {
    if (args.size() != 7) return malformed();
    const std::string& sub = args[1];
    const std::string& reader = args[2];
    if (sub != "allocate" && sub != "reserve") {
        std::cerr << "ERROR: unknown subcmd " << sub << std::endl;
        return Next::kContinue;
    }
    std::string text;
    if (!read_r_file(s, reader, {"jgf", "rv1exec", "jgf_shorthand"}, args[3], text)) return Next::kContinue;
    int64_t jobid = parse_integer(args[4]);
    int64_t at = parse_integer(args[5]);
    int64_t duration = parse_integer(args[6]);
    if (s.is_live(jobid)) {
        std::cerr << "ERROR: existing Jobid " << std::endl;
        return Next::kContinue;
    }
    if (at < 0 || duration == 0) {
        std::cerr << "ERROR: invalid time (" << at << ", " << duration << ")" << std::endl;
        return Next::kContinue;
    }

    auto start = std::chrono::steady_clock::now();
    s.traverser->clear_message();
    MatchResult result = s.traverser->apply(reader, text, jobid, at, duration, *s.writer);
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!result.ok()) {
        std::cerr << "ERROR: traverser run () returned error " << std::endl;
        if (!s.traverser->message().empty()) std::cerr << "ERROR: " << s.traverser->message() << std::endl;
        s.traverser->clear_message();
    }
    Status written = s.writer->flush(s.out());
    if (!written.ok()) {
        std::cerr << "ERROR: match writer emit: " << errc_text(written.code()) << std::endl;
        s.writer->reset();
    }
    s.next_jobid = jobid;
    if (result.ok()) {
        s.out() << kRule << "INFO: JOBID=" << jobid << "\n"
                << "INFO: RESOURCES=" << (at == 0 ? "ALLOCATED" : "RESERVED") << "\n"
                << "INFO: SCHEDULED AT=" << (at == 0 ? std::string("Now") : std::to_string(at)) << "\n"
                << kRule;
        JobRecord job;
        job.id = jobid;
        job.state = at == 0 ? JobState::kAllocated : JobState::kReserved;
        job.scheduled_at = at;
        job.jobspec_path = s.share_path(args[3]);
        job.overhead = seconds;
        s.jobs[jobid] = job;
        s.min_match_time = std::min(s.min_match_time, seconds);
        s.max_match_time = std::max(s.max_match_time, seconds);
        s.total_match_time += seconds;
    } else {
        s.out() << kRule << "INFO: No matching resources found\n"
                << "INFO: JOBID=" << jobid << "\n"
                << kRule;
    }
    s.out().flush();
    s.next_jobid = jobid + 1;
    return Next::kContinue;
}

Next cmd_attach(Session& s, const Args& args) {
    if (args.size() != 2) return malformed();
    std::string text;
    if (!s.read_input(args[1], text)) {
        std::cerr << "ERROR: can't open " << args[1] << std::endl;
        return Next::kContinue;
    }
    Status attached = s.traverser->attach(text);
    if (!attached.ok()) {
        std::string message = attached.message();
        if (message.empty() || message.back() != '\n') message += '\n';
        std::cerr << "ERROR: can't attach JGF subgraph \n"
                  << "ERROR: add_subgraph: ERROR: add subgraph error: " << attach_errno_text(attached) << "\n"
                  << "add_subgraph: ERROR: reader returned error: " << message << "\n"
                  << std::endl;
    }
    return Next::kContinue;
}

Next cmd_remove(Session& s, const Args& args) {
    if (args.size() != 3) return malformed();
    if (args[2] == "true") {
        report_remove_error(s.traverser->remove_path(args[1]));
    } else if (args[2] == "false") {
        auto ranks = decode_idset(args[1]);
        if (!ranks) {
            std::cerr << "ERROR: failed to decode ranks." << std::endl;
            return Next::kContinue;
        }
        report_remove_error(s.traverser->remove_ranks(*ranks));
    } else {
        std::cerr << "ERROR: invalid path boolean input " << std::endl;
    }
    return Next::kContinue;
}

Next cmd_partial_cancel(Session& s, const Args& args) {
    if (args.size() != 4 && args.size() != 5) return malformed();
    int64_t jobid = parse_integer(args[1]);
    const std::string& reader = args[2];
    std::string text;
    if (!read_r_file(s, reader, {"jgf", "rv1exec"}, args[3], text)) return Next::kContinue;
    auto job = s.jobs.find(jobid);
    if (job == s.jobs.end() || job->second.state == JobState::kCanceled) {
        std::cerr << "ERROR: nonexistent job " << jobid << std::endl;
        return Next::kContinue;
    }
    if (job->second.state == JobState::kReserved) {
        std::cerr << "ERROR: reservations not currently supported by partial cancel" << std::endl;
        return Next::kContinue;
    }
    s.traverser->clear_message();
    auto released = s.traverser->partial_cancel(jobid, reader, text);
    if (!released.ok()) {
        // The traverser's message goes to stdout (spec/cli.md §5.8; stderr
        // is pinned to the one line below), and so does the reason, which
        // the reference leaves out.
        std::string why = released.message();
        if (!why.empty() && why.back() != '\n') why += '\n';
        std::cout << s.traverser->message() << why;
        std::cout.flush();
        std::cerr << "ERROR: error encountered while removing job " << jobid << std::endl;
    } else if (*released) {
        job->second.state = JobState::kCanceled;
    }
    s.traverser->clear_message();
    if (args.size() == 5 && args[4] == "stats") {
        s.out() << kRule << "INFO: PARTIAL CANCEL PREORDER COUNT=\"0\"\n"
                << "INFO: PARTIAL CANCEL POSTORDER COUNT=\"0\"\n"
                << kRule;
        s.out().flush();
    }
    return Next::kContinue;
}

}  // namespace rq
