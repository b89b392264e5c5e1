#include "state/timing.h"

#include <charconv>
#include <cstdio>
#include <cstdlib>

namespace rq::state {

namespace {

void append_hex(std::string& out, double v) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%a", v);
    out += buf;
}

// The reader over a timing text: each step consumes one field or fails.
class Fields {
public:
    explicit Fields(const std::string& text) : p_(text.c_str()), end_(text.c_str() + text.size()) {}
    bool done() const { return p_ == end_; }
    bool separator(char c) {
        if (p_ == end_ || *p_ != c) return false;
        ++p_;
        return true;
    }
    bool number(double& v) {
        char* stop = nullptr;
        v = std::strtod(p_, &stop);
        if (stop == p_ || stop > end_) return false;
        p_ = stop;
        return true;
    }
    bool integer(int64_t& v) {
        auto [stop, ec] = std::from_chars(p_, end_, v);
        if (ec != std::errc()) return false;
        p_ = stop;
        return true;
    }

private:
    const char* p_;
    const char* end_;
};

}  // namespace

std::string Timing::text() const {
    std::string out;
    append_hex(out, min);
    out += ' ';
    append_hex(out, max);
    out += ' ';
    append_hex(out, total);
    out += ' ';
    out += std::to_string(timed);
    for (auto& [id, overhead] : overheads) {
        out += ' ';
        out += std::to_string(id);
        out += ':';
        append_hex(out, overhead);
    }
    return out;
}

Result<Timing> parse_timing(const std::string& text) {
    auto bad = [&](const char* why) { return make_error(Errc::kInvalid, "timing \"" + text + "\": " + why); };
    Timing t;
    Fields in(text);
    if (!in.number(t.min) || !in.separator(' ') || !in.number(t.max) || !in.separator(' ') || !in.number(t.total) ||
        !in.separator(' ') || !in.integer(t.timed))
        return bad("expected the minimum, maximum and total match time and the count of timed matches");
    while (!in.done()) {
        std::pair<int64_t, double> item;
        if (!in.separator(' ') || !in.integer(item.first) || !in.separator(':') || !in.number(item.second))
            return bad("expected a job's ID:OVERHEAD");
        t.overheads.push_back(item);
    }
    if (t.text() != text) return bad("not in the form resource-query writes");
    return t;
}

}  // namespace rq::state
