#include "cli/completion.h"

#include <map>
#include <sstream>

#include "cli/command_table.h"

namespace rq {

namespace {

// What each argument position of a command holds.
enum class Arg { kNone, kFile, kPath, kMatchOp, kUpdateOp, kUpdateReader, kCancelReader, kBool, kUpDown, kStats,
                 kJobid, kCommand, kFindTerm };

struct Shape {
    std::vector<Arg> args;
    bool last_repeats = false;  // multi-match files, find terms
};

const std::map<std::string, Shape>& shapes() {
    static const std::map<std::string, Shape> table = {
        {"match", {{Arg::kMatchOp, Arg::kFile}}},
        {"multi-match", {{Arg::kMatchOp, Arg::kFile}, true}},
        {"update", {{Arg::kUpdateOp, Arg::kUpdateReader, Arg::kFile, Arg::kNone, Arg::kNone, Arg::kNone}}},
        {"attach", {{Arg::kFile}}},
        {"remove", {{Arg::kPath, Arg::kBool}}},
        {"find", {{Arg::kFindTerm}, true}},
        {"cancel", {{Arg::kJobid, Arg::kStats}}},
        {"partial-cancel", {{Arg::kJobid, Arg::kCancelReader, Arg::kFile, Arg::kStats}}},
        {"set-property", {{Arg::kPath, Arg::kNone}}},
        {"get-property", {{Arg::kPath}}},
        {"set-status", {{Arg::kPath, Arg::kUpDown}}},
        {"get-status", {{Arg::kPath}}},
        {"list", {}},
        {"info", {{Arg::kJobid}}},
        {"stat", {}},
        {"save", {{Arg::kFile, Arg::kNone}}},
        {"dump", {{Arg::kFile, Arg::kNone}}},
        {"allocated", {{Arg::kJobid, Arg::kNone}}},
        {"available", {{Arg::kNone, Arg::kNone, Arg::kNone}}},
        {"cat", {{Arg::kFile}}},
        {"help", {{Arg::kCommand}}},
        {"quit", {}},
    };
    return table;
}

const std::vector<std::string> kMatchOps = {"allocate",           "allocate_orelse_reserve",
                                            "allocate_with_satisfiability", "satisfiability",
                                            "without_allocating", "without_allocating_future"};

// Values of the find keys that take a fixed set.
std::vector<std::string> find_values(const std::string& key, const CompletionContext& context) {
    if (key == "status") return {"up", "down"};
    if (key == "sched-now") return {"allocated", "free"};
    if (key == "sched-future") return {"reserved", "free"};
    if (key == "agfilter") return {"true", "false"};
    if (key.rfind("jobid-", 0) == 0) return context.live_jobids;
    return {};
}

std::vector<std::string> find_terms(const std::string& word, const CompletionContext& context) {
    auto eq = word.find('=');
    if (eq != std::string::npos) {
        std::vector<std::string> out;
        std::string key = word.substr(0, eq);
        for (auto& value : find_values(key, context)) out.push_back(key + "=" + value);
        return out;
    }
    std::vector<std::string> out;
    for (auto& key : find_keys()) out.push_back(key + "=");
    for (const char* op : {"and", "or", "(", ")"}) out.push_back(op);
    return out;
}

std::vector<std::string> candidates(Arg arg, const std::string& word, const CompletionContext& context) {
    switch (arg) {
    case Arg::kMatchOp: return kMatchOps;
    case Arg::kUpdateOp: return {"allocate", "reserve"};
    case Arg::kUpdateReader: return {"jgf", "jgf_shorthand", "rv1exec"};
    case Arg::kCancelReader: return {"jgf", "rv1exec"};
    case Arg::kBool: return {"true", "false"};
    case Arg::kUpDown: return {"up", "down"};
    case Arg::kStats: return {"stats"};
    case Arg::kJobid: return context.live_jobids;
    case Arg::kPath: return context.paths ? context.paths(word) : std::vector<std::string>{};
    case Arg::kFindTerm: return find_terms(word, context);
    case Arg::kCommand: {
        std::vector<std::string> out;
        for (auto& c : command_table()) out.push_back(c.name);
        return out;
    }
    case Arg::kNone:
    case Arg::kFile: return {};
    }
    return {};
}

std::vector<std::string> starting_with(const std::vector<std::string>& all, const std::string& prefix) {
    std::vector<std::string> out;
    for (auto& w : all)
        if (w.compare(0, prefix.size(), prefix) == 0) out.push_back(w);
    return out;
}

}  // namespace

const std::vector<std::string>& find_keys() {
    static const std::vector<std::string> keys = {"status",    "sched-now",      "sched-future", "agfilter",
                                                  "names",     "property",       "jobid-alloc",  "jobid-span",
                                                  "jobid-tag", "jobid-reserved"};
    return keys;
}

Completion complete_command_line(const std::string& before, const std::string& word,
                                 const CompletionContext& context) {
    std::istringstream in(before);
    std::vector<std::string> tokens;
    for (std::string t; in >> t;) tokens.push_back(t);
    Completion result;
    if (tokens.empty()) {
        result.words = starting_with(candidates(Arg::kCommand, word, context), word);
        return result;
    }
    const Command* command = find_command(tokens[0]);
    if (command == nullptr) return result;
    auto known = shapes().find(command->name);
    if (known == shapes().end()) return result;
    const Shape& shape = known->second;
    size_t position = tokens.size() - 1;  // 0 = first argument
    if (shape.args.empty()) return result;
    if (position >= shape.args.size()) {
        if (!shape.last_repeats) return result;
        position = shape.args.size() - 1;
    }
    Arg arg = shape.args[position];
    result.files = arg == Arg::kFile;
    result.no_space = arg == Arg::kPath;
    result.words = starting_with(candidates(arg, word, context), word);
    return result;
}

}  // namespace rq
