// Tab completion for the REPL: what may come next on a command line.
// Pure logic (no readline) so that it can be tested; line_reader.cc wires
// it to readline.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace rq {

struct Completion {
    std::vector<std::string> words;  // candidates that start with the word typed
    bool files = false;              // offer file names (readline's own completion)
    bool no_space = false;           // a resource path: the user may go on with '/'
};

// What the REPL knows that completion can offer besides fixed words.
struct CompletionContext {
    std::vector<std::string> live_jobids;  // allocated or reserved, as text
    // Resource paths one level below the path before the word's last '/'
    // (the roots for "" or "/..."); may be empty.
    std::function<std::vector<std::string>(const std::string& word)> paths;
};

// `before` is the text of the line before the word being completed (so the
// number of its whitespace-separated tokens is the position of that word),
// `word` the partial word itself.
Completion complete_command_line(const std::string& before, const std::string& word,
                                 const CompletionContext& context);

// The keys `find` accepts (without the '='), in the order `help find`
// documents them.
const std::vector<std::string>& find_keys();

}  // namespace rq
