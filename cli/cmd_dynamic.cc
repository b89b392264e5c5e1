// update, attach, remove, partial-cancel (spec/cli.md §5.3-§5.5, §5.8).
#include <cstdlib>
#include <initializer_list>
#include <iostream>

#include "cli/command_table.h"
#include "session/operations.h"
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
    std::string why;
    if (!s.read_input(path, text, FileKind::kGraph, &why)) {
        print_cant_open(path, why);
        return false;
    }
    return true;
}

// The reference's message block for a failed `remove`, by path or by ranks.
Next report_remove_error(const Status& removed) {
    if (removed.ok()) return Next::kContinue;
    // For a path that names nothing the reference's errno text reads "No
    // such file or directory", as if TARGET were a file: name the path.
    std::string what = removed.code() == Errc::kNotFound ? removed.message() : errc_text(removed.code());
    std::cerr << "ERROR: can't remove subgraph \n"
              << "ERROR: remove_subgraph: ERROR: remove_subgraph error: " << what << "\n"
              << "remove_subgraph: ERROR: traverser returned error: \n"
              << std::endl;
    return Next::kFailed;
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
        return Next::kFailed;
    }
    std::string text;
    if (!read_r_file(s, reader, {"jgf", "rv1exec", "jgf_shorthand"}, args[3], text)) return Next::kFailed;
    int64_t jobid = parse_integer(args[4]);
    int64_t at = parse_integer(args[5]);
    int64_t duration = parse_integer(args[6]);
    UpdateOutcome u = update_job(s, reader, text, jobid, at, duration, args[3]);
    for (const auto& line : u.messages) std::cerr << line << std::endl;
    if (!u.applied) return Next::kFailed;
    s.out() << u.R;
    if (u.ok) {
        s.out() << kRule << "INFO: JOBID=" << jobid << "\n"
                << "INFO: RESOURCES=" << (at == 0 ? "ALLOCATED" : "RESERVED") << "\n"
                << "INFO: SCHEDULED AT=" << (at == 0 ? std::string("Now") : std::to_string(at)) << "\n"
                << kRule;
    } else {
        s.out() << kRule << "INFO: No matching resources found\n"
                << "INFO: JOBID=" << jobid << "\n"
                << kRule;
    }
    s.out().flush();
    return u.ok ? Next::kContinue : Next::kFailed;
}

Next cmd_attach(Session& s, const Args& args) {
    if (args.size() != 2) return malformed();
    std::string text;
    std::string why;
    if (!s.read_input(args[1], text, FileKind::kGraph, &why)) {
        print_cant_open(args[1], why);
        return Next::kFailed;
    }
    Status attached = attach_subgraph(s, text);
    if (!attached.ok()) {
        std::string message = attached.message();
        if (message.empty() || message.back() != '\n') message += '\n';
        std::cerr << "ERROR: can't attach JGF subgraph \n"
                  << "ERROR: add_subgraph: ERROR: add subgraph error: " << attach_errno_text(attached) << "\n"
                  << "add_subgraph: ERROR: reader returned error: " << message << "\n"
                  << std::endl;
        return Next::kFailed;
    }
    return Next::kContinue;
}

Next cmd_remove(Session& s, const Args& args) {
    if (args.size() != 3) return malformed();
    if (args[2] == "true") return report_remove_error(remove_subgraph(s, args[1]));
    if (args[2] == "false") {
        auto ranks = decode_idset(args[1]);
        if (!ranks) {
            std::cerr << "ERROR: failed to decode ranks." << std::endl;
            return Next::kFailed;
        }
        return report_remove_error(s.traverser->remove_ranks(*ranks));
    }
    std::cerr << "ERROR: invalid path boolean input " << std::endl;
    return Next::kFailed;
}

Next cmd_partial_cancel(Session& s, const Args& args) {
    if (args.size() != 4 && args.size() != 5) return malformed();
    int64_t jobid = parse_integer(args[1]);
    const std::string& reader = args[2];
    std::string text;
    if (!read_r_file(s, reader, {"jgf", "rv1exec"}, args[3], text)) return Next::kFailed;
    PartialCancelOutcome released = partial_cancel_job(s, jobid, reader, text);
    if (!released.status.ok()) {
        if (!released.ran) {
            std::cerr << released.status.message() << std::endl;
            return Next::kFailed;
        }
        std::cout << released.stdout_text;
        std::cout.flush();
        std::cerr << released.status.message() << std::endl;
    }
    if (args.size() == 5 && args[4] == "stats") {
        s.out() << kRule << "INFO: PARTIAL CANCEL PREORDER COUNT=\"0\"\n"
                << "INFO: PARTIAL CANCEL POSTORDER COUNT=\"0\"\n"
                << kRule;
        s.out().flush();
    }
    return released.status.ok() ? Next::kContinue : Next::kFailed;
}

}  // namespace rq
