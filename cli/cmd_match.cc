// match and multi-match (spec/cli.md §5.1, §5.2; output.md §2).
#include <cstdio>
#include <iostream>

#include "cli/command_table.h"
#include "session/operations.h"
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

// `match OP FILE --explain` after a failed match: the first level of the
// jobspec that nothing can hold (session/operations.h), on the out stream.
void print_explanation(Session& s) {
    std::string why = explain_no_match(s, s.read_buffer);
    if (why.empty()) why = "every level finds enough free resources on its own; they do not fit together (exclusivity, "
                           "constraints or the time window)";
    s.out() << "INFO: explain: " << why << "\n";
    s.out().flush();
}

Attempt match_one(Session& s, MatchOp op, const std::string& path, bool explain = false) {
    const int64_t jobid = next_match_jobid(s);
    std::string& text = s.read_buffer;
    std::string why;
    if (!s.read_input(path, text, FileKind::kJobspec, &why)) {
        print_cant_open(path, why);
        return Attempt::kUnreadable;
    }

    MatchOutcome m = match_jobspec(s, op, text, jobid, path);
    if (!m.message.empty()) std::cerr << m.message << std::endl;
    if (m.jobspec_error) {
        print_jobspec_error(s, path, m.error);
        return Attempt::kFailed;
    }
    if (m.attempted) s.out() << m.R;
    if (m.consumes_id) s.next_jobid = jobid_after(s.next_jobid);

    Errc code = m.code;
    if (op == MatchOp::kSatisfiability) {
        print_satisfiability(s, code, m.seconds);
    } else if (code == Errc::kOk) {
        print_success(s, op, m.result, jobid, m.seconds);
    } else {
        print_failure(s, code, jobid, m.seconds);
    }
    if (explain && (code == Errc::kBusy || code == Errc::kUnsatisfiable)) print_explanation(s);
    return code == Errc::kOk ? Attempt::kMatched : Attempt::kFailed;
}

}  // namespace

Next cmd_match(Session& s, const Args& args) {
    const bool explain = args.size() == 4 && args[3] == "--explain";
    if (args.size() != 3 && !explain) return malformed();
    MatchOp op;
    if (!parse_match_op(args[1], op)) {
        std::cerr << "ERROR: unknown subcmd " << args[1] << std::endl;
        return Next::kFailed;
    }
    return match_one(s, op, args[2], explain) == Attempt::kMatched ? Next::kContinue : Next::kFailed;
}

Next cmd_multi_match(Session& s, const Args& args) {
    if (args.size() < 4) return malformed();
    MatchOp op;
    if (!parse_match_op(args[1], op)) {
        std::cerr << "ERROR: unknown subcmd " << args[1] << std::endl;
        return Next::kFailed;
    }
    Next next = Next::kContinue;
    for (size_t i = 2; i < args.size(); ++i) {
        Attempt attempt = match_one(s, op, args[i]);
        if (attempt != Attempt::kMatched) next = Next::kFailed;
        if (attempt == Attempt::kFailed) break;
    }
    return next;
}

}  // namespace rq
