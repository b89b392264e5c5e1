// EntryLog (state/journal.h): journal entries in compact storage.
//
// An entry is encoded as: the line, the inputs (count, then per input the
// path's id in paths_ and blob + 1), the timing and the touched jobs
// (count, then each id as a zigzag delta from the previous one). Numbers
// are LEB128 varints.
//
// The line is `length << 1` and the bytes, or, when it repeats the last
// line written out in full (scripts send the same `match` thousands of
// times), `position << 1 | 1` with the position of that line's entry.
// The timing (state/timing.h) is its numbers: the count of overheads, 3
// raw doubles, N, then per job a zigzag id delta and a raw double (~40
// bytes; its text would be ~100).
#include "state/journal.h"

#include <algorithm>
#include <cstring>

namespace rq::state {

namespace {

void put(std::string& out, uint64_t v) {
    while (v >= 0x80) {
        out.push_back(static_cast<char>((v & 0x7f) | 0x80));
        v >>= 7;
    }
    out.push_back(static_cast<char>(v));
}

uint64_t get(const char*& p) {
    uint64_t v = 0;
    for (int shift = 0;; shift += 7) {
        auto byte = static_cast<unsigned char>(*p++);
        v |= uint64_t(byte & 0x7f) << shift;
        if (byte < 0x80) return v;
    }
}

uint64_t zigzag(int64_t v) { return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63); }
int64_t unzigzag(uint64_t v) { return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1); }

// The line written out in full at `p` (an entry's start).
std::string line_at(const char* p) {
    uint64_t n = get(p) >> 1;
    return std::string(p, n);
}

void put_double(std::string& out, double v) {
    char raw[sizeof v];
    std::memcpy(raw, &v, sizeof v);
    out.append(raw, sizeof v);
}

double get_double(const char*& p) {
    double v;
    std::memcpy(&v, p, sizeof v);
    p += sizeof v;
    return v;
}

void put_timing(std::string& out, const Timing& t) {
    put(out, t.overheads.size());
    put_double(out, t.min);
    put_double(out, t.max);
    put_double(out, t.total);
    put(out, zigzag(t.timed));
    int64_t prev = 0;
    for (auto& [id, overhead] : t.overheads) {
        put(out, zigzag(static_cast<int64_t>(static_cast<uint64_t>(id) - static_cast<uint64_t>(prev))));
        prev = id;
        put_double(out, overhead);
    }
}

Timing get_timing(const char*& p) {
    Timing t;
    t.overheads.resize(get(p));
    t.min = get_double(p);
    t.max = get_double(p);
    t.total = get_double(p);
    t.timed = unzigzag(get(p));
    int64_t prev = 0;
    for (auto& [id, overhead] : t.overheads) {
        id = static_cast<int64_t>(static_cast<uint64_t>(prev) + static_cast<uint64_t>(unzigzag(get(p))));
        prev = id;
        overhead = get_double(p);
    }
    return t;
}

}  // namespace

uint32_t EntryLog::path_id(const std::string& path) {
    auto [it, inserted] = path_index_.emplace(path, static_cast<uint32_t>(paths_.size()));
    if (inserted) paths_.push_back(path);
    return it->second;
}

void EntryLog::append(const std::string& bytes, size_t i) {
    if (chunks_.empty() || chunks_.back().size() + bytes.size() > kChunk) {
        chunks_.emplace_back();
        chunks_.back().reserve(std::max(kChunk, bytes.size()));
    }
    uint64_t at = (uint64_t(chunks_.size() - 1) << 32) | chunks_.back().size();
    chunks_.back() += bytes;
    if (i == where_.size())
        where_.push_back(at);
    else
        where_[i] = at;
}

void EntryLog::push_back(const Entry& e) {
    std::string bytes;
    const bool repeat = has_last_line_ && e.line == last_line_;
    if (repeat) {
        put(bytes, last_line_at_ << 1 | 1);
    } else {
        put(bytes, uint64_t(e.line.size()) << 1);
        bytes += e.line;
    }
    put(bytes, e.inputs.size());
    for (const Input& in : e.inputs) {
        put(bytes, path_id(in.path));
        put(bytes, static_cast<uint64_t>(in.blob + 1));
    }
    put_timing(bytes, e.timing);
    put(bytes, e.touched_jobs.size());
    int64_t prev = 0;
    for (int64_t id : e.touched_jobs) {
        put(bytes, zigzag(static_cast<int64_t>(static_cast<uint64_t>(id) - static_cast<uint64_t>(prev))));
        prev = id;
    }
    append(bytes, where_.size());
    if (!repeat) {
        last_line_at_ = where_.back();
        last_line_ = e.line;
        has_last_line_ = true;
    }
}

Entry EntryLog::operator[](size_t i) const {
    uint64_t at = where_[i];
    const char* p = chunks_[at >> 32].data() + (at & 0xffffffffu);
    Entry e;
    uint64_t tag = get(p);
    if (tag & 1) {
        const char* q = chunks_[(tag >> 1) >> 32].data() + ((tag >> 1) & 0xffffffffu);
        e.line = line_at(q);
    } else {
        e.line.assign(p, tag >> 1);
        p += tag >> 1;
    }
    e.inputs.resize(get(p));
    for (Input& in : e.inputs) {
        in.path = paths_[get(p)];
        in.blob = static_cast<int64_t>(get(p)) - 1;
    }
    e.timing = get_timing(p);
    e.touched_jobs.resize(get(p));
    int64_t prev = 0;
    for (int64_t& id : e.touched_jobs) {
        id = static_cast<int64_t>(static_cast<uint64_t>(prev) + static_cast<uint64_t>(unzigzag(get(p))));
        prev = id;
    }
    return e;
}

void EntryLog::add_input(size_t i, Input in) {
    Entry e = (*this)[i];
    e.inputs.push_back(std::move(in));
    // Re-encoded at the end; the old bytes stay unused (only a journal
    // read back from a file takes this path, once per input).
    size_t n = where_.size();
    push_back(e);
    where_[i] = where_.back();
    where_.resize(n);
}

}  // namespace rq::state
