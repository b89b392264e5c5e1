#include "cli/load_progress.h"

#include <cstdio>

namespace rq {

LoadProgress::LoadProgress(std::string path, bool enabled) : path_(std::move(path)), enabled_(enabled) {}

std::function<void(size_t, size_t)> LoadProgress::callback() {
    if (!enabled_) return {};
    return [this](size_t done, size_t total) { update(done, total); };
}

std::string LoadProgress::line(const std::string& path, size_t done, size_t total) {
    char text[160];
    int percent = total == 0 ? 0 : static_cast<int>(100.0 * static_cast<double>(done) / static_cast<double>(total));
    std::snprintf(text, sizeof text, "loading %.80s: %zu of %zu vertices (%d%%)", path.c_str(), done, total,
                  percent);
    return text;
}

void LoadProgress::update(size_t done, size_t total) {
    auto now = std::chrono::steady_clock::now();
    if (now - start_ < std::chrono::seconds(1)) return;
    if (drawn_ && now - last_ < std::chrono::milliseconds(200)) return;
    last_ = now;
    drawn_ = true;
    std::fprintf(stderr, "\r%s\033[K", line(path_, done, total).c_str());
    std::fflush(stderr);
}

void LoadProgress::finish() {
    if (!drawn_) return;
    drawn_ = false;
    std::fprintf(stderr, "\r\033[K");
    std::fflush(stderr);
}

}  // namespace rq
