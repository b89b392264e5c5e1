// libFuzzer target: random REPL sessions. Each input is a small script:
//
//   format FORMAT      (first line, optional) the -F match format
//   file NAME          the lines up to `end` become the file NAME in a
//   ...                scratch directory (jobspecs, R documents, JGF)
//   end
//   COMMAND ARGS...    any other line is a REPL command
//
// or, when the first byte is 0, bytes from which repl_script.h makes such
// a script of valid commands with mutated arguments. What a successful
// match or update prints (the -F format, INFO lines dropped) becomes the
// file `last.json`, the R that later update, partial-cancel and attach
// commands can use. Each script runs on a fresh session over a small
// machine (conf/tiny's recipe). After
// every command that reports a failure, the session's state (job table,
// job counter, graph shape and status, schedule store) must be exactly
// what it was before: a failed command changes nothing. Any difference
// aborts with the command and the difference.
//
// Two failures change the counter by design (spec/cli.md §5.1, §5.3): a
// match that was attempted but found nothing, and an update that reached
// the traverser; for match and update the counter is left out of the
// comparison. multi-match is not checked (its first files may match
// before a later one fails).
//
//   build-fuzz/bin/repl_fuzz -max_total_time=60 corpus/ (seeds: t/fuzz/seeds/repl)
#include <unistd.h>

#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "cli/command_table.h"
#include "cli/repl.h"
#include "repl_script.h"

namespace {

#ifndef RQ_SOURCE_DIR
#define RQ_SOURCE_DIR "."
#endif
// The machine: cluster -> rack -> 2 nodes -> 2 sockets -> 8 cores, 1 gpu, 2 memory.
const char* kRecipe = RQ_SOURCE_DIR "/conf/tiny.graphml";

std::string g_dir;  // scratch directory: the machine's recipe and the scripts' files

// Errors the commands print are of no interest here: a stream buffer that
// drops them.
class NullBuffer : public std::streambuf {
protected:
    int overflow(int c) override { return c == EOF ? 0 : c; }
    std::streamsize xsputn(const char*, std::streamsize n) override { return n; }
};

void set_up_once() {
    if (!g_dir.empty()) return;
    char pattern[] = "/tmp/repl_fuzz.XXXXXX";
    const char* dir = mkdtemp(pattern);
    if (dir == nullptr) std::abort();
    g_dir = dir;
    std::atexit([] {
        std::error_code ignored;
        std::filesystem::remove_all(g_dir, ignored);
    });
    std::ifstream recipe(kRecipe);
    if (!recipe) std::abort();
    std::ofstream(g_dir + "/tiny.graphml") << recipe.rdbuf();
}

bool safe_name(const std::string& name) {
    if (name.empty() || name.size() > 16 || name == "tiny.graphml") return false;
    for (char c : name)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-')) return false;
    return name[0] != '.';
}

// Where commands take file names: the first such argument position and
// whether every later argument is a file too; -1 for commands without.
// These arguments may only name scratch files (no '/': `cat /dev/zero` or
// `attach /dev/stdin` would never end), and are rewritten to their path in
// the scratch directory (the process keeps its working directory, where
// libFuzzer writes its corpus and artifacts).
std::pair<int, bool> file_arguments(const std::string& word) {
    if (word == "match" || word == "m") return {2, false};
    if (word == "multi-match" || word == "M") return {2, true};
    if (word == "update" || word == "u" || word == "partial-cancel" || word == "pc") return {3, false};
    if (word == "attach" || word == "j" || word == "cat" || word == "a") return {1, false};
    return {-1, false};
}

// The command line with its file arguments placed in the scratch
// directory; "" if one of them is not a plain scratch file name.
std::string with_scratch_files(const std::string& line) {
    std::istringstream in(line);
    std::vector<std::string> words;
    for (std::string w; in >> w;) words.push_back(w);
    if (words.empty()) return line;
    auto [first, rest] = file_arguments(words[0]);
    if (first < 0) return line;
    std::string out;
    for (size_t i = 0; i < words.size(); ++i) {
        bool file = static_cast<int>(i) == first || (rest && static_cast<int>(i) > first);
        if (file && !safe_name(words[i])) return "";
        out += (i ? " " : "") + (file ? g_dir + "/" + words[i] : words[i]);
    }
    return out;
}

// The store's describe() without records that hold nothing (a vertex
// scheduled once and released keeps an empty record), as the dynamic
// random test compares stores.
std::string without_empty_records(const std::string& describe) {
    static const std::regex idle(R"(v\d+ plan\(total (-?\d+): 0=\1\) x\(total (\d+): 0=\2\))");
    std::istringstream in(describe);
    std::string out;
    for (std::string line; std::getline(in, line);)
        if (!std::regex_match(line, idle)) out += line + "\n";
    return out;
}

std::string state_of(rq::Session& s, bool with_counter) {
    std::ostringstream out;
    if (with_counter) out << "counter " << s.next_jobid << "\n";
    for (auto& [id, job] : s.jobs)
        out << "job " << id << " " << static_cast<int>(job.state) << " " << job.scheduled_at << " "
            << job.jobspec_path << "\n";
    const rq::ResourceGraph& g = *s.graph;
    out << "graph " << g.num_vertices() << " " << g.num_edges() << " " << g.by_path().key_count() << "\n";
    for (rq::VertexId v = 0; v < g.num_vertices(); ++v) out << (g.is_up(v) ? 'u' : 'd');
    out << "\n" << without_empty_records(s.store->describe());
    return out.str();
}

// Keeps what a successful match or update printed as the R file last.json.
void keep_r(const std::string& printed) {
    std::istringstream in(printed);
    std::string r;
    for (std::string l; std::getline(in, l);)
        if (l.compare(0, 5, "INFO:") != 0) r += l + "\n";
    std::ofstream(g_dir + "/last.json", std::ios::trunc) << r;
}

void run_script(const std::string& script, std::stringbuf& printed) {
    std::istringstream in(script);
    std::string line;
    rq::Session session;
    session.options.load_file = g_dir + "/tiny.graphml";
    std::string format;
    if (std::getline(in, line) && std::istringstream(line) >> format && format == "format") {
        std::istringstream(line) >> format >> format;
        for (const char* known : {"simple", "jgf", "jgf_shorthand", "rv1", "rv1_nosched", "rlite"})
            if (format == known) session.options.match_format = format;
    } else {
        in.seekg(0);
    }
    std::remove((g_dir + "/last.json").c_str());
    std::ifstream recipe(session.options.load_file);
    std::string source((std::istreambuf_iterator<char>(recipe)), std::istreambuf_iterator<char>());
    rq::Options options = session.options;
    if (!rq::init_session(session, options, source).ok()) std::abort();  // the recipe is ours

    while (std::getline(in, line)) {
        std::istringstream words(line);
        std::string first, name;
        words >> first >> name;
        if (first == "file") {
            std::string content;
            for (std::string l; std::getline(in, l) && l != "end";) content += l + "\n";
            if (safe_name(name)) std::ofstream(g_dir + "/" + name, std::ios::trunc) << content;
            continue;
        }
        if (first == "quit" || first == "q") break;
        line = with_scratch_files(line);
        if (line.empty()) continue;
        bool with_counter = !(first == "match" || first == "m" || first == "update" || first == "u");
        bool checked = !(first == "multi-match" || first == "M");
        std::string before = checked ? state_of(session, with_counter) : "";
        printed.str("");
        rq::Next next = rq::run_command_line(session, line);
        if (next == rq::Next::kQuit) break;
        bool makes_r = first == "match" || first == "m" || first == "update" || first == "u";
        if (next == rq::Next::kContinue && makes_r) keep_r(printed.str());
        if (next != rq::Next::kFailed || !checked) continue;
        std::string after = state_of(session, with_counter);
        if (after != before) {
            std::fprintf(stderr, "repl_fuzz: a failed command changed the state: %s\n--- before\n%s--- after\n%s",
                         line.c_str(), before.c_str(), after.c_str());
            std::abort();
        }
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size > 8192) return 0;
    set_up_once();
    static NullBuffer null;
    std::stringbuf printed;
    std::streambuf* out = std::cout.rdbuf(&printed);
    std::streambuf* err = std::cerr.rdbuf(&null);
    if (size > 0 && data[0] == 0) {
        repl_fuzz::Bytes bytes(data + 1, size - 1);
        run_script(repl_fuzz::generate_script(bytes), printed);
    } else {
        run_script(std::string(reinterpret_cast<const char*>(data), size), printed);
    }
    std::cout.rdbuf(out);
    std::cerr.rdbuf(err);
    return 0;
}
