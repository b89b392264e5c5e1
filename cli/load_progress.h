// Progress of a long start-up load, on stderr, only when stderr is a
// terminal (never in a pipe, a log file or the -t file) and only once the
// load has taken more than a second. One line, redrawn in place, erased
// when the load ends.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <string>

namespace rq {

class LoadProgress {
public:
    // `enabled`: normally isatty(STDERR_FILENO).
    LoadProgress(std::string path, bool enabled);
    ~LoadProgress() { finish(); }

    // A callback for LoadRequest::progress; empty when disabled.
    std::function<void(size_t, size_t)> callback();
    // Erases the line if one was drawn.
    void finish();

    // The line for `done` of `total` vertices (for tests).
    static std::string line(const std::string& path, size_t done, size_t total);

private:
    void update(size_t done, size_t total);

    std::string path_;
    bool enabled_;
    bool drawn_ = false;
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
    std::chrono::steady_clock::time_point last_{};
};

}  // namespace rq
