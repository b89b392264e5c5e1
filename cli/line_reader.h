// Where REPL commands come from: GNU readline on a terminal (prompt, tab
// completion, history kept across sessions, Ctrl-C cancels the line being
// typed), plain getline otherwise (scripts and pipes: no prompt, no
// history file touched).
#pragma once

#include <functional>
#include <string>

#include "cli/completion.h"

namespace rq {

struct LineReaderConfig {
    bool prompt = true;          // false with -d
    bool history = true;         // false with --no-history
    bool prompt_to_stderr = false;  // --json: keep stdout for JSON lines
    std::function<CompletionContext()> context;  // job ids etc. for completion
};

// $HOME/.resource_query_history, or "" when HOME is unset or empty.
std::string history_file_path();

class LineReader {
public:
    explicit LineReader(LineReaderConfig config);
    ~LineReader();
    LineReader(const LineReader&) = delete;
    LineReader& operator=(const LineReader&) = delete;

    // True if commands come from a terminal.
    bool interactive() const { return tty_; }
    // The next line; false at end of input (Ctrl-D on an empty line).
    bool next(std::string& line);

private:
    bool read_terminal_line(std::string& line);
    void remember(const std::string& line);

    LineReaderConfig config_;
    bool tty_;
    std::string history_path_;  // "" = no history file
};

}  // namespace rq
