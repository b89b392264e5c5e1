#include "queue/replay_progress.h"

#include <cstdio>
#include <fstream>

namespace rq::queue {

ReplayProgress::ReplayProgress(std::ostream& out, bool on, int64_t total)
    : out_(out), on_(on), total_(total), started_(std::chrono::steady_clock::now()), last_(started_) {}

std::string ReplayProgress::line(int64_t done, int64_t total, int64_t time, double seconds) {
    char buf[160];
    double rate = seconds > 0 ? double(done) / seconds : 0;
    if (total >= 0)
        std::snprintf(buf, sizeof buf, "replay: %lld/%lld jobs done, simulated time %lld s, %.0f jobs/s",
                      static_cast<long long>(done), static_cast<long long>(total), static_cast<long long>(time), rate);
    else
        std::snprintf(buf, sizeof buf, "replay: %lld jobs done, simulated time %lld s, %.0f jobs/s",
                      static_cast<long long>(done), static_cast<long long>(time), rate);
    return buf;
}

void ReplayProgress::print(int64_t done, int64_t time) {
    auto now = std::chrono::steady_clock::now();
    std::string text = line(done, total_, time, std::chrono::duration<double>(now - started_).count());
    size_t width = text.size();
    if (text.size() < width_) text.append(width_ - text.size(), ' ');
    width_ = width;
    out_ << '\r' << text << std::flush;
    last_ = now;
    printed_ = true;
}

void ReplayProgress::update(int64_t done, int64_t time) {
    if (!on_) return;
    if (printed_ && ++calls_ % 64 != 0) return;
    if (printed_ && std::chrono::steady_clock::now() - last_ < std::chrono::milliseconds(500)) return;
    print(done, time);
}

void ReplayProgress::finish(int64_t done, int64_t time) {
    if (!on_) return;
    print(done, time);
    out_ << '\n' << std::flush;
}

int64_t count_trace_jobs(const std::string& path) {
    auto ends_with = [&](const char* ext) {
        std::string e(ext);
        return path.size() >= e.size() && path.compare(path.size() - e.size(), e.size(), e) == 0;
    };
    if (ends_with(".yaml") || ends_with(".yml")) return -1;
    std::ifstream in(path);
    if (!in) return -1;
    int64_t jobs = 0;
    for (std::string line; std::getline(in, line);) {
        size_t first = line.find_first_not_of(" \t\r");
        if (first != std::string::npos && line[first] != ';') ++jobs;
    }
    return jobs;
}

}  // namespace rq::queue
