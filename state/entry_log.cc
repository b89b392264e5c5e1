// EntryLog (state/journal.h): journal entries in compact storage.
//
// An entry is encoded as: the line (length, bytes), the inputs (count,
// then per input the path's id in paths_ and blob + 1), the timing
// (length, bytes) and the touched jobs (count, then each id as a zigzag
// delta from the previous one). Numbers are LEB128 varints.
#include "state/journal.h"

#include <algorithm>

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

void put_text(std::string& out, const std::string& text) {
    put(out, text.size());
    out += text;
}

std::string get_text(const char*& p) {
    size_t n = get(p);
    std::string text(p, n);
    p += n;
    return text;
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
    put_text(bytes, e.line);
    put(bytes, e.inputs.size());
    for (const Input& in : e.inputs) {
        put(bytes, path_id(in.path));
        put(bytes, static_cast<uint64_t>(in.blob + 1));
    }
    put_text(bytes, e.timing);
    put(bytes, e.touched_jobs.size());
    int64_t prev = 0;
    for (int64_t id : e.touched_jobs) {
        put(bytes, zigzag(static_cast<int64_t>(static_cast<uint64_t>(id) - static_cast<uint64_t>(prev))));
        prev = id;
    }
    append(bytes, where_.size());
}

Entry EntryLog::operator[](size_t i) const {
    uint64_t at = where_[i];
    const char* p = chunks_[at >> 32].data() + (at & 0xffffffffu);
    Entry e;
    e.line = get_text(p);
    e.inputs.resize(get(p));
    for (Input& in : e.inputs) {
        in.path = paths_[get(p)];
        in.blob = static_cast<int64_t>(get(p)) - 1;
    }
    e.timing = get_text(p);
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
