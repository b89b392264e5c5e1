// repl_fuzz's second input mode: bytes that choose a script of valid
// commands with mutated arguments (repl_fuzz.cc). Mutating text scripts
// mostly breaks command names; choosing from bytes keeps most commands
// well formed so that the fuzzer reaches deep into each of them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace repl_fuzz {

class Bytes {
public:
    Bytes(const uint8_t* data, size_t size) : data_(data), size_(size) {}
    bool done() const { return size_ == 0; }
    uint8_t next() {
        if (size_ == 0) return 0;
        --size_;
        return *data_++;
    }
    size_t pick(size_t n) { return next() % n; }
    const std::string& one_of(const std::vector<std::string>& words) { return words[pick(words.size())]; }

private:
    const uint8_t* data_;
    size_t size_;
};

inline std::string number(Bytes& b) {
    switch (b.pick(10)) {
    case 0: return "0";
    case 1: return "-1";
    case 2: return std::to_string(b.next());
    case 3: return "99999999999999999999";
    case 4: return "x";
    case 5: return std::to_string(b.next() * 1000);
    default: return std::to_string(1 + b.pick(4));
    }
}

inline std::string jobid(Bytes& b) { return b.pick(4) == 0 ? number(b) : std::to_string(1 + b.pick(6)); }

inline std::string path(Bytes& b) {
    static const std::vector<std::string> paths = {
        "/tiny0", "/tiny0/rack0", "/tiny0/rack0/node0", "/tiny0/rack0/node1", "/tiny0/rack0/node1/socket0",
        "/tiny0/rack0/node0/socket1/core3", "/tiny0/rack0/node0/socket0/memory1", "/nope", "tiny0"};
    return b.one_of(paths);
}

inline std::string jobspec(Bytes& b) {
    static const std::vector<std::string> types = {"node", "socket", "core", "gpu", "memory",
                                                   "rack", "cluster", "slot", "bogus"};
    static const std::vector<std::string> chain = {"rack", "node", "socket", "core"};
    std::string text = "version: " + std::string(b.pick(8) ? "1" : "2") + "\nresources:\n";
    // Mostly a plausible request: the last 1-3 levels of rack/node/socket/
    // core with a slot above one of them; sometimes a random type.
    std::vector<std::string> levels(chain.end() - static_cast<long>(1 + b.pick(3)), chain.end());
    for (auto& type : levels)
        if (b.pick(8) == 0) type = b.one_of(types);
    size_t slot_at = b.pick(8) == 0 ? levels.size() : b.pick(levels.size());  // levels.size(): no slot
    if (slot_at < levels.size()) levels.insert(levels.begin() + static_cast<long>(slot_at), "slot");
    std::string indent = "  ";
    for (size_t i = 0; i < levels.size(); ++i) {
        bool slot = i == slot_at;
        text += indent + "- type: " + levels[i] + "\n";
        text += indent + "  count: " + (b.pick(6) ? std::to_string(1 + b.pick(3)) : number(b)) + "\n";
        if (slot) text += indent + "  label: task\n";
        if (b.pick(5) == 0) text += indent + "  exclusive: " + (b.pick(2) ? "true" : "false") + "\n";
        if (i + 1 < levels.size()) text += indent + "  with:\n";
        indent += "    ";
    }
    text += "tasks:\n  - command: [ \"app\" ]\n    slot: task\n    count:\n      per_slot: 1\n";
    text += "attributes:\n  system:\n    duration: " + (b.pick(4) ? std::to_string(100 * (1 + b.pick(40))) : number(b)) +
            "\n";
    return text;
}

inline std::string find_expression(Bytes& b) {
    static const std::vector<std::string> terms = {
        "status=up", "status=down", "sched-now=allocated", "sched-now=free", "sched-future=reserved",
        "sched-future=free", "agfilter=true", "agfilter=f", "names=node[0-1]", "property=class",
        "jobid-alloc=1", "jobid-span=2", "jobid-tag=1", "jobid-reserved=3", "and", "or", "(", ")", "x=y"};
    std::string text = b.one_of(terms);
    for (size_t n = b.pick(5); n > 0; --n) text += " " + b.one_of(terms);
    return text;
}

// The R files: `last.json` is what the last successful match or update
// printed (repl_fuzz.cc keeps it); a.yaml and b.yaml are jobspecs.
inline std::string command(Bytes& b) {
    static const std::vector<std::string> ops = {"allocate", "allocate_orelse_reserve", "allocate_with_satisfiability",
                                                 "satisfiability", "without_allocating", "without_allocating_future"};
    static const std::vector<std::string> files = {"a.yaml", "b.yaml", "last.json", "missing"};
    static const std::vector<std::string> readers = {"jgf", "rv1exec", "jgf_shorthand", "bogus"};
    switch (b.pick(16)) {
    case 0:
    case 1: return "file " + std::string(b.pick(2) ? "a.yaml" : "b.yaml") + "\n" + jobspec(b) + "end";
    case 2:
    case 3:
    case 4: return "match " + b.one_of(ops) + " " + b.one_of(files);
    case 5: return "multi-match " + b.one_of(ops) + " " + b.one_of(files) + " " + b.one_of(files);
    case 6:
        return "update " + std::string(b.pick(2) ? "allocate" : "reserve") + " " + b.one_of(readers) + " " +
               b.one_of(files) + " " + jobid(b) + " " + (b.pick(2) ? "0" : number(b)) + " " + number(b);
    case 7:
        return "partial-cancel " + jobid(b) + " " + b.one_of(readers) + " " + b.one_of(files) +
               (b.pick(2) ? " stats" : "");
    case 8: return "cancel " + jobid(b) + (b.pick(3) ? "" : " stats");
    case 9: return "find " + find_expression(b);
    case 10: return "set-status " + path(b) + " " + (b.pick(5) ? (b.pick(2) ? "up" : "down") : "sideways");
    case 11: return "set-property " + path(b) + " " + (b.pick(4) ? "class=fast" : "novalue");
    case 12: {
        static const std::vector<std::string> idsets = {"0", "1", "0-1", "[1]", "2", "x", "-1"};
        return b.pick(2) ? "remove " + path(b) + " true" : "remove " + b.one_of(idsets) + " false";
    }
    case 13: return "attach " + b.one_of(files);
    case 14: return "info " + jobid(b);
    default: {
        static const std::vector<std::string> plain = {"list", "stat", "get-status /tiny0/rack0/node1",
                                                       "get-property /tiny0/rack0/node1", "help find", "cat a.yaml"};
        return b.one_of(plain);
    }
    }
}

// A whole script: the match format, then commands until the bytes run out.
inline std::string generate_script(Bytes& b) {
    static const std::vector<std::string> formats = {"jgf", "rv1", "rv1_nosched", "jgf_shorthand", "simple"};
    std::string script = "format " + b.one_of(formats) + "\n";
    for (int n = 0; !b.done() && n < 64; ++n) script += command(b) + "\n";
    return script;
}

}  // namespace repl_fuzz
