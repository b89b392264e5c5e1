#include "cli/line_reader.h"

#include <fcntl.h>
#include <sys/select.h>
#include <unistd.h>

#include <readline/history.h>
#include <readline/readline.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>

namespace rq {

namespace {

constexpr int kHistoryLines = 1000;

// readline calls back into plain functions: the state they share.
volatile sig_atomic_t g_interrupted = 0;
struct PendingLine {
    bool done = false;
    bool eof = false;
    std::string text;
};
PendingLine g_pending;
const LineReaderConfig* g_config = nullptr;
std::vector<std::string> g_matches;
size_t g_next_match = 0;

void on_sigint(int) { g_interrupted = 1; }

void on_line(char* raw) {
    g_pending.done = true;
    g_pending.eof = raw == nullptr;
    if (raw != nullptr) {
        g_pending.text = raw;
        std::free(raw);
    }
    // Off until the next prompt, so that the command's own output is not
    // mixed with readline's redisplay.
    rl_callback_handler_remove();
}

char* next_match(const char*, int state) {
    if (state == 0) g_next_match = 0;
    if (g_next_match >= g_matches.size()) return nullptr;
    return strdup(g_matches[g_next_match++].c_str());
}

char** complete(const char* text, int start, int) {
    std::string before(rl_line_buffer, static_cast<size_t>(start));
    CompletionContext context;
    if (g_config != nullptr && g_config->context) context = g_config->context();
    Completion c = complete_command_line(before, text, context);
    if (c.files && c.words.empty()) {
        rl_attempted_completion_over = 0;  // readline's own file-name completion
        return nullptr;
    }
    rl_attempted_completion_over = 1;
    g_matches = std::move(c.words);
    if (c.no_space) rl_completion_suppress_append = 1;
    // `status=` wants its value right after the '=', not a space.
    if (g_matches.size() == 1 && g_matches[0].back() == '=') rl_completion_suppress_append = 1;
    return rl_completion_matches(text, next_match);
}

// Ctrl-C at the prompt: forget the line being typed, start a fresh one.
void cancel_line() {
    rl_free_line_state();
    rl_callback_sigcleanup();
    rl_replace_line("", 0);
    rl_point = rl_end = 0;
    rl_crlf();
    rl_on_new_line();
    rl_redisplay();
}

void install_sigint_handler() {
    struct sigaction action {};
    action.sa_handler = on_sigint;
    sigemptyset(&action.sa_mask);
    // SA_RESTART: a Ctrl-C while a command writes its output must not cut
    // the write short; select() below is interrupted whatever the flag.
    action.sa_flags = SA_RESTART;
    sigaction(SIGINT, &action, nullptr);
}

}  // namespace

std::string history_file_path() {
    const char* home = std::getenv("HOME");
    if (home == nullptr || *home == '\0') return "";
    return std::string(home) + "/.resource_query_history";
}

LineReader::LineReader(LineReaderConfig config) : config_(std::move(config)), tty_(isatty(STDIN_FILENO)) {
    if (!tty_) return;
    g_config = &config_;
    rl_readline_name = "resource-query";
    rl_catch_signals = 0;  // our SIGINT handler, not readline's
    rl_attempted_completion_function = complete;
    // Words are separated by blanks only: `status=up` and `(` are parts
    // of find's words, and paths may hold '='.
    rl_completer_word_break_characters = const_cast<char*>(" \t\n");
    if (config_.prompt_to_stderr) rl_outstream = stderr;
    install_sigint_handler();
    using_history();
    if (config_.history) history_path_ = history_file_path();
    if (!history_path_.empty()) {
        read_history(history_path_.c_str());
        history_truncate_file(history_path_.c_str(), kHistoryLines);
    }
}

LineReader::~LineReader() {
    if (g_config == &config_) g_config = nullptr;
}

bool LineReader::next(std::string& line) {
    if (!tty_) return static_cast<bool>(std::getline(std::cin, line));
    if (!read_terminal_line(line)) {
        // Ctrl-D: end the prompt's line so the shell's starts on its own.
        std::fputc('\n', rl_outstream ? rl_outstream : stdout);
        std::fflush(rl_outstream ? rl_outstream : stdout);
        return false;
    }
    remember(line);
    return true;
}

bool LineReader::read_terminal_line(std::string& line) {
    g_pending = PendingLine{};
    g_interrupted = 0;  // a Ctrl-C during the last command cancels nothing here
    rl_callback_handler_install(config_.prompt ? "resource-query> " : "", on_line);
    int fd = fileno(rl_instream ? rl_instream : stdin);
    while (!g_pending.done) {
        fd_set readable;
        FD_ZERO(&readable);
        FD_SET(fd, &readable);
        int ready = select(fd + 1, &readable, nullptr, nullptr, nullptr);
        if (g_interrupted) {
            g_interrupted = 0;
            cancel_line();
            continue;
        }
        if (ready < 0) {
            if (errno == EINTR) continue;
            rl_callback_handler_remove();
            return false;
        }
        rl_callback_read_char();
    }
    if (g_pending.eof) return false;
    line = std::move(g_pending.text);
    return true;
}

void LineReader::remember(const std::string& line) {
    if (line.find_first_not_of(" \t") == std::string::npos) return;
    HIST_ENTRY* last = history_length > 0 ? history_get(history_base + history_length - 1) : nullptr;
    if (last != nullptr && line == last->line) return;
    add_history(line.c_str());
    if (history_path_.empty()) return;
    // Appended line by line, so that a session that dies keeps its history.
    int fd = open(history_path_.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600);
    if (fd < 0) return;
    close(fd);
    append_history(1, history_path_.c_str());
}

}  // namespace rq
